//! Proxies: the boxes a broad phase holds, their generation-checked ids, their
//! collision filters, and the table that every structure keeps them in.

use crate::bound::Aabb;
use crate::math::Vector;

use super::pairs::pair_of;
use super::{apply_ray_control, ray_ok, BroadPhaseError, RayControl};

/// A handle to a proxy in a broad phase: a slot index and the generation of the
/// slot when the proxy was inserted. Removing a proxy bumps the slot's
/// generation, so a stale id is rejected instead of naming the slot's next
/// occupant (the scheme of Box2D v3's `b2ShapeId`).
///
/// Ordered by index, then generation; pair lists are sorted in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyId {
    index: u32,
    generation: u32,
}

impl ProxyId {
    /// The slot index (dense: indices are reused after removal).
    #[inline]
    pub fn index(self) -> u32 {
        self.index
    }

    /// The generation of the slot this id was issued for.
    #[inline]
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// The id of slot `index` at `generation` (for structures that keep the
    /// generations of their slots in a compact array of their own).
    #[inline]
    pub(crate) fn from_parts(index: u32, generation: u32) -> Self {
        ProxyId { index, generation }
    }
}

/// Collision filter bits of a proxy, as in Box2D's `b2Filter`.
///
/// Two proxies `a`, `b` may pair when `a.category & b.mask != 0` and
/// `b.category & a.mask != 0`. A box or ray query with a `mask` reports the
/// proxies with `category & mask != 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The categories this proxy belongs to (usually one bit).
    pub category: u64,
    /// The categories this proxy pairs with.
    pub mask: u64,
}

impl Filter {
    /// Belongs to every category and pairs with every category.
    pub const ALL: Filter = Filter {
        category: u64::MAX,
        mask: u64::MAX,
    };

    /// A filter from its bits.
    #[inline]
    pub const fn new(category: u64, mask: u64) -> Self {
        Filter { category, mask }
    }

    /// Whether two proxies with these filters may pair (symmetric).
    #[inline]
    pub fn pairs_with(&self, o: &Filter) -> bool {
        (self.category & o.mask) != 0 && (o.category & self.mask) != 0
    }
}

impl Default for Filter {
    fn default() -> Self {
        Filter::ALL
    }
}

/// A pair of proxies whose boxes overlap, with `a.index() < b.index()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProxyPair {
    /// The proxy with the smaller index.
    pub a: ProxyId,
    /// The proxy with the larger index.
    pub b: ProxyId,
}

impl ProxyPair {
    /// The pair of two distinct proxies, ordered by index.
    #[inline]
    pub fn new(x: ProxyId, y: ProxyId) -> Self {
        debug_assert_ne!(x.index, y.index);
        if x.index < y.index {
            ProxyPair { a: x, b: y }
        } else {
            ProxyPair { a: y, b: x }
        }
    }
}

/// What a broad phase stores about one proxy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProxyInfo<V> {
    /// The box as last given (tight: without any margin the structure adds).
    pub aabb: Aabb<V>,
    /// The caller's data.
    pub user_data: u64,
    /// Collision filter.
    pub filter: Filter,
}

/// Coordinates beyond this magnitude are clamped on insertion, so that boxes of
/// unbounded shapes ([`Aabb::everything`]) keep finite areas: `(2·10^18)^2 · 6`
/// is far below `f32::MAX`, so surface areas and their sums stay finite.
pub const COORD_LIMIT: f32 = 1.0e18;

/// Checks a box given to a broad phase and clamps infinite bounds to
/// [`COORD_LIMIT`]. NaN and empty boxes (`min > max`) are errors.
pub(crate) fn sanitize<V: Vector>(aabb: Aabb<V>) -> Result<Aabb<V>, BroadPhaseError> {
    let mut b = aabb;
    for i in 0..V::DIM {
        let (lo, hi) = (b.min.get(i), b.max.get(i));
        if lo.is_nan() || hi.is_nan() {
            return Err(BroadPhaseError::InvalidBox("a bound is NaN"));
        }
        if lo > hi {
            return Err(BroadPhaseError::InvalidBox("the box is empty (min > max)"));
        }
        b.min.set(i, lo.clamp(-COORD_LIMIT, COORD_LIMIT));
        b.max.set(i, hi.clamp(-COORD_LIMIT, COORD_LIMIT));
    }
    Ok(b)
}

/// One slot of the proxy table.
#[derive(Debug, Clone)]
pub(crate) struct Slot<V> {
    pub info: ProxyInfo<V>,
    pub generation: u32,
    pub alive: bool,
}

/// The proxies of one broad phase: slots reused through a free list, plus the
/// set of proxies changed (inserted, moved, removed) since the last pair update.
#[derive(Debug, Clone)]
pub(crate) struct ProxyTable<V> {
    pub slots: Vec<Slot<V>>,
    free: Vec<u32>,
    len: usize,
    /// `dirty[i]`: slot `i` changed since the last pair update.
    pub dirty: Vec<bool>,
    /// The dirty slots, each once, in the order they became dirty.
    pub dirty_list: Vec<u32>,
}

impl<V: Vector> Default for ProxyTable<V> {
    fn default() -> Self {
        ProxyTable {
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
            dirty: Vec::new(),
            dirty_list: Vec::new(),
        }
    }
}

impl<V: Vector> ProxyTable<V> {
    /// Number of live proxies.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Adds a proxy (box already sanitized) and marks it dirty.
    pub(crate) fn insert(&mut self, info: ProxyInfo<V>) -> ProxyId {
        let index = match self.free.pop() {
            Some(i) => {
                let s = &mut self.slots[i as usize];
                s.info = info;
                s.alive = true;
                i
            }
            None => {
                self.slots.push(Slot {
                    info,
                    generation: 0,
                    alive: true,
                });
                self.dirty.push(false);
                (self.slots.len() - 1) as u32
            }
        };
        self.len += 1;
        self.mark(index);
        ProxyId {
            index,
            generation: self.slots[index as usize].generation,
        }
    }

    /// The slot index of a live proxy, or the stale-handle error.
    #[inline]
    pub(crate) fn check(&self, id: ProxyId) -> Result<u32, BroadPhaseError> {
        match self.slots.get(id.index as usize) {
            Some(s) if s.alive && s.generation == id.generation => Ok(id.index),
            _ => Err(BroadPhaseError::StaleProxy),
        }
    }

    /// The live id of slot `i` (which must be alive).
    #[inline]
    pub(crate) fn id(&self, i: u32) -> ProxyId {
        ProxyId {
            index: i,
            generation: self.slots[i as usize].generation,
        }
    }

    /// The stored data of a live proxy.
    #[inline]
    pub(crate) fn get(&self, id: ProxyId) -> Option<&ProxyInfo<V>> {
        self.check(id).ok().map(|i| &self.slots[i as usize].info)
    }

    /// The box of slot `i`.
    #[inline]
    pub(crate) fn aabb(&self, i: u32) -> &Aabb<V> {
        &self.slots[i as usize].info.aabb
    }

    /// Removes a live proxy, returning its slot index and info. The slot's
    /// generation is bumped; a slot whose generation would wrap is retired
    /// instead of reused, so an id can never come back to life.
    pub(crate) fn remove(&mut self, id: ProxyId) -> Result<(u32, ProxyInfo<V>), BroadPhaseError> {
        let i = self.check(id)?;
        let s = &mut self.slots[i as usize];
        s.alive = false;
        let info = s.info;
        if s.generation < u32::MAX {
            s.generation += 1;
            self.free.push(i);
        }
        self.len -= 1;
        self.mark(i);
        Ok((i, info))
    }

    /// Marks slot `i` as changed since the last pair update.
    #[inline]
    pub(crate) fn mark(&mut self, i: u32) {
        let d = &mut self.dirty[i as usize];
        if !*d {
            *d = true;
            self.dirty_list.push(i);
        }
    }

    /// Whether slot `i` is alive.
    #[inline]
    pub(crate) fn alive(&self, i: u32) -> bool {
        self.slots[i as usize].alive
    }

    /// Live slot indices in increasing order.
    pub(crate) fn live(&self) -> impl Iterator<Item = u32> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.alive)
            .map(|(i, _)| i as u32)
    }

    /// Whether the pair of live slots `a`, `b` really pairs: tight boxes overlap
    /// (closed: touching counts) and the filters accept each other.
    #[inline]
    pub(crate) fn pair_passes(&self, a: u32, b: u32) -> bool {
        let (sa, sb) = (&self.slots[a as usize].info, &self.slots[b as usize].info);
        sa.aabb.overlaps(&sb.aabb) && sa.filter.pairs_with(&sb.filter)
    }

    /// Whether a pair found while querying for dirty slot `a` is the one place
    /// that reports it: when both ends are dirty, only the query of the smaller
    /// index reports, so each pair is found once.
    #[inline]
    pub(crate) fn reports(&self, a: u32, b: u32) -> bool {
        a != b && !(self.dirty[b as usize] && b < a)
    }

    /// Sanitizes `aabb` (see [`sanitize`]) and adds the proxy; the stored box
    /// is then [`aabb`](Self::aabb) of the id's slot.
    pub(crate) fn insert_checked(
        &mut self,
        aabb: Aabb<V>,
        user_data: u64,
        filter: Filter,
    ) -> Result<ProxyId, BroadPhaseError> {
        let aabb = sanitize(aabb)?;
        Ok(self.insert(ProxyInfo {
            aabb,
            user_data,
            filter,
        }))
    }

    /// Gives live proxy `id` the sanitized `aabb` and marks it changed; returns
    /// its slot index.
    pub(crate) fn set_aabb(&mut self, id: ProxyId, aabb: Aabb<V>) -> Result<u32, BroadPhaseError> {
        let i = self.check(id)?;
        let aabb = sanitize(aabb)?;
        self.slots[i as usize].info.aabb = aabb;
        self.mark(i);
        Ok(i)
    }

    /// Gives live proxy `id` `filter`, marking it changed when that differs
    /// from its filter; returns the filter it had.
    pub(crate) fn set_filter(
        &mut self,
        id: ProxyId,
        filter: Filter,
    ) -> Result<Filter, BroadPhaseError> {
        let i = self.check(id)?;
        let old = core::mem::replace(&mut self.slots[i as usize].info.filter, filter);
        if old != filter {
            self.mark(i);
        }
        Ok(old)
    }

    /// Pushes the pair of dirty slot `a` and live slot `b` onto `found` when
    /// this is the place that [`reports`](Self::reports) it and it
    /// [`passes`](Self::pair_passes).
    #[inline]
    pub(crate) fn push_pair(&self, a: u32, b: u32, found: &mut Vec<ProxyPair>) {
        if self.reports(a, b) && self.pair_passes(a, b) {
            found.push(pair_of(self.id(a), self.id(b)));
        }
    }

    /// Pushes the pairs of dirty slot `a` with every live proxy (see
    /// [`push_pair`](Self::push_pair)).
    pub(crate) fn push_pairs_with_all(&self, a: u32, found: &mut Vec<ProxyPair>) {
        for b in self.live() {
            self.push_pair(a, b, found);
        }
    }

    /// Box query by testing every live proxy: calls `f(id, user_data)` for each
    /// whose box overlaps `aabb` (closed) and whose category meets `mask`, until
    /// `f` returns `false`.
    pub(crate) fn query_all(
        &self,
        aabb: &Aabb<V>,
        mask: u64,
        mut f: impl FnMut(ProxyId, u64) -> bool,
    ) {
        for i in self.live() {
            let info = &self.slots[i as usize].info;
            if info.filter.category & mask != 0
                && info.aabb.overlaps(aabb)
                && !f(self.id(i), info.user_data)
            {
                return;
            }
        }
    }

    /// Ray query by testing every live proxy (see
    /// [`BroadPhase::ray_cast`](super::BroadPhase::ray_cast)), `O(n)`.
    pub(crate) fn ray_all(
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
        for i in self.live() {
            let info = &self.slots[i as usize].info;
            if info.filter.category & mask == 0 {
                continue;
            }
            if let Some((t, _)) = info.aabb.ray_interval(origin, dir, max_t) {
                if !apply_ray_control(f(self.id(i), info.user_data, t), &mut max_t) {
                    return;
                }
            }
        }
    }
}
