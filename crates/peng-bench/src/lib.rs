//! Shared inputs for peng's benchmarks and differential tests against peers.
