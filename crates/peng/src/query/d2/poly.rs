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

//! The pair queries never copy a shape's own arrays: a [`Poly`] borrows them
//! (a polygon's vertices and normals) or a caller's stack buffer ([`PolyBuf`])
//! holding the few vertices of a small shape, or the vertices of shape B mapped
//! into A's frame. Only polygons with more than [`INLINE`] vertices placed in
//! another frame use the heap.

use crate::math::tolerance::ZERO_LENGTH_SQ;
use crate::math::{Pose2, Vec2};
use crate::shape::d2::Shape;

/// Inline capacity of a [`PolyBuf`]; larger placed polygons spill to the heap.
const INLINE: usize = 16;

/// Storage for the vertices and normals of a core that cannot be borrowed from
/// its shape (small shapes, shapes mapped into another frame). Lives on the
/// caller's stack.
#[derive(Debug)]
pub(crate) struct PolyBuf {
    inline_v: [Vec2; INLINE],
    inline_n: [Vec2; INLINE],
    heap_v: Vec<Vec2>,
    heap_n: Vec<Vec2>,
}

impl Default for PolyBuf {
    fn default() -> Self {
        Self::new()
    }
}

impl PolyBuf {
    /// An empty buffer (no heap memory).
    #[inline]
    pub(super) fn new() -> Self {
        PolyBuf {
            inline_v: [Vec2::ZERO; INLINE],
            inline_n: [Vec2::ZERO; INLINE],
            heap_v: Vec::new(),
            heap_n: Vec::new(),
        }
    }

    /// Room for `n` vertices and normals.
    #[inline]
    fn slots(&mut self, n: usize) -> (&mut [Vec2], &mut [Vec2]) {
        if n <= INLINE {
            (&mut self.inline_v[..n], &mut self.inline_n[..n])
        } else {
            self.heap_v.resize(n, Vec2::ZERO);
            self.heap_n.resize(n, Vec2::ZERO);
            (&mut self.heap_v[..n], &mut self.heap_n[..n])
        }
    }

    /// The first `n` vertices and normals written by [`PolyBuf::slots`].
    #[inline]
    fn view(&self, n: usize, radius: f32) -> Poly<'_> {
        let (verts, normals) = if n <= INLINE {
            (&self.inline_v[..n], &self.inline_n[..n])
        } else {
            (&self.heap_v[..n], &self.heap_n[..n])
        };
        Poly {
            verts,
            normals,
            radius,
            local_rect: false,
        }
    }

    /// Writes a point core; returns its vertex count.
    fn put_point(&mut self, p: Vec2) -> usize {
        let (v, n) = self.slots(1);
        v[0] = p;
        n[0] = Vec2::ZERO;
        1
    }

    /// Writes a segment core (a point when the ends coincide); returns its count.
    fn put_segment(&mut self, a: Vec2, b: Vec2) -> usize {
        let m = edge_normal(a, b);
        if m == Vec2::ZERO {
            return self.put_point(a);
        }
        let (v, n) = self.slots(2);
        v[0] = a;
        v[1] = b;
        n[0] = m;
        n[1] = -m;
        2
    }

    /// Writes a polygon core from counter-clockwise vertices with area and,
    /// optionally, their normals; returns its count.
    fn put_polygon(&mut self, vs: &[Vec2], ns: Option<&[Vec2]>) -> usize {
        let count = vs.len();
        let (dv, dn) = self.slots(count);
        dv.copy_from_slice(vs);
        match ns {
            Some(ns) => dn.copy_from_slice(ns),
            None => {
                for i in 0..count {
                    dn[i] = edge_normal(vs[i], vs[(i + 1) % count]);
                }
            }
        }
        count
    }

    /// Maps the first `n` vertices and normals by `pose`, in place.
    fn transform(&mut self, n: usize, pose: &Pose2) {
        let (dv, dn) = self.slots(n);
        for v in dv.iter_mut() {
            *v = pose.transform_point(*v);
        }
        for m in dn.iter_mut() {
            *m = pose.rotation.rotate(*m);
        }
    }
}

/// A convex core polygon with a radius, in some frame; its arrays are borrowed
/// from the shape or from a [`PolyBuf`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Poly<'a> {
    verts: &'a [Vec2],
    normals: &'a [Vec2],
    /// Radius added around the core.
    pub radius: f32,
    /// Whether this is a rect with area in its own frame (vertices and normals
    /// in the order of [`Rect::vertices`](crate::shape::d2::Rect::vertices)):
    /// the separating-axis test then has a closed form.
    local_rect: bool,
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

/// Where the core of a shape lives: borrowed from the shape, or written into
/// a buffer (with its vertex count).
enum Src<'a> {
    Shape(&'a [Vec2], &'a [Vec2]),
    Buf(usize),
}

/// Whether a counter-clockwise vertex list spans area: twice its area against
/// its squared edge scale (a relative test).
fn spans_area(vs: &[Vec2]) -> bool {
    let n = vs.len();
    let mut area2 = 0.0;
    let mut scale2: f32 = 0.0;
    for i in 0..n {
        let j = if i + 1 == n { 0 } else { i + 1 };
        area2 += vs[i].perp_dot(vs[j]);
        scale2 = scale2.max((vs[j] - vs[i]).length_squared());
    }
    n >= 3 && area2 > 1e-10 * scale2 && scale2 > ZERO_LENGTH_SQ
}

/// A possibly degenerate counter-clockwise vertex list that spans no area: the
/// segment between its two farthest-apart vertices (a point for an empty list,
/// only reachable through `from_hull_unchecked(vec![])`).
fn put_degenerate(vs: &[Vec2], buf: &mut PolyBuf) -> usize {
    let n = vs.len();
    if n == 0 {
        return buf.put_point(Vec2::ZERO);
    }
    let (mut bi, mut bj, mut bd) = (0, 0, -1.0);
    for i in 0..n {
        for j in i + 1..n {
            let d = (vs[j] - vs[i]).length_squared();
            if d > bd {
                (bi, bj, bd) = (i, j, d);
            }
        }
    }
    buf.put_segment(vs[bi], vs[bj])
}

/// The core of a convex shape in its local frame and its radius. `None` for
/// compounds and polylines.
fn source<'a>(shape: &'a Shape, buf: &mut PolyBuf) -> Option<(Src<'a>, f32)> {
    Some(match shape {
        Shape::Circle(c) => (Src::Buf(buf.put_point(Vec2::ZERO)), c.radius()),
        Shape::Capsule(c) => (Src::Buf(buf.put_segment(c.a(), c.b())), c.radius()),
        Shape::Segment(s) => (Src::Buf(buf.put_segment(s.a(), s.b())), 0.0),
        Shape::Rect(r) => {
            let h = r.half_extents();
            let n = if h.x > 0.0 && h.y > 0.0 {
                buf.put_polygon(&r.vertices(), Some(&crate::shape::d2::Rect::NORMALS))
            } else if h.x > 0.0 {
                buf.put_segment(Vec2::new(-h.x, 0.0), Vec2::new(h.x, 0.0))
            } else if h.y > 0.0 {
                buf.put_segment(Vec2::new(0.0, -h.y), Vec2::new(0.0, h.y))
            } else {
                buf.put_point(Vec2::ZERO)
            };
            (Src::Buf(n), 0.0)
        }
        Shape::Triangle(t) => {
            let vs = t.vertices();
            let n = if spans_area(vs) {
                buf.put_polygon(vs, None)
            } else {
                put_degenerate(vs, buf)
            };
            (Src::Buf(n), 0.0)
        }
        Shape::Polygon(p) => {
            let vs = p.vertices();
            if spans_area(vs) {
                if p.normals().len() == vs.len() {
                    (Src::Shape(vs, p.normals()), 0.0)
                } else {
                    (Src::Buf(buf.put_polygon(vs, None)), 0.0)
                }
            } else {
                (Src::Buf(put_degenerate(vs, buf)), 0.0)
            }
        }
        Shape::Compound(_) | Shape::Polyline(_) => return None,
    })
}

impl<'a> Poly<'a> {
    /// A point core in `buf`.
    #[cfg(test)]
    pub fn point(p: Vec2, radius: f32, buf: &'a mut PolyBuf) -> Self {
        let n = buf.put_point(p);
        buf.view(n, radius)
    }

    /// A segment core in `buf` (a point when the ends coincide).
    #[cfg(test)]
    pub fn segment(a: Vec2, b: Vec2, radius: f32, buf: &'a mut PolyBuf) -> Self {
        let n = buf.put_segment(a, b);
        buf.view(n, radius)
    }

    /// The core polygon of a convex shape in its local frame, borrowing the
    /// shape's arrays when it can and `buf` otherwise. `None` for compounds.
    pub(super) fn from_shape(shape: &'a Shape, buf: &'a mut PolyBuf) -> Option<Self> {
        let (src, radius) = source(shape, buf)?;
        Some(match src {
            Src::Shape(verts, normals) => Poly {
                verts,
                normals,
                radius,
                local_rect: false,
            },
            Src::Buf(n) => Poly {
                local_rect: matches!(shape, Shape::Rect(_)) && n == 4,
                ..buf.view(n, radius)
            },
        })
    }

    /// The core polygon of a convex shape placed by `pose` (vertices and normals
    /// mapped), written into `buf`. `None` for compounds.
    pub(super) fn from_shape_placed(
        shape: &Shape,
        pose: &Pose2,
        buf: &'a mut PolyBuf,
    ) -> Option<Self> {
        let (src, radius) = source(shape, buf)?;
        let n = match src {
            Src::Shape(vs, ns) => {
                let n = vs.len();
                let (dv, dn) = buf.slots(n);
                for (d, v) in dv.iter_mut().zip(vs) {
                    *d = pose.transform_point(*v);
                }
                for (d, m) in dn.iter_mut().zip(ns) {
                    *d = pose.rotation.rotate(*m);
                }
                n
            }
            Src::Buf(n) => {
                buf.transform(n, pose);
                n
            }
        };
        Some(buf.view(n, radius))
    }

    /// The core placed by `pose`, written into `buf`.
    #[cfg(test)]
    pub fn transformed<'b>(&self, pose: &Pose2, buf: &'b mut PolyBuf) -> Poly<'b> {
        let n = buf.put_polygon(self.verts, Some(self.normals));
        buf.transform(n, pose);
        buf.view(n, self.radius)
    }

    /// Number of vertices (1 point, 2 segment, >= 3 polygon).
    #[inline]
    pub(super) fn count(&self) -> usize {
        self.verts.len()
    }

    /// The vertices.
    #[inline]
    pub(super) fn verts(&self) -> &'a [Vec2] {
        self.verts
    }

    /// Edge normals (`normals()[i]` is the outward normal of `v[i] → v[i+1]`);
    /// a point has one zero normal.
    #[inline]
    pub(super) fn normals(&self) -> &'a [Vec2] {
        self.normals
    }

    /// Whether this is a rect with area in its own frame.
    #[inline]
    pub(super) fn is_local_rect(&self) -> bool {
        self.local_rect
    }

    /// Whether the core has area (3 or more vertices).
    #[inline]
    pub(super) fn has_area(&self) -> bool {
        self.verts.len() >= 3
    }

    /// The vertex after `i`.
    #[inline]
    pub(super) fn next(&self, i: usize) -> usize {
        if i + 1 == self.verts.len() {
            0
        } else {
            i + 1
        }
    }

    /// Index of the vertex farthest along `dir` (ties to the lowest index).
    #[inline]
    pub(super) fn support(&self, dir: Vec2) -> usize {
        crate::shape::d2::support_index(self.verts(), dir)
    }

    /// A length scale of the core (largest vertex coordinate plus radius), for
    /// scale-relative tolerances.
    pub(super) fn scale(&self) -> f32 {
        self.verts().iter().fold(self.radius, |m, v| {
            m.max(v.abs().max_element() + self.radius)
        })
    }

    /// The index of the edge between adjacent vertices `i` and `j`.
    #[inline]
    pub(super) fn edge_between(&self, i: usize, j: usize) -> usize {
        if self.next(i) == j {
            i
        } else if self.next(j) == i {
            j
        } else {
            i.min(j)
        }
    }
}

/// A buffer that lives for the rest of the test run.
#[cfg(test)]
pub(crate) fn test_buf() -> &'static mut PolyBuf {
    Box::leak(Box::default())
}

/// The local core of a shape that lives for the rest of the test run.
#[cfg(test)]
pub(crate) fn test_core(shape: Shape) -> Poly<'static> {
    let shape: &'static Shape = Box::leak(Box::new(shape));
    Poly::from_shape(shape, test_buf()).expect("convex shape")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::d2::{Rect, Triangle};

    #[test]
    fn degenerate_shapes_reduce() {
        let r = test_core(Rect::new(Vec2::new(2.0, 0.0)).unwrap().into());
        assert_eq!(r.count(), 2);
        let p = test_core(Rect::new(Vec2::ZERO).unwrap().into());
        assert_eq!(p.count(), 1);
        let t = Triangle::new(Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.0)).unwrap();
        let t = test_core(t.into());
        assert_eq!(t.count(), 2);
        assert_eq!((t.verts()[1] - t.verts()[0]).length(), 2.0);
        assert_eq!(t.normals()[0], -t.normals()[1]);
    }
}
