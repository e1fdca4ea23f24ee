//! Separating-axis tests and face clipping for polyhedral shapes in 3D.
//!
//! This layer knows nothing of the shape enum: shapes are seen through the
//! [`Polytope`] trait (face planes and polygons, edges with their Gauss-map
//! arcs, a support function), and results are in the frame of shape A.
//!
//! - [`separation`]: the separating-axis test with Gauss-map pruning of edge
//!   pairs (Gregorius, GDC 2013), returning the axis of least penetration.
//! - [`clip`]: Sutherland–Hodgman clipping of an incident polygon against a
//!   reference face, tracking feature ids.
//! - [`prepared`]: small solids copied into the query frame, for the fast
//!   array-based path of the separating-axis test.
//! - [`reduce`]: reduction of a contact set to four points.
//! - [`manifold`]: the polytope-polytope manifold (face or edge contact).
//! - [`closest`]: closest points of segments.
//! - `triangle`: the separating-axis test of a triangle and a solid, edge
//!   pairs chosen on the Gauss map.

pub mod clip;
pub mod closest;
pub mod manifold;
pub mod polytope;
pub mod prepared;
pub mod reduce;
pub mod separation;
mod triangle;

pub use manifold::{face_contact, manifold_from_axis, polytope_manifold, polytope_manifold_or_gap};
pub use polytope::{Polygon, PolygonVertex, Polytope, MAX_POLYGON};
pub use separation::{sat, SatAxis, SatResult};
