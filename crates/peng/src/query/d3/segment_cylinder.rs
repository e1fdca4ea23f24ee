//! A segment (the core of a capsule or a segment) against a cylinder, in
//! f64: the closest points and the normal between them.
//!
//! The distance path runs this only when the GJK answer for the pair fails
//! its dual check (see `distance::checked_segment_cylinder`): at a cap or a
//! side the gap between the support planes falls off linearly with the
//! normal's error, so a normal a few 1e-5 rad off a face normal is refuted
//! by the support functions even where the distance is right.

use glam::DVec3;

/// The point of the solid cylinder (half height `h`, radius `r`, axis y, its
/// own frame) closest to `p`: the radial part clamped to the disc, the
/// height to `[−h, h]` (the cylinder is the product of the two).
#[inline]
fn closest(h: f64, r: f64, p: DVec3) -> DVec3 {
    let rho = (p.x * p.x + p.z * p.z).sqrt();
    let k = if rho > r { r / rho } else { 1.0 };
    DVec3::new(p.x * k, p.y.clamp(-h, h), p.z * k)
}

/// The parameter `t ∈ [0, 1]` of the point of `p0 + t·e` closest to the
/// cylinder.
///
/// The squared distance to a convex set, `φ(x) = |x − proj x|²`, is convex and
/// differentiable with gradient `2 (x − proj x)`; along the segment its
/// derivative `2 e·(x(t) − proj x(t))` is nondecreasing in `t`. Bisection on
/// the sign of that derivative finds the minimiser to the last bits, where a
/// search on the values of `φ` would stall at `√ε` (φ is flat at its minimum).
fn closest_t(h: f64, r: f64, p0: DVec3, e: DVec3) -> f64 {
    let slope = |t: f64| {
        let x = p0 + e * t;
        e.dot(x - closest(h, r, x))
    };
    if slope(0.0) >= 0.0 {
        return 0.0;
    }
    if slope(1.0) <= 0.0 {
        return 1.0;
    }
    // 53 halvings take the bracket below the f64 resolution of [0, 1].
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..53 {
        let mid = 0.5 * (lo + hi);
        if slope(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The segment `p0`–`p1` (the cylinder's frame) against the cylinder of half
/// height `h` and radius `r`: the distance between them, the closest point of
/// the cylinder and that of the segment, and the unit normal from the
/// cylinder to the segment; `None` when the segment touches or crosses the
/// cylinder (within `1e-9` of the size).
///
/// The normal is the difference of the closest points, exact in f64 where it
/// matters: on a cap the difference has only its y part, on the side only a
/// radial part, so it is the face normal to the last bit.
pub(super) fn segment_cylinder(
    h: f64,
    r: f64,
    p0: DVec3,
    p1: DVec3,
) -> Option<(f64, DVec3, DVec3, DVec3)> {
    let e = p1 - p0;
    let x = p0 + e * closest_t(h, r, p0, e);
    let q = closest(h, r, x);
    let len = x.distance(q);
    let size = p0.abs().max(p1.abs()).max_element().max(h).max(r);
    if !len.is_finite() || len <= 1e-9 * size {
        return None;
    }
    Some((len, q, x, (x - q) / len))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A segment over the cap, tilted: its lower end is nearest, straight
    /// above the disc, so the normal is +y exactly.
    #[test]
    fn end_over_the_cap() {
        let (p0, p1) = (DVec3::new(0.3, 1.5, 0.2), DVec3::new(2.0, 3.0, -1.0));
        let (len, q, x, n) = segment_cylinder(1.0, 1.0, p0, p1).unwrap();
        assert_eq!(x, p0);
        assert_eq!(q, DVec3::new(0.3, 1.0, 0.2));
        assert_eq!((len, n), (0.5, DVec3::Y));
    }

    /// A segment crossing past the side: the closest point is where it is
    /// nearest to the axis (distance 2 − 1 at its middle).
    #[test]
    fn across_the_side() {
        let (p0, p1) = (DVec3::new(-1.0, 0.2, 2.0), DVec3::new(1.0, 0.2, 2.0));
        let (len, q, x, n) = segment_cylinder(1.0, 1.0, p0, p1).unwrap();
        assert!((len - 1.0).abs() < 1e-15 && (x - DVec3::new(0.0, 0.2, 2.0)).length() < 1e-15);
        assert!(
            (q - DVec3::new(0.0, 0.2, 1.0)).length() < 1e-15 && (n - DVec3::Z).length() < 1e-15
        );
    }

    /// A segment through the cylinder: no separated answer.
    #[test]
    fn crossing_is_none() {
        let (p0, p1) = (DVec3::new(-2.0, 0.0, 0.0), DVec3::new(2.0, 0.5, 0.0));
        assert!(segment_cylinder(1.0, 1.0, p0, p1).is_none());
    }
}
