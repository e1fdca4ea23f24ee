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
use crate::gen::{support_value, support_value_f64, Pair};
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
///
/// In f64 from peng's f32 support point: the ratio divides by `n·d`, small
/// for a plane the ray crosses at a shallow angle, which would magnify the
/// f32 rounding of the offset past the tests' tolerance.
pub fn ray_entry<D: Dim>(s: &D::Shape, pose: &D::Pose, ray: &Ray<D::V>, n: D::V) -> f32 {
    let nd = D::to_dvec3(n).dot(D::to_dvec3(ray.dir));
    if nd >= 0.0 {
        return f32::NEG_INFINITY;
    }
    (support_value_f64::<D>(s, pose, n, ray.origin) / nd) as f32
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

/// The exact entry parameter of a ray into a solid polytope (box, polygon,
/// polyhedron; `None` for other shapes), in f64 from the f32 corners: every
/// plane `m·y = h` with `h = max_v m·v` over the placed corners supports the
/// shape, so where the ray enters its half-space is a certified lower bound
/// on the hit parameter (as in [`ray_entry`]), and the facet planes, which
/// pass through corners, attain the hit. Candidates are the planes through
/// every pair (2D) or triple (3D) of corners, both orientations: for a box
/// 56 triples, so a check for the rare mismatches, not a query. Needed where
/// the ray crosses a face at a slope far below 1e-4: there the f32 normals of
/// [`refine_ray`] miss the face's plane by a rounding whose effect on the
/// entry is divided by the slope (seen: a box face crossed at 6.9e-5, the
/// bound 6e-4 below the entry).
pub fn polytope_ray_entry<D: Dim>(s: &D::Shape, pose: &D::Pose, ray: &Ray<D::V>) -> Option<f32> {
    let corners: Vec<glam::DVec3> = D::polytope_vertices(s)?
        .into_iter()
        .map(|v| D::place_f64(pose, v))
        .collect();
    let (o, d) = (D::to_dvec3(ray.origin), D::to_dvec3(ray.dir));
    let mut best = f64::NEG_INFINITY;
    for m in D::facet_normals_f64(&corners) {
        for m in [m, -m] {
            let md = m.dot(d);
            if md >= 0.0 {
                continue;
            }
            let h = corners
                .iter()
                .map(|c| m.dot(*c))
                .fold(f64::NEG_INFINITY, f64::max);
            best = best.max((h - m.dot(o)) / md);
        }
    }
    best.is_finite().then_some(best as f32)
}

/// The exact entry parameter of a ray into a circle, ball or capsule (`None`
/// for other shapes, or when it misses), in f64 from the f32 core and radius
/// placed by the pose: the first entry into the two end balls and the
/// cylinder (2D: the band) between them. Needed where the ray passes near
/// tangent to the surface: there [`refine_ray`]'s supporting planes are
/// crossed at a slope of about `√(2 δ / r)` (`δ` how far inside the ray
/// passes), which divides the f32 rounding of their support points, so its
/// bound is not a bound (seen: a 2D capsule's cap passed 5e-9 inside, the
/// search's bound 1.4e-4 past the entry).
pub fn round_ray_entry<D: Dim>(s: &D::Shape, pose: &D::Pose, ray: &Ray<D::V>) -> Option<f32> {
    let ([a, b], r) = D::round_core(s)?;
    let (a, b, r) = (D::place_f64(pose, a), D::place_f64(pose, b), r as f64);
    let (o, d) = (D::to_dvec3(ray.origin), D::to_dvec3(ray.dir));
    // The entry root of |m + t d|² = r² (m, d projected off the axis for the
    // cylinder).
    let enter = |m: glam::DVec3, d: glam::DVec3| {
        let (qa, qb, qc) = (d.dot(d), m.dot(d), m.dot(m) - r * r);
        if qc <= 0.0 {
            return Some(0.0);
        }
        let disc = qb * qb - qa * qc;
        (qa > 0.0 && disc >= 0.0 && qb < 0.0).then(|| (-qb - disc.sqrt()) / qa)
    };
    let mut best = [a, b]
        .into_iter()
        .filter_map(|c| enter(o - c, d))
        .fold(f64::INFINITY, f64::min);
    let e = b - a;
    let len = e.length();
    if len > 0.0 {
        let u = e / len;
        let off = |v: glam::DVec3| v - u * v.dot(u);
        if let Some(t) = enter(off(o - a), off(d)) {
            let along = (o + d * t - a).dot(u);
            if (0.0..=len).contains(&along) {
                best = best.min(t);
            }
        }
    }
    best.is_finite().then_some(best as f32)
}

/// A certified **upper bound** on the hit parameter of a ray near the entry
/// normal `n` (from [`refine_ray`]): support points along directions tilted
/// from `n` by small angles are points of the shape, so is every chord (2D)
/// or triangle (3D) between them, and where the ray crosses one it has
/// entered the shape. Exact for a polygon's edge or a polyhedron's face (the
/// support points are the feature's corners); for a curved surface the
/// chord lies within `ε²/2` of the radius. `None` when no chord is crossed
/// (the ray enters at a vertex, or misses). In f64 from peng's f32 support
/// points.
pub fn ray_upper<D: Dim>(s: &D::Shape, pose: &D::Pose, ray: &Ray<D::V>, n: D::V) -> Option<f32> {
    let (o, d) = (D::to_dvec3(ray.origin), D::to_dvec3(ray.dir));
    let point = |dir: D::V| {
        D::place_f64(
            pose,
            D::local_support(s, D::inverse_transform_vector(pose, dir)),
        )
    };
    let mut best = f64::INFINITY;
    // Tilts: both ways along the tangent in 2D; in 3D eight ways around
    // the normal (the corners of a face, whatever its orientation).
    let t = D::tangents(n);
    let tilts: Vec<D::V> = if t.len() == 2 {
        t
    } else {
        let (t1, t2) = (t[0], t[2]);
        (0..8)
            .map(|k| {
                let a = k as f32 * std::f32::consts::FRAC_PI_4;
                t1 * a.cos() + t2 * a.sin()
            })
            .collect()
    };
    for eps in [1e-4f32, 1e-3, 1e-2, 1e-1] {
        let p: Vec<glam::DVec3> = tilts.iter().map(|&t| point(n + t * eps)).collect();
        if p.len() == 2 {
            if let Some(t) = ray_chord(o, d, p[0], p[1]) {
                best = best.min(t);
            }
            continue;
        }
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                for k in j + 1..p.len() {
                    if let Some(t) = ray_triangle(o, d, p[i], p[j], p[k]) {
                        best = best.min(t);
                    }
                }
            }
        }
    }
    best.is_finite().then_some(best as f32)
}

/// Where the ray `o + t·d` (in the plane `z = 0`) crosses the segment `a b`.
fn ray_chord(o: glam::DVec3, d: glam::DVec3, a: glam::DVec3, b: glam::DVec3) -> Option<f64> {
    let cross = |u: glam::DVec3, v: glam::DVec3| u.x * v.y - u.y * v.x;
    let e = b - a;
    let den = cross(d, e);
    if den == 0.0 {
        return None;
    }
    let t = cross(a - o, e) / den;
    let u = cross(a - o, d) / den;
    (t >= 0.0 && (0.0..=1.0).contains(&u)).then_some(t)
}

/// Where the ray `o + t·d` crosses triangle `a b c` (Möller and Trumbore,
/// "Fast, minimum storage ray-triangle intersection", 1997).
fn ray_triangle(
    o: glam::DVec3,
    d: glam::DVec3,
    a: glam::DVec3,
    b: glam::DVec3,
    c: glam::DVec3,
) -> Option<f64> {
    let (e1, e2) = (b - a, c - a);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det == 0.0 {
        return None;
    }
    let s = o - a;
    let u = s.dot(p) / det;
    let q = s.cross(e1);
    let v = d.dot(q) / det;
    let t = e2.dot(q) / det;
    (u >= 0.0 && v >= 0.0 && u + v <= 1.0 && t >= 0.0).then_some(t)
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

    /// The two ray bounds bracket the closed-form hit: exact on a flat face
    /// (2D edge, 3D face), within the chord's sagitta on a ball; and a ray
    /// that crosses a 2D edge at 1/400 of a radian still gets the hit from
    /// both sides to 1e-6 (in f32 the offset's rounding over the slope was
    /// 4e-5).
    #[test]
    fn ray_bounds_bracket_the_hit() {
        use crate::dim::{D2, D3};
        let cube: peng::d3::Shape = Cuboid::new(Vec3::ONE).unwrap().into();
        let pose = Pose3::from_translation(Vec3::new(0.5, -0.25, 3.0));
        let ray = Ray::new(Vec3::new(-4.0, 0.0, 3.1), Vec3::new(1.0, 0.05, -0.02)).unwrap();
        // Enters the face x = -0.5 at t = 3.5.
        let (n, lb) = refine_ray::<D3>(&cube, &pose, &ray, &[-Vec3::X + Vec3::Y * 0.1]);
        let ub = ray_upper::<D3>(&cube, &pose, &ray, n).unwrap();
        assert!(
            (lb - 3.5).abs() < 1e-6 && (ub - 3.5).abs() < 1e-6,
            "{lb} {ub}"
        );
        let ball: peng::d3::Shape = Ball::new(2.0).unwrap().into();
        let ray = Ray::new(Vec3::new(-5.0, 1.0, 0.0), Vec3::X).unwrap();
        // Enters at x = -sqrt(3): t = 5 - sqrt(3).
        let hit = 5.0 - 3f32.sqrt();
        let (n, lb) = refine_ray::<D3>(&ball, &Pose3::IDENTITY, &ray, &[-Vec3::X]);
        let ub = ray_upper::<D3>(&ball, &Pose3::IDENTITY, &ray, n).unwrap();
        assert!(lb <= hit + 1e-6 && ub >= hit - 1e-6, "{lb} {hit} {ub}");
        assert!(ub - lb < 1e-5, "{lb} {ub}");
        let seg: peng::d2::Shape =
            peng::d2::Segment::new(Vec2::new(-3.0, 0.0), Vec2::new(3.0, 0.0))
                .unwrap()
                .into();
        let pose = peng::d2::Pose2::from_translation(Vec2::new(0.3, 1.7));
        let slope = 1.0f32 / 400.0;
        let ray = Ray::new(Vec2::new(-2.0, 1.7 + 2.0 * slope), Vec2::new(1.0, -slope)).unwrap();
        // Crosses y = 1.7 at t = 2.
        let (n, lb) = refine_ray::<D2>(&seg, &pose, &ray, &[Vec2::Y]);
        let ub = ray_upper::<D2>(&seg, &pose, &ray, n).unwrap();
        assert!(
            (lb - 2.0).abs() < 1e-5 && (ub - 2.0).abs() < 1e-5,
            "{lb} {ub}"
        );
    }
}
