//! Deferred reinsertion of leaves that left their fat boxes.
//!
//! A moved proxy whose box leaves its leaf's fat box gets a new fat box at
//! once; the leaf stays where it is and its ancestors are grown to hold the
//! new box (so the tree stays valid for queries). At the next pair update the
//! tree decides, for all such "stale" leaves together:
//!
//! - few of them: each is removed and reinserted by the SAH search, as Box2D
//!   does at every move;
//! - many (at least `1 / REFIT_FRACTION` of the leaves, under 1 %): reinserting each would
//!   cost `O(k log n)` scattered node visits, so the tree is refitted bottom-up
//!   instead (`O(n)`, sequential), keeping its structure, as parry's BVH does
//!   every frame. The hierarchy then slowly stops matching where the leaves
//!   are; once the leaves refitted in place since the last rebuild add up to
//!   twice the number of leaves, it is rebuilt by binned SAH (keeping the fat
//!   boxes) straight into depth-first order. (Moving 100k boxes, 10 % per frame:
//!   rebuilding at half the leaves spent 15 % of the frame time rebuilding,
//!   at twice the leaves the frame was about 20 % faster overall.)
//!
//! New proxies wait unlinked until the update (`pending.rs`). When at least
//! half of the leaves were inserted since the last update (a build from
//! scratch, or a big batch), the tree is rebuilt by binned SAH over all
//! leaves, in depth-first order, before the pairs are found; fewer new
//! leaves are linked one by one by the SAH search.
//!
//! While the fat-neighbour lists are kept (`adjacency.rs`), the update also
//! hands back which proxies got a new fat box or were just linked, so their
//! lists are refreshed; a bulk build drops the lists.
//!
//! The set of pairs does not depend on the tree's shape (the pair tests use the
//! given boxes), so every policy gives the same pairs and events.

use crate::bound::Aabb;
use crate::math::Vector;

use super::{DynamicTree, NULL};

/// Refit instead of reinsert when at least `1 / REFIT_FRACTION` of the leaves
/// are stale. Measured on the moving-boxes bench (10 % of the boxes move per
/// frame, about a quarter of those leave their fat boxes): at 100k and 1M
/// boxes, 128 (refit) took about 0.6 and 0.8 of the frame time of 32
/// (reinsertion of 2.5 % of the leaves by the SAH search); 1024 was no better.
const REFIT_FRACTION: usize = 128;

/// Rebuild at the update when at least half of the leaves are new since the
/// last update and the tree has at least this many leaves.
const BULK_MIN: usize = 256;

impl<V: Vector> DynamicTree<V> {
    /// Gives `leaf` the box `fat` and grows its ancestors until one already
    /// holds it.
    pub(super) fn grow_in_place(&mut self, leaf: u32, fat: Aabb<V>) {
        self.nodes[leaf as usize].aabb = fat;
        let mut i = self.meta[leaf as usize].parent;
        while i != NULL {
            let n = &mut self.nodes[i as usize];
            if n.aabb.contains(&fat) {
                break;
            }
            n.aabb = n.aabb.merged(&fat);
            i = self.meta[i as usize].parent;
        }
    }

    /// Lists proxy slot `slot` as stale (once until handled).
    pub(super) fn mark_stale(&mut self, slot: u32) {
        let s = slot as usize;
        if self.is_stale.len() <= s {
            self.is_stale.resize(s + 1, false);
        }
        if !self.is_stale[s] {
            self.is_stale[s] = true;
            self.stale.push(slot);
        }
    }

    /// Puts the stale leaves in their place (see the module documentation)
    /// and returns how many leaves got a new fat box or were linked. While
    /// the neighbour lists are kept, appends those slots to `batch` (their
    /// lists need refreshing).
    pub(super) fn settle_stale(&mut self, batch: &mut Vec<u32>) -> usize {
        let mut stale = core::mem::take(&mut self.stale);
        // Keep only the live, still-pending entries (each once).
        stale.retain(|&s| {
            let keep = self.is_stale[s as usize];
            self.is_stale[s as usize] = false;
            keep && self.table.alive(s)
        });
        let k = stale.len();
        let n = self.table.len();
        let fresh = self.pending.len();
        let bulk = fresh > 0 && n >= BULK_MIN && 2 * fresh >= n;
        if bulk {
            self.drop_adjacency();
        } else if self.adj_on {
            batch.extend_from_slice(&stale);
            batch.extend_from_slice(&self.pending);
        }
        if bulk {
            // Mostly new leaves (e.g. a build from scratch): their incremental
            // insertion left the nodes scattered in memory; one binned-SAH
            // rebuild in depth-first layout makes the pair search and later
            // queries walk memory in order.
            self.rebuild_keeping_fat();
            self.drift = 0;
        } else if fresh > 0 && k == 0 {
            self.link_pending();
        } else if k == 0 {
        } else if k * REFIT_FRACTION < n {
            self.link_pending();
            for &s in &stale {
                let leaf = self.leaf_of[s as usize];
                self.remove_leaf(leaf);
                self.insert_leaf(leaf);
            }
        } else {
            self.link_pending();
            self.drift += k;
            if self.drift >= 2 * n {
                self.rebuild_keeping_fat();
                self.drift = 0;
            } else {
                self.refit_internal();
            }
        }
        stale.clear();
        self.stale = stale;
        k + fresh
    }
}
