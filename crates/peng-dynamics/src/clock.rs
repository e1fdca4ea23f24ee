//! The monotonic clock of the step profile and of the pool's idle spin.
//! WebAssembly in a browser (`wasm32-unknown-unknown`) has none in the
//! standard library (`Instant::now` panics there): on that target the clock
//! stands still, so the profile reads zero and the spin waits for its work
//! alone.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use still::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod still {
    use std::time::Duration;

    /// A clock that never moves.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Instant;

    impl Instant {
        pub(crate) fn now() -> Self {
            Instant
        }

        pub(crate) fn elapsed(&self) -> Duration {
            Duration::ZERO
        }
    }

    impl std::ops::Sub for Instant {
        type Output = Duration;

        fn sub(self, _: Instant) -> Duration {
            Duration::ZERO
        }
    }
}
