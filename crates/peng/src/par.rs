//! Data parallelism for the broad phase and the world's update: rayon's
//! parallel iterators with the `parallel` feature (on by default), and the
//! same calls as plain sequential iterators without it. The browser build
//! turns it off: `wasm32-unknown-unknown` has no threads, and rayon's pool
//! would be a fifth of the module for nothing.

#[cfg(feature = "parallel")]
pub(crate) use rayon::prelude::*;

/// Threads the parallel paths may use (1 without the `parallel` feature).
#[cfg(feature = "parallel")]
pub(crate) fn threads() -> usize {
    rayon::current_num_threads()
}

/// Threads the parallel paths may use (1 without the `parallel` feature).
#[cfg(not(feature = "parallel"))]
pub(crate) fn threads() -> usize {
    1
}

#[cfg(not(feature = "parallel"))]
pub(crate) use serial::*;

/// rayon's entry points as their sequential counterparts, so a call site
/// reads the same with and without the feature.
#[cfg(not(feature = "parallel"))]
mod serial {
    /// `par_iter`, `par_chunks` on slices: `iter`, `chunks`.
    pub(crate) trait ParallelSlice<T> {
        fn par_iter(&self) -> core::slice::Iter<'_, T>;
        fn par_chunks(&self, n: usize) -> core::slice::Chunks<'_, T>;
    }

    impl<T> ParallelSlice<T> for [T] {
        fn par_iter(&self) -> core::slice::Iter<'_, T> {
            self.iter()
        }
        fn par_chunks(&self, n: usize) -> core::slice::Chunks<'_, T> {
            self.chunks(n)
        }
    }

    /// `par_chunks_mut` on slices: `chunks_mut`.
    pub(crate) trait ParallelSliceMut<T> {
        fn par_chunks_mut(&mut self, n: usize) -> core::slice::ChunksMut<'_, T>;
    }

    impl<T> ParallelSliceMut<T> for [T] {
        fn par_chunks_mut(&mut self, n: usize) -> core::slice::ChunksMut<'_, T> {
            self.chunks_mut(n)
        }
    }

    /// `into_par_iter`: `into_iter`.
    pub(crate) trait IntoParallelIterator: IntoIterator + Sized {
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }

    impl<I: IntoIterator> IntoParallelIterator for I {}
}
