//! An RGB canvas with a z-buffer: filled, shaded triangles, lines, rings, PNG.

use super::view::View;
use glam::{DVec2, DVec3};

/// Depths closer than this (metres) belong to coincident surfaces.
const COINCIDENT: f64 = 1e-5;

/// An RGB picture with a depth buffer.
#[derive(Debug, Clone)]
pub struct Canvas {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
    depth: Vec<f64>,
}

impl Canvas {
    /// A canvas filled with `background`, at least one pixel each way (PNG
    /// has no empty pictures).
    pub fn new(width: u32, height: u32, background: [u8; 3]) -> Canvas {
        let (width, height) = (width.max(1), height.max(1));
        let n = (width * height) as usize;
        Canvas {
            width,
            height,
            rgb: background.repeat(n),
            depth: vec![f64::NEG_INFINITY; n],
        }
    }

    /// The pixels, row by row, three bytes each.
    pub fn pixels(&self) -> &[u8] {
        &self.rgb
    }

    /// The colour at (x, y).
    pub fn get(&self, x: u32, y: u32) -> [u8; 3] {
        let i = 3 * (y * self.width + x) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    fn put(&mut self, x: i64, y: i64, color: [u8; 3]) {
        if x >= 0 && y >= 0 && (x as u32) < self.width && (y as u32) < self.height {
            let i = 3 * (y as usize * self.width as usize + x as usize);
            self.rgb[i..i + 3].copy_from_slice(&color);
        }
    }

    /// Fills the world triangle `w`, shaded by how squarely it faces the
    /// viewer (both sides lit, so open meshes look right too), behind nearer
    /// triangles already drawn; where it coincides with one already drawn, on
    /// every other pixel.
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
        let lo = p[0].min(p[1]).min(p[2]).floor().max(DVec2::ZERO);
        let hi = p[0].max(p[1]).max(p[2]).ceil().min(DVec2::new(
            f64::from(self.width) - 1.0,
            f64::from(self.height) - 1.0,
        ));
        if lo.x > hi.x || lo.y > hi.y {
            return;
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
                let i = (y * self.width + x) as usize;
                // Surfaces within 10 µm of each other are one surface (two
                // elements modelled in the same place): the later one takes
                // every other pixel, so both colours show in a checkerboard.
                let tie = (d - self.depth[i]).abs() <= COINCIDENT && (x + y) % 2 == 0;
                if d > self.depth[i] + COINCIDENT || tie {
                    self.depth[i] = self.depth[i].max(d);
                    self.put(i64::from(x), i64::from(y), shade);
                }
            }
        }
    }

    /// A one-pixel line over everything (DDA).
    pub fn line(&mut self, a: DVec2, b: DVec2, color: [u8; 3]) {
        let steps = (b - a).abs().max_element().ceil().clamp(1.0, 10_000.0) as u32;
        for k in 0..=steps {
            let p = a + (b - a) * (f64::from(k) / f64::from(steps));
            self.put(p.x.round() as i64, p.y.round() as i64, color);
        }
    }

    /// A circle of radius `r` pixels, two pixels wide, over everything.
    pub fn ring(&mut self, c: DVec2, r: f64, color: [u8; 3]) {
        let steps = (r * 8.0).ceil().max(16.0) as u32;
        for k in 0..steps {
            let a = std::f64::consts::TAU * f64::from(k) / f64::from(steps);
            for dr in [0.0, 0.5] {
                let p = c + DVec2::new(a.cos(), a.sin()) * (r + dr);
                self.put(p.x.round() as i64, p.y.round() as i64, color);
            }
        }
    }

    /// The canvas as PNG bytes.
    pub fn to_png(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, self.width, self.height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().expect("writing to memory cannot fail");
        w.write_image_data(&self.rgb)
            .expect("the buffer has width × height pixels");
        drop(w);
        out
    }
}

/// Twice the signed area of triangle (a, b, c).
fn edge(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}
