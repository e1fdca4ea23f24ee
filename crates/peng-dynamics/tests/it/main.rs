//! peng-dynamics's integration tests, one module per concern, built as one test
//! binary (one link instead of 17, and shared code compiled once).
//! Run one concern with `cargo test -p peng-dynamics --test it -- NAME::`.

mod common;
/// The property tests' configuration, shared with peng's tests (case counts
/// scaled by `PENG_TEST_SCALE`; seeds printed on failure).
#[path = "../../../peng/tests/it/seeds.rs"]
mod seeds;

mod body_integration;
mod dyn_bounce;
mod dyn_bullets;
mod dyn_cradle;
mod dyn_determinism;
mod dyn_friction;
mod dyn_mesh_floor;
mod dyn_push_out;
mod dyn_sleep;
mod dyn_stacks;
mod joint_3d;
mod joint_api;
mod joint_car;
mod joint_revolute;
mod joint_slider_spring_weld;
mod mass_closed_forms;
mod mass_props;
mod step_profile;
