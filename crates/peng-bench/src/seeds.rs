//! Seeds and case counts of the differential tests, from the environment.
//!
//! Each differential test has a base seed written in its file (so a plain
//! `cargo test` gives the same verdict on every run) and a case count.
//!
//! - `PENG_TEST_SEED` (a `u64`, decimal or `0x` hex): when set, every base seed
//!   is combined with it ([`derive()`]), so one value picks a fresh input set for
//!   every test; unset, the tests use exactly their written seeds.
//! - `PENG_TEST_SCALE` (a positive integer, default 1): multiplies the case
//!   counts ([`scaled`]).
//!
//! A test holds a [`Run`] while it works: when the test fails, the run prints
//! the seeds, the case index it was at and the command that reproduces the
//! failure. The soak command (`cargo run --release -p peng-bench --example
//! soak`) runs the tests over many fresh values; see `docs/testing.md`.

use std::cell::Cell;

/// The variable holding the fresh seed.
pub const SEED_VAR: &str = "PENG_TEST_SEED";
/// The variable holding the case-count multiplier.
pub const SCALE_VAR: &str = "PENG_TEST_SCALE";

/// Parses a seed: decimal, or hexadecimal after `0x`; `_` separators allowed.
pub fn parse_seed(s: &str) -> Option<u64> {
    let t = s.trim().replace('_', "");
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

/// `PENG_TEST_SEED`, or `None` when unset or empty. Panics with a clear message
/// when the value is not a `u64`.
pub fn env_seed() -> Option<u64> {
    let v = std::env::var(SEED_VAR).ok()?;
    if v.trim().is_empty() {
        return None;
    }
    Some(parse_seed(&v).unwrap_or_else(|| {
        panic!("{SEED_VAR}={v:?} is not a u64 (write it in decimal, or in hex after 0x)")
    }))
}

/// `PENG_TEST_SCALE`, 1 when unset or empty. Panics with a clear message when
/// the value is not a positive integer.
pub fn scale() -> usize {
    match std::env::var(SCALE_VAR) {
        Ok(v) if !v.trim().is_empty() => match v.trim().parse::<usize>() {
            Ok(k) if k >= 1 => k,
            _ => panic!("{SCALE_VAR}={v:?} is not a positive integer (the case-count multiplier)"),
        },
        _ => 1,
    }
}

/// `n` cases times [`scale`].
pub fn scaled(n: usize) -> usize {
    n.saturating_mul(scale())
}

/// SplitMix64's finalizer (see `crate::rng`): a bijection of `u64` that sends
/// nearby inputs to unrelated outputs.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed a test uses for its written seed `base`: `base` itself when
/// `PENG_TEST_SEED` is unset, else a mix of both (so consecutive fresh seeds,
/// and the different bases of one test file, give unrelated streams).
pub fn derive(base: u64) -> u64 {
    derive_with(env_seed(), base)
}

/// [`derive()`] with the fresh seed given.
pub fn derive_with(fresh: Option<u64>, base: u64) -> u64 {
    match fresh {
        None => base,
        Some(s) => mix(mix(s) ^ base),
    }
}

/// One seeded run of a test: its seeds, the case it is at, and what to print
/// when it fails.
///
/// Created at the start of a test (or of each seeded part of one); it prints
/// the seeds and the command to standard output, which the test harness shows
/// only for a failing test. If the thread panics while the run is alive, its `Drop` prints the
/// seeds, the case index last set with [`Run::case`] and the command that
/// reproduces the failure.
#[derive(Debug)]
pub struct Run {
    target: &'static str,
    test: String,
    fresh: Option<u64>,
    base: u64,
    seed: u64,
    scale: usize,
    case: Cell<Option<usize>>,
}

impl Run {
    /// A run of the test file `target` (pass `env!("CARGO_CRATE_NAME")`) from
    /// its written seed `base`. The test's name is taken from the thread
    /// (the test harness names each test's thread after it).
    pub fn new(target: &'static str, base: u64) -> Run {
        let fresh = env_seed();
        let test = match std::thread::current().name() {
            Some(n) if n != "main" => n.to_string(),
            _ => String::from("<test name>"),
        };
        let run = Run {
            target,
            test,
            fresh,
            base,
            seed: derive_with(fresh, base),
            scale: scale(),
            case: Cell::new(None),
        };
        println!("{}; reproduce: {}", run.seeds_text(), run.command());
        run
    }

    /// The seed to draw the inputs from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// `n` cases times the scale.
    pub fn count(&self, n: usize) -> usize {
        n.saturating_mul(self.scale)
    }

    /// Records the case index being checked (printed if the test fails).
    #[inline]
    pub fn case(&self, i: usize) {
        self.case.set(Some(i));
    }

    /// Forgets the case index (after the loop over cases, so a failure of a
    /// summary check does not name the last case).
    pub fn cases_done(&self) {
        self.case.set(None);
    }

    /// `PENG_TEST_SEED=… (written seed …, derived seed …), PENG_TEST_SCALE=…`.
    pub fn seeds_text(&self) -> String {
        let fresh = self
            .fresh
            .map_or_else(|| "unset".to_string(), |s| s.to_string());
        format!(
            "{SEED_VAR}={fresh} (written seed {:#x}, derived seed {:#x}), {SCALE_VAR}={}",
            self.base, self.seed, self.scale
        )
    }

    /// The command that runs this test again with the same seeds and scale.
    pub fn command(&self) -> String {
        let mut env = String::new();
        if let Some(s) = self.fresh {
            env += &format!("{SEED_VAR}={s} ");
        }
        if self.scale != 1 {
            env += &format!("{SCALE_VAR}={} ", self.scale);
        }
        format!(
            "{env}cargo test --release -p peng-bench --test {} -- --exact {}",
            self.target, self.test
        )
    }

    /// Everything needed to reproduce a failure: the seeds, the case index (if
    /// one is set) and the command.
    pub fn context(&self) -> String {
        let case = self
            .case
            .get()
            .map_or_else(String::new, |i| format!(", at case #{i}"));
        format!(
            "{}{case}\n  reproduce: {}",
            self.seeds_text(),
            self.command()
        )
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("test {} failed with {}", self.test, self.context());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_keeps_the_written_seed() {
        assert_eq!(derive_with(None, 0xd1ff_2d00), 0xd1ff_2d00);
        let (a, b) = (derive_with(Some(1), 5), derive_with(Some(2), 5));
        assert_ne!(a, b);
        assert_ne!(derive_with(Some(1), 5), derive_with(Some(1), 6));
    }

    #[test]
    fn seeds_parse_in_decimal_and_hex() {
        assert_eq!(parse_seed("123"), Some(123));
        assert_eq!(parse_seed("0xff"), Some(255));
        assert_eq!(parse_seed(" 0x5eed_ca57 "), Some(0x5eed_ca57));
        assert_eq!(parse_seed("abc"), None);
        assert_eq!(parse_seed("-1"), None);
    }
}
