//! The reference broad phase: every changed proxy is tested against every other.

use crate::bound::Aabb;
use crate::math::Vector;

use super::pairs::{pair_of, PairEvents, PairTracker};
use super::proxy::{sanitize, Filter, ProxyId, ProxyInfo, ProxyPair, ProxyTable};
use super::{apply_ray_control, finish_update, ray_ok, BroadPhase, BroadPhaseError, RayControl};

/// Tests every changed proxy against all others: `O(moved · n)` per update.
/// Exact by construction; the baseline the other structures are tested against,
/// and the fastest choice for a few dozen proxies.
#[derive(Debug, Clone)]
pub struct BruteForce<V> {
    table: ProxyTable<V>,
    tracker: PairTracker,
    found: Vec<ProxyPair>,
}

impl<V: Vector> Default for BruteForce<V> {
    fn default() -> Self {
        BruteForce {
            table: ProxyTable::default(),
            tracker: PairTracker::default(),
            found: Vec::new(),
        }
    }
}

impl<V: Vector> BruteForce<V> {
    /// An empty set of proxies.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<V: Vector> BroadPhase<V> for BruteForce<V> {
    fn insert(
        &mut self,
        aabb: Aabb<V>,
        user_data: u64,
        filter: Filter,
    ) -> Result<ProxyId, BroadPhaseError> {
        let aabb = sanitize(aabb)?;
        Ok(self.table.insert(ProxyInfo {
            aabb,
            user_data,
            filter,
        }))
    }

    fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
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
        let t = &self.table;
        for &a in &t.dirty_list {
            if !t.alive(a) {
                continue;
            }
            for b in t.live() {
                if t.reports(a, b) && t.pair_passes(a, b) {
                    self.found.push(pair_of(t.id(a), t.id(b)));
                }
            }
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
        for i in self.table.live() {
            let info = &self.table.slots[i as usize].info;
            if info.filter.category & mask != 0
                && info.aabb.overlaps(aabb)
                && !f(self.table.id(i), info.user_data)
            {
                return;
            }
        }
    }

    fn ray_cast(
        &self,
        origin: V,
        dir: V,
        max_t: f32,
        mask: u64,
        f: &mut dyn FnMut(ProxyId, u64, f32) -> RayControl,
    ) {
        if !ray_ok(origin, dir, max_t) {
            return;
        }
        let mut max_t = max_t;
        for i in self.table.live() {
            let info = &self.table.slots[i as usize].info;
            if info.filter.category & mask == 0 {
                continue;
            }
            if let Some((t, _)) = info.aabb.ray_interval(origin, dir, max_t) {
                if !apply_ray_control(f(self.table.id(i), info.user_data, t), &mut max_t) {
                    return;
                }
            }
        }
    }
}
