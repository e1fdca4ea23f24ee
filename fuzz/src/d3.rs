//! 3D shapes and poses from bytes, and the pair queries with their invariants.

use crate::{finite, scale, Bytes};
use peng::d3::{
    cast_linear, cast_nonlinear, contact, distance, intersects, ray_cast, Ball, Capsule,
    CastOptions, Compound, Cone, ConvexPolyhedron, Cuboid, Cylinder, HalfSpace, HeightField,
    Motion3, Pose3, Quat, Ray3, Segment, Shape, TriMesh, Triangle, Vec3,
};
use peng::math::policy::MAX_MAGNITUDE;
use peng::math::Vec2;

/// A vector of three numbers.
pub fn vec3(b: &mut Bytes) -> Vec3 {
    Vec3::new(b.f32(), b.f32(), b.f32())
}

/// A pose through `Pose3::try_new` (identity for a refused one, so the
/// shapes still meet the queries).
pub fn pose(b: &mut Bytes) -> Pose3 {
    let t = vec3(b);
    let q = Quat::from_xyzw(b.f32(), b.f32(), b.f32(), b.f32());
    match Pose3::try_new(t, q) {
        Ok(p) => {
            // The validated pose keeps its contract: a unit rotation.
            let l = p.rotation.length();
            assert!((l - 1.0).abs() < 1e-4, "try_new gave |q| = {l} for {q:?}");
            p
        }
        Err(_) => Pose3::IDENTITY,
    }
}

/// A shape through the public constructors, `None` when refused. `depth`
/// bounds the nesting of compounds.
pub fn shape(b: &mut Bytes, depth: u32) -> Option<Shape> {
    let s: Shape = match b.below(13) {
        0 => Ball::new(b.size()).ok()?.into(),
        1 => Capsule::new(vec3(b), vec3(b), b.size()).ok()?.into(),
        2 => Capsule::vertical(b.size(), b.size()).ok()?.into(),
        3 => Cuboid::new(Vec3::new(b.size(), b.size(), b.size()))
            .ok()?
            .into(),
        4 => Cylinder::new(b.size(), b.size()).ok()?.into(),
        5 => Cone::new(b.size(), b.size()).ok()?.into(),
        6 => Segment::new(vec3(b), vec3(b)).ok()?.into(),
        7 => Triangle::new(vec3(b), vec3(b), vec3(b)).ok()?.into(),
        8 => {
            let n = 3 + b.below(10);
            let pts: Vec<Vec3> = (0..n).map(|_| vec3(b)).collect();
            ConvexPolyhedron::from_points(&pts).ok()?.into()
        }
        9 => HalfSpace::new(vec3(b)).ok()?.into(),
        10 if depth > 0 => {
            let n = 1 + b.below(3);
            let mut parts = Vec::with_capacity(n);
            for _ in 0..n {
                let p = pose(b);
                parts.push((p, shape(b, depth - 1)?));
            }
            Compound::new(parts).ok()?.into()
        }
        11 => {
            let n = 1 + b.below(10);
            let v: Vec<Vec3> = (0..n).map(|_| vec3(b)).collect();
            let m = b.below(8);
            // Indices may point one past the end: the constructor refuses.
            let mut idx = || b.below(n + 1) as u32;
            let t: Vec<[u32; 3]> = (0..m).map(|_| [idx(), idx(), idx()]).collect();
            TriMesh::new(v, t).ok()?.into()
        }
        12 => {
            let (rows, cols) = (1 + b.below(5), 1 + b.below(5));
            let h: Vec<f32> = (0..rows * cols).map(|_| b.f32()).collect();
            HeightField::new(rows, cols, h, Vec2::new(b.size(), b.size()))
                .ok()?
                .into()
        }
        _ => Ball::new(b.size()).ok()?.into(),
    };
    Some(s)
}

/// Whether the shape reaches infinity (a half-space, or a compound with one).
fn unbounded(s: &Shape) -> bool {
    !s.aabb(&Pose3::IDENTITY).is_finite()
}

/// The size of a placed shape for tolerances (finite box components only).
fn extent(s: &Shape, p: &Pose3) -> f32 {
    let b = s.aabb(p);
    let mut v: Vec<f32> = b.min.to_array().into_iter().collect();
    v.extend(b.max.to_array());
    v.retain(|x| x.is_finite());
    scale(&v)
}

fn finite_vec(what: &str, v: Vec3, ctx: &dyn Fn() -> String) {
    assert!(v.is_finite(), "{what} is not finite: {v:?}{}", ctx());
}

/// A velocity that keeps the moving shape within twice the magnitude limit
/// over the cast's unit time (the policy's bound has room for it), or zero.
fn velocity(b: &mut Bytes) -> Vec3 {
    let v = vec3(b);
    if v.is_finite() && v.abs().max_element() <= MAX_MAGNITUDE {
        v
    } else {
        Vec3::ZERO
    }
}

/// Runs every pair query on `(a, pa)`, `(b, pb)` with the rest of the bytes,
/// and checks that the answers are finite and agree with one another.
pub fn pair_queries(a: &Shape, pa: &Pose3, b: &Shape, pb: &Pose3, bytes: &mut Bytes) {
    let tol = 1e-3 * extent(a, pa).max(extent(b, pb));
    // What a failed check prints besides its message.
    let ctx = || format!("\n  a = {a:?}\n  pose a = {pa:?}\n  b = {b:?}\n  pose b = {pb:?}");
    let both_unbounded = unbounded(a) && unbounded(b);

    let d = distance(a, pa, b, pb);
    if !both_unbounded {
        finite("distance", d.distance);
        finite_vec("distance normal", d.normal, &ctx);
        finite_vec("distance point a", d.point_a, &ctx);
        finite_vec("distance point b", d.point_b, &ctx);
    }
    let hit = intersects(a, pa, b, pb);
    let c = contact(a, pa, b, pb, 0.0);
    if let Some(m) = &c {
        finite_vec("contact normal", m.normal, &ctx);
        for p in m.points() {
            finite("contact depth", p.depth);
            finite_vec("contact point", p.point_a, &ctx);
        }
    }
    if a.is_bounded_convex() && b.is_bounded_convex() {
        if hit {
            assert!(
                d.distance <= tol,
                "intersects, but distance {} (tol {tol}){}",
                d.distance,
                ctx()
            );
        } else {
            assert!(
                d.distance >= -tol,
                "apart, but distance {} (tol {tol}){}",
                d.distance,
                ctx()
            );
        }
        if c.is_some() {
            assert!(
                d.distance <= tol,
                "contact, but distance {} (tol {tol}){}",
                d.distance,
                ctx()
            );
        } else {
            assert!(
                d.distance >= -tol,
                "no contact, but distance {} (tol {tol}){}",
                d.distance,
                ctx()
            );
        }
    }

    // A ray at B.
    if let Ok(ray) = Ray3::new(vec3(bytes), vec3(bytes)) {
        let max_toi = bytes.size();
        let solid = bytes.u8() & 1 == 1;
        // A limit below 0 or NaN admits no time: no hit.
        let hit = ray_cast(b, pb, &ray, max_toi, solid);
        assert!(
            max_toi >= 0.0 || hit.is_none(),
            "ray hit under the limit {max_toi}"
        );
        if let Some(h) = hit {
            finite("ray hit time", h.toi);
            assert!(
                h.toi >= 0.0 && h.toi <= max_toi * (1.0 + 1e-6),
                "ray hit at {} outside [0, {max_toi}]",
                h.toi
            );
            finite_vec("ray hit normal", h.normal, &ctx);
        }
    }

    // Casts over the unit time.
    let options = CastOptions::default();
    let (va, vb) = (velocity(bytes), velocity(bytes));
    if let Some(h) = cast_linear(a, pa, va, b, pb, vb, &options) {
        finite("linear cast time", h.time);
        assert!((0.0..=1.0).contains(&h.time), "linear cast time {}", h.time);
        finite_vec("linear cast normal", h.normal, &ctx);
    }
    let spin = |bytes: &mut Bytes| {
        let w = vec3(bytes);
        if w.is_finite() && w.abs().max_element() <= 100.0 {
            w
        } else {
            Vec3::ZERO
        }
    };
    let ma = Motion3 {
        start: *pa,
        local_center: Vec3::ZERO,
        linvel: va,
        angvel: spin(bytes),
    };
    let mb = Motion3 {
        start: *pb,
        local_center: Vec3::ZERO,
        linvel: vb,
        angvel: spin(bytes),
    };
    if let Some(h) = cast_nonlinear(a, &ma, b, &mb, &options) {
        finite("nonlinear cast time", h.time);
        assert!(
            (0.0..=1.0).contains(&h.time),
            "nonlinear cast time {}",
            h.time
        );
    }
}
