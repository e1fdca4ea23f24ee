//! A software prefetch hint, for loops that read memory at random but know
//! their addresses some iterations ahead.

/// Hints the CPU to load the cache line of `p` (no effect on other targets).
/// Used a few operations ahead in the sweeps, whose buckets are far apart.
#[inline(always)]
pub(crate) fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and has no visible effect; `p` is a
    // valid reference anyway.
    #[allow(unused_unsafe)]
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            p as *const T as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
