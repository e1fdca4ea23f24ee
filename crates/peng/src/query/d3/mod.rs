//! 3D pair queries, dispatched on [`Shape`](crate::shape::d3::Shape).

mod contact;
mod distance;
mod point;
mod ray;

pub use contact::{contact, contacts};
pub use distance::{distance, distance_cached, intersects};
pub use point::{contains_point, project_point};
pub use ray::ray_cast;
