//! Hard clashes: surfaces that cross, or one element inside another.

use super::contacts::contacts;
use super::depth::refine;
use super::frame::PairFrame;
use super::probe::{deeper, deepest_probe, volume_probe, Probe};
use crate::check::NUMERIC_TOUCH;
use crate::clash::{ClashKind, Finding};
use peng::math::Pose3;
use peng::mesh::{MeshDistance, TrianglePair};

/// The hard clash of the pair, if any.
///
/// - Surfaces that cross through each other ([`contacts`]): the deeper of A's
///   probes into B and B's into A ([`super::probe`]) gives the depth, the
///   points and the kind (protrusion or pierce).
/// - When that is within the tolerance and faces lie on each other facing the
///   same way, the shared volume is sampled too ([`volume_probe`]).
/// - A depth at most `tolerance` is a touch, reported only when
///   `report_touching` is set and the surfaces really meet (within
///   [`NUMERIC_TOUCH`]).
/// - Surfaces apart, with every corner of one element inside the other,
///   closed, one: containment, as deep as its deepest corner.
pub(crate) fn hard(pair: &PairFrame, tolerance: f64, report_touching: bool) -> Option<Finding> {
    hard_meeting(pair, tolerance, report_touching, None)
}

/// [`hard`], given the surfaces' common point when the caller has measured it
/// already (a clearance test), so that a touch need not be confirmed again.
pub(crate) fn hard_meeting(
    pair: &PairFrame,
    tolerance: f64,
    report_touching: bool,
    known: Option<MeshDistance>,
) -> Option<Finding> {
    let meet = contacts(pair, NUMERIC_TOUCH);
    if meet.proper.is_empty() && !meet.maybe_touching {
        return containment(pair, tolerance);
    }
    let mut deepest = surface_depth(pair, &meet.proper);
    // The probes' depth, made exact to within `REL` where the surface they
    // entered is closed; `undecided`: the work limit left a depth over the
    // tolerance possible, so the pair is reported with the depth found.
    let mut undecided = false;
    let closed = [pair.b.is_closed(), pair.a.is_closed()];
    if !meet.proper.is_empty() && closed.contains(&true) {
        let d = refine(pair, deepest, tolerance as f32, closed);
        deepest = d.best;
        undecided = d.cut_short && f64::from(d.upper) > tolerance;
    }
    let shallow = |d: &Option<Probe>| d.is_none_or(|p| f64::from(p.depth) <= tolerance);
    if shallow(&deepest) && meet.cooriented {
        let floor = deepest.map_or(tolerance as f32, |p| p.depth.max(tolerance as f32));
        deepest = deeper(deepest, volume_probe(pair, floor));
    }
    if let Some(p) = deepest.filter(|p| f64::from(p.depth) > tolerance || undecided) {
        return Some(Finding {
            kind: p.kind,
            point_a: pair.world(p.on_x),
            point_b: pair.world(p.on_y),
            distance: -f64::from(p.depth),
        });
    }
    if !report_touching {
        // Meeting or not, no clash here unless one holds the other (touching
        // from inside leaves faces on each other facing the same way, which
        // the shared-volume probe has measured).
        return containment(pair, tolerance);
    }
    // At most a touch: confirm that the surfaces meet, with a common point.
    let contact = known.or_else(|| {
        pair.mesh_a().distance_to_mesh_within(
            &Pose3::IDENTITY,
            pair.mesh_b(),
            &pair.pose_b,
            NUMERIC_TOUCH as f32,
        )
    });
    match contact {
        Some(d) => Some(Finding {
            kind: ClashKind::Touch,
            point_a: pair.world(d.point_a),
            point_b: pair.world(d.point_b),
            distance: -deepest.map_or(0.0, |p| f64::from(p.depth)),
        }),
        // They come near without meeting: one may still hold the other.
        None => containment(pair, tolerance),
    }
}

/// The deepest probe of either surface into the other, through the triangle
/// pairs that cross (`a` in A, `b` in B), in A's frame.
fn surface_depth(pair: &PairFrame, proper: &[TrianglePair]) -> Option<Probe> {
    if proper.is_empty() {
        return None;
    }
    let from_a = deepest_probe(pair, proper);
    let swapped = pair.swapped();
    let proper_b: Vec<_> = proper
        .iter()
        .map(|c| TrianglePair { a: c.b, b: c.a })
        .collect();
    // B's probes, in B's frame, brought back to A's frame.
    let back = -pair.pose_b.translation;
    let from_b = deepest_probe(&swapped, &proper_b).map(|p| Probe {
        on_x: p.on_y - back,
        on_y: p.on_x - back,
        ..p
    });
    deeper(from_a, from_b)
}

/// One element wholly inside the other, closed, one (their surfaces apart):
/// containment, as deep as the inner element's deepest corner, when that is
/// deeper than `tolerance`.
pub(crate) fn containment(pair: &PairFrame, tolerance: f64) -> Option<Finding> {
    contained(pair, false, tolerance).or_else(|| contained(&pair.swapped(), true, tolerance))
}

/// Whether `pair.a` lies inside `pair.b`. With the surfaces apart, every
/// corner of A is on the same side of B's surface, so one corner decides; the
/// one farthest from B's surface is taken, since a corner on or next to the
/// surface (an element flush in an opening) could fall either way. `swapped`:
/// `pair` is (B, A), and the finding is handed back in the order A, B and in
/// A's frame.
fn contained(pair: &PairFrame, swapped: bool, tolerance: f64) -> Option<Finding> {
    if !pair.b.is_closed() {
        return None;
    }
    let (inner, outer) = (pair.a.bounds(), pair.b.bounds().grown(tolerance.max(0.0)));
    if !(outer.min.cmple(inner.min).all() && inner.max.cmple(outer.max).all()) {
        return None;
    }
    let mut best = (f32::NEG_INFINITY, glam::Vec3::ZERO, glam::Vec3::ZERO);
    for &v in pair.mesh_a().vertices() {
        let (d, on) = pair.to_surface_b(v);
        if d > best.0 {
            best = (d, v, on);
        }
    }
    if !pair.inside_b(best.1) {
        return None;
    }
    // The deepest corner, and the deepest point of A's faces beyond it.
    let corner = Probe {
        depth: best.0,
        on_x: best.1,
        on_y: best.2,
        kind: ClashKind::Containment,
    };
    let d = refine(pair, Some(corner), tolerance as f32, [true, false]);
    let deepest = d.best.unwrap_or(corner);
    if f64::from(deepest.depth) <= tolerance && !(d.cut_short && f64::from(d.upper) > tolerance) {
        return None;
    }
    let (inner, outer) = (pair.world(deepest.on_x), pair.world(deepest.on_y));
    let (point_a, point_b) = if swapped {
        (outer, inner)
    } else {
        (inner, outer)
    };
    Some(Finding {
        kind: ClashKind::Containment,
        point_a,
        point_b,
        distance: -f64::from(deepest.depth),
    })
}
