//! Depth-tested triangles on the shared [`Canvas`].
//!
//! This part stays hand-written: `tiny-skia` is a 2D renderer and has no depth
//! test, and the clash pictures need one per pixel (the nearer of two elements
//! wins wherever they overlap, coincident surfaces share their pixels). The
//! triangles write straight into the canvas's pixels, so everything drawn
//! afterwards through `tiny-skia` (creases, the clash marker) lands on top.
//! The triangles are not anti-aliased: a pixel belongs to the nearest
//! surface at its centre.

use super::canvas::Canvas;
use super::view::View;
use glam::{DVec2, DVec3};
use tiny_skia::PremultipliedColorU8;

/// Depths closer than this (metres) belong to coincident surfaces.
const COINCIDENT: f32 = 1e-5;

impl Canvas {
    /// Fills the world triangle `w`, shaded by how squarely it faces the
    /// viewer (both sides lit, so open meshes look right too), behind nearer
    /// triangles already drawn; where it coincides with one already drawn, on
    /// every other pixel. Pixels whose centre lies inside are filled.
    pub fn fill_triangle(&mut self, view: &View, w: [DVec3; 3], color: [u8; 3]) {
        self.raster(view, w, color, None);
    }

    /// Glazes the world triangle `w` over what is drawn: shaded as
    /// [`Canvas::fill_triangle`] does, blended at opacity `alpha` on the
    /// pixels where it is not behind a triangle already filled, and leaving
    /// the depths as they are (so what is drawn later still shows through).
    pub fn glaze_triangle(&mut self, view: &View, w: [DVec3; 3], color: [u8; 3], alpha: f32) {
        self.raster(view, w, color, Some(alpha.clamp(0.0, 1.0)));
    }

    /// Fills (`glaze` `None`) or glazes at that opacity.
    fn raster(&mut self, view: &View, w: [DVec3; 3], color: [u8; 3], glaze: Option<f32>) {
        let n = (w[1] - w[0]).cross(w[2] - w[0]);
        let Some(n) = n.try_normalize() else { return };
        let light = 0.35 + 0.65 * n.dot(view.toward_viewer).abs();
        let [r, g, b] = color.map(|c| (f64::from(c) * light).round().clamp(0.0, 255.0) as u8);
        let shade = PremultipliedColorU8::from_rgba(r, g, b, 255).expect("opaque");
        let p = w.map(|v| view.project(v));
        let z = w.map(|v| view.depth(v));
        let area = edge(p[0], p[1], p[2]);
        if area.abs() < 1e-12 || !area.is_finite() {
            return;
        }
        let (width, height) = (self.width(), self.height());
        let lo = p[0].min(p[1]).min(p[2]).floor().max(DVec2::ZERO);
        let hi = p[0]
            .max(p[1])
            .max(p[2])
            .ceil()
            .min(DVec2::new(f64::from(width) - 1.0, f64::from(height) - 1.0));
        if lo.x > hi.x || lo.y > hi.y {
            return;
        }
        if self.depth.is_empty() {
            self.depth = vec![f32::NEG_INFINITY; (width * height) as usize];
        }
        // Each weight is linear in the pixel centre: b_k = g_k · c + h_k.
        // Along a row, the pixels with every weight non-negative form one
        // interval; only it (widened by a pixel against rounding) is visited,
        // and each of its pixels is tested exactly as the weights say.
        let weight = |a: DVec2, b: DVec2| {
            let u = (b - a) / area;
            (DVec2::new(-u.y, u.x), u.y * a.x - u.x * a.y)
        };
        let (g0, h0) = weight(p[1], p[2]);
        let (g1, h1) = weight(p[2], p[0]);
        let (g2, h2) = (-g0 - g1, 1.0 - h0 - h1);
        let (x_lo, x_hi) = (lo.x as i64, hi.x as i64);
        let (pixels, depth) = self.pixels_and_depth();
        for y in lo.y as u32..=hi.y as u32 {
            let cy = f64::from(y) + 0.5;
            let Some((from, to)) = row_span(
                [(g0, h0), (g1, h1), (g2, h2)].map(|(g, h)| (g.x, g.y * cy + h)),
                x_lo,
                x_hi,
            ) else {
                continue;
            };
            // The pixels inside form one run along the row (the weights are
            // linear in x): trim the candidate span to it by the exact test
            // at its ends, then fill the run.
            let inside = |x: i64| {
                let cx = x as f64 + 0.5;
                let b0 = g0.x * cx + g0.y * cy + h0;
                let b1 = g1.x * cx + g1.y * cy + h1;
                b0 >= 0.0 && b1 >= 0.0 && 1.0 - b0 - b1 >= 0.0
            };
            let (mut from, mut to) = (from, to);
            while from <= to && !inside(from) {
                from += 1;
            }
            while to > from && !inside(to) {
                to -= 1;
            }
            if from > to {
                continue;
            }
            // The depth steps linearly along the row.
            let cx = from as f64 + 0.5;
            let b0 = g0.x * cx + g0.y * cy + h0;
            let b1 = g1.x * cx + g1.y * cy + h1;
            let mut d = b0 * z[0] + b1 * z[1] + (1.0 - b0 - b1) * z[2];
            let dz = g0.x * z[0] + g1.x * z[1] + g2.x * z[2];
            let row = (y * width) as usize;
            let (depth, pixels) = (
                &mut depth[row + from as usize..=row + to as usize],
                &mut pixels[row + from as usize..=row + to as usize],
            );
            // Surfaces within 10 µm of each other are one surface (two
            // elements modelled in the same place): the later one takes every
            // other pixel, so both colours show in a checkerboard.
            if let Some(alpha) = glaze {
                for (z, p) in depth.iter().zip(pixels.iter_mut()) {
                    if d as f32 >= *z - COINCIDENT {
                        *p = mix(*p, [r, g, b], alpha);
                    }
                    d += dz;
                }
                continue;
            }
            let parity = (from as u32 + y) % 2;
            for (k, (z, p)) in depth.iter_mut().zip(pixels.iter_mut()).enumerate() {
                let (here, old) = (d as f32, *z);
                let tie = (here - old).abs() <= COINCIDENT && (k as u32 + parity).is_multiple_of(2);
                if here > old + COINCIDENT || tie {
                    *z = old.max(here);
                    *p = shade;
                }
                d += dz;
            }
        }
    }
}

/// `color` at opacity `alpha` over the opaque pixel `p`, in 1/256 steps.
pub(super) fn mix(p: PremultipliedColorU8, color: [u8; 3], alpha: f32) -> PremultipliedColorU8 {
    let a = (alpha.clamp(0.0, 1.0) * 256.0) as u32;
    let m = |old: u8, new: u8| ((u32::from(old) * (256 - a) + u32::from(new) * a + 128) >> 8) as u8;
    let [r, g, b] = color;
    PremultipliedColorU8::from_rgba(m(p.red(), r), m(p.green(), g), m(p.blue(), b), 255)
        .unwrap_or(p)
}

/// The pixels `from..=to` of a row, within `x_lo..=x_hi`, whose centres
/// `x + 0.5` may satisfy every `slope · (x + 0.5) + offset ≥ 0`, widened by
/// one pixel each side; `None` when no pixel can.
fn row_span(weights: [(f64, f64); 3], x_lo: i64, x_hi: i64) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = (x_lo as f64, x_hi as f64 + 1.0);
    for (slope, offset) in weights {
        if slope == 0.0 {
            if offset < -1e-9 {
                return None;
            }
            continue;
        }
        let root = -offset / slope;
        if slope > 0.0 {
            lo = lo.max(root);
        } else {
            hi = hi.min(root);
        }
    }
    // (NaN bounds fail the comparison too.)
    if lo.partial_cmp(&hi).is_none_or(|o| o.is_gt()) {
        return None;
    }
    let from = ((lo - 0.5).floor() as i64 - 1).max(x_lo);
    let to = ((hi - 0.5).ceil() as i64 + 1).min(x_hi);
    (from <= to).then_some((from, to))
}

/// Twice the signed area of triangle (a, b, c).
fn edge(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift), for test triangles.
    struct Draws(u64);
    impl Draws {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// The row-span rasterizer fills exactly the pixels whose centres lie
    /// inside: checked against every pixel of the canvas, for large, thin,
    /// sliver and partly off-canvas triangles (pixels whose centre is within
    /// 1e-9 of an edge may go either way).
    #[test]
    fn fills_exactly_the_pixels_inside() {
        let (w, h) = (97u32, 61u32);
        let view = View::looking_at(DVec3::ZERO, 1.0, w, h);
        let mut r = Draws(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0;
        for k in 0..400 {
            let spread = [0.02, 0.3, 1.5][k % 3];
            let mut v = [DVec3::ZERO; 3];
            for p in &mut v {
                *p = DVec3::new(r.next() - 0.5, r.next() - 0.5, r.next() - 0.5) * 2.0 * spread;
            }
            if k % 5 == 0 {
                // A sliver: the third corner nearly on the first edge.
                v[2] = v[0].lerp(v[1], r.next()) + DVec3::splat(1e-4 * r.next());
            }
            let mut c = Canvas::new(w, h, [255, 255, 255]);
            c.fill_triangle(&view, v, [0, 0, 0]);
            let p = v.map(|q| view.project(q));
            let area = edge(p[0], p[1], p[2]);
            for y in 0..h {
                for x in 0..w {
                    let cp = DVec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
                    let b = [
                        edge(p[1], p[2], cp) / area,
                        edge(p[2], p[0], cp) / area,
                        edge(p[0], p[1], cp) / area,
                    ];
                    let min = b[0].min(b[1]).min(b[2]);
                    let filled = c.get(i64::from(x), i64::from(y)) != Some([255, 255, 255]);
                    if min > 1e-9 {
                        assert!(filled, "triangle {k}: pixel ({x}, {y}) inside, not filled");
                        checked += 1;
                    } else if min < -1e-9 {
                        assert!(!filled, "triangle {k}: pixel ({x}, {y}) outside, filled");
                    }
                }
            }
        }
        assert!(checked > 20_000, "{checked} inside pixels checked");
    }
}
