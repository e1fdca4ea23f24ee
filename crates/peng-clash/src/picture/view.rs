//! An orthographic camera framed on a cube.

use glam::{DMat3, DVec2, DVec3};

/// An orthographic view: world points to pixel coordinates and depth.
#[derive(Debug, Clone, Copy)]
pub struct View {
    /// Camera axes: right, up, and towards the viewer.
    basis: DMat3,
    center: DVec3,
    scale: f64,
    width: f64,
    height: f64,
    /// Unit vector from the scene towards the viewer.
    pub toward_viewer: DVec3,
}

impl View {
    /// Looks at `center` from azimuth 35° and elevation 30°, framing a cube of
    /// half-side `half` in a `width` × `height` picture.
    pub fn looking_at(center: DVec3, half: f64, width: u32, height: u32) -> View {
        let (az, el) = (35f64.to_radians(), 30f64.to_radians());
        let back = DVec3::new(el.cos() * az.cos(), el.cos() * az.sin(), el.sin());
        let right = DVec3::Z.cross(back).normalize();
        let up = back.cross(right);
        let (w, h) = (f64::from(width), f64::from(height));
        // The cube's projection spans at most √3 · 2·half across.
        let scale = w.min(h) / (2.0 * half * 3f64.sqrt());
        View {
            basis: DMat3::from_cols(right, up, back),
            center,
            scale,
            width: w,
            height: h,
            toward_viewer: back,
        }
    }

    /// Pixel coordinates (x right, y down) of a world point.
    pub fn project(&self, p: DVec3) -> DVec2 {
        let d = p - self.center;
        let (x, y) = (d.dot(self.basis.x_axis), d.dot(self.basis.y_axis));
        DVec2::new(
            self.width * 0.5 + x * self.scale,
            self.height * 0.5 - y * self.scale,
        )
    }

    /// Depth towards the viewer (larger is nearer).
    pub fn depth(&self, p: DVec3) -> f64 {
        (p - self.center).dot(self.basis.z_axis)
    }

    /// Where the eye would stand for a perspective camera showing the same
    /// frame with a 60° field of view (for BCF viewpoints), and the direction
    /// it looks in and its up vector.
    pub fn camera(&self, half: f64) -> (DVec3, DVec3, DVec3) {
        let distance = half * 3f64.sqrt() / (30f64.to_radians()).tan();
        (
            self.center + self.toward_viewer * distance,
            -self.toward_viewer,
            self.basis.y_axis,
        )
    }
}
