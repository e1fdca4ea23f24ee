//! A small software rasterizer: anti-aliased thick lines and disks, filled
//! polygons, dashed lines and arrows on an RGB canvas, and PNG output.
//!
//! Anti-aliasing uses the distance from each pixel centre to the ideal shape:
//! coverage `clamp(w/2 + 1/2 - d, 0, 1)` approximates the area of the pixel
//! (a unit box) inside a band of width `w` (a box filter, as in Gupta and
//! Sproull, "Filtering edges for gray-scale displays", 1981, simplified).

use std::io::Write;

/// An RGB colour.
pub type Rgb = [u8; 3];

/// A 2D point in pixel coordinates (x right, y down; pixel `(i, j)` covers
/// `[i, i+1] × [j, j+1]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct P {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
}

impl P {
    /// A point.
    pub fn new(x: f32, y: f32) -> Self {
        P { x, y }
    }
}

/// An RGB image.
#[derive(Debug, Clone)]
pub struct Canvas {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Row-major RGB bytes.
    pub data: Vec<u8>,
}

impl Canvas {
    /// A canvas filled with `bg`.
    pub fn new(width: u32, height: u32, bg: Rgb) -> Self {
        let n = width as usize * height as usize;
        let mut data = Vec::with_capacity(n * 3);
        for _ in 0..n {
            data.extend_from_slice(&bg);
        }
        Canvas {
            width,
            height,
            data,
        }
    }

    /// The colour of pixel `(x, y)`, if inside.
    #[cfg(test)]
    pub fn get(&self, x: i64, y: i64) -> Option<Rgb> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        Some([self.data[i], self.data[i + 1], self.data[i + 2]])
    }

    /// Blends `c` over pixel `(x, y)` with opacity `a` in `[0, 1]`.
    pub fn blend(&mut self, x: i64, y: i64, c: Rgb, a: f32) {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 || a <= 0.0 {
            return;
        }
        let a = a.min(1.0);
        let i = (y as usize * self.width as usize + x as usize) * 3;
        for (px, &ck) in self.data[i..i + 3].iter_mut().zip(&c) {
            let old = *px as f32;
            *px = (old + (ck as f32 - old) * a).round() as u8;
        }
    }

    /// Rows `[y0, y1)` clamped to the canvas, for a band around `lo..hi`.
    fn rows(&self, lo: f32, hi: f32) -> (i64, i64) {
        let y0 = (lo.floor() as i64).max(0);
        let y1 = (hi.ceil() as i64 + 1).min(self.height as i64);
        (y0, y1)
    }

    /// An anti-aliased line of width `w` with round caps, opacity `alpha`.
    pub fn line(&mut self, a: P, b: P, w: f32, c: Rgb, alpha: f32) {
        if !(a.x.is_finite() && a.y.is_finite() && b.x.is_finite() && b.y.is_finite()) {
            return;
        }
        let r = w * 0.5 + 0.5;
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len2 = dx * dx + dy * dy;
        let (y0, y1) = self.rows(a.y.min(b.y) - r, a.y.max(b.y) + r);
        for y in y0..y1 {
            let cy = y as f32 + 0.5;
            // The part of the segment whose y lies within r of this row bounds
            // the x range of the pixels that can be covered.
            let (t0, t1) = if dy.abs() < 1e-6 {
                (0.0, 1.0)
            } else {
                let ta = (cy - r - a.y) / dy;
                let tb = (cy + r - a.y) / dy;
                (ta.min(tb).max(0.0), ta.max(tb).min(1.0))
            };
            if t0 > t1 {
                continue;
            }
            let xa = a.x + dx * t0;
            let xb = a.x + dx * t1;
            let x0 = ((xa.min(xb) - r).floor() as i64).max(0);
            let x1 = ((xa.max(xb) + r).ceil() as i64 + 1).min(self.width as i64);
            for x in x0..x1 {
                let cx = x as f32 + 0.5;
                // Distance from the pixel centre to the segment (Ericson 5.1.2).
                let t = if len2 > 0.0 {
                    (((cx - a.x) * dx + (cy - a.y) * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (px, py) = (a.x + dx * t - cx, a.y + dy * t - cy);
                let d = (px * px + py * py).sqrt();
                let cov = (w * 0.5 + 0.5 - d).clamp(0.0, 1.0);
                self.blend(x, y, c, cov * alpha);
            }
        }
    }

    /// A closed polyline.
    pub fn polyline_closed(&mut self, pts: &[P], w: f32, c: Rgb) {
        for i in 0..pts.len() {
            self.line(pts[i], pts[(i + 1) % pts.len()], w, c, 1.0);
        }
    }

    /// A dashed line: dashes of `dash` pixels separated by gaps of `gap`.
    pub fn dashed_line(&mut self, a: P, b: P, w: f32, c: Rgb, dash: f32, gap: f32) {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len = (dx * dx + dy * dy).sqrt();
        if !len.is_finite() || len <= 0.0 || dash <= 0.0 {
            return;
        }
        let mut s = 0.0;
        while s < len {
            let e = (s + dash).min(len);
            let p = |t: f32| P::new(a.x + dx * t / len, a.y + dy * t / len);
            self.line(p(s), p(e), w, c, 1.0);
            s += dash + gap.max(0.0);
        }
    }

    /// An arrow from `a` to `b` with a filled triangular head of `head` pixels.
    pub fn arrow(&mut self, a: P, b: P, w: f32, c: Rgb, head: f32) {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len = (dx * dx + dy * dy).sqrt();
        if !len.is_finite() || len <= 0.0 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let h = head.min(len);
        let base = P::new(b.x - ux * h, b.y - uy * h);
        self.line(a, base, w, c, 1.0);
        let side = P::new(-uy * h * 0.45, ux * h * 0.45);
        let tri = [
            b,
            P::new(base.x + side.x, base.y + side.y),
            P::new(base.x - side.x, base.y - side.y),
        ];
        self.fill_polygon(&tri, c, 1.0);
        self.polyline_closed(&tri, 1.0, c);
    }

    /// An anti-aliased filled disk.
    pub fn disk(&mut self, center: P, radius: f32, c: Rgb, alpha: f32) {
        if !(center.x.is_finite() && center.y.is_finite()) {
            return;
        }
        let r = radius + 0.5;
        let (y0, y1) = self.rows(center.y - r, center.y + r);
        let x0 = ((center.x - r).floor() as i64).max(0);
        let x1 = ((center.x + r).ceil() as i64 + 1).min(self.width as i64);
        for y in y0..y1 {
            for x in x0..x1 {
                let (px, py) = (x as f32 + 0.5 - center.x, y as f32 + 0.5 - center.y);
                let d = (px * px + py * py).sqrt();
                self.blend(x, y, c, (radius + 0.5 - d).clamp(0.0, 1.0) * alpha);
            }
        }
    }

    /// Fills a polygon (even-odd rule) by scanlines through pixel centres; no
    /// anti-aliasing (draw the outline on top for smooth edges).
    pub fn fill_polygon(&mut self, pts: &[P], c: Rgb, alpha: f32) {
        if pts.len() < 3 || pts.iter().any(|p| !(p.x.is_finite() && p.y.is_finite())) {
            return;
        }
        let lo = pts.iter().fold(f32::INFINITY, |m, p| m.min(p.y));
        let hi = pts.iter().fold(f32::NEG_INFINITY, |m, p| m.max(p.y));
        let (y0, y1) = self.rows(lo, hi);
        let mut xs = Vec::new();
        for y in y0..y1 {
            let cy = y as f32 + 0.5;
            xs.clear();
            for i in 0..pts.len() {
                let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
                // Half-open rule: an edge counts for rows with p.y <= cy < q.y
                // (or the reverse), so shared vertices are not counted twice.
                if (p.y <= cy) != (q.y <= cy) {
                    xs.push(p.x + (cy - p.y) / (q.y - p.y) * (q.x - p.x));
                }
            }
            xs.sort_by(f32::total_cmp);
            for span in xs.chunks_exact(2) {
                // Pixels whose centre lies in [span0, span1).
                let x0 = ((span[0] - 0.5).ceil() as i64).max(0);
                let x1 = ((span[1] - 0.5).ceil() as i64).min(self.width as i64);
                for x in x0..x1 {
                    self.blend(x, y, c, alpha);
                }
            }
        }
    }

    /// Encodes the canvas as an 8-bit RGB PNG.
    pub fn write_png<W: Write>(&self, w: W) -> Result<(), png::EncodingError> {
        let mut enc = png::Encoder::new(w, self.width, self.height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header()?;
        writer.write_image_data(&self.data)?;
        writer.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Rgb = [255, 255, 255];
    const RED: Rgb = [255, 0, 0];

    fn count(c: &Canvas, col: Rgb) -> usize {
        c.data.chunks_exact(3).filter(|p| *p == col).count()
    }

    #[test]
    fn filled_square_covers_exactly_its_pixels() {
        let mut c = Canvas::new(20, 20, WHITE);
        let sq = [
            P::new(2.0, 3.0),
            P::new(12.0, 3.0),
            P::new(12.0, 8.0),
            P::new(2.0, 8.0),
        ];
        c.fill_polygon(&sq, RED, 1.0);
        assert_eq!(count(&c, RED), 50);
        assert_eq!(c.get(2, 3), Some(RED));
        assert_eq!(c.get(11, 7), Some(RED));
        assert_eq!(c.get(12, 7), Some(WHITE));
        assert_eq!(c.get(1, 5), Some(WHITE));
    }

    #[test]
    fn triangle_fill_has_half_the_area() {
        let mut c = Canvas::new(100, 100, WHITE);
        c.fill_polygon(
            &[P::new(0.0, 0.0), P::new(100.0, 0.0), P::new(0.0, 100.0)],
            RED,
            1.0,
        );
        let n = count(&c, RED) as f32;
        assert!((n - 5000.0).abs() < 150.0, "{n}");
    }

    #[test]
    fn disk_area_and_antialiased_edge() {
        let mut c = Canvas::new(40, 40, WHITE);
        c.disk(P::new(20.0, 20.0), 10.0, RED, 1.0);
        // Coverage sums to about π r².
        let cov: f32 = c
            .data
            .chunks_exact(3)
            .map(|p| (255.0 - p[1] as f32) / 255.0)
            .sum();
        assert!((cov - std::f32::consts::PI * 100.0).abs() < 3.0, "{cov}");
        // An edge pixel is partly covered.
        let edge = c.get(29, 23).unwrap();
        assert!(edge[1] > 0 && edge[1] < 255, "{edge:?}");
        assert_eq!(c.get(20, 20), Some(RED));
        assert_eq!(c.get(0, 0), Some(WHITE));
    }

    #[test]
    fn line_coverage_matches_its_area() {
        let mut c = Canvas::new(100, 50, WHITE);
        // A diagonal line of width 2 and length 50: area ≈ 2·50 + π (round caps).
        c.line(P::new(20.0, 10.0), P::new(50.0, 50.0), 2.0, RED, 1.0);
        let cov: f32 = c
            .data
            .chunks_exact(3)
            .map(|p| (255.0 - p[1] as f32) / 255.0)
            .sum();
        // The bottom cap and a bit of the band fall off the canvas (y = 50).
        assert!(cov > 95.0 && cov < 105.0, "{cov}");
        // Off-canvas and degenerate lines do not panic.
        c.line(P::new(-1e9, -5.0), P::new(1e9, 3e9), 3.0, RED, 1.0);
        c.line(P::new(5.0, 5.0), P::new(5.0, 5.0), 3.0, RED, 1.0);
        c.line(P::new(f32::NAN, 5.0), P::new(5.0, 5.0), 3.0, RED, 1.0);
    }

    #[test]
    fn dashed_line_has_gaps() {
        let mut c = Canvas::new(100, 10, WHITE);
        c.dashed_line(P::new(0.0, 5.0), P::new(100.0, 5.0), 1.0, RED, 6.0, 4.0);
        let row: Vec<bool> = (0..100).map(|x| c.get(x, 5) != Some(WHITE)).collect();
        assert!(row[2] && !row[8] && row[12] && !row[18]);
    }

    #[test]
    fn png_round_trip() {
        let mut c = Canvas::new(7, 5, WHITE);
        c.blend(3, 2, RED, 1.0);
        let mut buf = Vec::new();
        c.write_png(&mut buf).unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(buf));
        let mut reader = dec.read_info().unwrap();
        let mut out = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut out).unwrap();
        assert_eq!((info.width, info.height), (7, 5));
        assert_eq!(&out[..info.buffer_size()], &c.data[..]);
    }
}
