//! 2D pair queries, dispatched on [`Shape`](crate::shape::d2::Shape).
//!
//! Every convex 2D shape is handled as a convex core polygon with a radius (see
//! `poly.rs`): one set of algorithms (separating axes, GJK, clipping, closed-form
//! segment distances) serves every pair. Compounds are handled part by part
//! (brute force over part pairs, pruned by bounding boxes).
//! Manifolds of two rects with area take a closed-form route (`rect_rect.rs`)
//! that gives the same normal, points and ids as the core-polygon route.
//!
//! Feature ids of manifold points: a point made by a vertex of one shape against
//! an edge of the other is `(vertex, edge)` in A/B order; a rounded vertex-vertex
//! contact is `(vertex, vertex)`. Ids do not depend on which shape served as the
//! reference face. Zero-size rects and zero-area triangles are reduced to the
//! segment or point they are; their ids refer to the reduced vertices.

mod clip;
mod gjk;
mod pair;
mod point;
mod poly;
mod ray;
mod rect_rect;
mod sat;
mod segment;

pub use gjk::GjkCache2;

use crate::math::{Pose2, Vec2};
use crate::query::types::{
    ContactId, ContactPoint2, Distance2, Feature, Manifold2, PointProjection2, Ray2, RayHit2,
};
use crate::shape::d2::Shape;
use poly::{Poly, PolyBuf};

/// Calls `f(shape, pose, part)` for every convex leaf of `shape` placed at
/// `pose`; `part` is the index of the top-level compound part (0 for a convex
/// shape). Nested compounds are flattened.
fn for_each_leaf(shape: &Shape, pose: &Pose2, part: u32, f: &mut dyn FnMut(&Shape, &Pose2, u32)) {
    match shape {
        Shape::Compound(c) => {
            for (p, s) in c.parts() {
                for_each_leaf(s, &pose.mul(p), part, f);
            }
        }
        _ => f(shape, pose, part),
    }
}

/// Like [`for_each_leaf`] but numbering the top-level parts.
fn for_each_part(shape: &Shape, pose: &Pose2, f: &mut dyn FnMut(&Shape, &Pose2, u32)) {
    match shape {
        Shape::Compound(c) => {
            for (i, (p, s)) in c.parts().iter().enumerate() {
                for_each_leaf(s, &pose.mul(p), i as u32, f);
            }
        }
        _ => f(shape, pose, 0),
    }
}

/// The cores of two convex shapes, both in A's local frame: A's borrowed from
/// the shape (or written into `buf_a`), B's mapped into `buf_b`.
fn cores<'a>(
    a: &'a Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    buf_a: &'a mut PolyBuf,
    buf_b: &'a mut PolyBuf,
) -> Option<(Poly<'a>, Poly<'a>)> {
    let pa = Poly::from_shape(a, buf_a)?;
    let pb = Poly::from_shape_placed(b, &pose_a.inv_mul(pose_b), buf_b)?;
    Some((pa, pb))
}

/// A callback on two convex leaves with their poses and top-level part indices.
type LeafPairFn<'a> = dyn FnMut(&Shape, &Pose2, u32, &Shape, &Pose2, u32) + 'a;

/// Calls `f` on every pair of convex leaves whose boxes, grown by `margin`, meet.
fn for_each_leaf_pair(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    margin: f32,
    f: &mut LeafPairFn<'_>,
) {
    if a.is_convex() && b.is_convex() {
        f(a, pose_a, 0, b, pose_b, 0);
        return;
    }
    let mut leaves_b = Vec::new();
    for_each_part(b, pose_b, &mut |s, p, i| {
        leaves_b.push((s.clone(), *p, i, s.aabb(p).loosened(margin.max(0.0))))
    });
    for_each_part(a, pose_a, &mut |sa, pa, ia| {
        let box_a = sa.aabb(pa);
        for (sb, pb, ib, box_b) in &leaves_b {
            if box_a.overlaps(box_b) {
                f(sa, pa, ia, sb, pb, *ib);
            }
        }
    });
}

/// Circle-circle in closed form, in A's frame: `(signed distance, unit normal,
/// centre of B)`. Coincident centres take the +x normal (degeneracy policy).
fn circle_circle(ra: f32, rb: f32, pose_a: &Pose2, pose_b: &Pose2) -> (f32, Vec2, Vec2) {
    let c = pose_a.inverse_transform_point(pose_b.translation);
    let d2 = c.length_squared();
    if d2 > crate::math::tolerance::ZERO_LENGTH_SQ {
        let d = d2.sqrt();
        (d - ra - rb, c / d, c)
    } else {
        (d2.sqrt() - ra - rb, Vec2::X, c)
    }
}

fn intersects_convex(a: &Shape, pose_a: &Pose2, b: &Shape, pose_b: &Pose2) -> bool {
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (a, b) {
        let r = ca.radius() + cb.radius();
        return (pose_b.translation - pose_a.translation).length_squared() <= r * r;
    }
    let (mut buf_a, mut buf_b) = (PolyBuf::new(), PolyBuf::new());
    match cores(a, pose_a, b, pose_b, &mut buf_a, &mut buf_b) {
        Some((pa, pb)) => pair::intersects(&pa, &pb),
        None => false,
    }
}

/// Whether the two shapes overlap (touching counts).
pub fn intersects(a: &Shape, pose_a: &Pose2, b: &Shape, pose_b: &Pose2) -> bool {
    let mut hit = false;
    for_each_leaf_pair(a, pose_a, b, pose_b, 0.0, &mut |sa, pa, _, sb, pb, _| {
        if !hit {
            hit = intersects_convex(sa, pa, sb, pb);
        }
    });
    hit
}

fn contact_convex(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
) -> Option<Manifold2> {
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (a, b) {
        let (ra, rb) = (ca.radius(), cb.radius());
        let (d, n, c) = circle_circle(ra, rb, pose_a, pose_b);
        if d > prediction {
            return None;
        }
        let mut m = Manifold2::new(pose_a.transform_vector(n));
        m.push(ContactPoint2 {
            point_a: pose_a.transform_point(n * ra),
            point_b: pose_a.transform_point(c - n * rb),
            depth: -d,
            id: ContactId::new(Feature::vertex(0), Feature::vertex(0)),
        });
        return Some(m);
    }
    if let (Shape::Rect(ra), Shape::Rect(rb)) = (a, b) {
        // Boxes with area have a closed-form routine; zero-size ones (segments,
        // points) and its rare leftovers take the generic route.
        if ra.half_extents().min_element() > 0.0 && rb.half_extents().min_element() > 0.0 {
            return rect_rect::contact(ra, pose_a, rb, pose_b, prediction, || {
                contact_generic(a, pose_a, b, pose_b, prediction)
            });
        }
    }
    contact_generic(a, pose_a, b, pose_b, prediction)
}

/// [`contact_convex`] through the core polygons (every convex pair).
fn contact_generic(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
) -> Option<Manifold2> {
    let (mut buf_a, mut buf_b) = (PolyBuf::new(), PolyBuf::new());
    let (pa, pb) = cores(a, pose_a, b, pose_b, &mut buf_a, &mut buf_b)?;
    let lm = pair::manifold(&pa, &pb, prediction)?;
    let mut m = Manifold2::new(pose_a.transform_vector(lm.normal));
    for p in &lm.points[..lm.len] {
        m.push(ContactPoint2 {
            point_a: pose_a.transform_point(p.pa),
            point_b: pose_a.transform_point(p.pb),
            depth: p.depth,
            id: p.id,
        });
    }
    Some(m)
}

/// The contact manifold of the pair when they overlap or are closer than
/// `prediction`; for compounds, the deepest of the part manifolds.
pub fn contact(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
) -> Option<Manifold2> {
    if a.is_convex() && b.is_convex() {
        return contact_convex(a, pose_a, b, pose_b, prediction);
    }
    let mut all = Vec::new();
    contacts(a, pose_a, b, pose_b, prediction, &mut all);
    all.into_iter()
        .reduce(|x, y| if y.depth() > x.depth() { y } else { x })
}

/// All contact manifolds of the pair (one per touching part pair of compounds),
/// appended to `out`.
pub fn contacts(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
    out: &mut Vec<Manifold2>,
) {
    for_each_leaf_pair(
        a,
        pose_a,
        b,
        pose_b,
        prediction,
        &mut |sa, pa, ia, sb, pb, ib| {
            if let Some(mut m) = contact_convex(sa, pa, sb, pb, prediction) {
                m.part_a = ia;
                m.part_b = ib;
                out.push(m);
            }
        },
    );
}

fn distance_convex(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    cache: Option<&mut GjkCache2>,
) -> Option<Distance2> {
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (a, b) {
        if let Some(c) = cache {
            c.reset();
        }
        let (ra, rb) = (ca.radius(), cb.radius());
        let (d, n, c) = circle_circle(ra, rb, pose_a, pose_b);
        return Some(Distance2 {
            distance: d,
            point_a: pose_a.transform_point(n * ra),
            point_b: pose_a.transform_point(c - n * rb),
            normal: pose_a.transform_vector(n),
        });
    }
    let (mut buf_a, mut buf_b) = (PolyBuf::new(), PolyBuf::new());
    let (pa, pb) = cores(a, pose_a, b, pose_b, &mut buf_a, &mut buf_b)?;
    let an = pair::analyze(&pa, &pb, cache);
    let (d, xa, xb, n) = pair::signed_distance(&pa, &pb, &an);
    Some(Distance2 {
        distance: d,
        point_a: pose_a.transform_point(xa),
        point_b: pose_a.transform_point(xb),
        normal: pose_a.transform_vector(n),
    })
}

/// Signed distance and closest points (deepest points when overlapping).
pub fn distance(a: &Shape, pose_a: &Pose2, b: &Shape, pose_b: &Pose2) -> Distance2 {
    let mut best: Option<Distance2> = None;
    // Every leaf pair is needed for an exact minimum (no box pruning).
    for_each_part(a, pose_a, &mut |sa, pa, _| {
        for_each_part(b, pose_b, &mut |sb, pb, _| {
            if let Some(d) = distance_convex(sa, pa, sb, pb, None) {
                if best.is_none_or(|x| d.distance < x.distance) {
                    best = Some(d);
                }
            }
        });
    });
    best.unwrap_or(Distance2 {
        distance: f32::INFINITY,
        point_a: pose_a.translation,
        point_b: pose_b.translation,
        normal: Vec2::X,
    })
}

/// [`distance`] warm-started from the simplex of the previous call on the same
/// pair (Box2D v3's simplex cache idea), which it updates. The answer is the same
/// as [`distance`]'s; only GJK's starting point changes. Compounds do not use the
/// cache (it is reset).
pub fn distance_cached(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    cache: &mut GjkCache2,
) -> Distance2 {
    if a.is_convex() && b.is_convex() {
        if let Some(d) = distance_convex(a, pose_a, b, pose_b, Some(cache)) {
            return d;
        }
    }
    cache.reset();
    distance(a, pose_a, b, pose_b)
}

/// The first hit of `ray` on the shape with `toi <= max_toi`. With `solid`, a ray
/// starting inside hits at `toi = 0`; without, it hits the boundary from inside.
///
/// Details: a solid hit from inside has a zero normal. A non-solid hit from
/// inside is the exit point, its normal the inward surface normal (facing against
/// the ray). Segments and points have no inside: a ray starting on one hits at
/// `toi = 0`, and a ray along a segment's line hits its nearer end. For a
/// compound, the earliest hit over its parts.
pub fn ray_cast(
    shape: &Shape,
    pose: &Pose2,
    ray: &Ray2,
    max_toi: f32,
    solid: bool,
) -> Option<RayHit2> {
    let mut best: Option<RayHit2> = None;
    for_each_part(shape, pose, &mut |s, p, _| {
        let mut buf = PolyBuf::new();
        let Some(core) = Poly::from_shape(s, &mut buf) else {
            return;
        };
        let o = p.inverse_transform_point(ray.origin);
        let d = p.inverse_transform_vector(ray.dir);
        if let Some((t, x, n)) = ray::cast(&core, o, d, max_toi, solid) {
            if best.is_none_or(|b| t < b.toi) {
                best = Some(RayHit2 {
                    toi: t,
                    point: p.transform_point(x),
                    normal: p.transform_vector(n),
                });
            }
        }
    });
    best
}

/// The closest point of the shape to `point`. With `solid`, a point inside
/// projects to itself.
///
/// Without `solid`, a point inside projects to the nearest boundary point. A
/// point exactly on a segment or a circle's centre takes the face normal or +x
/// as the direction to push out by the radius (degeneracy policy, rule 3). For a
/// compound: the nearest point over the parts' boundaries, and `is_inside` when
/// any part contains the point.
pub fn project_point(shape: &Shape, pose: &Pose2, point: Vec2, solid: bool) -> PointProjection2 {
    let mut best: Option<(f32, PointProjection2)> = None;
    let mut inside_any = false;
    for_each_part(shape, pose, &mut |s, p, _| {
        let mut buf = PolyBuf::new();
        let Some(core) = Poly::from_shape(s, &mut buf) else {
            return;
        };
        let (x, inside) = point::project(&core, p.inverse_transform_point(point), solid);
        let x = p.transform_point(x);
        inside_any |= inside;
        let d = (x - point).length_squared();
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((
                d,
                PointProjection2 {
                    point: x,
                    is_inside: inside,
                },
            ));
        }
    });
    let mut proj = best.map(|b| b.1).unwrap_or(PointProjection2 {
        point,
        is_inside: false,
    });
    // A compound contains the point when any part does.
    proj.is_inside = inside_any;
    if inside_any && solid {
        proj.point = point;
    }
    proj
}

/// Whether the shape contains `point` (boundary included).
pub fn contains_point(shape: &Shape, pose: &Pose2, point: Vec2) -> bool {
    let mut inside = false;
    for_each_part(shape, pose, &mut |s, p, _| {
        if !inside {
            let mut buf = PolyBuf::new();
            if let Some(core) = Poly::from_shape(s, &mut buf) {
                inside = point::contains(&core, p.inverse_transform_point(point));
            }
        }
    });
    inside
}
