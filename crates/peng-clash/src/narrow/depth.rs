//! The depth of a hard clash to within a few per cent, by branch and bound.
//!
//! The depth is the largest distance `d(p)` from a point `p` of X's surface
//! inside Y to Y's surface (X, Y: the two elements either way round). The
//! probes of [`super::probe`] give a lower bound at chosen points; the
//! deepest point can lie inside a face, away from every probe. This search
//! keeps pieces of X's triangles in a queue ordered by an upper bound of `d`
//! over the piece, and splits the piece of largest bound until no piece can
//! beat the deepest point found by more than [`REL`] (or all lie within the
//! touching tolerance). The bounds, for a piece `τ` with corners `v`:
//! - distance to the surface is 1-Lipschitz: `d(p) ≤ d(c) + |p - c|` for the
//!   piece's centroid `c`;
//! - for any triangle `T` of Y, `d(p) ≤ dist(p, T)`, which is convex in `p`, so
//!   its maximum over `τ` is at a corner: `max d ≤ min_T max_v dist(v, T)`,
//!   taken over the triangles nearest to the corners and the centroid (and
//!   over their union when they make one convex polygon, as the two halves of
//!   a rectangle do: a face sunk parallel into another gets its exact depth);
//! - inside a box containing Y, `d(p)` is at most the distance to the box's
//!   faces, whose maximum over `τ` is also at a corner, and at most half the
//!   box's least side (for pieces not yet measured).
//!
//! A piece that crosses Y's surface only where Y's triangles lie in a few
//! planes is cut by those planes; each cell lies wholly inside or outside Y,
//! and the outside cells are dropped. A face that runs into Y through its
//! flat faces (a wall standing in a slab, a box sunk into another's corner)
//! is thus measured exactly, without splitting along the lines where it
//! enters.
//!
//! Work is limited to [`MAX_EVALUATIONS`] pieces measured per pair; when the
//! limit is reached the upper bound is returned with the deepest point found.
//!
//! Into a convex element (a box, a bar, a mitred member: at most 16 face
//! planes) no search is needed: [`super::convex_depth`] gives the depth
//! exactly.

use super::convex_depth::{convex_planes, deepest_in_convex};
use super::frame::PairFrame;
use super::probe::Probe;
use super::tri64::{coplanar_convex_union, point_triangle_distance, unit_normal};
use crate::clash::ClashKind;
use crate::element::Element;
use glam::{DVec3, Vec3};
use peng::bound::Aabb3;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// The search stops when no piece can be deeper than `(1 + REL)` times the
/// deepest point found: the depth reported is within 4 % of the true depth.
pub(crate) const REL: f32 = 0.04;

/// Depths closer than this (metres) count as equal.
const ABS: f32 = 1e-5;

/// A piece is cut by at most this many of Y's planes (else it is split).
const MAX_PLANES: usize = 6;

/// Pieces measured (four closest-point queries each) per pair at most.
const MAX_EVALUATIONS: usize = 4096;

/// The outcome: the deepest point found, and an upper bound of the true depth.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Depth {
    /// The deepest point found (on A, on B, in A's frame), if any lies inside.
    pub best: Option<Probe>,
    /// No point of either surface lies deeper than this inside the other.
    pub upper: f32,
    /// The work limit cut the search short: the true depth may be anywhere
    /// up to `upper` (else it is within `REL` of the best, or at most the
    /// tolerance).
    pub cut_short: bool,
}

/// Refines `seed` (the probes' deepest point) to the depth of `pair`, looking
/// at A's surface inside B when `sides[0]` and B's inside A when `sides[1]`.
/// Depths at most `tolerance` need not be told apart: the search also stops
/// when every piece is bounded by it. Both elements should be closed: an open
/// one's inside is only the winding number's guess.
pub(crate) fn refine(
    pair: &PairFrame,
    seed: Option<Probe>,
    tolerance: f32,
    sides: [bool; 2],
) -> Depth {
    let t = pair.pose_b.translation;
    let views = [
        View {
            x: pair.a,
            x_off: Vec3::ZERO,
            y: pair.b,
            y_off: t,
        },
        View {
            x: pair.b,
            x_off: t,
            y: pair.a,
            y_off: Vec3::ZERO,
        },
    ];
    let mut search = Search {
        views,
        heap: BinaryHeap::new(),
        best: seed,
        kind: seed.map_or(ClashKind::Protrusion, |s| s.kind),
        tolerance,
        evaluations: 0,
        nearest: HashMap::new(),
    };
    for (side, _) in sides.iter().enumerate().filter(|(_, on)| **on) {
        // Into a convex element the depth is exact at once; else searched.
        if !search.convex(side) {
            search.seed(side);
        }
    }
    search.run()
}

/// One way round: X's surface inside Y, both placed in A's frame.
struct View<'a> {
    x: &'a Element,
    x_off: Vec3,
    y: &'a Element,
    y_off: Vec3,
}

impl View<'_> {
    fn near(&self, p: Vec3) -> Near {
        let r = self.y.mesh().project_local_point(p - self.y_off);
        Near {
            dist: r.distance,
            tri: r.triangle,
            foot: r.point + self.y_off,
        }
    }

    fn inside(&self, p: Vec3) -> bool {
        self.y.contains_local_point(p - self.y_off)
    }

    fn y_triangle(&self, j: u32) -> [DVec3; 3] {
        self.y
            .mesh()
            .triangle(j)
            .map(|v| (v + self.y_off).as_dvec3())
    }

    /// A tolerance for "in the plane", from the size of Y.
    fn eps(&self) -> f64 {
        let b = self.y.mesh().local_aabb();
        1e-6 * f64::from((b.max - b.min).max_element().max(1.0))
    }
}

/// The nearest point of Y's surface to a point.
#[derive(Debug, Clone, Copy)]
struct Near {
    dist: f32,
    tri: u32,
    foot: Vec3,
}

/// A piece of one of X's triangles, with an upper bound of `d` over it.
struct Piece {
    upper: f32,
    side: usize,
    corners: [Vec3; 3],
    /// Known to lie wholly inside Y (else it may cross Y's surface).
    inside: bool,
    /// Its bound comes from measuring it (else it is its parent's).
    measured: bool,
}

impl PartialEq for Piece {
    fn eq(&self, o: &Self) -> bool {
        self.upper.total_cmp(&o.upper) == Ordering::Equal
    }
}
impl Eq for Piece {}
impl PartialOrd for Piece {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Piece {
    fn cmp(&self, o: &Self) -> Ordering {
        self.upper.total_cmp(&o.upper)
    }
}

/// How Y's surface meets a piece.
enum Meeting {
    /// Only in a few planes (a unit normal and a point of each), and where
    /// `touching`, in faces lying in the piece's own plane.
    Cells {
        planes: Vec<(DVec3, DVec3)>,
        touching: bool,
    },
    /// Otherwise.
    Complex,
}

struct Search<'a> {
    views: [View<'a>; 2],
    heap: BinaryHeap<Piece>,
    best: Option<Probe>,
    kind: ClashKind,
    tolerance: f32,
    evaluations: usize,
    /// The nearest points of Y's surface met so far, by side and point (a
    /// split's children share their corners with it and with each other:
    /// seven new points a split, where its four children have sixteen).
    nearest: HashMap<(usize, [u32; 3]), Near>,
}

impl Search<'_> {
    fn best_depth(&self) -> f32 {
        self.best.map_or(0.0, |b| b.depth)
    }

    /// Bounds at most this need no more work.
    fn enough(&self) -> f32 {
        let b = self.best_depth();
        (b * (1.0 + REL)).max(b + ABS).max(self.tolerance)
    }

    fn push(&mut self, piece: Piece) {
        if piece.upper > self.enough() {
            self.heap.push(piece);
        }
    }

    /// When Y is convex: the deepest point of X's triangles within Y's box
    /// inside Y, exactly ([`deepest_in_convex`]), offered as the best.
    fn convex(&mut self, side: usize) -> bool {
        let view = &self.views[side];
        let mesh = view.y.mesh();
        let tris = (0..mesh.indices().len() as u32).map(|j| view.y_triangle(j));
        let Some(planes) = convex_planes(tris, view.eps()) else {
            return false;
        };
        let y_box = mesh.local_aabb();
        let (lo, hi) = (y_box.min + view.y_off, y_box.max + view.y_off);
        let query = Aabb3::new(lo - view.x_off, hi - view.x_off).loosened(1e-6);
        let mut deepest: Option<(f64, DVec3, usize)> = None;
        view.x.mesh().for_each_triangle_in_aabb(&query, |_, c| {
            let t = c.map(|v| (v + view.x_off).as_dvec3());
            let found = deepest_in_convex(&t, &planes);
            if deepest.is_none_or(|d| found.0 > d.0) {
                deepest = Some(found);
            }
        });
        if let Some((depth, p, k)) = deepest {
            if depth as f32 > self.best_depth() {
                let foot = p + planes[k].0 * depth;
                let (on_a, on_b) = if side == 0 { (p, foot) } else { (foot, p) };
                self.best = Some(Probe {
                    depth: depth as f32,
                    on_x: on_a.as_vec3(),
                    on_y: on_b.as_vec3(),
                    kind: self.kind,
                });
            }
        }
        true
    }

    /// X's triangles within Y's box, bounded by the distance to its faces.
    fn seed(&mut self, side: usize) {
        let view = &self.views[side];
        let y_box = view.y.mesh().local_aabb();
        let (lo, hi) = (y_box.min + view.y_off, y_box.max + view.y_off);
        let query = Aabb3::new(lo - view.x_off, hi - view.x_off).loosened(1e-6);
        // A point inside Y is inside its box, and no farther from Y's
        // surface than from the box's: at most half the box's least side.
        let half_side = (hi - lo).min_element() * 0.5;
        let mut seeds = Vec::new();
        view.x.mesh().for_each_triangle_in_aabb(&query, |_, c| {
            let corners = c.map(|v| v + view.x_off);
            // The least, over the box's faces, of the largest corner distance.
            let upper = (0..3)
                .flat_map(|k| {
                    let low = corners
                        .iter()
                        .map(|v| (v[k] - lo[k]).max(0.0))
                        .fold(0.0, f32::max);
                    let high = corners
                        .iter()
                        .map(|v| (hi[k] - v[k]).max(0.0))
                        .fold(0.0, f32::max);
                    [low, high]
                })
                .fold(half_side, f32::min);
            seeds.push(Piece {
                upper,
                side,
                corners,
                inside: false,
                measured: false,
            });
        });
        for s in seeds {
            self.push(s);
        }
    }

    fn run(mut self) -> Depth {
        while let Some(piece) = self.heap.pop() {
            if piece.upper <= self.enough() {
                self.heap.clear();
                break;
            }
            if self.evaluations >= MAX_EVALUATIONS {
                let upper = piece.upper;
                return Depth {
                    best: self.best,
                    upper,
                    cut_short: true,
                };
            }
            if !piece.measured {
                self.measure(piece);
            } else if piece.inside {
                self.split(piece);
            } else {
                self.cut(piece);
            }
        }
        // Every piece left is bounded by what is enough.
        Depth {
            best: self.best,
            upper: self.enough(),
            cut_short: false,
        }
    }

    /// A point of the piece as the new deepest, if deeper and inside Y.
    fn offer(&mut self, side: usize, p: Vec3, near: Near, inside: bool) {
        if near.dist <= self.best_depth() || !(inside || self.views[side].inside(p)) {
            return;
        }
        let (on_a, on_b) = if side == 0 {
            (p, near.foot)
        } else {
            (near.foot, p)
        };
        self.best = Some(Probe {
            depth: near.dist,
            on_x: on_a,
            on_y: on_b,
            kind: self.kind,
        });
    }

    /// The nearest point of Y's surface to `p` (X's side `side`), measured
    /// once per point.
    fn near(&mut self, side: usize, p: Vec3) -> Near {
        let view = &self.views[side];
        *self
            .nearest
            .entry((side, p.to_array().map(f32::to_bits)))
            .or_insert_with(|| view.near(p))
    }

    /// Measures the piece's corners and centroid, tightens its bound, and
    /// puts it back (or drops it when it lies outside Y).
    fn measure(&mut self, mut piece: Piece) {
        self.evaluations += 1;
        let side = piece.side;
        let c = (piece.corners[0] + piece.corners[1] + piece.corners[2]) / 3.0;
        let near = piece.corners.map(|v| self.near(side, v));
        let at_c = self.near(side, c);
        let view = &self.views[side];
        let radius = piece
            .corners
            .iter()
            .map(|v| v.distance(c))
            .fold(0.0, f32::max);
        let bound = corner_bound(
            view,
            &piece.corners,
            &[near[0].tri, near[1].tri, near[2].tri, at_c.tri],
        );
        piece.upper = piece.upper.min(at_c.dist + radius).min(bound);
        if !piece.inside && at_c.dist > radius {
            // No surface within the piece: wholly inside or wholly outside.
            if !view.inside(c) {
                return;
            }
            piece.inside = true;
        }
        for (v, n) in piece.corners.iter().zip(near) {
            self.offer(side, *v, n, piece.inside);
        }
        self.offer(side, c, at_c, piece.inside);
        piece.measured = true;
        self.push(piece);
    }

    /// Four pieces from the edges' midpoints, bounded by their parent.
    fn split(&mut self, piece: Piece) {
        let [a, b, c] = piece.corners;
        let (ab, bc, ca) = ((a + b) * 0.5, (b + c) * 0.5, (c + a) * 0.5);
        for corners in [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]] {
            self.push(Piece {
                corners,
                measured: false,
                ..piece
            });
        }
    }

    /// A piece that may cross Y's surface: cut it where the surface is one
    /// plane, else split it.
    fn cut(&mut self, piece: Piece) {
        let view = &self.views[piece.side];
        match meeting(view, &piece.corners) {
            Meeting::Complex => self.split(piece),
            Meeting::Cells { planes, touching } => {
                // Each cell between the planes lies wholly inside or outside.
                let eps = view.eps();
                let mut cells = vec![piece
                    .corners
                    .iter()
                    .map(|v| v.as_dvec3())
                    .collect::<Vec<_>>()];
                for &(n, o) in &planes {
                    cells = cells.iter().flat_map(|c| halves(c, n, o)).collect();
                }
                let mut inside = Vec::new();
                for cell in cells {
                    let centre = cell.iter().copied().sum::<DVec3>() / cell.len() as f64;
                    // A sliver along a plane: within `eps` of its neighbours.
                    if planes
                        .iter()
                        .any(|&(n, o)| (centre - o).dot(n).abs() <= eps)
                    {
                        continue;
                    }
                    // A cell on a face of Y in the piece's plane is Y's
                    // surface (the face's edges lie on the planes): depth 0.
                    if touching && f64::from(view.near(centre.as_vec3()).dist) <= eps {
                        continue;
                    }
                    if view.inside(centre.as_vec3()) {
                        inside.push(cell);
                    }
                }
                for cell in inside {
                    for k in 1..cell.len() - 1 {
                        self.push(Piece {
                            corners: [cell[0], cell[k], cell[k + 1]].map(|v| v.as_vec3()),
                            inside: true,
                            measured: false,
                            ..piece
                        });
                    }
                }
            }
        }
    }
}

/// `min_T max_v dist(v, T)` over the triangles `tris` of Y (and their union
/// when it is one convex polygon).
fn corner_bound(view: &View, corners: &[Vec3; 3], tris: &[u32; 4]) -> f32 {
    // The distinct triangles, without allocating (this runs for every piece).
    let mut sorted = *tris;
    sorted.sort_unstable();
    let mut ts = [[DVec3::ZERO; 3]; 4];
    let mut n = 0;
    for (k, &j) in sorted.iter().enumerate() {
        if k == 0 || j != sorted[k - 1] {
            ts[n] = view.y_triangle(j);
            n += 1;
        }
    }
    let ts = &ts[..n];
    let vs = corners.map(|v| v.as_dvec3());
    let mut dist = [[0.0; 3]; 4];
    for (d, t) in dist.iter_mut().zip(ts) {
        *d = vs.map(|v| point_triangle_distance(v, t));
    }
    let dist = &dist[..n];
    let mut bound = dist
        .iter()
        .map(|d| d.iter().copied().fold(0.0, f64::max))
        .fold(f64::INFINITY, f64::min);
    for i in 0..n {
        for j in i + 1..n {
            bound = bound.min(blended_bound(&dist[i], &dist[j]));
        }
    }
    if n > 1 && coplanar_convex_union(ts, view.eps()) {
        let union = (0..3)
            .map(|k| dist.iter().map(|d| d[k]).fold(f64::INFINITY, f64::min))
            .fold(0.0, f64::max);
        bound = bound.min(union);
    }
    // Rounded up, so that the f32 bound stays a bound.
    (bound * (1.0 + 1e-6) + 1e-9) as f32
}

/// `min over λ in [0, 1] of max_v (λ f(v) + (1 - λ) g(v))`, for the
/// distances `f`, `g` of a piece's corners to two triangles of Y.
///
/// Within the piece `d ≤ min(f, g) ≤ λ f + (1 - λ) g` for every such λ,
/// and the right side is convex, so its maximum over the piece is at a
/// corner. Between two parallel faces (a wall's sides, a slab's top and
/// bottom) `f + g` is the thickness, and λ = 1/2 gives half of it: the
/// exact depth of a piece that spans the gap, which the corner bound of
/// either face alone overestimates twice over.
fn blended_bound(f: &[f64; 3], g: &[f64; 3]) -> f64 {
    // g(λ) = max_k (g_k + λ (f_k - g_k)) is convex and piecewise linear:
    // its least value on [0, 1] is at an end or where two lines cross.
    let at = |l: f64| (0..3).map(|k| g[k] + l * (f[k] - g[k])).fold(0.0, f64::max);
    let mut best = at(0.0).min(at(1.0));
    for (k, m) in [(0, 1), (1, 2), (0, 2)] {
        let slope = (f[k] - g[k]) - (f[m] - g[m]);
        if slope != 0.0 {
            let l = (g[m] - g[k]) / slope;
            if l > 0.0 && l < 1.0 {
                best = best.min(at(l));
            }
        }
    }
    best
}

/// How Y's surface meets the triangle `corners` (A's frame). A triangle of Y
/// is ruled out when the plane of either triangle separates them.
fn meeting(view: &View, corners: &[Vec3; 3]) -> Meeting {
    let t = corners.map(|v| v.as_dvec3());
    let Some(nt) = unit_normal(&t) else {
        return Meeting::Complex;
    };
    let eps = view.eps();
    let query = Aabb3::from_points(corners.map(|v| v - view.y_off)).loosened(eps as f32);
    let mut planes: Vec<(DVec3, DVec3)> = Vec::new();
    let (mut complex, mut touching) = (false, false);
    let apart = |pts: &[DVec3; 3], n: DVec3, o: DVec3| {
        let s = pts.map(|p| (p - o).dot(n));
        s.iter().all(|&d| d > eps) || s.iter().all(|&d| d < -eps)
    };
    view.y.mesh().for_each_triangle_in_aabb(&query, |_, c| {
        if complex {
            return;
        }
        let u = c.map(|v| (v + view.y_off).as_dvec3());
        if apart(&u, nt, t[0]) {
            return;
        }
        let Some(nu) = unit_normal(&u) else {
            return; // no area: its points lie on its neighbours' edges
        };
        if apart(&t, nu, u[0]) {
            return;
        }
        if u.iter().all(|v| (*v - t[0]).dot(nt).abs() <= eps) {
            touching = true; // in the piece's own plane
            return;
        }
        let known = planes.iter().any(|&(n, o)| {
            nu.cross(n).length() <= 1e-6 && u.iter().all(|v| (*v - o).dot(n).abs() <= eps)
        });
        if !known {
            planes.push((nu, u[0]));
            complex = planes.len() > MAX_PLANES;
        }
    });
    if complex {
        Meeting::Complex
    } else {
        Meeting::Cells { planes, touching }
    }
}

/// The two parts of convex polygon `v` on either side of the plane (`n`,
/// `o`), as convex polygons (a part with fewer than three corners is left
/// out).
fn halves(v: &[DVec3], n: DVec3, o: DVec3) -> Vec<Vec<DVec3>> {
    let s: Vec<f64> = v.iter().map(|p| (*p - o).dot(n)).collect();
    let mut parts = vec![Vec::new(), Vec::new()];
    for i in 0..v.len() {
        let j = (i + 1) % v.len();
        if s[i] >= 0.0 {
            parts[0].push(v[i]);
        }
        if s[i] <= 0.0 {
            parts[1].push(v[i]);
        }
        if (s[i] > 0.0 && s[j] < 0.0) || (s[i] < 0.0 && s[j] > 0.0) {
            let x = v[i] + (v[j] - v[i]) * (s[i] / (s[i] - s[j]));
            parts[0].push(x);
            parts[1].push(x);
        }
    }
    parts.retain(|p| p.len() >= 3);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A piece spanning a 0.15 m wall, corners on both faces: each face
    /// alone bounds the depth by 0.15, the blend by the true 0.075.
    #[test]
    fn a_piece_across_a_wall_is_bounded_by_half_the_thickness() {
        let front = [0.0, 0.15, 0.15];
        let back = [0.15, 0.0, 0.0];
        assert!((blended_bound(&front, &back) - 0.075).abs() < 1e-12);
    }

    /// On random corner distances: the blend is a bound (at least the
    /// smaller distance at every corner) and never worse than either face.
    #[test]
    fn the_blend_bounds_the_corners_and_beats_each_face() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..10_000 {
            let f = [next(), next(), next()];
            let g = [next(), next(), next()];
            let b = blended_bound(&f, &g);
            let worst = |d: &[f64; 3]| d.iter().copied().fold(0.0, f64::max);
            assert!(b <= worst(&f).min(worst(&g)) + 1e-12, "{f:?} {g:?} {b}");
            for k in 0..3 {
                assert!(b >= f[k].min(g[k]) - 1e-12, "{f:?} {g:?} {b}");
            }
            // No λ on a fine grid does better.
            for i in 0..=100 {
                let l = i as f64 / 100.0;
                let at = (0..3)
                    .map(|k| l * f[k] + (1.0 - l) * g[k])
                    .fold(0.0, f64::max);
                assert!(b <= at + 1e-12, "{f:?} {g:?} {b} > {at} at {l}");
            }
        }
    }
}
