//! 2D pair queries, dispatched on [`Shape`].
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
//!
//! Polylines ([`Shape::Polyline`]) are handled segment by segment through
//! their BVH, with internal-vertex ("ghost collision") correction and one
//! manifold per normal cluster: see `polyline.rs` and [`ContactOptions`].

mod clip;
mod gjk;
mod pair;
mod point;
mod poly;
mod polyline;
mod ray;
mod rect_rect;
mod sat;
mod segment;

pub use gjk::GjkCache2;
pub use polyline::ContactOptions;

use crate::math::{Pose2, Vec2};
use crate::query::types::{
    ContactId, ContactPoint2, Distance2, Feature, Manifold2, PointProjection2, Ray2, RayHit2,
};
use crate::shape::d2::Shape;
use poly::{Poly, PolyBuf};

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
/// A compound's candidate parts come from its BVH, queried with the other
/// shape's box in the compound's frame.
fn for_each_leaf_pair(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    margin: f32,
    f: &mut LeafPairFn<'_>,
) {
    leaf_pairs(a, pose_a, None, b, pose_b, None, margin.max(0.0), f);
}

/// [`for_each_leaf_pair`] with the top-level part indices found so far.
#[allow(clippy::too_many_arguments)]
fn leaf_pairs(
    a: &Shape,
    pose_a: &Pose2,
    ia: Option<u32>,
    b: &Shape,
    pose_b: &Pose2,
    ib: Option<u32>,
    margin: f32,
    f: &mut LeafPairFn<'_>,
) {
    let mut near = Vec::new();
    if let Shape::Compound(c) = a {
        let box_b = b.aabb(&pose_a.inv_mul(pose_b)).loosened(margin);
        c.parts_near(&box_b, &mut near);
        for i in near {
            let (p, s) = &c.parts()[i];
            let top = ia.or(Some(i as u32));
            leaf_pairs(s, &pose_a.mul(p), top, b, pose_b, ib, margin, f);
        }
    } else if let Shape::Compound(c) = b {
        let box_a = a.aabb(&pose_b.inv_mul(pose_a)).loosened(margin);
        c.parts_near(&box_a, &mut near);
        for j in near {
            let (p, s) = &c.parts()[j];
            let top = ib.or(Some(j as u32));
            leaf_pairs(a, pose_a, ia, s, &pose_b.mul(p), top, margin, f);
        }
    } else {
        f(a, pose_a, ia.unwrap_or(0), b, pose_b, ib.unwrap_or(0));
    }
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
            hit = match polyline::intersects(sa, pa, sb, pb) {
                Some(h) => h,
                None => intersects_convex(sa, pa, sb, pb),
            };
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
    contact_convex_or_gap(a, pose_a, b, pose_b, prediction).ok()
}

/// [`contact_convex`], or when there is none, a lower bound on the shapes'
/// distance that is at least `prediction`: for two circles their distance,
/// for two rects with area the separation along the face axis that parted
/// them (see `rect_rect::contact_or_gap`); `prediction` itself for the
/// other pairs, whose queries measure no such bound.
#[inline]
fn contact_convex_or_gap(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
) -> Result<Manifold2, f32> {
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (a, b) {
        let (ra, rb) = (ca.radius(), cb.radius());
        let (d, n, c) = circle_circle(ra, rb, pose_a, pose_b);
        if d > prediction {
            return Err(d);
        }
        let mut m = Manifold2::new(pose_a.transform_vector(n));
        m.push(ContactPoint2 {
            point_a: pose_a.transform_point(n * ra),
            point_b: pose_a.transform_point(c - n * rb),
            depth: -d,
            id: ContactId::new(Feature::vertex(0), Feature::vertex(0)),
        });
        return Ok(m);
    }
    if let (Shape::Rect(ra), Shape::Rect(rb)) = (a, b) {
        // Boxes with area have a closed-form routine; zero-size ones (segments,
        // points) and its rare leftovers take the generic route.
        if ra.half_extents().min_element() > 0.0 && rb.half_extents().min_element() > 0.0 {
            return rect_rect::contact_or_gap(ra, pose_a, rb, pose_b, prediction, || {
                contact_generic(a, pose_a, b, pose_b, prediction)
            });
        }
    }
    contact_generic(a, pose_a, b, pose_b, prediction).ok_or(prediction)
}

/// [`contact`], or when there is none, a lower bound on the shapes'
/// distance that is at least `prediction` (see `contact_convex_or_gap`:
/// measured for two circles and for two rects with area, `prediction`
/// itself for every other pair).
pub fn contact_or_gap(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
) -> Result<Manifold2, f32> {
    if a.is_convex() && b.is_convex() {
        return contact_convex_or_gap(a, pose_a, b, pose_b, prediction);
    }
    contact(a, pose_a, b, pose_b, prediction).ok_or(prediction)
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
/// `prediction`; for compounds and polylines, the deepest of the manifolds
/// [`contacts`] gives.
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

/// All contact manifolds of the pair (one per touching part pair of compounds;
/// a polyline gives one per cluster of nearly equal normals, deepest first),
/// appended to `out`.
pub fn contacts(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
    out: &mut Vec<Manifold2>,
) {
    let options = ContactOptions::default();
    contacts_with_options(a, pose_a, b, pose_b, prediction, &options, out);
}

/// [`contacts`] with options for polylines.
pub fn contacts_with_options(
    a: &Shape,
    pose_a: &Pose2,
    b: &Shape,
    pose_b: &Pose2,
    prediction: f32,
    options: &ContactOptions,
    out: &mut Vec<Manifold2>,
) {
    for_each_leaf_pair(
        a,
        pose_a,
        b,
        pose_b,
        prediction,
        &mut |sa, pa, ia, sb, pb, ib| {
            let start = out.len();
            if polyline::contacts(sa, pa, sb, pb, prediction, options, out) {
                for m in &mut out[start..] {
                    m.part_a = ia;
                    m.part_b = ib;
                }
            } else if let Some(mut m) = contact_convex(sa, pa, sb, pb, prediction) {
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
    distance_tree(a, pose_a, b, pose_b).unwrap_or(Distance2 {
        distance: f32::INFINITY,
        point_a: pose_a.translation,
        point_b: pose_b.translation,
        normal: Vec2::X,
    })
}

/// [`distance`] by branch and bound over compounds' BVHs: parts are taken
/// nearest box first, and parts whose box is farther from the other shape's
/// box than the best distance so far are skipped (parts whose boxes meet it
/// are always tried: one may penetrate deeper).
fn distance_tree(a: &Shape, pose_a: &Pose2, b: &Shape, pose_b: &Pose2) -> Option<Distance2> {
    let mut best: Option<Distance2> = None;
    let mut keep = |d: Option<Distance2>| {
        if let Some(d) = d {
            if best.is_none_or(|x| d.distance < x.distance) {
                best = Some(d);
            }
        }
        best.map_or(f32::INFINITY, |x| x.distance)
    };
    if let Shape::Compound(c) = a {
        let box_b = b.aabb(&pose_a.inv_mul(pose_b));
        c.bvh().nearest_to_box(&box_b, |slot| {
            let (p, s) = &c.parts()[c.part_of(slot)];
            keep(distance_tree(s, &pose_a.mul(p), b, pose_b))
        });
    } else if let Shape::Compound(c) = b {
        let box_a = a.aabb(&pose_b.inv_mul(pose_a));
        c.bvh().nearest_to_box(&box_a, |slot| {
            let (p, s) = &c.parts()[c.part_of(slot)];
            keep(distance_tree(a, pose_a, s, &pose_b.mul(p)))
        });
    } else {
        keep(match polyline::distance(a, pose_a, b, pose_b) {
            Some(d) => d,
            None => distance_convex(a, pose_a, b, pose_b, None),
        });
    }
    best
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
/// compound, the earliest hit over its parts. A polyline has no inside: its
/// first segment hit (through its BVH), `solid` or not.
///
/// A limit `max_toi` below 0 or NaN admits no time: the ray hits nothing
/// (`None`), so every hit returned has `0 <= toi <= max_toi`.
pub fn ray_cast(
    shape: &Shape,
    pose: &Pose2,
    ray: &Ray2,
    max_toi: f32,
    solid: bool,
) -> Option<RayHit2> {
    if max_toi.is_nan() || max_toi < 0.0 {
        return None;
    }
    if let Shape::Polyline(p) = shape {
        return p.cast_ray(pose, ray, max_toi).map(|h| h.hit);
    }
    if let Shape::Compound(c) = shape {
        // Front to back through the BVH (hit times are the same in every
        // frame: rigid motions keep `|dir|`); the accepted hit is kept.
        let o = pose.inverse_transform_point(ray.origin);
        let d = pose.inverse_transform_vector(ray.dir);
        let mut best: Option<RayHit2> = None;
        c.bvh().cast_ray(o, d, max_toi, |slot, limit| {
            let (p, s) = &c.parts()[c.part_of(slot)];
            let h = ray_cast(s, &pose.mul(p), ray, limit, solid)?;
            if h.toi <= limit && best.is_none_or(|b| h.toi <= b.toi) {
                best = Some(h);
            }
            Some(h.toi)
        });
        return best;
    }
    let mut buf = PolyBuf::new();
    let core = Poly::from_shape(shape, &mut buf)?;
    let o = pose.inverse_transform_point(ray.origin);
    let d = pose.inverse_transform_vector(ray.dir);
    let world = ray::WorldRay { pose, ray };
    let hit = ray::cast(&core, o, d, max_toi, solid, Some(world))?;
    let (t, x, n) = hit;
    let (toi, point) = match ray::shallow_crossing(&core, pose, ray, d, &hit) {
        ray::Shallow::Keep => (t, pose.transform_point(x)),
        ray::Shallow::Time(t) if t <= max_toi => (t, ray.at(t)),
        _ => return None,
    };
    Some(RayHit2 {
        toi,
        point,
        normal: pose.transform_vector(n),
    })
}

/// The closest point of the shape to `point`. With `solid`, a point inside
/// projects to itself.
///
/// Without `solid`, a point inside projects to the nearest boundary point. A
/// point exactly on a segment or a circle's centre takes the face normal or +x
/// as the direction to push out by the radius (degeneracy policy, rule 3). For a
/// compound: the nearest point over the parts' boundaries, and `is_inside` when
/// any part contains the point. A polyline has no inside: `is_inside` only
/// when the point lies on it.
pub fn project_point(shape: &Shape, pose: &Pose2, point: Vec2, solid: bool) -> PointProjection2 {
    let mut proj = match nearest_boundary(shape, pose, point, solid) {
        Some((_, p)) => p,
        None => PointProjection2 {
            point,
            is_inside: false,
        },
    };
    if matches!(shape, Shape::Compound(_)) {
        // A compound contains the point when any part does.
        proj.is_inside = contains_point(shape, pose, point);
    }
    // A solid shape's inner point projects to itself, exactly (not through a
    // round trip to the local frame).
    if proj.is_inside && solid {
        proj.point = point;
    }
    proj
}

/// The nearest boundary point (squared distance and projection); for a
/// compound, best-first over its BVH.
fn nearest_boundary(
    shape: &Shape,
    pose: &Pose2,
    point: Vec2,
    solid: bool,
) -> Option<(f32, PointProjection2)> {
    if let Shape::Polyline(p) = shape {
        let pr = p.project_point(pose, point);
        return Some((
            pr.distance * pr.distance,
            PointProjection2 {
                point: pr.point,
                is_inside: pr.distance <= 0.0,
            },
        ));
    }
    if let Shape::Compound(c) = shape {
        let local = pose.inverse_transform_point(point);
        let mut best: Option<(f32, PointProjection2)> = None;
        c.bvh().closest_point(local, f32::INFINITY, |slot, _| {
            let (p, s) = &c.parts()[c.part_of(slot)];
            let (d, pr) = nearest_boundary(s, &pose.mul(p), point, solid)?;
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, pr));
            }
            Some(d)
        });
        return best;
    }
    let mut buf = PolyBuf::new();
    let core = Poly::from_shape(shape, &mut buf)?;
    let (x, inside) = point::project(&core, pose.inverse_transform_point(point), solid);
    let x = pose.transform_point(x);
    Some((
        (x - point).length_squared(),
        PointProjection2 {
            point: x,
            is_inside: inside,
        },
    ))
}

/// Whether the shape contains `point` (boundary included; a polyline contains
/// only the points on it).
pub fn contains_point(shape: &Shape, pose: &Pose2, point: Vec2) -> bool {
    if let Shape::Polyline(p) = shape {
        return p.project_point(pose, point).distance <= 0.0;
    }
    if let Shape::Compound(c) = shape {
        let local = pose.inverse_transform_point(point);
        let mut near = Vec::new();
        c.parts_near(&crate::bound::Aabb2::new(local, local), &mut near);
        return near.into_iter().any(|i| {
            let (p, s) = &c.parts()[i];
            contains_point(s, &pose.mul(p), point)
        });
    }
    let mut buf = PolyBuf::new();
    match Poly::from_shape(shape, &mut buf) {
        Some(core) => point::contains(&core, pose.inverse_transform_point(point)),
        None => false,
    }
}
