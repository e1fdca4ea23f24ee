//! 2D shapes and poses from bytes, and the pair queries with their invariants.

use crate::{finite, scale, Bytes};
use peng::d2::{
    cast_linear, cast_nonlinear, contact, distance, intersects, ray_cast, Capsule, CastOptions,
    Circle, Compound, ConvexPolygon, Motion2, Polyline, Pose2, Ray2, Rect, Segment, Shape,
    Triangle, Vec2,
};
use peng::math::policy::MAX_MAGNITUDE;
use peng::shape::decompose::convex_decomposition;

/// A vector of two numbers.
pub fn vec2(b: &mut Bytes) -> Vec2 {
    Vec2::new(b.f32(), b.f32())
}

/// A pose through `Pose2::try_new` (identity for a refused one).
pub fn pose(b: &mut Bytes) -> Pose2 {
    let t = vec2(b);
    match Pose2::try_new(t, b.f32()) {
        Ok(p) => {
            let l = Vec2::new(p.rotation.cos, p.rotation.sin).length();
            assert!((l - 1.0).abs() < 1e-4, "try_new gave |rotation| = {l}");
            p
        }
        Err(_) => Pose2::IDENTITY,
    }
}

/// A shape through the public constructors, `None` when refused. `depth`
/// bounds the nesting of compounds.
pub fn shape(b: &mut Bytes, depth: u32) -> Option<Shape> {
    let s: Shape = match b.below(10) {
        0 => Circle::new(b.size()).ok()?.into(),
        1 => Capsule::new(vec2(b), vec2(b), b.size()).ok()?.into(),
        2 => Capsule::vertical(b.size(), b.size()).ok()?.into(),
        3 => Rect::new(Vec2::new(b.size(), b.size())).ok()?.into(),
        4 => Segment::new(vec2(b), vec2(b)).ok()?.into(),
        5 => Triangle::new(vec2(b), vec2(b), vec2(b)).ok()?.into(),
        6 => {
            let n = 2 + b.below(10);
            let pts: Vec<Vec2> = (0..n).map(|_| vec2(b)).collect();
            ConvexPolygon::from_points(&pts).ok()?.into()
        }
        7 if depth > 0 => {
            let n = 1 + b.below(3);
            let mut parts = Vec::with_capacity(n);
            for _ in 0..n {
                let p = pose(b);
                parts.push((p, shape(b, depth - 1)?));
            }
            Compound::new(parts).ok()?.into()
        }
        8 => {
            let n = 1 + b.below(10);
            let v: Vec<Vec2> = (0..n).map(|_| vec2(b)).collect();
            let segments = if b.u8() & 1 == 0 {
                None
            } else {
                let m = b.below(8);
                Some(
                    (0..m)
                        .map(|_| [b.below(n + 1) as u32, b.below(n + 1) as u32])
                        .collect(),
                )
            };
            Polyline::new(v, segments).ok()?.into()
        }
        9 => {
            // A simple polygon, split into convex pieces: a compound.
            let n = 3 + b.below(10);
            let pts: Vec<Vec2> = (0..n).map(|_| vec2(b)).collect();
            let pieces = convex_decomposition(&pts).ok()?;
            let mut parts = Vec::with_capacity(pieces.len());
            for p in pieces {
                parts.push((Pose2::IDENTITY, ConvexPolygon::from_points(&p).ok()?.into()));
            }
            Compound::new(parts).ok()?.into()
        }
        _ => Circle::new(b.size()).ok()?.into(),
    };
    Some(s)
}

fn extent(s: &Shape, p: &Pose2) -> f32 {
    let b = s.aabb(p);
    scale(&[b.min.x, b.min.y, b.max.x, b.max.y])
}

fn finite_vec(what: &str, v: Vec2) {
    assert!(v.is_finite(), "{what} is not finite: {v:?}");
}

fn velocity(b: &mut Bytes) -> Vec2 {
    let v = vec2(b);
    if v.is_finite() && v.abs().max_element() <= MAX_MAGNITUDE {
        v
    } else {
        Vec2::ZERO
    }
}

/// Runs every pair query on `(a, pa)`, `(b, pb)` with the rest of the bytes,
/// and checks that the answers are finite and agree with one another.
pub fn pair_queries(a: &Shape, pa: &Pose2, b: &Shape, pb: &Pose2, bytes: &mut Bytes) {
    let tol = 1e-3 * extent(a, pa).max(extent(b, pb));
    // What a failed check prints besides its message.
    let ctx = || format!("\n  a = {a:?}\n  pose a = {pa:?}\n  b = {b:?}\n  pose b = {pb:?}");
    let d = distance(a, pa, b, pb);
    finite("distance", d.distance);
    finite_vec("distance normal", d.normal);
    finite_vec("distance point a", d.point_a);
    finite_vec("distance point b", d.point_b);
    let hit = intersects(a, pa, b, pb);
    let c = contact(a, pa, b, pb, 0.0);
    if let Some(m) = &c {
        finite_vec("contact normal", m.normal);
        for p in m.points() {
            finite("contact depth", p.depth);
            finite_vec("contact point", p.point_a);
        }
    }
    if a.is_convex() && b.is_convex() {
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

    if let Ok(ray) = Ray2::new(vec2(bytes), vec2(bytes)) {
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
            finite_vec("ray hit normal", h.normal);
        }
    }

    let options = CastOptions::default();
    let (va, vb) = (velocity(bytes), velocity(bytes));
    if let Some(h) = cast_linear(a, pa, va, b, pb, vb, &options) {
        finite("linear cast time", h.time);
        assert!((0.0..=1.0).contains(&h.time), "linear cast time {}", h.time);
        finite_vec("linear cast normal", h.normal);
    }
    let spin = |bytes: &mut Bytes| {
        let w = bytes.f32();
        if w.is_finite() && w.abs() <= 100.0 {
            w
        } else {
            0.0
        }
    };
    let ma = Motion2 {
        start: *pa,
        local_center: Vec2::ZERO,
        linvel: va,
        angvel: spin(bytes),
    };
    let mb = Motion2 {
        start: *pb,
        local_center: Vec2::ZERO,
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
