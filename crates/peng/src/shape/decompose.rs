//! Convex decomposition of simple polygons: ear-clipping triangulation, then
//! Hertel–Mehlhorn merging of triangles into convex pieces.
//!
//! # Method
//! 1. **Clean** the outline: drop repeated consecutive vertices and vertices where
//!    the outline goes straight on (collinear within rounding). Orient it
//!    counter-clockwise. Reject fewer than three vertices, NaN, zero area, and
//!    self-intersecting outlines (an `O(n²)` test of every pair of non-adjacent
//!    edges, with exact touching counted as intersecting).
//! 2. **Triangulate** by ear clipping (Meisters' two-ears theorem; the
//!    `O(n²)` bookkeeping of Eberly, "Triangulation by Ear Clipping", 2002): a
//!    vertex is an ear when it is convex and no other remaining vertex lies in the
//!    closed triangle it forms with its neighbours; clipping it leaves a simple
//!    polygon, and only the neighbours' ear status changes.
//! 3. **Merge** (Hertel and Mehlhorn, 1983): walk the diagonals of the
//!    triangulation once and remove each one whose removal keeps both merged
//!    angles at most 180°. Every diagonal left is essential, which bounds the
//!    pieces by `2r + 1` for `r` reflex vertices, at most four times the minimum
//!    (any decomposition needs `⌈r/2⌉ + 1` pieces: each reflex vertex must be
//!    cut, and one cut resolves at most two).
//!
//! Orientation tests run in f64 on the f32 input: the differences and products
//! of f32 coordinates are then (nearly always) exact, so touching and crossing
//! are decided on the input as given. "Collinear" uses a tolerance of a few f32
//! ulps of the coordinate magnitude, since f32 input rarely puts a midpoint
//! exactly on its edge.

use crate::math::policy::GeometryError;
use crate::math::Vec2;
use std::collections::HashMap;

/// Triangulates a simple polygon (either orientation; repeated consecutive and
/// collinear vertices allowed) by ear clipping. Returns triangles as indices into
/// `polygon`, each counter-clockwise; collinear and repeated vertices may be
/// left out (they add no area).
///
/// Errors: fewer than three points ([`GeometryError::TooFew`]), non-finite points
/// ([`GeometryError::NonFinite`]), zero area or self-intersection
/// ([`GeometryError::Degenerate`]).
pub fn triangulate(polygon: &[Vec2]) -> Result<Vec<[usize; 3]>, GeometryError> {
    let ring = Ring::new(polygon)?;
    Ok(ring.ear_clip())
}

/// Splits a simple polygon (either orientation, non-convex allowed) into convex
/// pieces, each counter-clockwise and strictly convex, whose vertices are
/// vertices of `polygon` and whose union is the polygon: ear clipping, then
/// Hertel–Mehlhorn merging (see the module docs). At most `2r + 1` pieces for
/// `r` reflex vertices; a convex input gives one piece, an L shape two.
///
/// Errors as for [`triangulate`].
pub fn convex_decomposition(polygon: &[Vec2]) -> Result<Vec<Vec<Vec2>>, GeometryError> {
    Ok(convex_decomposition_indices(polygon)?
        .into_iter()
        .map(|piece| piece.into_iter().map(|i| polygon[i]).collect())
        .collect())
}

/// Like [`convex_decomposition`], with pieces as indices into `polygon`.
pub fn convex_decomposition_indices(polygon: &[Vec2]) -> Result<Vec<Vec<usize>>, GeometryError> {
    let ring = Ring::new(polygon)?;
    let tris = ring.ear_clip();
    Ok(merge_convex(&ring, &tris))
}

/// The cleaned outline: indices into the input, counter-clockwise.
struct Ring<'a> {
    pts: &'a [Vec2],
    idx: Vec<usize>,
    /// Absolute tolerance factor for collinearity: `COLLINEAR_ULPS · ε_f32 · M`
    /// with `M` the largest coordinate magnitude.
    tol: f64,
}

const COLLINEAR_ULPS: f64 = 8.0;

/// Twice the signed area of `(a, b, c)`: positive for a left turn.
#[inline]
fn orient(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let (ax, ay) = (a.x as f64, a.y as f64);
    (b.x as f64 - ax) * (c.y as f64 - ay) - (b.y as f64 - ay) * (c.x as f64 - ax)
}

fn degenerate(why: &'static str) -> GeometryError {
    GeometryError::Degenerate {
        what: "simple polygon",
        why,
    }
}

impl<'a> Ring<'a> {
    fn new(pts: &'a [Vec2]) -> Result<Self, GeometryError> {
        if pts.len() < 3 {
            return Err(GeometryError::TooFew {
                what: "simple polygon",
                needed: 3,
                got: pts.len(),
            });
        }
        crate::math::policy::check_points("polygon vertex", pts)?;
        let scale = pts.iter().fold(0.0f32, |m, p| m.max(p.abs().max_element())) as f64;
        let mut ring = Ring {
            pts,
            idx: (0..pts.len()).collect(),
            tol: COLLINEAR_ULPS * f32::EPSILON as f64 * scale,
        };
        ring.drop_straight_vertices();
        if ring.idx.len() < 3 {
            return Err(degenerate(
                "zero area (all vertices coincident or collinear)",
            ));
        }
        let area2: f64 = (0..ring.idx.len())
            .map(|k| {
                let (a, b) = (ring.p(k), ring.p((k + 1) % ring.idx.len()));
                a.x as f64 * b.y as f64 - b.x as f64 * a.y as f64
            })
            .sum();
        if area2 == 0.0 {
            return Err(degenerate("zero area"));
        }
        if area2 < 0.0 {
            ring.idx.reverse();
        }
        ring.check_simple()?;
        Ok(ring)
    }

    #[inline]
    fn p(&self, k: usize) -> Vec2 {
        self.pts[self.idx[k]]
    }

    /// Whether `b` is straight between `a` and `c` (repeated, or collinear within
    /// the rounding tolerance, relative to the edge lengths).
    fn is_straight(&self, a: Vec2, b: Vec2, c: Vec2) -> bool {
        let reach = ((b - a).length() + (c - b).length()) as f64;
        orient(a, b, c).abs() <= self.tol * reach
    }

    /// Removes repeated vertices and vertices where the outline runs straight on
    /// (or doubles back along itself, a zero-width spike), until none is left.
    /// A removal can make a neighbour straight, so neighbours are re-examined
    /// (a work list over a doubly linked ring).
    fn drop_straight_vertices(&mut self) {
        let n = self.idx.len();
        let mut prev: Vec<usize> = (0..n).map(|k| (k + n - 1) % n).collect();
        let mut next: Vec<usize> = (0..n).map(|k| (k + 1) % n).collect();
        let mut alive = vec![true; n];
        let mut count = n;
        let mut work: Vec<usize> = (0..n).rev().collect();
        while let Some(k) = work.pop() {
            if !alive[k] || count < 3 {
                continue;
            }
            let (a, c) = (prev[k], next[k]);
            let (pa, pk, pc) = (self.p(a), self.p(k), self.p(c));
            if pk == pa || self.is_straight(pa, pk, pc) {
                alive[k] = false;
                count -= 1;
                next[a] = c;
                prev[c] = a;
                work.push(c);
                work.push(a);
            }
        }
        self.idx = (0..n).filter(|&k| alive[k]).map(|k| self.idx[k]).collect();
    }

    /// Rejects outlines in which two non-adjacent edges share a point (crossing
    /// or touching), i.e. outlines that are not simple.
    fn check_simple(&self) -> Result<(), GeometryError> {
        let n = self.idx.len();
        for i in 0..n {
            let (a, b) = (self.p(i), self.p((i + 1) % n));
            // Edges i and i+1, and edges n-1 and 0, are adjacent.
            for j in (i + 2)..n {
                if i == 0 && j == n - 1 {
                    continue;
                }
                let (c, d) = (self.p(j), self.p((j + 1) % n));
                if segments_touch(a, b, c, d) {
                    return Err(degenerate("edges intersect (the polygon is not simple)"));
                }
            }
        }
        Ok(())
    }

    /// Ear clipping on the cleaned, counter-clockwise ring.
    fn ear_clip(&self) -> Vec<[usize; 3]> {
        let n = self.idx.len();
        let mut prev: Vec<usize> = (0..n).map(|k| (k + n - 1) % n).collect();
        let mut next: Vec<usize> = (0..n).map(|k| (k + 1) % n).collect();
        let mut alive = vec![true; n];
        let mut ear: Vec<bool> = (0..n)
            .map(|k| self.is_ear(k, prev[k], next[k], &alive, &next, true))
            .collect();
        let mut tris = Vec::with_capacity(n.saturating_sub(2));
        let mut remaining = n;
        let mut cur = 0;
        while remaining > 3 {
            // Walk to the next ear; the two-ears theorem says there is one. If
            // rounding hides every ear, accept vertices on the triangle's
            // boundary, and as a last resort clip the most convex vertex.
            let mut k = cur;
            let mut found = false;
            for _ in 0..remaining {
                if ear[k] {
                    found = true;
                    break;
                }
                k = next[k];
            }
            if !found {
                k = cur;
                for _ in 0..remaining {
                    if self.is_ear(k, prev[k], next[k], &alive, &next, false) {
                        found = true;
                        break;
                    }
                    k = next[k];
                }
            }
            if !found {
                k = self.most_convex(cur, remaining, &next, &prev);
            }
            let (a, c) = (prev[k], next[k]);
            if !self.is_straight(self.p(a), self.p(k), self.p(c)) {
                tris.push([self.idx[a], self.idx[k], self.idx[c]]);
            }
            alive[k] = false;
            next[a] = c;
            prev[c] = a;
            remaining -= 1;
            ear[a] = self.is_ear(a, prev[a], next[a], &alive, &next, true);
            ear[c] = self.is_ear(c, prev[c], next[c], &alive, &next, true);
            cur = c;
        }
        let (a, c) = (prev[cur], next[cur]);
        if orient(self.p(a), self.p(cur), self.p(c)) > 0.0 {
            tris.push([self.idx[a], self.idx[cur], self.idx[c]]);
        }
        tris
    }

    /// Whether ring vertex `k` (neighbours `a`, `c`) is an ear: a straight vertex
    /// (removed without a triangle), or a strictly convex one whose closed
    /// triangle holds no other remaining vertex. (A vertex in the triangle would
    /// force the rest of the outline across the diagonal `ac`, so this is
    /// Meisters' ear with a proper diagonal.) With `closed == false`, vertices on
    /// the triangle's boundary do not count (the numerical fallback).
    fn is_ear(
        &self,
        k: usize,
        a: usize,
        c: usize,
        alive: &[bool],
        next: &[usize],
        closed: bool,
    ) -> bool {
        let (pa, pk, pc) = (self.p(a), self.p(k), self.p(c));
        if self.is_straight(pa, pk, pc) {
            return true;
        }
        if orient(pa, pk, pc) <= 0.0 {
            return false;
        }
        let mut w = next[c];
        while w != a {
            debug_assert!(alive[w]);
            let pw = self.p(w);
            let o = [orient(pa, pk, pw), orient(pk, pc, pw), orient(pc, pa, pw)];
            let inside = if closed {
                o.iter().all(|&x| x >= 0.0)
            } else {
                o.iter().all(|&x| x > 0.0)
            };
            if inside && pw != pa && pw != pc {
                return false;
            }
            w = next[w];
        }
        true
    }

    /// The remaining vertex with the largest left turn (numerical fallback).
    fn most_convex(&self, start: usize, remaining: usize, next: &[usize], prev: &[usize]) -> usize {
        let mut best = start;
        let mut best_o = f64::NEG_INFINITY;
        let mut k = start;
        for _ in 0..remaining {
            let o = orient(self.p(prev[k]), self.p(k), self.p(next[k]));
            if o > best_o {
                best_o = o;
                best = k;
            }
            k = next[k];
        }
        best
    }
}

/// Whether the closed segments `ab` and `cd` share a point (Ericson, Real-Time
/// Collision Detection, 5.1.9.1: the endpoints of each lie on different sides of
/// the other, or an endpoint lies on the other segment).
fn segments_touch(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0))
        && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))
    {
        return true;
    }
    let on = |p: Vec2, q: Vec2, r: Vec2, o: f64| {
        o == 0.0
            && r.x >= p.x.min(q.x)
            && r.x <= p.x.max(q.x)
            && r.y >= p.y.min(q.y)
            && r.y <= p.y.max(q.y)
    };
    on(a, b, c, o1) || on(a, b, d, o2) || on(c, d, a, o3) || on(c, d, b, o4)
}

/// Hertel–Mehlhorn: merge triangles across every inessential diagonal, then drop
/// straight vertices from the pieces.
fn merge_convex(ring: &Ring<'_>, tris: &[[usize; 3]]) -> Vec<Vec<usize>> {
    let pts = ring.pts;
    let mut pieces: Vec<Vec<usize>> = tris.iter().map(|t| t.to_vec()).collect();
    let mut owner: HashMap<(usize, usize), usize> = HashMap::new();
    for (t, tri) in tris.iter().enumerate() {
        for k in 0..3 {
            owner.insert((tri[k], tri[(k + 1) % 3]), t);
        }
    }
    // Diagonals in a fixed order (triangle order), each once.
    let mut diagonals = Vec::new();
    for tri in tris {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            if a < b && owner.contains_key(&(b, a)) {
                diagonals.push((a, b));
            }
        }
    }
    for (a, b) in diagonals {
        let (Some(&p), Some(&q)) = (owner.get(&(a, b)), owner.get(&(b, a))) else {
            continue;
        };
        if p == q {
            continue;
        }
        let pp = &pieces[p];
        let qq = &pieces[q];
        let pos = |v: &Vec<usize>, x: usize| v.iter().position(|&y| y == x);
        let (Some(pa), Some(pb), Some(qa), Some(qb)) =
            (pos(pp, a), pos(pp, b), pos(qq, a), pos(qq, b))
        else {
            continue;
        };
        let (np, nq) = (pp.len(), qq.len());
        // p holds a → b, q holds b → a. Merged angle at a: p's predecessor of a,
        // a, q's successor of a; at b: q's predecessor of b, b, p's successor of b.
        let pred_p_a = pp[(pa + np - 1) % np];
        let succ_q_a = qq[(qa + 1) % nq];
        let pred_q_b = qq[(qb + nq - 1) % nq];
        let succ_p_b = pp[(pb + 1) % np];
        let convex_a = orient(pts[pred_p_a], pts[a], pts[succ_q_a]) >= 0.0;
        let convex_b = orient(pts[pred_q_b], pts[b], pts[succ_p_b]) >= 0.0;
        if !(convex_a && convex_b) {
            continue;
        }
        // Merged ring: p from b around to a, then q strictly between a and b.
        let mut merged: Vec<usize> = (0..np).map(|k| pp[(pb + k) % np]).collect();
        debug_assert_eq!(merged.last(), Some(&a));
        merged.extend((1..nq - 1).map(|k| qq[(qa + k) % nq]));
        owner.remove(&(a, b));
        owner.remove(&(b, a));
        let m = merged.len();
        for k in 0..m {
            owner.insert((merged[k], merged[(k + 1) % m]), p);
        }
        pieces[p] = merged;
        pieces[q] = Vec::new();
    }
    pieces
        .into_iter()
        .filter(|piece| !piece.is_empty())
        .map(|piece| {
            let m = piece.len();
            let kept: Vec<usize> = (0..m)
                .filter(|&k| {
                    let (a, b, c) = (piece[(k + m - 1) % m], piece[k], piece[(k + 1) % m]);
                    orient(pts[a], pts[b], pts[c]) > 0.0
                })
                .map(|k| piece[k])
                .collect();
            if kept.len() >= 3 {
                kept
            } else {
                piece
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_touch_cases() {
        let v = |x: f32, y: f32| Vec2::new(x, y);
        assert!(segments_touch(v(0., 0.), v(2., 2.), v(0., 2.), v(2., 0.)));
        assert!(!segments_touch(v(0., 0.), v(1., 0.), v(0., 1.), v(1., 1.)));
        // T-junction and endpoint contact count.
        assert!(segments_touch(v(0., 0.), v(2., 0.), v(1., 0.), v(1., 1.)));
        assert!(segments_touch(v(0., 0.), v(2., 0.), v(2., 0.), v(3., 1.)));
        // Collinear: overlapping or disjoint.
        assert!(segments_touch(v(0., 0.), v(2., 0.), v(1., 0.), v(3., 0.)));
        assert!(!segments_touch(v(0., 0.), v(1., 0.), v(2., 0.), v(3., 0.)));
    }

    #[test]
    fn square_is_two_triangles_one_piece() {
        let sq = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
        ];
        assert_eq!(triangulate(&sq).unwrap().len(), 2);
        let pieces = convex_decomposition_indices(&sq).unwrap();
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0].len(), 4);
    }
}
