//! Reproducible random 2D shapes and poses; the pairs and rays built from them
//! are in [`crate::gen`] (`gen::pairs::<D2>`, `gen::rays::<D2>`).
//!
//! The 2D twin of [`crate::gen3`]: same size range, same placement rule.

use crate::dim::D2;
use crate::gen::{compound_parts, MAX_SIZE, MIN_SIZE};
use crate::rng::Rng;
use glam::Vec2;
use peng::d2::{
    Capsule, Circle, Compound, ConvexPolygon, Pose2, Rect, Segment, Shape, ShapeKind, Triangle,
};

/// A 2D pair of placed shapes.
pub type Pair = crate::gen::Pair<D2>;
/// A placed 2D shape and a ray aimed at it.
pub type RayCase = crate::gen::RayCase<D2>;

/// The convex kinds, the ones every pair query handles.
pub const CONVEX_KINDS: [ShapeKind; 6] = [
    ShapeKind::Circle,
    ShapeKind::Capsule,
    ShapeKind::Rect,
    ShapeKind::Segment,
    ShapeKind::Triangle,
    ShapeKind::Polygon,
];

/// `n` points uniform in a random ellipse (axes 0.3 to `MAX_SIZE`); their hull
/// is a polygon of typically 8 to 12 vertices.
pub fn hull_points(rng: &mut Rng, n: usize) -> Vec<Vec2> {
    let axes = Vec2::new(rng.range(0.3, MAX_SIZE), rng.range(0.3, MAX_SIZE));
    (0..n).map(|_| rng.in_disk(1.0) * axes).collect()
}

/// A random shape of the given kind in its local frame, sizes in
/// `[MIN_SIZE, MAX_SIZE]`; a polygon is the hull of 16 random points, a compound
/// has 2 or 3 convex parts. `None` only if a peng constructor rejects the input.
pub fn shape(rng: &mut Rng, kind: ShapeKind) -> Option<Shape> {
    let size = |rng: &mut Rng| rng.range(MIN_SIZE, MAX_SIZE);
    Some(match kind {
        ShapeKind::Circle => Circle::new(size(rng)).ok()?.into(),
        ShapeKind::Capsule => {
            let c = rng.in_disk(0.2);
            let d = rng.unit_vec2() * rng.range(MIN_SIZE, 1.5);
            Capsule::new(c - d, c + d, rng.range(MIN_SIZE, 1.0))
                .ok()?
                .into()
        }
        ShapeKind::Rect => Rect::new(Vec2::new(size(rng), size(rng))).ok()?.into(),
        ShapeKind::Segment => Segment::new(rng.in_disk(MAX_SIZE), rng.in_disk(MAX_SIZE))
            .ok()?
            .into(),
        ShapeKind::Triangle => Triangle::new(
            rng.in_disk(MAX_SIZE),
            rng.in_disk(MAX_SIZE),
            rng.in_disk(MAX_SIZE),
        )
        .ok()?
        .into(),
        ShapeKind::Polygon => ConvexPolygon::from_points(&hull_points(rng, 16))
            .ok()?
            .into(),
        ShapeKind::Compound => {
            Compound::new(compound_parts::<D2>(rng, |rng| rng.range(-3.2, 3.2))?)
                .ok()?
                .into()
        }
        // Not a random convex shape: tests build their own polylines.
        ShapeKind::Polyline => return None,
    })
}

/// The largest distance from the local origin to a point of the shape.
pub fn bounding_radius(s: &Shape) -> f32 {
    let max_len = |vs: &[Vec2]| vs.iter().fold(0.0f32, |m, v| m.max(v.length()));
    match s {
        Shape::Circle(c) => c.radius(),
        Shape::Capsule(c) => c.a().length().max(c.b().length()) + c.radius(),
        Shape::Rect(r) => r.half_extents().length(),
        Shape::Segment(g) => g.a().length().max(g.b().length()),
        Shape::Triangle(t) => max_len(t.vertices()),
        Shape::Polygon(p) => max_len(p.vertices()),
        Shape::Compound(c) => c.parts().iter().fold(0.0f32, |m, (p, s)| {
            m.max(p.translation.length() + bounding_radius(s))
        }),
        Shape::Polyline(p) => max_len(p.vertices()),
    }
}

/// A random pose: translation in `[-4, 4]²`, angle uniform.
pub fn pose(rng: &mut Rng) -> Pose2 {
    let t = Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
    Pose2::new(t, rng.range(-core::f32::consts::PI, core::f32::consts::PI))
}
