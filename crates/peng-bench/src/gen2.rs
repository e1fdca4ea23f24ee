//! Reproducible random 2D shapes, poses, near-touching pairs and rays.
//!
//! The 2D twin of [`crate::gen3`]: same size range, same placement rule.

pub use crate::gen3::SEPARATED_RANGE;
use crate::gen3::{MAX_SIZE, MIN_SIZE, PLACE_RANGE};
use crate::rng::Rng;
use glam::Vec2;
use peng::d2::{
    Capsule, Circle, Compound, ConvexPolygon, Pose2, Ray2, Rect, Segment, Shape, ShapeKind,
    Triangle,
};

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
            let n = 2 + rng.below(2);
            let mut parts = Vec::with_capacity(n);
            for _ in 0..n {
                let k = CONVEX_KINDS[rng.below(CONVEX_KINDS.len())];
                let p = Pose2::new(rng.in_disk(1.0), rng.range(-3.2, 3.2));
                parts.push((p, shape(rng, k)?));
            }
            Compound::new(parts).ok()?.into()
        }
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
    }
}

/// The support value `max over x in the placed shape of n·(x - origin)`.
pub fn support_value(s: &Shape, pose: &Pose2, n: Vec2, origin: Vec2) -> f32 {
    let local = s.local_support(pose.inverse_transform_vector(n));
    n.dot(pose.transform_point(local) - origin)
}

/// A random pose: translation in `[-4, 4]²`, angle uniform.
pub fn pose(rng: &mut Rng) -> Pose2 {
    let t = Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
    Pose2::new(t, rng.range(-core::f32::consts::PI, core::f32::consts::PI))
}

/// A pair of placed shapes.
#[derive(Debug, Clone)]
pub struct Pair {
    /// Shape A.
    pub a: Shape,
    /// Pose of A.
    pub pose_a: Pose2,
    /// Shape B.
    pub b: Shape,
    /// Pose of B.
    pub pose_b: Pose2,
}

/// Places `b` near `a` along a random direction at a random fraction of the
/// projection-touching offset (see [`crate::gen3::place`]).
pub fn place(rng: &mut Rng, a: &Shape, b: &Shape) -> (Pose2, Pose2) {
    place_in(rng, a, b, PLACE_RANGE)
}

/// Like [`place`] with the offset fraction drawn from `range` instead of
/// [`PLACE_RANGE`]; fractions above 1 always give separated pairs.
pub fn place_in(rng: &mut Rng, a: &Shape, b: &Shape, range: (f32, f32)) -> (Pose2, Pose2) {
    let pose_a = pose(rng);
    let angle_b = rng.range(-core::f32::consts::PI, core::f32::consts::PI);
    let u = rng.unit_vec2();
    let from_b = Pose2::new(Vec2::ZERO, angle_b);
    let t0 = support_value(a, &pose_a, u, pose_a.translation)
        + support_value(b, &from_b, -u, Vec2::ZERO);
    let t = t0 * rng.range(range.0, range.1);
    (pose_a, Pose2::new(pose_a.translation + u * t, angle_b))
}

/// `n` random pairs of the given kinds from `seed`; with `shuffle_order` each
/// pair is swapped with probability 1/2.
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
    pub pose: Pose2,
    /// The ray (direction length 0.5..2).
    pub ray: Ray2,
}

/// `n` rays from outside the bounding circle aimed at random points of it.
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
        let origin = pose.translation + rng.unit_vec2() * r * rng.range(1.5, 3.0);
        let target = pose.translation + rng.in_disk(r);
        let dir = (target - origin).normalize_or_zero() * rng.range(0.5, 2.0);
        if let Ok(ray) = Ray2::new(origin, dir) {
            out.push(RayCase { shape, pose, ray });
        }
    }
    out
}
