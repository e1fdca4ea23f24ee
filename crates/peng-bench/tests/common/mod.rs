//! Shared machinery of the differential tests (included by `diff2d.rs`,
//! `diff3d.rs` and `diff_rays.rs`): tolerances, panic capture, counters, and the
//! judging logic written once for both dimensions ([`pairs`], [`rays`]), generic
//! over [`peer::Peer`].

#![allow(dead_code)]

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

pub mod pairs;
#[path = "../../src/peer.rs"]
pub mod peer;
pub mod rays;

/// Tolerances of the differential tests, all stated relative to the pair's
/// scale `s = max(bounding radius of A, bounding radius of B)`, where a shape's
/// bounding radius is the largest distance from its local origin to a point of it
/// (`gen2/gen3::bounding_radius`). Generated shapes have `s` between about 0.1
/// and 3.5.
pub const REL_TOL: f32 = 1e-4;
/// Largest angle between peng's and parry's normals, radians.
pub const ANGLE_TOL: f32 = 1e-3;
/// Fraction of the tolerance by which an answer must violate a certified bound
/// of the referee to count as refuted (the bounds carry only f32 rounding of
/// support values, about 1e-7·s, so 1e-5·s is a safe margin).
pub const CERT_MARGIN: f32 = 0.1;
/// Number of random pairs per shape pair.
pub const PAIRS: usize = 10_000;
/// A parry contact prediction large enough for every generated pair, so parry
/// returns the normal and closest points of separated pairs too.
pub const BIG_PREDICTION: f32 = 100.0;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}
static HOOK: Once = Once::new();

/// Runs `f`, turning a panic into `Err(message)` without printing it (the panic
/// is reported with the inputs by the caller instead).
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                default(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    r.map_err(|e| {
        e.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic".into())
    })
}

/// Counters of one shape-pair run, printed at the end.
#[derive(Debug, Default)]
pub struct Stats {
    /// Pairs checked.
    pub pairs: usize,
    /// Pairs parry's `intersection_test` reports as overlapping.
    pub overlapping: usize,
    /// Overlap disagreements excused because the pair is touching: the
    /// referee's certified bound on the signed distance within tolerance of zero.
    pub touching_excused: usize,
    /// Normal mismatches excused because both normals are optimal within
    /// tolerance according to the exact support functions (a tie).
    pub tie_excused: usize,
    /// Mismatches where the referee certifies that parry's answer is wrong and
    /// peng's right (see `peng_bench::referee`).
    pub parry_wrong: usize,
    /// Pairs on which parry panicked or returned `Unsupported` (not compared).
    pub parry_failed: usize,
    /// Largest |peng − parry| signed-distance difference seen, relative to scale.
    pub max_rel_diff: f32,
    /// Largest normal angle difference seen among compared normals, radians.
    pub max_angle: f32,
}

/// Defines one `#[test]` per line `name: KindA, KindB;`, calling the test file's
/// `run(ShapeKind::KindA, ShapeKind::KindB)`, with the line's attributes (such as
/// `#[ignore = "..."]`).
#[allow(unused_macros)]
macro_rules! pair_tests {
    ($($(#[$m:meta])* $name:ident: $a:ident, $b:ident;)*) => {$(
        #[test]
        $(#[$m])*
        fn $name() {
            run(ShapeKind::$a, ShapeKind::$b);
        }
    )*};
}
#[allow(unused_imports)]
pub(crate) use pair_tests;
