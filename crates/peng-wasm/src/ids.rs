//! JavaScript's names for colliders: numbers handed out in order and never
//! reused, so that a stale number from a page is an error, never another
//! collider.

use peng::d2::ColliderHandle;
use std::collections::HashMap;

/// Ids to handles and back.
#[derive(Default)]
pub(crate) struct Ids {
    next: u32,
    handles: HashMap<u32, ColliderHandle>,
    ids: HashMap<ColliderHandle, u32>,
}

impl Ids {
    /// A new id for `h`.
    pub(crate) fn add(&mut self, h: ColliderHandle) -> u32 {
        let id = self.next;
        self.next = self.next.wrapping_add(1);
        self.handles.insert(id, h);
        self.ids.insert(h, id);
        id
    }

    /// The handle of a live id, else an error naming it.
    pub(crate) fn handle(&self, id: f64) -> Result<ColliderHandle, String> {
        let live = (id >= 0.0 && id.fract() == 0.0 && id <= u32::MAX as f64)
            .then(|| self.handles.get(&(id as u32)))
            .flatten();
        live.copied()
            .ok_or_else(|| format!("collider {id} is not in the world (removed, or never added)"))
    }

    /// The id of a handle (removed colliders keep theirs: their last
    /// events still name them).
    pub(crate) fn id(&self, h: ColliderHandle) -> Option<u32> {
        self.ids.get(&h).copied()
    }
}
