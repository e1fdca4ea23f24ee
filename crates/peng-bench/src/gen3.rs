//! Reproducible random 3D shapes, poses, near-touching pairs and rays.
//!
//! Sizes span about a factor of 20 (0.1 to 2 units), so size-dependent code
//! paths and tolerances are exercised. Every generator takes the [`Rng`] so a
//! single seed reproduces a whole input set.

use crate::rng::Rng;
use glam::Vec3;
use peng::d3::{
    Ball, Capsule, Compound, Cone, ConvexPolyhedron, Cuboid, Cylinder, HalfSpace, Pose3, Ray3,
    Segment, Shape, ShapeKind, Triangle,
};

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

/// Smallest size (radius, half extent) a generated shape has.
pub const MIN_SIZE: f32 = 0.1;
/// Largest size a generated shape has.
pub const MAX_SIZE: f32 = 2.0;

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
/// returns `None` only if peng's hull builder rejects those points.
/// [`pairs`] and [`rays`] panic when peng rejects most shapes of a kind.
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
        ShapeKind::Compound => {
            let n = 2 + rng.below(2);
            let mut parts = Vec::with_capacity(n);
            for _ in 0..n {
                let k = CONVEX_KINDS[rng.below(CONVEX_KINDS.len())];
                let p = Pose3::new(rng.in_ball(1.0), rng.rotation3());
                parts.push((p, shape(rng, k)?));
            }
            Compound::new(parts).ok()?.into()
        }
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
        Shape::Compound(c) => c.parts().iter().fold(0.0f32, |m, (p, s)| {
            m.max(p.translation.length() + bounding_radius(s))
        }),
    }
}

/// The support value `max over x in the placed shape of n·(x - origin)`.
pub fn support_value(s: &Shape, pose: &Pose3, n: Vec3, origin: Vec3) -> f32 {
    let local = s.local_support(pose.inverse_transform_vector(n));
    n.dot(pose.transform_point(local) - origin)
}

/// A random pose: translation in `[-4, 4]³`, uniformly random rotation.
pub fn pose(rng: &mut Rng) -> Pose3 {
    Pose3::new(rng.in_box3(Vec3::splat(4.0)), rng.rotation3())
}

/// A pair of placed shapes.
#[derive(Debug, Clone)]
pub struct Pair {
    /// Shape A.
    pub a: Shape,
    /// Pose of A.
    pub pose_a: Pose3,
    /// Shape B.
    pub b: Shape,
    /// Pose of B.
    pub pose_b: Pose3,
}

/// Fraction range of the projection-touching offset at which B is placed; tuned
/// so that roughly half of the pairs of solid kinds overlap (the differential
/// tests print the fraction).
pub const PLACE_RANGE: (f32, f32) = (0.55, 1.1);

/// Placement fractions that always separate the pair (projection gap of 5 % to
/// 50 % of the touching offset), for distance benchmarks.
pub const SEPARATED_RANGE: (f32, f32) = (1.05, 1.5);

/// Places `b` near `a`: A gets a random pose, B a random rotation and an offset
/// along a random direction `u` equal to a random fraction (see [`PLACE_RANGE`])
/// of `t0 = h_A(u) + h_B(-u)`, the offset at which their projections on `u` just
/// touch. Smaller fractions overlap, larger ones separate.
pub fn place(rng: &mut Rng, a: &Shape, b: &Shape) -> (Pose3, Pose3) {
    place_in(rng, a, b, PLACE_RANGE)
}

/// Like [`place`] with the offset fraction drawn from `range` instead of
/// [`PLACE_RANGE`]; fractions above 1 always give separated pairs.
pub fn place_in(rng: &mut Rng, a: &Shape, b: &Shape, range: (f32, f32)) -> (Pose3, Pose3) {
    let pose_a = pose(rng);
    let rot_b = rng.rotation3();
    let u = rng.unit_vec3();
    let from_b = Pose3::new(Vec3::ZERO, rot_b);
    let t0 = support_value(a, &pose_a, u, pose_a.translation)
        + support_value(b, &from_b, -u, Vec3::ZERO);
    let t = t0 * rng.range(range.0, range.1);
    (pose_a, Pose3::new(pose_a.translation + u * t, rot_b))
}

/// `n` random pairs of the given kinds from `seed`. With `shuffle_order`, each
/// pair is swapped with probability 1/2 so that both argument orders of a pair
/// query are exercised.
pub fn pairs(seed: u64, ka: ShapeKind, kb: ShapeKind, n: usize, shuffle_order: bool) -> Vec<Pair> {
    pairs_in(seed, ka, kb, n, shuffle_order, PLACE_RANGE)
}

/// Like [`pairs`] with the placement fraction drawn from `range` (see
/// [`place_in`]).
pub fn pairs_in(
    seed: u64,
    ka: ShapeKind,
    kb: ShapeKind,
    n: usize,
    shuffle_order: bool,
    range: (f32, f32),
) -> Vec<Pair> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    let mut rejected = 0;
    while out.len() < n {
        let (Some(mut a), Some(mut b)) = (shape(&mut rng, ka), shape(&mut rng, kb)) else {
            rejected += 1;
            assert!(
                rejected < 100 + n,
                "peng rejects most random {ka:?}/{kb:?} shapes"
            );
            continue;
        };
        if shuffle_order && rng.coin() {
            core::mem::swap(&mut a, &mut b);
        }
        let (pose_a, pose_b) = place_in(&mut rng, &a, &b, range);
        out.push(Pair {
            a,
            pose_a,
            b,
            pose_b,
        });
    }
    out
}

/// A placed shape and a ray aimed at it.
#[derive(Debug, Clone)]
pub struct RayCase {
    /// The shape.
    pub shape: Shape,
    /// Its pose.
    pub pose: Pose3,
    /// The ray (direction not unit: length 0.5..2).
    pub ray: Ray3,
}

/// `n` rays at shapes of `kind`: each starts outside the bounding sphere (1.5 to 3
/// radii from the centre) and aims at a random point of the bounding ball, so
/// that a good share miss.
pub fn rays(seed: u64, kind: ShapeKind, n: usize) -> Vec<RayCase> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    let mut rejected = 0;
    while out.len() < n {
        let Some(shape) = shape(&mut rng, kind) else {
            rejected += 1;
            assert!(
                rejected < 100 + n,
                "peng rejects most random {kind:?} shapes"
            );
            continue;
        };
        let pose = pose(&mut rng);
        let r = bounding_radius(&shape);
        let origin = pose.translation + rng.unit_vec3() * r * rng.range(1.5, 3.0);
        let target = pose.translation + rng.in_ball(r);
        let dir = (target - origin).normalize_or_zero() * rng.range(0.5, 2.0);
        if let Ok(ray) = Ray3::new(origin, dir) {
            out.push(RayCase { shape, pose, ray });
        }
    }
    out
}
