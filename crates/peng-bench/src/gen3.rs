//! Reproducible random 3D shapes and poses; the pairs and rays built from them
//! are in [`crate::gen`] (`gen::pairs::<D3>`, `gen::rays::<D3>`).

use crate::dim::D3;
use crate::gen::{compound_parts, MAX_SIZE, MIN_SIZE};
use crate::rng::Rng;
use glam::Vec3;
use peng::d3::{
    Ball, Capsule, Compound, Cone, ConvexPolyhedron, Cuboid, Cylinder, HalfSpace, Pose3, Segment,
    Shape, ShapeKind, Triangle,
};

/// A 3D pair of placed shapes.
pub type Pair = crate::gen::Pair<D3>;
/// A placed 3D shape and a ray aimed at it.
pub type RayCase = crate::gen::RayCase<D3>;

/// The bounded convex kinds, the ones every pair query handles.
pub const CONVEX_KINDS: [ShapeKind; 8] = [
    ShapeKind::Ball,
    ShapeKind::Capsule,
    ShapeKind::Cuboid,
    ShapeKind::Cylinder,
    ShapeKind::Cone,
    ShapeKind::Segment,
    ShapeKind::Triangle,
    ShapeKind::Polyhedron,
];

/// Points on a random ellipsoid whose convex hull is a polyhedron with (almost
/// always) `n` vertices: points on a strictly convex surface are all extreme.
pub fn hull_points(rng: &mut Rng, n: usize) -> Vec<Vec3> {
    let axes = Vec3::new(
        rng.range(0.3, MAX_SIZE),
        rng.range(0.3, MAX_SIZE),
        rng.range(0.3, MAX_SIZE),
    );
    (0..n).map(|_| rng.unit_vec3() * axes).collect()
}

/// A random shape of the given kind, in its local frame, with sizes in
/// `[MIN_SIZE, MAX_SIZE]`. Kinds: every [`ShapeKind`]; a half-space gets a random
/// normal, a compound 2 or 3 random convex parts at small offsets.
/// A polyhedron is the hull of 16 points on an ellipsoid ([`hull_points`]);
/// returns `None` if peng's hull builder rejects those points, and for the
/// mesh kinds (not generated here).
pub fn shape(rng: &mut Rng, kind: ShapeKind) -> Option<Shape> {
    let size = |rng: &mut Rng| rng.range(MIN_SIZE, MAX_SIZE);
    Some(match kind {
        ShapeKind::Ball => Ball::new(size(rng)).ok()?.into(),
        ShapeKind::Capsule => {
            // A core segment of half-length 0.1..1.5 through a point near the origin.
            let c = rng.in_ball(0.2);
            let d = rng.unit_vec3() * rng.range(MIN_SIZE, 1.5);
            Capsule::new(c - d, c + d, rng.range(MIN_SIZE, 1.0))
                .ok()?
                .into()
        }
        ShapeKind::Cuboid => Cuboid::new(Vec3::new(size(rng), size(rng), size(rng)))
            .ok()?
            .into(),
        ShapeKind::Cylinder => Cylinder::new(size(rng), size(rng)).ok()?.into(),
        ShapeKind::Cone => Cone::new(size(rng), size(rng)).ok()?.into(),
        ShapeKind::Segment => Segment::new(rng.in_ball(MAX_SIZE), rng.in_ball(MAX_SIZE))
            .ok()?
            .into(),
        ShapeKind::Triangle => Triangle::new(
            rng.in_ball(MAX_SIZE),
            rng.in_ball(MAX_SIZE),
            rng.in_ball(MAX_SIZE),
        )
        .ok()?
        .into(),
        ShapeKind::Polyhedron => ConvexPolyhedron::from_points(&hull_points(rng, 16))
            .ok()?
            .into(),
        ShapeKind::HalfSpace => HalfSpace::new(rng.unit_vec3()).ok()?.into(),
        ShapeKind::Compound => Compound::new(compound_parts::<D3>(rng, Rng::rotation3)?)
            .ok()?
            .into(),
        // Meshes are not among the random convex shapes of the differential tests.
        ShapeKind::TriMesh | ShapeKind::HeightField => return None,
    })
}

/// The largest distance from the shape's local origin to a point of the shape
/// (infinite for a half-space). Differential tests use it as the shape's size.
pub fn bounding_radius(s: &Shape) -> f32 {
    let max_len = |vs: &[Vec3]| vs.iter().fold(0.0f32, |m, v| m.max(v.length()));
    match s {
        Shape::Ball(b) => b.radius(),
        Shape::Capsule(c) => c.a().length().max(c.b().length()) + c.radius(),
        Shape::Cuboid(c) => c.half_extents().length(),
        Shape::Cylinder(c) => c.half_height().hypot(c.radius()),
        Shape::Cone(c) => c.half_height().hypot(c.radius()),
        Shape::Segment(g) => g.a().length().max(g.b().length()),
        Shape::Triangle(t) => max_len(t.vertices()),
        Shape::Polyhedron(p) => max_len(p.vertices()),
        Shape::HalfSpace(_) => f32::INFINITY,
        Shape::TriMesh(m) => max_len(m.vertices()),
        Shape::HeightField(h) => {
            let b = h.local_aabb();
            b.min.length().max(b.max.length())
        }
        Shape::Compound(c) => c.parts().iter().fold(0.0f32, |m, (p, s)| {
            m.max(p.translation.length() + bounding_radius(s))
        }),
    }
}

/// A random pose: translation in `[-4, 4]³`, uniformly random rotation.
pub fn pose(rng: &mut Rng) -> Pose3 {
    Pose3::new(rng.in_box3(Vec3::splat(4.0)), rng.rotation3())
}
