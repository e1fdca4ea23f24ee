//! Options of the mesh CCD primitives.

/// Tolerances and the work limit of [`vertex_face`](super::vertex_face) and
/// [`edge_edge`](super::edge_edge).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshCcdOptions {
    /// Contact means "closer than this distance" (`0`, the default: the
    /// primitives touch). With a positive value the test is conservative in
    /// the max norm: it reports contact whenever some coordinate-wise gap is at
    /// most this value in every axis, which includes every Euclidean distance
    /// `<= minimum_separation`. Negative values are treated as `0`.
    pub minimum_separation: f64,
    /// The reported time of impact is a lower bound of the first contact time
    /// and, when contact is real, at most this much below it (default `1e-6`).
    /// Values below `1e-12` are raised to `1e-12`.
    pub time_tolerance: f64,
    /// The most parameter boxes the inclusion search examines for one query
    /// (default `2_000`). When the budget runs out the answer is the
    /// conservative "contact at the earliest time not yet ruled out".
    pub max_work: u32,
}

impl Default for MeshCcdOptions {
    fn default() -> Self {
        MeshCcdOptions {
            minimum_separation: 0.0,
            time_tolerance: 1e-6,
            max_work: 2_000,
        }
    }
}
