//! The pictures' canvas: `peng check --png`, `peng demo` and `peng sim` draw
//! on [`peng_clash::picture::Canvas`], the one drawing surface that the clash
//! pictures use too (`tiny-skia` underneath: anti-aliased fills and strokes,
//! PNG output through the `png` crate).

pub use peng_clash::picture::{Canvas, Rgb};

/// A point in pixel coordinates (x right, y down; pixel `(i, j)` covers
/// `[i, i+1] × [j, j+1]`).
pub type P = peng::d2::Vec2;
