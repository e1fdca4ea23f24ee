//! Small vertex sets in structure-of-arrays form, for support queries that
//! test four vertices per SIMD operation.
//!
//! GJK on two small hulls spends most of its time in support queries: two per
//! iteration, each a scan of every vertex. Stored as `Vec3`s, a scan is one
//! dot product (three products and two sums on scalars) per vertex. Transposed
//! once per query into lanes of four (`x`, `y`, `z` arrays of `Vec4`), a scan is
//! three products and two sums per *four* vertices, then a horizontal maximum.
//! The transposition costs about as much as one scalar scan and is repaid from
//! the second support query on. B's vertices are mapped into A's frame while
//! they are transposed, so GJK needs no pose arithmetic per support query
//! (van den Bergen, *Collision Detection in Interactive 3D Environments*, 4.3.3,
//! recommends the same for hulls: map the smaller set once).

use super::support::SupportMap;
use crate::math::{Pose3, Vec3};
use glam::{Mat3, Vec4};

/// The most vertices a [`Cloud`] of `C` chunks holds.
pub(crate) const fn cloud_max(chunks: usize) -> usize {
    4 * chunks
}

/// Up to `4·C` points in lanes of four. Lanes past the last point repeat
/// point 0, so they never win a support query against a lower index. The
/// chunk count is a constant so that the scan is unrolled without branches;
/// a 16-vertex hull is `Cloud<4>`.
#[derive(Debug, Clone, Copy)]
pub struct Cloud<const C: usize> {
    x: [Vec4; C],
    y: [Vec4; C],
    z: [Vec4; C],
}

impl<const C: usize> Cloud<C> {
    /// The points mapped by `pose` (`None`: as given); `None` when there are
    /// no points or more than `4·C`.
    pub fn new(points: &[Vec3], pose: Option<&Pose3>) -> Option<Self> {
        // `support_index` packs one bit per lane into a u64.
        const { assert!(C <= 16) };
        let first = *points.first()?;
        if points.len() > cloud_max(C) {
            return None;
        }
        // p' = R p + t on four points at once, R's entries splatted.
        let (r, t) = match pose {
            Some(p) => (Mat3::from_quat(p.rotation), p.translation),
            None => (Mat3::IDENTITY, Vec3::ZERO),
        };
        let s = Vec4::splat;
        let place = |[p0, p1, p2, p3]: &[Vec3; 4]| {
            let x = Vec4::new(p0.x, p1.x, p2.x, p3.x);
            let y = Vec4::new(p0.y, p1.y, p2.y, p3.y);
            let z = Vec4::new(p0.z, p1.z, p2.z, p3.z);
            if pose.is_none() {
                return (x, y, z);
            }
            (
                s(r.x_axis.x) * x + s(r.y_axis.x) * y + s(r.z_axis.x) * z + s(t.x),
                s(r.x_axis.y) * x + s(r.y_axis.y) * y + s(r.z_axis.y) * z + s(t.y),
                s(r.x_axis.z) * x + s(r.y_axis.z) * y + s(r.z_axis.z) * z + s(t.z),
            )
        };
        // Whole chunks are transposed straight from the slice, by reference
        // (a staging copy padded to whole chunks, or chunks copied by value,
        // went through the stack with overlapping loads that missed store
        // forwarding); the partial chunk and the empty ones are padded with
        // point 0.
        let (whole, rest) = points.as_chunks::<4>();
        let pad = |l: usize| rest.get(l).copied().unwrap_or(first);
        let tail = [pad(0), pad(1), pad(2), pad(3)];
        let fill = [first; 4];
        let mut c = Cloud {
            x: [Vec4::ZERO; C],
            y: [Vec4::ZERO; C],
            z: [Vec4::ZERO; C],
        };
        for k in 0..C {
            let q = match whole.get(k) {
                Some(q) => q,
                None if k == whole.len() => &tail,
                None => &fill,
            };
            (c.x[k], c.y[k], c.z[k]) = place(q);
        }
        Some(c)
    }

    /// The cloud of points already in blocks of four (`[xs, ys, zs]` per
    /// block, the last block padded with copies of point 0, as
    /// `ConvexPolyhedron::vertex_blocks` caches them), mapped by `pose` (`None`: as given); `None` when there are
    /// no blocks or more than `C`. No transposition: the same lanes as
    /// [`Cloud::new`] on the points, bit for bit.
    pub(crate) fn from_blocks(blocks: &[[Vec4; 3]], pose: Option<&Pose3>) -> Option<Self> {
        let [bx, by, bz] = *blocks.first()?;
        if blocks.len() > C {
            return None;
        }
        let s = Vec4::splat;
        let fill = [s(bx.x), s(by.x), s(bz.x)];
        let mut c = Cloud {
            x: [Vec4::ZERO; C],
            y: [Vec4::ZERO; C],
            z: [Vec4::ZERO; C],
        };
        for k in 0..C {
            let [x, y, z] = blocks.get(k).copied().unwrap_or(fill);
            (c.x[k], c.y[k], c.z[k]) = (x, y, z);
        }
        if let Some(pose) = pose {
            let r = Mat3::from_quat(pose.rotation);
            let t = pose.translation;
            for k in 0..C {
                let (x, y, z) = (c.x[k], c.y[k], c.z[k]);
                c.x[k] = s(r.x_axis.x) * x + s(r.y_axis.x) * y + s(r.z_axis.x) * z + s(t.x);
                c.y[k] = s(r.x_axis.y) * x + s(r.y_axis.y) * y + s(r.z_axis.y) * z + s(t.y);
                c.z[k] = s(r.x_axis.z) * x + s(r.y_axis.z) * y + s(r.z_axis.z) * z + s(t.z);
            }
        }
        Some(c)
    }

    /// Number of lanes (`4·C`; lanes past the points repeat point 0).
    #[inline]
    pub fn lanes(&self) -> usize {
        cloud_max(C)
    }

    /// Point `i` (a lane index below [`Cloud::lanes`]; point 0 beyond).
    #[inline]
    pub fn point(&self, i: usize) -> Vec3 {
        let i = if i < cloud_max(C) { i } else { 0 };
        let (k, l) = (i / 4, i % 4);
        let (x, y, z): (&[f32; 4], &[f32; 4], &[f32; 4]) =
            (self.x[k].as_ref(), self.y[k].as_ref(), self.z[k].as_ref());
        Vec3::new(x[l], y[l], z[l])
    }

    /// Index of the point farthest along `dir`, the lowest on exact ties
    /// (0 when `dir` is not finite). The dot products are rounded exactly as
    /// `Vec3::dot` rounds them (`x·dx + y·dy + z·dz`, no fused operations), so
    /// the answer is the same as a scalar scan's.
    ///
    /// One pass takes the lane-wise maximum; then every chunk's dot products
    /// (kept from the first pass) are compared with it, the comparison masks
    /// are packed into one bit per point, and the lowest set bit is the
    /// answer. No branch depends on where the maximum is: a loop stopping at
    /// the first chunk that holds it mispredicted about once per scan, and
    /// GJK scans twice per iteration on a chain that waits for the answer.
    #[inline]
    pub fn support_index(&self, dir: Vec3) -> usize {
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let dots: [Vec4; C] =
            std::array::from_fn(|k| self.x[k] * dx + self.y[k] * dy + self.z[k] * dz);
        let mut m = dots[0];
        for d in &dots[1..] {
            m = m.max(*d);
        }
        let top = Vec4::splat(m.max_element());
        let mut bits = 0u64;
        for (k, d) in dots.iter().enumerate() {
            bits |= (d.cmpeq(top).bitmask() as u64) << (4 * k);
        }
        // A NaN direction: no lane equals the maximum, `bits` is 0 and
        // `trailing_zeros` is 64, mapped to point 0.
        let i = bits.trailing_zeros() as usize;
        if i < cloud_max(C) {
            i
        } else {
            0
        }
    }
}

impl<const C: usize> SupportMap for Cloud<C> {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.point(self.support_index(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(ps: &[Vec3], d: Vec3) -> usize {
        let mut best = 0;
        for (i, p) in ps.iter().enumerate() {
            if p.dot(d) > ps[best].dot(d) {
                best = i;
            }
        }
        best
    }

    #[test]
    fn matches_a_scalar_scan_and_breaks_ties_low() {
        let mut s = 0x1234_5678u32;
        let mut r = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s as f32 / u32::MAX as f32) * 2.0 - 1.0
        };
        for n in [1, 3, 4, 5, 16, 17, 32] {
            let ps: Vec<Vec3> = (0..n).map(|_| Vec3::new(r(), r(), r())).collect();
            let c = Cloud::<8>::new(&ps, None).expect("fits");
            for _ in 0..50 {
                let d = Vec3::new(r(), r(), r());
                let i = c.support_index(d);
                assert_eq!(i, scan(&ps, d), "n {n}");
                assert_eq!(c.point(i), ps[i]);
            }
        }
        // Ties (a repeated point, a direction orthogonal to the spread).
        let ps = [Vec3::X, Vec3::Y, Vec3::X, -Vec3::Y, Vec3::X];
        let c = Cloud::<2>::new(&ps, None).expect("fits");
        assert_eq!(c.support_index(Vec3::X), 0);
        assert_eq!(c.support_index(Vec3::Z), 0);
        assert_eq!(c.support_index(Vec3::new(f32::NAN, 0.0, 0.0)), 0);
        assert!(Cloud::<4>::new(&[], None).is_none());
        assert!(Cloud::<4>::new(&[Vec3::ZERO; 17], None).is_none());
        assert!(Cloud::<4>::new(&[Vec3::ZERO; 16], None).is_some());
    }

    #[test]
    fn cloud_from_blocks_is_cloud_from_points() {
        let pose = Pose3::from_axis_angle(Vec3::new(-1.0, 0.5, 2.0), Vec3::new(-0.7, 0.2, 1.1));
        for n in [1usize, 4, 6, 9, 16] {
            let ps: Vec<Vec3> = (0..n)
                .map(|i| Vec3::new(i as f32 * 0.7, 1.0 / (1.0 + i as f32), (i % 3) as f32))
                .collect();
            let pad = |i: usize| ps.get(i).copied().unwrap_or(ps[0]);
            let blocks: Vec<[Vec4; 3]> = (0..n.div_ceil(4))
                .map(|b| {
                    let q = [pad(4 * b), pad(4 * b + 1), pad(4 * b + 2), pad(4 * b + 3)];
                    [
                        Vec4::new(q[0].x, q[1].x, q[2].x, q[3].x),
                        Vec4::new(q[0].y, q[1].y, q[2].y, q[3].y),
                        Vec4::new(q[0].z, q[1].z, q[2].z, q[3].z),
                    ]
                })
                .collect();
            for pose in [None, Some(&pose)] {
                let a = Cloud::<4>::new(&ps, pose).expect("fits");
                let b = Cloud::<4>::from_blocks(&blocks, pose).expect("fits");
                for i in 0..16 {
                    assert_eq!(a.point(i), b.point(i), "n {n} lane {i}");
                }
            }
        }
        assert!(Cloud::<4>::from_blocks(&[], None).is_none());
        assert!(Cloud::<1>::from_blocks(&[[Vec4::ZERO; 3]; 2], None).is_none());
    }

    #[test]
    fn posed_cloud_is_the_mapped_points() {
        let pose = Pose3::from_axis_angle(Vec3::new(1.0, -2.0, 0.5), Vec3::new(0.3, 0.9, -0.4));
        let ps: Vec<Vec3> = (0..7)
            .map(|i| Vec3::new(i as f32, (i * i) as f32 * 0.1, 1.0 - i as f32 * 0.3))
            .collect();
        let c = Cloud::<2>::new(&ps, Some(&pose)).expect("fits");
        for (i, p) in ps.iter().enumerate() {
            assert!((c.point(i) - pose.transform_point(*p)).length() < 1e-5);
        }
        // Padding lanes repeat point 0.
        assert_eq!(c.lanes(), 8);
        assert_eq!(c.point(7), c.point(0));
        assert_eq!(c.point(99), c.point(0));
    }
}
