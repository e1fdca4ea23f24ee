//! 3D shapes.

mod ball;
mod capsule;
mod compound;
mod cone;
mod cuboid;
mod cylinder;
mod halfspace;
mod polyhedron;
mod segment;
mod support_table;
mod triangle;
mod warm_support;

pub use ball::Ball;
pub use capsule::Capsule;
pub use compound::Compound;
pub use cone::Cone;
pub use cuboid::Cuboid;
pub use cylinder::Cylinder;
pub use halfspace::HalfSpace;
pub use polyhedron::{ConvexPolyhedron, Edge, Face};
pub use segment::Segment;
pub use triangle::Triangle;
pub(crate) use warm_support::WarmSupport;

use crate::bound::Aabb3;
use crate::math::{Pose3, Vec3};
use crate::mesh::{HeightField, TriMesh};
use std::sync::Arc;

/// Every 3D shape peng knows. The set is closed: pair queries `match` on it.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A sphere.
    Ball(Ball),
    /// A segment swept by a sphere.
    Capsule(Capsule),
    /// An axis-aligned box in its local frame.
    Cuboid(Cuboid),
    /// A cylinder along the local y axis.
    Cylinder(Cylinder),
    /// A cone along the local y axis, apex at `+y`.
    Cone(Cone),
    /// A line segment.
    Segment(Segment),
    /// A triangle (two-sided).
    Triangle(Triangle),
    /// A convex polyhedron with face and edge adjacency.
    Polyhedron(Arc<ConvexPolyhedron>),
    /// The solid half of space below a plane through the local origin.
    HalfSpace(HalfSpace),
    /// Several shapes, each with its own pose relative to the compound.
    Compound(Arc<Compound>),
    /// A triangle mesh (a surface of two-sided triangles) with its BVH.
    TriMesh(Arc<TriMesh>),
    /// A height field (a grid of heights, two triangles per cell).
    HeightField(Arc<HeightField>),
}

/// The kind of a [`Shape`], without its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeKind {
    /// [`Shape::Ball`].
    Ball,
    /// [`Shape::Capsule`].
    Capsule,
    /// [`Shape::Cuboid`].
    Cuboid,
    /// [`Shape::Cylinder`].
    Cylinder,
    /// [`Shape::Cone`].
    Cone,
    /// [`Shape::Segment`].
    Segment,
    /// [`Shape::Triangle`].
    Triangle,
    /// [`Shape::Polyhedron`].
    Polyhedron,
    /// [`Shape::HalfSpace`].
    HalfSpace,
    /// [`Shape::Compound`].
    Compound,
    /// [`Shape::TriMesh`].
    TriMesh,
    /// [`Shape::HeightField`].
    HeightField,
}

impl Shape {
    /// The kind of this shape.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Ball(_) => ShapeKind::Ball,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Cuboid(_) => ShapeKind::Cuboid,
            Shape::Cylinder(_) => ShapeKind::Cylinder,
            Shape::Cone(_) => ShapeKind::Cone,
            Shape::Segment(_) => ShapeKind::Segment,
            Shape::Triangle(_) => ShapeKind::Triangle,
            Shape::Polyhedron(_) => ShapeKind::Polyhedron,
            Shape::HalfSpace(_) => ShapeKind::HalfSpace,
            Shape::Compound(_) => ShapeKind::Compound,
            Shape::TriMesh(_) => ShapeKind::TriMesh,
            Shape::HeightField(_) => ShapeKind::HeightField,
        }
    }

    /// Whether the shape is a bounded convex set (not a compound, a half-space
    /// or a mesh).
    pub fn is_bounded_convex(&self) -> bool {
        !matches!(
            self,
            Shape::Compound(_) | Shape::HalfSpace(_) | Shape::TriMesh(_) | Shape::HeightField(_)
        )
    }

    /// Whether the shape is a triangle mesh or a height field.
    pub fn is_mesh(&self) -> bool {
        matches!(self, Shape::TriMesh(_) | Shape::HeightField(_))
    }

    /// The tight bounding box of the shape placed at `pose`. A half-space is
    /// unbounded: its box is infinite on the axes it is not aligned with.
    /// Meshes give their local box conservatively rotated (tight when `pose`
    /// does not rotate), so that the box costs `O(1)`.
    pub fn aabb(&self, pose: &Pose3) -> Aabb3 {
        let m = pose.rotation_matrix();
        let abs_m = glam::Mat3::from_cols(m.x_axis.abs(), m.y_axis.abs(), m.z_axis.abs());
        let centred = |h: Vec3| Aabb3::from_center_half_extents(pose.translation, abs_m * h);
        match self {
            Shape::Ball(s) => {
                Aabb3::from_center_half_extents(pose.translation, Vec3::splat(s.radius()))
            }
            Shape::Capsule(s) => {
                Aabb3::from_points([pose.transform_point(s.a()), pose.transform_point(s.b())])
                    .loosened(s.radius())
            }
            Shape::Cuboid(s) => centred(s.half_extents()),
            Shape::Cylinder(s) => {
                // A circle of radius r in the plane ⟂ unit axis u spans
                // r·sqrt(1 - u_i²) along world axis i; the axis adds |u_i|·h.
                let u = m.y_axis;
                let e = u.abs() * s.half_height() + rim_extent(u, s.radius());
                Aabb3::from_center_half_extents(pose.translation, e)
            }
            Shape::Cone(s) => {
                let u = m.y_axis;
                let apex = pose.translation + u * s.half_height();
                let base = pose.translation - u * s.half_height();
                let mut b = Aabb3::from_center_half_extents(base, rim_extent(u, s.radius()));
                b.add_point(apex);
                b
            }
            Shape::Segment(s) => {
                Aabb3::from_points([pose.transform_point(s.a()), pose.transform_point(s.b())])
            }
            Shape::Triangle(s) => {
                Aabb3::from_points(s.vertices().iter().map(|&p| pose.transform_point(p)))
            }
            Shape::Polyhedron(s) => s.aabb_at(pose),
            Shape::HalfSpace(s) => {
                let n = pose.transform_vector(s.normal());
                let mut b = Aabb3::new(Vec3::splat(f32::NEG_INFINITY), Vec3::splat(f32::INFINITY));
                // Aligned with an axis: bounded on that axis only.
                for i in 0..3 {
                    if (n[i].abs() - 1.0).abs() <= 1e-6 {
                        if n[i] > 0.0 {
                            b.max[i] = pose.translation[i];
                        } else {
                            b.min[i] = pose.translation[i];
                        }
                    }
                }
                b
            }
            Shape::Compound(s) => s
                .parts()
                .iter()
                .fold(Aabb3::EMPTY, |b, (p, sh)| b.merged(&sh.aabb(&pose.mul(p)))),
            Shape::TriMesh(m) => m.aabb(pose),
            Shape::HeightField(h) => h.aabb(pose),
        }
    }

    /// The support point of the shape in its local frame, the point farthest along
    /// `dir` (need not be unit). For a half-space the support is unbounded in
    /// every direction but `-normal`; this returns the origin for those, which is
    /// only meaningful to callers that handle half-spaces themselves. Meshes
    /// scan their vertices (`O(n)`): the support of their convex hull.
    pub fn local_support(&self, dir: Vec3) -> Vec3 {
        match self {
            Shape::Ball(s) => s.support(dir),
            Shape::Capsule(s) => s.support(dir),
            Shape::Cuboid(s) => s.support(dir),
            Shape::Cylinder(s) => s.support(dir),
            Shape::Cone(s) => s.support(dir),
            Shape::Segment(s) => s.support(dir),
            Shape::Triangle(s) => s.support(dir),
            Shape::Polyhedron(s) => s.support(dir),
            Shape::HalfSpace(_) => Vec3::ZERO,
            Shape::Compound(s) => {
                let mut best = Vec3::ZERO;
                let mut best_d = f32::NEG_INFINITY;
                for (p, sh) in s.parts() {
                    let q = p.transform_point(sh.local_support(p.inverse_transform_vector(dir)));
                    let d = q.dot(dir);
                    if d > best_d {
                        best_d = d;
                        best = q;
                    }
                }
                best
            }
            Shape::TriMesh(m) => m
                .vertices()
                .get(support_index(m.vertices(), dir))
                .copied()
                .unwrap_or(Vec3::ZERO),
            Shape::HeightField(h) => {
                let mut best = Vec3::ZERO;
                let mut best_d = f32::NEG_INFINITY;
                for r in 0..h.rows() {
                    for c in 0..h.cols() {
                        let q = h.vertex(r, c);
                        if q.dot(dir) > best_d {
                            best_d = q.dot(dir);
                            best = q;
                        }
                    }
                }
                best
            }
        }
    }
}

macro_rules! impl_from {
    ($($t:ident => $v:ident),*) => {$(
        impl From<$t> for Shape {
            fn from(s: $t) -> Shape { Shape::$v(s) }
        }
    )*};
}
impl_from!(Ball => Ball, Capsule => Capsule, Cuboid => Cuboid, Cylinder => Cylinder,
    Cone => Cone, Segment => Segment, Triangle => Triangle, HalfSpace => HalfSpace);

impl From<ConvexPolyhedron> for Shape {
    fn from(s: ConvexPolyhedron) -> Shape {
        Shape::Polyhedron(Arc::new(s))
    }
}

impl From<TriMesh> for Shape {
    fn from(s: TriMesh) -> Shape {
        Shape::TriMesh(Arc::new(s))
    }
}

impl From<HeightField> for Shape {
    fn from(s: HeightField) -> Shape {
        Shape::HeightField(Arc::new(s))
    }
}

impl From<Compound> for Shape {
    fn from(s: Compound) -> Shape {
        Shape::Compound(Arc::new(s))
    }
}

/// Half-extents of a circle of radius `r` in the plane perpendicular to the unit
/// vector `u`: `r·sqrt(1 - u_i²)` on axis `i`.
#[inline]
fn rim_extent(u: Vec3, r: f32) -> Vec3 {
    let s = (Vec3::ONE - u * u).max(Vec3::ZERO);
    Vec3::new(s.x.sqrt(), s.y.sqrt(), s.z.sqrt()) * r
}

/// The index of the largest `dot(points[i], dir)`; ties go to the lowest index.
#[inline]
pub(crate) fn support_index(points: &[Vec3], dir: Vec3) -> usize {
    let mut best = 0;
    let mut best_d = f32::NEG_INFINITY;
    for (i, p) in points.iter().enumerate() {
        let d = p.dot(dir);
        if d > best_d {
            best_d = d;
            best = i;
        }
    }
    best
}
