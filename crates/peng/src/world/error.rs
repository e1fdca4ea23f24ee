//! Errors of the collision world: each names what is wrong.

use super::handle::ColliderHandle;
use crate::math::Num;

/// What a world operation rejected.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum WorldError {
    /// The handle names a removed collider (or none ever made here).
    #[error("stale or unknown collider handle {0:?}")]
    StaleHandle(ColliderHandle),
    /// A pose component is NaN or infinite.
    #[error("collider pose is not finite (NaN or infinite component)")]
    NonFinitePose,
    /// The collider's position is past the coordinates the world supports.
    #[error("collider position {:e} is past the supported coordinate limit {:e}", Num::from(.0), Num::from(.1))]
    TooFar(f32, f32),
    /// A margin is negative, NaN or infinite.
    #[error("margin must be finite and non-negative, got {}", Num::from(.0))]
    InvalidMargin(f32),
    /// A collider's displacement has a NaN or infinite component, or a
    /// length past the largest `f32`.
    #[error("collider displacement is not finite (NaN or infinite component, or too long)")]
    NonFiniteDisplacement,
    /// A manifold reuse tolerance is negative, NaN or infinite.
    #[error("manifold reuse tolerance must be finite and non-negative, got {}", Num::from(.0))]
    InvalidReuseTolerance(f32),
    /// A broad phase handed to a world already holds proxies (the count).
    #[error("a world's new broad phase must be empty, it holds {0} proxies")]
    BroadPhaseNotEmpty(usize),
    /// A broad phase handed to a world refused a collider's box.
    #[error("the new broad phase refused a collider's box: {0}")]
    BroadPhaseRefused(crate::broad::BroadPhaseError),
    /// A broad-phase slack is negative, NaN or infinite.
    #[error("broad-phase slack must be finite and non-negative, got {}", Num::from(.0))]
    InvalidBroadSlack(f32),
    /// A scene-query input (point, ray, box or pose) has a NaN or infinite
    /// component where a finite value is needed; names the input.
    #[error("query {0} is not finite (NaN or infinite component)")]
    NonFiniteQuery(&'static str),
    /// A scene-query length (ray length, search distance) is NaN or
    /// negative; names the input.
    #[error("query {what} must be non-negative, got {}", Num::from(.1), what = .0)]
    NegativeQueryLength(&'static str, f32),
    /// A scene-query ray has a zero-length direction.
    #[error("query ray direction has zero length")]
    ZeroRayDirection,
}
