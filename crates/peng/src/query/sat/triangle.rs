//! The separating-axis test between a triangle and a solid polytope, with
//! the edge pairs chosen on the Gauss map as for two solids.
//!
//! A triangle with unit normal `n` is flat: its Gauss map is the two points
//! `±n` (its faces) and, for each edge, the half great circle from `n`
//! through the edge's outward normal `m` (in the triangle's plane) to `-n`
//! (the directions along which that edge supports the triangle). An edge pair
//! builds a face of the Minkowski difference `T - S`, and so needs testing,
//! only when that half circle crosses the arc of the solid's edge on the
//! negated Gauss map of `S` (Gregorius, "The Separating Axis Test between
//! Convex Polyhedra", GDC 2013). That test costs a few products per pair,
//! where a projection test costs four support scans; on a mesh floor under
//! convex hulls it was most of the step. Before any of it, a convex
//! polyhedron's bounding ball rejects the triangles clearly beside it.

use super::polytope::Polytope;
use super::prepared::{HullView, Mapped, Prepared, SolidView};
use super::separation::{prefer, SatAxis, SatResult, SKIP_MARGIN};
use crate::math::Vec3;

/// Faces of the solid whose products with the triangle's vertices are kept
/// on the stack (larger solids recompute the rest).
const TABLE: usize = 64;

/// A triangle in the solid's frame: its vertices and unit normal (face `0`
/// is `+normal`, face `1` is `-normal`, edge `k` joins vertices `k` and
/// `k + 1`, as for the triangle polytope).
#[derive(Debug, Clone, Copy)]
pub(super) struct FlatTriangle {
    /// The vertices.
    pub v: [Vec3; 3],
    /// The unit normal.
    pub n: Vec3,
}

impl FlatTriangle {
    /// Edge `k` as the vector from vertex `k` to vertex `k + 1`. (Arrays
    /// written out here and below: `array::map`'s closures were left as
    /// calls, about 1 % of the convex pile's instructions.)
    #[inline]
    fn edges(&self) -> [Vec3; 3] {
        let v = &self.v;
        [v[1] - v[0], v[2] - v[1], v[0] - v[2]]
    }

    /// Each edge's normal in the triangle's plane, pointing away from the
    /// centroid (not normalised; zero for a zero-length edge).
    #[inline]
    fn outward_normals(&self) -> [Vec3; 3] {
        let centre = (self.v[0] + self.v[1] + self.v[2]) / 3.0;
        let edges = self.edges();
        let outward = |k: usize| {
            let m = edges[k].cross(self.n);
            if m.dot(centre - self.v[k]) > 0.0 {
                -m
            } else {
                m
            }
        };
        [outward(0), outward(1), outward(2)]
    }
}

/// [`sat_triangle_solid`] through the fastest view of the solid `s` in its
/// own frame: a convex polyhedron's cached data, a small solid's stack copy,
/// or the solid mapped on access. With `reject`, `None` when a convex
/// polyhedron's bounding ball (about its vertex mean) is already farther
/// than `cutoff` from the triangle's plane or beyond one of its edges: under
/// a polyhedron lying on a mesh, most of the triangles its box overlaps.
pub(super) fn triangle_solid<S: Polytope>(
    tri: &FlatTriangle,
    s: &S,
    tri_is_a: bool,
    tol: f32,
    cutoff: f32,
    reject: bool,
) -> Option<SatResult> {
    // The edges' outward normals serve both the ball reject and the test.
    let m = tri.outward_normals();
    if let Some(h) = s.hull() {
        if reject && ball_clear_of(tri, &m, h.vertex_mean(), h.vertex_radius(), cutoff) {
            return None;
        }
        let view = HullView::new(h);
        return Some(sat_triangle_solid(tri, &m, &view, tri_is_a, tol, cutoff));
    }
    let mut p = Prepared::default();
    if s.prepare(None, &mut p) {
        return Some(sat_triangle_solid(tri, &m, &p, tri_is_a, tol, cutoff));
    }
    let view = Mapped::new(s, None);
    Some(sat_triangle_solid(tri, &m, &view, tri_is_a, tol, cutoff))
}

/// Whether the ball of centre `c` and radius `r` is separated from the
/// triangle by more than `cutoff` along the triangle's normal or along one of
/// its edges' outward normals `m` in its plane (the triangle's extent along
/// that normal ends at the edge). Any axis bounds the distance from below, so
/// `true` means every shape inside the ball is that far.
fn ball_clear_of(tri: &FlatTriangle, m: &[Vec3; 3], c: Vec3, r: f32, cutoff: f32) -> bool {
    let reach = r + cutoff;
    if tri.n.dot(c - tri.v[0]).abs() > reach {
        return true;
    }
    (0..3).any(|k| {
        let len = m[k].length();
        len > 0.0 && m[k].dot(c - tri.v[k]) > reach * len
    })
}

/// The separating-axis test of `tri` (with its edges' outward normals `m`)
/// and the solid `s` (both in the solid's frame), with the axes labelled and the normal oriented for the pair
/// (A, B) = (triangle, solid) when `tri_is_a`, else (solid, triangle): the
/// normal points from A to B, in the solid's frame. Returns early with any
/// axis separating by more than `cutoff`; ties go as in the general test
/// (A's face over B's, a face over an edge pair unless the pair separates by
/// more than `tol`, the lower edge pair on exact ties).
fn sat_triangle_solid<S: SolidView>(
    tri: &FlatTriangle,
    m: &[Vec3; 3],
    s: &S,
    tri_is_a: bool,
    tol: f32,
    cutoff: f32,
) -> SatResult {
    // Normals are computed from the triangle to the solid; from A to B they
    // flip when the solid is A.
    let flip = if tri_is_a { 1.0 } else { -1.0 };
    let make = |axis, separation, n: Vec3| SatResult {
        axis,
        separation,
        normal: n * flip,
    };
    let label = |of_tri: bool, f: usize| {
        if of_tri == tri_is_a {
            SatAxis::FaceA(f)
        } else {
            SatAxis::FaceB(f)
        }
    };

    // The triangle's faces: the solid's deepest point below each plane.
    let mut face_t: Option<SatResult> = None;
    for (f, n) in [(0, tri.n), (1, -tri.n)] {
        let sep = s.min_dot(n) - n.dot(tri.v[0]);
        if face_t.is_none_or(|r| sep > r.separation) {
            let r = make(label(true, f), sep, n);
            if sep > cutoff {
                return r;
            }
            face_t = Some(r);
        }
    }
    // The solid's faces: the triangle's deepest vertex below each plane,
    // keeping each face normal's products with the three vertices (their
    // differences are the products with the edges, which the arc test
    // below needs).
    let mut rows = [[0.0f32; 3]; TABLE];
    let mut face_s: Option<SatResult> = None;
    for f in 0..s.face_count() {
        let (n, d) = s.plane(f);
        let row = [n.dot(tri.v[0]), n.dot(tri.v[1]), n.dot(tri.v[2])];
        if let Some(r) = rows.get_mut(f) {
            *r = row;
        }
        let sep = row[0].min(row[1]).min(row[2]) - d;
        if face_s.is_none_or(|r| sep > r.separation) {
            let r = make(label(false, f), sep, -n);
            if sep > cutoff {
                return r;
            }
            face_s = Some(r);
        }
    }
    let best_face = if tri_is_a {
        prefer(face_t, face_s, tol)
    } else {
        prefer(face_s, face_t, tol)
    };
    let row = |f: usize| match rows.get(f) {
        Some(r) => *r,
        None => tri.v.map(|v| s.plane(f).0.dot(v)),
    };

    // Edge pairs whose Gauss-map arcs cross. Triangle edge `k` runs from
    // vertex `k` to `k + 1`, with `m[k]` its outward normal in the plane.
    let edges = tri.edges();
    let mut best_edge: Option<(f32, (usize, usize), Vec3)> = None;
    let face_bar = best_face.map_or(f32::NEG_INFINITY, |r| r.separation);
    let margin = SKIP_MARGIN * tol;
    for j in 0..s.edge_count() {
        let [v0, v1, f0, f1] = s.edge(j);
        let (r0, r1) = (row(f0), row(f1));
        // Every axis of a pair with edge `j` is `-(w0 c0 + w1 c1)`
        // normalised (`w0 + w1 = 1`, both at least 0); along it the pair
        // separates by at most `n·(v0 - p)` for any triangle vertex `p` (the
        // edge supports the solid, the vertex bounds the triangle's extent),
        // which is `(w0 a0 + w1 a1) / |w0 c0 + w1 c1|` with `a = c·p - d`
        // the vertex's height over each face plane (`v0` lies on both). So
        // when some vertex lies below both planes, the pairs separate by at
        // most the least over the vertices of the larger height (normalising
        // only lowers a negative value): below the best face by the margin,
        // none can win, nor pass the cutoff (which the face does not).
        // Only the offsets here; the normals are read again for the few
        // crossing pairs below (reading both planes here for every edge cost
        // 4 % more instructions on hulls over a mesh floor).
        let (d0, d1) = (s.plane(f0).1, s.plane(f1).1);
        let below = (0..3)
            .map(|i| (r0[i] - d0).max(r1[i] - d1))
            .fold(f32::INFINITY, f32::min);
        if below <= 0.0 && below + margin < face_bar {
            continue;
        }
        for k in 0..3 {
            // The solid's arc on the negated Gauss map runs from `-c0` to
            // `-c1` (`c0`, `c1` the normals of faces `f0`, `f1`); the
            // triangle's half circle lies in the plane `e·x = 0` on the side
            // `m·x > 0`. The arc meets the plane when its ends lie on
            // opposite sides, `g0 g1 < 0` with `g = e·(-c)` (from the
            // table: `c·v_k - c·v_(k+1)`), at `x = g0 (-c1) - g1 (-c0)` up
            // to sign, the sign taken so that both weights are positive (`x`
            // on the short arc).
            let k1 = (k + 1) % 3;
            let (g0, g1) = (r0[k] - r0[k1], r1[k] - r1[k1]);
            if g0 * g1 >= 0.0 {
                continue;
            }
            let (c0, c1) = (s.plane(f0).0, s.plane(f1).0);
            let x = (c0 * g1 - c1 * g0) * g0.signum();
            if m[k].dot(x) <= 0.0 {
                continue;
            }
            let (p, e) = (tri.v[k], edges[k]);
            let ps = s.vertex(v0);
            let ds = s.vertex(v1) - ps;
            let axis = e.cross(ds);
            let len2 = axis.length_squared();
            // Parallel edges give no axis (as for two solids).
            if len2 <= 1e-6 * e.length_squared() * ds.length_squared() || len2 == 0.0 {
                continue;
            }
            let l = axis / len2.sqrt();
            // Along `x` the triangle's support is edge `k` and the solid's
            // least point is on edge `j`.
            let n = if l.dot(x) < 0.0 { -l } else { l };
            let sep = n.dot(ps - p);
            let pair = if tri_is_a { (k, j) } else { (j, k) };
            if best_edge.is_none_or(|(bs, bp, _)| sep > bs || (sep == bs && pair < bp)) {
                best_edge = Some((sep, pair, n));
                if sep > cutoff {
                    return make(SatAxis::Edges(pair.0, pair.1), sep, n);
                }
            }
        }
    }
    let best_edge = best_edge.map(|(sep, (ia, ib), n)| make(SatAxis::Edges(ia, ib), sep, n));
    // The triangle's faces always give an axis.
    prefer(best_face, best_edge, tol).unwrap_or(make(label(true, 0), f32::NAN, tri.n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance from `c` to the triangle: to its projection on the plane
    /// when that lies inside, else to the nearest edge.
    fn distance(v: &[Vec3; 3], n: Vec3, c: Vec3) -> f32 {
        let q = c - n * n.dot(c - v[0]);
        let inside = (0..3).all(|k| (v[(k + 1) % 3] - v[k]).cross(q - v[k]).dot(n) >= 0.0);
        if inside {
            return (c - q).length();
        }
        (0..3)
            .map(|k| {
                let (p, e) = (v[k], v[(k + 1) % 3] - v[k]);
                let t = ((c - p).dot(e) / e.length_squared()).clamp(0.0, 1.0);
                (c - (p + e * t)).length()
            })
            .fold(f32::INFINITY, f32::min)
    }

    #[test]
    fn a_ball_clear_of_a_triangle_is_farther_than_the_cutoff() {
        // Random triangles and balls: whenever the cheap test rejects, the
        // exact distance from the centre to the triangle exceeds the radius
        // plus the cutoff; and it does reject balls well beside the triangle.
        let mut seed = 0x9e37_79b9_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32 * 4.0 - 2.0
        };
        let mut rejected = 0;
        for _ in 0..2000 {
            let mut p = || Vec3::new(next(), next(), next());
            let v = [p(), p(), p()];
            let Some(n) = (v[1] - v[0]).cross(v[2] - v[0]).try_normalize() else {
                continue;
            };
            let tri = FlatTriangle { v, n };
            let c = p() * 1.5;
            let (r, cutoff) = (next().abs() * 0.5, next().abs() * 0.05);
            if ball_clear_of(&tri, &tri.outward_normals(), c, r, cutoff) {
                rejected += 1;
                assert!(distance(&v, n, c) > r + cutoff - 1e-5, "{v:?} {c} {r}");
            }
        }
        assert!(rejected > 500, "only {rejected} rejected");
    }
}
