//! JavaScript's names for colliders: numbers handed out in order and never
//! reused, so that a stale number from a page is an error, never another
//! collider.

use peng::d2::ColliderHandle;
use peng::math::Num;

/// Ids to handles and back, in lists rather than hash maps (a hash map
/// brings its hasher and table code into the module, for lookups a list
/// index does).
#[derive(Default)]
pub(crate) struct Ids {
    /// The handle of each id (ids are list positions).
    handles: Vec<ColliderHandle>,
    /// By slot index: the `(generation, id)` of every collider that has used
    /// the slot (a removed collider keeps its id: its last events, reported
    /// after the slot may have been reused, still name it).
    by_slot: Vec<Vec<(u32, u32)>>,
}

impl Ids {
    /// A new id for `h`.
    pub(crate) fn add(&mut self, h: ColliderHandle) -> u32 {
        let id = self.handles.len() as u32;
        self.handles.push(h);
        let slot = h.index() as usize;
        if self.by_slot.len() <= slot {
            self.by_slot.resize_with(slot + 1, Vec::new);
        }
        self.by_slot[slot].push((h.generation(), id));
        id
    }

    /// The handle of an id handed out, else an error naming it.
    pub(crate) fn handle(&self, id: f64) -> Result<ColliderHandle, String> {
        let known = (id >= 0.0 && id.fract() == 0.0 && id <= u32::MAX as f64)
            .then(|| self.handles.get(id as usize))
            .flatten();
        known.copied().ok_or_else(|| {
            format!(
                "collider {} is not in the world (removed, or never added)",
                Num::from(id)
            )
        })
    }

    /// The id of a handle (removed colliders keep theirs: their last
    /// events still name them).
    pub(crate) fn id(&self, h: ColliderHandle) -> Option<u32> {
        let used = self.by_slot.get(h.index() as usize)?;
        used.iter()
            .rev()
            .find(|(g, _)| *g == h.generation())
            .map(|&(_, id)| id)
    }
}
