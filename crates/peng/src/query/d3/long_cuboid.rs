//! A cuboid far longer than the bounded convex shape it meets (a cylinder,
//! cone, polyhedron or triangle): GJK's tolerances scale with the size of
//! the Minkowski difference, so against a cuboid 1e7 long a gap or an
//! overlap of a few units is lost in rounding, and EPA measures depths on
//! vertices millions of units away. The query runs on the stretch of the
//! cuboid near the other shape instead, and keeps that answer where it is
//! provably the whole cuboid's.

use super::distance::{convex_distance, moved};
use crate::bound::Aabb3;
use crate::math::{Pose3, Vec3};
use crate::query::gjk::{GjkStatus, SignedDistance};
use crate::shape::d3::{Cuboid, Shape};

/// Signed distance of the cuboid `cuboid` (half extents `h`, A, its own
/// frame) and `other` placed by `pose` in the cuboid's frame.
pub(super) fn long_cuboid_distance(
    cuboid: &Shape,
    h: Vec3,
    other: &Shape,
    pose: &Pose3,
) -> SignedDistance {
    // A hull's placed box is at least its local box's largest side over √3
    // wide (that side is a chord of the hull, and a box of largest side `s`
    // has no chord longer than `s·√3`): when the cuboid is not long against
    // that, it is not long against the placed box either, which is then not
    // worth computing (a pass over all the hull's vertices).
    if let Shape::Polyhedron(p) = other {
        let b = p.local_aabb();
        let least = (b.max - b.min).max_element() * (0.999 / 3.0f32.sqrt());
        if h.max_element() <= 256.0 * least {
            return convex_distance(cuboid, other, pose);
        }
    }
    let Some(cut) = cuboid_near(h, &other.aabb(pose)) else {
        return convex_distance(cuboid, other, pose);
    };
    let near: Shape = match Cuboid::new((cut.max - cut.min) * 0.5) {
        Ok(c) => c.into(),
        Err(_) => return convex_distance(cuboid, other, pose),
    };
    let centre = Pose3::from_translation((cut.max + cut.min) * 0.5);
    let d = moved(
        convex_distance(&near, other, &centre.inv_mul(pose)),
        &centre,
    );
    if d.distance > 0.0 && d.status == GjkStatus::Separated {
        return d;
    }
    certified_overlap(h, &cut, other, pose, &d)
        .unwrap_or_else(|| convex_distance(cuboid, other, pose))
}

/// The part of a long cuboid (half extents `h`) within the box `other` of
/// the other shape (in the cuboid's frame), widened by the other's size;
/// `None` unless the cuboid's largest half extent is over 256 times that
/// size.
///
/// The closest point of the cuboid to a point `p` is `p` clamped to the box,
/// so for a point of the other shape it lies within the other's bounds on
/// every axis: the cut box holds it, and the separation distance is the
/// same. Overlap depths need [`certified_overlap`].
fn cuboid_near(h: Vec3, other: &Aabb3) -> Option<Aabb3> {
    let size = (other.max - other.min).max_element();
    if size.is_nan() || h.max_element() <= 256.0 * size {
        return None;
    }
    // Past the box's end along an axis the range shrinks to the end face.
    let lo = (other.min - Vec3::splat(size)).max(-h).min(h);
    let hi = (other.max + Vec3::splat(size)).min(h).max(-h);
    Some(Aabb3 {
        min: lo.min(hi),
        max: lo.max(hi),
    })
}

/// The whole cuboid's overlap with `other`, from the cut box's answer `d`
/// (A's frame), or `None` when it cannot be certified.
///
/// The depth of convex shapes is `min` over unit `n` of the overlap along
/// `n`, `h_A(n) + h_B(−n)` (support functions). The cut box lies inside the
/// cuboid, so its overlap along every `n` is at most the cuboid's: its
/// depth is a lower bound. Along a direction `n'` with no component on the
/// axes where the box was cut, both have the same support, so the overlap
/// along `n'` (exact, from the support points) is an upper bound. `n'` is
/// the cut answer's normal with those components removed; when the two
/// bounds agree, that is the depth.
fn certified_overlap(
    h: Vec3,
    cut: &Aabb3,
    other: &Shape,
    pose: &Pose3,
    d: &SignedDistance,
) -> Option<SignedDistance> {
    let whole = Vec3::select(cut.min.cmple(-h) & cut.max.cmpge(h), Vec3::ONE, Vec3::ZERO);
    let kept = d.normal * whole;
    // A normal leaning on a cut axis cannot be certified this way.
    let square = kept.length_squared() >= 0.999;
    if !square {
        return None;
    }
    let n = kept.normalize();
    let support_b = pose.transform_point(other.local_support(pose.inverse_transform_vector(-n)));
    let overlap = n.abs().dot(h) - n.dot(support_b);
    let size = (cut.max - cut.min).max_element();
    let lower = (-d.distance).max(0.0);
    let bounds_agree = overlap <= lower * (1.0 + 1e-4) + 1e-5 * size;
    if !bounds_agree {
        return None;
    }
    // The deepest point of A: the cut answer's, moved onto A's support
    // plane along `n`.
    let point_a = d.point_a + n * (n.abs().dot(h) - n.dot(d.point_a));
    Some(SignedDistance {
        distance: -overlap,
        point_a,
        point_b: point_a - n * overlap,
        normal: n,
        status: GjkStatus::Overlapping,
    })
}
