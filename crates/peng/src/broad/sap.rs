//! Sweep and prune on one axis, kept sorted by insertion sort.
//!
//! Baraff's and Cohen et al.'s I-COLLIDE (1995) "sort and sweep": boxes overlap
//! only if their intervals on the sweep axis overlap, so with the boxes sorted
//! by their lower bound, each box need only look ahead until a lower bound
//! passes its upper bound. Between frames of coherent motion the order barely
//! changes, and insertion sort restores it in nearly linear time.

use crate::bound::Aabb;
use crate::math::Vector;

use super::pairs::{pair_of, PairEvents, PairTracker};
use super::proxy::{sanitize, Filter, ProxyId, ProxyInfo, ProxyPair, ProxyTable};
use super::{apply_ray_control, finish_update, ray_ok, BroadPhase, BroadPhaseError, RayControl};

/// One box on the sweep axis.
#[derive(Debug, Clone, Copy)]
struct Entry {
    min: f32,
    max: f32,
    slot: u32,
    generation: u32,
}

impl Entry {
    /// Strict order: by lower bound, ties by slot (so the order is a function of
    /// the boxes alone).
    #[inline]
    fn after(&self, o: &Entry) -> bool {
        self.min > o.min || (self.min == o.min && self.slot > o.slot)
    }
}

/// Sweep and prune on one axis: see the [module documentation](self).
///
/// Each update re-sorts (insertion sort when few boxes changed, a full sort
/// otherwise) and sweeps the whole list, testing only pairs with a changed
/// proxy: cost `O(n + k)` with `k` the pairs overlapping on the sweep axis. Best
/// when most boxes move a little each frame and are spread along the axis;
/// poor when many boxes share the same range on that axis.
#[derive(Debug, Clone)]
pub struct SweepAndPrune<V> {
    table: ProxyTable<V>,
    tracker: PairTracker,
    found: Vec<ProxyPair>,
    axis: usize,
    /// Sorted by `min` as of the last update, then new proxies appended.
    entries: Vec<Entry>,
    /// Number of entries at the front that were sorted at the last update.
    sorted_len: usize,
}

impl<V: Vector> Default for SweepAndPrune<V> {
    fn default() -> Self {
        Self::with_axis(0)
    }
}

impl<V: Vector> SweepAndPrune<V> {
    /// An empty structure sweeping along x.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty structure sweeping along `axis` (taken modulo the dimension).
    /// Pick the axis along which the boxes are most spread out.
    pub fn with_axis(axis: usize) -> Self {
        SweepAndPrune {
            table: ProxyTable::default(),
            tracker: PairTracker::default(),
            found: Vec::new(),
            axis: axis % V::DIM,
            entries: Vec::new(),
            sorted_len: 0,
        }
    }

    /// The sweep axis.
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// Drops removed entries, refreshes moved ones and restores the order.
    fn resort(&mut self) {
        let t = &self.table;
        let axis = self.axis;
        let mut fresh = self
            .entries
            .split_off(self.sorted_len.min(self.entries.len()));
        let mut changed = 0usize;
        self.entries.retain_mut(|e| {
            let s = &t.slots[e.slot as usize];
            if !s.alive || s.generation != e.generation {
                return false;
            }
            if t.dirty[e.slot as usize] {
                changed += 1;
                e.min = s.info.aabb.min.get(axis);
                e.max = s.info.aabb.max.get(axis);
            }
            true
        });
        fresh.retain(|e| {
            let s = &t.slots[e.slot as usize];
            s.alive && s.generation == e.generation
        });
        for e in fresh.iter_mut() {
            let s = &t.slots[e.slot as usize];
            e.min = s.info.aabb.min.get(axis);
            e.max = s.info.aabb.max.get(axis);
        }
        let cmp = |x: &Entry, y: &Entry| x.min.total_cmp(&y.min).then(x.slot.cmp(&y.slot));
        if changed * 16 <= self.entries.len() + 16 {
            // Insertion sort: each changed entry slides to its place.
            let v = &mut self.entries;
            for i in 1..v.len() {
                let e = v[i];
                let mut j = i;
                while j > 0 && v[j - 1].after(&e) {
                    v[j] = v[j - 1];
                    j -= 1;
                }
                v[j] = e;
            }
        } else {
            self.entries.sort_unstable_by(cmp);
        }
        if !fresh.is_empty() {
            fresh.sort_unstable_by(cmp);
            let old = core::mem::take(&mut self.entries);
            let mut merged = Vec::with_capacity(old.len() + fresh.len());
            let (mut i, mut j) = (0, 0);
            while i < old.len() && j < fresh.len() {
                if fresh[j].after(&old[i]) {
                    merged.push(old[i]);
                    i += 1;
                } else {
                    merged.push(fresh[j]);
                    j += 1;
                }
            }
            merged.extend_from_slice(&old[i..]);
            merged.extend_from_slice(&fresh[j..]);
            self.entries = merged;
        }
        self.sorted_len = self.entries.len();
    }

    /// Sweeps the sorted list for pairs with at least one changed proxy.
    fn sweep(&mut self) {
        let t = &self.table;
        let v = &self.entries;
        for (i, a) in v.iter().enumerate() {
            let da = t.dirty[a.slot as usize];
            for b in &v[i + 1..] {
                if b.min > a.max {
                    break;
                }
                if (da || t.dirty[b.slot as usize]) && t.pair_passes(a.slot, b.slot) {
                    self.found.push(pair_of(t.id(a.slot), t.id(b.slot)));
                }
            }
        }
    }

    /// Calls `f(id, user_data)` for every proxy whose box overlaps `aabb` and
    /// whose category meets `mask`, until `f` returns `false`. When the list is
    /// up to date, only boxes whose lower bound on the axis is at most the
    /// query's upper bound are visited.
    pub fn query(&self, aabb: &Aabb<V>, mask: u64, mut f: impl FnMut(ProxyId, u64) -> bool) {
        let t = &self.table;
        let mut visit = |slot: u32| {
            let info = &t.slots[slot as usize].info;
            if info.filter.category & mask != 0 && info.aabb.overlaps(aabb) {
                f(t.id(slot), info.user_data)
            } else {
                true
            }
        };
        if t.dirty_list.is_empty() {
            let hi = aabb.max.get(self.axis);
            let end = self.entries.partition_point(|e| e.min <= hi);
            for e in &self.entries[..end] {
                if e.max >= aabb.min.get(self.axis) && !visit(e.slot) {
                    return;
                }
            }
        } else {
            for slot in t.live() {
                if !visit(slot) {
                    return;
                }
            }
        }
    }

    /// Ray query (see [`BroadPhase::ray_cast`]); tests every box, `O(n)`.
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
        let t = &self.table;
        let mut max_t = max_t;
        for slot in t.live() {
            let info = &t.slots[slot as usize].info;
            if info.filter.category & mask == 0 {
                continue;
            }
            if let Some((hit, _)) = info.aabb.ray_interval(origin, dir, max_t) {
                if !apply_ray_control(f(t.id(slot), info.user_data, hit), &mut max_t) {
                    return;
                }
            }
        }
    }
}

impl<V: Vector> BroadPhase<V> for SweepAndPrune<V> {
    fn insert(
        &mut self,
        aabb: Aabb<V>,
        user_data: u64,
        filter: Filter,
    ) -> Result<ProxyId, BroadPhaseError> {
        let aabb = sanitize(aabb)?;
        let id = self.table.insert(ProxyInfo {
            aabb,
            user_data,
            filter,
        });
        self.entries.push(Entry {
            min: aabb.min.get(self.axis),
            max: aabb.max.get(self.axis),
            slot: id.index(),
            generation: id.generation(),
        });
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        // The entry is dropped at the next update (its generation is stale).
        self.table.remove(id).map(|(_, info)| info.user_data)
    }

    fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        _displacement: V,
    ) -> Result<(), BroadPhaseError> {
        let i = self.table.check(id)?;
        let aabb = sanitize(aabb)?;
        self.table.slots[i as usize].info.aabb = aabb;
        self.table.mark(i);
        Ok(())
    }

    fn update_pairs(&mut self) -> &PairEvents {
        if !self.table.dirty_list.is_empty() {
            self.resort();
            self.sweep();
        }
        finish_update(&mut self.table, &mut self.tracker, &mut self.found);
        self.tracker.events()
    }

    fn pairs(&self) -> &[ProxyPair] {
        self.tracker.pairs()
    }

    fn proxy(&self, id: ProxyId) -> Option<&ProxyInfo<V>> {
        self.table.get(id)
    }

    fn len(&self) -> usize {
        self.table.len()
    }

    fn query_aabb(&self, aabb: &Aabb<V>, mask: u64, f: &mut dyn FnMut(ProxyId, u64) -> bool) {
        self.query(aabb, mask, f)
    }

    fn ray_cast(
        &self,
        origin: V,
        dir: V,
        max_t: f32,
        mask: u64,
        f: &mut dyn FnMut(ProxyId, u64, f32) -> RayControl,
    ) {
        self.ray_query(origin, dir, max_t, mask, f)
    }
}
