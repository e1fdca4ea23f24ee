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
//!   (for example their support points) is an **upper bound** ([`upper3`]). The
//!   gap `−g` restricted to the sphere has a single local maximum for separated
//!   convex shapes (its superlevel sets are convex cones), so the local search of
//!   [`refine3`] finds the distance itself.
//!
//! Support functions of peng's shapes are exact (closed form for round shapes),
//! so these checks use no query under test.

use glam::{Vec2, Vec3};

/// `g(n)` for a 3D pair (see the module docs); `n` should be unit.
pub fn overlap3(
    a: &peng::d3::Shape,
    pose_a: &peng::d3::Pose3,
    b: &peng::d3::Shape,
    pose_b: &peng::d3::Pose3,
    n: Vec3,
) -> f32 {
    let o = pose_a.translation;
    crate::gen3::support_value(a, pose_a, n, o) + crate::gen3::support_value(b, pose_b, -n, o)
}

/// A certified upper bound on the distance of a 3D pair: `|s_B(−n) − s_A(n)|`,
/// the distance between two points of the shapes (their support points along
/// `n` and `−n`). Tight for strictly convex shapes at the optimal `n`.
pub fn upper3(
    a: &peng::d3::Shape,
    pose_a: &peng::d3::Pose3,
    b: &peng::d3::Shape,
    pose_b: &peng::d3::Pose3,
    n: Vec3,
) -> f32 {
    let sa = pose_a.transform_point(a.local_support(pose_a.inverse_transform_vector(n)));
    let sb = pose_b.transform_point(b.local_support(pose_b.inverse_transform_vector(-n)));
    (sb - sa).length()
}

/// The 2D twin of [`upper3`].
pub fn upper2(
    a: &peng::d2::Shape,
    pose_a: &peng::d2::Pose2,
    b: &peng::d2::Shape,
    pose_b: &peng::d2::Pose2,
    n: Vec2,
) -> f32 {
    let sa = pose_a.transform_point(a.local_support(pose_a.inverse_transform_vector(n)));
    let sb = pose_b.transform_point(b.local_support(pose_b.inverse_transform_vector(-n)));
    (sb - sa).length()
}

/// `g(n)` for a 2D pair.
pub fn overlap2(
    a: &peng::d2::Shape,
    pose_a: &peng::d2::Pose2,
    b: &peng::d2::Shape,
    pose_b: &peng::d2::Pose2,
    n: Vec2,
) -> f32 {
    let o = pose_a.translation;
    crate::gen2::support_value(a, pose_a, n, o) + crate::gen2::support_value(b, pose_b, -n, o)
}

/// Local search for `min g(n)` over the unit sphere from each start direction
/// (compass search in the tangent plane, step halved when no move improves, down
/// to 1e-7 rad). Returns the best direction and `g` there: `−g` is a certified
/// lower bound on the signed distance, usually tight.
pub fn refine3(
    a: &peng::d3::Shape,
    pose_a: &peng::d3::Pose3,
    b: &peng::d3::Shape,
    pose_b: &peng::d3::Pose3,
    starts: &[Vec3],
) -> (Vec3, f32) {
    let g = |n: Vec3| overlap3(a, pose_a, b, pose_b, n);
    let mut best = (Vec3::X, f32::INFINITY);
    for &s in starts {
        let Some(mut n) = s.try_normalize() else {
            continue;
        };
        let mut v = g(n);
        let mut step = 0.05f32;
        let mut evals = 0;
        while step > 1e-7 && evals < 4000 {
            let (t1, t2) = n.any_orthonormal_pair();
            let mut moved = false;
            for d in [
                t1,
                -t1,
                t2,
                -t2,
                (t1 + t2) * core::f32::consts::FRAC_1_SQRT_2,
                -(t1 + t2) * core::f32::consts::FRAC_1_SQRT_2,
            ] {
                let m = (n + d * step.tan()).normalize();
                let w = g(m);
                evals += 1;
                if w < v {
                    (n, v, moved) = (m, w, true);
                    break;
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        if v < best.1 {
            best = (n, v);
        }
    }
    best
}

/// The 2D twin of [`refine3`] (search over the angle).
pub fn refine2(
    a: &peng::d2::Shape,
    pose_a: &peng::d2::Pose2,
    b: &peng::d2::Shape,
    pose_b: &peng::d2::Pose2,
    starts: &[Vec2],
) -> (Vec2, f32) {
    let g = |n: Vec2| overlap2(a, pose_a, b, pose_b, n);
    let mut best = (Vec2::X, f32::INFINITY);
    for &s in starts {
        let Some(n0) = s.try_normalize() else {
            continue;
        };
        let mut ang = n0.y.atan2(n0.x);
        let mut v = g(n0);
        let mut step = 0.05f32;
        while step > 1e-7 {
            let mut moved = false;
            for d in [step, -step] {
                let w = g(Vec2::from_angle(ang + d));
                if w < v {
                    (ang, v, moved) = (ang + d, w, true);
                    break;
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        if v < best.1 {
            best = (Vec2::from_angle(ang), v);
        }
    }
    best
}

/// For a ray `o + t·d` and a unit direction `n` with `n·d < 0`, the parameter at
/// which the ray enters the supporting half-space `{y : n·y ≤ h(n)}` of the placed
/// shape; `−∞` when `n·d ≥ 0`. The shape lies in every such half-space, so each
/// value is a certified **lower bound** on the ray's hit parameter, and for a ray
/// that hits, the maximum over `n` is the hit parameter (attained at the surface
/// normal of the entry point).
pub fn ray_entry3(
    s: &peng::d3::Shape,
    pose: &peng::d3::Pose3,
    ray: &peng::d3::Ray3,
    n: Vec3,
) -> f32 {
    let nd = n.dot(ray.dir);
    if nd >= 0.0 {
        return f32::NEG_INFINITY;
    }
    crate::gen3::support_value(s, pose, n, ray.origin) / nd
}

/// The 2D twin of [`ray_entry3`].
pub fn ray_entry2(
    s: &peng::d2::Shape,
    pose: &peng::d2::Pose2,
    ray: &peng::d2::Ray2,
    n: Vec2,
) -> f32 {
    let nd = n.dot(ray.dir);
    if nd >= 0.0 {
        return f32::NEG_INFINITY;
    }
    crate::gen2::support_value(s, pose, n, ray.origin) / nd
}

/// Compass search for `max ray_entry3` from the start directions (as in
/// [`refine3`]): a certified lower bound on the hit parameter, usually exact.
pub fn refine_ray3(
    s: &peng::d3::Shape,
    pose: &peng::d3::Pose3,
    ray: &peng::d3::Ray3,
    starts: &[Vec3],
) -> (Vec3, f32) {
    let f = |n: Vec3| -ray_entry3(s, pose, ray, n);
    let mut best = (Vec3::X, f32::NEG_INFINITY);
    for &st in starts {
        let Some(mut n) = st.try_normalize() else {
            continue;
        };
        let mut v = f(n);
        let mut step = 0.05f32;
        let mut evals = 0;
        while step > 1e-7 && evals < 4000 {
            let (t1, t2) = n.any_orthonormal_pair();
            let mut moved = false;
            for d in [t1, -t1, t2, -t2] {
                let m = (n + d * step.tan()).normalize();
                let w = f(m);
                evals += 1;
                if w < v {
                    (n, v, moved) = (m, w, true);
                    break;
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        if -v > best.1 {
            best = (n, -v);
        }
    }
    best
}

/// The 2D twin of [`refine_ray3`].
pub fn refine_ray2(
    s: &peng::d2::Shape,
    pose: &peng::d2::Pose2,
    ray: &peng::d2::Ray2,
    starts: &[Vec2],
) -> (Vec2, f32) {
    let f = |n: Vec2| ray_entry2(s, pose, ray, n);
    let mut best = (Vec2::X, f32::NEG_INFINITY);
    for &st in starts {
        let Some(n0) = st.try_normalize() else {
            continue;
        };
        let mut ang = n0.y.atan2(n0.x);
        let mut v = f(n0);
        let mut step = 0.05f32;
        while step > 1e-7 {
            let mut moved = false;
            for d in [step, -step] {
                let w = f(Vec2::from_angle(ang + d));
                if w > v {
                    (ang, v, moved) = (ang + d, w, true);
                    break;
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        if v > best.1 {
            best = (Vec2::from_angle(ang), v);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use peng::d3::{Ball, Cuboid, Pose3, Shape};

    #[test]
    fn ball_ball_overlap_is_exact() {
        let a: Shape = Ball::new(1.0).unwrap().into();
        let b: Shape = Ball::new(0.5).unwrap().into();
        let pa = Pose3::from_translation(Vec3::new(1.0, 2.0, 3.0));
        let pb = Pose3::from_translation(Vec3::new(2.0, 2.0, 3.0));
        // Centres 1 apart, radii sum 1.5: depth 0.5 along +x.
        assert!((overlap3(&a, &pa, &b, &pb, Vec3::X) - 0.5).abs() < 1e-6);
        let (n, v) = refine3(&a, &pa, &b, &pb, &[Vec3::new(0.3, 1.0, -0.2)]);
        assert!((v - 0.5).abs() < 1e-5, "{v}");
        assert!(n.dot(Vec3::X) > 0.9999, "{n}");
    }

    #[test]
    fn box_box_separation_certificate() {
        let a: Shape = Cuboid::new(Vec3::ONE).unwrap().into();
        let pa = Pose3::IDENTITY;
        let pb = Pose3::from_translation(Vec3::new(0.0, 2.5, 0.0));
        // Gap 0.5 along +y: g(+y) = -0.5, and any other direction gives less gap.
        let (n, v) = refine3(&a, &pa, &a, &pb, &[Vec3::new(0.2, 1.0, 0.1)]);
        assert!((v + 0.5).abs() < 1e-5, "{v}");
        assert!(n.dot(Vec3::Y) > 0.9999);
        let b2: peng::d2::Shape = peng::d2::Rect::new(Vec2::ONE).unwrap().into();
        let p2 = peng::d2::Pose2::from_translation(Vec2::new(1.5, 0.0));
        let (n, v) = refine2(
            &b2,
            &peng::d2::Pose2::IDENTITY,
            &b2,
            &p2,
            &[Vec2::new(1.0, 0.4)],
        );
        assert!((v - 0.5).abs() < 1e-5 && n.dot(Vec2::X) > 0.9999, "{v} {n}");
    }
}
