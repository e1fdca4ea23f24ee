//! A hull's support function that remembers its last answer.

use super::ConvexPolyhedron;
use crate::math::Vec3;
use crate::query::gjk::SupportMap;
use std::cell::Cell;

/// A [`ConvexPolyhedron`] for one GJK or EPA run: each support query climbs
/// from the vertex the previous one returned. Successive directions of a run
/// are close, so the climb takes a step or two where a climb from the
/// hull's table of directions takes more; the answers are those of
/// [`ConvexPolyhedron::support_vertex`] (the plateau search makes the
/// climb's result independent of where it starts).
pub(crate) struct WarmSupport<'a> {
    hull: &'a ConvexPolyhedron,
    last: Cell<u32>,
}

impl<'a> WarmSupport<'a> {
    /// The hull, its first climb from its table of directions.
    pub(crate) fn new(hull: &'a ConvexPolyhedron) -> Self {
        WarmSupport {
            hull,
            last: Cell::new(u32::MAX),
        }
    }
}

impl SupportMap for WarmSupport<'_> {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        let v = self.hull.support_vertex_from(self.last.get(), dir);
        self.last.set(v as u32);
        self.hull.vertices()[v]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of nearby directions, as GJK asks them, and jumps between far
    /// ones: every answer is the hull's own support point.
    #[test]
    fn answers_are_the_hulls_support_points() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut unit = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        };
        for n in [40, 300, 1500] {
            let pts: Vec<Vec3> = (0..n)
                .map(|_| Vec3::new(unit(), unit(), unit()).normalize_or(Vec3::X))
                .collect();
            let hull = ConvexPolyhedron::from_points(&pts).unwrap();
            let warm = WarmSupport::new(&hull);
            let mut dir = Vec3::X;
            for k in 0..2000 {
                let step = if k % 50 == 0 { 2.0 } else { 0.05 };
                dir = (dir + Vec3::new(unit(), unit(), unit()) * step).normalize_or(Vec3::Y);
                assert_eq!(warm.support(dir), hull.support(dir), "{n} points, {dir}");
            }
            // Face normals: directions with many vertices tied within rounding.
            for f in hull.faces() {
                assert_eq!(warm.support(f.normal), hull.support(f.normal));
            }
        }
    }
}
