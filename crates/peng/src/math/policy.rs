//! The one degeneracy policy, applied by every layer of peng.
//!
//! # Where input is checked
//! Constructors of public types (shapes, poses built with `try_new`, rays, hulls)
//! validate their input and return a [`GeometryError`] naming the bad field.
//! Query functions are hot; they do not re-check, but `debug_assert!` that poses
//! and vectors are finite. Fields of shapes are private where an invariant would
//! otherwise be breakable.
//!
//! # The rules
//! 1. **NaN and infinity** are rejected at construction ([`GeometryError::NonFinite`]).
//!    A query given non-finite poses anyway (release builds) returns a value, never
//!    panics; the value is unspecified.
//! 2. **Sizes**: radii, half-extents and heights must be finite and `>= 0`. Zero is
//!    allowed and means the lower-dimensional shape (a ball of radius 0 is a point,
//!    a cuboid with a zero half-extent is a rectangle). Negative sizes are
//!    [`GeometryError::Negative`].
//! 3. **Zero-length directions**: a direction whose squared length is below
//!    [`ZERO_LENGTH_SQ`](super::tolerance::ZERO_LENGTH_SQ) has no direction. Where a
//!    contact normal would be such a vector (coincident centres, a point exactly on
//!    a segment) the normal is chosen deterministically: the shape's own face normal
//!    when there is one, else the +x axis. Rays with a zero direction are rejected by
//!    [`Ray::new`](crate::query::types::Ray::new).
//! 4. **Coincident and collinear points**: hull and polygon builders merge points
//!    closer than a scale-relative tolerance and drop collinear (2D) or coplanar
//!    interior (3D) points. A point set that spans too few dimensions (all points
//!    coincident or collinear in 2D; coplanar in 3D) is
//!    [`GeometryError::Degenerate`]; callers who want the lower-dimensional shape
//!    build a segment or triangle explicitly.
//! 5. **Parallel faces and edges**: the separating-axis tests prefer a face axis to an
//!    edge axis unless the edge axis separates by a relative margin (as Box2D and
//!    Gregorius, GDC 2013, do), so parallel faces give face contacts with several
//!    points and stable feature ids. Cross products of parallel edges (squared length
//!    below tolerance) are skipped as axes.
//! 6. **Scale**: tolerances that compare lengths are relative to the size of the
//!    input ([`scaled_eps`](super::tolerance::scaled_eps)). Pair queries work in the
//!    frame of one shape (the relative pose), so shapes far from the origin lose no
//!    more precision than the distance between them implies.

use thiserror::Error;

/// A geometric input that violates the degeneracy policy.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GeometryError {
    /// A coordinate, size or angle is NaN or infinite.
    #[error("{what} is not finite (NaN or infinite)")]
    NonFinite {
        /// The field or argument at fault, e.g. `"ball radius"`.
        what: &'static str,
    },
    /// A size that must be `>= 0` is negative.
    #[error("{what} must not be negative, got {value}")]
    Negative {
        /// The field at fault.
        what: &'static str,
        /// The value given.
        value: f32,
    },
    /// The input spans too few dimensions for the requested object.
    #[error("{what} is degenerate: {why}")]
    Degenerate {
        /// The object being built, e.g. `"convex polygon"`.
        what: &'static str,
        /// Why, e.g. `"all points are collinear"`.
        why: &'static str,
    },
    /// Too few points or elements for the requested object.
    #[error("{what} needs at least {needed} points, got {got}")]
    TooFew {
        /// The object being built.
        what: &'static str,
        /// The minimum count.
        needed: usize,
        /// The count given.
        got: usize,
    },
    /// An index refers past the end of a list.
    #[error("{what}: index {index} out of range (len {len})")]
    IndexOutOfRange {
        /// The object being built.
        what: &'static str,
        /// The bad index.
        index: usize,
        /// The list length.
        len: usize,
    },
}

/// Checks that a scalar is finite.
pub(crate) fn check_finite(what: &'static str, v: f32) -> Result<f32, GeometryError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(GeometryError::NonFinite { what })
    }
}

/// Checks that a size is finite and non-negative.
pub(crate) fn check_size(what: &'static str, v: f32) -> Result<f32, GeometryError> {
    check_finite(what, v)?;
    if v < 0.0 {
        Err(GeometryError::Negative { what, value: v })
    } else {
        Ok(v)
    }
}

/// Checks that every component of a vector is finite.
pub(crate) fn check_vec<V: super::Vector>(what: &'static str, v: V) -> Result<V, GeometryError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(GeometryError::NonFinite { what })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn rejects_nan_and_negative_sizes() {
        assert!(check_size("r", f32::NAN).is_err());
        assert!(check_size("r", f32::INFINITY).is_err());
        assert_eq!(
            check_size("r", -1.0),
            Err(GeometryError::Negative {
                what: "r",
                value: -1.0
            })
        );
        assert_eq!(check_size("r", 0.0), Ok(0.0));
        assert!(check_vec("p", Vec3::new(0.0, f32::NAN, 0.0)).is_err());
        assert!(check_vec("p", Vec3::ONE).is_ok());
    }
}
