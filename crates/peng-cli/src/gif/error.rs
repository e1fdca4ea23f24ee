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
    /// A frame's pixel buffer is not `bpp * width * height` bytes.
    BadLength {
        /// The frame's number, counting from 0.
        frame: usize,
        /// Bytes per pixel: 3 (RGB) or 4 (RGBA).
        bpp: usize,
        /// `bpp * width * height`.
        expected: usize,
        /// The buffer's length.
        got: usize,
    },
    /// The `gif` crate could not encode the animation.
    Encode {
        /// The file being written, if any.
        path: Option<PathBuf>,
        /// The cause.
        source: gif::EncodingError,
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
                bpp,
                expected,
                got,
            } => write!(
                f,
                "GIF frame {frame} has {got} bytes of {} data; its size needs {expected}",
                if *bpp == 4 { "RGBA" } else { "RGB" }
            ),
            GifError::Encode {
                path: Some(path),
                source,
            } => write!(f, "cannot encode GIF file {}: {source}", path.display()),
            GifError::Encode { path: None, source } => {
                write!(f, "cannot encode the GIF: {source}")
            }
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
            GifError::Encode { source: e, .. } => Some(e),
            _ => None,
        }
    }
}

impl From<gif::EncodingError> for GifError {
    fn from(source: gif::EncodingError) -> Self {
        GifError::Encode { path: None, source }
    }
}

impl GifError {
    /// The error, naming `path` as the file being written.
    pub(super) fn at(self, path: &std::path::Path) -> Self {
        match self {
            GifError::Encode { source, .. } => GifError::Encode {
                path: Some(path.to_path_buf()),
                source,
            },
            e => e,
        }
    }
}
