//! Bounding volumes: axis-aligned boxes, bounding circles/spheres, oriented boxes.

mod aabb;
mod circumball;
mod obb;
mod sphere;

pub use aabb::{Aabb, Aabb2, Aabb3};

pub use sphere::{BoundingBall, BoundingCircle, BoundingSphere};
