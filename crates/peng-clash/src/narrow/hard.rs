//! Hard clashes: surfaces that cross, or one element inside another.

use super::frame::PairFrame;
use super::probe::{deepest_probe, Probe};
use crate::clash::{ClashKind, Finding};

/// The hard clash of the pair, if any.
///
/// - Surfaces that cross (or touch): the deeper of A's probes into B and B's
///   into A ([`super::probe`]) gives the depth, the points and the kind
///   (protrusion or pierce). A depth at most `tolerance` is a touch: reported
///   only when `report_touching` is set.
/// - Surfaces apart, with every corner of one element inside the other,
///   closed, one: containment, as deep as its deepest corner.
pub(crate) fn hard(pair: &PairFrame, tolerance: f64, report_touching: bool) -> Option<Finding> {
    let crossing =
        pair.mesh_a()
            .intersecting_pairs(&peng::math::Pose3::IDENTITY, pair.mesh_b(), &pair.pose_b);
    if crossing.is_empty() {
        return containment(pair);
    }
    let from_a = deepest_probe(pair, &crossing);
    let swapped = pair.swapped();
    let crossing_b: Vec<_> = crossing
        .iter()
        .map(|c| peng::mesh::TrianglePair { a: c.b, b: c.a })
        .collect();
    // B's probes, in B's frame, brought back to A's frame.
    let back = -pair.pose_b.translation;
    let from_b = deepest_probe(&swapped, &crossing_b).map(|p| Probe {
        on_x: p.on_y - back,
        on_y: p.on_x - back,
        ..p
    });
    let deepest = match (from_a, from_b) {
        (Some(a), Some(b)) if b.depth > a.depth => Some(b),
        (Some(a), _) => Some(a),
        (None, b) => b,
    };
    match deepest {
        Some(p) if f64::from(p.depth) > tolerance => Some(Finding {
            kind: p.kind,
            point_a: pair.world(p.on_x),
            point_b: pair.world(p.on_y),
            distance: -f64::from(p.depth),
        }),
        _ if report_touching => {
            // A common point of the two surfaces.
            let d = pair.mesh_a().distance_to_mesh(
                &peng::math::Pose3::IDENTITY,
                pair.mesh_b(),
                &pair.pose_b,
            );
            let depth = deepest.map_or(0.0, |p| f64::from(p.depth));
            Some(Finding {
                kind: ClashKind::Touch,
                point_a: pair.world(d.point_a),
                point_b: pair.world(d.point_b),
                distance: -depth,
            })
        }
        _ => None,
    }
}

/// One element wholly inside the other, closed, one (their surfaces apart).
pub(crate) fn containment(pair: &PairFrame) -> Option<Finding> {
    let inner_a =
        pair.b.is_closed() && pair.inside_b(pair.mesh_a().vertices()[used_vertex(pair.mesh_a())]);
    if inner_a {
        return Some(deepest_corner(pair, false));
    }
    let swapped = pair.swapped();
    let inner_b = pair.a.is_closed()
        && swapped.inside_b(pair.mesh_b().vertices()[used_vertex(pair.mesh_b())]);
    inner_b.then(|| deepest_corner(&swapped, true))
}

/// A vertex that some triangle uses (meshes may carry unused vertices).
fn used_vertex(mesh: &peng::mesh::TriMesh) -> usize {
    mesh.indices()[0][0] as usize
}

/// A containment finding: the corner of the inner element (`pair.a`) farthest
/// from the outer one's surface. `swapped`: `pair` is (B, A), so the points
/// are handed back in the order A, B and in A's frame.
fn deepest_corner(pair: &PairFrame, swapped: bool) -> Finding {
    let mesh = pair.mesh_a();
    let mut best = (f32::NEG_INFINITY, glam::Vec3::ZERO, glam::Vec3::ZERO);
    for t in mesh.indices() {
        for &i in t {
            let v = mesh.vertices()[i as usize];
            let (d, on) = pair.to_surface_b(v);
            if d > best.0 {
                best = (d, v, on);
            }
        }
    }
    let (inner, outer) = (pair.world(best.1), pair.world(best.2));
    let (point_a, point_b) = if swapped {
        (outer, inner)
    } else {
        (inner, outer)
    };
    Finding {
        kind: ClashKind::Containment,
        point_a,
        point_b,
        distance: -f64::from(best.0),
    }
}
