//! Running a pass over the blocks of a colour on several threads.
//!
//! The blocks of a colour share no dynamic body ([`super::pack::Packer`]),
//! so they can be solved in any order, or at once, with the same result:
//! each reads and writes only its own dynamic bodies, and reads fixed
//! bodies that no block writes. A pass solves the colours one after
//! another, so the result does not depend on the number of threads.

use core::ops::Range;

use rayon::prelude::*;

/// The fewest blocks a thread is handed at once: below that, waking
/// another thread costs more than the blocks.
const MIN_CHUNK: usize = 16;

/// Runs `f` on the blocks `0..len` of a colour, handed over in runs: on
/// rayon's threads when `parallel` (the blocks share no dynamic body) and
/// there are several threads and enough blocks, else at once.
pub(crate) fn run(len: usize, parallel: bool, f: impl Fn(Range<usize>) + Sync) {
    run_chunked(len, MIN_CHUNK, parallel, f)
}

/// [`run`] for items of another cost: each thread is handed at least
/// `min_chunk` of them at once (a quarter of that within a solver step,
/// whose team of threads claims chunks for far less than a fork and join
/// costs; see [`super::team`]).
pub(crate) fn run_chunked(
    len: usize,
    min_chunk: usize,
    parallel: bool,
    f: impl Fn(Range<usize>) + Sync,
) {
    if len == 0 {
        return;
    }
    let threads = rayon::current_num_threads();
    let team_chunk = min_chunk.div_ceil(4).max(len.div_ceil(4 * threads));
    if parallel && len > team_chunk && super::team::run(len, team_chunk, &f) {
        return;
    }
    if !parallel || threads == 1 || len < 2 * min_chunk {
        return f(0..len);
    }
    let chunk = len.div_ceil(4 * threads).max(min_chunk);
    (0..len.div_ceil(chunk)).into_par_iter().for_each(|r| {
        let start = r * chunk;
        f(start..(start + chunk).min(len))
    });
}

/// Items per run of [`for_each`].
const ITEM_CHUNK: usize = 256;

/// Items per run of [`for_each`] within a solver step's team.
const TEAM_ITEM_CHUNK: usize = 128;

/// Runs `f` on every item, in runs of [`ITEM_CHUNK`] on rayon's threads
/// when there are several and enough items: for per-body updates, which
/// do not depend on each other.
pub(crate) fn for_each<T: Send>(items: &mut [T], f: impl Fn(&mut T) + Sync) {
    if items.len() > TEAM_ITEM_CHUNK {
        let shared = Shared::new(items);
        let run = |r: Range<usize>| {
            // SAFETY: each run has its own items.
            unsafe { shared.slice_mut(r) }.iter_mut().for_each(&f)
        };
        if super::team::run(shared.len(), TEAM_ITEM_CHUNK, &run) {
            return;
        }
    }
    if rayon::current_num_threads() == 1 || items.len() < 2 * ITEM_CHUNK {
        items.iter_mut().for_each(f);
    } else {
        items
            .par_chunks_mut(ITEM_CHUNK)
            .for_each(|run| run.iter_mut().for_each(&f));
    }
}

/// A slice that the threads of a coloured pass share: each item is
/// reached through a raw pointer, and the caller promises that no two
/// threads reach the same item while one of them writes it.
pub(crate) struct Shared<'a, T> {
    ptr: *mut T,
    len: usize,
    _slice: core::marker::PhantomData<&'a mut [T]>,
}

// SAFETY: `Shared` hands out items only through its unsafe getters, whose
// callers keep the threads on disjoint items; `T: Send` lets an item be
// written from another thread.
unsafe impl<T: Send> Send for Shared<'_, T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Send> Sync for Shared<'_, T> {}

impl<'a, T> Shared<'a, T> {
    /// Shares `items` for the lifetime of the borrow.
    pub fn new(items: &'a mut [T]) -> Self {
        Shared {
            ptr: items.as_mut_ptr(),
            len: items.len(),
            _slice: core::marker::PhantomData,
        }
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The same items, shared again for a shorter borrow (a copy of the
    /// pointer and length, which the compiler can keep in registers).
    pub fn reborrow(&self) -> Shared<'_, T> {
        Shared {
            ptr: self.ptr,
            len: self.len,
            _slice: core::marker::PhantomData,
        }
    }

    /// Items `range`, to write.
    ///
    /// # Safety
    /// No other thread reads or writes these items while the slice lives,
    /// and no other reference to them is held.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice_mut(&self, range: Range<usize>) -> &mut [T] {
        assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: in bounds (checked); exclusive (the caller).
        unsafe { core::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }

    /// Item `k`.
    ///
    /// # Safety
    /// No other thread writes item `k` while the reference lives.
    #[inline(always)]
    pub unsafe fn get(&self, k: usize) -> &T {
        assert!(k < self.len);
        // SAFETY: in bounds (checked); no concurrent writer (the caller).
        unsafe { &*self.ptr.add(k) }
    }

    /// Item `k`, to write.
    ///
    /// # Safety
    /// No other thread reads or writes item `k` while the reference
    /// lives, and no other reference to it is held.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn get_mut(&self, k: usize) -> &mut T {
        assert!(k < self.len);
        // SAFETY: in bounds (checked); exclusive (the caller).
        unsafe { &mut *self.ptr.add(k) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `for_each` reaches every item once, on one thread or several.
    #[test]
    fn for_each_reaches_every_item_once() {
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for len in [0, 3, 5000] {
                let mut items: Vec<(usize, u32)> = (0..len).map(|i| (i, 0)).collect();
                pool.install(|| for_each(&mut items, |x| x.1 += 1));
                assert!(items
                    .iter()
                    .enumerate()
                    .all(|(i, &(j, n))| i == j && n == 1));
            }
        }
    }

    /// `run` reaches every block once, on one thread or several.
    #[test]
    fn run_reaches_every_block_once() {
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for (len, parallel) in [(0, true), (5, true), (1000, true), (1000, false)] {
                let hits: Vec<std::sync::atomic::AtomicU32> =
                    (0..len).map(|_| Default::default()).collect();
                pool.install(|| {
                    run(len, parallel, |r| {
                        for i in r {
                            hits[i].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    })
                });
                assert!(hits
                    .iter()
                    .all(|h| h.load(std::sync::atomic::Ordering::Relaxed) == 1));
            }
        }
    }
}
