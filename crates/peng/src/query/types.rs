//! Result types of the pair queries, shared by 2D and 3D.

use crate::math::policy::{check_vec, GeometryError};
use crate::math::{Vec2, Vec3, Vector};

/// Which feature of a shape a contact point comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FeatureKind {
    /// A vertex (or the single point of a round shape's core).
    Vertex = 0,
    /// An edge.
    Edge = 1,
    /// A face (in 2D, an edge used as a reference face).
    Face = 2,
    /// Unknown or not meaningful (curved surfaces).
    None = 3,
}

/// A feature of one shape: its kind and index, packed into 16 bits
/// (2 bits of kind, 14 bits of index; indices wrap past 16383).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Feature(pub u16);

impl Feature {
    /// Packs a kind and an index.
    #[inline]
    pub fn new(kind: FeatureKind, index: usize) -> Self {
        Feature(((kind as u16) << 14) | (index as u16 & 0x3fff))
    }
    /// A vertex feature.
    #[inline]
    pub fn vertex(i: usize) -> Self {
        Self::new(FeatureKind::Vertex, i)
    }
    /// An edge feature.
    #[inline]
    pub fn edge(i: usize) -> Self {
        Self::new(FeatureKind::Edge, i)
    }
    /// A face feature.
    #[inline]
    pub fn face(i: usize) -> Self {
        Self::new(FeatureKind::Face, i)
    }
    /// No specific feature.
    pub const NONE: Feature = Feature((FeatureKind::None as u16) << 14);
}

/// Identifies a contact point by the pair of features that produced it, so a
/// solver can match points from frame to frame (warm starting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ContactId(pub u32);

impl ContactId {
    /// The id of the contact between feature `a` of shape A and feature `b` of B.
    #[inline]
    pub fn new(a: Feature, b: Feature) -> Self {
        ContactId(((a.0 as u32) << 16) | b.0 as u32)
    }
    /// The id with A and B exchanged.
    #[inline]
    pub fn swapped(self) -> Self {
        ContactId(self.0.rotate_left(16))
    }
}

/// One contact point of a manifold.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ContactPoint<V> {
    /// The point on A's surface, world space.
    pub point_a: V,
    /// The point on B's surface, world space.
    pub point_b: V,
    /// Penetration depth along the manifold normal: positive when overlapping,
    /// negative for a speculative point separated by `-depth`.
    pub depth: f32,
    /// Feature pair id, stable while the same features touch.
    pub id: ContactId,
}

/// A contact manifold: one normal and up to `N` points (2 in 2D, 4 in 3D).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Manifold<V, const N: usize> {
    /// Unit normal in world space, from A to B.
    pub normal: V,
    points: [ContactPoint<V>; N],
    len: u8,
    /// Index of the part of A (for compounds; 0 otherwise).
    pub part_a: u32,
    /// Index of the part of B (for compounds; 0 otherwise).
    pub part_b: u32,
}

/// A 2D manifold (up to 2 points).
pub type Manifold2 = Manifold<Vec2, 2>;
/// A 3D manifold (up to 4 points).
pub type Manifold3 = Manifold<Vec3, 4>;
/// A 2D contact point.
pub type ContactPoint2 = ContactPoint<Vec2>;
/// A 3D contact point.
pub type ContactPoint3 = ContactPoint<Vec3>;

impl<V: Vector, const N: usize> Manifold<V, N> {
    /// An empty manifold with the given normal.
    #[inline]
    pub fn new(normal: V) -> Self {
        Manifold {
            normal,
            points: [ContactPoint::default(); N],
            len: 0,
            part_a: 0,
            part_b: 0,
        }
    }

    /// Adds a point; returns `false` (and drops it) when the manifold is full.
    #[inline]
    pub fn push(&mut self, p: ContactPoint<V>) -> bool {
        if (self.len as usize) < N {
            self.points[self.len as usize] = p;
            self.len += 1;
            true
        } else {
            false
        }
    }

    /// The contact points.
    #[inline]
    pub fn points(&self) -> &[ContactPoint<V>] {
        &self.points[..self.len as usize]
    }

    /// The contact points, mutable.
    #[inline]
    pub fn points_mut(&mut self) -> &mut [ContactPoint<V>] {
        &mut self.points[..self.len as usize]
    }

    /// Number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no points.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The largest depth over the points (the penetration depth of the pair when
    /// the manifold comes from an overlap), `f32::NEG_INFINITY` when empty.
    #[inline]
    pub fn depth(&self) -> f32 {
        self.points()
            .iter()
            .fold(f32::NEG_INFINITY, |d, p| d.max(p.depth))
    }

    /// The manifold seen from B: normal flipped, points and ids swapped.
    pub fn swapped(&self) -> Self {
        let mut m = *self;
        m.normal = -self.normal;
        for p in m.points_mut() {
            core::mem::swap(&mut p.point_a, &mut p.point_b);
            p.id = p.id.swapped();
        }
        core::mem::swap(&mut m.part_a, &mut m.part_b);
        m
    }
}

/// Distance between two shapes, signed: negative when they overlap, then its
/// magnitude is the penetration depth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distance<V> {
    /// Signed distance: `> 0` separated, `0` touching, `< 0` overlapping.
    pub distance: f32,
    /// Closest (or deepest) point on A, world space.
    pub point_a: V,
    /// Closest (or deepest) point on B, world space.
    pub point_b: V,
    /// Unit normal from A to B: moving B by `-distance` along it makes the
    /// shapes touch.
    pub normal: V,
}

/// 2D distance result.
pub type Distance2 = Distance<Vec2>;
/// 3D distance result.
pub type Distance3 = Distance<Vec3>;

/// A ray `origin + t · dir` for `t >= 0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray<V> {
    /// Start point.
    pub origin: V,
    /// Direction, not necessarily unit: hit times are in units of `|dir|`.
    pub dir: V,
}

/// A 2D ray.
pub type Ray2 = Ray<Vec2>;
/// A 3D ray.
pub type Ray3 = Ray<Vec3>;

impl<V: Vector> Ray<V> {
    /// A ray; rejects non-finite input, an origin or direction component
    /// beyond [`MAX_MAGNITUDE`](crate::math::policy::MAX_MAGNITUDE)
    /// ([`GeometryError::TooLarge`]) and a zero direction.
    pub fn new(origin: V, dir: V) -> Result<Self, GeometryError> {
        check_vec("ray origin", origin)?;
        check_vec("ray direction", dir)?;
        if dir.length_squared() < crate::math::tolerance::ZERO_LENGTH_SQ {
            return Err(GeometryError::Degenerate {
                what: "ray",
                why: "direction has zero length",
            });
        }
        Ok(Ray { origin, dir })
    }
    /// The point at parameter `t`.
    #[inline]
    pub fn at(&self, t: f32) -> V {
        self.origin + self.dir * t
    }
}

/// Where a ray hits a shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit<V> {
    /// Ray parameter of the hit (`point = origin + toi · dir`).
    pub toi: f32,
    /// The hit point, world space.
    pub point: V,
    /// Unit surface normal at the hit, world space, facing against the ray (for a
    /// solid hit from inside at `toi = 0` it is zero).
    pub normal: V,
}

/// 2D ray hit.
pub type RayHit2 = RayHit<Vec2>;
/// 3D ray hit.
pub type RayHit3 = RayHit<Vec3>;

/// The projection of a point on a shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointProjection<V> {
    /// The projected point, world space: the closest point on the surface, or
    /// the query point itself when it is inside and the query is solid.
    pub point: V,
    /// Whether the query point is inside the shape (boundary counts as inside).
    pub is_inside: bool,
}

/// 2D point projection.
pub type PointProjection2 = PointProjection<Vec2>;
/// 3D point projection.
pub type PointProjection3 = PointProjection<Vec3>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_swap() {
        let id = ContactId::new(Feature::face(3), Feature::vertex(7));
        assert_eq!(id.swapped().swapped(), id);
        assert_eq!(
            id.swapped(),
            ContactId::new(Feature::vertex(7), Feature::face(3))
        );
        let mut m = Manifold2::new(Vec2::X);
        assert!(m.push(ContactPoint {
            point_a: Vec2::ZERO,
            point_b: Vec2::X,
            depth: 0.5,
            id
        }));
        let s = m.swapped();
        assert_eq!(s.normal, -Vec2::X);
        assert_eq!(s.points()[0].point_a, Vec2::X);
        assert_eq!(s.depth(), 0.5);
        assert!(Ray2::new(Vec2::ZERO, Vec2::ZERO).is_err());
    }
}
