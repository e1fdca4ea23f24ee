//! The update: broad phase, then the narrow phase on the candidate pairs
//! that may have changed (in parallel), then the events.
//!
//! Incremental: a pair's touching state depends only on its two colliders and
//! the pair filter, so only pairs with an end inserted or changed since the
//! last update (or every pair, after the pair filter changed) are tested
//! again; every other pair keeps its state. An update where nothing changed
//! does no geometry at all: it walks the touching pairs only to report
//! persist events.
//!
//! Deterministic: the pairs to test form a sorted list, the narrow phase maps
//! it in order (rayon's indexed `collect` keeps the order whatever the thread
//! count), and the events come from one merge of sorted lists, so results and
//! events are identical for any number of threads.

use crate::par::*;

use super::apart::{self, Apart};
use super::collider::Collider;
use super::dim::Dim;
use super::events::{emit, ContactEvent, EventKind, Transition};
use super::handle::ColliderHandle;
use super::pairs::{touch_measured, PairKey, PairState};
use super::reuse::anchor;
use super::sweep::{is_bullet, sweep, sweep_hit};
use super::World;
use crate::broad::ProxyPair;
use crate::math::Vector;

/// A user rule on pairs, called with the smaller handle first after the
/// collision filters accepted the pair; `false` keeps the pair from
/// touching. It must be a pure function of its arguments (it is called only
/// when one of the two colliders changed).
pub type PairFilter<D> =
    dyn Fn(ColliderHandle, &Collider<D>, ColliderHandle, &Collider<D>) -> bool + Send + Sync;

/// The narrow phase's results: each tested pair's touching state, and the
/// gap record of each pair found apart.
type NarrowResults<D> = (Vec<Option<PairState<D>>>, Vec<Option<Apart<D>>>);

/// Below this many pairs to test, the narrow phase runs on the calling
/// thread (spreading a few pairs over threads costs more than it saves).
const PARALLEL_MIN: usize = 64;

/// Below this many broad pairs, the candidates are picked on the calling
/// thread (a pair takes some ten nanoseconds).
const PARALLEL_FILTER_MIN: usize = 4096;

impl<D: Dim> World<D> {
    /// Sets (or with `None` clears) the user pair rule; every pair is tested
    /// again at the next update.
    pub fn set_pair_filter(&mut self, f: Option<Box<PairFilter<D>>>) {
        self.pair_filter = f;
        self.retest_all = true;
    }

    /// The touching pairs as of the last update, smaller handle first, in
    /// handle order.
    pub fn touching_pairs(&self) -> impl Iterator<Item = (ColliderHandle, ColliderHandle)> + '_ {
        self.touching.iter().map(|(k, _)| *k)
    }

    /// The contact manifolds of a pair touching at the last update (in either
    /// handle order; normals point from the smaller handle's collider to the
    /// other's). Empty for a sensor pair; `None` when not touching.
    pub fn contact_manifolds(
        &self,
        a: ColliderHandle,
        b: ColliderHandle,
    ) -> Option<&[D::Manifold]> {
        let key = if a < b { (a, b) } else { (b, a) };
        let i = self.touching.binary_search_by(|(k, _)| k.cmp(&key)).ok()?;
        Some(self.touching[i].1.manifolds.as_slice())
    }

    /// Every touching solid pair of the last update with its contact
    /// manifolds, in pair order (smaller handle first; normals point from
    /// the first collider to the second). Sensor pairs are left out.
    pub fn touching_contacts(
        &self,
    ) -> impl Iterator<Item = (ColliderHandle, ColliderHandle, &[D::Manifold])> + '_ {
        self.touching_contacts_in(0..self.touching.len())
    }

    /// The number of touching pairs of the last update, sensor pairs
    /// included: the end of the ranges of
    /// [`touching_contacts_in`](Self::touching_contacts_in).
    pub fn touching_len(&self) -> usize {
        self.touching.len()
    }

    /// [`touching_contacts`](Self::touching_contacts) of the touching pairs
    /// `range` (of `0..touching_len()`, in pair order; sensor pairs count
    /// in the range but are left out), so that consecutive ranges can be
    /// read apart, on several threads. The range is cut at the end of the
    /// list.
    pub fn touching_contacts_in(
        &self,
        range: core::ops::Range<usize>,
    ) -> impl Iterator<Item = (ColliderHandle, ColliderHandle, &[D::Manifold])> + '_ {
        let end = range.end.min(self.touching.len());
        self.touching[range.start.min(end)..end]
            .iter()
            .filter(|(_, s)| !s.sensor)
            .map(|(k, s)| (k.0, k.1, s.manifolds.as_slice()))
    }

    /// The events of the last update (as [`update`](Self::update) returned).
    pub fn events(&self) -> &[ContactEvent] {
        &self.events
    }

    /// Runs one update: finds which pairs began, kept and stopped touching
    /// since the last one, removes the remove-on-contact colliders whose
    /// first contact began, and returns the events, sorted by pair (smaller
    /// handle first), then watched set (untagged first, then by id).
    ///
    /// - A pair with an end removed by [`remove`](Self::remove) since the
    ///   last update ends now (its event keeps the removed handle).
    /// - A collider with `remove_on_contact` leaves at the end of the update
    ///   in which one of its pairs begins touching: those began events say
    ///   `removed: true`, and its pairs that were already touching end now.
    pub fn update(&mut self) -> &[ContactEvent] {
        self.events.clear();
        self.carried = 0;
        self.skipped_apart = 0;
        let quiet = self.changed_list.is_empty() && !self.removed_any && !self.retest_all;
        if quiet {
            // Nothing changed: every touching pair persists as it was. The
            // broad phase's pair update is skipped too (it walks every pair);
            // whatever it still owes (proxies removed on contact) it catches
            // up with at the next update that calls it.
            for (k, s) in &self.touching {
                let t = transition(*k, EventKind::Persisted, s);
                emit(&mut self.events, &t, &self.watches);
            }
            return &self.events;
        }
        let scan = self.settle_unhanded();
        self.broad.update_pairs();
        let mut work = self.candidate_pairs(scan);
        self.carry_pairs(&mut work);
        let kept = self.skip_apart(&mut work);
        let (fresh, gaps) = self.narrow_phase(&work);
        self.keep_apart(&work, gaps, kept);
        let mut transitions = self.merge(work, fresh);
        self.remove_on_contact(&mut transitions);
        for t in &transitions {
            emit(&mut self.events, t, &self.watches);
        }
        transitions.clear();
        self.transitions = transitions;
        self.settle_motions();
        self.removed_any = false;
        self.retest_all = false;
        &self.events
    }

    /// The broad-phase pairs with an end changed since the last update (all
    /// of them when everything is retested), as collider handles, that the
    /// filters accept; sorted.
    ///
    /// Normally the broad phase's own list of pairs with a changed end; when
    /// everything is retested (a new pair rule), its whole pair list; when
    /// many colliders moved inside their grown boxes (`scan`, see
    /// `slack.rs`), every broad pair with a moved end.
    fn candidate_pairs(&self, scan: bool) -> Vec<PairKey> {
        let (source, moved_only) = if self.retest_all {
            (self.broad.pairs(), false)
        } else if scan {
            (self.broad.pairs(), true)
        } else {
            (self.broad.changed_pairs(), false)
        };
        let slot = |id| self.broad.proxy(id).map(|p| p.user_data as u32);
        let keep = |pp: &ProxyPair| -> Option<PairKey> {
            let (i, j) = (slot(pp.a)?, slot(pp.b)?);
            let moved = !moved_only || self.slot_changed(i) || self.slot_changed(j);
            if !(moved && self.tight_overlap(i, j)) {
                return None;
            }
            let (a, b) = self.pair_of_slots(i, j)?;
            let (ca, cb) = (self.colliders.get(a)?, self.colliders.get(b)?);
            let allowed = ca.filter.allows(&cb.filter)
                && self.pair_filter.as_ref().is_none_or(|f| f(a, ca, b, cb));
            allowed.then_some((a, b))
        };
        let mut raw: Vec<PairKey> = if source.len() >= PARALLEL_FILTER_MIN {
            source.par_iter().filter_map(keep).collect()
        } else {
            source.iter().filter_map(keep).collect()
        };
        // Broad pairs are distinct and map to distinct handle pairs, in the
        // proxies' order: the same as the handles' when the slots match.
        if !raw.is_sorted() {
            crate::sort::unstable(&mut raw);
            raw.dedup();
        }
        raw
    }

    /// Whether arena slot `i` changed since the last update.
    fn slot_changed(&self, i: u32) -> bool {
        self.changed.get(i as usize).copied().unwrap_or(false)
    }

    /// The live pair of two arena slots, smaller handle first.
    fn pair_of_slots(&self, i: u32, j: u32) -> Option<PairKey> {
        let (a, b) = (self.colliders.handle_at(i)?, self.colliders.handle_at(j)?);
        Some(if a < b { (a, b) } else { (b, a) })
    }

    /// The touching rule on every pair of `work`, in parallel, in order,
    /// with the gap record of each pair found apart (see `apart.rs`).
    fn narrow_phase(&self, work: &[PairKey]) -> NarrowResults<D> {
        let colliders = &self.colliders;
        let from = &self.prev_poses;
        let reuse = self.reuse.is_some();
        let one = |&(a, b): &PairKey| match (colliders.get(a), colliders.get(b)) {
            (Some(ca), Some(cb)) => {
                let (mut ended, gap) = touch_measured(ca, cb);
                if !(ca.ccd || cb.ccd) {
                    if let (Some(s), true) = (ended.as_mut(), reuse) {
                        s.anchor = anchor(ca, cb, s);
                    }
                    let rec = if ended.is_none() {
                        apart::record(ca, cb, gap)
                    } else {
                        None
                    };
                    return (ended, rec);
                }
                let fa = from.get(a.index() as usize).unwrap_or(&ca.pose);
                let fb = from.get(b.index() as usize).unwrap_or(&cb.pose);
                let s = match ended {
                    // Touching at the end: the sweep only dates the impact.
                    Some(mut s) => {
                        s.toi = sweep_hit(ca, fa, cb, fb).map(|h| h.time);
                        Some(s)
                    }
                    None => sweep(ca, fa, cb, fb),
                };
                (s, None)
            }
            _ => (None, None),
        };
        if work.len() >= PARALLEL_MIN {
            work.par_iter().map(one).unzip()
        } else {
            work.iter().map(one).unzip()
        }
    }

    /// Ends the update's motions: every changed collider's pose becomes its
    /// start pose for the next sweep, and its changed flag clears. A bullet
    /// that moved gets its end box back in the broad phase (it had the swept
    /// one) and stays marked changed, so that its pairs, swept contacts
    /// included, are tested again at their end poses at the next update.
    fn settle_motions(&mut self) {
        let list = core::mem::take(&mut self.changed_list);
        let mut bullets = Vec::new();
        for h in list {
            let i = h.index() as usize;
            self.changed[i] = false;
            self.reshaped[i] = false;
            let Some(c) = self.colliders.get(h) else {
                continue;
            };
            let moved = self.prev_poses[i] != c.pose;
            self.prev_poses[i] = c.pose;
            if moved && is_bullet(c) {
                bullets.push((h, self.broad_box(c)));
            }
        }
        for (h, b) in bullets {
            self.tight[h.index() as usize] = b;
            let _ = self
                .broad
                .move_proxy(self.proxies[h.index() as usize], b, D::V::ZERO);
            self.mark_changed(h);
        }
    }

    /// Whether the pair was retested in this update.
    pub(super) fn retested(&self, (a, b): PairKey) -> bool {
        self.retest_all || self.slot_changed(a.index()) || self.slot_changed(b.index())
    }

    /// Removes the remove-on-contact colliders with a began pair: their began
    /// transitions say `removed`, their other touching pairs end, and they
    /// leave the touching list, the arena and the broad phase.
    fn remove_on_contact(&mut self, transitions: &mut [Transition]) {
        let mut going: Vec<ColliderHandle> = Vec::new();
        for t in transitions.iter() {
            if t.kind != EventKind::Began {
                continue;
            }
            for h in [t.lo, t.hi] {
                if self.colliders.get(h).is_some_and(|c| c.remove_on_contact) {
                    going.push(h);
                }
            }
        }
        if going.is_empty() {
            return;
        }
        crate::sort::unstable(&mut going);
        going.dedup();
        let leaving = |h: ColliderHandle| going.binary_search(&h).is_ok();
        for t in transitions.iter_mut() {
            if !(leaving(t.lo) || leaving(t.hi)) {
                continue;
            }
            match t.kind {
                EventKind::Began => t.removed = true,
                EventKind::Persisted => t.kind = EventKind::Ended,
                EventKind::Ended => {}
            }
        }
        self.touching
            .retain(|(k, _)| !(leaving(k.0) || leaving(k.1)));
        for &h in &going {
            if let Some(_c) = self.colliders.remove(h) {
                let _ = self.broad.remove(self.proxies[h.index() as usize]);
            }
        }
    }
}

/// The transition of a pair with this state.
pub(super) fn transition<D: Dim>(k: PairKey, kind: EventKind, s: &PairState<D>) -> Transition {
    Transition {
        lo: k.0,
        hi: k.1,
        kind,
        sensor: s.sensor,
        continuous: s.continuous,
        removed: false,
        // An ended pair has no impact to report.
        toi: if kind == EventKind::Ended {
            None
        } else {
            s.toi
        },
    }
}
