//! Sweep and prune on one axis, kept sorted by insertion sort.
//!
//! Baraff's and Cohen et al.'s I-COLLIDE (1995) "sort and sweep": boxes overlap
//! only if their intervals on the sweep axis overlap, so with the boxes sorted
//! by their lower bound, each box need only look ahead until a lower bound
//! passes its upper bound. Between frames of coherent motion the order barely
//! changes, and insertion sort restores it in nearly linear time.

use crate::bound::Aabb;
use crate::math::Vector;

use super::pairs::{pair_of, PairTracker};
use super::proxy::{Filter, ProxyId, ProxyPair, ProxyTable};
use super::{BroadPhase, BroadPhaseError, RayControl};

/// One box: its bounds on the sweep axis, and the whole box so the overlap
/// test reads the sorted array in order instead of the proxy table.
#[derive(Debug, Clone, Copy)]
struct Entry<V> {
    min: f32,
    max: f32,
    slot: u32,
    generation: u32,
    aabb: Aabb<V>,
}

impl<V: Vector> Entry<V> {
    /// Strict order: by lower bound, ties by slot (so the order is a function of
    /// the boxes alone).
    #[inline]
    fn after(&self, o: &Entry<V>) -> bool {
        self.min > o.min || (self.min == o.min && self.slot > o.slot)
    }
}

/// Sweep and prune on one axis, kept sorted by insertion sort.
///
/// Baraff's and Cohen et al.'s I-COLLIDE (1995) "sort and sweep": boxes overlap
/// only if their intervals on the sweep axis overlap, so with the boxes sorted
/// by their lower bound, each box need only look ahead until a lower bound
/// passes its upper bound. Between frames of coherent motion the order barely
/// changes, and insertion sort restores it in nearly linear time.
///
/// Each update re-sorts (insertion sort when few boxes changed, a full sort
/// otherwise), then either sweeps the whole list, testing only pairs with a
/// changed proxy (cost `O(n + k)` with `k` the pairs overlapping on the sweep
/// axis), or, when fewer than a quarter of the boxes changed, scans the list
/// around each changed box. Best when boxes move a little each frame and are
/// spread along the axis; poor when many boxes share the same range on that
/// axis (in 3D, `k` grows like `n²` times the boxes' width over the world's).
#[derive(Debug, Clone)]
pub struct SweepAndPrune<V> {
    table: ProxyTable<V>,
    tracker: PairTracker,
    found: Vec<ProxyPair>,
    axis: usize,
    /// Sorted by `min` as of the last update, then new proxies appended.
    entries: Vec<Entry<V>>,
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

    /// Switches to the axis along which the box centers vary most (largest
    /// variance), where boxes overlap least by chance, and re-sorts. Pairs are
    /// unaffected. Returns the axis. `O(n log n)`.
    pub fn choose_axis(&mut self) -> usize {
        let t = &self.table;
        let n = t.len().max(1) as f64;
        let mut best = (f64::NEG_INFINITY, self.axis);
        for axis in 0..V::DIM {
            // Two passes over the centers: mean, then variance (stable enough
            // in f64 for any f32 input).
            let c = |i: u32| {
                let b = t.aabb(i);
                0.5 * (b.min.get(axis) as f64 + b.max.get(axis) as f64)
            };
            let mean = t.live().map(c).sum::<f64>() / n;
            let var = t.live().map(|i| (c(i) - mean).powi(2)).sum::<f64>() / n;
            if var > best.0 {
                best = (var, axis);
            }
        }
        self.axis = best.1;
        let axis = self.axis;
        self.entries.retain_mut(|e| {
            let s = &t.slots[e.slot as usize];
            if !s.alive || s.generation != e.generation {
                return false;
            }
            e.aabb = s.info.aabb;
            e.min = s.info.aabb.min.get(axis);
            e.max = s.info.aabb.max.get(axis);
            true
        });
        self.entries
            .sort_unstable_by(|x, y| x.min.total_cmp(&y.min).then(x.slot.cmp(&y.slot)));
        self.sorted_len = self.entries.len();
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
                e.aabb = s.info.aabb;
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
            e.aabb = s.info.aabb;
            e.min = s.info.aabb.min.get(axis);
            e.max = s.info.aabb.max.get(axis);
        }
        let cmp = |x: &Entry<V>, y: &Entry<V>| x.min.total_cmp(&y.min).then(x.slot.cmp(&y.slot));
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

    /// The width above which an entry counts as wide: twice the 90th
    /// percentile of the widths of up to 64 evenly spaced entries (so a few very
    /// large boxes do not set it).
    fn wide_threshold(&self) -> f32 {
        let n = self.entries.len();
        let k = n.min(64);
        if k == 0 {
            return 0.0;
        }
        let mut w: Vec<f32> = (0..k)
            .map(|i| {
                let e = &self.entries[i * n / k];
                e.max - e.min
            })
            .collect();
        w.sort_unstable_by(f32::total_cmp);
        let p90 = w[(k * 9 / 10).min(k - 1)];
        if p90 > 0.0 {
            2.0 * p90
        } else {
            w[k - 1]
        }
    }

    /// Finds the pairs of the changed proxies without sweeping the whole list.
    ///
    /// Entries are split by a width threshold `w` into narrow and wide ones
    /// (wide: `min < fl(max − w)`). For a changed proxy `a` at its place in the
    /// order, the narrow entries overlapping it on the axis are (i) those after
    /// it up to `a.max` and (ii) those before it with `max >= a.min`, which all
    /// have `min >= fl(max − w) >= fl(a.min − w)` (rounding is monotone), so the
    /// backward scan stops below `fl(a.min − w)`. Wide entries are tested
    /// against every changed proxy. Cost per changed proxy: the entries within
    /// `[a.min − w, a.max]` plus the wide ones.
    fn scan_changed(&mut self) {
        let w = self.wide_threshold();
        let v = &self.entries;
        let wide_of = |e: &Entry<V>| e.min < e.max - w;
        let wide: Vec<usize> = (0..v.len()).filter(|&k| wide_of(&v[k])).collect();
        let t = &self.table;
        let axis = self.axis;
        for &a in &t.dirty_list {
            if !t.alive(a) {
                continue;
            }
            let key = Entry {
                min: t.aabb(a).min.get(axis),
                max: 0.0,
                slot: a,
                generation: 0,
                aabb: Aabb::EMPTY,
            };
            let pos = v.partition_point(|e| key.after(e));
            debug_assert_eq!(v.get(pos).map(|e| e.slot), Some(a));
            let ea = v[pos];
            // Box first (read from the sorted array), then the rest.
            let mut test = |b: &Entry<V>| {
                if ea.aabb.overlaps(&b.aabb)
                    && t.reports(a, b.slot)
                    && t.slots[a as usize]
                        .info
                        .filter
                        .pairs_with(&t.slots[b.slot as usize].info.filter)
                {
                    self.found.push(pair_of(t.id(a), t.id(b.slot)));
                }
            };
            for b in &v[pos + 1..] {
                if b.min > ea.max {
                    break;
                }
                if !wide_of(b) {
                    test(b);
                }
            }
            let stop = ea.min - w;
            for b in v[..pos].iter().rev() {
                if b.min < stop {
                    break;
                }
                if !wide_of(b) {
                    test(b);
                }
            }
            for &k in &wide {
                if v[k].slot != a {
                    test(&v[k]);
                }
            }
        }
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
                if (da || t.dirty[b.slot as usize])
                    && a.aabb.overlaps(&b.aabb)
                    && t.slots[a.slot as usize]
                        .info
                        .filter
                        .pairs_with(&t.slots[b.slot as usize].info.filter)
                {
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
        if !t.dirty_list.is_empty() {
            return t.query_all(aabb, mask, f);
        }
        let mut visit = |slot: u32| {
            let info = &t.slots[slot as usize].info;
            if info.filter.category & mask != 0 && info.aabb.overlaps(aabb) {
                f(t.id(slot), info.user_data)
            } else {
                true
            }
        };
        let hi = aabb.max.get(self.axis);
        let end = self.entries.partition_point(|e| e.min <= hi);
        for e in &self.entries[..end] {
            if e.max >= aabb.min.get(self.axis) && !visit(e.slot) {
                return;
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
        f: impl FnMut(ProxyId, u64, f32) -> RayControl,
    ) {
        self.table.ray_all(origin, dir, max_t, mask, f)
    }

    /// Re-sorts and finds the pairs of the changed proxies, sweeping the whole
    /// list or scanning around each changed proxy.
    fn find_pairs(&mut self) {
        if !self.table.dirty_list.is_empty() {
            self.resort();
            // Sweeping everything costs about the pairs overlapping on the axis;
            // scanning around each changed proxy costs a share of that per
            // proxy, so it wins when few changed.
            if self.table.dirty_list.len() * 4 < self.entries.len() {
                self.scan_changed();
            } else {
                self.sweep();
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
        let id = self.table.insert_checked(aabb, user_data, filter)?;
        let aabb = *self.table.aabb(id.index());
        self.entries.push(Entry {
            min: aabb.min.get(self.axis),
            max: aabb.max.get(self.axis),
            slot: id.index(),
            generation: id.generation(),
            aabb,
        });
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        // The entry is dropped at the next update (its generation is stale).
        self.table.remove(id).map(|(_, info)| info.user_data)
    }

    fn set_filter(&mut self, id: ProxyId, filter: Filter) -> Result<(), BroadPhaseError> {
        self.table.set_filter(id, filter).map(|_| ())
    }

    fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        _displacement: V,
    ) -> Result<(), BroadPhaseError> {
        self.table.set_aabb(id, aabb).map(|_| ())
    }

    shared_broad_phase_methods!();
}
