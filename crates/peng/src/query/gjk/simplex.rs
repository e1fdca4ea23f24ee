//! The GJK simplex and its sub-simplex solver.
//!
//! The solver finds the point of a simplex (1 to 4 vertices) closest to the
//! origin, its barycentric coordinates and the smallest sub-simplex (face, edge or
//! vertex) that holds it. It follows the signed-volumes method of Montanari,
//! Bartels and Cazzato, "Improving the GJK algorithm for faster and more reliable
//! distance queries between convex objects" (ACM TOG 2017): the origin's
//! barycentric coordinates are ratios of signed volumes (areas, lengths); when one
//! of them has the wrong sign the origin lies beyond the opposite facet, and the
//! solver recurses into exactly those facets and keeps the closest result. Unlike
//! Johnson's original algorithm no determinants are cached between iterations,
//! which is what makes the method robust near degenerate simplices.
//!
//! The solver works in f64 on the f32 support points. Near convergence the
//! progress GJK makes per step can be far below the f32 rounding of |v|² (a
//! curved rim against a large flat face: each step gains ~1e-9 on a value of
//! ~1e-2), which f32 arithmetic cannot even see; in f64 the same vertices give
//! a consistent geometry and GJK converges to the f32 precision of the input.

use crate::math::Vec3;
use glam::DVec3;

/// A vertex of the Minkowski difference `A − B`, with the points of A and B (in
/// A's frame) that produced it and the search direction that found it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SupportPoint {
    /// `a - b`.
    pub w: Vec3,
    /// The support point of A's core.
    pub a: Vec3,
    /// The support point of B's core, in A's frame.
    pub b: Vec3,
    /// The direction (A's frame) along which `w` is the support point.
    pub dir: Vec3,
}

/// Up to four support points and the barycentric coordinates of the point of
/// their hull closest to the origin.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Simplex {
    pts: [SupportPoint; 4],
    bary: [f64; 4],
    len: usize,
}

/// Relative tolerance below which a simplex is treated as degenerate
/// (squared sine of the angle between its edges).
const DEGENERATE_REL: f64 = 1.0e-12;

/// Fraction of the total signed volume (area) within which a barycentric
/// weight counts as possibly negative: its facet is searched too. Rounding of
/// the f64 weights is far below this; a facet with a larger positive weight
/// faces away from the origin.
const FACET_SLACK: f64 = 1.0e-9;

/// The result of one sub-solver: which input vertices are used (bit mask) and
/// their weights, indexed like the input.
#[derive(Clone, Copy)]
struct Sub {
    mask: u8,
    bary: [f64; 4],
    v: DVec3,
}

impl Sub {
    fn vertex(p: &[DVec3; 4], i: usize) -> Sub {
        let mut bary = [0.0; 4];
        bary[i] = 1.0;
        Sub {
            mask: 1 << i,
            bary,
            v: p[i],
        }
    }
}

impl Simplex {
    /// An empty simplex.
    pub fn new() -> Self {
        Self::default()
    }

    /// The vertices.
    #[inline]
    pub fn points(&self) -> &[SupportPoint] {
        &self.pts[..self.len]
    }

    /// Barycentric weights of the closest point (the GJK solver sets them).
    #[inline]
    pub fn weights(&self) -> &[f64] {
        &self.bary[..self.len]
    }

    /// Number of vertices.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no vertices.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a vertex (ignored when the simplex already has four).
    #[inline]
    pub(crate) fn push(&mut self, p: SupportPoint) {
        if self.len < 4 {
            self.pts[self.len] = p;
            self.bary[self.len] = 0.0;
            self.len += 1;
        }
    }

    /// Whether `w` is (nearly) one of the vertices already.
    pub(crate) fn contains(&self, w: Vec3, tol_sq: f32) -> bool {
        self.points()
            .iter()
            .any(|p| p.w.distance_squared(w) <= tol_sq)
    }

    /// The largest squared length of a vertex (a scale for tolerances).
    pub(crate) fn max_norm_sq(&self) -> f32 {
        self.points()
            .iter()
            .fold(0.0f32, |m, p| m.max(p.w.length_squared()))
    }

    /// The closest point of the simplex to the origin, from the weights (f64).
    pub fn closest(&self) -> DVec3 {
        self.points()
            .iter()
            .zip(self.weights())
            .fold(DVec3::ZERO, |s, (p, &l)| s + p.w.as_dvec3() * l)
    }

    /// The witness points on A and B (A's frame), from the weights.
    pub fn witnesses(&self) -> (Vec3, Vec3) {
        let (a, b) = self
            .points()
            .iter()
            .zip(self.weights())
            .fold((DVec3::ZERO, DVec3::ZERO), |(a, b), (p, &l)| {
                (a + p.a.as_dvec3() * l, b + p.b.as_dvec3() * l)
            });
        (a.as_vec3(), b.as_vec3())
    }

    /// Keeps the vertices whose bit is set in `mask` (in order); the weights
    /// of the kept vertices are stale until the next [`Simplex::solve`].
    ///
    /// Branch-free: every vertex is copied to the next free slot (`n <= i`,
    /// so nothing unread is overwritten) and the slot advances by its bit;
    /// the mask is the solver's region, which a branch per vertex
    /// mispredicted often.
    #[inline]
    pub(crate) fn keep(&mut self, mask: u8) {
        let mut n = 0;
        for i in 0..self.len {
            self.pts[n] = self.pts[i];
            n += ((mask >> i) & 1) as usize;
        }
        self.len = n;
    }

    /// Replaces the simplex by the smallest sub-simplex holding its point closest
    /// to the origin and sets the weights. Returns that point and whether the
    /// origin lies strictly inside a full tetrahedron.
    pub(crate) fn solve(&mut self) -> (DVec3, bool) {
        let mut p = [DVec3::ZERO; 4];
        for (q, s) in p.iter_mut().zip(self.points()) {
            *q = s.w.as_dvec3();
        }
        let (sub, inside) = match self.len {
            0 => return (DVec3::ZERO, false),
            1 => (Sub::vertex(&p, 0), false),
            2 => (s1d(&p, 0, 1), false),
            3 => (s2d(&p, 0, 1, 2), false),
            _ => s3d(&p),
        };
        // Compact in place: the kept vertices keep their order and move only
        // down (n <= i), so no copy of the old simplex is needed.
        let mut n = 0;
        for i in 0..self.len {
            if sub.mask & (1 << i) != 0 {
                if n != i {
                    self.pts[n] = self.pts[i];
                }
                self.bary[n] = sub.bary[i];
                n += 1;
            }
        }
        self.len = n;
        (sub.v, inside)
    }
}

/// Closest point of segment `p[i] p[j]` to the origin.
fn s1d(p: &[DVec3; 4], i: usize, j: usize) -> Sub {
    let (a, b) = (p[i], p[j]);
    let t = b - a;
    let tt = t.length_squared();
    let scale = a.length_squared().max(b.length_squared());
    if tt <= DEGENERATE_REL * scale || tt == 0.0 {
        // The two points coincide: keep the nearer one.
        return if a.length_squared() <= b.length_squared() {
            Sub::vertex(p, i)
        } else {
            Sub::vertex(p, j)
        };
    }
    // Origin projected on the line: a + t·λj with λj = -a·t/|t|², and the
    // complementary weight λi = b·t/|t|² (computed directly, not as 1 - λj).
    // |t|² > 0 here, so the signs are those of the numerators, and the
    // normalized weights λ/(λi + λj) need the numerators only: one division
    // (f64 divisions are long-latency; the old four were a chain of two).
    let lj = -a.dot(t);
    let li = b.dot(t);
    if lj <= 0.0 {
        Sub::vertex(p, i)
    } else if li <= 0.0 {
        Sub::vertex(p, j)
    } else {
        let mut bary = [0.0; 4];
        let inv = 1.0 / (li + lj);
        bary[i] = li * inv;
        bary[j] = lj * inv;
        Sub {
            mask: (1 << i) | (1 << j),
            bary,
            v: a * bary[i] + b * bary[j],
        }
    }
}

fn closer(x: Option<Sub>, y: Sub) -> Option<Sub> {
    match x {
        Some(x) if x.v.length_squared() <= y.v.length_squared() => Some(x),
        _ => Some(y),
    }
}

/// Closest point of triangle `p[i] p[j] p[k]` to the origin.
fn s2d(p: &[DVec3; 4], i: usize, j: usize, k: usize) -> Sub {
    let (a, b, c) = (p[i], p[j], p[k]);
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    let e = (b - a)
        .length_squared()
        .max((c - a).length_squared())
        .max((c - b).length_squared());
    if nn <= DEGENERATE_REL * e * e || nn == 0.0 {
        // Collinear: the closest point is on one of the edges.
        let mut best = None;
        for (u, v) in [(i, j), (j, k), (i, k)] {
            best = closer(best, s1d(p, u, v));
        }
        return best.unwrap_or(Sub::vertex(p, i));
    }
    // The origin projected on the plane, q = n (n·a)/|n|². Its barycentric
    // coordinates are the signed areas n·((b-q)×(c-q)) etc. over |n|²
    // (measured relative to q so that they stay accurate near the triangle).
    let q = n * (n.dot(a) / nn);
    let la = n.dot((b - q).cross(c - q));
    let lb = n.dot((c - q).cross(a - q));
    let lc = n.dot((a - q).cross(b - q));
    if la > 0.0 && lb > 0.0 && lc > 0.0 {
        let inv = 1.0 / (la + lb + lc);
        let mut bary = [0.0; 4];
        bary[i] = la * inv;
        bary[j] = lb * inv;
        bary[k] = lc * inv;
        return Sub {
            mask: (1 << i) | (1 << j) | (1 << k),
            bary,
            v: q,
        };
    }
    // Beyond an edge. As Montanari et al., recurse only into the edges facing
    // the origin's projection (opposite a non-positive weight): an edge with a
    // clearly positive opposite weight has the projection strictly on its
    // inner side and cannot hold the closest point. A weight near zero can have
    // the wrong sign after rounding, so edges whose weight is within a small
    // fraction of the total are tried as well, and the closest result is kept.
    let s = la + lb + lc;
    let near = FACET_SLACK * s.abs();
    let all = s.is_nan() || s <= 0.0;
    let mut best = None;
    for (w, (u, v)) in [(la, (j, k)), (lb, (i, k)), (lc, (i, j))] {
        if all || w <= near {
            best = closer(best, s1d(p, u, v));
        }
    }
    best.unwrap_or(Sub::vertex(p, i))
}

/// Squared-volume ratio (to the cube of the longest squared edge) above which
/// a tetrahedron's signed volumes decide containment of the origin, however
/// flat it is for [`DEGENERATE_REL`]: a volume of 1e-12 of `e^1.5`, a
/// thousand times its f64 rounding.
const SLIVER_REL: f64 = 1.0e-24;

/// The origin's weights in tetrahedron `p` of signed volume `vol` when it
/// lies strictly inside (each sub-volume of the sign of `vol` and above the
/// rounding of `vol` itself).
fn inside_tetrahedron(p: &[DVec3; 4], vol: f64) -> Option<Sub> {
    let [a, b, c, d] = *p;
    let cs = [
        b.dot(c.cross(d)),
        -a.dot((c - a).cross(d - a)),
        (b - a).dot((-a).cross(d - a)),
        (b - a).dot((c - a).cross(-a)),
    ];
    let sum: f64 = cs.iter().sum();
    let margin = 1e-9 * vol.abs();
    if !cs.iter().all(|&cm| cm * vol > 0.0 && cm.abs() > margin) || sum == 0.0 {
        return None;
    }
    let inv = 1.0 / sum;
    Some(Sub {
        mask: 0b1111,
        bary: cs.map(|cm| cm * inv),
        v: DVec3::ZERO,
    })
}

/// Closest point of tetrahedron `p[0..4]` to the origin; `true` when the origin
/// is strictly inside.
fn s3d(p: &[DVec3; 4]) -> (Sub, bool) {
    let [a, b, c, d] = *p;
    let vol = (b - a).dot((c - a).cross(d - a));
    let e = [b - a, c - a, d - a, c - b, d - b, d - c]
        .iter()
        .fold(0.0f64, |m, v| m.max(v.length_squared()));
    if vol * vol <= DEGENERATE_REL * e * e * e || vol == 0.0 {
        // Flat, for the closest point: it is on one of the faces. But a
        // sliver (from a long thin core: extent 2.5, thickness 3e-4) can
        // still hold the origin clearly inside, which proves the overlap
        // (its vertices are points of A − B); the volumes, from f32 inputs
        // in f64, are exact to about 1e-15 of `e^1.5`, so their signs are
        // sure well above that. Without this the new vertex was dropped as
        // flat at every step and GJK stalled at a false separation.
        if vol * vol > SLIVER_REL * e * e * e {
            if let Some(inside) = inside_tetrahedron(p, vol) {
                return (inside, true);
            }
        }
        let mut best = None;
        for (i, j, k) in [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)] {
            best = closer(best, s2d(p, i, j, k));
        }
        return (best.unwrap_or(Sub::vertex(p, 0)), false);
    }
    // Signed volumes with vertex m replaced by the origin; they sum to `vol`.
    let c0 = b.dot(c.cross(d));
    let c1 = -a.dot((c - a).cross(d - a));
    let c2 = (b - a).dot((-a).cross(d - a));
    let c3 = (b - a).dot((c - a).cross(-a));
    let cs = [c0, c1, c2, c3];
    if cs.iter().all(|&cm| cm * vol > 0.0) {
        let inv = 1.0 / (c0 + c1 + c2 + c3);
        return (
            Sub {
                mask: 0b1111,
                bary: [c0 * inv, c1 * inv, c2 * inv, c3 * inv],
                v: DVec3::ZERO,
            },
            true,
        );
    }
    // Outside: as in `s2d`, only the facets facing the origin (opposite a
    // weight of the wrong sign, or one within rounding of zero) are tried.
    let faces = [(1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2)];
    let near = FACET_SLACK * vol * vol;
    let mut best = None;
    for (&cm, &(i, j, k)) in cs.iter().zip(&faces) {
        if cm * vol <= near {
            best = closer(best, s2d(p, i, j, k));
        }
    }
    (best.unwrap_or(Sub::vertex(p, 0)), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simplex(ws: &[Vec3]) -> Simplex {
        let mut s = Simplex::new();
        for &w in ws {
            s.push(SupportPoint {
                w,
                a: w,
                b: Vec3::ZERO,
                dir: -w,
            });
        }
        s
    }

    #[test]
    fn segment_interior_and_ends() {
        let mut s = simplex(&[Vec3::new(-1.0, 1.0, 0.0), Vec3::new(3.0, 1.0, 0.0)]);
        let (v, _) = s.solve();
        let v = v.as_vec3();
        assert!((v - Vec3::Y).length() < 1e-6);
        assert_eq!(s.len(), 2);
        assert!((s.weights()[0] - 0.75).abs() < 1e-6);
        let mut s = simplex(&[Vec3::new(1.0, 1.0, 0.0), Vec3::new(3.0, 1.0, 0.0)]);
        let (v, _) = s.solve();
        let v = v.as_vec3();
        assert_eq!(v, Vec3::new(1.0, 1.0, 0.0));
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn triangle_regions() {
        // Origin projects inside: the face.
        let tri = [
            Vec3::new(-1.0, -1.0, 2.0),
            Vec3::new(2.0, -1.0, 2.0),
            Vec3::new(-1.0, 2.0, 2.0),
        ];
        let mut s = simplex(&tri);
        let (v, _) = s.solve();
        let v = v.as_vec3();
        assert!((v - Vec3::new(0.0, 0.0, 2.0)).length() < 1e-6);
        assert_eq!(s.len(), 3);
        // Shifted so the origin is beyond edge 0-1: the edge.
        let shifted: Vec<Vec3> = tri.iter().map(|p| *p + Vec3::new(0.0, 3.0, 0.0)).collect();
        let mut s = simplex(&shifted);
        let (v, _) = s.solve();
        let v = v.as_vec3();
        assert!((v - Vec3::new(0.0, 2.0, 2.0)).length() < 1e-6, "{v}");
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn tetrahedron_inside_and_outside() {
        let tet = [
            Vec3::new(-1.0, -1.0, -1.0),
            Vec3::new(3.0, -1.0, -1.0),
            Vec3::new(-1.0, 3.0, -1.0),
            Vec3::new(-1.0, -1.0, 3.0),
        ];
        let mut s = simplex(&tet);
        let (v, inside) = s.solve();
        let v = v.as_vec3();
        assert!(inside);
        assert_eq!(v, Vec3::ZERO);
        let w: f64 = s.weights().iter().sum();
        assert!((w - 1.0).abs() < 1e-6);
        let shifted: Vec<Vec3> = tet.iter().map(|p| *p + Vec3::new(0.0, 0.0, 2.0)).collect();
        let mut s = simplex(&shifted);
        let (v, inside) = s.solve();
        let v = v.as_vec3();
        assert!(!inside);
        assert!((v - Vec3::new(0.0, 0.0, 1.0)).length() < 1e-6, "{v}");
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn degenerate_simplices_do_not_fail() {
        let mut s = simplex(&[Vec3::X, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0]);
        let (v, inside) = s.solve();
        let v = v.as_vec3();
        assert!(!inside);
        assert!((v - Vec3::X).length() < 1e-6);
    }
}
