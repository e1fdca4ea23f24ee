//! Two sorted lists walked together in chunks, on rayon's threads: a list of
//! entries cut into chunks of a fixed size, and a list of keys (the pairs to
//! test) with one flag or slot per key. Chunk `c` can only meet the keys
//! from the place of its first entry's key to the place of the next chunk's
//! first, so each chunk gets that stretch of the keys and the matching
//! stretch of the flags, which no other chunk touches. The keys before the
//! first entry's key meet no chunk and get none.
//!
//! The manifold carry, the in-place merge and the check of the kept gaps of
//! pairs apart walk the touching list (or the records) against the pairs to
//! test this way, and drop what their chunks marked with [`drop_marked`].

/// The stretch of `keys` and of `flags` (one per key; both sorted by key)
/// that each chunk of `chunk` entries of `entries` (sorted by `key_of`) can
/// meet, in chunk order: one per chunk, empty when it meets none.
pub(super) fn stretches<'a, E, K: Ord, F>(
    entries: &[E],
    key_of: impl Fn(&E) -> &K,
    chunk: usize,
    keys: &'a [K],
    flags: &'a mut [F],
) -> Vec<(&'a [K], &'a mut [F])> {
    debug_assert_eq!(keys.len(), flags.len());
    let mut starts: Vec<usize> = entries
        .iter()
        .step_by(chunk.max(1))
        .map(|e| keys.partition_point(|k| k < key_of(e)))
        .collect();
    starts.push(keys.len());
    let mut out = Vec::with_capacity(starts.len() - 1);
    let (_, mut rest) = flags.split_at_mut(starts[0]);
    for w in starts.windows(2) {
        let (head, tail) = rest.split_at_mut(w[1] - w[0]);
        out.push((&keys[w[0]..w[1]], head));
        rest = tail;
    }
    out
}

/// Takes out of `list` the entries whose mark (one per entry, in order) is
/// set: the way each chunked walk drops what its chunks marked.
pub(super) fn drop_marked<T>(list: &mut Vec<T>, marks: &[bool]) {
    debug_assert_eq!(list.len(), marks.len());
    let mut marks = marks.iter();
    list.retain(|_| marks.next() != Some(&true));
}

/// A small generator for the world's unit tests (xorshift64, Marsaglia
/// 2003): `next(n)` is below `n`.
#[cfg(test)]
pub(super) fn below(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut x = seed;
    move |n| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    }
}

#[cfg(test)]
mod tests {
    use super::{below, drop_marked, stretches};

    #[test]
    fn drop_marked_keeps_the_unmarked_in_order() {
        let mut list = vec![10, 11, 12, 13, 14];
        drop_marked(&mut list, &[true, false, false, true, false]);
        assert_eq!(list, [11, 12, 14]);
    }

    /// Every key equal to an entry's lands in that entry's chunk, at the
    /// same place in the stretch of keys and of flags; keys before the first
    /// entry land nowhere.
    #[test]
    fn each_key_lands_in_the_chunk_of_its_entry() {
        let mut next = below(0x2545_f491_4f6c_dd1du64);
        for _ in 0..500 {
            let mut entries: Vec<u64> = (0..next(60)).map(|_| next(100)).collect();
            crate::sort::unstable(&mut entries);
            entries.dedup();
            let mut keys: Vec<u64> = (0..next(60)).map(|_| next(110)).collect();
            crate::sort::unstable(&mut keys);
            keys.dedup();
            let mut flags: Vec<u64> = keys.clone();
            let chunk = 1 + next(7) as usize;
            let parts = stretches(&entries, |e| e, chunk, &keys, &mut flags);
            assert_eq!(parts.len(), entries.len().div_ceil(chunk));
            for (c, (ks, fs)) in parts.iter().enumerate() {
                assert_eq!(ks, fs, "the flags stretch is the keys' one");
                let lo = entries[c * chunk];
                let hi = entries.get((c + 1) * chunk);
                assert!(ks.iter().all(|k| *k >= lo && hi.is_none_or(|h| k < h)));
            }
            let met: usize = parts.iter().map(|(ks, _)| ks.len()).sum();
            let first = entries.first().copied().unwrap_or(u64::MAX);
            assert_eq!(met, keys.iter().filter(|&&k| k >= first).count());
        }
    }
}
