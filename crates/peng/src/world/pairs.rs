//! The touching state of a pair and the rule that decides it (the world's
//! narrow phase for one pair).
//!
//! The rule, in order of precedence:
//! 1. A [`Margin::CenterRadius`] on either collider: touching when the
//!    centres (pose translations) are at most the larger such radius apart,
//!    whatever the shapes.
//! 2. A [`Margin::Offset`] on either collider: the pair's offset is the sum
//!    of both offsets; touching when the signed distance is at most it.
//! 3. Otherwise a sensor pair (either collider a sensor) touches when the
//!    shapes overlap (closed), and a solid pair when the contact query with
//!    prediction 0 gives a manifold of depth >= 0 (touching counts).
//!
//! Sensor pairs keep no manifold. Solid pairs keep the manifolds of
//! `D::contacts` (prediction = the pair's offset under rule 2, else 0), with
//! their stable feature ids, so a solver can warm-start from them.

use super::collider::{Collider, EventMode, Margin};
use super::dim::Dim;
use super::handle::ColliderHandle;
use crate::math::Vector;

/// A pair by its two handles, smaller first.
pub(crate) type PairKey = (ColliderHandle, ColliderHandle);

/// The manifolds of a pair: most pairs have none or one, kept inline so the
/// narrow phase allocates only for compounds and meshes.
pub(crate) enum Manifolds<M> {
    /// At most one manifold.
    One(Option<M>),
    /// Any number (compound and mesh pairs).
    Many(Vec<M>),
}

impl<M> Manifolds<M> {
    /// The manifolds as a slice.
    pub(super) fn as_slice(&self) -> &[M] {
        match self {
            Manifolds::One(m) => m.as_slice(),
            Manifolds::Many(v) => v,
        }
    }
}

/// The kept state of a touching pair.
pub(crate) struct PairState<D: Dim> {
    /// Either collider is a sensor.
    pub sensor: bool,
    /// Either collider reports in continuous mode.
    pub continuous: bool,
    /// The contact manifolds (empty for sensors; may be empty for a margin
    /// pair whose shapes are apart; the contact at impact for a swept pair).
    pub manifolds: Manifolds<D::Manifold>,
    /// The time of impact when the pair touched only during the update's
    /// motion (continuous detection), not at its end.
    pub toi: Option<f32>,
    /// With manifold reuse on: the poses of the last full test, while the
    /// manifolds are carried (see `reuse.rs`).
    pub anchor: Option<super::reuse::Anchor<D>>,
    /// This update's manifolds were carried from the anchor rather than
    /// tested again (cleared by the merge).
    pub carried: bool,
}

/// The larger centre radius of the two colliders, if either has one.
pub(crate) fn centre_radius<D: Dim>(a: &Collider<D>, b: &Collider<D>) -> Option<f32> {
    let r = |c: &Collider<D>| match c.margin {
        Margin::CenterRadius(r) => Some(r),
        _ => None,
    };
    match (r(a), r(b)) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    }
}

/// The sum of the boundary offsets, if either collider has one, plus the
/// length of the difference of the colliders' displacements (see
/// [`Collider::displacement`]).
pub(crate) fn offset<D: Dim>(a: &Collider<D>, b: &Collider<D>) -> Option<f32> {
    let o = |c: &Collider<D>| match c.margin {
        Margin::Offset(d) => Some(d),
        _ => None,
    };
    match (o(a), o(b)) {
        (None, None) => None,
        (x, y) => {
            Some(x.unwrap_or(0.0) + y.unwrap_or(0.0) + (a.displacement - b.displacement).length())
        }
    }
}

/// Applies the touching rule to a pair; `Some(state)` when it touches.
#[cfg(test)]
pub(crate) fn touch<D: Dim>(a: &Collider<D>, b: &Collider<D>) -> Option<PairState<D>> {
    touch_measured(a, b).0
}

/// The touching rule on a pair, and the lower bound on the shapes' distance
/// that the contact query of two single-manifold shapes gave when it found
/// no manifold (see [`Dim::contact_or_gap`]; `-∞` when there was no such
/// query). Only meaningful for a pair found apart; which pairs may keep it
/// is `apart.rs`'s rule.
pub(crate) fn touch_measured<D: Dim>(
    a: &Collider<D>,
    b: &Collider<D>,
) -> (Option<PairState<D>>, f32) {
    let sensor = a.sensor || b.sensor;
    let continuous = a.events == EventMode::Continuous || b.events == EventMode::Continuous;
    let single = D::at_most_one_manifold(&a.shape) && D::at_most_one_manifold(&b.shape);
    let mut gap = f32::NEG_INFINITY;
    let mut contacts = |prediction: f32| {
        if single {
            match D::contact_or_gap(&a.shape, &a.pose, &b.shape, &b.pose, prediction) {
                Ok(m) => Manifolds::One(Some(m)),
                Err(g) => {
                    gap = g;
                    Manifolds::One(None)
                }
            }
        } else {
            let mut v = Vec::new();
            D::contacts(&a.shape, &a.pose, &b.shape, &b.pose, prediction, &mut v);
            Manifolds::Many(v)
        }
    };
    let none = || Manifolds::One(None);
    let (touching, manifolds) = if let Some(r) = centre_radius(a, b) {
        let gap = D::translation(&b.pose) - D::translation(&a.pose);
        let t = gap.length() <= r;
        (t, if t && !sensor { contacts(0.0) } else { none() })
    } else if let Some(off) = offset(a, b) {
        if sensor {
            let t = D::distance(&a.shape, &a.pose, &b.shape, &b.pose).distance <= off;
            (t, none())
        } else {
            // The contact query with prediction `off` returns a manifold
            // exactly when the surfaces are within `off`: one query, not a
            // distance query and then the contacts.
            let m = contacts(off);
            let t = m.as_slice().iter().any(|m| D::manifold_depth(m) >= -off);
            (t, if t { m } else { none() })
        }
    } else if sensor {
        (D::intersects(&a.shape, &a.pose, &b.shape, &b.pose), none())
    } else {
        let m = contacts(0.0);
        let t = m.as_slice().iter().any(|m| D::manifold_depth(m) >= 0.0);
        (t, m)
    };
    let state = touching.then_some(PairState {
        sensor,
        continuous,
        manifolds,
        toi: None,
        anchor: None,
        carried: false,
    });
    (state, gap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose3, Vec3};
    use crate::shape::d3::{Ball, Shape};
    use crate::world::Dim3;

    fn ball_at(x: f32, margin: Margin) -> Collider<Dim3> {
        let s: Shape = Ball::new(1.0).expect("valid radius").into();
        Collider::new(s, Pose3::from_translation(Vec3::X * x)).with_margin(margin)
    }

    #[test]
    fn rules_in_order_of_precedence() {
        let o = ball_at(0.0, Margin::None);
        // Touching exactly counts (closed), and a manifold is kept.
        let s = touch(&o, &ball_at(2.0, Margin::None)).expect("touching");
        assert!(!s.manifolds.as_slice().is_empty());
        assert!(touch(&o, &ball_at(2.01, Margin::None)).is_none());
        // Offsets add: 0.25 + 0.25 reaches a gap of 0.5 exactly.
        let q = ball_at(0.0, Margin::Offset(0.25));
        assert!(touch(&q, &ball_at(2.5, Margin::Offset(0.25))).is_some());
        assert!(touch(&q, &ball_at(2.51, Margin::Offset(0.25))).is_none());
        assert!(touch(&q, &ball_at(2.25, Margin::None)).is_some());
        // A centre radius overrides the offset, and uses the larger radius.
        let c = ball_at(0.0, Margin::CenterRadius(5.0));
        assert!(touch(&c, &ball_at(5.0, Margin::CenterRadius(1.0))).is_some());
        assert!(touch(&c, &ball_at(5.01, Margin::Offset(9.0))).is_none());
        // Sensors keep no manifold.
        let s = touch(&o.clone().with_sensor(true), &ball_at(1.0, Margin::None)).expect("overlap");
        assert!(s.sensor && s.manifolds.as_slice().is_empty());
    }
}
