//! Oriented bounding boxes in 2D and 3D: fitting to points by principal
//! component analysis, point containment, and the separating-axis overlap test.

use super::aabb::{Aabb2, Aabb3};
use super::eigen::symmetric_eigen3;
use crate::math::policy::GeometryError;
use crate::math::tolerance::REL_EPS;
use crate::math::{Mat3, Pose2, Pose3, Rot2, Vec2, Vec3};

/// A 2D oriented box: the points `center + R·x` with `|x_i| <= half_extents_i`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obb2 {
    /// Center.
    pub center: Vec2,
    /// Orientation: the box's local axes are `rotation·e_x` and `rotation·e_y`.
    pub rotation: Rot2,
    /// Half-extents along the local axes (`>= 0`).
    pub half_extents: Vec2,
}

/// A 3D oriented box: the points `center + A·x` with `|x_i| <= half_extents_i`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Obb3 {
    /// Center.
    pub center: Vec3,
    /// Orientation: the columns are the box's unit axes (orthonormal,
    /// right-handed).
    pub axes: Mat3,
    /// Half-extents along the axes (`>= 0`).
    pub half_extents: Vec3,
}

/// Relative slack added to fitted extents, in units of the input's coordinate
/// magnitude: the containment test recomputes `Aᵀ(p - c)` in f32 and may round a
/// point on the boundary a few ulps outside.
const FIT_SLACK: f32 = 16.0 * f32::EPSILON;

impl Obb2 {
    /// A box from its parts.
    #[inline]
    pub fn new(center: Vec2, rotation: Rot2, half_extents: Vec2) -> Self {
        Obb2 {
            center,
            rotation,
            half_extents,
        }
    }

    /// The box `local` (in a body's frame) placed at `pose`.
    pub fn from_aabb(local: &Aabb2, pose: &Pose2) -> Self {
        Obb2::new(
            pose.transform_point(local.center()),
            pose.rotation,
            local.half_extents(),
        )
    }

    /// The box after the rigid `pose` (exact: an oriented box stays one).
    pub fn transformed(&self, pose: &Pose2) -> Self {
        Obb2::new(
            pose.transform_point(self.center),
            pose.rotation.mul(self.rotation),
            self.half_extents,
        )
    }

    /// The unit axes.
    #[inline]
    pub fn axes(&self) -> [Vec2; 2] {
        [self.rotation.rotate(Vec2::X), self.rotation.rotate(Vec2::Y)]
    }

    /// The four corners, counter-clockwise.
    pub fn corners(&self) -> [Vec2; 4] {
        let [u, v] = self.axes();
        let (hu, hv) = (u * self.half_extents.x, v * self.half_extents.y);
        let c = self.center;
        [c - hu - hv, c + hu - hv, c + hu + hv, c - hu + hv]
    }

    /// Whether the closed box holds `p`.
    #[inline]
    pub fn contains_point(&self, p: Vec2) -> bool {
        let local = self.rotation.inv_rotate(p - self.center);
        local.abs().cmple(self.half_extents).all()
    }

    /// The area.
    #[inline]
    pub fn area(&self) -> f32 {
        4.0 * self.half_extents.x * self.half_extents.y
    }

    /// The axis-aligned box around it (`|R|·h`, as in [`Aabb2::transformed`]).
    pub fn aabb(&self) -> Aabb2 {
        let (c, s) = (self.rotation.cos.abs(), self.rotation.sin.abs());
        let h = self.half_extents;
        Aabb2::from_center_half_extents(
            self.center,
            Vec2::new(c * h.x + s * h.y, s * h.x + c * h.y),
        )
    }

    /// A box holding all points, aligned with their principal axes: the
    /// eigenvectors of the covariance matrix (Ericson, Real-Time Collision
    /// Detection, 4.4.3). In 2D the major axis has the closed-form angle
    /// `θ = ½·atan2(2 c_xy, c_xx - c_yy)`. An isotropic covariance (a square's
    /// corners, a regular polygon, a single point) gives `θ = 0`, so the
    /// result is deterministic. Extents come from projecting the points on the
    /// axes, plus a few ulps of slack so that [`contains_point`](Self::contains_point)
    /// holds for every input point.
    ///
    /// PCA boxes are not minimal (a minimum-area box has an edge on the hull), but
    /// fast and stable.
    ///
    /// Errors: no points, or a non-finite point.
    pub fn from_points(points: &[Vec2]) -> Result<Self, GeometryError> {
        check_points(points)?;
        let n = points.len() as f64;
        let mean = points.iter().map(|p| p.as_dvec2()).sum::<glam::DVec2>() / n;
        let (mut cxx, mut cyy, mut cxy) = (0.0, 0.0, 0.0);
        for p in points {
            let d = p.as_dvec2() - mean;
            cxx += d.x * d.x;
            cyy += d.y * d.y;
            cxy += d.x * d.y;
        }
        let angle = 0.5 * (2.0 * cxy).atan2(cxx - cyy);
        let rotation = Rot2::from_angle(angle as f32);
        let mean32 = mean.as_vec2();
        let (mut lo, mut hi) = (Vec2::MAX, Vec2::MIN);
        for &p in points {
            let l = rotation.inv_rotate(p - mean32);
            lo = lo.min(l);
            hi = hi.max(l);
        }
        let slack = FIT_SLACK * coordinate_scale(points.iter().map(|p| p.abs().max_element()));
        let center = mean32 + rotation.rotate((lo + hi) * 0.5);
        let half = (hi - lo) * 0.5 + Vec2::splat(slack);
        Ok(Obb2::new(center, rotation, half))
    }

    /// Whether the two closed boxes overlap, by the separating-axis theorem: two
    /// convex polygons are disjoint iff the projections on some edge normal are
    /// disjoint; a box has two edge directions, so four axes suffice. On axis `L`
    /// the projected radius of a box is `Σ h_i |u_i·L|` and the centers are
    /// `|t·L|` apart (Gottschalk, Lin and Manocha, "OBBTree", 1996, in 2D).
    /// Touching boxes overlap. `REL_EPS` is added to `|R|` as in the 3D test.
    pub fn overlaps(&self, o: &Obb2) -> bool {
        // B's axes and center in A's frame.
        let rel = self.rotation.inverse().mul(o.rotation);
        let t = self.rotation.inv_rotate(o.center - self.center);
        let (c, s) = (rel.cos, rel.sin);
        // R_ij = a_i·b_j: columns are B's axes in A's frame.
        let r = [[c, -s], [s, c]];
        let abs_r = r.map(|row| row.map(|x| x.abs() + REL_EPS));
        let (ea, eb) = (self.half_extents, o.half_extents);
        // A's axes.
        for i in 0..2 {
            let rb = eb.x * abs_r[i][0] + eb.y * abs_r[i][1];
            if t[i].abs() > ea[i] + rb {
                return false;
            }
        }
        // B's axes.
        for j in 0..2 {
            let ra = ea.x * abs_r[0][j] + ea.y * abs_r[1][j];
            let tl = t.x * r[0][j] + t.y * r[1][j];
            if tl.abs() > ra + eb[j] {
                return false;
            }
        }
        true
    }
}

impl Obb3 {
    /// A box from its parts (`axes` must be orthonormal).
    #[inline]
    pub fn new(center: Vec3, axes: Mat3, half_extents: Vec3) -> Self {
        Obb3 {
            center,
            axes,
            half_extents,
        }
    }

    /// The box `local` (in a body's frame) placed at `pose`.
    pub fn from_aabb(local: &Aabb3, pose: &Pose3) -> Self {
        Obb3::new(
            pose.transform_point(local.center()),
            pose.rotation_matrix(),
            local.half_extents(),
        )
    }

    /// The box after the rigid `pose` (exact: an oriented box stays one).
    pub fn transformed(&self, pose: &Pose3) -> Self {
        Obb3::new(
            pose.transform_point(self.center),
            pose.rotation_matrix() * self.axes,
            self.half_extents,
        )
    }

    /// The eight corners; corner `k` takes `+h_i` on axis `i` when bit `i` of `k`
    /// is set, else `-h_i`.
    pub fn corners(&self) -> [Vec3; 8] {
        let h = self.half_extents;
        core::array::from_fn(|k| {
            let s = Vec3::new(
                if k & 1 != 0 { h.x } else { -h.x },
                if k & 2 != 0 { h.y } else { -h.y },
                if k & 4 != 0 { h.z } else { -h.z },
            );
            self.center + self.axes * s
        })
    }

    /// Whether the closed box holds `p`.
    #[inline]
    pub fn contains_point(&self, p: Vec3) -> bool {
        let local = self.axes.transpose() * (p - self.center);
        local.abs().cmple(self.half_extents).all()
    }

    /// The volume.
    #[inline]
    pub fn volume(&self) -> f32 {
        8.0 * self.half_extents.element_product()
    }

    /// The axis-aligned box around it (`|A|·h`, as in [`Aabb3::transformed`]).
    pub fn aabb(&self) -> Aabb3 {
        let m = self.axes;
        let abs_m = Mat3::from_cols(m.x_axis.abs(), m.y_axis.abs(), m.z_axis.abs());
        Aabb3::from_center_half_extents(self.center, abs_m * self.half_extents)
    }

    /// A box holding all points, aligned with their principal axes: the
    /// eigenvectors of the covariance matrix `C = 1/n Σ (p - m)(p - m)ᵀ`
    /// (Gottschalk et al. 1996; Ericson, Real-Time Collision Detection, 4.4.3),
    /// found by Jacobi rotations, which return an orthonormal frame also when
    /// `C` is singular (collinear or coplanar points) or has repeated
    /// eigenvalues. Axes are ordered by decreasing variance and right-handed.
    /// Extents come from projecting the points, plus a few ulps of slack so that
    /// [`contains_point`](Self::contains_point) holds for every input point.
    ///
    /// Errors: no points, or a non-finite point.
    pub fn from_points(points: &[Vec3]) -> Result<Self, GeometryError> {
        check_points(points)?;
        let n = points.len() as f64;
        let mean = points.iter().map(|p| p.as_dvec3()).sum::<glam::DVec3>() / n;
        let mut cov = [[0.0f64; 3]; 3];
        for p in points {
            let d = (p.as_dvec3() - mean).to_array();
            for (r, row) in cov.iter_mut().enumerate() {
                for (c, x) in row.iter_mut().enumerate() {
                    *x += d[r] * d[c] / n;
                }
            }
        }
        let (_, vecs) = symmetric_eigen3(cov);
        // Re-orthonormalize in f32 (Gram–Schmidt) so the frame is a rotation to
        // f32 precision.
        let x = glam::DVec3::from(vecs[0]).as_vec3().normalize_or(Vec3::X);
        let y0 = glam::DVec3::from(vecs[1]).as_vec3();
        let y = (y0 - x * x.dot(y0)).normalize_or(x.any_orthonormal_vector());
        let z = x.cross(y);
        let axes = Mat3::from_cols(x, y, z);
        let mean32 = mean.as_vec3();
        let at = axes.transpose();
        let (mut lo, mut hi) = (Vec3::MAX, Vec3::MIN);
        for &p in points {
            let l = at * (p - mean32);
            lo = lo.min(l);
            hi = hi.max(l);
        }
        let slack = FIT_SLACK * coordinate_scale(points.iter().map(|p| p.abs().max_element()));
        let center = mean32 + axes * ((lo + hi) * 0.5);
        let half = (hi - lo) * 0.5 + Vec3::splat(slack);
        Ok(Obb3::new(center, axes, half))
    }

    /// Whether the two closed boxes overlap: the separating-axis test of
    /// Gottschalk, Lin and Manocha ("OBBTree", SIGGRAPH 1996), as laid out in
    /// Ericson, Real-Time Collision Detection, 4.4.1.
    ///
    /// Two convex polyhedra are disjoint iff some face normal of either or some
    /// cross product of an edge of each separates them; for boxes those are the
    /// 3 + 3 face axes and the 9 products `a_i × b_j`. Working in A's frame,
    /// `R_ij = a_i·b_j` and `t` is B's center. On axis `L` box A projects to
    /// radius `Σ ea_i |a_i·L|`, box B to `Σ eb_j |b_j·L|`, and they are separated
    /// when `|t·L|` exceeds the sum. For `L = a_i × b_j`, the triple products
    /// reduce to entries of `R`: `|a_k·L| = |R_{k'j}|` for the two `k ≠ i` (with
    /// `k'` the third index) and likewise for B, and `t·L = t_{i2} R_{i1 j} -
    /// t_{i1} R_{i2 j}` with `(i, i1, i2)` cyclic.
    ///
    /// When an edge of A is parallel to an edge of B, `a_i × b_j` is near zero and
    /// both sides of the test are rounding noise; adding `REL_EPS` to every `|R_ij|`
    /// makes such an axis never separate (Ericson's remedy). Any real separation
    /// is then found by a face axis. Touching boxes overlap.
    pub fn overlaps(&self, o: &Obb3) -> bool {
        let a = self.axes;
        let b = o.axes;
        let (ea, eb) = (self.half_extents.to_array(), o.half_extents.to_array());
        let a_cols = [a.x_axis, a.y_axis, a.z_axis];
        let b_cols = [b.x_axis, b.y_axis, b.z_axis];
        let r: [[f32; 3]; 3] =
            core::array::from_fn(|i| core::array::from_fn(|j| a_cols[i].dot(b_cols[j])));
        let abs_r = r.map(|row| row.map(|x| x.abs() + REL_EPS));
        let d = o.center - self.center;
        let t = [d.dot(a_cols[0]), d.dot(a_cols[1]), d.dot(a_cols[2])];

        // L = a_i.
        for i in 0..3 {
            let ra = ea[i];
            let rb = eb[0] * abs_r[i][0] + eb[1] * abs_r[i][1] + eb[2] * abs_r[i][2];
            if t[i].abs() > ra + rb {
                return false;
            }
        }
        // L = b_j.
        for j in 0..3 {
            let ra = ea[0] * abs_r[0][j] + ea[1] * abs_r[1][j] + ea[2] * abs_r[2][j];
            let rb = eb[j];
            let tl = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
            if tl.abs() > ra + rb {
                return false;
            }
        }
        // L = a_i × b_j.
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let ra = ea[i1] * abs_r[i2][j] + ea[i2] * abs_r[i1][j];
                let rb = eb[j1] * abs_r[i][j2] + eb[j2] * abs_r[i][j1];
                let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
                if tl.abs() > ra + rb {
                    return false;
                }
            }
        }
        true
    }
}

/// Input checks shared by the fitters.
fn check_points<V: crate::math::Vector>(points: &[V]) -> Result<(), GeometryError> {
    if points.is_empty() {
        return Err(GeometryError::TooFew {
            what: "oriented bounding box",
            needed: 1,
            got: 0,
        });
    }
    if points.iter().any(|p| !p.is_finite()) {
        return Err(GeometryError::NonFinite {
            what: "oriented bounding box input point",
        });
    }
    Ok(())
}

/// The largest coordinate magnitude (positive, so the slack is never zero).
fn coordinate_scale(mags: impl Iterator<Item = f32>) -> f32 {
    mags.fold(f32::MIN_POSITIVE, f32::max)
}
