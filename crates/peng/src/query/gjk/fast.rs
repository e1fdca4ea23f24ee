//! An f32 sub-simplex solver for GJK's inner iterations.
//!
//! The same signed-volumes method as [`Simplex::solve`] (Montanari, Bartels and
//! Cazzato, "Improving the GJK algorithm for faster and more reliable distance
//! queries between convex objects", ACM TOG 2017): barycentric coordinates of
//! the origin as ratios of signed volumes, recursing only into the facets
//! opposite a non-positive weight. It runs in f32 SIMD lanes (`Vec3A`) with at
//! most one division per call and computes no weights, only the sub-simplex
//! and its closest point: the inner iterations need nothing else.
//!
//! Its answers can be off at tiny distances and on sliver simplices (f32
//! rounding of cross products; see [`Simplex::solve`]), so GJK uses it only
//! until it stops making progress or converges to f32 precision, and then
//! finishes with the f64 solver, which also gives the final weights, closest
//! points and normal.

use super::simplex::Simplex;
use crate::math::Vec3;
use glam::Vec3A;

/// Squared sine of the angle between two edges below which a triangle is
/// treated as a segment (and a tetrahedron as flat); well above the f32
/// rounding of the cross products (relative ~1e-7).
const DEGENERATE_REL: f32 = 1.0e-9;

/// Fraction of the total signed area (volume) within which a weight counts as
/// possibly negative (its facet is searched too).
const FACET_SLACK: f32 = 1.0e-6;

/// A sub-simplex (bit mask of the input vertices) and its point closest to the
/// origin.
type Sub = (u8, Vec3A);

impl Simplex {
    /// Reduces the simplex to the smallest sub-simplex holding its point closest
    /// to the origin, computed in f32, and returns that point and whether the
    /// origin is strictly inside a full tetrahedron. The weights are NOT set:
    /// call [`Simplex::solve`] before reading them.
    pub(crate) fn solve_fast(&mut self) -> (Vec3, bool) {
        let pts = self.points();
        let mut p = [Vec3A::ZERO; 4];
        for (q, s) in p.iter_mut().zip(pts) {
            *q = s.w.into();
        }
        let ((mask, v), inside) = match pts.len() {
            0 => return (Vec3::ZERO, false),
            1 => ((1, p[0]), false),
            2 => (f1d(&p, 0, 1), false),
            3 => (f2d(&p, 0, 1, 2), false),
            _ => f3d(&p),
        };
        self.keep(mask);
        (v.into(), inside)
    }
}

/// The nearer of two candidates.
#[inline]
fn nearer(x: Option<Sub>, y: Sub) -> Option<Sub> {
    match x {
        Some(x) if x.1.length_squared() <= y.1.length_squared() => Some(x),
        _ => Some(y),
    }
}

/// Closest point of segment `p[i] p[j]` to the origin. The weights of `a` and
/// `b` are `b·t` and `-a·t` over `|t|²` (`t = b − a`); they sum to `|t|²`, so a
/// non-positive one selects the other end, and a degenerate segment (both
/// zero) its first end.
#[inline]
fn f1d(p: &[Vec3A; 4], i: usize, j: usize) -> Sub {
    let (a, b) = (p[i], p[j]);
    let t = b - a;
    let la = b.dot(t);
    let lb = -a.dot(t);
    if lb <= 0.0 {
        (1 << i, a)
    } else if la <= 0.0 {
        (1 << j, b)
    } else {
        ((1 << i) | (1 << j), a + t * (lb / (la + lb)))
    }
}

/// Closest point of triangle `p[i] p[j] p[k]` to the origin.
///
/// With `n = (b−a)×(c−a)`, the origin's projection has the barycentric
/// coordinates `n·(b×c)`, `n·(c×a)`, `n·(a×b)` over `|n|²` (the projection
/// differs from the origin by a multiple of `n`, which drops out of
/// `n·(x×y)`). Written with the edges from `a` (`a×b = a×(b−a)`), two triple
/// products give two weights and the third is `|n|²` minus them.
fn f2d(p: &[Vec3A; 4], i: usize, j: usize, k: usize) -> Sub {
    let (a, b, c) = (p[i], p[j], p[k]);
    let (ab, ac) = (b - a, c - a);
    let n = ab.cross(ac);
    let nn = n.length_squared();
    let edges = [(j, k), (i, k), (i, j)];
    if nn <= DEGENERATE_REL * ab.length_squared() * ac.length_squared() || nn.is_nan() || nn == 0.0
    {
        // Collinear (or coincident) vertices: the nearest of the edges.
        let mut best = None;
        for (u, v) in edges {
            best = nearer(best, f1d(p, u, v));
        }
        return best.unwrap_or((1 << i, a));
    }
    let lc = n.dot(a.cross(ab));
    let lb = -n.dot(a.cross(ac));
    let la = nn - lb - lc;
    if la > 0.0 && lb > 0.0 && lc > 0.0 {
        return ((1 << i) | (1 << j) | (1 << k), n * (n.dot(a) / nn));
    }
    let near = FACET_SLACK * nn;
    let mut best = None;
    for (w, (u, v)) in [la, lb, lc].into_iter().zip(edges) {
        if w <= near {
            best = nearer(best, f1d(p, u, v));
        }
    }
    best.unwrap_or((1 << i, a))
}

/// Closest point of tetrahedron `p[0..4]` to the origin; `true` when the origin
/// is strictly inside. The weights are the signed volumes with one vertex
/// replaced by the origin; three are triple products on the edges from `a`,
/// the fourth is the total volume minus them.
fn f3d(p: &[Vec3A; 4]) -> (Sub, bool) {
    let [a, b, c, d] = *p;
    let (ab, ac, ad) = (b - a, c - a, d - a);
    let vol = ab.dot(ac.cross(ad));
    let e = ab
        .length_squared()
        .max(ac.length_squared())
        .max(ad.length_squared())
        .max((c - b).length_squared())
        .max((d - b).length_squared())
        .max((d - c).length_squared());
    if vol * vol <= DEGENERATE_REL * e * e * e || !vol.is_finite() {
        // Flat: the nearest of the faces.
        let mut best = None;
        for (i, j, k) in [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)] {
            best = nearer(best, f2d(p, i, j, k));
        }
        return (best.unwrap_or((1, a)), false);
    }
    let c1 = -a.dot(ac.cross(ad));
    let c2 = -ab.dot(a.cross(ad));
    let c3 = -ab.dot(ac.cross(a));
    let c0 = vol - c1 - c2 - c3;
    let cs = [c0 * vol, c1 * vol, c2 * vol, c3 * vol];
    if cs.iter().all(|&w| w > 0.0) {
        return ((0b1111, Vec3A::ZERO), true);
    }
    let near = FACET_SLACK * vol * vol;
    let mut best = None;
    for (w, (i, j, k)) in cs
        .into_iter()
        .zip([(1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2)])
    {
        if w <= near {
            best = nearer(best, f2d(p, i, j, k));
        }
    }
    (best.unwrap_or((1, a)), false)
}

#[cfg(test)]
mod tests {
    use super::super::simplex::SupportPoint;
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

    /// The f32 solver agrees with the f64 one (same sub-simplex, same point
    /// within f32 rounding) on random simplices.
    #[test]
    fn agrees_with_the_f64_solver() {
        let mut s = 0x9e37_79b9u32;
        let mut r = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s as f32 / u32::MAX as f32) * 4.0 - 2.0
        };
        let mut same = 0;
        let total = 3 * 400;
        for n in 2..=4 {
            for _ in 0..400 {
                let ws: Vec<Vec3> = (0..n).map(|_| Vec3::new(r(), r(), r())).collect();
                let (mut s32, mut s64) = (simplex(&ws), simplex(&ws));
                let (v32, in32) = s32.solve_fast();
                let (v64, in64) = s64.solve();
                assert_eq!(in32, in64, "{ws:?}");
                assert!((v32 - v64.as_vec3()).length() < 1e-4, "{ws:?} {v32} {v64}");
                if s32.points() == s64.points() {
                    same += 1;
                }
            }
        }
        // Ties aside (a vertex at equal distance), the sub-simplices match.
        assert!(same >= total - 5, "{same} of {total}");
    }

    #[test]
    fn regions_and_degenerate_input() {
        let mut s = simplex(&[Vec3::new(-1.0, 1.0, 0.0), Vec3::new(3.0, 1.0, 0.0)]);
        let (v, _) = s.solve_fast();
        assert!((v - Vec3::Y).length() < 1e-6);
        assert_eq!(s.len(), 2);
        let tet = [
            Vec3::new(-1.0, -1.0, -1.0),
            Vec3::new(3.0, -1.0, -1.0),
            Vec3::new(-1.0, 3.0, -1.0),
            Vec3::new(-1.0, -1.0, 3.0),
        ];
        let mut s = simplex(&tet);
        assert_eq!(s.solve_fast(), (Vec3::ZERO, true));
        let up: Vec<Vec3> = tet.iter().map(|p| *p + Vec3::Z * 2.0).collect();
        let mut s = simplex(&up);
        let (v, inside) = s.solve_fast();
        assert!(!inside && (v - Vec3::Z).length() < 1e-6, "{v}");
        assert_eq!(s.len(), 3);
        let mut s = simplex(&[Vec3::X, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0]);
        let (v, inside) = s.solve_fast();
        assert!(!inside && (v - Vec3::X).length() < 1e-6);
        let mut s = simplex(&[Vec3::new(f32::NAN, 0.0, 0.0), Vec3::X, Vec3::Y, Vec3::Z]);
        let _ = s.solve_fast();
    }
}
