//! 3D pair queries, dispatched on [`Shape`](crate::shape::d3::Shape).

mod contact;
mod core_triangle;
mod distance;
mod long_core;
mod long_cuboid;
mod mesh;
mod point;
mod ray;
mod ray_faces;

pub use contact::{contact, contact_or_gap, contacts, contacts_with_options};
pub use distance::{distance, distance_cached, intersects};
pub use mesh::ContactOptions;
pub use point::{contains_point, project_point};
pub use ray::ray_cast;
