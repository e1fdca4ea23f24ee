//! Ray casts against a height field: a 2D walk over the cells under the ray,
//! testing each cell's two triangles.

use super::HeightField;
use crate::math::{Pose3, Vec3};
use crate::mesh::geom::ray_tri::WatertightRay;
use crate::mesh::trimesh::facing_normal;
use crate::query::types::{Ray3, RayHit3};

/// A ray hit on a height field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeightFieldRayHit {
    /// Parameter, point and normal (facing against the ray).
    pub hit: RayHit3,
    /// Index of the triangle hit (see [`HeightField`] for the numbering).
    pub triangle: u32,
}

impl HeightField {
    /// The first triangle hit by the ray `origin + t·dir`, `0 <= t <= max_toi`
    /// (field frame; two-sided). `dir` must not be zero.
    ///
    /// The ray is clipped to the field's box, then the cells under it are
    /// visited in order along the ray by the grid walk of Amanatides and Woo
    /// ("A fast voxel traversal algorithm for ray tracing", Eurographics 1987)
    /// in the x-z plane: the next cell is across whichever cell boundary, x or
    /// z, the ray reaches first. A cell whose height range the ray's height
    /// over the cell misses is skipped; otherwise its two triangles are tested
    /// with the watertight test. A triangle lies inside its cell's footprint,
    /// so the walk can stop at the first cell entered after the best hit.
    /// When the ray passes (within rounding) through a cell corner, the
    /// diagonal neighbour the walk steps around is tested too.
    pub fn cast_local_ray(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_toi: f32,
    ) -> Option<HeightFieldRayHit> {
        let (t0, t1) = self
            .local_aabb()
            .loosened(1e-5 * self.cell.max_element())
            .ray_interval(origin, dir, max_toi)?;
        let ray = WatertightRay::new(origin, dir);
        let (nr, nc) = (self.rows - 1, self.cols - 1);
        let p = origin + dir * t0;
        let cell_of = |x: f32, o: f32, d: f32, n: usize| {
            let f = ((x - o) / d).floor();
            // `as` saturates negatives and NaN to 0.
            (f.max(0.0) as usize).min(n - 1)
        };
        let mut c = cell_of(p.x, self.origin.x, self.cell.x, nc);
        let mut r = cell_of(p.z, self.origin.y, self.cell.y, nr);
        // Per axis: step, parameter of the next boundary, parameter per cell.
        let axis = |o: f32, d: f32, k: usize, x0: f32, size: f32| -> (isize, f32, f32) {
            if d > 0.0 {
                (1, (x0 + (k + 1) as f32 * size - o) / d, size / d)
            } else if d < 0.0 {
                (-1, (x0 + k as f32 * size - o) / d, -size / d)
            } else {
                (0, f32::INFINITY, f32::INFINITY)
            }
        };
        let (sc, mut tx, dtx) = axis(origin.x, dir.x, c, self.origin.x, self.cell.x);
        let (sr, mut tz, dtz) = axis(origin.z, dir.z, r, self.origin.y, self.cell.y);
        let mut best: Option<(f32, u32)> = None;
        let mut best_t = t1;
        let mut t_enter = t0;
        loop {
            let t_exit = tx.min(tz).min(best_t);
            self.test_cell(
                &ray,
                origin,
                dir,
                r,
                c,
                t_enter,
                t_exit,
                &mut best,
                &mut best_t,
            );
            // Step to the next cell.
            let near_corner = (tx - tz).abs() <= 1e-6 * tx.abs().max(tz.abs()).max(1e-30);
            if near_corner && sc != 0 && sr != 0 {
                // The walk passes diagonally; test the cell it steps around.
                let (rr, cc) = (r as isize + sr, c as isize);
                if (0..nr as isize).contains(&rr) {
                    let t = tx.min(tz);
                    self.test_cell(
                        &ray,
                        origin,
                        dir,
                        rr as usize,
                        cc as usize,
                        t,
                        t,
                        &mut best,
                        &mut best_t,
                    );
                }
            }
            let next;
            if tx <= tz {
                let nc2 = c as isize + sc;
                if sc == 0 || !(0..nc as isize).contains(&nc2) {
                    break;
                }
                c = nc2 as usize;
                next = tx;
                tx += dtx;
            } else {
                let nr2 = r as isize + sr;
                if sr == 0 || !(0..nr as isize).contains(&nr2) {
                    break;
                }
                r = nr2 as usize;
                next = tz;
                tz += dtz;
            }
            if next > best_t {
                break;
            }
            t_enter = next;
        }
        let (t, tri) = best?;
        let corners = self.triangle(tri as usize);
        Some(HeightFieldRayHit {
            hit: RayHit3 {
                toi: t,
                point: origin + dir * t,
                normal: facing_normal(&corners, dir),
            },
            triangle: tri,
        })
    }

    /// Tests the two triangles of cell `(r, c)`, which the ray crosses over
    /// `[t_enter, t_exit]` (used only to skip cells by height).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn test_cell(
        &self,
        ray: &WatertightRay,
        origin: Vec3,
        dir: Vec3,
        r: usize,
        c: usize,
        t_enter: f32,
        t_exit: f32,
        best: &mut Option<(f32, u32)>,
        best_t: &mut f32,
    ) {
        let (lo, hi) = self.pyramid[0].range[r * (self.cols - 1) + c];
        let (y0, y1) = (origin.y + dir.y * t_enter, origin.y + dir.y * t_exit);
        let slack = 1e-5 * (1.0 + lo.abs().max(hi.abs()) + y0.abs().max(y1.abs()));
        if y0.min(y1) > hi + slack || y0.max(y1) < lo - slack {
            return;
        }
        for k in 0..2 {
            let [a, b, cc] = self.cell_triangle(r, c, k);
            if let Some(h) = ray.hit(a, b, cc, *best_t) {
                if best.is_none_or(|(bt, _)| h.t < bt) {
                    *best = Some((h.t, self.triangle_index(r, c, k)));
                    *best_t = h.t;
                }
            }
        }
    }

    /// [`HeightField::cast_local_ray`] for a world-space ray and the field at
    /// `pose`; the hit is in world space.
    pub fn cast_ray(&self, pose: &Pose3, ray: &Ray3, max_toi: f32) -> Option<HeightFieldRayHit> {
        let o = pose.inverse_transform_point(ray.origin);
        let d = pose.inverse_transform_vector(ray.dir);
        let mut h = self.cast_local_ray(o, d, max_toi)?;
        h.hit.point = ray.at(h.hit.toi);
        h.hit.normal = pose.transform_vector(h.hit.normal);
        Some(h)
    }
}
