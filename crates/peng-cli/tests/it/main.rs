//! peng-cli's integration tests, one module per concern, built as one test
//! binary (one link instead of 8).
//! Run one concern with `cargo test -p peng-cli --test it -- NAME::`.

mod common;

mod clash_cli;
mod cli_check;
mod cli_errors;
mod cli_png;
mod demo_cli;
mod frames_cli;
mod poly2_cli;
mod robot_cli;
mod sim_cli;
