//! GJK and EPA combined into a signed distance between two rounded convex
//! shapes, radii added after the core query (as Jolt does).

use super::epa::epa;
use super::gjk_distance::{gjk, gjk_local, GjkStatus};
use super::support::SupportMap;
use super::GjkCache;
use crate::math::{Pose3, Vec3};

/// Signed distance between two convex shapes, in A's frame.
///
/// The field order is fixed (`repr(C)`) so that the four bytes after every
/// `Vec3` hold an ordinary float: LLVM loads a `Vec3` field into a 4-lane
/// register with one 16-byte load and computes on all four lanes, and when
/// the fourth lane was the status byte and stack padding (as in the default
/// layout) it was often a subnormal, so every multiplication on it took a
/// microcode assist (~150 cycles): 17% of a hull-hull distance query was
/// spent rotating the result to world space.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct SignedDistance {
    /// Closest (deepest when overlapping) point on A's surface, A's frame.
    pub point_a: Vec3,
    /// Closest (deepest) point on B's surface, A's frame.
    pub point_b: Vec3,
    /// Unit normal from A to B (A's frame).
    pub normal: Vec3,
    /// `> 0` separated, `< 0` overlapping (minus the penetration depth).
    pub distance: f32,
    /// The status of the GJK run on the cores.
    pub status: GjkStatus,
}

/// Signed distance, closest points and normal of two convex shapes given by
/// support maps (B placed by `pose_ab` in A's frame).
///
/// GJK runs on the cores. When they are disjoint, the distance is the core
/// distance minus both radii (exact for rounded shapes, whatever the sign).
/// When they overlap, EPA gives the core penetration and the radii are added
/// to it: inflating both cores by `r_a + r_b` moves every support plane of the
/// Minkowski difference out by that much, so the MTD direction is unchanged.
pub fn signed_distance<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose3,
    cache: Option<&mut GjkCache>,
) -> SignedDistance {
    signed_from_gjk(a, b, pose_ab, gjk(a, b, pose_ab, cache))
}

/// [`signed_distance`] for a `b` whose support function answers in A's frame
/// already (see [`gjk_local`]); `centre_b` is B's reference point in A's frame.
pub fn signed_distance_local<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    centre_b: Vec3,
    cache: Option<&mut GjkCache>,
) -> SignedDistance {
    let g = gjk_local(a, b, centre_b, cache);
    signed_from_gjk(a, b, &Pose3::IDENTITY, g)
}

/// The signed distance from GJK's answer `g` on the cores: the core distance
/// when separated, else EPA's penetration; then the radii.
fn signed_from_gjk<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose3,
    g: super::GjkOutput,
) -> SignedDistance {
    let (ra, rb) = (a.core_radius(), b.core_radius());
    let separated = match g.status {
        GjkStatus::Separated | GjkStatus::Indeterminate => g.distance > 0.0,
        GjkStatus::Overlapping => false,
    };
    let (core_dist, normal, pa, pb) = match (separated, separation_normal(&g.simplex)) {
        (true, Some((n, d))) => (d, n, g.point_a, g.point_b),
        _ => {
            let e = epa(a, b, pose_ab, &g.simplex);
            let (pa, pb) = refine_witnesses(a, b, pose_ab, &e, g.simplex.max_norm_sq().sqrt());
            (-e.depth, e.normal, pa, pb)
        }
    };
    SignedDistance {
        distance: core_dist - ra - rb,
        point_a: pa + normal * ra,
        point_b: pb - normal * rb,
        normal,
        status: g.status,
    }
}

/// The separation normal (from A to B) and the distance, from the point `v`
/// of GJK's final simplex closest to the origin, in f64: `v = a − b` for the
/// closest pair, so the normal is `−v/|v|`.
///
/// The signed-volumes solver gives `v` from the f32 vertices with f64
/// arithmetic (on a face, as the projection on the face's f64 normal), so its
/// direction stays accurate at tiny distances and on sliver simplices (two
/// nearby points of a curved rim against a flat face), where the f32
/// difference of the witness points, or a face normal from f32 cross products,
/// can be off by 1e-2 rad. `None` when `v` has no direction.
fn separation_normal(simplex: &super::Simplex) -> Option<(Vec3, f32)> {
    let v = simplex.closest();
    let len = v.length();
    if len <= 0.0 || !len.is_finite() {
        return None;
    }
    let n = (-v / len).as_vec3();
    (n.length_squared() > 0.0).then_some((n, len as f32))
}

/// EPA's witness points come from barycentric coordinates on its nearest face;
/// on a sliver face (nearly collinear vertices from a curved rim) they can be
/// off even when depth and normal are right. Then the witnesses are recomputed
/// by GJK with B moved just clear along the MTD: translating B along `n`
/// keeps the pair of surface points whose common normal is `n`, so the closest
/// points of the separated pair, moved back, are the deepest points.
fn refine_witnesses<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose3,
    e: &super::EpaOutput,
    scale: f32,
) -> (Vec3, Vec3) {
    let scale = scale.max(e.depth.abs()).max(f32::MIN_POSITIVE);
    let residual = (e.point_a - e.point_b - e.normal * e.depth).length();
    if residual <= 1e-5 * scale {
        return (e.point_a, e.point_b);
    }
    let shift = e.normal * (e.depth + 1e-3 * scale);
    let moved = Pose3 {
        translation: pose_ab.translation + shift,
        rotation: pose_ab.rotation,
    };
    let g = gjk(a, b, &moved, None);
    if g.status == GjkStatus::Separated && g.distance > 0.0 {
        (g.point_a, g.point_b - shift)
    } else {
        (e.point_a, e.point_b)
    }
}

/// Whether two convex shapes overlap or touch: GJK on the cores only (no EPA).
pub fn intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose3,
) -> bool {
    let g = gjk(a, b, pose_ab, None);
    match g.status {
        GjkStatus::Overlapping => true,
        _ => g.distance <= a.core_radius() + b.core_radius(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::gjk::BoxCore;

    struct Ball(f32);
    impl SupportMap for Ball {
        fn support(&self, _d: Vec3) -> Vec3 {
            Vec3::ZERO
        }
        fn core_radius(&self) -> f32 {
            self.0
        }
    }

    #[test]
    fn boxes_separated_and_overlapping() {
        let a = BoxCore(Vec3::new(2.0, 1.0, 1.0));
        let b = BoxCore(Vec3::new(2.0, 1.0, 1.0));
        let far = Pose3::from_translation(Vec3::new(5.0, 0.5, 0.0));
        let d = signed_distance(&a, &b, &far, None);
        assert!((d.distance - 1.0).abs() < 1e-5, "{d:?}");
        assert!((d.normal - Vec3::X).length() < 1e-5);
        let near = Pose3::from_translation(Vec3::new(3.5, 0.0, 0.0));
        let d = signed_distance(&a, &b, &near, None);
        assert!((d.distance + 0.5).abs() < 1e-5, "{d:?}");
        assert!((d.normal - Vec3::X).length() < 1e-5, "{d:?}");
        let up = Pose3::from_translation(Vec3::new(0.0, 0.2, 0.0));
        let d = signed_distance(&a, &b, &up, None);
        assert!((d.distance + 1.8).abs() < 1e-5, "{d:?}");
        assert!((d.normal - Vec3::Y).length() < 1e-5, "{d:?}");
        assert!(intersects(&a, &b, &up));
        assert!(!intersects(&a, &b, &far));
    }

    #[test]
    fn balls_add_radii() {
        let d = signed_distance(
            &Ball(1.0),
            &Ball(0.5),
            &Pose3::from_translation(Vec3::new(0.0, 3.0, 0.0)),
            None,
        );
        assert!((d.distance - 1.5).abs() < 1e-6);
        assert!((d.point_a - Vec3::Y).length() < 1e-6);
        assert!((d.point_b - Vec3::new(0.0, 2.5, 0.0)).length() < 1e-6);
        // Concentric: depth is the radius sum along the policy axis (+x).
        let d = signed_distance(&Ball(1.0), &Ball(0.5), &Pose3::IDENTITY, None);
        assert!((d.distance + 1.5).abs() < 1e-6);
        assert_eq!(d.normal, Vec3::X);
    }
}
