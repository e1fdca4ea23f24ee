//! Clearance: separated elements closer than a distance.

use super::frame::PairFrame;
use super::hard::{containment, hard_meeting};
use crate::check::NUMERIC_TOUCH;
use crate::clash::{ClashKind, Finding};
use peng::math::Pose3;
use peng::mesh::MeshDistance;

/// How much closer than the clearance a gap must be to count: the meshes'
/// f32 vertices carry about 0.1 µm of rounding at building scale, so a gap
/// measured within 1 µm of `clearance` is taken as exactly at it (no clash).
pub(crate) const CLEARANCE_SLACK: f64 = 1e-6;

/// The clearance clash of the pair: their surfaces less than `clearance`
/// apart (by more than [`CLEARANCE_SLACK`]). Elements whose surfaces touch or
/// cross, or one inside the other, get their hard finding (touching included),
/// since they are closer than any clearance.
pub(crate) fn clearance(pair: &PairFrame, clearance: f64) -> Option<Finding> {
    let limit = clearance - CLEARANCE_SLACK;
    if limit.is_nan() || limit <= 0.0 {
        return None;
    }
    let d = pair.mesh_a().distance_to_mesh_within(
        &Pose3::IDENTITY,
        pair.mesh_b(),
        &pair.pose_b,
        limit as f32,
    );
    match d {
        // Within the meshes' rounding they meet (and are at least a gap).
        Some(d) if f64::from(d.distance) <= NUMERIC_TOUCH => {
            hard_meeting(pair, NUMERIC_TOUCH, true, Some(d)).or_else(|| Some(gap(pair, &d)))
        }
        Some(d) if f64::from(d.distance) < limit => {
            Some(containment(pair, 0.0).unwrap_or_else(|| gap(pair, &d)))
        }
        // Farther than the clearance, but one may still lie inside the other.
        _ => containment(pair, 0.0),
    }
}

/// A clearance finding at the measured gap `d`.
fn gap(pair: &PairFrame, d: &MeshDistance) -> Finding {
    Finding {
        kind: ClashKind::Clearance,
        point_a: pair.world(d.point_a),
        point_b: pair.world(d.point_b),
        distance: f64::from(d.distance),
    }
}
