//! The persistent set of overlapping pairs, updated from the pairs found for the
//! proxies that changed.
//!
//! Pairs between two proxies that did not change since the last update cannot
//! have begun or ended (their boxes are the same), so every structure only finds
//! the pairs that involve at least one changed ("dirty") proxy; this module
//! merges them into the previous set. The merge is linear in the number of pairs
//! and keeps every list sorted, so the output is deterministic whatever order a
//! structure found its pairs in.

use super::prefetch::prefetch;
use super::proxy::{ProxyId, ProxyPair};
use super::radix::radix_sort_by;

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
    spare: Vec<ProxyPair>,
    scratch_sort: Vec<ProxyPair>,
    /// The current pairs with a dirty end as of the last update (sorted),
    /// unless `changed_all`: then every current pair.
    changed: Vec<ProxyPair>,
    changed_all: bool,
}

impl PairTracker {
    /// All overlapping pairs, sorted.
    #[inline]
    pub(crate) fn pairs(&self) -> &[ProxyPair] {
        &self.pairs
    }

    /// The events of the last update.
    #[inline]
    pub(crate) fn events(&self) -> &PairEvents {
        &self.events
    }

    /// Records an update in which no proxy changed: no events, no changed
    /// pairs, the pair list as it was (without the linear pass of
    /// [`update`](Self::update)).
    pub(crate) fn update_unchanged(&mut self) {
        self.events.began.clear();
        self.events.ended.clear();
        self.changed.clear();
        self.changed_all = false;
    }

    /// The current pairs with an end changed at the last update, sorted.
    #[inline]
    pub(crate) fn changed_pairs(&self) -> &[ProxyPair] {
        if self.changed_all {
            &self.pairs
        } else {
            &self.changed
        }
    }

    /// Replaces the pairs that involve a dirty slot with `found` (every current
    /// pair with at least one dirty live end; any order, duplicates allowed) and
    /// records which began and which ended. `found` is sorted in place (its
    /// contents afterwards are unspecified: the caller clears it).
    ///
    /// Cost: a radix sort of `found` (see [`radix_sort_pairs`]) plus linear
    /// passes over the old and new pair lists. When no old pair is kept (every
    /// pair has a dirty end, e.g. a build from scratch or a frame where
    /// everything moved), the new list is `found` itself, taken without a merge.
    pub(crate) fn update(&mut self, dirty: &[bool], found: &mut Vec<ProxyPair>) {
        radix_sort_pairs(found, &mut self.scratch_sort);
        found.dedup();
        debug_assert!(found
            .iter()
            .all(|p| dirty[p.a.index() as usize] || dirty[p.b.index() as usize]));

        let is_dirty = |p: &ProxyPair| dirty[p.a.index() as usize] || dirty[p.b.index() as usize];
        self.events.began.clear();
        self.events.ended.clear();
        let began = &mut self.events.began;
        let ended = &mut self.events.ended;
        self.changed_all = self.pairs.iter().all(is_dirty);
        if self.changed_all {
            // Every old pair is replaced (a build from scratch, or a frame
            // where everything moved): `found` becomes the pair list, without
            // a copy; the old list's buffer goes back to the caller, who
            // clears it.
            merge_events(&self.pairs, found, began, ended);
            core::mem::swap(&mut self.pairs, found);
            return;
        }
        // One pass over the old list: a pair with a dirty end meets `found`
        // in the events merge (both sorted: it ended unless found again); a
        // pair without one is kept and merged with `found` into the new list
        // (disjoint: a found pair has a dirty end).
        self.changed.clear();
        self.changed.extend_from_slice(found);
        let mut out = core::mem::take(&mut self.spare);
        out.clear();
        out.reserve(self.pairs.len() + found.len());
        let (mut je, mut jo) = (0, 0);
        for (k, &p) in self.pairs.iter().enumerate() {
            // The list is sorted by `a`, so `dirty[a]` is read in order, but
            // `dirty[b]` at random: prefetched a few pairs ahead.
            if let Some(q) = self.pairs.get(k + 16) {
                prefetch(&dirty[q.b.index() as usize]);
            }
            if is_dirty(&p) {
                while je < found.len() && found[je] < p {
                    began.push(found[je]);
                    je += 1;
                }
                if je < found.len() && found[je] == p {
                    je += 1;
                } else {
                    ended.push(p);
                }
            } else {
                while jo < found.len() && found[jo] < p {
                    out.push(found[jo]);
                    jo += 1;
                }
                out.push(p);
            }
        }
        began.extend_from_slice(&found[je..]);
        out.extend_from_slice(&found[jo..]);
        self.spare = core::mem::replace(&mut self.pairs, out);
    }
}

/// The events between the old pairs and the new ones, both sorted: one merge
/// pass gives the two differences.
fn merge_events(
    old: &[ProxyPair],
    new: &[ProxyPair],
    began: &mut Vec<ProxyPair>,
    ended: &mut Vec<ProxyPair>,
) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        let (o, f) = (old[i], new[j]);
        if o == f {
            i += 1;
            j += 1;
        } else if o < f {
            ended.push(o);
            i += 1;
        } else {
            began.push(f);
            j += 1;
        }
    }
    ended.extend_from_slice(&old[i..]);
    began.extend_from_slice(&new[j..]);
}

/// Below this many pairs a comparison sort is as fast as the radix passes.
const RADIX_MIN: usize = 512;

/// Sorts pairs of *live* ids (as every structure's `found` list holds) in
/// their `Ord` order by an LSD radix sort of the key `a.index · 2^k + b.index`
/// (`k` the bit width of the largest index; see [`radix_sort_by`]).
///
/// For live ids a slot has one generation, so ordering by the two indices is
/// the same as the derived order (index, then generation) of [`ProxyPair`].
/// With `k = 17` (100k proxies) that is 3 linear passes instead of the
/// `log2(m)` of a comparison sort. `scratch` is reused between calls.
pub(crate) fn radix_sort_pairs(v: &mut Vec<ProxyPair>, scratch: &mut Vec<ProxyPair>) {
    if v.len() < RADIX_MIN {
        crate::sort::unstable(v);
        return;
    }
    let max = v
        .iter()
        .fold(0u32, |m, p| m.max(p.a.index()).max(p.b.index()));
    let k = 32 - max.leading_zeros();
    radix_sort_by(v, scratch, 2 * k, |p| {
        ((p.a.index() as u64) << k) | p.b.index() as u64
    });
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

    #[test]
    fn radix_sort_matches_comparison_sort() {
        // Indices up to 5,000 (13 bits: 26-bit keys, 3 digits), with a removed
        // and re-inserted slot so some generations are not 0.
        let mut t = ProxyTable::<Vec2>::default();
        let info = ProxyInfo {
            aabb: Aabb2::new(Vec2::ZERO, Vec2::ONE),
            user_data: 0,
            filter: Filter::ALL,
        };
        let mut ids: Vec<ProxyId> = (0..5000).map(|_| t.insert(info)).collect();
        for k in [7usize, 4095, 4999] {
            t.remove(ids[k]).unwrap();
            ids[k] = t.insert(info);
            assert_eq!(ids[k].generation(), 1);
        }
        // A simple LCG for reproducible indices; duplicates on purpose.
        let mut x = 12345u64;
        let mut next = |n: usize| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) as usize) % n
        };
        let mut v = Vec::new();
        while v.len() < 20_000 {
            let (a, b) = (next(5000), next(5000));
            if a != b {
                v.push(ProxyPair::new(ids[a], ids[b]));
            }
        }
        v.extend_from_within(..300);
        let mut want = v.clone();
        crate::sort::unstable(&mut want);
        let mut scratch = Vec::new();
        radix_sort_pairs(&mut v, &mut scratch);
        assert_eq!(v, want);
        // Small inputs take the comparison path; the result is the same order.
        let mut small = want[..10].to_vec();
        small.reverse();
        radix_sort_pairs(&mut small, &mut scratch);
        assert_eq!(small, want[..10].to_vec());
    }
}
