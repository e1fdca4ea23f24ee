//! Keeps rayon's other threads awake for a whole step.
//!
//! A step runs a dozen short parallel sections (the collision world's
//! narrow phase and pair bookkeeping, the contact build, the solver's
//! team) between serial ones. Rayon parks a thread that finds no work for
//! a few dozen rounds, so each section had to wake the other thread
//! through the kernel, and the caller did the other thread's share alone
//! until it woke. Here each other thread of the pool runs a spinner for
//! the length of the step that executes whatever work the step's thread
//! posts (rayon's `yield_now` pops, steals or takes injected jobs) and
//! spins or yields its core in between (the team's `pause`), as Box2D
//! v3's workers stay in the step (`b2SolverStage`). Which thread runs
//! which job changes no result: every parallel section is deterministic
//! by itself.
//!
//! (The step's own thread still parks while it waits for a job a spinner
//! holds: `strace -c` counts about 11 `futex` calls a step on the large
//! pyramid with two threads, against 13 without the spinners.)

use crate::clock::Instant;
use core::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::solver::team::pause;

/// A spinner that finds no work for this long leaves, step over or not.
/// Rayon may start a spinner inside a job of the step it serves (a thread
/// waiting in a job steals whatever is queued); that job cannot go on
/// until the spinner returns, and the step may be waiting for it. The
/// flags below rule out the cases of two threads; with more, this bound
/// is what guarantees progress.
const IDLE_LIMIT: Duration = Duration::from_millis(2);

std::thread_local! {
    /// Set while this thread runs a step's body or a spinner: a spinner
    /// that starts under either returns at once (it would hold up the
    /// step, or the spinner, below it).
    static BUSY: Cell<bool> = const { Cell::new(false) };
}

/// Marks the thread busy (see [`BUSY`]) until dropped.
struct Busy;

impl Busy {
    /// `None` when the thread already was busy.
    fn enter() -> Option<Busy> {
        (!BUSY.with(|b| b.replace(true))).then_some(Busy)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY.with(|b| b.set(false));
    }
}

/// Sets the flag when dropped: the spinners leave however the step ends.
struct Finish<'a>(&'a AtomicBool);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Runs `f` on this thread while the pool's other threads spin, ready for
/// the work `f` posts; with one thread, `f` just runs.
pub(super) fn with_pool_awake<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let threads = rayon::current_num_threads();
    if threads == 1 {
        return f();
    }
    let done = AtomicBool::new(false);
    rayon::scope(|s| {
        for _ in 1..threads {
            let done = &done;
            s.spawn(move |_| spin(done));
        }
        let _finish = Finish(&done);
        let _busy = Busy::enter();
        f()
    })
}

/// Executes the pool's jobs until `done`, or until none came for
/// [`IDLE_LIMIT`]; returns at once on a busy thread.
fn spin(done: &AtomicBool) {
    let Some(_busy) = Busy::enter() else {
        return;
    };
    let mut idle = 0u32;
    let mut idle_since = Instant::now();
    while !done.load(Ordering::Acquire) {
        match rayon::yield_now() {
            Some(rayon::Yield::Executed) => idle = 0,
            Some(rayon::Yield::Idle) => {
                if idle == 0 {
                    idle_since = Instant::now();
                } else if idle_since.elapsed() > IDLE_LIMIT {
                    return;
                }
                idle = pause(idle);
            }
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
    }

    /// The parallel work posted inside runs (on the spinners too) and gives
    /// the same result on one thread and on several.
    #[test]
    fn runs_posted_work_and_returns_its_result() {
        let work = || {
            with_pool_awake(|| {
                (0..10_000u64)
                    .into_par_iter()
                    .map(|x| x * x % 7)
                    .collect::<Vec<_>>()
            })
        };
        let one = pool(1).install(work);
        for threads in [2, 3] {
            assert_eq!(pool(threads).install(work), one, "{threads} threads");
        }
    }

    /// A panic in the step reaches the caller, and the spinners leave (the
    /// scope would otherwise wait for them for ever).
    #[test]
    fn a_panic_reaches_the_caller() {
        let caught = pool(2)
            .install(|| std::panic::catch_unwind(|| with_pool_awake(|| panic!("in the step"))));
        assert!(caught.is_err());
    }

    /// Steps nested in a parallel loop on pools of two to four threads
    /// finish (a spinner started inside a job of its own step, or of
    /// another step, must not hold it up for ever), with the results of
    /// one thread.
    #[test]
    fn nested_steps_finish() {
        let steps = || {
            (0..8u64)
                .into_par_iter()
                .map(|w| {
                    (0..20u64)
                        .map(|s| {
                            with_pool_awake(|| {
                                (0..2_000u64)
                                    .into_par_iter()
                                    .map(|x| (x ^ (w * 31 + s)) % 13)
                                    .sum::<u64>()
                            })
                        })
                        .sum::<u64>()
                })
                .collect::<Vec<_>>()
        };
        let one = pool(1).install(steps);
        for threads in [2, 3, 4] {
            assert_eq!(pool(threads).install(steps), one, "{threads} threads");
        }
    }
}
