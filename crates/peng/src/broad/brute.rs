//! The reference broad phase: every changed proxy is tested against every other.

use crate::bound::Aabb;
use crate::math::Vector;

use super::pairs::PairTracker;
use super::proxy::{Filter, ProxyId, ProxyPair, ProxyTable};
use super::{BroadPhase, BroadPhaseError, RayControl};

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

    /// Pairs of every changed proxy: each is tested against all others.
    fn find_pairs(&mut self) {
        let t = &self.table;
        for &a in &t.dirty_list {
            if t.alive(a) {
                t.push_pairs_with_all(a, &mut self.found);
            }
        }
    }

    /// Calls `f(id, user_data)` for every proxy whose box overlaps `aabb` and
    /// whose category meets `mask`, until `f` returns `false`; tests every box.
    pub fn query(&self, aabb: &Aabb<V>, mask: u64, f: impl FnMut(ProxyId, u64) -> bool) {
        self.table.query_all(aabb, mask, f)
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
}

impl<V: Vector> BroadPhase<V> for BruteForce<V> {
    fn insert(
        &mut self,
        aabb: Aabb<V>,
        user_data: u64,
        filter: Filter,
    ) -> Result<ProxyId, BroadPhaseError> {
        self.table.insert_checked(aabb, user_data, filter)
    }

    fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
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
