//! 2D shapes.

mod capsule;
mod circle;
mod compound;
mod polygon;
mod rect;
mod segment;
mod triangle;

pub use capsule::Capsule;
pub use circle::Circle;
pub use compound::Compound;
pub use polygon::ConvexPolygon;
pub use rect::Rect;
pub use segment::Segment;
pub use triangle::Triangle;

/// The polyline shape (defined with the meshes, re-exported here as a shape).
pub use crate::mesh::Polyline;

use crate::bound::Aabb2;
use crate::math::{Pose2, Vec2};
use std::sync::Arc;

/// Every 2D shape peng knows. The set is closed: pair queries `match` on it.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A disk.
    Circle(Circle),
    /// A segment swept by a disk.
    Capsule(Capsule),
    /// An axis-aligned rectangle in its local frame (a "box").
    Rect(Rect),
    /// A line segment.
    Segment(Segment),
    /// A triangle.
    Triangle(Triangle),
    /// A convex polygon with any number of vertices.
    Polygon(Arc<ConvexPolygon>),
    /// Several shapes, each with its own pose relative to the compound.
    Compound(Arc<Compound>),
    /// A polyline: segments sharing vertices, with a BVH (not convex, no
    /// inside; see [`crate::query::d2`] for its contacts).
    Polyline(Arc<Polyline>),
}

/// The kind of a [`Shape`], without its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeKind {
    /// [`Shape::Circle`].
    Circle,
    /// [`Shape::Capsule`].
    Capsule,
    /// [`Shape::Rect`].
    Rect,
    /// [`Shape::Segment`].
    Segment,
    /// [`Shape::Triangle`].
    Triangle,
    /// [`Shape::Polygon`].
    Polygon,
    /// [`Shape::Compound`].
    Compound,
    /// [`Shape::Polyline`].
    Polyline,
}

impl Shape {
    /// The kind of this shape.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Circle(_) => ShapeKind::Circle,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Rect(_) => ShapeKind::Rect,
            Shape::Segment(_) => ShapeKind::Segment,
            Shape::Triangle(_) => ShapeKind::Triangle,
            Shape::Polygon(_) => ShapeKind::Polygon,
            Shape::Compound(_) => ShapeKind::Compound,
            Shape::Polyline(_) => ShapeKind::Polyline,
        }
    }

    /// Whether the shape is convex (everything but compounds and polylines).
    pub fn is_convex(&self) -> bool {
        !matches!(self, Shape::Compound(_) | Shape::Polyline(_))
    }

    /// The tight bounding box of the shape placed at `pose`, recomputed from the
    /// geometry (compare [`Aabb::transformed`](crate::bound::Aabb) which bounds an
    /// old box conservatively). A polyline gives its local box conservatively
    /// rotated (tight when `pose` does not rotate), so that the box costs `O(1)`.
    pub fn aabb(&self, pose: &Pose2) -> Aabb2 {
        match self {
            Shape::Circle(s) => {
                Aabb2::from_center_half_extents(pose.translation, Vec2::splat(s.radius()))
            }
            Shape::Capsule(s) => {
                Aabb2::from_points([pose.transform_point(s.a()), pose.transform_point(s.b())])
                    .loosened(s.radius())
            }
            Shape::Rect(s) => {
                let h = s.half_extents();
                // |R| h: the extent of a rotated box along each world axis.
                let (c, sn) = (pose.rotation.cos.abs(), pose.rotation.sin.abs());
                let e = Vec2::new(c * h.x + sn * h.y, sn * h.x + c * h.y);
                Aabb2::from_center_half_extents(pose.translation, e)
            }
            Shape::Segment(s) => {
                Aabb2::from_points([pose.transform_point(s.a()), pose.transform_point(s.b())])
            }
            Shape::Triangle(s) => {
                Aabb2::from_points(s.vertices().iter().map(|&p| pose.transform_point(p)))
            }
            Shape::Polygon(s) => {
                Aabb2::from_points(s.vertices().iter().map(|&p| pose.transform_point(p)))
            }
            Shape::Compound(s) => s
                .parts()
                .iter()
                .fold(Aabb2::EMPTY, |b, (p, sh)| b.merged(&sh.aabb(&pose.mul(p)))),
            Shape::Polyline(s) => s.aabb(pose),
        }
    }

    /// The support point of a convex shape in its local frame: the point farthest
    /// along `dir` (`dir` need not be unit; a zero `dir` gives some surface point).
    /// For a compound, the support of the union of its parts' hulls; for a
    /// polyline, its vertex farthest along `dir` (`O(n)`).
    pub fn local_support(&self, dir: Vec2) -> Vec2 {
        match self {
            Shape::Circle(s) => s.support(dir),
            Shape::Capsule(s) => s.support(dir),
            Shape::Rect(s) => s.support(dir),
            Shape::Segment(s) => s.support(dir),
            Shape::Triangle(s) => s.support(dir),
            Shape::Polygon(s) => s.support(dir),
            Shape::Compound(s) => {
                let mut best = Vec2::ZERO;
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
            Shape::Polyline(s) => s
                .vertices()
                .get(support_index(s.vertices(), dir))
                .copied()
                .unwrap_or(Vec2::ZERO),
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
impl_from!(Circle => Circle, Capsule => Capsule, Rect => Rect, Segment => Segment, Triangle => Triangle);

impl From<ConvexPolygon> for Shape {
    fn from(s: ConvexPolygon) -> Shape {
        Shape::Polygon(Arc::new(s))
    }
}

impl From<Polyline> for Shape {
    fn from(s: Polyline) -> Shape {
        Shape::Polyline(Arc::new(s))
    }
}

impl From<Compound> for Shape {
    fn from(s: Compound) -> Shape {
        Shape::Compound(Arc::new(s))
    }
}

/// The index of the largest `dot(points[i], dir)`; ties go to the lowest index.
#[inline]
pub(crate) fn support_index(points: &[Vec2], dir: Vec2) -> usize {
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
