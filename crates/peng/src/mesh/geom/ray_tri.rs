//! Watertight ray/triangle intersection.
//!
//! Woop, Benthin and Wald, "Watertight Ray/Triangle Intersection", JCGT 2(1),
//! 2013. The ray is mapped to the +z axis by a permutation of the axes (so that
//! `z` is the largest direction component) and a shear; each triangle vertex is
//! mapped the same way, so that the 2D edge functions `U, V, W` of an edge
//! shared by two triangles are computed from the same transformed vertices and
//! agree in sign: a ray can not slip between two triangles of a closed mesh.
//! Edge functions that come out exactly zero are recomputed in f64 so that
//! their sign is right. A hit with a zero edge function lies on an edge or a
//! vertex; the inside test treats such hits as ambiguous and retries.

use crate::math::Vec3;

/// A ray prepared for the watertight test.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WatertightRay {
    origin: Vec3,
    k: [usize; 3],
    shear: Vec3,
}

/// The outcome of one ray/triangle test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TriHit {
    /// Ray parameter.
    pub t: f32,
    /// Whether the hit is on an edge or a vertex (a zero edge function), or the
    /// ray lies in the triangle's plane.
    pub on_boundary: bool,
}

impl WatertightRay {
    /// Prepares the ray `origin + t·dir`; `dir` must not be zero.
    pub(crate) fn new(origin: Vec3, dir: Vec3) -> Self {
        let a = dir.abs();
        let kz = if a.x >= a.y && a.x >= a.z {
            0
        } else if a.y >= a.z {
            1
        } else {
            2
        };
        let mut kx = (kz + 1) % 3;
        let mut ky = (kx + 1) % 3;
        // Keep the winding of the triangles: a negative z flips the frame.
        if dir[kz] < 0.0 {
            core::mem::swap(&mut kx, &mut ky);
        }
        let dz = dir[kz];
        WatertightRay {
            origin,
            k: [kx, ky, kz],
            shear: Vec3::new(dir[kx] / dz, dir[ky] / dz, 1.0 / dz),
        }
    }

    /// The vertex in the ray's sheared frame (before scaling z).
    #[inline(always)]
    fn map(&self, v: Vec3) -> (f32, f32, f32) {
        let p = v - self.origin;
        let [kx, ky, kz] = self.k;
        (
            p[kx] - self.shear.x * p[kz],
            p[ky] - self.shear.y * p[kz],
            p[kz],
        )
    }

    /// The hit with triangle `a b c` (two-sided) at some `t` in `[0, max_t]`.
    #[inline]
    pub(crate) fn hit(&self, a: Vec3, b: Vec3, c: Vec3, max_t: f32) -> Option<TriHit> {
        let (ax, ay, az) = self.map(a);
        let (bx, by, bz) = self.map(b);
        let (cx, cy, cz) = self.map(c);
        let mut u = cx * by - cy * bx;
        let mut v = ax * cy - ay * cx;
        let mut w = bx * ay - by * ax;
        if u == 0.0 || v == 0.0 || w == 0.0 {
            let e = |px: f32, py: f32, qx: f32, qy: f32| {
                (px as f64 * qy as f64 - py as f64 * qx as f64) as f32
            };
            u = e(cx, cy, bx, by);
            v = e(ax, ay, cx, cy);
            w = e(bx, by, ax, ay);
        }
        if (u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0) {
            return None;
        }
        let det = u + v + w;
        if det == 0.0 {
            // Edge-on (the ray in the triangle's plane) or a zero-area triangle.
            return None;
        }
        let sz = self.shear.z;
        let tt = u * (sz * az) + v * (sz * bz) + w * (sz * cz);
        // Sign-corrected comparison of `tt / det` with `[0, max_t]`, no division.
        let (tt_s, det_s) = if det < 0.0 { (-tt, -det) } else { (tt, det) };
        if tt_s < 0.0 || tt_s > max_t * det_s {
            return None;
        }
        Some(TriHit {
            t: tt / det,
            on_boundary: u == 0.0 || v == 0.0 || w == 0.0,
        })
    }

    /// Like [`WatertightRay::hit`] for the inside test: also reports an
    /// edge-on ray that touches the triangle (all edge functions zero or of one
    /// sign with a zero sum) as an ambiguous hit at `t = ∞` (no parameter).
    #[inline]
    pub(crate) fn crossing(&self, a: Vec3, b: Vec3, c: Vec3) -> Option<TriHit> {
        if let Some(h) = self.hit(a, b, c, f32::INFINITY) {
            return Some(h);
        }
        // The plain test rejects `det == 0`; tell edge-on contacts apart.
        let (ax, ay, _) = self.map(a);
        let (bx, by, _) = self.map(b);
        let (cx, cy, _) = self.map(c);
        let e = |px: f32, py: f32, qx: f32, qy: f32| px as f64 * qy as f64 - py as f64 * qx as f64;
        let (u, v, w) = (e(cx, cy, bx, by), e(ax, ay, cx, cy), e(bx, by, ax, ay));
        let mixed = (u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0);
        let area = (b - a).cross(c - a).length_squared();
        if !mixed && u + v + w == 0.0 && area > 0.0 {
            return Some(TriHit {
                t: f32::INFINITY,
                on_boundary: true,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_and_misses() {
        let (a, b, c) = (Vec3::ZERO, Vec3::X, Vec3::Y);
        let r = WatertightRay::new(Vec3::new(0.25, 0.25, 2.0), Vec3::new(0.0, 0.0, -2.0));
        let h = r.hit(a, b, c, 10.0).unwrap();
        assert!((h.t - 1.0).abs() < 1e-6 && !h.on_boundary);
        assert!(r.hit(a, b, c, 0.5).is_none());
        // From below, two-sided.
        let r = WatertightRay::new(Vec3::new(0.25, 0.25, -1.0), Vec3::Z);
        assert!((r.hit(a, b, c, 10.0).unwrap().t - 1.0).abs() < 1e-6);
        // Exactly through an edge: flagged.
        let r = WatertightRay::new(Vec3::new(0.5, 0.0, 1.0), -Vec3::Z);
        assert!(r.hit(a, b, c, 10.0).unwrap().on_boundary);
        // Zero-area triangle: never a hit, never NaN.
        let r = WatertightRay::new(Vec3::new(0.5, 0.0, 1.0), -Vec3::Z);
        assert!(r.hit(a, b, b * 2.0, 10.0).is_none());
    }
}
