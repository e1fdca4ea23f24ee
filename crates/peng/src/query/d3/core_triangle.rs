//! A capsule's or segment's core apart from a triangle far larger than it,
//! in f64.
//!
//! GJK's tolerances scale with the size of the Minkowski difference: against
//! a triangle 5e7 long, a capsule 10 beside its tip reads as touching and EPA
//! measures a "depth" on the far vertices. The closest points of a segment
//! and a triangle it does not cross are among: each end of the segment
//! against the triangle, and the segment against each edge (Ericson,
//! Real-Time Collision Detection, 5.1.10), by the mesh layer's f64 closest
//! points.

use crate::math::Vec3;
use crate::mesh::geom::closest3::{point_triangle64, segment_segment64};
use crate::query::gjk::{GjkStatus, SignedDistance};
use glam::DVec3;

/// How many times the core's size the triangle's longest edge must exceed.
const LONG: f64 = 256.0;

/// The signed distance of the triangle `t` (A) and a capsule or segment (B)
/// whose core runs from `p0` to `p1` with radius `r`, all in A's frame, when
/// the triangle's longest edge is over [`LONG`] times the core's size and the
/// core does not touch or cross the triangle; `None` otherwise (the caller
/// runs GJK/EPA).
pub(super) fn core_triangle(t: &[Vec3; 3], p0: Vec3, p1: Vec3, r: f32) -> Option<SignedDistance> {
    let t = t.map(|v| v.as_dvec3());
    let (p0, p1) = (p0.as_dvec3(), p1.as_dvec3());
    let longest = (0..3)
        .map(|i| t[i].distance(t[(i + 1) % 3]))
        .fold(0.0f64, f64::max);
    // NaN compares false: not long.
    let long = longest > LONG * ((p1 - p0).length() + r as f64);
    if !long {
        return None;
    }
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    if n.length_squared() <= 0.0 {
        return None;
    }
    // A core whose ends are on opposite sides of the plane (or on it) may
    // cross the triangle: left to GJK/EPA.
    let (h0, h1) = (n.dot(p0 - t[0]), n.dot(p1 - t[0]));
    if h0 * h1 <= 0.0 {
        return None;
    }
    let mut best = (f64::INFINITY, DVec3::ZERO, DVec3::ZERO);
    let mut keep = |on_core: DVec3, on_tri: DVec3| {
        let d2 = on_core.distance_squared(on_tri);
        if d2 < best.0 {
            best = (d2, on_core, on_tri);
        }
    };
    for p in [p0, p1] {
        keep(p, point_triangle64(t, p).0);
    }
    for i in 0..3 {
        let (on_core, on_edge) = segment_segment64(p0, p1, t[i], t[(i + 1) % 3]);
        keep(on_core, on_edge);
    }
    let (d2, c, q) = best;
    let d = d2.sqrt();
    // Within rounding of the core's own size (or NaN): touching, for
    // GJK/EPA.
    let apart = d > 1e-6 * ((p1 - p0).length() + r as f64 + p0.abs().max_element());
    if !apart {
        return None;
    }
    let u = (c - q) / d;
    Some(SignedDistance {
        distance: (d - r as f64) as f32,
        point_a: q.as_vec3(),
        point_b: (c - u * r as f64).as_vec3(),
        normal: u.as_vec3(),
        status: GjkStatus::Separated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A segment over the middle of a long triangle's face, and one beside
    /// its tip: the closed forms.
    #[test]
    fn over_the_face_and_beside_the_tip() {
        let t = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1e4, 0.0, 0.0),
            Vec3::new(0.0, 1e4, 0.0),
        ];
        let (p0, p1) = (Vec3::new(1.0, 1.0, 2.0), Vec3::new(3.0, 1.0, 5.0));
        let d = core_triangle(&t, p0, p1, 0.5).unwrap();
        assert!((d.distance - 1.5).abs() < 1e-6, "{d:?}");
        assert!((d.normal - Vec3::Z).length() < 1e-6);
        assert!((d.point_a - Vec3::new(1.0, 1.0, 0.0)).length() < 1e-5);
        assert!((d.point_b - Vec3::new(1.0, 1.0, 1.5)).length() < 1e-5);
        // Beside the vertex at the origin, in the plane: 3 from it.
        let (p0, p1) = (Vec3::new(-3.0, -1.0, 0.0), Vec3::new(-3.0, 1.0, 1.0));
        let d = core_triangle(&t, p0, p1, 0.0);
        assert!(d.is_none(), "ends on both sides of the plane or on it: GJK");
        let (p0, p1) = (Vec3::new(-3.0, -1.0, 0.5), Vec3::new(-3.0, 1.0, 0.5));
        let d = core_triangle(&t, p0, p1, 0.0).unwrap();
        assert!((d.distance - (9.0f32 + 0.25).sqrt()).abs() < 1e-5, "{d:?}");
        // Not long: left to GJK.
        assert!(core_triangle(&t, Vec3::ZERO, Vec3::splat(1e3), 0.0).is_none());
    }
}
