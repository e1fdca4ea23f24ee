//! Shapes: closed enums per dimension, convex hulls and convex decomposition.
//!
//! Shapes are stored in their local frame; a pose places them in the world.
//! Shapes that own arrays (polygons, polyhedra, compounds) sit behind an `Arc`
//! so that a [`d2::Shape`] or [`d3::Shape`] is cheap to clone and small to move.

pub mod d2;
pub mod d3;
pub mod decompose;
pub mod hull2;
pub mod hull3;
