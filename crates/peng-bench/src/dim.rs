//! One interface over peng's 2D and 3D types, so that the generators, the referee,
//! the differential tests and the benches are written once for both dimensions.
//!
//! [`Dim`] names a dimension's types (vector, pose, shape, shape kind, manifold)
//! and forwards to its functions (support, pair queries, ray casts, random
//! poses); [`D2`] and [`D3`] implement it by calling peng's `d2`/`d3` facades and
//! the per-dimension generators [`crate::gen2`] and [`crate::gen3`].

use crate::gen::Pair;
use crate::rng::Rng;
use core::fmt::Debug;
use glam::{Quat, Vec2, Vec3};
use peng::math::Vector;
use peng::query::types::{Distance, Ray};
use peng::GeometryError;

/// What the benches and tests need of a vector beyond [`peng::math::Vector`].
pub trait VecN: Vector + core::fmt::Display {
    /// The unit x axis.
    const X: Self;
    /// `self / |self|` (glam's `normalize`).
    fn normalize(self) -> Self;
    /// `self / |self|`, or `None` when that is not finite (glam's `try_normalize`).
    fn try_normalize(self) -> Option<Self>;
    /// `self / |self|`, or zero (glam's `normalize_or_zero`).
    fn normalize_or_zero(self) -> Self;
    /// The angle between two unit vectors, in `[0, π]`, robust near 0 and π
    /// (`atan2` of the sine and cosine rather than `acos`).
    fn angle_to(self, o: Self) -> f32;
}

/// Implements [`VecN`] for a glam vector type by forwarding to its inherent
/// methods; `$sin` is `|sin(angle)|` of two vectors `$a`, `$b` in that dimension.
macro_rules! impl_vecn {
    ($t:ty, |$a:ident, $b:ident| $sin:expr) => {
        impl VecN for $t {
            const X: Self = <$t>::X;
            fn normalize(self) -> Self {
                <$t>::normalize(self)
            }
            fn try_normalize(self) -> Option<Self> {
                <$t>::try_normalize(self)
            }
            fn normalize_or_zero(self) -> Self {
                <$t>::normalize_or_zero(self)
            }
            fn angle_to(self, o: Self) -> f32 {
                let ($a, $b) = (self, o);
                ($sin).atan2(<$t>::dot(self, o))
            }
        }
    };
}

impl_vecn!(Vec2, |a, b| a.perp_dot(b).abs());
impl_vecn!(Vec3, |a, b| a.cross(b).length());

/// A dimension: its types and the per-dimension calls the shared code makes.
pub trait Dim: Copy + Debug + 'static {
    /// `"2D"` or `"3D"`, for messages.
    const NAME: &'static str;
    /// The vector type.
    type V: VecN;
    /// What a pose's rotation is drawn as: an angle in 2D, a quaternion in 3D.
    type Rot: Copy;
    /// The pose type.
    type Pose: Copy + Debug;
    /// The shape enum.
    type Shape: Clone + Debug;
    /// The shape-kind enum.
    type Kind: Copy + Debug + PartialEq;
    /// The contact manifold type.
    type Manifold: Debug;

    /// The convex kinds, the ones every pair query handles.
    const CONVEX_KINDS: &'static [Self::Kind];

    /// A pose from a translation and a rotation.
    fn pose(translation: Self::V, rotation: Self::Rot) -> Self::Pose;
    /// A pure translation.
    fn pose_from_translation(translation: Self::V) -> Self::Pose;
    /// A pose's translation.
    fn translation(pose: &Self::Pose) -> Self::V;
    /// `pose · p` for a point.
    fn transform_point(pose: &Self::Pose, p: Self::V) -> Self::V;
    /// `pose⁻¹ · v` for a direction.
    fn inverse_transform_vector(pose: &Self::Pose, v: Self::V) -> Self::V;
    /// The shape's support point along `dir` in its local frame.
    fn local_support(s: &Self::Shape, dir: Self::V) -> Self::V;
    /// `n·(pose·p − origin)` in f64 for a local point `p`: a plane offset
    /// without the f32 rounding of the transform and the dot product (which
    /// a referee divides by small slopes; see `referee::ray_entry`).
    fn offset_f64(pose: &Self::Pose, p: Self::V, n: Self::V, origin: Self::V) -> f64;
    /// `pose·p` in f64 for a local point `p` (in 2D with `z = 0`).
    fn place_f64(pose: &Self::Pose, p: Self::V) -> glam::DVec3;
    /// `v` in f64 (in 2D with `z = 0`).
    fn to_dvec3(v: Self::V) -> glam::DVec3;
    /// The corners of a solid polytope (box, polygon, polyhedron) in its
    /// local frame; `None` for other shapes.
    fn polytope_vertices(s: &Self::Shape) -> Option<Vec<Self::V>>;
    /// A shape that is the points within a radius of a point or a segment
    /// (circle, ball, capsule): the core's ends in the local frame (equal for
    /// a point) and the radius; `None` for other shapes.
    fn round_core(s: &Self::Shape) -> Option<([Self::V; 2], f32)>;
    /// Every normal of a facet candidate through the points (given with
    /// `z = 0` in 2D): in 2D the perpendicular of each pair's chord, in 3D
    /// the normal of each triple's plane; one orientation each, unnormalized,
    /// degenerate ones included as zero.
    fn facet_normals_f64(points: &[glam::DVec3]) -> Vec<glam::DVec3>;

    /// A uniformly random unit vector.
    fn random_unit(rng: &mut Rng) -> Self::V;
    /// A point uniform in the disk (2D) or ball (3D) of radius `r`.
    fn random_in_ball(rng: &mut Rng, r: f32) -> Self::V;
    /// A uniformly random rotation.
    fn random_rotation(rng: &mut Rng) -> Self::Rot;
    /// A random pose (`gen2::pose`, `gen3::pose`).
    fn random_pose(rng: &mut Rng) -> Self::Pose;
    /// A random shape of `kind` (`gen2::shape`, `gen3::shape`).
    fn random_shape(rng: &mut Rng, kind: Self::Kind) -> Option<Self::Shape>;
    /// The largest distance from the local origin to a point of the shape.
    fn bounding_radius(s: &Self::Shape) -> f32;

    /// Minimizes `f` over unit directions by compass search from each start
    /// (starts that do not normalize are skipped); returns the best direction and
    /// `f` there, `(X, +∞)` when no start is usable. The step starts at 0.05 rad
    /// and is halved when no move improves, down to 1e-7 rad. In 3D the moves are
    /// along the two tangent axes (and with `diagonals` their two diagonals),
    /// with at most 4000 evaluations per start; in 2D the search is over the angle.
    fn minimize_on_sphere(
        f: impl FnMut(Self::V) -> f32,
        starts: &[Self::V],
        diagonals: bool,
    ) -> (Self::V, f32);

    /// peng's `intersects` on the pair.
    fn intersects(p: &Pair<Self>) -> bool;
    /// peng's `distance` on the pair.
    fn distance(p: &Pair<Self>) -> Distance<Self::V>;
    /// peng's `contact` on the pair.
    fn contact(p: &Pair<Self>, prediction: f32) -> Option<Self::Manifold>;
    /// A manifold's depth, normal and point count.
    fn manifold_summary(m: &Self::Manifold) -> (f32, Self::V, usize);
    /// A manifold's point count.
    fn manifold_len(m: &Self::Manifold) -> usize;
    /// peng's `ray_cast`, as `(toi, normal)`.
    fn ray_cast(
        s: &Self::Shape,
        pose: &Self::Pose,
        ray: &Ray<Self::V>,
        max_toi: f32,
        solid: bool,
    ) -> Option<(f32, Self::V)>;
    /// A zero-radius circle or ball: a point, for point-vs-shape certificates.
    fn point_shape() -> Self::Shape;
    /// The unit directions perpendicular to the unit vector `n`, both ways:
    /// `±perp(n)` in 2D, `±t1, ±t2` of `any_orthonormal_pair` in 3D.
    fn tangents(n: Self::V) -> Vec<Self::V>;

    /// A validated ray (`Ray::new`).
    fn ray(origin: Self::V, dir: Self::V) -> Result<Ray<Self::V>, GeometryError> {
        Ray::new(origin, dir)
    }
}

/// The 2D dimension (peng's `d2`).
#[derive(Debug, Clone, Copy)]
pub struct D2;

/// The 3D dimension (peng's `d3`).
#[derive(Debug, Clone, Copy)]
pub struct D3;

/// Implements [`Dim`] for `$d` with the forwarders that read the same in both
/// dimensions (peng's `d2` and `d3` are separate modules with no common trait,
/// so a macro, not a generic, writes them once); `$($own)*` adds the items that
/// differ. Arguments: the marker type, its label, peng's facade module, the
/// generator module, the vector and rotation types, peng's pose and manifold
/// type names, the round shape whose zero-radius instance is a point, and the
/// [`Rng`] methods drawing a unit vector and a point in the unit disk or ball.
macro_rules! impl_dim {
    (
        $d:ident, $name:literal, $m:ident, $gen:ident, $v:ident, $rot:ty, $pose:ident,
        $manifold:ident, $point:ident, $unit:ident, $in_ball:ident; $($own:tt)*
    ) => {
        impl Dim for $d {
            const NAME: &'static str = $name;
            type V = $v;
            type Rot = $rot;
            type Pose = peng::$m::$pose;
            type Shape = peng::$m::Shape;
            type Kind = peng::$m::ShapeKind;
            type Manifold = peng::$m::$manifold;
            const CONVEX_KINDS: &'static [Self::Kind] = &crate::$gen::CONVEX_KINDS;

            fn pose(translation: $v, rotation: $rot) -> Self::Pose {
                peng::$m::$pose::new(translation, rotation)
            }
            fn pose_from_translation(translation: $v) -> Self::Pose {
                peng::$m::$pose::from_translation(translation)
            }
            fn translation(pose: &Self::Pose) -> $v {
                pose.translation
            }
            fn transform_point(pose: &Self::Pose, p: $v) -> $v {
                pose.transform_point(p)
            }
            fn inverse_transform_vector(pose: &Self::Pose, v: $v) -> $v {
                pose.inverse_transform_vector(v)
            }
            fn local_support(s: &Self::Shape, dir: $v) -> $v {
                s.local_support(dir)
            }
            fn random_unit(rng: &mut Rng) -> $v {
                rng.$unit()
            }
            fn random_in_ball(rng: &mut Rng, r: f32) -> $v {
                rng.$in_ball(r)
            }
            fn point_shape() -> Self::Shape {
                peng::$m::$point::new(0.0).expect("zero radius").into()
            }
            fn random_pose(rng: &mut Rng) -> Self::Pose {
                crate::$gen::pose(rng)
            }
            fn random_shape(rng: &mut Rng, kind: Self::Kind) -> Option<Self::Shape> {
                crate::$gen::shape(rng, kind)
            }
            fn bounding_radius(s: &Self::Shape) -> f32 {
                crate::$gen::bounding_radius(s)
            }
            fn intersects(p: &Pair<Self>) -> bool {
                peng::$m::intersects(&p.a, &p.pose_a, &p.b, &p.pose_b)
            }
            fn distance(p: &Pair<Self>) -> Distance<$v> {
                peng::$m::distance(&p.a, &p.pose_a, &p.b, &p.pose_b)
            }
            fn contact(p: &Pair<Self>, prediction: f32) -> Option<Self::Manifold> {
                peng::$m::contact(&p.a, &p.pose_a, &p.b, &p.pose_b, prediction)
            }
            fn manifold_summary(m: &Self::Manifold) -> (f32, $v, usize) {
                (m.depth(), m.normal, m.len())
            }
            fn manifold_len(m: &Self::Manifold) -> usize {
                m.len()
            }
            fn ray_cast(
                s: &Self::Shape,
                pose: &Self::Pose,
                ray: &Ray<$v>,
                max_toi: f32,
                solid: bool,
            ) -> Option<(f32, $v)> {
                peng::$m::ray_cast(s, pose, ray, max_toi, solid).map(|h| (h.toi, h.normal))
            }

            $($own)*
        }
    };
}

impl_dim! {
    D2, "2D", d2, gen2, Vec2, f32, Pose2, Manifold2, Circle, unit_vec2, in_disk;

    fn random_rotation(rng: &mut Rng) -> f32 {
        rng.range(-core::f32::consts::PI, core::f32::consts::PI)
    }
    fn offset_f64(pose: &peng::d2::Pose2, p: Vec2, n: Vec2, origin: Vec2) -> f64 {
        let x = Self::place_f64(pose, p).truncate();
        n.as_dvec2().dot(x - origin.as_dvec2())
    }
    fn to_dvec3(v: Vec2) -> glam::DVec3 {
        v.as_dvec2().extend(0.0)
    }
    fn place_f64(pose: &peng::d2::Pose2, p: Vec2) -> glam::DVec3 {
        let (c, s) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
        // Rot2 holds an angle's cos and sin, unit within f32 rounding.
        let len = c.hypot(s);
        let (c, s, p) = (c / len, s / len, p.as_dvec2());
        let x = glam::DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y);
        (x + pose.translation.as_dvec2()).extend(0.0)
    }
    fn round_core(s: &peng::d2::Shape) -> Option<([Vec2; 2], f32)> {
        use peng::d2::Shape;
        match s {
            Shape::Circle(c) => Some(([Vec2::ZERO; 2], c.radius())),
            Shape::Capsule(c) => Some(([c.a(), c.b()], c.radius())),
            _ => None,
        }
    }
    fn polytope_vertices(s: &peng::d2::Shape) -> Option<Vec<Vec2>> {
        use peng::d2::Shape;
        match s {
            Shape::Rect(r) => Some(r.vertices().to_vec()),
            Shape::Triangle(t) => Some(t.vertices().to_vec()),
            Shape::Polygon(p) => Some(p.vertices().to_vec()),
            _ => None,
        }
    }
    fn facet_normals_f64(points: &[glam::DVec3]) -> Vec<glam::DVec3> {
        let mut out = Vec::new();
        for (i, a) in points.iter().enumerate() {
            for b in &points[i + 1..] {
                out.push((*b - *a).cross(glam::DVec3::Z));
            }
        }
        out
    }
    fn tangents(n: Vec2) -> Vec<Vec2> {
        let t = n.perp();
        vec![t, -t]
    }

    /// Searches over the angle (the 2D unit circle has one tangent direction).
    fn minimize_on_sphere(
        mut f: impl FnMut(Vec2) -> f32,
        starts: &[Vec2],
        _diagonals: bool,
    ) -> (Vec2, f32) {
        let mut best = (Vec2::X, f32::INFINITY);
        for &s in starts {
            let Some(n0) = s.try_normalize() else {
                continue;
            };
            let mut ang = n0.y.atan2(n0.x);
            let mut v = f(n0);
            let mut step = 0.05f32;
            while step > 1e-7 {
                let mut moved = false;
                for d in [step, -step] {
                    let w = f(Vec2::from_angle(ang + d));
                    if w < v {
                        (ang, v, moved) = (ang + d, w, true);
                        break;
                    }
                }
                if !moved {
                    step *= 0.5;
                }
            }
            if v < best.1 {
                best = (Vec2::from_angle(ang), v);
            }
        }
        best
    }
}

impl_dim! {
    D3, "3D", d3, gen3, Vec3, Quat, Pose3, Manifold3, Ball, unit_vec3, in_ball;

    fn random_rotation(rng: &mut Rng) -> Quat {
        rng.rotation3()
    }
    fn offset_f64(pose: &peng::d3::Pose3, p: Vec3, n: Vec3, origin: Vec3) -> f64 {
        n.as_dvec3().dot(Self::place_f64(pose, p) - origin.as_dvec3())
    }
    fn to_dvec3(v: Vec3) -> glam::DVec3 {
        v.as_dvec3()
    }
    fn place_f64(pose: &peng::d3::Pose3, p: Vec3) -> glam::DVec3 {
        let q = pose.rotation;
        let q = glam::DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
        q * p.as_dvec3() + pose.translation.as_dvec3()
    }
    fn round_core(s: &peng::d3::Shape) -> Option<([Vec3; 2], f32)> {
        use peng::d3::Shape;
        match s {
            Shape::Ball(b) => Some(([Vec3::ZERO; 2], b.radius())),
            Shape::Capsule(c) => Some(([c.a(), c.b()], c.radius())),
            _ => None,
        }
    }
    fn polytope_vertices(s: &peng::d3::Shape) -> Option<Vec<Vec3>> {
        use peng::d3::Shape;
        match s {
            Shape::Cuboid(c) => Some(c.vertices().to_vec()),
            Shape::Polyhedron(p) => Some(p.vertices().to_vec()),
            _ => None,
        }
    }
    fn facet_normals_f64(points: &[glam::DVec3]) -> Vec<glam::DVec3> {
        let mut out = Vec::new();
        for (i, a) in points.iter().enumerate() {
            for (j, b) in points.iter().enumerate().skip(i + 1) {
                for c in &points[j + 1..] {
                    out.push((*b - *a).cross(*c - *a));
                }
            }
        }
        out
    }
    fn tangents(n: Vec3) -> Vec<Vec3> {
        let (t1, t2) = n.any_orthonormal_pair();
        vec![t1, -t1, t2, -t2]
    }

    /// Compass search in the tangent plane (moves along `t1`, `t2` and, with
    /// `diagonals`, `±(t1 + t2)/√2`), at most 4000 evaluations per start.
    fn minimize_on_sphere(
        mut f: impl FnMut(Vec3) -> f32,
        starts: &[Vec3],
        diagonals: bool,
    ) -> (Vec3, f32) {
        let moves = if diagonals { 6 } else { 4 };
        let mut best = (Vec3::X, f32::INFINITY);
        for &s in starts {
            let Some(mut n) = s.try_normalize() else {
                continue;
            };
            let mut v = f(n);
            let mut step = 0.05f32;
            let mut evals = 0;
            while step > 1e-7 && evals < 4000 {
                let (t1, t2) = n.any_orthonormal_pair();
                let diag = (t1 + t2) * core::f32::consts::FRAC_1_SQRT_2;
                let mut moved = false;
                for d in [t1, -t1, t2, -t2, diag, -diag].into_iter().take(moves) {
                    let m = (n + d * step.tan()).normalize();
                    let w = f(m);
                    evals += 1;
                    if w < v {
                        (n, v, moved) = (m, w, true);
                        break;
                    }
                }
                if !moved {
                    step *= 0.5;
                }
            }
            if v < best.1 {
                best = (n, v);
            }
        }
        best
    }
}
