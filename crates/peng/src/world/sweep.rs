//! Continuous detection in the world: a pair with a [`ccd`] collider that
//! does not touch at the end of the update is swept over the update's motion.
//!
//! Each collider moves from its pose at the previous update to its current
//! pose ([`Dim::motion`]: the centre of its local box at constant velocity,
//! the shortest turn about it). When either collider of a pair is a bullet
//! and either moved, the pair is cast over that motion ([`Dim::cast`]); a
//! first contact *during* the motion (the pair separated at its start, so
//! the contact is new) makes the pair touch for this update, with the time
//! of impact and the contact at impact as its manifold. Pairs already
//! touching at the start were reported by the previous update. A cast that
//! could not decide within its step budget ([`CastStatus::Undecided`], rare:
//! a near-grazing turning pair) certifies no contact, so it makes no
//! contact and no event: the pair is judged by its end poses alone, as
//! without continuous detection.
//!
//! The broad phase sees a bullet's swept box ([`Dim::swept_aabb`]) from the
//! moment its pose changes, so every collider it may meet is a candidate.
//!
//! [`ccd`]: super::Collider::ccd

use super::collider::Collider;
use super::collider::EventMode;
use super::dim::Dim;
use super::pairs::{centre_radius, offset, Manifolds, PairState};
use crate::bound::Aabb;
use crate::ccd::{CastHit, CastOptions, CastStatus};
use crate::math::Vector;

/// Whether the box is finite (a bounded shape).
fn bounded<V: Vector>(b: &Aabb<V>) -> bool {
    b.min.is_finite() && b.max.is_finite()
}

/// Whether the collider takes part in sweeps: flagged, with a bounded shape.
pub(crate) fn is_bullet<D: Dim>(c: &Collider<D>) -> bool {
    c.ccd && bounded(&D::aabb(&c.shape, &c.pose))
}

/// The broad-phase box of a bullet moved from `from` to its current pose:
/// the swept box of its shape merged with its end box `end`.
pub(crate) fn swept_broad_box<D: Dim>(
    c: &Collider<D>,
    from: &D::Pose,
    end: Aabb<D::V>,
) -> Aabb<D::V> {
    end.merged(&D::swept_aabb(&c.shape, from, &c.pose))
}

/// The first new contact of a pair over the update's motion (`a` moved
/// from `from_a`, `b` from `from_b`). `None` when neither is a bullet,
/// neither moved, the pair has a centre-radius margin, the motion makes
/// no new contact, or the cast could not decide (no contact is certified).
pub(crate) fn sweep_hit<D: Dim>(
    a: &Collider<D>,
    from_a: &D::Pose,
    b: &Collider<D>,
    from_b: &D::Pose,
) -> Option<CastHit<D::V>> {
    if !(is_bullet(a) || is_bullet(b)) || centre_radius(a, b).is_some() {
        return None;
    }
    if a.pose == *from_a && b.pose == *from_b {
        return None;
    }
    let ma = D::motion(&a.shape, from_a, &a.pose);
    let mb = D::motion(&b.shape, from_b, &b.pose);
    // The default tolerance follows the smaller shape: a bullet's impact on
    // a large wall is found within a tiny fraction of the bullet's size.
    let options = CastOptions {
        target_distance: offset(a, b).unwrap_or(0.0),
        ..CastOptions::default()
    };
    let hit = D::cast(&a.shape, &ma, &b.shape, &mb, &options)?;
    // Overlapping at the start means touching at the previous update,
    // already reported then; a start within tolerance and approaching is
    // the contact (the end poses do not touch).
    let in_step = (0.0..=1.0).contains(&hit.time);
    let new_contact = match hit.status {
        CastStatus::Hit | CastStatus::Touching => true,
        CastStatus::Penetrating | CastStatus::Undecided => false,
    };
    (new_contact && in_step).then_some(hit)
}

/// The swept contact of a pair that does not touch at its end poses (see
/// [`sweep_hit`]): touching for this update, with the time of impact and
/// the contact at impact as its manifold.
pub(crate) fn sweep<D: Dim>(
    a: &Collider<D>,
    from_a: &D::Pose,
    b: &Collider<D>,
    from_b: &D::Pose,
) -> Option<PairState<D>> {
    let hit = sweep_hit(a, from_a, b, from_b)?;
    let sensor = a.sensor || b.sensor;
    let manifolds = if sensor {
        Manifolds::One(None)
    } else {
        Manifolds::One(Some(D::manifold_from_hit(&hit)))
    };
    Some(PairState {
        sensor,
        continuous: a.events == EventMode::Continuous || b.events == EventMode::Continuous,
        manifolds,
        toi: Some(hit.time),
        anchor: None,
        carried: false,
    })
}
