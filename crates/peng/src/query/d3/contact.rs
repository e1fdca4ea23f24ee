//! 3D contact manifolds, dispatched on the pair of shape kinds.
//!
//! | pair | method |
//! | --- | --- |
//! | cuboid with cuboid | the 15-axis closed-form separating-axis test, then face clipping or edge-edge closest points |
//! | cuboid, polyhedron, triangle, segment among themselves | separating-axis test with Gauss-map pruning, then face clipping or edge-edge closest points ([`crate::query::sat`]) |
//! | ball with anything | closest point of the centre on the other shape (closed forms; Ericson 5.1.5 for triangles) |
//! | capsule/segment with capsule/segment/ball | closest points of the cores; two points for parallel overlapping cores |
//! | capsule with polyhedral | SAT on the core, exact closest points when the core is apart |
//! | half-space with anything | the support feature's points below the plane (two half-spaces: `None`, their overlap is unbounded) |
//! | cylinder or cone with the rest | signed distance (GJK/EPA) for normal and depth, then support features clipped |
//! | compound with anything | per part pair |
//! | mesh or height field with anything | per triangle, internal edges fixed, merged per normal ([`super::mesh`]) |
//!
//! Work happens in A's frame; results are mapped to world space at the end.

#[path = "contact/box_box.rs"]
mod box_box;
#[path = "contact/capsule_poly.rs"]
mod capsule_poly;
#[path = "contact/core_poly_f64.rs"]
mod core_poly_f64;
#[path = "contact/features.rs"]
pub(super) mod features;
#[path = "contact/general.rs"]
mod general;
#[path = "contact/halfspace.rs"]
mod halfspace;
#[path = "contact/polytopes.rs"]
mod polytopes;
#[path = "contact/project.rs"]
mod project;
#[path = "contact/round.rs"]
pub(super) mod round;

use crate::math::Pose3;
use crate::query::sat::{polytope_manifold, polytope_manifold_or_gap};
use crate::query::types::Manifold3;
use crate::shape::d3::Shape;
use polytopes::AnyPoly;
use round::Core;

/// The contact manifold of the pair when they overlap or are closer than
/// `prediction`; for compounds, the deepest of the part manifolds.
pub fn contact(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    debug_assert!(pose_a.is_finite() && pose_b.is_finite());
    // Fast arms for the common convex pairs, before the compound, mesh and
    // flat-triangle checks: the same functions `ordered_world` reaches for
    // them, each writing the manifold straight into the returned value.
    match (a, b) {
        (Shape::Capsule(ca), Shape::Capsule(cb)) => {
            round::capsules_world(ca, pose_a, cb, pose_b, prediction)
        }
        (Shape::Ball(s), Shape::Cuboid(c)) => {
            let (r, h) = (s.radius(), c.half_extents());
            round::ball_cuboid_world(r, pose_a.translation, h, pose_b, prediction)
        }
        (Shape::Cuboid(c), Shape::Ball(s)) => {
            let (r, h) = (s.radius(), c.half_extents());
            let m = round::ball_cuboid_world(r, pose_b.translation, h, pose_a, prediction)?;
            Some(m.swapped())
        }
        (Shape::Cuboid(ca), Shape::Cuboid(cb)) => {
            let b_in_a = pose_a.inv_mul(pose_b);
            let m = box_box::box_box(ca, cb, &b_in_a, prediction)?;
            Some(to_world(&m, pose_a))
        }
        _ => contact_general(a, pose_a, b, pose_b, prediction),
    }
}

/// [`contact`], or when there is none, a lower bound on the distance
/// between the shapes, so that a caller can tell how far the pair must move
/// before it may touch. Pairs of convex polyhedra and boxes (not two boxes)
/// give the separation of the axis their separating-axis test stopped on
/// (more than `prediction`; `-∞` when the test found no axis); the other
/// pairs give `prediction` (the contract of [`contact`]: no manifold means
/// no closer than that).
pub fn contact_or_gap(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
) -> Result<Manifold3, f32> {
    let solid = |s: &Shape| matches!(s, Shape::Cuboid(_) | Shape::Polyhedron(_));
    let two_boxes = matches!((a, b), (Shape::Cuboid(_), Shape::Cuboid(_)));
    if !(solid(a) && solid(b)) || two_boxes {
        return contact(a, pose_a, b, pose_b, prediction).ok_or(prediction);
    }
    debug_assert!(pose_a.is_finite() && pose_b.is_finite());
    // As `contact_pair` orders the pair: by rank, solved in the first's frame.
    let (first, pose_first, second, pose_second, swap) = if rank(a) > rank(b) {
        (b, pose_b, a, pose_a, true)
    } else {
        (a, pose_a, b, pose_b, false)
    };
    let (Some(pa), Some(pb)) = (AnyPoly::of(first), AnyPoly::of(second)) else {
        return contact(a, pose_a, b, pose_b, prediction).ok_or(prediction);
    };
    let b_in_a = pose_first.inv_mul(pose_second);
    let m = polytope_manifold_or_gap(&pa, &pb, &b_in_a, prediction)?;
    let w = to_world(&m, pose_first);
    Ok(if swap { w.swapped() } else { w })
}

/// [`contact`] for the pairs without a fast arm (kept out of line so that
/// `contact` itself needs no stack frame and the fast arms are tail calls).
#[inline(never)]
fn contact_general(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    if matches!(a, Shape::Compound(_)) || matches!(b, Shape::Compound(_)) {
        let mut best: Option<Manifold3> = None;
        for_each_part_pair(a, pose_a, b, pose_b, prediction, &mut |m| {
            if best.is_none_or(|b| m.depth() > b.depth()) {
                best = Some(m);
            }
        });
        return best;
    }
    contact_pair(a, pose_a, b, pose_b, prediction)
}

/// All contact manifolds of the pair (one per touching part pair of compounds),
/// appended to `out`.
pub fn contacts(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
    out: &mut Vec<Manifold3>,
) {
    let options = super::mesh::ContactOptions::default();
    contacts_with_options(a, pose_a, b, pose_b, prediction, &options, out);
}

/// [`contacts`] with options for meshes (one manifold per normal cluster of a
/// mesh pair; compounds' mesh parts give their deepest and use the defaults).
pub fn contacts_with_options(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
    options: &super::mesh::ContactOptions,
    out: &mut Vec<Manifold3>,
) {
    if matches!(a, Shape::Compound(_)) || matches!(b, Shape::Compound(_)) {
        for_each_part_pair(a, pose_a, b, pose_b, prediction, &mut |m| out.push(m));
    } else if !super::mesh::contacts(a, pose_a, b, pose_b, prediction, options, out) {
        if let Some(m) = contact(a, pose_a, b, pose_b, prediction) {
            out.push(m);
        }
    }
}

/// Calls `f` with the manifold of every touching part pair, `part_a`/`part_b`
/// set to the part indices (0 for a shape that is not a compound). Parts whose
/// bounding boxes (grown by `prediction`) do not meet are skipped.
fn for_each_part_pair(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
    f: &mut dyn FnMut(Manifold3),
) {
    // The compound's BVH (its own frame) gives the candidate parts: those
    // whose boxes meet the other shape's box in that frame, grown by the
    // prediction distance.
    let mut near = Vec::new();
    if let Shape::Compound(c) = a {
        let box_b = b
            .aabb(&pose_a.inv_mul(pose_b))
            .loosened(prediction.max(0.0));
        c.parts_near(&box_b, &mut near);
        for i in near {
            let (p, s) = &c.parts()[i];
            let pose = pose_a.mul(p);
            for_each_part_pair(s, &pose, b, pose_b, prediction, &mut |mut m| {
                m.part_a = i as u32;
                f(m)
            });
        }
    } else if let Shape::Compound(c) = b {
        let box_a = a
            .aabb(&pose_b.inv_mul(pose_a))
            .loosened(prediction.max(0.0));
        c.parts_near(&box_a, &mut near);
        for j in near {
            let (p, s) = &c.parts()[j];
            let pose = pose_b.mul(p);
            for_each_part_pair(a, pose_a, s, &pose, prediction, &mut |mut m| {
                m.part_b = j as u32;
                f(m)
            });
        }
    } else {
        if let Some(m) = contact_pair(a, pose_a, b, pose_b, prediction) {
            f(m);
        }
    }
}

/// Maps a manifold from A's frame to world space.
fn to_world(m: &Manifold3, pose_a: &Pose3) -> Manifold3 {
    let mut w = *m;
    w.normal = pose_a.transform_vector(m.normal);
    for p in w.points_mut() {
        p.point_a = pose_a.transform_point(p.point_a);
        p.point_b = pose_a.transform_point(p.point_b);
    }
    w
}

/// Dispatch order: a pair is handled by the function of the lower-ranked kind
/// first; the other order is the swapped result.
fn rank(s: &Shape) -> u8 {
    match s {
        Shape::HalfSpace(_) => 0,
        Shape::Ball(_) => 1,
        Shape::Capsule(_) => 2,
        Shape::Segment(_) => 3,
        Shape::Cuboid(_) => 4,
        Shape::Triangle(_) => 5,
        Shape::Polyhedron(_) => 6,
        Shape::Cylinder(_) => 7,
        Shape::Cone(_) => 8,
        Shape::Compound(_) => 9,
        Shape::TriMesh(_) | Shape::HeightField(_) => 10,
    }
}

/// Whether the shape is a triangle mesh or a height field (the pairs
/// [`super::mesh::deepest`] handles).
#[inline]
fn is_mesh(s: &Shape) -> bool {
    matches!(s, Shape::TriMesh(_) | Shape::HeightField(_))
}

/// The segment standing for a zero-area triangle.
fn flat_triangle(s: &Shape) -> Option<Shape> {
    match s {
        Shape::Triangle(t) if t.normal().is_none() => {
            let (a, b) = polytopes::longest_edge(t);
            crate::shape::d3::Segment::new(a, b)
                .ok()
                .map(Shape::Segment)
        }
        _ => None,
    }
}

/// The core of a ball, capsule or segment.
fn core(s: &Shape) -> Option<Core> {
    Some(match s {
        Shape::Ball(b) => Core {
            a: glam::Vec3::ZERO,
            b: glam::Vec3::ZERO,
            r: b.radius(),
        },
        Shape::Capsule(c) => Core {
            a: c.a(),
            b: c.b(),
            r: c.radius(),
        },
        Shape::Segment(s) => Core {
            a: s.a(),
            b: s.b(),
            r: 0.0,
        },
        _ => return None,
    })
}

/// The manifold of two non-compound shapes, in world space. The pair is put
/// in rank order and solved in the frame of the first, with the relative pose
/// computed once from the world poses (one rounding step).
pub(super) fn contact_pair(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    if is_mesh(a) || is_mesh(b) {
        if let Some(m) = super::mesh::deepest(a, pose_a, b, pose_b, prediction) {
            return m;
        }
    }
    // A zero-area triangle is the segment of its longest edge.
    let (ta, tb);
    let a = match flat_triangle(a) {
        Some(s) => {
            ta = s;
            &ta
        }
        None => a,
    };
    let b = match flat_triangle(b) {
        Some(s) => {
            tb = s;
            &tb
        }
        None => b,
    };
    if rank(a) > rank(b) {
        return ordered_world(b, pose_b, a, pose_a, prediction).map(|m| m.swapped());
    }
    ordered_world(a, pose_a, b, pose_b, prediction)
}

/// [`contact_ordered`] mapped to world space; a ball against a shape without a
/// core is solved in that shape's frame directly.
fn ordered_world(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    // Fast arms: closed forms in world space, no frame changes.
    match (a, b) {
        (Shape::Ball(s), Shape::Cuboid(c)) => {
            let (r, h) = (s.radius(), c.half_extents());
            return round::ball_cuboid_world(r, pose_a.translation, h, pose_b, prediction);
        }
        (Shape::Capsule(ca), Shape::Capsule(cb)) => {
            return round::capsules_world(ca, pose_a, cb, pose_b, prediction);
        }
        _ => {}
    }
    if let Shape::Ball(ball) = a {
        if core(b).is_none() && !matches!(b, Shape::HalfSpace(_)) {
            let c = pose_b.inverse_transform_point(pose_a.translation);
            let p = project::project(b, c)?;
            let m = round::ball_contact(ball.radius(), &p, &Pose3::IDENTITY, prediction)?;
            // Built around the centre in B's frame: shift and rotate to world.
            let mut w = to_world(&m, pose_b);
            let surface = pose_a.translation + w.normal * ball.radius();
            for q in w.points_mut() {
                q.point_a = surface;
            }
            return Some(w);
        }
    }
    let b_in_a = pose_a.inv_mul(pose_b);
    contact_ordered(a, b, &b_in_a, prediction).map(|m| to_world(&m, pose_a))
}

/// The manifold with `rank(a) <= rank(b)`, in A's frame.
fn contact_ordered(a: &Shape, b: &Shape, b_in_a: &Pose3, prediction: f32) -> Option<Manifold3> {
    match (a, b) {
        (Shape::Compound(_), _) | (_, Shape::Compound(_)) => None,
        (Shape::HalfSpace(h), _) => halfspace::halfspace_contact(h, b, b_in_a, prediction),
        (Shape::Ball(_) | Shape::Capsule(_) | Shape::Segment(_), _) => {
            let ca = core(a)?;
            if let Some(cb) = core(b) {
                let cb = Core {
                    a: b_in_a.transform_point(cb.a),
                    b: b_in_a.transform_point(cb.b),
                    r: cb.r,
                };
                return round::cores_contact(&ca, &cb, prediction);
            }
            if AnyPoly::of(b).is_some() {
                return capsule_poly::capsule_polytope(&ca, b, b_in_a, prediction);
            }
            general::general_contact(a, b, b_in_a, prediction)
        }
        (Shape::Cuboid(ca), Shape::Cuboid(cb)) => box_box::box_box(ca, cb, b_in_a, prediction),
        (Shape::Triangle(ta), Shape::Triangle(tb)) => {
            // Two triangles in one plane have a flat Minkowski difference: the
            // SAT's face and edge-crossing axes are all its normal there, so
            // their in-plane edge normals are tested first (any axis that
            // separates bounds the distance from below).
            let vb = tb.vertices().map(|p| b_in_a.transform_point(p));
            let va = *ta.vertices();
            let gap = in_plane_gap(&va, &vb).max(in_plane_gap(&vb, &va));
            if gap > prediction {
                return None;
            }
            if gap > 0.0 {
                return general::general_contact(a, b, b_in_a, prediction);
            }
            polytope_manifold(&AnyPoly::of(a)?, &AnyPoly::of(b)?, b_in_a, prediction)
        }
        _ => match (AnyPoly::of(a), AnyPoly::of(b)) {
            (Some(pa), Some(pb)) => polytope_manifold(&pa, &pb, b_in_a, prediction),
            _ => general::general_contact(a, b, b_in_a, prediction),
        },
    }
}

/// The largest separation of the points `other` from triangle `t` along the
/// triangle's in-plane edge normals (its normal crossed with each edge), in
/// both directions; `-∞` for a triangle without a normal.
fn in_plane_gap(t: &[glam::Vec3; 3], other: &[glam::Vec3; 3]) -> f32 {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    let mut gap = f32::NEG_INFINITY;
    for k in 0..3 {
        let Some(u) = n.cross(t[(k + 1) % 3] - t[k]).try_normalize() else {
            continue;
        };
        let (wa, wb) = (t.map(|p| u.dot(p)), other.map(|p| u.dot(p)));
        let (lo_a, hi_a) = (wa[0].min(wa[1]).min(wa[2]), wa[0].max(wa[1]).max(wa[2]));
        let (lo_b, hi_b) = (wb[0].min(wb[1]).min(wb[2]), wb[0].max(wb[1]).max(wb[2]));
        gap = gap.max(lo_b - hi_a).max(lo_a - hi_b);
    }
    gap
}
