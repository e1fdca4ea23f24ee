//! Manifold reuse: while two touching colliders barely move relative to each
//! other, their manifolds are carried along with them instead of being found
//! again.
//!
//! Off by default: every changed pair gets exact manifolds. With a tolerance
//! `tol` ([`World::set_manifold_reuse`]), a touching pair whose colliders
//! changed only their poses or margins keeps its manifolds, each point
//! carried rigidly with its collider from its pose at the last update and
//! each depth measured again along the normal carried with A, while
//!
//! `drift + max(0, offset_now - offset_then) <= tol`.
//!
//! `drift` bounds how far any point of one collider moved relative to the
//! other since the pair's last full test (its anchor). With B placed in A's
//! frame by `A0⁻¹B0 = (R0, t0)` then and `A⁻¹B = (R, t)` now, a point `p` of
//! B's shape moved in A's frame by `(R - R0)p + (t - t0)`, and
//! `|(R - R0)p| = |(R0ᵀR - I)p| <= 2 sin(θ/2)|p|` with `θ` the angle of
//! `R0ᵀR` (the chord of the turn: `p`'s part along the axis stays, the rest
//! moves on a circle). So every point of B, within `reach_B` of B's origin,
//! moved by at most `|t - t0| + 2 sin(θ/2)·reach_B`; the same holds in B's frame with A's reach, and the
//! smaller bound is kept (a hull on a large mesh: the hull's reach).
//!
//! What it can miss: contact between features the full test did not report,
//! which were then farther apart than the pair's offset (except for points
//! the manifold's reduction dropped), are now farther than
//! `offset_then - drift >= offset_now - tol`. With `tol` below the pair's
//! offset, a missed pair of features never overlaps. A pair whose carried
//! points all leave the offset is tested again, so a pair never ends on a
//! carried manifold.
//!
//! Like PhysX's contact cache and parry's manifold update under small
//! relative motion; the bound and the offset rule here are this crate's.

use crate::par::*;

use super::collider::Collider;
use super::dim::Dim;
use super::pairs::{centre_radius, offset, Manifolds, PairKey, PairState};
use super::stretch;
use super::{World, WorldError};
use crate::math::Vector;

/// Below this many pairs to carry, the calling thread does it alone.
const PARALLEL_MIN: usize = 64;

/// A chunk's stretch of the pairs to test, and their marks: carried or not.
type Marks<'a> = (&'a [PairKey], &'a mut [bool]);

/// An entry of the touching list.
type Touching<D> = (PairKey, PairState<D>);

/// Touching pairs per task of the carry pass (see
/// [`World::carry_pairs`]): large enough that the binary search opening
/// each chunk costs nothing beside it.
const CARRY_CHUNK: usize = 512;

/// The poses and offset of a pair's last full test: the reuse rule measures
/// the drift from them. (The manifolds themselves are carried from update to
/// update, from the colliders' previous poses to their current ones, which
/// keeps the pair's state small; each carry rounds once, about an ulp of the
/// coordinates.)
pub(crate) struct Anchor<D: Dim> {
    /// B's pose in A's frame at the test, `A0⁻¹B0`.
    b_in_a: D::Pose,
    /// A's pose in B's frame at the test, `B0⁻¹A0`.
    a_in_b: D::Pose,
    /// The pair's offset at the test (0 without one).
    offset: f32,
}

/// The largest distance of the shape from its local origin, bounded through
/// its local box (infinite for an unbounded shape).
pub(crate) fn reach<D: Dim>(shape: &D::Shape) -> f32 {
    let b = D::aabb(shape, &D::IDENTITY);
    let r = b.min.abs().max(b.max.abs()).length();
    if r.is_finite() {
        r
    } else {
        f32::INFINITY
    }
}

/// Whether a pair may carry its manifolds: a solid pair of flat-faced
/// shapes ([`Dim::flat_faced`]) without a centre radius or continuous
/// detection (those have rules of their own).
fn reusable<D: Dim>(a: &Collider<D>, b: &Collider<D>) -> bool {
    !(a.sensor || b.sensor || a.ccd || b.ccd)
        && D::flat_faced(&a.shape)
        && D::flat_faced(&b.shape)
        && centre_radius(a, b).is_none()
}

/// The anchor of a freshly tested touching pair, when it may carry its
/// manifolds.
pub(crate) fn anchor<D: Dim>(
    a: &Collider<D>,
    b: &Collider<D>,
    s: &PairState<D>,
) -> Option<Anchor<D>> {
    (reusable(a, b) && s.toi.is_none()).then(|| Anchor {
        b_in_a: D::inv_mul(&a.pose, &b.pose),
        a_in_b: D::inv_mul(&b.pose, &a.pose),
        offset: offset(a, b).unwrap_or(0.0),
    })
}

/// Whether the bound on how far any point of either collider moved relative
/// to the other, between an earlier test (its relative poses `b_in_a0 =
/// A0⁻¹B0` and `a_in_b0 = B0⁻¹A0`: a reuse anchor's, or an apart pair's)
/// and the current poses `a` and `b`, is at most `slack` (module docs). The
/// bound is the smaller of the one measured in A's frame and the one in
/// B's; the second is computed only when the first is over (a hull on a
/// large mesh: the hull's reach). A NaN anywhere makes it fail.
#[inline]
pub(crate) fn drift_within<D: Dim>(
    b_in_a0: &D::Pose,
    a_in_b0: &D::Pose,
    a: &D::Pose,
    b: &D::Pose,
    reach_a: f32,
    reach_b: f32,
    slack: f32,
) -> bool {
    let b_in_a = D::inv_mul(a, b);
    let chord = D::turn_chord(b_in_a0, &b_in_a);
    // `chord·reach`, with no turn counting as no motion even for an
    // unbounded shape (where `0·∞` would be NaN). A NaN chord (degenerate
    // rotation) makes the drift NaN, and the comparisons fail.
    let turned = |r: f32| if chord == 0.0 { 0.0 } else { chord * r };
    let moved = |p0: &D::Pose, p: &D::Pose| (D::translation(p) - D::translation(p0)).length();
    let of_b = moved(b_in_a0, &b_in_a) + turned(reach_b);
    if of_b <= slack {
        return true;
    }
    let a_in_b = D::inv_mul(b, a);
    moved(a_in_b0, &a_in_b) + turned(reach_a) <= slack
}

/// One end of a pair for [`try_carry`]: the collider, its move since the
/// last update (a [`Dim::pose_change`]) and its shape's reach.
struct End<'a, D: Dim> {
    collider: &'a Collider<D>,
    moved: &'a D::Pose,
    reach: f32,
}

/// Carries `s`'s manifolds from the colliders' poses at the last update to
/// their current ones when the reuse rule allows it and a carried point
/// still touches; `false` (the pair must be tested) otherwise.
fn try_carry<D: Dim>(s: &mut PairState<D>, ea: End<'_, D>, eb: End<'_, D>, tol: f32) -> bool {
    let (a, b) = (ea.collider, eb.collider);
    let Some(anchor) = &s.anchor else {
        return false;
    };
    if !reusable(a, b) {
        return false;
    }
    let off = offset(a, b).unwrap_or(0.0);
    let slack = tol - (off - anchor.offset).max(0.0);
    // NaN anywhere fails the test: the pair is tested.
    let (b_in_a0, a_in_b0) = (&anchor.b_in_a, &anchor.a_in_b);
    if !drift_within::<D>(
        b_in_a0, a_in_b0, &a.pose, &b.pose, ea.reach, eb.reach, slack,
    ) {
        return false;
    }
    let carry = |m: &mut D::Manifold| D::carry(m, ea.moved, eb.moved);
    let touches = |m: &D::Manifold| D::manifold_depth(m) >= -off;
    match &mut s.manifolds {
        Manifolds::One(m) => {
            m.iter_mut().for_each(carry);
            m.as_ref().is_some_and(touches)
        }
        Manifolds::Many(v) => {
            v.iter_mut().for_each(carry);
            v.iter().any(touches)
        }
    }
}

impl<D: Dim> World<D> {
    /// Turns manifold reuse on with this tolerance (a distance), or off with
    /// `None` (the default). While on, a touching pair of flat-faced shapes
    /// whose colliders only moved (or changed margins) keeps its manifolds,
    /// carried rigidly with the colliders, while no point of either moved
    /// relative to the other by more than the tolerance (less however much
    /// the pair's offset grew) since its last full test. See `reuse.rs` for
    /// the bound and what it may miss: with a tolerance below the pair's
    /// offset, never an overlap.
    /// Rejects a negative, NaN or infinite tolerance.
    pub fn set_manifold_reuse(&mut self, tolerance: Option<f32>) -> Result<(), WorldError> {
        if let Some(t) = tolerance {
            if !(t.is_finite() && t >= 0.0) {
                return Err(WorldError::InvalidReuseTolerance(t));
            }
        }
        if tolerance.is_none() {
            for (_, s) in &mut self.touching {
                s.anchor = None;
            }
        }
        self.reuse = tolerance;
        Ok(())
    }

    /// The manifold reuse tolerance, `None` when off.
    pub fn manifold_reuse(&self) -> Option<f32> {
        self.reuse
    }

    /// How many touching pairs the last update carried instead of testing
    /// (0 with manifold reuse off).
    pub fn carried_pairs(&self) -> usize {
        self.carried
    }

    /// Carries the manifolds of each touching pair of `work` that the reuse
    /// rule allows (in parallel), takes those pairs out of `work` (both
    /// lists sorted by pair) and counts them (`update` zeroed the count).
    ///
    /// The touching list is walked once, in chunks of [`CARRY_CHUNK`] pairs:
    /// each chunk finds where its first pair would sit in `work` (a binary
    /// search) and walks both lists from there, marking the carried pairs'
    /// places in `work`. Only that list of marks is read again to take them
    /// out: the touching list's entries are large (the manifolds ride in
    /// them), and a second walk over them cost as much as the carries in a
    /// large pyramid.
    pub(super) fn carry_pairs(&mut self, work: &mut Vec<PairKey>) {
        let Some(tol) = self.reuse else {
            return;
        };
        if self.retest_all || self.touching.is_empty() || work.is_empty() {
            return;
        }
        // Each changed collider's move since the last update, once for all
        // its pairs; the other slots hold the identity.
        let mut moves = core::mem::take(&mut self.moves);
        moves.resize(self.prev_poses.len(), D::IDENTITY);
        for h in &self.changed_list {
            let i = h.index() as usize;
            if let (Some(c), Some(m)) = (self.colliders.get(*h), moves.get_mut(i)) {
                *m = D::pose_change(&self.prev_poses[i], &c.pose);
            }
        }
        // Each chunk of the touching list with the stretch of `work` it can
        // meet and those pairs' marks.
        let touching = &mut self.touching;
        let mut carried = vec![false; work.len()];
        let marks = stretch::stretches(touching, |(k, _)| k, CARRY_CHUNK, work, &mut carried);
        let (colliders, reshaped, reaches) = (&self.colliders, &self.reshaped, &self.reach);
        let fresh_shape =
            |h: super::ColliderHandle| reshaped.get(h.index() as usize).copied().unwrap_or(true);
        let carry = |k: &PairKey, s: &mut PairState<D>| -> bool {
            if fresh_shape(k.0) || fresh_shape(k.1) {
                return false;
            }
            let end = |h: super::ColliderHandle| {
                let i = h.index() as usize;
                colliders.get(h).map(|collider| End {
                    collider,
                    moved: &moves[i],
                    reach: reaches[i],
                })
            };
            let (Some(ea), Some(eb)) = (end(k.0), end(k.1)) else {
                return false;
            };
            s.carried = try_carry(s, ea, eb, tol);
            s.carried
        };
        // One chunk: the pairs of `keys` (the chunk's stretch of `work`)
        // that it carries get their mark.
        let chunk = |(pairs, (keys, mark)): (&mut [Touching<D>], Marks<'_>)| {
            let mut j = 0;
            for (k, s) in pairs {
                while keys.get(j).is_some_and(|w| w < k) {
                    j += 1;
                }
                if keys.get(j) == Some(k) {
                    mark[j] = carry(k, s);
                }
            }
        };
        if work.len() >= PARALLEL_MIN {
            touching
                .par_chunks_mut(CARRY_CHUNK)
                .zip(marks.into_par_iter())
                .for_each(chunk);
        } else {
            touching.chunks_mut(CARRY_CHUNK).zip(marks).for_each(chunk);
        }
        for h in &self.changed_list {
            if let Some(m) = moves.get_mut(h.index() as usize) {
                *m = D::IDENTITY;
            }
        }
        self.moves = moves;
        let before = work.len();
        stretch::drop_marked(work, &carried);
        self.carried = before - work.len();
    }
}
