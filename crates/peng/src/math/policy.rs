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
//! 7. **Magnitude**: coordinates, translations and sizes must satisfy
//!    `|x| <= L =` [`MAX_MAGNITUDE`] (5·10⁷), else [`GeometryError::TooLarge`]
//!    naming the field and the limit. Finite values beyond it make the
//!    queries' intermediate values overflow f32 (two poses at ±3·10³⁸ are
//!    6·10³⁸ apart, which is infinite), and a query would then answer with
//!    infinities, NaN or a wrong verdict. The bound:
//!    - a shape's local points lie within `8L` of its origin (Euclidean): a
//!      vertex or end at most `√3·L`, plus a radius `L`; a compound's part
//!      boxes are checked to lie within `4L` per component (`4√3·L < 8L`);
//!    - a translation is at most `√3·L` long, so in A's frame (where pair
//!      queries work) B's points lie within `8L + 2√3·L < 11.5L`, the
//!      differences of A's and B's points (Minkowski points) within `19.5L`,
//!      and the differences of those (simplex and triangle edges) within
//!      `D = 39L`;
//!    - the highest-degree forms the queries evaluate are of degree 4 in such
//!      differences (Gram determinants `(e₁·e₁)(e₂·e₂) − (e₁·e₂)²`, squared
//!      cross products, the products of dot products of the
//!      closest-point-on-triangle regions): differences of two products each
//!      at most `D⁴`. `2·D⁴ ≈ 4.6·10⁶·L⁴ <= f32::MAX ≈ 3.4·10³⁸` holds for
//!      `L <= 9.3·10⁷`; `5·10⁷` leaves a factor of 12.
//!
//!    Rotations (quaternions of any length, angles) and directions (half-space
//!    normals) add no magnitude and are not limited. At `5·10⁷` an f32 keeps a
//!    resolution of 4 units, so the limit refuses only positions where a
//!    unit-sized shape has no precision left; models in survey coordinates
//!    work relative to a local origin (as the clash checker's elements do).

use super::Num;
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
    #[error("{what} must not be negative, got {}", Num::from(.value))]
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
    /// A finite coordinate, translation or size beyond [`MAX_MAGNITUDE`]: the
    /// queries could not compute with it in f32 (rule 7).
    #[error("{what} is too large: {} exceeds the magnitude limit {}", Num::from(.value), Num::from(.limit))]
    TooLarge {
        /// The field at fault, e.g. `"pose translation"`.
        what: &'static str,
        /// The largest magnitude given (absolute value).
        value: f32,
        /// The limit, [`MAX_MAGNITUDE`].
        limit: f32,
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

/// The largest magnitude of a coordinate, translation component or size that
/// constructors accept (rule 7 of the [policy](self) derives it).
pub const MAX_MAGNITUDE: f32 = 5.0e7;

/// Checks that a scalar is finite (any magnitude: for angles and the like).
pub(crate) fn check_finite(what: &'static str, v: f32) -> Result<f32, GeometryError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(GeometryError::NonFinite { what })
    }
}

/// Checks that a coordinate is finite and within [`MAX_MAGNITUDE`].
pub(crate) fn check_coord(what: &'static str, v: f32) -> Result<f32, GeometryError> {
    check_finite(what, v)?;
    if v.abs() > MAX_MAGNITUDE {
        Err(GeometryError::TooLarge {
            what,
            value: v.abs(),
            limit: MAX_MAGNITUDE,
        })
    } else {
        Ok(v)
    }
}

/// Checks that a size is finite, non-negative and within [`MAX_MAGNITUDE`].
pub(crate) fn check_size(what: &'static str, v: f32) -> Result<f32, GeometryError> {
    check_coord(what, v)?;
    if v < 0.0 {
        Err(GeometryError::Negative { what, value: v })
    } else {
        Ok(v)
    }
}

/// Checks the largest coordinate `m` of a compound part's box against
/// `4·MAX_MAGNITUDE` (rule 7: a shape's points lie within `8L` of its origin).
pub(crate) fn check_part_box(m: f32) -> Result<(), GeometryError> {
    if m > 4.0 * MAX_MAGNITUDE {
        return Err(GeometryError::TooLarge {
            what: "compound part extent",
            value: m,
            limit: 4.0 * MAX_MAGNITUDE,
        });
    }
    Ok(())
}

/// Checks that every component of a point or translation is finite and within
/// [`MAX_MAGNITUDE`].
pub(crate) fn check_vec<V: super::Vector>(what: &'static str, v: V) -> Result<V, GeometryError> {
    if !v.is_finite() {
        return Err(GeometryError::NonFinite { what });
    }
    let m = v.abs().max_element();
    if m > MAX_MAGNITUDE {
        return Err(GeometryError::TooLarge {
            what,
            value: m,
            limit: MAX_MAGNITUDE,
        });
    }
    Ok(v)
}

/// Checks that a direction is finite and not exactly zero (any length: a
/// direction has no magnitude to limit).
pub(crate) fn check_direction<V: super::Vector>(
    what: &'static str,
    v: V,
) -> Result<V, GeometryError> {
    if !v.is_finite() {
        return Err(GeometryError::NonFinite { what });
    }
    if v.abs().max_element() == 0.0 {
        return Err(GeometryError::Degenerate {
            what,
            why: "it is the zero vector",
        });
    }
    Ok(v)
}

/// Checks every point of a list like [`check_vec`].
pub(crate) fn check_points<V: super::Vector>(
    what: &'static str,
    points: &[V],
) -> Result<(), GeometryError> {
    points
        .iter()
        .try_for_each(|&p| check_vec(what, p).map(|_| ()))
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
