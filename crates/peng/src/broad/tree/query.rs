//! Box and ray queries, pair finding, and the [`BroadPhase`] implementation.

use crate::bound::Aabb;
use crate::math::Vector;

use crate::par::*;

use super::super::pairs::pair_of;
use super::super::proxy::{Filter, ProxyId, ProxyPair};
use super::super::{apply_ray_control, ray_ok, BroadPhase, BroadPhaseError, RayControl};
use super::{overlap, DynamicTree, NULL};

/// A ray prepared for many slab tests: the reciprocal direction computed once.
///
/// Per axis this computes `(lo − o)·inv` and `(hi − o)·inv` with `inv = 1/d`,
/// exactly the arithmetic of [`Aabb::ray_interval`], so a node holding a box
/// gets an interval holding the box's (the products are monotone in the
/// bounds): the traversal never prunes a box the leaf test would hit.
struct Slab<V> {
    origin: V,
    inv: V,
}

impl<V: Vector> Slab<V> {
    fn new(origin: V, dir: V) -> Self {
        let mut inv = V::ZERO;
        for i in 0..V::DIM {
            inv.set(i, 1.0 / dir.get(i));
        }
        Slab { origin, inv }
    }

    /// Entry parameter of the ray into `b` within `[0, max_t]`, if it meets it.
    #[inline(always)]
    fn enter(&self, b: &Aabb<V>, max_t: f32) -> Option<f32> {
        let mut t_enter = 0.0f32;
        let mut t_exit = max_t;
        for i in 0..V::DIM {
            let (o, inv) = (self.origin.get(i), self.inv.get(i));
            let (lo, hi) = (b.min.get(i), b.max.get(i));
            if !inv.is_finite() {
                // The ray is parallel to this slab: inside it or never.
                if o < lo || o > hi {
                    return None;
                }
                continue;
            }
            let (mut t0, mut t1) = ((lo - o) * inv, (hi - o) * inv);
            if t0 > t1 {
                core::mem::swap(&mut t0, &mut t1);
            }
            t_enter = t_enter.max(t0);
            t_exit = t_exit.min(t1);
        }
        (t_enter <= t_exit).then_some(t_enter)
    }
}

/// When at least `1 / SELF_TRAVERSAL_FRACTION` of the proxies changed since the
/// last update, pairs are found by one traversal of the tree against itself
/// instead of one query per changed proxy.
const SELF_TRAVERSAL_FRACTION: usize = 4;

/// When at least `1 / SWEEP_FRACTION` of the proxies changed, pairs are found
/// by sort and sweep (`sweep.rs`) if the boxes allow it: the sweep tests
/// every box, changed or not, where the self traversal skips the subtrees
/// that did not change.
const SWEEP_FRACTION: usize = 2;

/// Changed proxies per parallel chunk of queries: the fewest a thread takes
/// at once (each query costs about a microsecond).
const QUERY_CHUNK: usize = 128;

impl<V: Vector> DynamicTree<V> {
    /// Calls `f(slot)` for every leaf whose fat box overlaps `aabb` and whose
    /// category meets `mask`, until `f` returns `false`. Subtrees whose category
    /// union misses `mask` are skipped whole.
    #[inline]
    pub(super) fn query_leaves(
        &self,
        aabb: &Aabb<V>,
        mask: u64,
        stack: &mut Vec<u32>,
        mut f: impl FnMut(u32, u32) -> bool,
    ) {
        stack.clear();
        if self.root != NULL {
            stack.push(self.root);
        }
        // While every proxy has the default filter, every category is all
        // ones and the mask test fails only for a zero mask: skip reading
        // the categories then.
        let masked = self.filtered > 0 || mask == 0;
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if (masked && self.bits[i as usize].category & mask == 0) || !overlap(&n.aabb, aabb) {
                continue;
            }
            if n.is_leaf() {
                if !f(n.child2, i) {
                    return;
                }
            } else {
                stack.push(n.child2);
                stack.push(n.child1);
            }
        }
        // Leaves not linked yet (inserted since the last update).
        for &s in &self.pending {
            let leaf = self.leaf_of[s as usize];
            let n = &self.nodes[leaf as usize];
            if self.bits[leaf as usize].category & mask != 0 && n.aabb.overlaps(aabb) && !f(s, leaf)
            {
                return;
            }
        }
    }

    /// Calls `f(id, user_data)` for every proxy whose box overlaps `aabb`
    /// (closed) and whose category meets `mask`, until `f` returns `false`.
    pub fn query(&self, aabb: &Aabb<V>, mask: u64, mut f: impl FnMut(ProxyId, u64) -> bool) {
        let mut stack = Vec::with_capacity(64);
        self.query_leaves(aabb, mask, &mut stack, |slot, _| {
            let info = &self.table.slots[slot as usize].info;
            if info.aabb.overlaps(aabb) {
                f(self.table.id(slot), info.user_data)
            } else {
                true
            }
        });
    }

    /// Ray query (see [`BroadPhase::ray_cast`]): slab tests against the nodes'
    /// boxes (Ericson 5.3.3) with the current `max_t`, so a callback that clips
    /// the ray prunes every subtree entered later. Of two children, the one the
    /// ray enters first is visited first.
    pub fn ray_query(
        &self,
        origin: V,
        dir: V,
        max_t: f32,
        mask: u64,
        mut f: impl FnMut(ProxyId, u64, f32) -> RayControl,
    ) {
        if !ray_ok(origin, dir, max_t) {
            return;
        }
        let mut max_t = max_t;
        // Leaves not linked yet (inserted since the last update) first.
        for &s in &self.pending {
            let info = &self.table.slots[s as usize].info;
            if info.filter.category & mask == 0 {
                continue;
            }
            if let Some((t, _)) = info.aabb.ray_interval(origin, dir, max_t) {
                if !apply_ray_control(f(self.table.id(s), info.user_data, t), &mut max_t) {
                    return;
                }
            }
        }
        if self.root == NULL {
            return;
        }
        let mut stack: Vec<(u32, f32)> = Vec::with_capacity(64);
        let root = &self.nodes[self.root as usize];
        if self.bits[self.root as usize].category & mask == 0 {
            return;
        }
        let slab = Slab::new(origin, dir);
        match slab.enter(&root.aabb, max_t) {
            Some(t) => stack.push((self.root, t)),
            None => return,
        }
        while let Some((i, t_enter)) = stack.pop() {
            if t_enter > max_t {
                continue;
            }
            let n = &self.nodes[i as usize];
            if n.is_leaf() {
                let info = &self.table.slots[n.child2 as usize].info;
                if let Some((t, _)) = info.aabb.ray_interval(origin, dir, max_t) {
                    let c = f(self.table.id(n.child2), info.user_data, t);
                    if !apply_ray_control(c, &mut max_t) {
                        return;
                    }
                }
                continue;
            }
            let mut hits = [(NULL, 0.0f32); 2];
            for (k, c) in [n.child1, n.child2].into_iter().enumerate() {
                let nc = &self.nodes[c as usize];
                if self.bits[c as usize].category & mask != 0 {
                    if let Some(t) = slab.enter(&nc.aabb, max_t) {
                        hits[k] = (c, t);
                    }
                }
            }
            // Push the farther first so the nearer is popped first.
            if hits[0].0 != NULL && hits[1].0 != NULL && hits[0].1 < hits[1].1 {
                hits.swap(0, 1);
            }
            for h in hits {
                if h.0 != NULL {
                    stack.push(h);
                }
            }
        }
    }

    /// Finds every pair with a changed proxy, by the cheapest of:
    ///
    /// - the fat-neighbour lists, while they are kept (`adjacency.rs`; built
    ///   at the first update where a minority of a tree of at least a few
    ///   thousand proxies changed);
    /// - sort and sweep when at least `1 / SWEEP_FRACTION` of the proxies
    ///   changed, unless too many boxes share the sweep axis (`sweep.rs`);
    /// - one traversal of the tree against itself when at least
    ///   `1 / SELF_TRAVERSAL_FRACTION` of the proxies changed (`selfpairs.rs`);
    /// - otherwise one query per changed proxy: its box is queried against
    ///   the tree with its mask (Box2D's move buffer), and hits are kept when
    ///   the given boxes overlap and the filters agree.
    ///
    /// Box2D queries with the moved proxy's *fat* box and reports fat-box pairs;
    /// here the contract is the exact set of given-box pairs, so the query uses
    /// the given (tight) box: every leaf's fat box holds its tight box, so no
    /// pair is missed, and fewer candidates need the exact test.
    fn find_pairs(&mut self) {
        let mut batch = core::mem::take(&mut self.batch);
        batch.clear();
        let settled = self.settle_stale(&mut batch);
        if self.adj_on && self.too_many_to_refresh(batch.len()) {
            self.drop_adjacency();
        }
        if self.adj_on {
            // Neighbour lists kept: refresh the changed ones, then read them.
            self.refresh_adjacency(&batch);
            self.batch = batch;
            self.find_pairs_adjacent();
            return;
        }
        self.batch = batch;
        if self.want_adjacency(settled) {
            self.build_adjacency();
            self.find_pairs_adjacent();
            return;
        }
        // Most proxies changed: sort and sweep, unless too many boxes
        // share the sweep axis.
        let dirty = self.table.dirty_list.len();
        if dirty * SWEEP_FRACTION >= self.table.len() && self.find_pairs_swept() {
            return;
        }
        // Many changed proxies: one traversal of the tree against itself.
        if dirty * SELF_TRAVERSAL_FRACTION >= self.table.len() {
            self.find_pairs_self();
            return;
        }
        let mut found = core::mem::take(&mut self.found);
        let dirty = &self.table.dirty_list;
        if dirty.len() >= 2 * QUERY_CHUNK && crate::par::threads() > 1 {
            // The queries only read the tree: chunks of them on rayon's
            // threads, their pairs joined in chunk order (the same list as
            // on one thread).
            let parts: Vec<Vec<ProxyPair>> = dirty
                .par_chunks(QUERY_CHUNK)
                .map(|chunk| {
                    let mut out = Vec::new();
                    let mut stack = Vec::with_capacity(64);
                    for &a in chunk {
                        self.pairs_of_dirty(a, &mut stack, &mut out);
                    }
                    out
                })
                .collect();
            for part in parts {
                found.extend(part);
            }
        } else {
            let mut stack = Vec::with_capacity(64);
            for &a in dirty {
                self.pairs_of_dirty(a, &mut stack, &mut found);
            }
        }
        self.found = found;
    }

    /// Pushes onto `out` the pairs that changed proxy `a` reports: each
    /// overlapping leaf whose pair `a`'s query owns (the pair of two changed
    /// proxies is reported by its smaller end only) and the filters pass.
    fn pairs_of_dirty(&self, a: u32, stack: &mut Vec<u32>, out: &mut Vec<ProxyPair>) {
        let (t, recs) = (&self.table, &self.recs);
        if !t.alive(a) {
            return;
        }
        let filtered = self.filtered > 0;
        let ra = &recs[self.leaf_of[a as usize] as usize];
        let mask = t.slots[a as usize].info.filter.mask;
        self.query_leaves(&ra.aabb, mask, stack, |b, leaf| {
            // The leaf's record holds its given box and id (next to the
            // node in memory).
            let rb = &recs[leaf as usize];
            if t.reports(a, b) && rb.aabb.overlaps(&ra.aabb) && (!filtered || t.pair_passes(a, b)) {
                out.push(pair_of(ra.id, rb.id));
            }
            true
        });
    }
}

impl<V: Vector> BroadPhase<V> for DynamicTree<V> {
    fn insert(
        &mut self,
        aabb: Aabb<V>,
        user_data: u64,
        filter: Filter,
    ) -> Result<ProxyId, BroadPhaseError> {
        self.insert_proxy(aabb, user_data, filter)
    }

    fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        self.remove_proxy(id)
    }

    fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        displacement: V,
    ) -> Result<(), BroadPhaseError> {
        self.move_proxy_inner(id, aabb, displacement)
    }

    fn set_filter(&mut self, id: ProxyId, filter: Filter) -> Result<(), BroadPhaseError> {
        DynamicTree::set_filter(self, id, filter)
    }

    shared_broad_phase_methods!();
}
