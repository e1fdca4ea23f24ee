//! Separating-axis tests and face clipping for polyhedral shapes in 3D.
//!
//! This layer knows nothing of the shape enum: shapes are seen through the
//! [`Polytope`] trait (face planes and polygons, edges with their Gauss-map
//! arcs, a support function), and results are in the frame of shape A.
//!
//! The entry points are [`sat`] (the separating-axis test with Gauss-map
//! pruning of edge pairs, Gregorius, GDC 2013, returning the axis of least
//! penetration as a [`SatResult`]) and [`polytope_manifold`] (the
//! polytope-polytope manifold, face or edge contact), or
//! [`manifold_from_axis`] to build the manifold for an axis already found.
//!
//! Inside (crate-private):
//! - `separation`: the separating-axis test and its early-out variants.
//! - `clip`: Sutherland–Hodgman clipping of an incident polygon against a
//!   reference face, tracking feature ids.
//! - `prepared`: small solids copied into the query frame, for the fast
//!   array-based path of the separating-axis test.
//! - `reduce`: reduction of a contact set to four points.
//! - `manifold`: face and edge contacts.
//! - `closest`: closest points of segments.
//! - `triangle`: the separating-axis test of a triangle and a solid, edge
//!   pairs chosen on the Gauss map.

pub(crate) mod clip;
pub(crate) mod closest;
pub(crate) mod manifold;
pub(crate) mod polytope;
// Hidden: the integration test tests/it/sat3d_brute.rs checks the prepared path.
#[doc(hidden)]
pub mod prepared;
pub(crate) mod reduce;
pub(crate) mod separation;
mod triangle;

pub(crate) use manifold::face_contact;
pub use manifold::{manifold_from_axis, polytope_manifold, polytope_manifold_or_gap};
pub use polytope::{Polygon, PolygonVertex, Polytope, MAX_POLYGON};
pub use separation::{sat, SatAxis, SatResult};
// Hidden: tests/it/convex3d_sat.rs checks the Gauss-map arc test and the
// early-out variant of the separating-axis test.
#[doc(hidden)]
pub use separation::{arcs_cross, sat_within};
