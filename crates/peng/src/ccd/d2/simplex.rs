//! The GJK simplex of the casts: up to three points `p = b - a` of the
//! Minkowski difference `B - A` with their witnesses on A and B, and the point
//! of their hull closest to a query point.
//!
//! The closest point is found region by region with barycentric coordinates
//! (Ericson, Real-Time Collision Detection 5.1.5, closest point on a triangle;
//! 9.5.2 for its use in GJK): the simplex keeps only the vertices that support
//! the closest point, which is what GJK needs next.

use crate::math::Vec2;

/// One simplex vertex: `p = b - a`, its witnesses and their indices in the
/// cores' point lists.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Vertex {
    /// The point on A (its core).
    pub a: Vec2,
    /// The point on B (its core).
    pub b: Vec2,
    /// `b - a`.
    pub p: Vec2,
    /// Index of `a` in A's core points.
    pub ia: u32,
    /// Index of `b` in B's core points.
    pub ib: u32,
}

impl Vertex {
    #[inline]
    pub(super) fn new(a: (Vec2, usize), b: (Vec2, usize)) -> Self {
        Vertex {
            a: a.0,
            b: b.0,
            p: b.0 - a.0,
            ia: a.1 as u32,
            ib: b.1 as u32,
        }
    }
}

/// Up to three vertices and the barycentric weights of the closest point.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Simplex {
    v: [Vertex; 3],
    w: [f32; 3],
    n: usize,
}

impl Simplex {
    /// The number of vertices kept (3: the query point is inside).
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.n
    }

    /// The `i`-th vertex's point `b - a`.
    #[inline]
    pub(super) fn point(&self, i: usize) -> Vec2 {
        self.v[i].p
    }

    /// The vertices kept.
    #[inline]
    pub(super) fn vertices(&self) -> &[Vertex] {
        &self.v[..self.n]
    }

    /// Whether `p` is already a vertex (GJK made no progress).
    #[inline]
    pub(super) fn contains(&self, p: Vec2) -> bool {
        self.v[..self.n].iter().any(|v| v.p == p)
    }

    /// Adds a vertex (a full simplex drops nothing: callers reduce it with
    /// [`Simplex::closest`] first, which never leaves three vertices unless
    /// the query point is inside).
    #[inline]
    pub(super) fn push(&mut self, v: Vertex) {
        if self.n < 3 {
            self.v[self.n] = v;
            self.n += 1;
        }
    }

    /// When the simplex is an edge, its unit normal on the side of `v` (the
    /// closest point's direction from the query point, reversed): exact where
    /// `v` itself, tiny near contact, has a rounded direction.
    /// When `v` is zero (the query point on the edge), `hint` picks the side.
    pub(super) fn edge_normal(&self, v: Vec2, hint: Vec2) -> Option<Vec2> {
        if self.n != 2 {
            return None;
        }
        let n = (self.v[1].p - self.v[0].p).perp().normalize_or_zero();
        if n == Vec2::ZERO {
            return None;
        }
        let side = match n.dot(v) {
            0.0 => n.dot(hint),
            d => d,
        };
        Some(if side < 0.0 { -n } else { n })
    }

    /// The witnesses of the last closest point: `(point on A, point on B)`.
    pub(super) fn witnesses(&self) -> (Vec2, Vec2) {
        let mut a = Vec2::ZERO;
        let mut b = Vec2::ZERO;
        for k in 0..self.n {
            a += self.v[k].a * self.w[k];
            b += self.v[k].b * self.w[k];
        }
        (a, b)
    }

    /// The point of the simplex's hull closest to `x`; keeps only the
    /// vertices that support it.
    pub(super) fn closest(&mut self, x: Vec2) -> Vec2 {
        match self.n {
            0 => x,
            1 => {
                self.w[0] = 1.0;
                self.v[0].p
            }
            2 => self.closest2(x),
            _ => self.closest3(x),
        }
    }

    fn keep1(&mut self, i: usize) -> Vec2 {
        self.v[0] = self.v[i];
        self.w[0] = 1.0;
        self.n = 1;
        self.v[0].p
    }

    fn keep2(&mut self, i: usize, j: usize, t: f32) -> Vec2 {
        let (vi, vj) = (self.v[i], self.v[j]);
        self.v[0] = vi;
        self.v[1] = vj;
        self.w[0] = 1.0 - t;
        self.w[1] = t;
        self.n = 2;
        vi.p + (vj.p - vi.p) * t
    }

    /// Segment `v0 v1`: project `x` and clamp (Ericson 5.1.2).
    fn closest2(&mut self, x: Vec2) -> Vec2 {
        let (p0, p1) = (self.v[0].p, self.v[1].p);
        let e = p1 - p0;
        let num = (x - p0).dot(e);
        if num <= 0.0 {
            return self.keep1(0);
        }
        let den = e.dot(e);
        if num >= den {
            return self.keep1(1);
        }
        self.keep2(0, 1, num / den)
    }

    /// Triangle `v0 v1 v2`: vertex, edge or face region of `x` (Ericson
    /// 5.1.5, with the face region meaning "inside" in 2D).
    ///
    /// In f64 (the f32 points are exact there): the region tests are
    /// differences of products, `vc = d1·d4 − d3·d2` and its like, which
    /// cancel for a sliver triangle. Two nearly parallel faces make such
    /// slivers of the difference, and in f32 the closest point then stayed on
    /// the old edge though the new vertex brought the hull 1.5e-4 nearer:
    /// GJK stalled and a cast stopped 2.3e-4 before contact.
    fn closest3(&mut self, x: Vec2) -> Vec2 {
        let (a, b, c) = (
            self.v[0].p.as_dvec2(),
            self.v[1].p.as_dvec2(),
            self.v[2].p.as_dvec2(),
        );
        let x = x.as_dvec2();
        let (ab, ac, ap) = (b - a, c - a, x - a);
        let (d1, d2) = (ab.dot(ap), ac.dot(ap));
        if d1 <= 0.0 && d2 <= 0.0 {
            return self.keep1(0);
        }
        let bp = x - b;
        let (d3, d4) = (ab.dot(bp), ac.dot(bp));
        if d3 >= 0.0 && d4 <= d3 {
            return self.keep1(1);
        }
        let vc = d1 * d4 - d3 * d2;
        if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            return self.keep2(0, 1, (d1 / (d1 - d3)) as f32);
        }
        let cp = x - c;
        let (d5, d6) = (ab.dot(cp), ac.dot(cp));
        if d6 >= 0.0 && d5 <= d6 {
            return self.keep1(2);
        }
        let vb = d5 * d2 - d1 * d6;
        if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            return self.keep2(0, 2, (d2 / (d2 - d6)) as f32);
        }
        let va = d3 * d6 - d5 * d4;
        if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
            return self.keep2(1, 2, ((d4 - d3) / ((d4 - d3) + (d5 - d6))) as f32);
        }
        let sum = va + vb + vc;
        if !(sum > 0.0) {
            // A degenerate (flat) triangle: the best of its edges.
            let mut best = (f64::INFINITY, 0, 1, 0.0);
            for (i, j) in [(0, 1), (0, 2), (1, 2)] {
                let (pi, pj) = (self.v[i].p.as_dvec2(), self.v[j].p.as_dvec2());
                let e = pj - pi;
                let den = e.dot(e);
                let t = if den > 0.0 {
                    ((x - pi).dot(e) / den).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let d = (pi + e * t - x).length_squared();
                if d < best.0 {
                    best = (d, i, j, t);
                }
            }
            return self.keep2(best.1, best.2, best.3 as f32);
        }
        let inv = 1.0 / sum;
        self.w = [(va * inv) as f32, (vb * inv) as f32, (vc * inv) as f32];
        x.as_vec2()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simplex(ps: &[Vec2]) -> Simplex {
        let mut s = Simplex::default();
        for &p in ps {
            s.push(Vertex::new((Vec2::ZERO, 0), (p, 0)));
        }
        s
    }

    #[test]
    fn regions() {
        let (a, b, c) = (
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(3.0, 0.0),
        );
        let mut s = simplex(&[a, b, c]);
        assert_eq!(s.closest(Vec2::ZERO), Vec2::new(1.0, 0.0));
        assert_eq!(s.len(), 2);
        let mut s = simplex(&[a, b, c]);
        assert_eq!(s.closest(Vec2::new(4.0, 0.0)), c);
        assert_eq!(s.len(), 1);
        let mut s = simplex(&[a, b, c]);
        let x = Vec2::new(1.5, 0.1);
        assert_eq!(s.closest(x), x);
        assert_eq!(s.len(), 3);
        let (_, wb) = s.witnesses();
        assert!((wb - x).length() < 1e-6);
        // Flat triangle: its nearest edge.
        let mut s = simplex(&[a, Vec2::new(1.0, 0.0), b]);
        assert!((s.closest(Vec2::ZERO) - Vec2::new(1.0, 0.0)).length() < 1e-6);
        let mut s = simplex(&[a, b]);
        assert_eq!(s.closest(Vec2::new(0.0, 5.0)), b);
    }
}
