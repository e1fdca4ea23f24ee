//! Deferred insertion: new proxies wait unlinked until the next pair update.
//!
//! Inserting a leaf by the SAH branch-and-bound search costs a scattered walk
//! of the tree per proxy; a tree filled from nothing (or by a big batch) is
//! built far faster, and better, by one binned-SAH build over all leaves
//! (Wald 2007), which `stale.rs` does at the update when the new leaves are
//! many. So `insert` only creates the leaf (with its fat box) and lists it
//! here; the update links the listed leaves, one by one or by a rebuild.
//!
//! Until then, queries test the listed leaves one by one after the tree (the
//! contract: queries see every box as last given, even before the update).
//! Removing a listed proxy takes it off the list in `O(1)` (swap removal with
//! a per-slot position), so the list never holds a dead or repeated slot.

use crate::math::Vector;

use super::{DynamicTree, NULL};

impl<V: Vector> DynamicTree<V> {
    /// Lists the (unlinked) leaf of proxy slot `slot` as pending.
    pub(super) fn defer_leaf(&mut self, slot: u32) {
        let s = slot as usize;
        if self.pending_pos.len() <= s {
            self.pending_pos.resize(s + 1, NULL);
        }
        debug_assert_eq!(self.pending_pos[s], NULL);
        self.pending_pos[s] = self.pending.len() as u32;
        self.pending.push(slot);
    }

    /// Whether proxy slot `slot` is pending (inserted, not linked yet).
    #[inline]
    pub(super) fn is_pending(&self, slot: u32) -> bool {
        self.pending_pos
            .get(slot as usize)
            .is_some_and(|&p| p != NULL)
    }

    /// Takes proxy slot `slot` off the pending list; `false` if it was not on it.
    pub(super) fn undefer_leaf(&mut self, slot: u32) -> bool {
        if !self.is_pending(slot) {
            return false;
        }
        let pos = self.pending_pos[slot as usize];
        self.pending_pos[slot as usize] = NULL;
        self.pending.swap_remove(pos as usize);
        if let Some(&moved) = self.pending.get(pos as usize) {
            self.pending_pos[moved as usize] = pos;
        }
        true
    }

    /// Empties the pending list without linking (after a rebuild linked every
    /// leaf).
    pub(super) fn forget_pending(&mut self) {
        for &s in &self.pending {
            self.pending_pos[s as usize] = NULL;
        }
        self.pending.clear();
    }

    /// Links every pending leaf by SAH insertion, one by one.
    pub(super) fn link_pending(&mut self) {
        let pending = core::mem::take(&mut self.pending);
        for &s in &pending {
            self.pending_pos[s as usize] = NULL;
            let leaf = self.leaf_of[s as usize];
            self.insert_leaf(leaf);
        }
        let mut pending = pending;
        pending.clear();
        self.pending = pending;
    }
}
