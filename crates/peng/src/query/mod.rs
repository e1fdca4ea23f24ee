//! Pair queries: pure functions on `(shape, pose, shape, pose)`.
//!
//! Conventions shared by every query:
//! - Normals are unit vectors in world space pointing **from A to B**: translating
//!   B by `normal * depth` separates the pair (the minimum translation distance).
//! - Depth is positive for penetration; a signed distance is `-depth`.
//! - Results are in world space; the work is done in A's frame.
//!
//! The algorithm modules [`gjk`] and [`sat`] know nothing of shapes: they work on
//! support functions and polygons. [`d2`] and [`d3`] dispatch on the shape enums.

pub(crate) mod cluster;
pub mod d2;
pub mod d3;
pub mod gjk;
pub mod sat;
pub mod types;
