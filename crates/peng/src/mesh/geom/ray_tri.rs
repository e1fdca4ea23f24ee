//! Watertight ray/triangle intersection.
//!
//! Woop, Benthin and Wald, "Watertight Ray/Triangle Intersection", JCGT 2(1),
//! 2013. The ray is mapped to the +z axis by a permutation of the axes (so that
//! `z` is the largest direction component) and a shear; each triangle vertex is
//! mapped the same way, so that the 2D edge functions `U, V, W` of an edge
//! shared by two triangles are computed from the same transformed vertices and
//! agree in sign: a ray can not slip between two triangles of a closed mesh.
//!
//! The f32 sign of an edge function is exact for the *mapped* corners, but the
//! mapping itself rounds (a corner `t` along the ray moves by up to a few ulps
//! of `t`), so a ray passing within that distance of an edge may be sent to
//! the wrong side of it. At a silhouette edge (both triangles on one side, seen
//! along the ray) that turns a grazing hit into a miss of both triangles, and
//! the ray goes on to a triangle far behind. So an edge function smaller than
//! its rounding bound (see [`WatertightRay::edge_bound`]; zero included) is
//! recomputed from the unrounded corners in f64. Whether an edge is recomputed,
//! and its value, depend only on its two corners, so both triangles sharing an
//! edge still see the same edge function up to sign, and the test stays
//! watertight. A hit with a zero edge function lies on an edge or a vertex; the
//! inside test treats such hits as ambiguous and retries.

use crate::math::Vec3;

/// Multiple of `m·s` (largest mapped coordinate times the sum of the mapped
/// `|x| + |y|`) below which an f32 edge function's sign is uncertain; see
/// [`WatertightRay::edge_bound`].
const EDGE_K: f32 = 8.0 * f32::EPSILON;

/// A ray prepared for the watertight test.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WatertightRay {
    origin: Vec3,
    dir: Vec3,
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
            dir,
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
        // Cheap filter: the triangle's largest edge bound (all corners).
        let m = (ax.abs().max(ay.abs()).max(az.abs()))
            .max(bx.abs().max(by.abs()).max(bz.abs()))
            .max(cx.abs().max(cy.abs()).max(cz.abs()));
        let s = (ax.abs() + ay.abs()) + (bx.abs() + by.abs()) + (cx.abs() + cy.abs());
        if u.abs().min(v.abs()).min(w.abs()) <= EDGE_K * m * s {
            let [pa, pb, pc] = [(ax, ay, az), (bx, by, bz), (cx, cy, cz)];
            u = self.refine_edge(c, pc, b, pb, u);
            v = self.refine_edge(a, pa, c, pc, v);
            w = self.refine_edge(b, pb, a, pa, w);
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

    /// The edge function `px·qy − py·qx` of mapped corners `pm`, `qm` (of
    /// world corners `p`, `q`), given its f32 value `e`: `e` when it is larger
    /// than [`WatertightRay::edge_bound`], else recomputed from the world
    /// corners in f64. A function of the edge alone, antisymmetric in `p, q`.
    #[cold]
    #[inline(never)]
    fn refine_edge(
        &self,
        p: Vec3,
        pm: (f32, f32, f32),
        q: Vec3,
        qm: (f32, f32, f32),
        e: f32,
    ) -> f32 {
        if e.abs() > Self::edge_bound(pm, qm) {
            return e;
        }
        let (px, py) = self.map_f64(p);
        let (qx, qy) = self.map_f64(q);
        (px * qy - py * qx) as f32
    }

    /// A bound on the error of an f32 edge function of mapped corners `p`, `q`
    /// against the exact edge function of the world corners.
    ///
    /// Each mapped coordinate is `x = (v − o)ₓ − sₓ·(v − o)_z` with `|sₓ| <= 1`
    /// and `z = (v − o)_z`: rounding `v − o`, the quotient `sₓ`, the product
    /// and the difference errs by at most `u·(2|x| + 4|z|) <= 6u·M`
    /// (`u = 2⁻²⁴`, `M` the two corners' largest mapped coordinate). The
    /// edge function `px·qy − py·qx` then errs by at most `6u·M·S` from its
    /// inputs (`S = |px| + |py| + |qx| + |qy|`) plus `3u·(|px| + |py|)·2M` from
    /// its own two products and difference: `12u·M·S = 6ε·M·S` in all, and
    /// `EDGE_K = 8ε` leaves a margin. Symmetric in `p, q`.
    #[inline]
    fn edge_bound(p: (f32, f32, f32), q: (f32, f32, f32)) -> f32 {
        let m = p.0.abs().max(p.1.abs()).max(p.2.abs());
        let m = m.max(q.0.abs().max(q.1.abs()).max(q.2.abs()));
        let s = (p.0.abs() + p.1.abs()) + (q.0.abs() + q.1.abs());
        EDGE_K * m * s
    }

    /// The world point `v` in the ray's sheared frame, in f64 (the difference
    /// `v − o` is exact, the shear rounds once per product).
    fn map_f64(&self, v: Vec3) -> (f64, f64) {
        let p = v.as_dvec3() - self.origin.as_dvec3();
        let d = self.dir.as_dvec3();
        let [kx, ky, kz] = self.k;
        (p[kx] - d[kx] / d[kz] * p[kz], p[ky] - d[ky] / d[kz] * p[kz])
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
