//! An animated GIF writer for the pictures of [`crate::raster`].
//!
//! Frames are collected first ([`GifWriter::add_canvas`],
//! [`GifWriter::add_rgba`]) because the animation
//! shares one global colour table built from all of them ([`palette`]: exact
//! when the frames hold at most 256 colours, a median cut otherwise). The
//! `gif` crate (image-rs) then writes the file: the global table, the
//! NETSCAPE2.0 loop extension (repeat forever), and per frame a graphic
//! control extension with the delay in centiseconds and disposal "keep" (the
//! next frame is drawn over this one) and the LZW-compressed indices.
//!
//! Frames after the first only store the smallest rectangle holding every
//! pixel whose palette index changed (a 1×1 rectangle if none did); with
//! "keep" the rest of the screen keeps the earlier frames' pixels, so a frame
//! where little moves costs little. Measured on `peng demo` (160 frames of
//! 480 × 360): 295 kB instead of 395 kB with whole frames; on `peng sim`'s
//! pyramid (121 frames): 174 kB instead of 1.23 MB.
//!
//! With the `gif` crate's LZW coder (weezl) the demo's GIF is 294 533 bytes,
//! 30 more than with the hand-written coder it replaced, and writing it takes
//! about 1.4 times as long (0.33 s against 0.23 s, dev build).
//!
//! Viewers commonly replace delays of 0 or 1 centisecond by about 10; use 2 or
//! more for a dependable rate.

mod error;
mod palette;
#[cfg(test)]
mod tests;

pub use error::GifError;

use crate::raster::Canvas;
use std::borrow::Cow;
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
        self.add_rgba(canvas.width(), canvas.height(), canvas.rgba(), delay_cs)
    }

    /// Adds row-major RGBA pixels (4 bytes each; the alpha is ignored, the
    /// frames being opaque) of `width × height` as the next frame, shown for
    /// `delay_cs` hundredths of a second.
    pub fn add_rgba(
        &mut self,
        width: u32,
        height: u32,
        rgba: &[u8],
        delay_cs: u16,
    ) -> Result<(), GifError> {
        self.add(width, height, rgba, 4, delay_cs)
    }

    /// Adds row-major RGB pixels (3 bytes each) of `width × height` as the
    /// next frame, shown for `delay_cs` hundredths of a second. Every frame
    /// must have the first frame's size. (Only the tests use it.)
    #[cfg(test)]
    pub fn add_rgb(
        &mut self,
        width: u32,
        height: u32,
        rgb: &[u8],
        delay_cs: u16,
    ) -> Result<(), GifError> {
        self.add(width, height, rgb, 3, delay_cs)
    }

    /// Checks and adds a frame of `bpp` bytes per pixel (3: RGB, 4: RGBA),
    /// kept as RGB.
    fn add(
        &mut self,
        width: u32,
        height: u32,
        pixels: &[u8],
        bpp: usize,
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
        // At most 65535² · 4 < 2^35: no overflow in a 64-bit usize; checked
        // anyway for 32-bit targets.
        let expected = (width as usize)
            .checked_mul(height as usize)
            .and_then(|n| n.checked_mul(bpp));
        if expected != Some(pixels.len()) {
            return Err(GifError::BadLength {
                frame,
                bpp,
                expected: expected.unwrap_or(usize::MAX),
                got: pixels.len(),
            });
        }
        let rgb = if bpp == 3 {
            pixels.to_vec()
        } else {
            pixels
                .chunks_exact(bpp)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect()
        };
        self.size = Some((width, height));
        self.frames.push(Frame { rgb, delay_cs });
        Ok(())
    }

    /// Writes the animation to `path` (created or truncated).
    pub fn save(&self, path: &Path) -> Result<(), GifError> {
        let bytes = self.to_bytes().map_err(|e| e.at(path))?;
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
        let table: Vec<u8> = q.colors.iter().flatten().copied().collect();
        // Sides were checked against u16::MAX in `add`.
        let (w16, h16) = (width as u16, height as u16);
        let mut enc = gif::Encoder::new(Vec::new(), w16, h16, &table)?;
        enc.set_repeat(gif::Repeat::Infinite)?;
        let (w, h) = (width as usize, height as usize);
        let mut previous: Option<Vec<u8>> = None;
        for frame in &self.frames {
            let indices = to_indices(&frame.rgb, &q);
            let rect = match &previous {
                None => Rect { x: 0, y: 0, w, h },
                Some(prev) => changed_rect(prev, &indices, w),
            };
            let buffer: Vec<u8> = (rect.y..rect.y + rect.h)
                .flat_map(|y| &indices[y * w + rect.x..y * w + rect.x + rect.w])
                .copied()
                .collect();
            enc.write_frame(&gif::Frame {
                delay: frame.delay_cs,
                dispose: gif::DisposalMethod::Keep,
                left: rect.x as u16,
                top: rect.y as u16,
                width: rect.w as u16,
                height: rect.h as u16,
                buffer: Cow::Owned(buffer),
                ..gif::Frame::default()
            })?;
            previous = Some(indices);
        }
        Ok(enc.into_inner()?)
    }
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
