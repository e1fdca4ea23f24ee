//! Every convex 2D shape seen as a convex polygon with a radius (Box2D v3's idea):
//! a circle is 1 vertex plus its radius, a capsule 2 vertices plus its radius, a
//! segment 2 vertices, a rect 4, a triangle 3, a polygon n.
//!
//! The pair algorithms (SAT, GJK, clipping) work on this *core* polygon and add
//! the radius at the end: for convex sets, the Minkowski sum with a disk of
//! radius `r` moves every boundary point out by `r` along its normal, so the
//! signed distance of two rounded shapes is the signed distance of their cores
//! minus the sum of the radii.
//!
//! Normal form: `count == 1` is a point, `count == 2` a segment whose two "edges"
//! are `v0 → v1` (normal `n`) and `v1 → v0` (normal `-n`), `count >= 3` a
//! counter-clockwise polygon with area. Zero-size rects and zero-area triangles
//! are reduced to the segment or point they are (degeneracy policy, rule 2);
//! their feature indices then refer to the reduced vertices.

use crate::math::tolerance::ZERO_LENGTH_SQ;
use crate::math::{Pose2, Vec2};
use crate::shape::d2::Shape;

/// Inline capacity; larger polygons spill to the heap.
const INLINE: usize = 8;

/// A convex core polygon with a radius, in some frame.
#[derive(Debug, Clone)]
pub(crate) struct Poly {
    inline_v: [Vec2; INLINE],
    inline_n: [Vec2; INLINE],
    heap_v: Vec<Vec2>,
    heap_n: Vec<Vec2>,
    count: usize,
    /// Radius added around the core.
    pub radius: f32,
}

/// The outward normal of the edge `a → b` of a counter-clockwise polygon.
#[inline]
pub(crate) fn edge_normal(a: Vec2, b: Vec2) -> Vec2 {
    let e = b - a;
    let l2 = e.length_squared();
    if l2 > ZERO_LENGTH_SQ {
        Vec2::new(e.y, -e.x) / l2.sqrt()
    } else {
        Vec2::ZERO
    }
}

impl Poly {
    fn empty(radius: f32) -> Self {
        Poly {
            inline_v: [Vec2::ZERO; INLINE],
            inline_n: [Vec2::ZERO; INLINE],
            heap_v: Vec::new(),
            heap_n: Vec::new(),
            count: 0,
            radius,
        }
    }

    /// A point core.
    pub fn point(p: Vec2, radius: f32) -> Self {
        let mut s = Self::empty(radius);
        s.inline_v[0] = p;
        s.count = 1;
        s
    }

    /// A segment core (a point when the ends coincide).
    pub fn segment(a: Vec2, b: Vec2, radius: f32) -> Self {
        let n = edge_normal(a, b);
        if n == Vec2::ZERO {
            return Self::point(a, radius);
        }
        let mut s = Self::empty(radius);
        s.inline_v[0] = a;
        s.inline_v[1] = b;
        s.inline_n[0] = n;
        s.inline_n[1] = -n;
        s.count = 2;
        s
    }

    /// A polygon core from counter-clockwise vertices with area, and their normals.
    fn polygon(vs: &[Vec2], ns: Option<&[Vec2]>, radius: f32) -> Self {
        let mut s = Self::empty(radius);
        let n = vs.len();
        s.count = n;
        let (dv, dn) = if n <= INLINE {
            (&mut s.inline_v[..n], &mut s.inline_n[..n])
        } else {
            s.heap_v = vec![Vec2::ZERO; n];
            s.heap_n = vec![Vec2::ZERO; n];
            (&mut s.heap_v[..], &mut s.heap_n[..])
        };
        dv.copy_from_slice(vs);
        match ns {
            Some(ns) => dn.copy_from_slice(ns),
            None => {
                for i in 0..n {
                    dn[i] = edge_normal(vs[i], vs[(i + 1) % n]);
                }
            }
        }
        s
    }

    /// A polygon from a possibly degenerate counter-clockwise vertex list: a list
    /// spanning no area becomes the segment between its two farthest points.
    fn from_ccw(vs: &[Vec2], ns: Option<&[Vec2]>, radius: f32) -> Self {
        let n = vs.len();
        if n == 0 {
            // Only reachable through `from_hull_unchecked(vec![])`: a point.
            return Self::point(Vec2::ZERO, radius);
        }
        let mut area2 = 0.0;
        let mut scale2: f32 = 0.0;
        for i in 0..n {
            area2 += vs[i].perp_dot(vs[(i + 1) % n]);
            scale2 = scale2.max((vs[(i + 1) % n] - vs[i]).length_squared());
        }
        // A relative area test: twice the area against the squared edge scale.
        if n >= 3 && area2 > 1e-10 * scale2 && scale2 > ZERO_LENGTH_SQ {
            let ns = ns.filter(|ns| ns.len() == n);
            return Self::polygon(vs, ns, radius);
        }
        // Degenerate: the segment between the two farthest-apart vertices.
        let (mut bi, mut bj, mut bd) = (0, 0, -1.0);
        for i in 0..n {
            for j in i + 1..n {
                let d = (vs[j] - vs[i]).length_squared();
                if d > bd {
                    (bi, bj, bd) = (i, j, d);
                }
            }
        }
        Self::segment(vs[bi], vs[bj], radius)
    }

    /// The core polygon of a convex shape in its local frame. `None` for compounds.
    pub fn from_shape(shape: &Shape) -> Option<Self> {
        Some(match shape {
            Shape::Circle(c) => Self::point(Vec2::ZERO, c.radius()),
            Shape::Capsule(c) => Self::segment(c.a(), c.b(), c.radius()),
            Shape::Segment(s) => Self::segment(s.a(), s.b(), 0.0),
            Shape::Rect(r) => {
                let h = r.half_extents();
                if h.x > 0.0 && h.y > 0.0 {
                    Self::polygon(&r.vertices(), Some(&crate::shape::d2::Rect::NORMALS), 0.0)
                } else if h.x > 0.0 {
                    Self::segment(Vec2::new(-h.x, 0.0), Vec2::new(h.x, 0.0), 0.0)
                } else if h.y > 0.0 {
                    Self::segment(Vec2::new(0.0, -h.y), Vec2::new(0.0, h.y), 0.0)
                } else {
                    Self::point(Vec2::ZERO, 0.0)
                }
            }
            Shape::Triangle(t) => Self::from_ccw(t.vertices(), None, 0.0),
            Shape::Polygon(p) => Self::from_ccw(p.vertices(), Some(p.normals()), 0.0),
            Shape::Compound(_) => return None,
        })
    }

    /// Number of vertices (1 point, 2 segment, >= 3 polygon).
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The vertices.
    #[inline]
    pub fn verts(&self) -> &[Vec2] {
        if self.count <= INLINE {
            &self.inline_v[..self.count]
        } else {
            &self.heap_v
        }
    }

    /// Edge normals (`normals()[i]` is the outward normal of `v[i] → v[i+1]`);
    /// a point has one zero normal.
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        if self.count <= INLINE {
            &self.inline_n[..self.count]
        } else {
            &self.heap_n
        }
    }

    /// Whether the core has area (3 or more vertices).
    #[inline]
    pub fn has_area(&self) -> bool {
        self.count >= 3
    }

    /// The vertex after `i`.
    #[inline]
    pub fn next(&self, i: usize) -> usize {
        if i + 1 == self.count {
            0
        } else {
            i + 1
        }
    }

    /// The core placed by `pose` (vertices and normals mapped).
    pub fn transformed(&self, pose: &Pose2) -> Self {
        let mut s = self.clone();
        let n = self.count;
        let (dv, dn) = if n <= INLINE {
            (&mut s.inline_v[..n], &mut s.inline_n[..n])
        } else {
            (&mut s.heap_v[..], &mut s.heap_n[..])
        };
        for v in dv.iter_mut() {
            *v = pose.transform_point(*v);
        }
        for m in dn.iter_mut() {
            *m = pose.rotation.rotate(*m);
        }
        s
    }

    /// Index of the vertex farthest along `dir` (ties to the lowest index).
    #[inline]
    pub fn support(&self, dir: Vec2) -> usize {
        crate::shape::d2::support_index(self.verts(), dir)
    }

    /// A length scale of the core (largest vertex coordinate plus radius), for
    /// scale-relative tolerances.
    pub fn scale(&self) -> f32 {
        self.verts().iter().fold(self.radius, |m, v| {
            m.max(v.abs().max_element() + self.radius)
        })
    }

    /// The index of the edge between adjacent vertices `i` and `j`.
    #[inline]
    pub fn edge_between(&self, i: usize, j: usize) -> usize {
        if self.next(i) == j {
            i
        } else if self.next(j) == i {
            j
        } else {
            i.min(j)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::d2::{Rect, Triangle};

    #[test]
    fn degenerate_shapes_reduce() {
        let r = Poly::from_shape(&Rect::new(Vec2::new(2.0, 0.0)).unwrap().into()).unwrap();
        assert_eq!(r.count(), 2);
        let p = Poly::from_shape(&Rect::new(Vec2::ZERO).unwrap().into()).unwrap();
        assert_eq!(p.count(), 1);
        let t = Triangle::new(Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.0)).unwrap();
        let t = Poly::from_shape(&t.into()).unwrap();
        assert_eq!(t.count(), 2);
        assert_eq!((t.verts()[1] - t.verts()[0]).length(), 2.0);
        assert_eq!(t.normals()[0], -t.normals()[1]);
    }
}
