//! The merge at the end of an update: the old touching pairs and the
//! retested ones (both sorted by pair) become the new touching list and one
//! transition per pair, in pair order.

use crate::par::*;

use super::dim::Dim;
use super::events::{EventKind, Transition};
use super::pairs::{PairKey, PairState};
use super::stretch;
use super::update::transition;
use super::World;

/// Touching pairs per task of the in-place merge.
const MERGE_CHUNK: usize = 512;

/// Fewest touching pairs for which the in-place merge runs on rayon's
/// threads.
const PARALLEL_MERGE_MIN: usize = 4096;

/// A chunk of the in-place merge: touching pairs with their marks (ended
/// or not), and the stretch of retested pairs with their fresh states.
type Chunk<'a, D> = (
    (&'a mut [(PairKey, PairState<D>)], &'a mut [bool]),
    (&'a [PairKey], &'a mut [Option<PairState<D>>]),
);

impl<D: Dim> World<D> {
    /// Merges the old touching pairs with the retested ones (both sorted by
    /// pair) into the new touching list and one transition per pair whose
    /// state matters, in pair order.
    pub(super) fn merge(
        &mut self,
        work: Vec<PairKey>,
        fresh: Vec<Option<PairState<D>>>,
    ) -> Vec<Transition> {
        if !begins_any(&self.touching, &work, &fresh) {
            return self.merge_in_place(work, fresh);
        }
        let mut old = core::mem::take(&mut self.touching);
        let mut now = core::mem::take(&mut self.touching_spare);
        now.clear();
        now.reserve(old.len());
        let mut out = core::mem::take(&mut self.transitions);
        out.clear();
        out.reserve(old.len() + work.len());
        let mut fresh = touching_retested(work, fresh).peekable();
        for (k, mut s) in old.drain(..) {
            // Retested pairs ordered before this old one are new contacts.
            while let Some((fk, _)) = fresh.peek() {
                if *fk >= k {
                    break;
                }
                if let Some((fk, fs)) = fresh.next() {
                    out.push(transition(fk, EventKind::Began, &fs));
                    now.push((fk, fs));
                }
            }
            if fresh.peek().is_some_and(|(fk, _)| *fk == k) {
                if let Some((fk, fs)) = fresh.next() {
                    out.push(transition(fk, EventKind::Persisted, &fs));
                    now.push((fk, fs));
                }
                continue;
            }
            if self.persists(k, &mut s) {
                out.push(transition(k, EventKind::Persisted, &s));
                now.push((k, s));
            } else {
                out.push(transition(k, EventKind::Ended, &s));
            }
        }
        for (fk, fs) in fresh {
            out.push(transition(fk, EventKind::Began, &fs));
            now.push((fk, fs));
        }
        self.touching = now;
        self.touching_spare = old;
        out
    }

    /// [`merge`](Self::merge) when no pair begins: every retested pair
    /// that touches is already in the touching list, so the list keeps its
    /// order and only loses the pairs that end; it is updated where it is,
    /// without moving the pairs that persist (most of them, at rest).
    ///
    /// The list is walked in chunks of [`MERGE_CHUNK`] pairs, on rayon's
    /// threads for a large list: each chunk finds its stretch of `work` by
    /// binary search, takes the fresh states of its pairs and marks the
    /// pairs that end, which a second pass removes only when there are any.
    /// With no pair beginning, no collider is removed on contact, so a
    /// persisting pair's transition only matters to a continuous pair or a
    /// watch: without those it is not made (at rest, nearly every pair
    /// persists, and the transitions were most of the merge's writes).
    fn merge_in_place(
        &mut self,
        work: Vec<PairKey>,
        mut fresh: Vec<Option<PairState<D>>>,
    ) -> Vec<Transition> {
        let mut out = core::mem::take(&mut self.transitions);
        out.clear();
        let mut touching = core::mem::take(&mut self.touching);
        // No pair begins: every retested pair with a fresh state is listed,
        // so none comes before the list's first pair (or with an empty list).
        let first = touching.first().map(|(k, _)| k);
        debug_assert!(
            work.iter()
                .zip(&fresh)
                .all(|(k, s)| s.is_none() || first.is_some_and(|f| k >= f)),
            "a touching retested pair was not listed"
        );
        let mut ended = vec![false; touching.len()];
        // Each chunk of the touching list with the stretch of `work` it can
        // meet and those pairs' fresh states.
        let stretches = stretch::stretches(&touching, |(k, _)| k, MERGE_CHUNK, &work, &mut fresh);
        let every_transition = !self.watches.is_empty();
        let world = &*self;
        // One chunk: its pairs (with a mark each: ended or not) and its
        // stretch of `work` with the fresh states; returns its transitions
        // and whether a pair ended.
        let chunk = |((pairs, marks), (keys, states)): Chunk<'_, D>| {
            let mut out = Vec::new();
            let mut any = false;
            let mut j = 0;
            for ((k, s), mark) in pairs.iter_mut().zip(marks) {
                let k = *k;
                while j < keys.len() && keys[j] < k {
                    debug_assert!(
                        states[j].is_none(),
                        "a touching retested pair was not listed"
                    );
                    j += 1;
                }
                // The pair's fresh state when it was retested and touches.
                let fresh = match keys.get(j) {
                    Some(key) if *key == k => states[j].take(),
                    _ => None,
                };
                let kind = match fresh {
                    Some(fs) => {
                        j += 1;
                        *s = fs;
                        EventKind::Persisted
                    }
                    None if world.persists(k, s) => EventKind::Persisted,
                    None => {
                        *mark = true;
                        any = true;
                        EventKind::Ended
                    }
                };
                if kind != EventKind::Persisted || s.continuous || every_transition {
                    out.push(transition(k, kind, s));
                }
            }
            debug_assert!(
                states[j..].iter().all(Option::is_none),
                "a touching retested pair was not listed"
            );
            (out, any)
        };
        let done: Vec<(Vec<Transition>, bool)> = if touching.len() >= PARALLEL_MERGE_MIN {
            touching
                .par_chunks_mut(MERGE_CHUNK)
                .zip(ended.par_chunks_mut(MERGE_CHUNK))
                .zip(stretches.into_par_iter())
                .map(chunk)
                .collect()
        } else {
            touching
                .chunks_mut(MERGE_CHUNK)
                .zip(ended.chunks_mut(MERGE_CHUNK))
                .zip(stretches)
                .map(chunk)
                .collect()
        };
        let mut any_ended = false;
        for (t, any) in done {
            out.extend(t);
            any_ended |= any;
        }
        if any_ended {
            stretch::drop_marked(&mut touching, &ended);
        }
        self.touching = touching;
        out
    }

    /// Whether old touching pair `k`, which the narrow phase did not find
    /// touching now, still touches: both ends alive, and either its
    /// manifolds were carried (cleared here) or it was not retested. A pair
    /// removed, moved apart or filtered out ends.
    fn persists(&self, k: PairKey, s: &mut PairState<D>) -> bool {
        // Only a `remove` can have killed an end (colliders removed on
        // contact left the list already): skip the arena lookups, two cache
        // misses per pair in a large world, when there was none.
        let alive =
            !self.removed_any || (self.colliders.contains(k.0) && self.colliders.contains(k.1));
        let persists = alive && (s.carried || !self.retested(k));
        if persists {
            s.carried = false;
        }
        persists
    }
}

/// The retested pairs that touch, with their states, in pair order.
fn touching_retested<D: Dim>(
    work: Vec<PairKey>,
    fresh: Vec<Option<PairState<D>>>,
) -> impl Iterator<Item = (PairKey, PairState<D>)> {
    work.into_iter()
        .zip(fresh)
        .filter_map(|(k, s)| s.map(|s| (k, s)))
}

/// Whether a retested pair that touches (`fresh[i]` is `Some` for pair
/// `work[i]`) is missing from `touching`: it begins. Both lists are sorted;
/// each pair is found by a galloping search from the last one, so that a few
/// retested pairs cost a few searches, not a walk of the whole list.
fn begins_any<K: Ord, S, T>(touching: &[(K, S)], work: &[K], fresh: &[Option<T>]) -> bool {
    let mut from = 0;
    for (k, _) in work.iter().zip(fresh).filter(|(_, s)| s.is_some()) {
        let p = gallop(touching, from, |(t, _)| t < k);
        if touching.get(p).is_none_or(|(t, _)| t != k) {
            return true;
        }
        from = p + 1;
    }
    false
}

/// The first index `p >= from` of `v` where `before` fails (`before` holds
/// on a prefix of `v`, as `x < key` on a sorted list), bracketed by
/// doubling from `from` and then bisected: a few steps when it is near.
#[inline]
pub(super) fn gallop<T>(v: &[T], from: usize, before: impl Fn(&T) -> bool) -> usize {
    // The answer is most often `from` itself (the lists mostly agree).
    match v.get(from) {
        Some(x) if !before(x) => return from,
        None => return v.len(),
        Some(_) => {}
    }
    let rest = &v[from..];
    let mut hi = 1;
    while hi < rest.len() && before(&rest[hi - 1]) {
        hi *= 2;
    }
    let hi = hi.min(rest.len());
    let lo = hi / 2;
    from + lo + rest[lo..hi].partition_point(before)
}

#[cfg(test)]
mod tests {
    use super::super::stretch::below;
    use super::{begins_any, gallop};

    #[test]
    fn gallop_finds_the_first_place_not_before_the_key() {
        let mut next = below(0x2545_f491_4f6c_dd1du64);
        for _ in 0..2000 {
            let mut v: Vec<u64> = (0..next(70)).map(|_| next(100)).collect();
            crate::sort::unstable(&mut v);
            let key = next(110);
            let want = v.partition_point(|&t| t < key);
            // Any start at or before the answer finds it; a start past the
            // end of the list gives its end.
            let from = next(want as u64 + 1) as usize;
            assert_eq!(gallop(&v, from, |&t| t < key), want, "{v:?} {key} {from}");
            assert_eq!(gallop(&v, v.len() + 3, |&t| t < key), v.len());
        }
    }

    #[test]
    fn begins_any_agrees_with_a_plain_lookup() {
        // Random sorted lists of keys; a retested key touches or not. Some
        // retested keys are in the list, some fall between, before or after.
        let mut next = below(0x9e37_79b9_7f4a_7c15u64);
        for round in 0..2000 {
            let len = next(if round % 2 == 0 { 8 } else { 300 }) as usize;
            let mut touching: Vec<(u64, ())> = (0..len).map(|_| (next(1000), ())).collect();
            crate::sort::unstable(&mut touching);
            touching.dedup();
            let mut work: Vec<u64> = (0..next(40))
                .map(|_| {
                    if !touching.is_empty() && next(4) != 0 {
                        touching[next(touching.len() as u64) as usize].0
                    } else {
                        next(1000)
                    }
                })
                .collect();
            crate::sort::unstable(&mut work);
            work.dedup();
            let fresh: Vec<Option<()>> =
                work.iter().map(|_| (next(3) != 0).then_some(())).collect();
            let want = work
                .iter()
                .zip(&fresh)
                .any(|(k, f)| f.is_some() && touching.binary_search_by_key(k, |t| t.0).is_err());
            assert_eq!(
                begins_any(&touching, &work, &fresh),
                want,
                "{touching:?} {work:?} {fresh:?}"
            );
        }
    }
}
