//! A height field: a regular grid of heights, triangulated two triangles per cell.

mod point;
mod ray;
mod topology;

pub use point::HeightFieldProjection;
pub use ray::HeightFieldRayHit;

use crate::bound::Aabb3;
use crate::math::policy::{check_coord, GeometryError, MAX_MAGNITUDE};
use crate::math::{Vec2, Vec3};

/// A height field in its local frame: `rows × cols` heights (y) on a grid in
/// the x-z plane, centred on the origin. Row `r` lies at `z = z0 + r·dz`,
/// column `c` at `x = x0 + c·dx`, with `(x0, z0) = -((cols-1)·dx, (rows-1)·dz)/2`.
///
/// Cell `(r, c)` (between rows `r, r+1` and columns `c, c+1`) is split along
/// the diagonal from vertex `(r, c)` to `(r+1, c+1)` into triangle
/// `2·(r·(cols-1) + c)` with corners `[(r,c), (r+1,c), (r+1,c+1)]` and the next
/// triangle, `[(r,c), (r+1,c+1), (r,c+1)]`; both face +y.
#[derive(Debug, Clone)]
pub struct HeightField {
    rows: usize,
    cols: usize,
    heights: Vec<f32>,
    cell: Vec2,
    origin: Vec2,
    /// Min-max pyramid over the cells: level 0 holds each cell's height range,
    /// level `l + 1` merges 2×2 blocks of level `l`, the last level one block.
    pyramid: Vec<Level>,
}

impl PartialEq for HeightField {
    /// Same grid size, heights and cell size (the pyramid follows from them).
    fn eq(&self, o: &Self) -> bool {
        self.rows == o.rows
            && self.cols == o.cols
            && self.cell == o.cell
            && self.heights == o.heights
    }
}

/// One level of the min-max pyramid.
#[derive(Debug, Clone)]
struct Level {
    rows: usize,
    cols: usize,
    range: Vec<(f32, f32)>,
}

impl HeightField {
    /// A height field from `rows × cols` heights in row-major order
    /// (`heights[r·cols + c]`) and the cell size `(dx, dz)`.
    ///
    /// Errors: fewer than 2 rows or columns ([`GeometryError::TooFew`]), a
    /// height count other than `rows·cols` ([`GeometryError::Degenerate`]), a
    /// non-finite height or cell size ([`GeometryError::NonFinite`]), a cell
    /// size that is not positive ([`GeometryError::Degenerate`]: a field with
    /// zero-size cells has no cells to walk), a height or a half extent
    /// `(n - 1)·cell/2` beyond [`MAX_MAGNITUDE`] ([`GeometryError::TooLarge`]:
    /// the policy's rule 7).
    pub fn new(
        rows: usize,
        cols: usize,
        heights: Vec<f32>,
        cell_size: Vec2,
    ) -> Result<Self, GeometryError> {
        for (n, what) in [(rows, "height field rows"), (cols, "height field columns")] {
            if n < 2 {
                return Err(GeometryError::TooFew {
                    what,
                    needed: 2,
                    got: n,
                });
            }
        }
        if rows.checked_mul(cols) != Some(heights.len()) {
            return Err(GeometryError::Degenerate {
                what: "height field",
                why: "the number of heights is not rows × columns",
            });
        }
        for &h in &heights {
            check_coord("height field height", h)?;
        }
        if !cell_size.is_finite() {
            return Err(GeometryError::NonFinite {
                what: "height field cell size",
            });
        }
        if cell_size.min_element() <= 0.0 {
            return Err(GeometryError::Degenerate {
                what: "height field",
                why: "cell sizes must be positive",
            });
        }
        // The field spans `(n - 1)·cell` centred on the origin; each half
        // (computed in f64, where it cannot overflow) is a coordinate.
        for (n, s) in [(cols, cell_size.x), (rows, cell_size.y)] {
            let half = (n - 1) as f64 * s as f64 * 0.5;
            if half > MAX_MAGNITUDE as f64 {
                return Err(GeometryError::TooLarge {
                    what: "height field extent",
                    value: (half as f32).min(f32::MAX),
                    limit: MAX_MAGNITUDE,
                });
            }
        }
        let origin = -Vec2::new((cols - 1) as f32, (rows - 1) as f32) * cell_size * 0.5;
        let mut hf = HeightField {
            rows,
            cols,
            heights,
            cell: cell_size,
            origin,
            pyramid: Vec::new(),
        };
        hf.build_pyramid();
        Ok(hf)
    }

    fn build_pyramid(&mut self) {
        let (nr, nc) = (self.rows - 1, self.cols - 1);
        let mut range = Vec::with_capacity(nr * nc);
        for r in 0..nr {
            for c in 0..nc {
                let h = [
                    self.h(r, c),
                    self.h(r + 1, c),
                    self.h(r, c + 1),
                    self.h(r + 1, c + 1),
                ];
                range.push((
                    h.iter().copied().fold(f32::INFINITY, f32::min),
                    h.iter().copied().fold(f32::NEG_INFINITY, f32::max),
                ));
            }
        }
        let mut levels = vec![Level {
            rows: nr,
            cols: nc,
            range,
        }];
        while let Some(l) = levels.last().filter(|l| l.rows > 1 || l.cols > 1) {
            let (r2, c2) = (l.rows.div_ceil(2), l.cols.div_ceil(2));
            let mut range = vec![(f32::INFINITY, f32::NEG_INFINITY); r2 * c2];
            for r in 0..l.rows {
                for c in 0..l.cols {
                    let (lo, hi) = l.range[r * l.cols + c];
                    let x = &mut range[(r / 2) * c2 + c / 2];
                    *x = (x.0.min(lo), x.1.max(hi));
                }
            }
            levels.push(Level {
                rows: r2,
                cols: c2,
                range,
            });
        }
        self.pyramid = levels;
    }

    /// Height of vertex `(r, c)`.
    #[inline]
    fn h(&self, r: usize, c: usize) -> f32 {
        self.heights[r * self.cols + c]
    }

    /// Number of rows of heights.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns of heights.
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The heights, row-major.
    #[inline]
    pub fn heights(&self) -> &[f32] {
        &self.heights
    }

    /// The cell size `(dx, dz)`.
    #[inline]
    pub fn cell_size(&self) -> Vec2 {
        self.cell
    }

    /// The local position of vertex `(r, c)`.
    #[inline]
    pub fn vertex(&self, r: usize, c: usize) -> Vec3 {
        Vec3::new(
            self.origin.x + c as f32 * self.cell.x,
            self.h(r, c),
            self.origin.y + r as f32 * self.cell.y,
        )
    }

    /// Number of triangles, `2·(rows-1)·(cols-1)`.
    #[inline]
    pub fn num_triangles(&self) -> usize {
        2 * (self.rows - 1) * (self.cols - 1)
    }

    /// The corners of triangle `i` (see the type's docs for the numbering;
    /// panics when out of range).
    pub fn triangle(&self, i: usize) -> [Vec3; 3] {
        let cell = i / 2;
        let (r, c) = (cell / (self.cols - 1), cell % (self.cols - 1));
        self.cell_triangle(r, c, i % 2)
    }

    /// Triangle `k` (0 or 1) of cell `(r, c)`.
    #[inline]
    fn cell_triangle(&self, r: usize, c: usize, k: usize) -> [Vec3; 3] {
        if k == 0 {
            [
                self.vertex(r, c),
                self.vertex(r + 1, c),
                self.vertex(r + 1, c + 1),
            ]
        } else {
            [
                self.vertex(r, c),
                self.vertex(r + 1, c + 1),
                self.vertex(r, c + 1),
            ]
        }
    }

    /// Index of triangle `k` of cell `(r, c)`.
    #[inline]
    fn triangle_index(&self, r: usize, c: usize, k: usize) -> u32 {
        (2 * (r * (self.cols - 1) + c) + k) as u32
    }

    /// The box around the field in its own frame.
    pub fn local_aabb(&self) -> Aabb3 {
        let top = &self.pyramid[self.pyramid.len() - 1].range[0];
        let half = Vec2::new((self.cols - 1) as f32, (self.rows - 1) as f32) * self.cell * 0.5;
        Aabb3::new(
            Vec3::new(-half.x, top.0, -half.y),
            Vec3::new(half.x, top.1, half.y),
        )
    }

    /// Calls `f(triangle, corners)` for every triangle whose box overlaps
    /// `aabb` (field frame; touching counts). The cells under the box's x-z
    /// footprint are found by index arithmetic, cells whose height range
    /// misses the box are skipped, and each triangle's own box is tested.
    pub fn for_each_triangle_in_aabb<F>(&self, aabb: &Aabb3, mut f: F)
    where
        F: FnMut(u32, &[Vec3; 3]),
    {
        let (nr, nc) = (self.rows - 1, self.cols - 1);
        // Cell range along one axis: cell k spans [o + k·s, o + (k+1)·s], so
        // it meets [lo, hi] for (lo - o)/s - 1 <= k <= (hi - o)/s. One more
        // cell on each side absorbs the rounding of the divisions (each
        // triangle's box is tested exactly below). `None` when the box misses
        // the grid or is NaN.
        let range = |lo: f32, hi: f32, o: f32, s: f32, n: usize| {
            let a = ((lo - o) / s).floor() - 1.0;
            let b = ((hi - o) / s).floor() + 1.0;
            if a.is_nan() || b.is_nan() || b < 0.0 || a > n as f32 {
                return None;
            }
            // `as` saturates; the clamps keep the range inside the grid.
            Some(((a.max(0.0) as usize).min(n - 1), (b as usize).min(n - 1)))
        };
        let Some((c0, c1)) = range(aabb.min.x, aabb.max.x, self.origin.x, self.cell.x, nc) else {
            return;
        };
        let Some((r0, r1)) = range(aabb.min.z, aabb.max.z, self.origin.y, self.cell.y, nr) else {
            return;
        };
        for r in r0..=r1 {
            for c in c0..=c1 {
                let (lo, hi) = self.pyramid[0].range[r * nc + c];
                if hi < aabb.min.y || lo > aabb.max.y {
                    continue;
                }
                for k in 0..2 {
                    let t = self.cell_triangle(r, c, k);
                    if Aabb3::from_points(t).overlaps(aabb) {
                        f(self.triangle_index(r, c, k), &t);
                    }
                }
            }
        }
    }

    /// A box around the field under `pose` (the local box, conservatively
    /// rotated).
    pub fn aabb(&self, pose: &crate::math::Pose3) -> Aabb3 {
        self.local_aabb().transformed(pose)
    }

    /// The triangles as a [`TriMesh`](crate::mesh::TriMesh) with the same
    /// triangle numbering (for queries the field does not offer).
    pub fn to_trimesh(&self) -> crate::mesh::TriMesh {
        let mut v = Vec::with_capacity(self.rows * self.cols);
        // The field's half extents are at most `MAX_MAGNITUDE`, but
        // `origin + c·cell` may round a few ulps past it at the far edge: the
        // clamp keeps such a vertex acceptable to the mesh's check.
        let lim = Vec3::new(MAX_MAGNITUDE, f32::INFINITY, MAX_MAGNITUDE);
        for r in 0..self.rows {
            for c in 0..self.cols {
                v.push(self.vertex(r, c).clamp(-lim, lim));
            }
        }
        let id = |r: usize, c: usize| (r * self.cols + c) as u32;
        let mut t = Vec::with_capacity(self.num_triangles());
        for r in 0..self.rows - 1 {
            for c in 0..self.cols - 1 {
                t.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
                t.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
            }
        }
        match crate::mesh::TriMesh::new(v, t) {
            Ok(m) => m,
            // A valid field has finite vertices within the magnitude limit
            // (clamped above), in-range indices and at least two triangles,
            // so the mesh is valid.
            Err(e) => unreachable!("height field mesh rejected: {e}"),
        }
    }
}
