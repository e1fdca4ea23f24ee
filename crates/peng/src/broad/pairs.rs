//! The persistent set of overlapping pairs, updated from the pairs found for the
//! proxies that changed.
//!
//! Pairs between two proxies that did not change since the last update cannot
//! have begun or ended (their boxes are the same), so every structure only finds
//! the pairs that involve at least one changed ("dirty") proxy; this module
//! merges them into the previous set. The merge is linear in the number of pairs
//! and keeps every list sorted, so the output is deterministic whatever order a
//! structure found its pairs in.

use super::proxy::{ProxyId, ProxyPair};

/// What changed at the last pair update.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairEvents {
    /// Pairs that overlap now and did not at the previous update (sorted).
    pub began: Vec<ProxyPair>,
    /// Pairs that overlapped at the previous update and do not now, including
    /// pairs with a removed proxy, named by their old ids (sorted).
    pub ended: Vec<ProxyPair>,
}

/// The current pair set plus the last update's events.
#[derive(Debug, Clone, Default)]
pub(crate) struct PairTracker {
    pairs: Vec<ProxyPair>,
    events: PairEvents,
    scratch_kept: Vec<ProxyPair>,
    scratch_old: Vec<ProxyPair>,
}

impl PairTracker {
    /// All overlapping pairs, sorted.
    #[inline]
    pub fn pairs(&self) -> &[ProxyPair] {
        &self.pairs
    }

    /// The events of the last update.
    #[inline]
    pub fn events(&self) -> &PairEvents {
        &self.events
    }

    /// Replaces the pairs that involve a dirty slot with `found` (every current
    /// pair with at least one dirty live end; any order, duplicates allowed) and
    /// records which began and which ended. `found` is sorted in place.
    pub fn update(&mut self, dirty: &[bool], found: &mut Vec<ProxyPair>) {
        found.sort_unstable();
        found.dedup();
        debug_assert!(found
            .iter()
            .all(|p| dirty[p.a.index() as usize] || dirty[p.b.index() as usize]));

        let is_dirty = |p: &ProxyPair| dirty[p.a.index() as usize] || dirty[p.b.index() as usize];
        let mut kept = core::mem::take(&mut self.scratch_kept);
        let mut old = core::mem::take(&mut self.scratch_old);
        kept.clear();
        old.clear();
        for p in &self.pairs {
            if is_dirty(p) {
                old.push(*p);
            } else {
                kept.push(*p);
            }
        }

        self.events.began.clear();
        self.events.ended.clear();
        // Both lists sorted: one merge pass gives the two differences.
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < found.len() {
            match (old.get(i), found.get(j)) {
                (Some(o), Some(f)) if o == f => {
                    i += 1;
                    j += 1;
                }
                (Some(o), Some(f)) if o < f => {
                    self.events.ended.push(*o);
                    i += 1;
                }
                (Some(o), None) => {
                    self.events.ended.push(*o);
                    i += 1;
                }
                (_, Some(f)) => {
                    self.events.began.push(*f);
                    j += 1;
                }
                (None, None) => break,
            }
        }

        // New set: merge of the kept pairs and the found ones (disjoint: a kept
        // pair has no dirty end, a found pair has one).
        self.pairs.clear();
        self.pairs.reserve(kept.len() + found.len());
        let (mut i, mut j) = (0, 0);
        while i < kept.len() && j < found.len() {
            if kept[i] < found[j] {
                self.pairs.push(kept[i]);
                i += 1;
            } else {
                self.pairs.push(found[j]);
                j += 1;
            }
        }
        self.pairs.extend_from_slice(&kept[i..]);
        self.pairs.extend_from_slice(&found[j..]);
        self.scratch_kept = kept;
        self.scratch_old = old;
    }
}

/// Helper for the structures: the pair of live ids of slots `a` and `b`.
#[inline]
pub(crate) fn pair_of(a: ProxyId, b: ProxyId) -> ProxyPair {
    ProxyPair::new(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bound::Aabb2;
    use crate::broad::proxy::ProxyTable;
    use crate::broad::{Filter, ProxyInfo};
    use crate::math::Vec2;

    #[test]
    fn merge_keeps_clean_pairs_and_diffs_dirty_ones() {
        // Four proxies; ids come from a real table so generations are right.
        let mut t = ProxyTable::<Vec2>::default();
        let info = ProxyInfo {
            aabb: Aabb2::new(Vec2::ZERO, Vec2::ONE),
            user_data: 0,
            filter: Filter::ALL,
        };
        let ids: Vec<ProxyId> = (0..4).map(|_| t.insert(info)).collect();
        let p = |a: usize, b: usize| ProxyPair::new(ids[a], ids[b]);
        let mut tr = PairTracker::default();
        let all = vec![true; 4];
        tr.update(&all, &mut vec![p(0, 1), p(2, 3), p(1, 2), p(0, 1)]);
        assert_eq!(tr.pairs(), &[p(0, 1), p(1, 2), p(2, 3)]);
        assert_eq!(tr.events().began, vec![p(0, 1), p(1, 2), p(2, 3)]);
        // Proxy 2 changed: its pairs (1,2), (2,3) are replaced by (0,2), (2,3);
        // (0,1) is kept untouched.
        let dirty = vec![false, false, true, false];
        tr.update(&dirty, &mut vec![p(2, 3), p(0, 2)]);
        assert_eq!(tr.pairs(), &[p(0, 1), p(0, 2), p(2, 3)]);
        assert_eq!(tr.events().began, vec![p(0, 2)]);
        assert_eq!(tr.events().ended, vec![p(1, 2)]);
    }
}
