//! Reproducible random near-touching pairs and rays, for either dimension.
//!
//! Sizes span about a factor of 20 (0.1 to 2 units), so size-dependent code
//! paths and tolerances are exercised. Every generator takes the [`Rng`] (or a
//! seed) so a single seed reproduces a whole input set. The per-dimension shapes
//! and poses are in [`crate::gen2`] and [`crate::gen3`].

use crate::dim::{Dim, VecN};
use crate::rng::Rng;
use peng::math::Vector;
use peng::query::types::Ray;

/// Smallest size (radius, half extent) a generated shape has.
pub const MIN_SIZE: f32 = 0.1;
/// Largest size a generated shape has.
pub const MAX_SIZE: f32 = 2.0;

/// Fraction range of the projection-touching offset at which B is placed; tuned
/// so that roughly half of the pairs of solid kinds overlap (the differential
/// tests print the fraction).
pub const PLACE_RANGE: (f32, f32) = (0.55, 1.1);

/// Placement fractions that always separate the pair (projection gap of 5 % to
/// 50 % of the touching offset), for distance benchmarks.
pub const SEPARATED_RANGE: (f32, f32) = (1.05, 1.5);

/// The support value `max over x in the placed shape of n·(x - origin)`.
pub fn support_value<D: Dim>(s: &D::Shape, pose: &D::Pose, n: D::V, origin: D::V) -> f32 {
    support_value_f64::<D>(s, pose, n, origin) as f32
}

/// [`support_value`] before its rounding to f32: the support point is
/// peng's (f32, in the shape's frame), placed and projected in f64.
pub fn support_value_f64<D: Dim>(s: &D::Shape, pose: &D::Pose, n: D::V, origin: D::V) -> f64 {
    let local = D::local_support(s, D::inverse_transform_vector(pose, n));
    D::offset_f64(pose, local, n, origin)
}

/// A pair of placed shapes.
#[derive(Debug, Clone)]
pub struct Pair<D: Dim> {
    /// Shape A.
    pub a: D::Shape,
    /// Pose of A.
    pub pose_a: D::Pose,
    /// Shape B.
    pub b: D::Shape,
    /// Pose of B.
    pub pose_b: D::Pose,
}

/// Places `b` near `a`: A gets a random pose, B a random rotation and an offset
/// along a random direction `u` equal to a random fraction (see [`PLACE_RANGE`])
/// of `t0 = h_A(u) + h_B(-u)`, the offset at which their projections on `u` just
/// touch. Smaller fractions overlap, larger ones separate.
pub fn place<D: Dim>(rng: &mut Rng, a: &D::Shape, b: &D::Shape) -> (D::Pose, D::Pose) {
    place_in::<D>(rng, a, b, PLACE_RANGE)
}

/// Like [`place`] with the offset fraction drawn from `range` instead of
/// [`PLACE_RANGE`]; fractions above 1 always give separated pairs.
pub fn place_in<D: Dim>(
    rng: &mut Rng,
    a: &D::Shape,
    b: &D::Shape,
    range: (f32, f32),
) -> (D::Pose, D::Pose) {
    let pose_a = D::random_pose(rng);
    let rot_b = D::random_rotation(rng);
    let u = D::random_unit(rng);
    let from_b = D::pose(<D::V as Vector>::ZERO, rot_b);
    let origin_a = D::translation(&pose_a);
    let t0 = support_value::<D>(a, &pose_a, u, origin_a)
        + support_value::<D>(b, &from_b, -u, <D::V as Vector>::ZERO);
    let t = t0 * rng.range(range.0, range.1);
    (pose_a, D::pose(origin_a + u * t, rot_b))
}

/// `n` random pairs of the given kinds from `seed`. With `shuffle_order`, each
/// pair is swapped with probability 1/2 so that both argument orders of a pair
/// query are exercised. Panics when peng rejects most shapes of a kind.
pub fn pairs<D: Dim>(
    seed: u64,
    ka: D::Kind,
    kb: D::Kind,
    n: usize,
    shuffle_order: bool,
) -> Vec<Pair<D>> {
    pairs_in(seed, ka, kb, n, shuffle_order, PLACE_RANGE)
}

/// Like [`pairs`] with the placement fraction drawn from `range` (see
/// [`place_in`]).
pub fn pairs_in<D: Dim>(
    seed: u64,
    ka: D::Kind,
    kb: D::Kind,
    n: usize,
    shuffle_order: bool,
    range: (f32, f32),
) -> Vec<Pair<D>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    let mut rejected = 0;
    while out.len() < n {
        let (Some(mut a), Some(mut b)) =
            (D::random_shape(&mut rng, ka), D::random_shape(&mut rng, kb))
        else {
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
        let (pose_a, pose_b) = place_in::<D>(&mut rng, &a, &b, range);
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
pub struct RayCase<D: Dim> {
    /// The shape.
    pub shape: D::Shape,
    /// Its pose.
    pub pose: D::Pose,
    /// The ray (direction not unit: length 0.5..2).
    pub ray: Ray<D::V>,
}

/// `n` rays at shapes of `kind`: each starts outside the bounding circle or
/// sphere (1.5 to 3 radii from the centre) and aims at a random point of the
/// bounding disk or ball, so that a good share miss. Panics when peng rejects
/// most shapes of the kind.
pub fn rays<D: Dim>(seed: u64, kind: D::Kind, n: usize) -> Vec<RayCase<D>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    let mut rejected = 0;
    while out.len() < n {
        let Some(shape) = D::random_shape(&mut rng, kind) else {
            rejected += 1;
            assert!(
                rejected < 100 + n,
                "peng rejects most random {kind:?} shapes"
            );
            continue;
        };
        let pose = D::random_pose(&mut rng);
        let r = D::bounding_radius(&shape);
        let centre = D::translation(&pose);
        let origin = centre + D::random_unit(&mut rng) * r * rng.range(1.5, 3.0);
        let target = centre + D::random_in_ball(&mut rng, r);
        let dir = (target - origin).normalize_or_zero() * rng.range(0.5, 2.0);
        if let Ok(ray) = D::ray(origin, dir) {
            out.push(RayCase { shape, pose, ray });
        }
    }
    out
}

/// The parts of a random compound: 2 or 3 random convex shapes, each at a random
/// offset within distance 1 of the origin and a rotation drawn by `rotation`.
/// `None` if peng rejects a part.
pub fn compound_parts<D: Dim>(
    rng: &mut Rng,
    rotation: impl Fn(&mut Rng) -> D::Rot,
) -> Option<Vec<(D::Pose, D::Shape)>> {
    let n = 2 + rng.below(2);
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        let k = D::CONVEX_KINDS[rng.below(D::CONVEX_KINDS.len())];
        let offset = D::random_in_ball(rng, 1.0);
        let p = D::pose(offset, rotation(rng));
        parts.push((p, D::random_shape(rng, k)?));
    }
    Some(parts)
}
