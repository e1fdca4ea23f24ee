//! Shared inputs for peng's benchmarks and differential tests against peers.
//!
//! - [`rng`]: a seeded SplitMix64 generator, so every input set is reproducible
//!   from one `u64`.
//! - [`dim`]: the [`dim::Dim`] trait over peng's 2D and 3D types ([`dim::D2`],
//!   [`dim::D3`]), so the code below is written once for both dimensions.
//! - [`gen`]: near-touching pairs (about half overlapping) and rays, for either
//!   dimension; [`gen2`], [`gen3`]: random shapes of every kind and poses.
//! - [`boxes`]: moving-box scenes and the MSVC box vector for the broad-phase
//!   benches; [`meshes`]: bumpy spheres and terrains of chosen triangle counts.
//! - [`world_scene`]: moving colliders of mixed shapes for the world benches.
//! - [`referee`]: exact certificates from support functions, used to decide who
//!   is right when peng and a peer disagree.
//! - [`seeds`]: the differential tests' seeds and case counts from the
//!   environment (`PENG_TEST_SEED`, `PENG_TEST_SCALE`), and what a failure prints.
//!
//! The conversions from peng's shapes and poses to parry's, and the parry
//! queries (the `Peer` trait), live in `src/peer.rs`, which is **not** a module
//! of this library: the tests' and benches' `common` modules include it with
//! `#[path = "../../src/peer.rs"] mod peer;`. That keeps parry a dev-dependency
//! only (a normal or optional dependency would put the peer into the library's
//! dependency graph, and a feature flag would make `cargo test` need
//! `--features`), while tests and benches still share one conversion.

#![warn(missing_docs)]

pub mod boxes;
pub mod cast_cases;
pub mod ccd_data;
pub mod dim;
pub mod gen;
pub mod gen2;
pub mod gen3;
pub mod meshes;
pub mod referee;
pub mod rng;
pub mod seeds;
pub mod world_scene;

pub use rng::Rng;
