//! Mass properties: mass, centre of mass and inertia tensor of shapes.
//!
//! [`MassProperties3::from_shape`] and [`MassProperties2::from_shape`] compute
//! them from a shape and a uniform density (mass per unit volume in 3D, per
//! unit area in 2D). Inertia is always about the centre of mass, expressed in
//! the shape's local frame. Properties of several bodies combine with `+`
//! (parallel-axis theorem) after [`MassProperties3::transformed`] places each
//! one in a common frame.
//!
//! Shapes without volume (3D segments and triangles) or without area (2D
//! segments) get mass zero, their centroid as centre and zero inertia: they
//! add nothing to a compound. Shapes that do not bound a finite solid
//! (half-spaces, height fields, open triangle meshes, polylines) are a
//! [`MassError`].

mod error;
mod polyhedron;
mod props2;
mod props3;
mod shapes2;
mod shapes3;

pub use error::MassError;
pub use props2::MassProperties2;
pub use props3::MassProperties3;

/// Checks a density: finite and `>= 0`.
fn check_density(density: f32) -> Result<f64, MassError> {
    if density.is_finite() && density >= 0.0 {
        Ok(density as f64)
    } else {
        Err(MassError::InvalidDensity { density })
    }
}
