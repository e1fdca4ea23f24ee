//! Support queries by table: for each cell of a cube map of directions, the
//! few vertices that can be farthest along some direction in the cell.
//!
//! Let `c` be a cell's central unit direction, `δ` the largest distance from
//! `c` to a unit direction `d` in the cell, and `s` the vertex farthest along
//! `c`. For any vertex `w`,
//! `(w − s)·d = (w − s)·c + (w − s)·(d − c) ≤ (w − s)·c + δ |w − s|`,
//! so a vertex with `(w − s)·c + δ |w − s| < 0` is beaten by `s` along every
//! direction of the cell and is left out. The test keeps a margin of a few
//! f32 roundings of the dot products too, so a vertex left out is below `s`
//! even as the queries compute it in f32: the answer is exactly the scan's,
//! the first vertex with the largest f32 dot product, from a handful of dot
//! products instead of all of them.

use crate::math::Vec3;
use glam::DVec3;

/// Cells per edge of a cube face (a power of two): `6 · 16²` cells, each
/// within about 4° of its centre.
const CELLS: usize = 16;

/// Directions whose largest component lies outside this range are left to
/// the scan: their dot products could underflow or overflow, and the f32
/// rounding margin assumes neither.
const RANGE: (f32, f32) = (1e-15, 1e15);

/// The candidate vertices of each cell of the direction cube map.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SupportTable {
    /// `candidates[offsets[c]..offsets[c + 1]]` are cell `c`'s vertices, in
    /// increasing order.
    offsets: Vec<u32>,
    candidates: Vec<u8>,
}

/// The cell of a direction cube map of `n²` cells a face that `dir` falls
/// in: the face of the cube `dir` leaves through (the axis and sign of its
/// largest component; sides and axes as in `cell_direction`), then the grid
/// cell of the other two components over that largest one. Also returns the
/// largest magnitude. A zero or NaN direction falls in some cell (the casts
/// saturate).
#[inline]
pub(super) fn cube_cell(dir: Vec3, n: usize) -> (usize, f32) {
    let a = dir.abs();
    let (k, u, v) = if a.x >= a.y && a.x >= a.z {
        (0, dir.y, dir.z)
    } else if a.y >= a.z {
        (1, dir.z, dir.x)
    } else {
        (2, dir.x, dir.y)
    };
    let m = a[k];
    let side = 2 * k + usize::from(dir[k] < 0.0);
    let cell = |c: f32| (((c / m + 1.0) * 0.5 * n as f32) as usize).min(n - 1);
    ((side * n + cell(u)) * n + cell(v), m)
}

/// The cell of the table's map that `dir` falls in, or `None` for a
/// direction outside [`RANGE`] or with a NaN.
#[inline]
fn cell_of(dir: Vec3) -> Option<usize> {
    let (cell, m) = cube_cell(dir, CELLS);
    (m >= RANGE.0 && m <= RANGE.1 && !dir.is_nan()).then_some(cell)
}

/// The direction through the point `(u, v)` of cube face `side` (axis
/// `side / 2`, positive for even sides; `u` and `v` the next two axes in
/// cyclic order, in `[-1, 1]`), unit length.
fn cell_direction(side: usize, u: f64, v: f64) -> DVec3 {
    let k = side / 2;
    let mut d = DVec3::ZERO;
    d[k] = if side.is_multiple_of(2) { 1.0 } else { -1.0 };
    d[(k + 1) % 3] = u;
    d[(k + 2) % 3] = v;
    d.normalize()
}

/// A cell of a map of `g²` cells a cube face: its central unit direction
/// `c`, and `delta`, the farthest a unit direction in the cell is from `c`.
struct Cell {
    c: DVec3,
    delta: f64,
}

impl Cell {
    /// Cell `[i, j]` of face `side`.
    fn new(side: usize, [i, j]: [usize; 2], g: usize) -> Cell {
        let at = |i: usize| -1.0 + 2.0 * i as f64 / g as f64;
        let c = cell_direction(side, (at(i) + at(i + 1)) / 2.0, (at(j) + at(j + 1)) / 2.0);
        // The farthest point of a spherical quadrilateral from an interior
        // point is a corner; the small term covers the f32 rounding of the
        // cell index.
        let delta = [(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)]
            .into_iter()
            .map(|(p, q)| cell_direction(side, at(p), at(q)).distance(c))
            .fold(0.0, f64::max)
            + 1e-6;
        Cell { c, delta }
    }

    /// Appends to `out` the vertices of `from` (indices into `vs`, whose
    /// lengths are `lens`; increasing) that can be farthest along some
    /// direction of the cell (see the module's notes), in the same order.
    fn keep(&self, vs: &[DVec3], lens: &[f64], from: &[u8], out: &mut Vec<u8>) {
        let Cell { c, delta } = *self;
        let Some(&top) = from.iter().max_by(|&&a, &&b| {
            let (a, b) = (vs[a as usize].dot(c), vs[b as usize].dot(c));
            a.total_cmp(&b)
        }) else {
            return;
        };
        let (s, s_len) = (vs[top as usize], lens[top as usize]);
        // A vertex's f32 dot product with a direction `d` is off by at most
        // 3 units of rounding of |w| |d|; 4 (8 half-units) leaves room for
        // both vertices.
        let margin = 4.0 * f64::from(f32::EPSILON);
        out.extend(from.iter().copied().filter(|&k| {
            let (w, w_len) = (vs[k as usize], lens[k as usize]);
            let near = (w - s).dot(c) + margin * (w_len + s_len);
            // |w − s| <= |w| + |s| settles most vertices without a root.
            near >= 0.0
                || (near + delta * (w_len + s_len) >= 0.0 && near + delta * (w - s).length() >= 0.0)
        }));
    }
}

impl SupportTable {
    /// The table of `vertices` (at most 256 of them, so that a candidate
    /// fits a byte). It is refined from a map of 2² cells a face, halving
    /// the cells at each step: each cell lies in one cell of the step
    /// before, so its candidates are among that cell's, and most cells test
    /// a few dozen vertices rather than all of them.
    pub(crate) fn new(vertices: &[Vec3]) -> Option<SupportTable> {
        if vertices.is_empty() || vertices.len() > 256 {
            return None;
        }
        let vs: Vec<DVec3> = vertices.iter().map(|v| v.as_dvec3()).collect();
        let lens: Vec<f64> = vs.iter().map(|v| v.length()).collect();
        // The lists of the current map, flat: cell `c`'s are
        // `candidates[offsets[c]..offsets[c + 1]]`.
        let mut offsets: Vec<u32> = (0..=6).map(|s| (s * vs.len()) as u32).collect();
        let mut candidates: Vec<u8> = (0..6).flat_map(|_| 0..vs.len()).map(|i| i as u8).collect();
        let mut g = 1;
        while g < CELLS {
            let (mut next_offsets, mut next) = (Vec::with_capacity(24 * g * g + 1), Vec::new());
            for side in 0..6 {
                for i in 0..2 * g {
                    for j in 0..2 * g {
                        next_offsets.push(next.len() as u32);
                        let p = (side * g + i / 2) * g + j / 2;
                        let from = &candidates[offsets[p] as usize..offsets[p + 1] as usize];
                        let cell = Cell::new(side, [i, j], 2 * g);
                        cell.keep(&vs, &lens, from, &mut next);
                    }
                }
            }
            next_offsets.push(next.len() as u32);
            (offsets, candidates) = (next_offsets, next);
            g *= 2;
        }
        Some(SupportTable {
            offsets,
            candidates,
        })
    }

    /// The first of `vertices` (those the table was built from) farthest
    /// along `dir`, as a scan would find it; `None` for a direction the
    /// table leaves to the scan (zero, tiny, huge or NaN).
    #[inline]
    pub(crate) fn support(&self, vertices: &[Vec3], dir: Vec3) -> Option<usize> {
        let cell = cell_of(dir)?;
        let (lo, hi) = (self.offsets[cell], self.offsets[cell + 1]);
        let mut best = 0usize;
        let mut best_d = f32::NEG_INFINITY;
        for &i in &self.candidates[lo as usize..hi as usize] {
            let d = vertices[i as usize].dot(dir);
            if d > best_d {
                best_d = d;
                best = i as usize;
            }
        }
        Some(best)
    }

    /// Candidates per cell, on average (for tests and tuning).
    #[cfg(test)]
    pub(crate) fn mean_candidates(&self) -> f64 {
        self.candidates.len() as f64 / (self.offsets.len() - 1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::d3::support_index;

    fn xorshift(mut seed: u64) -> impl FnMut() -> f32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        }
    }

    /// The table's answer is the scan's, bit for bit, on random directions
    /// and on directions along cell borders and axes, for round clouds, flat
    /// ones (many vertices tie) and clouds with repeated points.
    #[test]
    fn answers_are_the_scans() {
        let mut r = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut clouds: Vec<Vec<Vec3>> = Vec::new();
        clouds.push(
            (0..150)
                .map(|_| Vec3::new(r(), r(), r()).normalize_or(Vec3::X))
                .collect(),
        );
        clouds.push((0..200).map(|_| Vec3::new(r(), r(), 0.0)).collect());
        clouds.push(
            (0..64)
                .map(|i| Vec3::new((i % 4) as f32, (i / 16) as f32, 0.0))
                .collect(),
        );
        clouds.push(
            (0..120)
                .map(|_| Vec3::new(r() * 1e4, r() * 1e-3, r() + 5e3))
                .collect(),
        );
        for pts in &clouds {
            let t = SupportTable::new(pts).unwrap();
            let mut dirs: Vec<Vec3> = (0..20_000).map(|_| Vec3::new(r(), r(), r())).collect();
            for i in 0..=CELLS {
                let u = -1.0 + 2.0 * i as f32 / CELLS as f32;
                for s in [1.0, -1.0] {
                    dirs.push(Vec3::new(s, u, 0.3));
                    dirs.push(Vec3::new(u, s, u));
                    dirs.push(Vec3::new(0.0, u, s));
                }
            }
            dirs.extend([
                Vec3::X,
                -Vec3::Y,
                Vec3::Z,
                Vec3::ONE,
                Vec3::new(1.0, 1.0, 0.0),
            ]);
            for d in dirs {
                for d in [d, d * 1e-9, d * 3e9] {
                    let want = support_index(pts, d);
                    assert_eq!(t.support(pts, d), Some(want), "{d}");
                }
            }
        }
    }

    #[test]
    fn unusual_directions_are_left_to_the_scan() {
        let pts: Vec<Vec3> = (0..40).map(|i| Vec3::new(i as f32, 1.0, 0.0)).collect();
        let t = SupportTable::new(&pts).unwrap();
        for d in [
            Vec3::ZERO,
            Vec3::splat(f32::NAN),
            Vec3::new(1e-20, 0.0, 0.0),
            Vec3::X * 1e20,
        ] {
            assert_eq!(t.support(&pts, d), None, "{d}");
        }
        assert!(SupportTable::new(&vec![Vec3::X; 257]).is_none());
    }

    /// On a round hull of 150 vertices a cell keeps a few vertices.
    #[test]
    fn cells_keep_few_vertices_of_round_hulls() {
        let mut r = xorshift(7);
        let pts: Vec<Vec3> = (0..150)
            .map(|_| Vec3::new(r(), r(), r()).normalize_or(Vec3::X))
            .collect();
        let t = SupportTable::new(&pts).unwrap();
        assert!(t.mean_candidates() < 8.0, "{}", t.mean_candidates());
    }
}
