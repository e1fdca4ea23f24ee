//! A team of rayon's threads held for a whole solver step, so that the
//! step's many short parallel passes (each colour of each pass of each
//! substep: some 100 to 200 a step) do not each pay for a fork and join.
//!
//! Rayon parks idle threads and wakes them for each parallel call, which
//! costs several microseconds a call on a busy host: more than solving a
//! colour of a few dozen blocks. Box2D v3 runs its solver the same way
//! (`solver.c`, `b2SolverStage`): the workers stay in the step and spin
//! between stages, the main thread posts each stage and the workers claim
//! its blocks through atomics, each starting at its own block.
//!
//! Here the thread that calls [`with_team`] runs the step's code as usual;
//! the other threads of the pool wait on a [`Board`]. Each parallel pass
//! ([`super::colour::run_chunked`], [`super::colour::for_each`]) on that
//! thread posts a stage there: its items in chunks, split into one
//! contiguous part per thread. Every thread, the caller too, claims chunks
//! (its own part's first) until none are left, and the caller waits
//! until every chunk is done before it goes on. The stages run in the same
//! order and with the same items as before, so the results are the same
//! on any number of threads.
//!
//! A claim and the stage it belongs to are one atomic word (stage number
//! and the chunks left in a part), so a thread that wakes late cannot
//! claim a chunk of a stage that has ended: the word has moved on.

use core::cell::Cell;
use core::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};

/// Bits of a claim word for each of the chunk bounds.
const INDEX_BITS: u32 = 18;
/// The most chunks a stage may have.
const MAX_CHUNKS: usize = (1 << INDEX_BITS) - 1;
const INDEX_MASK: u64 = (1 << INDEX_BITS) - 1;

/// Spins of a waiting thread before it yields its core to others.
const SPINS_BEFORE_YIELD: u32 = 64;

/// A posted stage's work, on the posting thread's stack while the stage
/// runs.
struct Job<'a> {
    f: &'a (dyn Fn(Range<usize>) + Sync),
    len: usize,
    chunk: usize,
}

/// A claim word on a cache line of its own: stage number (high bits) and
/// the chunks `next..end` of one member's part still to claim.
#[repr(align(128))]
struct Part(AtomicU64);

/// Where the leading thread posts stages and the team claims chunks.
///
/// A stage's chunks are split into one contiguous part per member. Each
/// member claims its own part from the front and, once it is empty, the
/// others' from the back, as Box2D v3's workers start at their own block
/// (`b2ExecuteStage`): a member then mostly solves the same bodies from
/// stage to stage, which stay in its core's cache.
struct Board {
    /// One claim word per member.
    parts: Box<[Part]>,
    /// The stage number last posted (written by the leader only).
    stage: AtomicU64,
    /// The posted stage's job: valid while the stage has chunks not done.
    job: AtomicPtr<Job<'static>>,
    /// Chunks of the posted stage done.
    done: AtomicUsize,
    /// Set when the step is over (or a thread panicked): the team leaves.
    closed: AtomicBool,
    /// Set when a chunk panicked on a team thread.
    poisoned: AtomicBool,
}

fn pack(stage: u64, next: usize, end: usize) -> u64 {
    (stage << (2 * INDEX_BITS)) | ((next as u64) << INDEX_BITS) | end as u64
}

fn unpack(word: u64) -> (u64, usize, usize) {
    (
        word >> (2 * INDEX_BITS),
        ((word >> INDEX_BITS) & INDEX_MASK) as usize,
        (word & INDEX_MASK) as usize,
    )
}

impl Board {
    fn new(members: usize) -> Self {
        Board {
            parts: (0..members).map(|_| Part(AtomicU64::new(0))).collect(),
            stage: AtomicU64::new(0),
            job: AtomicPtr::new(core::ptr::null_mut()),
            done: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            poisoned: AtomicBool::new(false),
        }
    }

    /// Claims a chunk of `part`, its first (`front`) or its last; `None`
    /// when the part is empty.
    fn claim(&self, part: &Part, front: bool) -> Option<usize> {
        let mut word = part.0.load(Ordering::Acquire);
        loop {
            let (stage, next, end) = unpack(word);
            if next >= end {
                return None;
            }
            let (claimed, rest) = if front {
                (next, pack(stage, next + 1, end))
            } else {
                (end - 1, pack(stage, next, end - 1))
            };
            match part
                .0
                .compare_exchange_weak(word, rest, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Some(claimed),
                Err(now) => word = now,
            }
        }
    }

    /// Claims and runs one chunk of the posted stage, from member `me`'s
    /// part first; false when none is left to claim.
    fn work_once(&self, me: usize) -> bool {
        let n = self.parts.len();
        let claimed = (0..n).find_map(|k| self.claim(&self.parts[(me + k) % n], k == 0));
        let Some(i) = claimed else { return false };
        // SAFETY: the claim succeeded while chunk `i` of its stage was not
        // done, so the stage has not ended: its poster is still waiting and
        // its job (published before the claim word, which the claim
        // acquired) is alive.
        let job = unsafe { &*self.job.load(Ordering::Acquire) };
        let start = i * job.chunk;
        (job.f)(start..(start + job.chunk).min(job.len));
        self.done.fetch_add(1, Ordering::Release);
        true
    }

    /// A team member's loop: claims chunks of each posted stage until the
    /// step is over.
    fn serve(&self, me: usize) {
        let mut idle = 0u32;
        while !self.closed.load(Ordering::Acquire) {
            if self.work_once(me) {
                idle = 0;
            } else {
                idle = pause(idle);
            }
        }
    }

    /// Posts a stage (`len` items in chunks of `chunk`), works on it as
    /// member 0, and returns once every chunk is done.
    fn run(&self, len: usize, chunk: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
        let chunk = chunk.max(len.div_ceil(MAX_CHUNKS)).max(1);
        let count = len.div_ceil(chunk);
        let job = Job { f, len, chunk };
        let stage = self.stage.load(Ordering::Relaxed) + 1;
        self.stage.store(stage, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        self.job.store(
            &job as *const Job<'_> as *mut Job<'static>,
            Ordering::Relaxed,
        );
        let n = self.parts.len();
        for (p, part) in self.parts.iter().enumerate() {
            part.0.store(
                pack(stage, p * count / n, (p + 1) * count / n),
                Ordering::Release,
            );
        }
        while self.work_once(0) {}
        let mut idle = 0u32;
        while self.done.load(Ordering::Acquire) < count {
            if self.poisoned.load(Ordering::Acquire) {
                panic!("a solver thread panicked");
            }
            idle = pause(idle);
        }
    }
}

/// Waits a little: spins at first, then yields the core (the pool may
/// have more threads than the machine has cores). Returns the new count
/// of waits. Also the wait of the step's spinners (`world::awake`).
pub(crate) fn pause(idle: u32) -> u32 {
    if idle < SPINS_BEFORE_YIELD {
        core::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
    idle.saturating_add(1)
}

/// Sets the flag when dropped while unwinding.
struct OnUnwind<'a>(&'a AtomicBool, &'a AtomicBool);

impl Drop for OnUnwind<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
        self.1.store(true, Ordering::Release);
    }
}

std::thread_local! {
    /// The board of the team this thread leads, if any.
    static LEADING: Cell<*const Board> = const { Cell::new(core::ptr::null()) };
}

/// Runs `f` with the other threads of rayon's pool as its team: the
/// parallel passes that `f` runs on this thread ([`run`]) go to the team.
/// With one thread, `f` just runs.
pub(crate) fn with_team<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let threads = rayon::current_num_threads();
    if threads == 1 || !LEADING.with(|l| l.get().is_null()) {
        return f();
    }
    let board = Board::new(threads);
    rayon::scope(|s| {
        for me in 1..threads {
            let board = &board;
            s.spawn(move |_| {
                let _guard = OnUnwind(&board.poisoned, &board.closed);
                board.serve(me);
            });
        }
        // Closes the board however `f` ends, so the team always leaves.
        let _close = OnUnwind(&board.poisoned, &board.closed);
        let previous = LEADING.with(|l| l.replace(&board));
        let _restore = Restore(previous);
        f()
    })
}

/// Puts the thread's previous board back when dropped.
struct Restore(*const Board);

impl Drop for Restore {
    fn drop(&mut self) {
        LEADING.with(|l| l.set(self.0));
    }
}

/// Runs `f` on `0..len` in chunks of `chunk` on the team this thread
/// leads, and returns true; false, running nothing, when it leads none.
pub(crate) fn run(len: usize, chunk: usize, f: &(dyn Fn(Range<usize>) + Sync)) -> bool {
    let board = LEADING.with(|l| l.get());
    if board.is_null() {
        return false;
    }
    // SAFETY: set by `with_team` on this thread for the life of the board,
    // which outlives the call.
    unsafe { &*board }.run(len, chunk, f);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    /// Every item of every stage runs once, stages in order (a stage sees
    /// the whole of the one before), on 1 to 4 threads.
    #[test]
    fn stages_run_every_item_once_in_order() {
        for threads in [1, 2, 3, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let hits: Vec<AtomicU32> = (0..1000).map(|_| AtomicU32::new(0)).collect();
            pool.install(|| {
                with_team(|| {
                    for stage in 1..=50u32 {
                        let len = (stage as usize * 37) % 1000 + 1;
                        let f = |r: Range<usize>| {
                            for i in r {
                                // The item's count from the stages before.
                                let before = hits[i].load(Ordering::Relaxed);
                                assert!(before < stage);
                                hits[i].store(stage, Ordering::Relaxed);
                            }
                        };
                        // Only a team of one runs nothing itself.
                        let ran = run(len, 7, &f);
                        assert_eq!(ran, threads > 1);
                        if !ran {
                            f(0..len);
                        }
                        for (i, h) in hits.iter().enumerate() {
                            let want = if i < len {
                                stage
                            } else {
                                h.load(Ordering::Relaxed)
                            };
                            assert_eq!(h.load(Ordering::Relaxed), want, "stage {stage} item {i}");
                        }
                    }
                })
            });
        }
    }

    /// The claim word keeps its three fields apart.
    #[test]
    fn claim_word_round_trips() {
        for (s, n, c) in [(0, 0, 0), (1, 5, 9), (12345, MAX_CHUNKS, MAX_CHUNKS)] {
            assert_eq!(unpack(pack(s, n, c)), (s, n, c));
        }
    }

    /// A panic in a chunk reaches the caller instead of hanging the team.
    #[test]
    fn a_panicking_chunk_does_not_hang() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.install(|| {
                with_team(|| {
                    let f = |r: Range<usize>| assert!(!r.contains(&500), "boom");
                    run(1000, 1, &f);
                })
            })
        }));
        assert!(caught.is_err());
    }
}
