//! Watched sets: "these colliders against those" ("every ball against every
//! paddle") as a first-class convenience on top of the pair events.
//!
//! The rule: a watched set `(A, B, mode)` adds, for every pair with one end
//! in `A` and the other in `B`, a copy of the pair's transition as an event
//! tagged with the set's [`WatchId`], ordered with the `A` end first, and
//! reported in the set's own [`EventMode`] (a continuous set reports persist
//! events even for a pair whose colliders are in once mode, and the other way
//! round). The pair's own untagged events are reported as usual, whether or
//! not any set holds it; a pair in several sets gets one tagged copy per set.
//! When both ends are in both groups, the smaller handle comes first.
//!
//! A set reports what happens from its creation on: a pair already touching
//! when the set is made gets no began event for it (but persist events in
//! continuous mode and its end event). Handles of removed colliders stay in
//! the set (they never match a new collider, thanks to the generations), so
//! the end events of their pairs are still tagged.

use super::collider::EventMode;
use super::dim::Dim;
use super::handle::ColliderHandle;
use super::World;

/// Names a watched set of a [`World`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WatchId(u32);

impl WatchId {
    /// The set's number (distinct for every set made by one world).
    pub fn index(self) -> u32 {
        self.0
    }
}

/// One watched set: two groups and a mode.
#[derive(Debug, Clone)]
pub(crate) struct Watch {
    /// The two groups, sorted and without repeats (binary search: no hash
    /// table code for the browser build to carry).
    a: Vec<ColliderHandle>,
    b: Vec<ColliderHandle>,
    pub mode: EventMode,
}

impl Watch {
    /// The pair `(lo, hi)` ordered with the end in the first group first, or
    /// `None` when the set does not hold the pair.
    pub(super) fn orient(
        &self,
        lo: ColliderHandle,
        hi: ColliderHandle,
    ) -> Option<(ColliderHandle, ColliderHandle)> {
        let (a, b) = (&self.a, &self.b);
        let has = |g: &Vec<ColliderHandle>, h| g.binary_search(&h).is_ok();
        if has(a, lo) && has(b, hi) {
            Some((lo, hi))
        } else if has(a, hi) && has(b, lo) {
            Some((hi, lo))
        } else {
            None
        }
    }
}

/// The watched sets of a world, sorted by id (so iteration is in id order
/// and events come out deterministically; a page or a game has a handful,
/// so a list serves where a map would only add code).
#[derive(Debug, Clone, Default)]
pub(crate) struct Watches {
    sets: Vec<(WatchId, Watch)>,
    next: u32,
}

impl Watches {
    pub(super) fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (WatchId, &Watch)> {
        self.sets.iter().map(|(id, w)| (*id, w))
    }
}

impl<D: Dim> World<D> {
    /// Watches every pair with one collider in `a` and the other in `b`
    /// ("every ball against every paddle") and returns the set's id.
    ///
    /// From the next update on, each such pair's transitions are also
    /// reported as events tagged with this id, the `a` end first, in `mode`
    /// (a continuous set reports persist events even for a pair in once
    /// mode, and the other way round). The pair's own untagged events are
    /// reported as usual; a pair in several sets gets one tagged copy per
    /// set. When both ends are in both groups, the smaller handle comes
    /// first. A pair already touching when the set is made gets no began
    /// event for it. Handles may be stale or repeated; a stale one never
    /// matches, and handles of removed colliders stay in the set, so the end
    /// events of their pairs are still tagged.
    pub fn watch(
        &mut self,
        a: &[ColliderHandle],
        b: &[ColliderHandle],
        mode: EventMode,
    ) -> WatchId {
        let id = WatchId(self.watches.next);
        self.watches.next = self.watches.next.wrapping_add(1);
        let group = |g: &[ColliderHandle]| {
            let mut g = g.to_vec();
            crate::sort::unstable(&mut g);
            g.dedup();
            g
        };
        let w = Watch {
            a: group(a),
            b: group(b),
            mode,
        };
        let sets = &mut self.watches.sets;
        let at = sets.partition_point(|(k, _)| *k < id);
        sets.insert(at, (id, w));
        id
    }

    /// Stops a watched set; returns whether it existed.
    pub fn unwatch(&mut self, id: WatchId) -> bool {
        let sets = &mut self.watches.sets;
        match sets.binary_search_by_key(&id, |(k, _)| *k) {
            Ok(at) => {
                sets.remove(at);
                true
            }
            Err(_) => false,
        }
    }
}
