//! Casts against compounds and polylines: the earliest cast over the convex
//! leaves (compound parts, polyline segments) that the other shape's sweep
//! can reach, found through the composite's BVH.

use super::convex::reach;
use super::{linear, nonlinear};
use crate::bound::Aabb2;
use crate::ccd::{CastHit2, CastOptions, CastStatus, Motion2};
use crate::math::{Pose2, Vec2};
use crate::shape::d2::{Segment, Shape};

/// Keeps the earlier hit; at equal times a contact over an undecided part
/// (which only says "none before this time"), then a penetration, the deeper
/// one. An undecided part at `t` stays the answer unless another part has a
/// contact by `t`: a later contact of another part cannot be certified the
/// first.
fn keep(best: &mut Option<CastHit2>, h: CastHit2) {
    let better = match best {
        None => true,
        Some(b) => {
            h.time < b.time
                || (h.time == b.time
                    && ((b.status == CastStatus::Undecided && h.status != CastStatus::Undecided)
                        || (h.status == CastStatus::Penetrating
                            && (b.status != CastStatus::Penetrating || h.depth > b.depth))))
        }
    };
    if better {
        *best = Some(h);
    }
}

/// The options of the next leaf: the search ends at the best time so far.
fn narrowed(options: &CastOptions, best: &Option<CastHit2>) -> CastOptions {
    CastOptions {
        max_time: best.map_or(options.max_time, |h| h.time.min(options.max_time)),
        ..*options
    }
}

/// A box swept by `v·t` for `t` in `[0, max_time]`, grown by `margin`.
fn swept(b: Aabb2, v: Vec2, max_time: f32, margin: f32) -> Aabb2 {
    let end = Aabb2::new(b.min + v * max_time, b.max + v * max_time);
    b.merged(&end).loosened(margin)
}

/// A margin for candidate boxes: the target distance plus the tolerance
/// (or, when automatic, a relative bit of the box, which exceeds it).
fn margin(options: &CastOptions, b: &Aabb2) -> f32 {
    let size = (b.max - b.min).length();
    let tol = if options.tolerance > 0.0 {
        options.tolerance
    } else {
        1e-3 * size
    };
    options.target_distance.max(0.0) + tol
}

/// The segment shape of a polyline's segment (finite by construction).
fn segment(ends: &[Vec2; 2]) -> Option<Shape> {
    Segment::new(ends[0], ends[1]).ok().map(Shape::Segment)
}

/// [`super::cast_linear`] into `best`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn linear(
    a: &Shape,
    pose_a: &Pose2,
    vel_a: Vec2,
    b: &Shape,
    pose_b: &Pose2,
    vel_b: Vec2,
    options: &CastOptions,
    best: &mut Option<CastHit2>,
) {
    let o = narrowed(options, best);
    if !(o.max_time >= 0.0) {
        return;
    }
    // The other shape's box swept in the composite's frame.
    let sweep_in = |composite: &Pose2, vel_c: Vec2, other: &Shape, pose_o: &Pose2, vel_o: Vec2| {
        let b = other.aabb(&composite.inv_mul(pose_o));
        let v = composite.rotation.inv_rotate(vel_o - vel_c);
        swept(b, v, o.max_time, margin(&o, &b))
    };
    match (a, b) {
        (Shape::Compound(c), _) => {
            let q = sweep_in(pose_a, vel_a, b, pose_b, vel_b);
            let mut near = Vec::new();
            c.parts_near(&q, &mut near);
            for i in near {
                let (p, s) = &c.parts()[i];
                linear(s, &pose_a.mul(p), vel_a, b, pose_b, vel_b, options, best);
            }
        }
        (_, Shape::Compound(c)) => {
            let q = sweep_in(pose_b, vel_b, a, pose_a, vel_a);
            let mut near = Vec::new();
            c.parts_near(&q, &mut near);
            for j in near {
                let (p, s) = &c.parts()[j];
                linear(a, pose_a, vel_a, s, &pose_b.mul(p), vel_b, options, best);
            }
        }
        (Shape::Polyline(l), _) => {
            let q = sweep_in(pose_a, vel_a, b, pose_b, vel_b);
            l.for_each_segment_in_aabb(&q, |_, ends| {
                if let Some(s) = segment(ends) {
                    linear(&s, pose_a, vel_a, b, pose_b, vel_b, options, best);
                }
            });
        }
        (_, Shape::Polyline(l)) => {
            let q = sweep_in(pose_b, vel_b, a, pose_a, vel_a);
            l.for_each_segment_in_aabb(&q, |_, ends| {
                if let Some(s) = segment(ends) {
                    linear(a, pose_a, vel_a, &s, pose_b, vel_b, options, best);
                }
            });
        }
        _ => {
            if let Some(h) = linear::cast_convex(a, pose_a, vel_a, b, pose_b, vel_b, &o) {
                keep(best, h);
            }
        }
    }
}

/// The motion of a part placed at `part` in a body moving by `m`: the same
/// velocities about the same world centre.
fn part_motion(m: &Motion2, part: &Pose2) -> Motion2 {
    Motion2 {
        start: m.start.mul(part),
        local_center: part.inverse_transform_point(m.local_center),
        linvel: m.linvel,
        angvel: m.angvel,
    }
}

/// Whether a leaf of a composite moving by `mc` (the leaf within `r_leaf` of
/// its rotation centre) can come within `margin` of a shape moving by `mo`
/// (within `r_o` of its centre) in `[0, max_time]`: both centres move
/// linearly, so their offset sweeps a segment, and the leaf and the other
/// shape stay in discs about them.
fn may_meet(mc: &Motion2, r_leaf: f32, mo: &Motion2, r_o: f32, max_time: f32, margin: f32) -> bool {
    let c0 = mo.start.transform_point(mo.local_center) - mc.start.transform_point(mc.local_center);
    let dv = (mo.linvel - mc.linvel) * max_time;
    let dd = dv.length_squared();
    let s = if dd > 0.0 {
        (-c0.dot(dv) / dd).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let gap = (c0 + dv * s).length();
    !(gap > r_leaf + r_o + margin)
}

/// [`super::cast_nonlinear`] into `best`.
pub(crate) fn nonlinear(
    a: &Shape,
    ma: &Motion2,
    b: &Shape,
    mb: &Motion2,
    options: &CastOptions,
    best: &mut Option<CastHit2>,
) {
    let o = narrowed(options, best);
    if !(o.max_time >= 0.0) {
        return;
    }
    match (a, b) {
        (Shape::Compound(_) | Shape::Polyline(_), _) => {
            for_each_leaf(a, ma, b, mb, &o, &mut |s, m| {
                nonlinear(s, m, b, mb, options, best)
            });
        }
        (_, Shape::Compound(_) | Shape::Polyline(_)) => {
            for_each_leaf(b, mb, a, ma, &o, &mut |s, m| {
                nonlinear(a, ma, s, m, options, best)
            });
        }
        _ => {
            if let Some(h) = nonlinear::cast_convex(a, ma, b, mb, &o) {
                keep(best, h);
            }
        }
    }
}

/// Calls `f(leaf, leaf motion)` for the leaves of the composite `c` (moving
/// by `mc`) that the other shape `other` (moving by `mo`) may reach. A
/// composite that does not turn is searched through its BVH with the box of
/// the other shape's reach disc swept in its frame; a turning one leaf by
/// leaf with [`may_meet`].
fn for_each_leaf(
    c: &Shape,
    mc: &Motion2,
    other: &Shape,
    mo: &Motion2,
    o: &CastOptions,
    f: &mut dyn FnMut(&Shape, &Motion2),
) {
    let r_o = reach(other, mo.local_center);
    let pad = o.target_distance.max(0.0) + o.tolerance.max(1e-3 * r_o);
    // The box of the other shape's reach over the cast, in `c`'s frame, when
    // `c` does not turn (then its frame only translates).
    let query = (mc.angvel == 0.0).then(|| {
        let p0 = mc
            .start
            .inverse_transform_point(mo.start.transform_point(mo.local_center));
        let v = mc.start.rotation.inv_rotate(mo.linvel - mc.linvel);
        let b = Aabb2::new(p0, p0);
        swept(b, v, o.max_time, r_o + pad)
    });
    match c {
        Shape::Compound(k) => {
            let mut near = Vec::new();
            match &query {
                Some(q) => k.parts_near(q, &mut near),
                None => near.extend(0..k.parts().len()),
            }
            for i in near {
                let (p, s) = &k.parts()[i];
                let m = part_motion(mc, p);
                if query.is_some()
                    || may_meet(mc, reach(s, m.local_center), mo, r_o, o.max_time, pad)
                {
                    f(s, &m);
                }
            }
        }
        Shape::Polyline(l) => {
            let mut visit = |ends: &[Vec2; 2]| {
                if let Some(s) = segment(ends) {
                    f(&s, mc);
                }
            };
            match &query {
                Some(q) => l.for_each_segment_in_aabb(q, |_, ends| visit(ends)),
                None => {
                    let cl = mc.local_center;
                    for i in 0..l.segments().len() as u32 {
                        let ends = l.segment(i);
                        let r = (ends[0] - cl).length().max((ends[1] - cl).length());
                        if may_meet(mc, r, mo, r_o, o.max_time, pad) {
                            visit(&ends);
                        }
                    }
                }
            }
        }
        _ => f(c, mc),
    }
}
