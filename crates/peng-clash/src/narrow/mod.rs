//! Pair tests: what one pair of elements has, in each clash mode.
//!
//! Both meshes are handled in element A's local frame: B's mesh is placed by
//! the difference of the two f64 origins, which is small for elements whose
//! boxes overlap, so f32 keeps its precision however far the model lies from
//! the world origin.

mod chord;
mod clearance;
mod contacts;
mod convex_depth;
mod depth;
mod duplicate;
mod frame;
mod hard;
mod probe;
mod segment;
mod tri64;

pub(crate) use chord::chord_allowance;
pub(crate) use clearance::clearance;
pub(crate) use duplicate::duplicate;
pub(crate) use frame::PairFrame;
pub(crate) use hard::hard;
