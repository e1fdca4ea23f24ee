//! peng-io's integration tests, one module per concern, built as one test
//! binary (one link instead of 4).
//! Run one concern with `cargo test -p peng-io --test it -- NAME::`.

mod io_support;

mod io_fuzz;
mod io_gltf;
mod io_limits;
mod io_obj;
mod io_stl;
