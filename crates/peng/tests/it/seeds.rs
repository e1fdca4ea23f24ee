//! The property tests' configuration: case counts scaled by `PENG_TEST_SCALE`,
//! the seed and scale printed with every failure.
//!
//! proptest draws its cases from `PROPTEST_RNG_SEED` (set in
//! `.cargo/config.toml`; a value set by the user wins). `PENG_TEST_SCALE` (a
//! positive integer, default 1) multiplies each test's case count. Both, and the
//! command that reruns the test, are printed to standard output when a test
//! starts; the test harness shows that output only for a failing test. See
//! `docs/testing.md`. (Also included by `peng-dynamics`' tests.)

#![allow(dead_code)]

use proptest::test_runner::{Config, RngSeed};

/// `PENG_TEST_SCALE`, 1 when unset or empty; panics with a clear message when
/// the value is not a positive integer.
pub fn scale() -> u32 {
    match std::env::var("PENG_TEST_SCALE") {
        Ok(v) if !v.trim().is_empty() => match v.trim().parse::<u32>() {
            Ok(k) if k >= 1 => k,
            _ => panic!(
                "PENG_TEST_SCALE={v:?} is not a positive integer (the case-count multiplier)"
            ),
        },
        _ => 1,
    }
}

/// `n` cases times the scale (proptest's default configuration otherwise).
pub fn cases(n: u32) -> Config {
    scaled(Config::with_cases(n))
}

/// `config` with its case count and its global reject limit (rejects grow with
/// the cases) times the scale; prints the seed, the scale and the command that
/// reruns the test.
pub fn scaled(mut config: Config) -> Config {
    let k = scale();
    config.cases = config.cases.saturating_mul(k);
    config.max_global_rejects = config.max_global_rejects.saturating_mul(k);
    let seed = match config.rng_seed {
        RngSeed::Fixed(s) => s.to_string(),
        RngSeed::Random => "random".to_string(),
    };
    let test = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .unwrap_or("<test name>")
        .to_string();
    let scale_env = if k == 1 {
        String::new()
    } else {
        format!("PENG_TEST_SCALE={k} ")
    };
    println!(
        "PROPTEST_RNG_SEED={seed}, PENG_TEST_SCALE={k}: {} cases; reproduce: \
         PROPTEST_RNG_SEED={seed} {scale_env}cargo test --release -p {} --test {} -- --exact {test}",
        config.cases,
        env!("CARGO_PKG_NAME"),
        env!("CARGO_CRATE_NAME"),
    );
    config
}
