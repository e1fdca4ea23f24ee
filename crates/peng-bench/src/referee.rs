//! Exact certificates for pair answers, from support functions alone.
//!
//! For convex A and B and a unit direction `n`, let
//! `g(n) = h_A(n) + h_B(-n) = max_{a∈A} n·a − min_{b∈B} n·b`, the overlap of the
//! two shapes' projections on `n`. Moving B by `t·n` separates the pair exactly
//! when `t ≥ g(n)`, and by the separating axis theorem the signed distance is
//! `sd = −min_{|n|=1} g(n)` (for separated pairs the max over `n` of the gap
//! `−g(n)`; for overlapping pairs minus the penetration depth). Hence:
//!
//! - every unit `n` gives the **lower bound** `sd ≥ −g(n)`: an answer below it by
//!   more than the tolerance is provably wrong;
//! - an answer `(sd, n)` is **self-consistent** when `−g(n) ≈ sd`, and then `n` is
//!   a valid minimum-translation direction;
//! - two different normals are both valid (the normal is not unique: tied faces,
//!   touching corners) when both are self-consistent;
//! - for separated pairs, the distance between any point of A and any point of B
//!   (for example their support points) is an **upper bound** ([`upper`]). The
//!   gap `−g` restricted to the sphere has a single local maximum for separated
//!   convex shapes (its superlevel sets are convex cones), so the local search of
//!   [`refine`] finds the distance itself.
//!
//! Support functions of peng's shapes are exact (closed form for round shapes),
//! so these checks use no query under test.

//!
//! Everything here is generic over the dimension ([`Dim`]): `g`, the bounds and
//! the searches read the same in 2D and 3D.

use crate::dim::Dim;
use crate::gen::{support_value, Pair};
use peng::math::Vector;
use peng::query::types::Ray;

/// `g(n)` for a pair (see the module docs); `n` should be unit.
pub fn overlap<D: Dim>(p: &Pair<D>, n: D::V) -> f32 {
    let o = D::translation(&p.pose_a);
    support_value::<D>(&p.a, &p.pose_a, n, o) + support_value::<D>(&p.b, &p.pose_b, -n, o)
}

/// A certified upper bound on the distance of a pair: `|s_B(−n) − s_A(n)|`,
/// the distance between two points of the shapes (their support points along
/// `n` and `−n`). Tight for strictly convex shapes at the optimal `n`.
pub fn upper<D: Dim>(p: &Pair<D>, n: D::V) -> f32 {
    let support = |s: &D::Shape, pose: &D::Pose, n: D::V| {
        D::transform_point(
            pose,
            D::local_support(s, D::inverse_transform_vector(pose, n)),
        )
    };
    let sa = support(&p.a, &p.pose_a, n);
    let sb = support(&p.b, &p.pose_b, -n);
    (sb - sa).length()
}

/// Local search for `min g(n)` over the unit circle or sphere from each start
/// direction ([`Dim::minimize_on_sphere`]: compass search, step halved when no
/// move improves, down to 1e-7 rad; in 3D with the diagonal moves). Returns the
/// best direction and `g` there: `−g` is a certified lower bound on the signed
/// distance, usually tight.
pub fn refine<D: Dim>(p: &Pair<D>, starts: &[D::V]) -> (D::V, f32) {
    D::minimize_on_sphere(|n| overlap(p, n), starts, true)
}

/// For a ray `o + t·d` and a unit direction `n` with `n·d < 0`, the parameter at
/// which the ray enters the supporting half-space `{y : n·y ≤ h(n)}` of the placed
/// shape; `−∞` when `n·d ≥ 0`. The shape lies in every such half-space, so each
/// value is a certified **lower bound** on the ray's hit parameter, and for a ray
/// that hits, the maximum over `n` is the hit parameter (attained at the surface
/// normal of the entry point).
pub fn ray_entry<D: Dim>(s: &D::Shape, pose: &D::Pose, ray: &Ray<D::V>, n: D::V) -> f32 {
    let nd = n.dot(ray.dir);
    if nd >= 0.0 {
        return f32::NEG_INFINITY;
    }
    support_value::<D>(s, pose, n, ray.origin) / nd
}

/// Search for `max ray_entry` from the start directions (as in [`refine`], in 3D
/// without the diagonal moves): a certified lower bound on the hit parameter,
/// usually exact. Returns the best direction and the bound.
pub fn refine_ray<D: Dim>(
    s: &D::Shape,
    pose: &D::Pose,
    ray: &Ray<D::V>,
    starts: &[D::V],
) -> (D::V, f32) {
    let (n, v) = D::minimize_on_sphere(|n| -ray_entry::<D>(s, pose, ray, n), starts, false);
    (n, -v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};
    use peng::d3::{Ball, Cuboid, Pose3};

    #[test]
    fn ball_ball_overlap_is_exact() {
        let p = crate::gen3::Pair {
            a: Ball::new(1.0).unwrap().into(),
            pose_a: Pose3::from_translation(Vec3::new(1.0, 2.0, 3.0)),
            b: Ball::new(0.5).unwrap().into(),
            pose_b: Pose3::from_translation(Vec3::new(2.0, 2.0, 3.0)),
        };
        // Centres 1 apart, radii sum 1.5: depth 0.5 along +x.
        assert!((overlap(&p, Vec3::X) - 0.5).abs() < 1e-6);
        let (n, v) = refine(&p, &[Vec3::new(0.3, 1.0, -0.2)]);
        assert!((v - 0.5).abs() < 1e-5, "{v}");
        assert!(n.dot(Vec3::X) > 0.9999, "{n}");
    }

    #[test]
    fn box_box_separation_certificate() {
        let a: peng::d3::Shape = Cuboid::new(Vec3::ONE).unwrap().into();
        let p = crate::gen3::Pair {
            a: a.clone(),
            pose_a: Pose3::IDENTITY,
            b: a,
            pose_b: Pose3::from_translation(Vec3::new(0.0, 2.5, 0.0)),
        };
        // Gap 0.5 along +y: g(+y) = -0.5, and any other direction gives less gap.
        let (n, v) = refine(&p, &[Vec3::new(0.2, 1.0, 0.1)]);
        assert!((v + 0.5).abs() < 1e-5, "{v}");
        assert!(n.dot(Vec3::Y) > 0.9999);
        let b2: peng::d2::Shape = peng::d2::Rect::new(Vec2::ONE).unwrap().into();
        let p2 = crate::gen2::Pair {
            a: b2.clone(),
            pose_a: peng::d2::Pose2::IDENTITY,
            b: b2,
            pose_b: peng::d2::Pose2::from_translation(Vec2::new(1.5, 0.0)),
        };
        let (n, v) = refine(&p2, &[Vec2::new(1.0, 0.4)]);
        assert!((v - 0.5).abs() < 1e-5 && n.dot(Vec2::X) > 0.9999, "{v} {n}");
    }
}
