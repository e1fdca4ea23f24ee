//! An animated GIF writer (GIF89a) for the pictures of [`crate::raster`].
//!
//! Frames are collected first ([`GifWriter::add_canvas`],
//! [`GifWriter::add_rgb`]) because the animation shares one global colour
//! table built from all of them ([`palette`]: exact when the frames hold at
//! most 256 colours, a median cut otherwise). [`GifWriter::to_bytes`] then
//! writes, following the GIF89a specification (CompuServe, 1990; section
//! numbers below are its own):
//!
//! - the header `GIF89a` (17) and the logical screen descriptor (18) with the
//!   global colour table (19);
//! - the NETSCAPE2.0 application extension (26; the block is Netscape's
//!   convention, not part of the specification) with loop count 0: repeat
//!   forever;
//! - per frame: a graphic control extension (23) with the delay in
//!   centiseconds and disposal method 1 ("do not dispose": the next frame is
//!   drawn over this one), an image descriptor (20) and the LZW-compressed
//!   indices in data sub-blocks (22, Appendix F; [`lzw`]);
//! - the trailer `0x3B` (27).
//!
//! Frames after the first only store the smallest rectangle holding every
//! pixel whose palette index changed (a 1×1 rectangle if none did); with
//! "do not dispose" the rest of the screen keeps the earlier frames' pixels,
//! so a frame where little moves costs little.
//!
//! Viewers commonly replace delays of 0 or 1 centisecond by about 10; use 2 or
//! more for a dependable rate.

mod error;
mod lzw;
mod palette;
#[cfg(test)]
mod tests;

pub use error::GifError;

use crate::raster::Canvas;
use std::path::Path;

/// One frame: RGB pixels and how long it is shown.
struct Frame {
    rgb: Vec<u8>,
    delay_cs: u16,
}

/// Collects the frames of an animation and writes them as a looping GIF.
///
/// The frames are kept until the end (3 bytes per pixel each: 55 MB for 60
/// frames of 640 × 480) because the shared palette needs all of them.
#[derive(Default)]
pub struct GifWriter {
    /// (width, height) of every frame, set by the first.
    size: Option<(u32, u32)>,
    frames: Vec<Frame>,
}

impl GifWriter {
    /// An animation without frames.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of frames added.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether no frame was added (only the tests ask).
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Adds a canvas as the next frame, shown for `delay_cs` hundredths of a
    /// second.
    pub fn add_canvas(&mut self, canvas: &Canvas, delay_cs: u16) -> Result<(), GifError> {
        self.add_rgb(canvas.width, canvas.height, &canvas.data, delay_cs)
    }

    /// Adds row-major RGB pixels (3 bytes each) of `width × height` as the
    /// next frame, shown for `delay_cs` hundredths of a second. Every frame
    /// must have the first frame's size.
    pub fn add_rgb(
        &mut self,
        width: u32,
        height: u32,
        rgb: &[u8],
        delay_cs: u16,
    ) -> Result<(), GifError> {
        let frame = self.frames.len();
        if width == 0 || height == 0 {
            return Err(GifError::ZeroSize { frame });
        }
        if width > u32::from(u16::MAX) || height > u32::from(u16::MAX) {
            return Err(GifError::TooLarge {
                frame,
                width,
                height,
            });
        }
        if let Some(expected) = self.size {
            if expected != (width, height) {
                return Err(GifError::SizeMismatch {
                    frame,
                    expected,
                    got: (width, height),
                });
            }
        }
        // At most 65535² · 3 < 2^34: no overflow in a 64-bit usize; checked
        // anyway for 32-bit targets.
        let expected = (width as usize)
            .checked_mul(height as usize)
            .and_then(|n| n.checked_mul(3));
        if expected != Some(rgb.len()) {
            return Err(GifError::BadLength {
                frame,
                expected: expected.unwrap_or(usize::MAX),
                got: rgb.len(),
            });
        }
        self.size = Some((width, height));
        self.frames.push(Frame {
            rgb: rgb.to_vec(),
            delay_cs,
        });
        Ok(())
    }

    /// Writes the animation to `path` (created or truncated).
    pub fn save(&self, path: &Path) -> Result<(), GifError> {
        let bytes = self.to_bytes()?;
        std::fs::write(path, bytes).map_err(|source| GifError::File {
            path: path.to_path_buf(),
            source,
        })
    }

    /// The whole GIF file in memory.
    pub fn to_bytes(&self) -> Result<Vec<u8>, GifError> {
        // The size is set by the first frame.
        let Some((width, height)) = self.size else {
            return Err(GifError::Empty);
        };
        let q = palette::quantize(self.frames.iter().map(|f| f.rgb.as_slice()));
        // The colour table holds 2^bits entries, stored as the field
        // n = bits - 1 (section 18); the LZW minimum code size is bits, but
        // not below 2 (section 22, Appendix F).
        let bits = (1..=8u8)
            .find(|&b| 1usize << b >= q.colors.len())
            .unwrap_or(8);
        let min_code_size = bits.max(2);

        let mut out = Vec::new();
        out.extend_from_slice(b"GIF89a");
        // Logical screen descriptor: size; packed = global table present,
        // colour resolution 8 bits (field 7), not sorted, table size field;
        // background index 0; no aspect ratio.
        push_u16(&mut out, width as u16);
        push_u16(&mut out, height as u16);
        out.push(0x80 | 7 << 4 | (bits - 1));
        out.extend_from_slice(&[0, 0]);
        for i in 0..1usize << bits {
            out.extend_from_slice(q.colors.get(i).unwrap_or(&[0, 0, 0]));
        }
        // NETSCAPE2.0: sub-block id 1, loop count 0 = forever.
        out.extend_from_slice(&[0x21, 0xFF, 11]);
        out.extend_from_slice(b"NETSCAPE2.0");
        out.extend_from_slice(&[3, 1, 0, 0, 0]);

        let (w, h) = (width as usize, height as usize);
        let mut previous: Option<Vec<u8>> = None;
        for frame in &self.frames {
            let indices = to_indices(&frame.rgb, &q);
            let rect = match &previous {
                None => Rect { x: 0, y: 0, w, h },
                Some(prev) => changed_rect(prev, &indices, w),
            };
            // Graphic control extension: disposal 1, no user input, no
            // transparency.
            out.extend_from_slice(&[0x21, 0xF9, 4, 1 << 2]);
            push_u16(&mut out, frame.delay_cs);
            out.extend_from_slice(&[0, 0]);
            // Image descriptor: position and size, no local table, not
            // interlaced.
            out.push(0x2C);
            for v in [rect.x, rect.y, rect.w, rect.h] {
                push_u16(&mut out, v as u16);
            }
            out.push(0);
            let sub: Vec<u8> = (rect.y..rect.y + rect.h)
                .flat_map(|y| &indices[y * w + rect.x..y * w + rect.x + rect.w])
                .copied()
                .collect();
            out.push(min_code_size);
            lzw::sub_blocks(&mut out, &lzw::compress(&sub, min_code_size));
            previous = Some(indices);
        }
        out.push(0x3B);
        Ok(out)
    }
}

fn push_u16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// The palette index of every pixel.
fn to_indices(rgb: &[u8], q: &palette::Quantized) -> Vec<u8> {
    // Flat areas repeat a colour: look it up once per run.
    let mut last: Option<(u32, u8)> = None;
    rgb.chunks_exact(3)
        .map(|px| {
            let c = palette::pack(px);
            match last {
                Some((lc, i)) if lc == c => i,
                _ => {
                    // Every colour of the frames was entered by `quantize`.
                    let i = q.index.get(&c).copied().unwrap_or(0);
                    last = Some((c, i));
                    i
                }
            }
        })
        .collect()
}

/// A rectangle of pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    x: usize,
    y: usize,
    w: usize,
    h: usize,
}

/// The bounding rectangle of the pixels where `a` and `b` (row-major, `w`
/// wide) differ; the top-left pixel alone if they are equal (a GIF image
/// cannot be empty).
fn changed_rect(a: &[u8], b: &[u8], w: usize) -> Rect {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, (ra, rb)) in a.chunks_exact(w).zip(b.chunks_exact(w)).enumerate() {
        if ra == rb {
            continue;
        }
        // First and last differing columns of the row.
        let first = ra.iter().zip(rb).position(|(p, q)| p != q).unwrap_or(0);
        let last = ra.iter().zip(rb).rposition(|(p, q)| p != q).unwrap_or(0);
        x0 = x0.min(first);
        x1 = x1.max(last + 1);
        y0 = y0.min(y);
        y1 = y + 1;
    }
    if y0 == usize::MAX {
        return Rect {
            x: 0,
            y: 0,
            w: 1,
            h: 1,
        };
    }
    Rect {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    }
}
