//! Point projection on a height field: best-first search over its min-max
//! pyramid.

use super::HeightField;
use crate::bound::Aabb3;
use crate::math::{Pose3, Vec3};
use crate::mesh::geom::closest3::point_triangle;
use crate::mesh::TriangleFeature;
use core::cmp::Ordering;
use std::collections::BinaryHeap;

/// The closest point of a height field to a query point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeightFieldProjection {
    /// The closest point on the surface.
    pub point: Vec3,
    /// Its distance to the query point.
    pub distance: f32,
    /// The triangle it lies on.
    pub triangle: u32,
    /// Where on that triangle.
    pub feature: TriangleFeature,
}

/// A pyramid block waiting in the queue, smallest lower bound first.
struct Block {
    d2: f32,
    level: usize,
    r: usize,
    c: usize,
}
impl PartialEq for Block {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Block {}
impl PartialOrd for Block {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Block {
    fn cmp(&self, o: &Self) -> Ordering {
        o.d2.total_cmp(&self.d2)
            .then_with(|| (o.level, o.r, o.c).cmp(&(self.level, self.r, self.c)))
    }
}

impl HeightField {
    /// The box of block `(r, c)` of pyramid level `level`: the cells it covers
    /// in x-z, its height range in y.
    fn block_box(&self, level: usize, r: usize, c: usize) -> Aabb3 {
        let span = 1usize << level;
        let (nr, nc) = (self.rows - 1, self.cols - 1);
        let (r0, r1) = (r * span, ((r + 1) * span).min(nr));
        let (c0, c1) = (c * span, ((c + 1) * span).min(nc));
        let l = &self.pyramid[level];
        let (lo, hi) = l.range[r * l.cols + c];
        Aabb3::new(
            Vec3::new(
                self.origin.x + c0 as f32 * self.cell.x,
                lo,
                self.origin.y + r0 as f32 * self.cell.y,
            ),
            Vec3::new(
                self.origin.x + c1 as f32 * self.cell.x,
                hi,
                self.origin.y + r1 as f32 * self.cell.y,
            ),
        )
    }

    /// The point of the surface closest to `p` (field frame).
    ///
    /// Best-first search over the min-max pyramid (as in maximum mipmaps,
    /// Tevs, Ihrke and Seidel, I3D 2008): each block's box, its cells'
    /// footprint times its height range, bounds the distance to every triangle
    /// below it, so blocks are expanded nearest box first and the search stops
    /// when the nearest box is farther than the best triangle found.
    pub fn project_local_point(&self, p: Vec3) -> HeightFieldProjection {
        let dist2 = |b: &Aabb3| {
            let d = (b.min - p).max(p - b.max).max(Vec3::ZERO);
            d.length_squared()
        };
        let top = self.pyramid.len() - 1;
        let mut heap = BinaryHeap::new();
        heap.push(Block {
            d2: dist2(&self.block_box(top, 0, 0)),
            level: top,
            r: 0,
            c: 0,
        });
        let mut best: Option<(f32, Vec3, u32, TriangleFeature)> = None;
        while let Some(b) = heap.pop() {
            if best.is_some_and(|x| b.d2 > x.0) {
                break;
            }
            if b.level == 0 {
                for k in 0..2 {
                    let t = self.cell_triangle(b.r, b.c, k);
                    let (q, d2, f) = point_triangle(&t, p);
                    if best.is_none_or(|x| d2 < x.0) {
                        best = Some((d2, q, self.triangle_index(b.r, b.c, k), f));
                    }
                }
                continue;
            }
            let child = &self.pyramid[b.level - 1];
            for r in 2 * b.r..(2 * b.r + 2).min(child.rows) {
                for c in 2 * b.c..(2 * b.c + 2).min(child.cols) {
                    let d2 = dist2(&self.block_box(b.level - 1, r, c));
                    if best.is_none_or(|x| d2 <= x.0) {
                        heap.push(Block {
                            d2,
                            level: b.level - 1,
                            r,
                            c,
                        });
                    }
                }
            }
        }
        match best {
            Some((d2, point, triangle, feature)) => HeightFieldProjection {
                point,
                distance: d2.sqrt(),
                triangle,
                feature,
            },
            // Only for a non-finite `p` (every distance NaN).
            None => HeightFieldProjection {
                point: self.vertex(0, 0),
                distance: f32::INFINITY,
                triangle: 0,
                feature: TriangleFeature::Vertex(0),
            },
        }
    }

    /// [`HeightField::project_local_point`] for a world-space point and the
    /// field at `pose`; the projection is in world space.
    pub fn project_point(&self, pose: &Pose3, p: Vec3) -> HeightFieldProjection {
        let mut r = self.project_local_point(pose.inverse_transform_point(p));
        r.point = pose.transform_point(r.point);
        r
    }
}
