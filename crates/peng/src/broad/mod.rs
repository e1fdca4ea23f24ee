//! Broad phase: structures that find candidate pairs of overlapping boxes,
//! independent of any world.
//!
//! Every structure implements [`BroadPhase`], so a world or a user can swap them:
//!
//! - [`DynamicTree`]: a dynamic AABB tree (SAH insertion with rotations, fattened
//!   boxes). The general-purpose choice: any mix of sizes, few or many movers,
//!   fast box and ray queries.
//! - [`SweepAndPrune`]: boxes kept sorted on one axis by insertion sort. Good when
//!   most boxes move a little every frame (coherent motion) and are spread along
//!   the sweep axis.
//! - [`SpatialHash`]: a uniform grid stored in a hash map. Good for many boxes of
//!   similar size (about one cell); boxes covering many cells go to a side list.
//! - [`LooseTree`] ([`LooseQuadtree`], [`LooseOctree`]): a loose quadtree /
//!   octree (loose factor 2). Good for objects of very different sizes in a
//!   bounded region: each is stored once, at the level of its size.
//! - [`BruteForce`]: tests every pair; the reference, and fine for a few dozen
//!   proxies.
//!
//! # The common contract
//! Proxies are closed boxes (touching counts as overlapping) with user data and a
//! [`Filter`]. [`BroadPhase::update_pairs`] makes [`BroadPhase::pairs`] exactly
//! the set of pairs whose *given* boxes overlap and whose filters accept each
//! other — never the looser set of fattened boxes some structures keep inside —
//! sorted, and reports which pairs began and ended since the previous update.
//! Queries see the boxes as last given, even before `update_pairs`.

/// Writes the [`BroadPhase`] methods every structure here shares, for a type
/// with fields `table: ProxyTable<V>`, `tracker: PairTracker` and
/// `found: Vec<ProxyPair>`, and inherent methods `find_pairs(&mut self)`
/// (pushes the pairs of the dirty proxies onto `found`), `query` and
/// `ray_query` (the generic box and ray queries). Used inside
/// `impl<V: Vector> BroadPhase<V> for …`.
macro_rules! shared_broad_phase_methods {
    () => {
        fn update_pairs(&mut self) -> &$crate::broad::PairEvents {
            self.find_pairs();
            $crate::broad::finish_update(&mut self.table, &mut self.tracker, &mut self.found);
            self.tracker.events()
        }

        fn pairs(&self) -> &[$crate::broad::ProxyPair] {
            self.tracker.pairs()
        }

        fn changed_pairs(&self) -> &[$crate::broad::ProxyPair] {
            self.tracker.changed_pairs()
        }

        fn proxy(&self, id: $crate::broad::ProxyId) -> Option<&$crate::broad::ProxyInfo<V>> {
            self.table.get(id)
        }

        fn len(&self) -> usize {
            self.table.len()
        }

        fn query_aabb(
            &self,
            aabb: &$crate::bound::Aabb<V>,
            mask: u64,
            f: &mut dyn FnMut($crate::broad::ProxyId, u64) -> bool,
        ) {
            self.query(aabb, mask, f)
        }

        fn ray_cast(
            &self,
            origin: V,
            dir: V,
            max_t: f32,
            mask: u64,
            f: &mut dyn FnMut($crate::broad::ProxyId, u64, f32) -> $crate::broad::RayControl,
        ) {
            self.ray_query(origin, dir, max_t, mask, f)
        }
    };
}

mod brute;
mod grid;
mod hash;
mod loose;
mod pairs;
mod prefetch;
mod proxy;
mod radix;
mod sap;
mod tree;

pub use brute::BruteForce;
pub use grid::SpatialHash;
pub use loose::{LooseOctree, LooseQuadtree, LooseTree, LooseTreeStats};
pub use pairs::PairEvents;
pub use proxy::{Filter, ProxyId, ProxyInfo, ProxyPair, COORD_LIMIT};
pub use sap::SweepAndPrune;
pub use tree::{DynamicTree, TreeStats};

use crate::bound::Aabb;
use crate::math::Vector;
use thiserror::Error;

/// Errors of broad-phase operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum BroadPhaseError {
    /// The id names a proxy that was removed (or never existed here).
    #[error("stale or unknown proxy id")]
    StaleProxy,
    /// The box has a NaN bound or `min > max` on some axis.
    #[error("invalid box: {0}")]
    InvalidBox(&'static str),
    /// A construction parameter is out of range (e.g. a cell size that is not
    /// positive and finite).
    #[error("invalid parameter: {0}")]
    InvalidParameter(&'static str),
}

/// What a ray-query callback tells the traversal to do next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RayControl {
    /// Keep going with the current ray length.
    Continue,
    /// Shorten the ray to parameter `t` (only shortening has an effect): boxes
    /// entered after `t` are no longer reported. Clipping to the reported hit's
    /// own `t` gives a closest-hit search.
    Clip(f32),
    /// Stop the query.
    Stop,
}

/// The interface shared by all broad-phase structures, generic over 2D and 3D.
///
/// Callbacks are `dyn` so the trait can be used as a trait object; the
/// structures also offer generic inherent versions.
pub trait BroadPhase<V: Vector> {
    /// Adds a proxy for `aabb` and returns its id. Infinite bounds are clamped to
    /// [`COORD_LIMIT`]; NaN or empty boxes are rejected.
    fn insert(
        &mut self,
        aabb: Aabb<V>,
        user_data: u64,
        filter: Filter,
    ) -> Result<ProxyId, BroadPhaseError>;

    /// Removes a proxy and returns its user data; a stale id is an error.
    fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError>;

    /// Gives a proxy a new box. `displacement` is a hint of where the box is going
    /// next (e.g. velocity × time step; zero if unknown); structures with fattened
    /// boxes stretch them that way.
    fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        displacement: V,
    ) -> Result<(), BroadPhaseError>;

    /// Gives a proxy a new filter; its pairs are found again at the next
    /// [`update_pairs`](Self::update_pairs) (it counts as moved). A stale id
    /// is an error.
    fn set_filter(&mut self, id: ProxyId, filter: Filter) -> Result<(), BroadPhaseError>;

    /// Brings [`pairs`](Self::pairs) up to date with every insertion, move and
    /// removal since the previous call, and returns which pairs began and ended.
    fn update_pairs(&mut self) -> &PairEvents;

    /// All overlapping pairs as of the last [`update_pairs`](Self::update_pairs),
    /// sorted.
    fn pairs(&self) -> &[ProxyPair];

    /// The overlapping pairs with at least one end inserted or moved before
    /// the last [`update_pairs`](Self::update_pairs)
    /// (sorted; a subset of [`pairs`](Self::pairs)): every other pair was
    /// already overlapping, with the same boxes, at the update before. A
    /// world narrow phase needs to retest exactly these.
    fn changed_pairs(&self) -> &[ProxyPair];

    /// The data of a live proxy (`None` for a stale id).
    fn proxy(&self, id: ProxyId) -> Option<&ProxyInfo<V>>;

    /// Number of live proxies.
    fn len(&self) -> usize;

    /// Whether there is no live proxy.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f(id, user_data)` for every proxy whose box overlaps `aabb` (closed)
    /// and whose category has a bit of `mask`, until `f` returns `false`.
    fn query_aabb(&self, aabb: &Aabb<V>, mask: u64, f: &mut dyn FnMut(ProxyId, u64) -> bool);

    /// Calls `f(id, user_data, t)` for every proxy whose box the ray
    /// `origin + t·dir`, `0 <= t <= max_t`, touches, with `t` where it enters the
    /// box (0 when it starts inside), for categories with a bit of `mask`. The
    /// callback's [`RayControl`] can shorten the ray or stop. Hits come in no
    /// particular order.
    fn ray_cast(
        &self,
        origin: V,
        dir: V,
        max_t: f32,
        mask: u64,
        f: &mut dyn FnMut(ProxyId, u64, f32) -> RayControl,
    );
}

/// Applies a ray callback's answer to the current ray length; `false` = stop.
#[inline]
pub(crate) fn apply_ray_control(c: RayControl, max_t: &mut f32) -> bool {
    match c {
        RayControl::Continue => true,
        RayControl::Clip(t) => {
            // NaN is ignored (keeps the ray).
            if t < *max_t {
                *max_t = t.max(0.0);
            }
            true
        }
        RayControl::Stop => false,
    }
}

/// Whether the ray inputs are usable (finite origin and direction, `max_t >= 0`).
#[inline]
pub(crate) fn ray_ok<V: Vector>(origin: V, dir: V, max_t: f32) -> bool {
    origin.is_finite() && dir.is_finite() && max_t >= 0.0
}

/// Merges the pairs found for the dirty proxies into the tracker and clears the
/// dirty set.
pub(crate) fn finish_update<V: Vector>(
    table: &mut proxy::ProxyTable<V>,
    tracker: &mut pairs::PairTracker,
    found: &mut Vec<ProxyPair>,
) {
    if table.dirty_list.is_empty() && found.is_empty() {
        // Nothing changed (a removal marks its slot too).
        tracker.update_unchanged();
        return;
    }
    tracker.update(&table.dirty, found);
    for &i in &table.dirty_list {
        table.dirty[i as usize] = false;
    }
    table.dirty_list.clear();
    found.clear();
}
