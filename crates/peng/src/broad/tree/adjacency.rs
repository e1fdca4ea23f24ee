//! Fat-box neighbour lists, so a frame's pair search need not query the tree
//! for every moved proxy.
//!
//! A moved proxy whose box stays inside its fat box can only pair with a
//! proxy whose fat box overlaps its fat box (each given box lies in its fat
//! box). Those "fat neighbours" change only when one of the two fat boxes
//! changes, which, with the fattening margin and the motion stretch, happens
//! for a fraction of the moved proxies. So the tree keeps, per proxy slot, the
//! list of its fat neighbours whose filters pair with its own (symmetric:
//! `b` is in `adj[a]` exactly when `a` is in `adj[b]`), updated only for
//! proxies whose fat box changed (taken off their neighbours' lists, then
//! one box query of the tree with the new fat box). Each changed proxy's
//! pairs are then found by testing the given boxes of its neighbours. This
//! is the persistent fat-pair set of Box2D v2's `b2BroadPhase` (pairs are
//! kept until the fat boxes stop overlapping), used here as a candidate list
//! for the exact given-box pairs the contract asks for.
//!
//! The lists are built by one fat-box traversal of the tree against itself
//! at the first update that moves a minority of the proxies, or where few
//! proxies get a new fat box (a simulation moves every proxy at every step,
//! but most stay inside their fat boxes); not after a build from scratch: a
//! from-scratch frame needs no lists, and building them would cost as much
//! again. They are dropped at an update where too many proxies get a new fat
//! box to refresh their lists. They are dropped when fat boxes change outside
//! this bookkeeping (`refit`, `rebuild`, the bulk build of a big insertion
//! batch) and when a filter changes.

use crate::par::*;

use crate::math::Vector;

use super::super::pairs::pair_of;
use super::super::proxy::ProxyPair;
use super::selfpairs::{traverse, Wanted};
use super::DynamicTree;

/// Below this many proxies the lists are not kept (the per-proxy queries of
/// a small tree are cheap).
const ADJ_MIN: usize = 2048;

/// The lists are kept while fewer than `1 / ADJ_REFRESH_FRACTION` of the
/// proxies get a new fat box at an update: each of those costs a query of
/// the tree and a walk of its old neighbours' lists.
const ADJ_REFRESH_FRACTION: usize = 8;

/// Changed proxies per task when the lists are read on several threads.
const READ_CHUNK: usize = 512;

impl<V: Vector> DynamicTree<V> {
    /// Drops the neighbour lists (fat boxes changed outside the bookkeeping).
    pub(super) fn drop_adjacency(&mut self) {
        if self.adj_on {
            self.adj_on = false;
            for l in &mut self.adj {
                l.clear();
            }
        }
    }

    /// Whether the lists should be built now: enough proxies, and a
    /// minority of them changed, or few got a new fat box at this update
    /// (`settled` of them: a simulation moves every proxy at every step, but
    /// most stay inside their fat boxes).
    pub(super) fn want_adjacency(&self, settled: usize) -> bool {
        let n = self.table.len();
        !self.adj_on
            && n >= ADJ_MIN
            && (2 * self.table.dirty_list.len() < n || ADJ_REFRESH_FRACTION * settled < n)
    }

    /// Whether refreshing `batch` proxies' lists would cost more than one
    /// traversal of the tree: the lists are then dropped.
    pub(super) fn too_many_to_refresh(&self, batch: usize) -> bool {
        ADJ_REFRESH_FRACTION * batch >= self.table.len()
    }

    /// Builds the lists by one traversal of the tree against itself over the
    /// fat boxes (every leaf counted as changed).
    pub(super) fn build_adjacency(&mut self) {
        if self.adj.len() < self.table.slots.len() {
            self.adj.resize_with(self.table.slots.len(), Vec::new);
        }
        for l in &mut self.adj {
            l.clear();
        }
        let adj = &mut self.adj;
        let nodes = &self.nodes[..];
        let mut link = |x: u32, y: u32| {
            let (a, b) = (nodes[x as usize].child2, nodes[y as usize].child2);
            adj[a as usize].push(b);
            adj[b as usize].push(a);
        };
        let (pairs, selfs) = (&mut self.pair_stack, &mut self.self_stack);
        if self.filtered > 0 {
            // Only the neighbours whose filters pair: a leaf's bits are its
            // own filter's, so the traversal's bit test is the filter test.
            let want = Wanted::<true, true> {
                moved: &[],
                bits: &self.bits,
            };
            traverse(nodes, &want, self.root, pairs, selfs, &mut link);
        } else {
            let every = Wanted::<true, false> {
                moved: &[],
                bits: &[],
            };
            traverse(nodes, &every, self.root, pairs, selfs, &mut link);
        }
        self.adj_on = true;
    }

    /// Takes slot `a` off its neighbours' lists and empties its own.
    pub(super) fn unlink_adjacency(&mut self, a: u32) {
        if a as usize >= self.adj.len() {
            return;
        }
        let mut own = core::mem::take(&mut self.adj[a as usize]);
        for &b in &own {
            let l = &mut self.adj[b as usize];
            if let Some(p) = l.iter().position(|&x| x == a) {
                l.swap_remove(p);
            }
        }
        own.clear();
        self.adj[a as usize] = own;
    }

    /// Recomputes the lists of the live slots in `batch` (their fat boxes
    /// changed, or they were just linked): off the old neighbours, then one
    /// fat-box query each. A pair of two batch members is added once (by the
    /// smaller slot's query).
    pub(super) fn refresh_adjacency(&mut self, batch: &[u32]) {
        if self.adj.len() < self.table.slots.len() {
            self.adj.resize_with(self.table.slots.len(), Vec::new);
        }
        if self.in_batch.len() < self.table.slots.len() {
            self.in_batch.resize(self.table.slots.len(), false);
        }
        for &a in batch {
            if self.table.alive(a) && !self.in_batch[a as usize] {
                self.in_batch[a as usize] = true;
                self.unlink_adjacency(a);
            }
        }
        let mut adj = core::mem::take(&mut self.adj);
        let mut stack = Vec::with_capacity(64);
        for &a in batch {
            if !self.table.alive(a) || !self.in_batch[a as usize] {
                continue;
            }
            let fat = self.nodes[self.leaf_of[a as usize] as usize].aabb;
            let (in_batch, slots) = (&self.in_batch, &self.table.slots);
            let filter = slots[a as usize].info.filter;
            self.query_leaves(&fat, filter.mask, &mut stack, |b, _| {
                let pairs = filter.pairs_with(&slots[b as usize].info.filter);
                if b != a && pairs && (!in_batch[b as usize] || a < b) {
                    adj[a as usize].push(b);
                    adj[b as usize].push(a);
                }
                true
            });
        }
        for &a in batch {
            if let Some(f) = self.in_batch.get_mut(a as usize) {
                *f = false;
            }
        }
        self.adj = adj;
    }

    /// Pushes onto `found` every pair with a changed live proxy, from the
    /// changed proxies' neighbour lists (each pair once: see
    /// `ProxyTable::reports`).
    ///
    /// On several threads, chunks of the changed proxies are read at once and
    /// their pairs joined in chunk order (the tracker sorts them anyway).
    pub(super) fn find_pairs_adjacent(&mut self) {
        let mut found = core::mem::take(&mut self.found);
        let (t, adj) = (&self.table, &self.adj);
        let read = |chunk: &[u32], out: &mut Vec<ProxyPair>| {
            for &a in chunk {
                if !t.alive(a) {
                    continue;
                }
                for &b in &adj[a as usize] {
                    if t.reports(a, b) && t.pair_passes(a, b) {
                        out.push(pair_of(t.id(a), t.id(b)));
                    }
                }
            }
        };
        let dirty = &t.dirty_list;
        if dirty.len() >= 2 * READ_CHUNK && crate::par::threads() > 1 {
            let parts: Vec<Vec<ProxyPair>> = dirty
                .par_chunks(READ_CHUNK)
                .map(|chunk| {
                    let mut out = Vec::new();
                    read(chunk, &mut out);
                    out
                })
                .collect();
            for part in parts {
                found.extend(part);
            }
        } else {
            read(dirty, &mut found);
        }
        self.found = found;
    }
}
