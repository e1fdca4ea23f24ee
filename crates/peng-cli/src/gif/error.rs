//! The errors of the GIF writer.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why an animation cannot be written.
#[derive(Debug)]
pub enum GifError {
    /// The animation was written before any frame was added.
    Empty,
    /// A frame has a zero width or height.
    ZeroSize {
        /// The frame's number, counting from 0.
        frame: usize,
    },
    /// A frame is wider or taller than the 65535 pixels GIF can store.
    TooLarge {
        /// The frame's number, counting from 0.
        frame: usize,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
    },
    /// A frame's size differs from the first frame's.
    SizeMismatch {
        /// The frame's number, counting from 0.
        frame: usize,
        /// The first frame's (width, height).
        expected: (u32, u32),
        /// This frame's (width, height).
        got: (u32, u32),
    },
    /// A frame's pixel buffer is not `3 * width * height` bytes.
    BadLength {
        /// The frame's number, counting from 0.
        frame: usize,
        /// `3 * width * height`.
        expected: usize,
        /// The buffer's length.
        got: usize,
    },
    /// Creating or writing the file failed.
    File {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

impl fmt::Display for GifError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GifError::Empty => write!(f, "an animated GIF needs at least one frame"),
            GifError::ZeroSize { frame } => {
                write!(f, "GIF frame {frame} has a zero width or height")
            }
            GifError::TooLarge {
                frame,
                width,
                height,
            } => write!(
                f,
                "GIF frame {frame} is {width}x{height} pixels; GIF allows at most 65535x65535"
            ),
            GifError::SizeMismatch {
                frame,
                expected,
                got,
            } => write!(
                f,
                "GIF frame {frame} is {}x{} pixels but the first frame is {}x{}",
                got.0, got.1, expected.0, expected.1
            ),
            GifError::BadLength {
                frame,
                expected,
                got,
            } => write!(
                f,
                "GIF frame {frame} has {got} bytes of RGB data; its size needs {expected}"
            ),
            GifError::File { path, source } => {
                write!(f, "cannot write GIF file {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for GifError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GifError::File { source: e, .. } => Some(e),
            _ => None,
        }
    }
}
