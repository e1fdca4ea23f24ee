//! Catching ifc-lite's panics without printing them: a panic caught here is
//! reported as a problem (a warning naming the element or unit), so the
//! default hook's message and backtrace on standard error would only repeat
//! it as noise.
//!
//! A process-wide panic hook is installed once; it stays silent while the
//! panicking thread is inside [`catch`] (a thread-local flag) and hands every
//! other panic to the hook that was installed before it, so panics elsewhere
//! print as usual.

use std::any::Any;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

static INSTALL: Once = Once::new();

/// Runs `f`, returning its panic payload instead of unwinding further, and
/// without printing the panic.
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Box<dyn Any + Send>> {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    result
}
