//! GJK on the casts' cores: the distance of two placed cores, and the ray cast
//! of the origin against their Minkowski difference (a linear shape cast).
//!
//! Both run in A's local frame, with B placed by the relative pose `rel`.

use super::convex::Convex;
use super::simplex::{Simplex, Vertex};
use crate::math::tolerance::ZERO_LENGTH_SQ;
use crate::math::{Pose2, Vec2};

/// Iteration cap of both loops (each iteration is two support calls); GJK on
/// 2D polygons converges in a handful.
const MAX_ITERATIONS: usize = 64;

/// The vertex of `B - A` farthest along `dir`: `support_B(dir) - support_A(-dir)`.
#[inline]
fn support(a: &Convex, b: &Convex, rel: &Pose2, dir: Vec2) -> Vertex {
    Vertex::new(
        a.support_with_index(-dir),
        b.support_placed_with_index(rel, dir),
    )
}

/// A vector's unit direction (zero for a zero vector) and length.
#[inline]
fn unit_and_length(v: Vec2) -> (Vec2, f32) {
    let len = v.length();
    if len > 0.0 {
        (v / len, len)
    } else {
        (Vec2::ZERO, 0.0)
    }
}

/// The distance of two cores (radii ignored) in A's frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CoreDistance {
    /// Distance between the cores (`0` when they overlap).
    pub distance: f32,
    /// Closest point of A's core.
    pub a: Vec2,
    /// Closest point of B's core.
    pub b: Vec2,
    /// Unit direction from A to B (`+x` when the cores touch or overlap).
    pub normal: Vec2,
    /// Whether the cores overlap or touch (the simplex enclosed or met the
    /// origin: no direction; callers ask the full distance query).
    pub overlap: bool,
}

/// GJK distance between two cores (Gilbert, Johnson, Keerthi 1988; Ericson,
/// Real-Time Collision Detection 9.5).
///
/// The distance returned is GJK's *lower* bound, the best support-plane
/// separation `n·support(-n)` seen (the simplex gives the upper bound): a
/// conservative advancement that stepped by the upper bound could pass the
/// contact when GJK stops short. The loop stops when the bounds agree to a
/// relative `1e-6`. The direction `n` is the edge normal when the simplex is
/// an edge (exact, where the short vector to the closest point, near
/// contact, has a rounded direction).
///
/// `hint` is a guess of the normal from A to B (A's frame; zero for none),
/// such as the previous normal of a conservative advancement: the first
/// support point is taken against it, which is usually the closest feature.
pub(crate) fn distance(a: &Convex, b: &Convex, rel: &Pose2, hint: Vec2) -> CoreDistance {
    let mut s = Simplex::default();
    let d0 = if hint != Vec2::ZERO {
        hint
    } else {
        rel.translation
    };
    s.push(support(
        a,
        b,
        rel,
        if d0 == Vec2::ZERO { Vec2::X } else { -d0 },
    ));
    let mut c = s.closest(Vec2::ZERO);
    let mut lower = 0.0f32;
    let mut normal = Vec2::X;
    let mut touching = false;
    for _ in 0..MAX_ITERATIONS {
        let cc = c.length_squared();
        if s.len() == 3 || cc <= ZERO_LENGTH_SQ || !cc.is_finite() {
            touching = true;
            break;
        }
        let (n, upper) = match s.edge_normal(c, c) {
            Some(e) => (e, e.dot(s.point(0))),
            None => {
                let len = cc.sqrt();
                (c / len, len)
            }
        };
        normal = n;
        let w = support(a, b, rel, -n);
        lower = lower.max(n.dot(w.p));
        // No progress toward the origin: the bounds meet (to f32 precision).
        if s.contains(w.p) || upper - lower <= 1e-6 * upper {
            break;
        }
        s.push(w);
        c = s.closest(Vec2::ZERO);
    }
    let (pa, pb) = s.witnesses();
    if touching {
        return CoreDistance {
            distance: 0.0,
            a: pa,
            b: pb,
            normal: Vec2::X,
            overlap: true,
        };
    }
    CoreDistance {
        distance: lower,
        a: pa,
        b: pb,
        normal,
        overlap: false,
    }
}

/// The result of a linear cast of the cores.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CoreCast {
    /// The time of contact (a lower bound of the exact one).
    pub time: f32,
    /// Point on A's core at `time` (A's frame).
    pub a: Vec2,
    /// Point on B's core at `time` (A's frame, B moved to `time`).
    pub b: Vec2,
    /// Unit normal from A to B (A's frame); zero when unknown (contact at
    /// the start with coincident cores).
    pub normal: Vec2,
    /// Whether the search met its stopping rule. `false` when it ran out of
    /// iterations: `time` is then only how far the ray safely advanced, not
    /// a contact.
    pub converged: bool,
}

/// The first time `t` in `[0, max_time]` at which the cores, B moving by
/// `vel·t` (A's frame), come within `sigma` (the radii plus the target
/// distance), to within `tol`: the GJK ray cast of van den Bergen, "Ray
/// Casting against General Convex Objects with Application to Continuous
/// Collision Detection" (2004), with the rounded stopping rule of Box2D's
/// `b2ShapeCast`.
///
/// The origin seen from B is the ray `x(λ) = -vel·λ` against `B - A`. Each
/// step takes the support plane of `B - A` facing `x` (normal `n`, through
/// `p`); while `x` lies beyond that plane grown by `sigma`, the ray moves on
/// to the grown plane (λ += (n·(x-p) - σ) / (-n·r)) or misses when it runs
/// parallel or away. λ never passes the exact time of contact (each plane
/// bounds the grown difference), so the answer is never late; it stops when
/// the distance from `x` to the simplex is within `sigma + tol`.
#[inline]
pub(crate) fn cast(
    a: &Convex,
    b: &Convex,
    rel: &Pose2,
    vel: Vec2,
    sigma: f32,
    max_time: f32,
    tol: f32,
) -> Option<CoreCast> {
    cast_capped::<MAX_ITERATIONS>(a, b, rel, vel, sigma, max_time, tol)
}

/// [`cast`] with at most `ITERATIONS` steps.
#[inline(always)]
fn cast_capped<const ITERATIONS: usize>(
    a: &Convex,
    b: &Convex,
    rel: &Pose2,
    vel: Vec2,
    sigma: f32,
    max_time: f32,
    tol: f32,
) -> Option<CoreCast> {
    let r = -vel;
    let mut lambda = 0.0f32;
    let mut x = Vec2::ZERO;
    let mut plane = Vec2::ZERO;
    let mut s = Simplex::default();
    let first = support(a, b, rel, -rel.translation);
    let (mut n, mut vlen) = unit_and_length(x - first.p);
    let mut converged = false;
    for _ in 0..ITERATIONS {
        if s.len() == 3 || vlen - sigma <= tol {
            converged = true;
            // Within `sigma + tol` of the difference: the time is found, but
            // with a radius the normal is the direction to the difference's
            // closest point, which the simplex may not hold yet. It does
            // when one of its vertices is a support point along `n` (each
            // witness no nearer than its neighbours on its core).
            if s.len() > 0
                && s.len() < 3
                && sigma > 0.0
                && vlen > 0.0
                && !holds_support(a, b, rel, &s, n)
            {
                (n, vlen) = refine(a, b, rel, &mut s, x, n, vlen);
            }
            break;
        }
        if !vlen.is_finite() {
            return None;
        }
        let w = support(a, b, rel, n);
        let gap = n.dot(x - w.p);
        if gap > sigma {
            let nr = n.dot(r);
            if nr >= 0.0 {
                return None;
            }
            lambda -= (gap - sigma) / nr;
            if lambda > max_time || !lambda.is_finite() {
                return None;
            }
            x = r * lambda;
            plane = n;
        } else if s.contains(w.p) {
            // Converged at this `x`: the distance is `vlen` to f32 precision,
            // and the support plane says it is within `sigma`.
            converged = true;
            break;
        }
        if !s.contains(w.p) {
            s.push(w);
        }
        let c = s.closest(x);
        // The direction from the simplex to `x`. When the closest feature is
        // an edge, its normal: `x - c` is short near contact, and its
        // rounded direction, levered by the size of the shapes, would spoil
        // the support planes (a 1e-3 error in direction is a 1e-3 error in
        // the gap of a unit-size pair).
        (n, vlen) = match s.edge_normal(x - c, n) {
            Some(e) => (e, e.dot(x - s.point(0)).max(0.0)),
            None => unit_and_length(x - c),
        };
    }
    let (pa, pb) = if s.len() == 0 {
        (first.a, first.b)
    } else {
        s.witnesses()
    };
    // The normal from A to B is the direction from `x` to the difference's
    // closest point, when the distance is long enough for that direction to
    // be accurate (rounded shapes: about `sigma`) or it comes from an edge;
    // else, at a contact of the cores themselves, the last support plane's.
    // At a contact of the cores `x` lies on the edge to rounding, which can
    // flip the side the edge normal was given: the last plane's side is
    // right (it was taken at a distance).
    let short = vlen * vlen <= 100.0 * tol * tol;
    if s.len() == 2 && short && n.dot(plane) < 0.0 {
        n = -n;
    }
    // At a contact of the cores, an edge's normal is the contact normal only
    // when the edge lies on the difference's boundary: a vertex of it is a
    // support point along the normal. When the cores meet corner to corner,
    // the simplex's two vertices may span a chord across the difference,
    // whose normal does not separate the shapes; the last support plane, on
    // which `x` lies, does.
    let chord = s.len() == 2 && short && plane != Vec2::ZERO && !holds_support(a, b, rel, &s, n);
    let normal = if s.len() < 3
        && n != Vec2::ZERO
        && !chord
        && (s.len() == 2 || !short || plane == Vec2::ZERO)
    {
        -n
    } else {
        -plane
    };
    Some(CoreCast {
        time: lambda,
        a: pa,
        b: pb + vel * lambda,
        normal,
        converged,
    })
}

/// Whether a vertex of the simplex is a support point of the difference along
/// `n` (A to B is `-n`): each of its witnesses no nearer than its neighbours
/// on its core, so the simplex holds the difference's extreme feature along
/// `n`.
#[inline]
fn holds_support(a: &Convex, b: &Convex, rel: &Pose2, s: &Simplex, n: Vec2) -> bool {
    let nb = rel.rotation.inv_rotate(n);
    s.vertices()
        .iter()
        .any(|v| a.is_support(v.ia as usize, -n) && b.is_support(v.ib as usize, nb))
}

/// GJK at the fixed ray point `x` until the simplex holds the closest feature
/// of the difference (Ericson, Real-Time Collision Detection, 9.5.2): the
/// support point `w` along `n` (unit, from the simplex towards `x`; `vlen` the
/// distance to it) is already a vertex, or its support plane `n·(x − w)` is
/// `vlen` to rounding. Stopping on the distance alone is not enough for the
/// direction: a simplex point `c` whose distance exceeds the true one by `δ`
/// may lie `√(2·d·δ)` from the true closest point, `√(2δ/d)` radians off
/// (6e-3 rad for `δ = 1e-5` at `d = 0.5`), and near a polygon's corner the
/// distance to the corner and to the face differ by a `δ` below f32's
/// resolution while their directions differ by 1e-4 rad and more. So the
/// test is on the support plane, which differs from `vlen` by the edge length
/// times the angle. The cores are finite point sets: this ends after a few
/// support points. Returns the refined `(n, vlen)`; the simplex is refined
/// with it, so the witnesses follow.
fn refine(
    a: &Convex,
    b: &Convex,
    rel: &Pose2,
    s: &mut Simplex,
    x: Vec2,
    mut n: Vec2,
    mut vlen: f32,
) -> (Vec2, f32) {
    for _ in 0..MAX_ITERATIONS {
        let w = support(a, b, rel, n);
        // Rounding of the plane's offset: a few ulps of the coordinates.
        let ulps = 4.0 * f32::EPSILON * x.abs().max(w.p.abs()).max_element();
        if s.contains(w.p) || vlen - n.dot(x - w.p) <= ulps {
            break;
        }
        let before = *s;
        s.push(w);
        let c = s.closest(x);
        let (m, len) = match s.edge_normal(x - c, n) {
            Some(e) => (e, e.dot(x - s.point(0)).max(0.0)),
            None => unit_and_length(x - c),
        };
        // `x` inside or farther than before (rounding): keep the last simplex.
        if s.len() == 3 || len.is_nan() || len > vlen + ulps || m == Vec2::ZERO {
            *s = before;
            break;
        }
        (n, vlen) = (m, len);
    }
    (n, vlen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::d2::{Circle, Rect, Shape};

    /// A search cut short says so, and the time it reached is safe (before
    /// the contact); the full search converges.
    #[test]
    fn a_search_out_of_iterations_is_not_converged() {
        let r: Shape = Rect::new(Vec2::new(1.0, 0.25)).unwrap().into();
        let c = Convex::from_shape(&r).unwrap();
        let rel = Pose2::new(Vec2::new(5.0, 1.5), 0.7);
        let vel = Vec2::new(-4.0, -1.0);
        let full = cast(&c, &c, &rel, vel, 0.0, 1.0, 1e-6).unwrap();
        assert!(full.converged);
        let short = cast_capped::<1>(&c, &c, &rel, vel, 0.0, 1.0, 1e-6).unwrap();
        assert!(!short.converged);
        assert!(short.time < full.time, "{} vs {}", short.time, full.time);
    }

    #[test]
    fn boxes_and_circles() {
        let r: Shape = Rect::new(Vec2::splat(1.0)).unwrap().into();
        let c: Shape = Circle::new(0.5).unwrap().into();
        let (ca, cc) = (
            Convex::from_shape(&r).unwrap(),
            Convex::from_shape(&c).unwrap(),
        );
        let rel = Pose2::new(Vec2::new(5.0, 0.5), 0.3);
        let d = distance(&ca, &ca, &rel, Vec2::ZERO);
        assert!(!d.overlap && d.distance > 2.0 && d.distance < 3.0);
        // Box B (rotated) moving left at speed 4.
        let hit = cast(&ca, &ca, &rel, Vec2::new(-4.0, 0.0), 0.0, 1.0, 1e-6).unwrap();
        // At contact the distance is zero.
        let moved = Pose2 {
            translation: rel.translation + Vec2::new(-4.0, 0.0) * hit.time,
            ..rel
        };
        let d = distance(&ca, &ca, &moved, Vec2::ZERO);
        assert!(d.distance < 1e-5, "{}", d.distance);
        // B's left face (normal rotated by 0.3) meets A's corner (1, 1).
        let n = Vec2::new(0.3f32.cos(), 0.3f32.sin());
        assert!((hit.normal - n).length() < 1e-4, "{}", hit.normal);
        // Circle core cast with sigma = radius: center at (4, 0) moving -x
        // hits the box face at x = 1.5: t = 2.5 / 5.
        let rel = Pose2::from_translation(Vec2::new(4.0, 0.0));
        let hit = cast(&ca, &cc, &rel, Vec2::new(-5.0, 0.0), 0.5, 1.0, 1e-6).unwrap();
        assert!((hit.time - 0.5).abs() < 1e-5, "{}", hit.time);
        assert!(cast(&ca, &cc, &rel, Vec2::new(5.0, 0.0), 0.5, 1.0, 1e-6).is_none());
        assert!(cast(&ca, &cc, &rel, Vec2::new(-5.0, 0.0), 0.5, 0.4, 1e-6).is_none());
    }
}
