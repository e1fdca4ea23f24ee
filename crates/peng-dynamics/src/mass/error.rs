//! Errors of the mass-property computations.

use thiserror::Error;

/// Why mass properties could not be computed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MassError {
    /// The density is negative, NaN or infinite.
    #[error("density must be finite and >= 0, got {density}")]
    InvalidDensity {
        /// The density given.
        density: f32,
    },
    /// The shape is unbounded (infinite volume), e.g. a half-space.
    #[error("a {kind} is unbounded: it has no finite mass")]
    Unbounded {
        /// The shape kind at fault, e.g. `"half-space"`.
        kind: &'static str,
    },
    /// The shape is a surface that does not enclose a solid.
    #[error("a {kind} encloses no solid: {why}")]
    NotClosed {
        /// The shape kind at fault, e.g. `"triangle mesh"`.
        kind: &'static str,
        /// Why, e.g. `"it has boundary edges"`.
        why: &'static str,
    },
}
