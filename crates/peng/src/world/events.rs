//! Contact events: what began, kept and stopped touching in an update.
//!
//! Every update turns each pair whose touching state matters into one
//! *transition* (began, persisted or ended). A transition becomes an untagged
//! event in the pair's own event mode, plus one tagged event per watched set
//! that holds the pair, in that set's mode (see [`watch`](super::watch)).

use super::collider::EventMode;
use super::handle::ColliderHandle;
use super::watch::{WatchId, Watches};

/// What happened to a pair in an update. Ordered as the variants are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventKind {
    /// The pair started touching in this update (or is new and touching).
    Began,
    /// The pair was touching and still is (continuous mode only).
    Persisted,
    /// The pair was touching and no longer is, was filtered out, or one of
    /// its colliders was removed.
    Ended,
}

/// One event of [`World::update`](super::World::update).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactEvent {
    /// What happened.
    pub kind: EventKind,
    /// The first collider: the smaller handle, or for a watched-set event the
    /// one in the set's first group.
    pub a: ColliderHandle,
    /// The other collider.
    pub b: ColliderHandle,
    /// Whether either collider is a sensor (no contact manifold is kept).
    pub sensor: bool,
    /// Whether this pair's contact made a remove-on-contact collider leave
    /// the world at the end of this update (set on its began events).
    pub removed: bool,
    /// The watched set this event is reported for; `None` for the pair's own
    /// event.
    pub watch: Option<WatchId>,
    /// For a pair with a [`ccd`] collider that moved into contact during
    /// the update (whether or not the end poses still touch), the time of
    /// impact as a fraction of the update's motion (0 = the poses of the
    /// previous update, 1 = the current ones); `None` otherwise.
    ///
    /// [`ccd`]: super::Collider::ccd
    pub toi: Option<f32>,
}

/// One pair's change in an update, before it is spread into events.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Transition {
    /// The smaller handle.
    pub lo: ColliderHandle,
    /// The larger handle.
    pub hi: ColliderHandle,
    pub kind: EventKind,
    pub sensor: bool,
    /// Whether the pair's own mode is continuous (either collider is).
    pub continuous: bool,
    pub removed: bool,
    /// The time of impact of a swept contact.
    pub toi: Option<f32>,
}

/// Appends the events of one transition: the pair's own event when its mode
/// reports this kind, then one per watched set holding the pair, in
/// [`WatchId`] order. Called in pair order, this keeps the event list sorted
/// by pair, then watch (untagged first); a pair has one transition per update,
/// so the kind never needs to break a tie.
pub(crate) fn emit(out: &mut Vec<ContactEvent>, t: &Transition, watches: &Watches) {
    let reports = |mode_continuous: bool| t.kind != EventKind::Persisted || mode_continuous;
    if reports(t.continuous) {
        out.push(ContactEvent {
            kind: t.kind,
            a: t.lo,
            b: t.hi,
            sensor: t.sensor,
            removed: t.removed,
            watch: None,
            toi: t.toi,
        });
    }
    if watches.is_empty() {
        return;
    }
    for (id, w) in watches.iter() {
        if !reports(w.mode == EventMode::Continuous) {
            continue;
        }
        if let Some((a, b)) = w.orient(t.lo, t.hi) {
            out.push(ContactEvent {
                kind: t.kind,
                a,
                b,
                sensor: t.sensor,
                removed: t.removed,
                watch: Some(id),
                toi: t.toi,
            });
        }
    }
}
