//! Duplicates: the same geometry modelled twice.

use super::frame::PairFrame;
use crate::clash::{ClashKind, Finding};
use glam::Vec3;

/// The duplicate finding of the pair: every vertex of each mesh within
/// `tolerance` of the other's surface (the vertex Hausdorff distance), with
/// bounding boxes that agree within `tolerance`. The distance is the largest
/// deviation found, at the points reported.
pub(crate) fn duplicate(pair: &PairFrame, tolerance: f64) -> Option<Finding> {
    let (ba, bb) = (pair.a.bounds(), pair.b.bounds());
    let off = (ba.min - bb.min).abs().max((ba.max - bb.max).abs());
    let worst = off.max_element();
    if worst.is_nan() || tolerance.is_nan() || worst > tolerance {
        return None;
    }
    let tol = tolerance as f32;
    let forward = farthest_vertex(pair, tol)?;
    let swapped = pair.swapped();
    let back = farthest_vertex(&swapped, tol)?;
    let shift = pair.pose_b.translation;
    // (deviation, point on A, point on B), in A's frame.
    let worst = if back.0 > forward.0 {
        (back.0, back.2 + shift, back.1 + shift)
    } else {
        forward
    };
    Some(Finding {
        kind: ClashKind::Duplicate,
        point_a: pair.world(worst.1),
        point_b: pair.world(worst.2),
        distance: f64::from(worst.0),
    })
}

/// The vertex of `pair.a` farthest from `pair.b`'s surface, with its nearest
/// point there; `None` as soon as one is farther than `tol`.
fn farthest_vertex(pair: &PairFrame, tol: f32) -> Option<(f32, Vec3, Vec3)> {
    let mesh_b = pair.mesh_b();
    let off = pair.pose_b.translation;
    let mut worst = (0.0f32, Vec3::ZERO, Vec3::ZERO);
    let mut any = false;
    for &v in pair.mesh_a().vertices() {
        let proj = mesh_b.project_local_point_within(v - off, tol)?;
        if !any || proj.distance > worst.0 {
            worst = (proj.distance, v, proj.point + off);
            any = true;
        }
    }
    Some(worst)
}
