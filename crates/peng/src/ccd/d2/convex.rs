//! A convex 2D shape seen by the casts: a convex core (points) plus a radius.
//!
//! The same idea as the pair queries' core polygons (Box2D v3): a circle is one
//! point with a radius, a capsule two, a rect four, a triangle three, a polygon
//! its vertices. The casts only need the core's support function, its extent
//! and its reach about a rotation centre, so this type borrows a polygon's
//! vertices and keeps small shapes' points inline (no copy, no allocation).

use crate::math::{Pose2, Vec2};
use crate::shape::d2::Shape;

/// The points of a core.
#[derive(Debug, Clone, Copy)]
enum Points<'a> {
    /// Up to four points held inline (`len` of them are used).
    Inline([Vec2; 4], u8),
    /// A polygon's own vertex list.
    Slice(&'a [Vec2]),
}

/// A convex shape as a core point set plus a radius.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Convex<'a> {
    points: Points<'a>,
    /// The radius added around the core (circles and capsules).
    pub radius: f32,
}

impl<'a> Convex<'a> {
    /// The core of a convex shape; `None` for compounds and polylines.
    pub(super) fn from_shape(shape: &'a Shape) -> Option<Self> {
        let inline = |pts: &[Vec2], radius: f32| {
            let mut buf = [Vec2::ZERO; 4];
            buf[..pts.len()].copy_from_slice(pts);
            Convex {
                points: Points::Inline(buf, pts.len() as u8),
                radius,
            }
        };
        Some(match shape {
            Shape::Circle(c) => inline(&[Vec2::ZERO], c.radius()),
            Shape::Capsule(c) => inline(&[c.a(), c.b()], c.radius()),
            Shape::Rect(r) => inline(&r.vertices(), 0.0),
            Shape::Segment(s) => inline(&[s.a(), s.b()], 0.0),
            Shape::Triangle(t) => inline(t.vertices(), 0.0),
            Shape::Polygon(p) => Convex {
                points: Points::Slice(p.vertices()),
                radius: 0.0,
            },
            Shape::Compound(_) | Shape::Polyline(_) => return None,
        })
    }

    /// The core's points (never empty for shapes built by [`Convex::from_shape`],
    /// as polygons have at least three vertices).
    #[inline]
    pub(super) fn points(&self) -> &[Vec2] {
        match &self.points {
            Points::Inline(buf, n) => &buf[..*n as usize],
            Points::Slice(s) => s,
        }
    }

    /// The core point farthest along `dir` and its index (ties: the first; a
    /// zero or NaN `dir` gives the first point).
    #[inline]
    pub(super) fn support_with_index(&self, dir: Vec2) -> (Vec2, usize) {
        let pts = self.points();
        let mut best = pts.first().copied().unwrap_or(Vec2::ZERO);
        let mut best_i = 0;
        let mut best_d = best.dot(dir);
        for (i, &p) in pts.iter().enumerate().skip(1) {
            let d = p.dot(dir);
            if d > best_d {
                best_d = d;
                best = p;
                best_i = i;
            }
        }
        (best, best_i)
    }

    /// The support point of the core placed at `pose` (world `dir`, world
    /// point) and its index.
    #[inline]
    pub(super) fn support_placed_with_index(&self, pose: &Pose2, dir: Vec2) -> (Vec2, usize) {
        let (p, i) = self.support_with_index(pose.rotation.inv_rotate(dir));
        (pose.transform_point(p), i)
    }

    /// Whether point `i` is a support point along `dir` (ties count): it is
    /// no nearer along `dir` than its two neighbours. The points are in
    /// convex position and cyclic order (polygons, rects; two or three
    /// points are all neighbours), so a local maximum is the maximum.
    #[inline]
    pub(super) fn is_support(&self, i: usize, dir: Vec2) -> bool {
        let pts = self.points();
        let n = pts.len();
        if i >= n {
            return false;
        }
        if n == 1 {
            return true;
        }
        let next = if i + 1 == n { 0 } else { i + 1 };
        let prev = if i == 0 { n - 1 } else { i - 1 };
        let d = pts[i].dot(dir);
        d >= pts[next].dot(dir) && d >= pts[prev].dot(dir)
    }

    /// Half the diagonal of the shape's local bounding box (radius included):
    /// the size that relative tolerances are taken of.
    pub(super) fn extent(&self) -> f32 {
        let pts = self.points();
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for &p in pts {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        let half = ((hi - lo) * 0.5).length();
        if half.is_finite() {
            half + self.radius
        } else {
            self.radius
        }
    }

    /// The largest distance from `center` (local frame) to a point of the
    /// shape: a bound on how far any point of it moves per radian turned about
    /// `center`.
    pub(super) fn reach(&self, center: Vec2) -> f32 {
        let far = self
            .points()
            .iter()
            .fold(0.0f32, |m, &p| m.max((p - center).length()));
        far + self.radius
    }
}

/// The largest distance from `center` (the shape's local frame) to a point of
/// any shape: exact for convex shapes, the farthest corner of the local
/// bounding box for compounds and polylines.
pub(crate) fn reach(shape: &Shape, center: Vec2) -> f32 {
    if let Some(c) = Convex::from_shape(shape) {
        return c.reach(center);
    }
    let b = shape.aabb(&Pose2::IDENTITY);
    [
        b.min,
        b.max,
        Vec2::new(b.min.x, b.max.y),
        Vec2::new(b.max.x, b.min.y),
    ]
    .iter()
    .fold(0.0f32, |m, &p| m.max((p - center).length()))
}

/// The tolerance of a cast between two convex shapes: the user's, or `1e-4`
/// of `tolerance_size` of the extents when it is `0` (see [`CastOptions`]).
///
/// [`CastOptions`]: crate::ccd::CastOptions
/// Two points (zero size) take `1e-6` of `fallback` (the distance between
/// the shapes' origins, the only length such a pair has).
pub(crate) fn tolerance(user: f32, a: &Convex, b: &Convex, fallback: f32) -> f32 {
    if user > 0.0 {
        return user;
    }
    let size = crate::ccd::tolerance_size(a.extent(), b.extent());
    if size > 0.0 {
        1e-4 * size
    } else {
        (1e-6 * fallback).max(f32::MIN_POSITIVE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::d2::{Capsule, Rect};

    #[test]
    fn support_extent_reach() {
        let r: Shape = Rect::new(Vec2::new(2.0, 1.0)).unwrap().into();
        let c = Convex::from_shape(&r).unwrap();
        assert_eq!(
            c.support_with_index(Vec2::new(1.0, -1.0)),
            (Vec2::new(2.0, -1.0), 1)
        );
        assert!(c.is_support(1, Vec2::new(1.0, -1.0)) && !c.is_support(3, Vec2::new(1.0, -1.0)));
        assert!((c.extent() - 5f32.sqrt()).abs() < 1e-6);
        assert!((c.reach(Vec2::new(2.0, 1.0)) - 20f32.sqrt()).abs() < 1e-6);
        let pose = Pose2::new(Vec2::new(1.0, 0.0), core::f32::consts::FRAC_PI_2);
        // Rotated a quarter turn, the +x-most corner is local (·, -1) side.
        let (p, _) = c.support_placed_with_index(&pose, Vec2::X);
        assert!((p.x - 2.0).abs() < 1e-6, "{p}");
        let cap: Shape = Capsule::new(Vec2::ZERO, Vec2::X, 0.5).unwrap().into();
        let k = Convex::from_shape(&cap).unwrap();
        assert!((k.extent() - 1.0).abs() < 1e-6);
        assert!((reach(&cap, Vec2::ZERO) - 1.5).abs() < 1e-6);
    }
}
