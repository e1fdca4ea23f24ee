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

/// Depths closer than this (metres) belong to coincident surfaces.
const COINCIDENT: f64 = 1e-5;

impl Canvas {
    /// Fills the world triangle `w`, shaded by how squarely it faces the
    /// viewer (both sides lit, so open meshes look right too), behind nearer
    /// triangles already drawn; where it coincides with one already drawn, on
    /// every other pixel. Pixels whose centre lies inside are filled.
    pub fn fill_triangle(&mut self, view: &View, w: [DVec3; 3], color: [u8; 3]) {
        let n = (w[1] - w[0]).cross(w[2] - w[0]);
        let Some(n) = n.try_normalize() else { return };
        let light = 0.35 + 0.65 * n.dot(view.toward_viewer).abs();
        let shade = color.map(|c| (f64::from(c) * light).round().clamp(0.0, 255.0) as u8);
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
            self.depth = vec![f64::NEG_INFINITY; (width * height) as usize];
        }
        for y in lo.y as u32..=hi.y as u32 {
            for x in lo.x as u32..=hi.x as u32 {
                let c = DVec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
                // Barycentric weights by signed areas; inside when all agree
                // in sign with the whole triangle.
                let b0 = edge(p[1], p[2], c) / area;
                let b1 = edge(p[2], p[0], c) / area;
                let b2 = 1.0 - b0 - b1;
                if b0 < 0.0 || b1 < 0.0 || b2 < 0.0 {
                    continue;
                }
                let d = b0 * z[0] + b1 * z[1] + b2 * z[2];
                let i = (y * width + x) as usize;
                // Surfaces within 10 µm of each other are one surface (two
                // elements modelled in the same place): the later one takes
                // every other pixel, so both colours show in a checkerboard.
                let tie = (d - self.depth[i]).abs() <= COINCIDENT && (x + y) % 2 == 0;
                if d > self.depth[i] + COINCIDENT || tie {
                    self.depth[i] = self.depth[i].max(d);
                    self.put(i, shade);
                }
            }
        }
    }
}

/// Twice the signed area of triangle (a, b, c).
fn edge(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}
