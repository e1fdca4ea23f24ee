//! Bounding circles (2D) and spheres (3D): Ritter's fast approximation, the exact
//! minimum ball (Welzl), merging, and conversion from boxes.

use super::aabb::Aabb;
use super::circumball::Circumball;
use crate::math::policy::GeometryError;
use crate::math::tolerance::REL_EPS;
use crate::math::{Vec2, Vec3, Vector};

/// A ball `|x - center| <= radius`, one type for circles and spheres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoundingBall<V> {
    /// Center.
    pub center: V,
    /// Radius (`>= 0`).
    pub radius: f32,
}

/// A bounding circle.
pub type BoundingCircle = BoundingBall<Vec2>;
/// A bounding sphere.
pub type BoundingSphere = BoundingBall<Vec3>;

impl<V: Vector> BoundingBall<V> {
    /// A ball from center and radius.
    #[inline]
    pub fn new(center: V, radius: f32) -> Self {
        BoundingBall { center, radius }
    }

    /// Whether the closed ball holds `p`.
    #[inline]
    pub fn contains_point(&self, p: V) -> bool {
        (p - self.center).length_squared() <= self.radius * self.radius
    }

    /// Whether the closed ball holds the whole ball `o`.
    #[inline]
    pub fn contains_ball(&self, o: &Self) -> bool {
        (o.center - self.center).length() + o.radius <= self.radius
    }

    /// Whether the two closed balls share a point (touching counts).
    #[inline]
    pub fn overlaps(&self, o: &Self) -> bool {
        let r = self.radius + o.radius;
        (o.center - self.center).length_squared() <= r * r
    }

    /// The box around the ball.
    #[inline]
    pub fn aabb(&self) -> Aabb<V> {
        Aabb::from_center_half_extents(self.center, V::splat(self.radius))
    }

    /// The ball around a box: centered on it, through its corners. `None` for an
    /// empty box.
    pub fn from_aabb(b: &Aabb<V>) -> Option<Self> {
        if b.is_empty() {
            return None;
        }
        Some(BoundingBall::new(b.center(), b.half_extents().length()))
    }

    /// The smallest ball holding both balls (Ericson, Real-Time Collision
    /// Detection, 6.5.2). If one holds the other it is the answer; otherwise the
    /// merged ball spans the two far ends along the line of centers: its diameter
    /// is `d + r0 + r1` and its center lies `R - r0` from `c0` toward `c1`.
    pub fn merged(&self, o: &Self) -> Self {
        let delta = o.center - self.center;
        let d = delta.length();
        if self.radius >= d + o.radius {
            return *self;
        }
        if o.radius >= d + self.radius {
            return *o;
        }
        // Here d > |r0 - r1| >= 0, so the division is safe.
        let r = 0.5 * (d + self.radius + o.radius);
        let center = self.center + delta * ((r - self.radius) / d);
        BoundingBall::new(center, r)
    }

    /// Grows the ball just enough to hold `p` (Ritter's update step): the new
    /// ball spans from the far side of the old one to `p`, so its radius is
    /// `(r + d)/2` and its center moves toward `p` by `(d - r)/2`.
    pub fn grow_to_contain(&mut self, p: V) {
        let delta = p - self.center;
        let d2 = delta.length_squared();
        if d2 <= self.radius * self.radius {
            return;
        }
        let d = d2.sqrt();
        let r = 0.5 * (self.radius + d);
        self.center = self.center + delta * ((r - self.radius) / d);
        self.radius = r;
    }

    /// Ritter's bounding ball (Ritter, "An Efficient Bounding Sphere", Graphics
    /// Gems 1990; Ericson 4.3.2): fast (two passes) and within about 5–20% of the
    /// minimum radius. The first pass picks, among the pairs of extreme points
    /// along the coordinate axes, the pair farthest apart and takes the ball on
    /// that diameter; the second grows the ball over every point outside it.
    ///
    /// Errors: no points ([`GeometryError::TooFew`]), a non-finite point
    /// ([`GeometryError::NonFinite`]). Every point satisfies
    /// [`contains_point`](Self::contains_point) on the result.
    pub fn from_points_ritter(points: &[V]) -> Result<Self, GeometryError> {
        check_points(points)?;
        // Extreme points along each axis.
        let mut best = (points[0], points[0]);
        let mut best_d2 = -1.0f32;
        for axis in 0..V::DIM {
            let (mut lo, mut hi) = (points[0], points[0]);
            for &p in points {
                if p.get(axis) < lo.get(axis) {
                    lo = p;
                }
                if p.get(axis) > hi.get(axis) {
                    hi = p;
                }
            }
            let d2 = (hi - lo).length_squared();
            if d2 > best_d2 {
                best_d2 = d2;
                best = (lo, hi);
            }
        }
        let mut ball = BoundingBall::new((best.0 + best.1) * 0.5, 0.5 * (best.1 - best.0).length());
        for &p in points {
            ball.grow_to_contain(p);
        }
        ball.cover_exactly(points);
        Ok(ball)
    }

    /// Raises the radius, if rounding left any point a hair outside, so that
    /// `contains_point` holds for every point.
    fn cover_exactly(&mut self, points: &[V]) {
        let max_d2 = points
            .iter()
            .map(|&p| (p - self.center).length_squared())
            .fold(self.radius * self.radius, f32::max);
        let mut r = self.radius.max(max_d2.sqrt());
        while r * r < max_d2 {
            r = next_up(r);
        }
        self.radius = r;
    }
}

impl BoundingCircle {
    /// The minimum enclosing circle of the points (to about 1e-5 of its
    /// radius), by
    /// Welzl's move-to-front algorithm; see [`BoundingSphere::from_points_welzl`].
    pub fn from_points_welzl(points: &[Vec2]) -> Result<Self, GeometryError> {
        welzl(points)
    }
}

impl BoundingSphere {
    /// The minimum enclosing sphere of the points (to about 1e-5 of its
    /// radius: support sets are chosen with that slack, then the radius
    /// grows to hold every point exactly), by
    /// Welzl's algorithm in its move-to-front form (Welzl, "Smallest enclosing
    /// disks (balls and ellipsoids)", 1991; Gärtner, "Fast and robust smallest
    /// enclosing balls", 1999; Ericson 4.3.5). Expected linear time: the points
    /// are first shuffled with a fixed seed, so the result is deterministic.
    ///
    /// Duplicate, collinear and coplanar points are fine: a support set that spans
    /// too few dimensions for a unique circumball falls back to the largest
    /// well-defined ball through a subset of it (see the `circumball` module), and
    /// a final pass raises the radius so every point satisfies
    /// [`contains_point`](BoundingBall::contains_point).
    ///
    /// Errors: no points ([`GeometryError::TooFew`]), a non-finite point
    /// ([`GeometryError::NonFinite`]).
    pub fn from_points_welzl(points: &[Vec3]) -> Result<Self, GeometryError> {
        welzl(points)
    }
}

/// Input checks shared by the builders.
fn check_points<V: Vector>(points: &[V]) -> Result<(), GeometryError> {
    if points.is_empty() {
        return Err(GeometryError::TooFew {
            what: "bounding ball",
            needed: 1,
            got: 0,
        });
    }
    if points.iter().any(|p| !p.is_finite()) {
        return Err(GeometryError::NonFinite {
            what: "bounding ball input point",
        });
    }
    Ok(())
}

/// The next representable f32 above a finite non-negative `x`.
#[inline]
fn next_up(x: f32) -> f32 {
    f32::from_bits(x.to_bits() + 1)
}

/// Welzl's algorithm, shared by both dimensions; the per-dimension part is the
/// ball through a support set ([`Circumball`]).
fn welzl<V: Circumball>(points: &[V]) -> Result<BoundingBall<V>, GeometryError> {
    check_points(points)?;
    // Work relative to the center of the points' box: the circumcenter formulas
    // lose precision with the distance from the origin.
    let origin = Aabb::from_points(points.iter().copied()).center();
    let mut pts: Vec<V> = points.iter().map(|&p| p - origin).collect();
    shuffle(&mut pts);
    // Points within `eps` of the ball count as inside: without it, rounding could
    // make a boundary point look outside and force a needless (and less accurate)
    // recomputation. The final pass restores exact coverage.
    let scale = pts.iter().fold(0.0f32, |m, p| m.max(p.abs().max_element()));
    let eps = 8.0 * REL_EPS * scale;
    let mut support: Vec<V> = Vec::with_capacity(V::DIM + 1);
    let n = pts.len();
    let ball = mtf(&mut pts, n, &mut support, eps);
    let mut out = BoundingBall::new(ball.center + origin, ball.radius.max(0.0));
    out.cover_exactly(points);
    Ok(out)
}

/// `mb(P[..end], R)`: the smallest ball holding the first `end` points with the
/// points of `support` on its boundary. A point found outside joins the support
/// set for the recursive call on the points before it, then moves to the front
/// of the list (Welzl's move-to-front heuristic), so points that define the ball
/// are tested first later on. The recursion depth is at most `DIM + 1`.
fn mtf<V: Circumball>(
    pts: &mut [V],
    end: usize,
    support: &mut Vec<V>,
    eps: f32,
) -> BoundingBall<V> {
    let mut ball = V::circumball(support);
    if support.len() == V::DIM + 1 {
        return ball;
    }
    for i in 0..end {
        let p = pts[i];
        // A negative radius is the empty ball (no support points yet).
        let outside = ball.radius < 0.0 || (p - ball.center).length() > ball.radius + eps;
        if outside {
            support.push(p);
            ball = mtf(pts, i, support, eps);
            support.pop();
            pts[..=i].rotate_right(1);
        }
    }
    ball
}

/// Fisher–Yates with a fixed-seed xorshift generator: expected linear time for
/// Welzl without giving up determinism.
fn shuffle<T>(v: &mut [T]) {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..v.len()).rev() {
        // xorshift64 (Marsaglia 2003).
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = (state % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_closed_forms() {
        let a = BoundingSphere::new(Vec3::ZERO, 1.0);
        let b = BoundingSphere::new(Vec3::new(4.0, 0.0, 0.0), 1.0);
        let m = a.merged(&b);
        assert_eq!(m.center, Vec3::new(2.0, 0.0, 0.0));
        assert_eq!(m.radius, 3.0);
        let inner = BoundingSphere::new(Vec3::new(0.5, 0.0, 0.0), 0.25);
        assert_eq!(a.merged(&inner), a);
        assert_eq!(inner.merged(&a), a);
        assert_eq!(a.merged(&a), a);
    }

    #[test]
    fn next_up_is_next() {
        assert!(next_up(1.0) > 1.0);
        assert_eq!(next_up(0.0), f32::from_bits(1));
    }
}
