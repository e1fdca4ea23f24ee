//! Empty: this package holds the collision-world benchmark
//! (`benches/world.rs`, peng's `World3` against rapier's collision-only
//! pipeline) apart from `peng-bench`, so that `cargo test` never compiles
//! rapier. Run it with `cargo bench -p peng-world-bench`.
