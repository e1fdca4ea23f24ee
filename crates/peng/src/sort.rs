//! The sorts of the world, the broad phase and the shape builders. By
//! default they are core's (pattern-defeating quicksort, driftsort,
//! introselect). With the `compact` feature they are a heapsort (unstable)
//! and a bottom-up merge sort (stable): core's sorts cost about 2 KB of
//! code for each element type and comparison they are used with, which in
//! the browser build came to 14 KB of the gzipped module; these cost a
//! tenth of that, at a constant factor in time (still O(n log n)).

use core::cmp::Ordering;

/// Sorts `v` (ties in any order).
pub(crate) fn unstable<T: Ord>(v: &mut [T]) {
    unstable_by(v, T::cmp);
}

/// Sorts `v` by `cmp` (ties in any order).
#[cfg(not(feature = "compact"))]
pub(crate) fn unstable_by<T, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], cmp: F) {
    v.sort_unstable_by(cmp);
}

/// Sorts `v` by `cmp`, keeping ties in their order.
#[cfg(not(feature = "compact"))]
pub(crate) fn stable_by<T: Copy, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], cmp: F) {
    v.sort_by(cmp);
}

/// Puts the element that belongs at `i` there, smaller ones before it and
/// larger ones after.
#[cfg(not(feature = "compact"))]
pub(crate) fn select_nth_by<T, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], i: usize, cmp: F) {
    v.select_nth_unstable_by(i, cmp);
}

/// Sorts `v` by `cmp` (ties in any order): heapsort (Williams 1964, with
/// Floyd's bottom-up heap construction).
#[cfg(feature = "compact")]
pub(crate) fn unstable_by<T, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], mut cmp: F) {
    let n = v.len();
    for i in (0..n / 2).rev() {
        sift_down(v, i, n, &mut cmp);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end, &mut cmp);
    }
}

/// Moves `v[i]` down the max-heap `v[..n]` until both children are no larger.
#[cfg(feature = "compact")]
fn sift_down<T, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], mut i: usize, n: usize, cmp: &mut F) {
    loop {
        let mut child = 2 * i + 1;
        if child >= n {
            return;
        }
        if child + 1 < n && cmp(&v[child], &v[child + 1]) == Ordering::Less {
            child += 1;
        }
        if cmp(&v[i], &v[child]) != Ordering::Less {
            return;
        }
        v.swap(i, child);
        i = child;
    }
}

/// Sorts `v` by `cmp`, keeping ties in their order: bottom-up merge sort
/// through a buffer of the same length.
#[cfg(feature = "compact")]
pub(crate) fn stable_by<T: Copy, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], mut cmp: F) {
    let n = v.len();
    if n < 2 {
        return;
    }
    let mut from = v.to_vec();
    let mut to = v.to_vec();
    let mut width = 1;
    while width < n {
        for start in (0..n).step_by(2 * width) {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in &mut to[start..end] {
                // Take from the right run only when strictly smaller: stable.
                let right = j < end && (i >= mid || cmp(&from[j], &from[i]) == Ordering::Less);
                if right {
                    *slot = from[j];
                    j += 1;
                } else {
                    *slot = from[i];
                    i += 1;
                }
            }
        }
        core::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    v.copy_from_slice(&from);
}

/// Puts the element that belongs at `i` there, smaller ones before it and
/// larger ones after: quickselect (Hoare 1961) with the median of three as
/// pivot, narrowing to the side that holds `i`; a heapsort of what is left
/// once the narrowing has taken more rounds than a balanced split would
/// (so the worst case stays O(n log n)).
#[cfg(feature = "compact")]
pub(crate) fn select_nth_by<T, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], i: usize, mut cmp: F) {
    let (mut lo, mut hi) = (0, v.len());
    let mut rounds = 2 * (usize::BITS - v.len().leading_zeros());
    while hi - lo > 3 && i >= lo && i < hi {
        if rounds == 0 {
            unstable_by(&mut v[lo..hi], &mut cmp);
            return;
        }
        rounds -= 1;
        // The median of the first, middle and last at `lo`, as the pivot.
        let mid = lo + (hi - lo) / 2;
        if cmp(&v[mid], &v[lo]) == Ordering::Less {
            v.swap(mid, lo);
        }
        if cmp(&v[hi - 1], &v[lo]) == Ordering::Less {
            v.swap(hi - 1, lo);
        }
        if cmp(&v[mid], &v[hi - 1]) == Ordering::Less {
            v.swap(mid, hi - 1);
        }
        // Now v[lo] <= v[hi-1] <= v[mid]: the median is at hi − 1.
        v.swap(lo, hi - 1);
        // Lomuto partition around v[lo]: smaller ones to lo+1..store.
        let mut store = lo + 1;
        for j in lo + 1..hi {
            if cmp(&v[j], &v[lo]) == Ordering::Less {
                v.swap(j, store);
                store += 1;
            }
        }
        let p = store - 1;
        v.swap(lo, p);
        match i.cmp(&p) {
            Ordering::Equal => return,
            Ordering::Less => hi = p,
            Ordering::Greater => lo = p + 1,
        }
    }
    if hi > lo {
        unstable_by(&mut v[lo..hi], &mut cmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small generator (xorshift) for test data.
    fn data(n: usize, seed: u64, range: u64) -> Vec<(u64, usize)> {
        let mut s = seed | 1;
        (0..n)
            .map(|i| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % range, i)
            })
            .collect()
    }

    #[test]
    fn sorts_agree_with_the_reference_on_random_and_degenerate_input() {
        for (n, range) in [
            (0, 1),
            (1, 1),
            (2, 2),
            (7, 3),
            (100, 5),
            (1000, 1000),
            (1025, 2),
        ] {
            for seed in 1..4 {
                let v = data(n, seed, range);
                let mut want = v.clone();
                want.sort_by_key(|x| x.0);
                // Stable: ties keep their order, so the whole tuple matches.
                let mut got = v.clone();
                stable_by(&mut got, |a, b| a.0.cmp(&b.0));
                assert_eq!(got, want, "stable, n {n}");
                let mut got = v.clone();
                unstable_by(&mut got, |a, b| a.0.cmp(&b.0));
                let keys: Vec<u64> = got.iter().map(|x| x.0).collect();
                let want_keys: Vec<u64> = want.iter().map(|x| x.0).collect();
                assert_eq!(keys, want_keys, "unstable, n {n}");
                let mut got = v.clone();
                unstable(&mut got);
                let mut all = v.clone();
                all.sort();
                assert_eq!(got, all);
                for at in [0, n / 3, n / 2, n.saturating_sub(1)] {
                    if at >= n {
                        continue;
                    }
                    let mut got = v.clone();
                    select_nth_by(&mut got, at, |a, b| a.0.cmp(&b.0));
                    assert_eq!(got[at].0, want[at].0, "select {at} of {n}");
                    assert!(got[..at].iter().all(|x| x.0 <= got[at].0));
                    assert!(got[at..].iter().all(|x| x.0 >= got[at].0));
                    // A permutation of the input.
                    got.sort();
                    let mut all = v.clone();
                    all.sort();
                    assert_eq!(got, all);
                }
            }
        }
    }
}
