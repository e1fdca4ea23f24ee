//! Vertex–face and edge–edge continuous collision detection between two time
//! steps of deforming triangle meshes, in `f64`, conservative.
//!
//! Every vertex moves linearly from its position at `t = 0` to its position at
//! `t = 1`. [`vertex_face`] and [`edge_edge`] return a time of impact that is a
//! **lower bound** of the first time the primitives touch (or come within
//! [`MeshCcdOptions::minimum_separation`]), or `None` only when they certainly
//! do not within `[0, 1]`: rounding never hides a contact. Touching (distance
//! exactly 0) counts as contact.
//!
//! # Method
//! 1. A cheap test of the whole parameter box (the range of the contact
//!    function over all times and surface points, see the `system` module)
//!    rejects most pairs that are apart.
//! 2. With no minimum separation, the coplanarity cubic in Bernstein form
//!    (see the `coplanar` module) either proves that the four points are never
//!    coplanar (no contact) or narrows the times where they may be.
//! 3. An inclusion search (after Wang et al., "A Large Scale Benchmark and an
//!    Inclusion-Based Algorithm for Continuous Collision Detection", ACM TOG
//!    2021) bisects boxes of (time, surface parameters), excluding boxes whose
//!    rigorously bounded range of the contact function misses 0. Its work is
//!    capped by [`MeshCcdOptions::max_work`]; when the cap is reached the
//!    answer is the earliest time not yet ruled out.
//! 4. A box the search would report gets a second look in double-double
//!    arithmetic (error of order `1e-30` of the coordinates instead of
//!    `1e-14`; see the `precise` module), bisected further within a small
//!    budget: near misses below the double-precision error bound are
//!    excluded there (on the sample data set this removes about 4/5 of the
//!    false positives).
//!
//! Every floating-point bound is derived from the input magnitudes, so the
//! tests are exact-safe: a "no" is certain, a "yes" may be a near miss (in
//! practice closer than about `1e-14` of the coordinates' magnitude).
//!
//! # Degenerate and non-finite input
//! Zero-length edges, degenerate triangles, coincident points and parallel or
//! coplanar motion need no special case: the contact function is still
//! multilinear and the bounds still hold. Non-finite input (NaN or infinite
//! coordinates) returns `Some(0.0)`: "contact at the start", the conservative
//! answer (`math::policy` rule 1 only asks for a value and no panic).
//! Coordinates so large that products overflow (beyond about `1e100`) also end
//! in a conservative hit.
//!
//! The search uses a fixed-size stack: no allocation per query.

mod coplanar;
mod options;
mod precise;
mod search;
mod system;

use coplanar::{candidate_intervals, Intervals};
use glam::DVec3;
pub use options::MeshCcdOptions;
use precise::Precise;
use system::{ParamBox, System};

/// A time of impact with how it was found, from [`vertex_face_detailed`] and
/// [`edge_edge_detailed`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshCcdOutcome {
    /// The answer of [`vertex_face`] / [`edge_edge`].
    pub toi: Option<f64>,
    /// Parameter boxes the inclusion search examined (`0` when a filter
    /// decided).
    pub boxes: u32,
    /// The work budget ran out: `toi` is the earliest time not yet ruled out,
    /// possibly much earlier than any contact, or a contact that is not there.
    pub exhausted: bool,
}

/// The smallest time tolerance used (smaller requests are raised to it), so the
/// search's stack bound holds.
const MIN_TIME_TOLERANCE: f64 = 1e-12;

/// The first time of contact of a vertex and a triangle, both moving linearly
/// from their positions at `t = 0` (`v0`, `f0`) to those at `t = 1` (`v1`,
/// `f1`).
///
/// Returns `Some(toi)` with `toi ∈ [0, 1]` a lower bound of the first contact
/// time (within `options.time_tolerance` of it when contact is real), or
/// `None` when the vertex certainly never touches the triangle (closed, with
/// its edges and vertices) within `[0, 1]`. See the [module docs](self) for
/// degenerate input.
///
/// ```
/// use glam::DVec3;
/// use peng::ccd::mesh::{vertex_face, MeshCcdOptions};
/// let f = [DVec3::ZERO, DVec3::X, DVec3::Y];
/// // A vertex falling through the triangle's plane at t = 1/2.
/// let toi = vertex_face(
///     DVec3::new(0.25, 0.25, 1.0), f,
///     DVec3::new(0.25, 0.25, -1.0), f,
///     &MeshCcdOptions::default(),
/// ).expect("contact");
/// assert!(toi <= 0.5 && toi >= 0.5 - 1e-6);
/// ```
pub fn vertex_face(
    v0: DVec3,
    f0: [DVec3; 3],
    v1: DVec3,
    f1: [DVec3; 3],
    options: &MeshCcdOptions,
) -> Option<f64> {
    vertex_face_detailed(v0, f0, v1, f1, options).toi
}

/// [`vertex_face`], also telling how much work the answer took and whether
/// the work budget ran out.
pub fn vertex_face_detailed(
    v0: DVec3,
    f0: [DVec3; 3],
    v1: DVec3,
    f1: [DVec3; 3],
    options: &MeshCcdOptions,
) -> MeshCcdOutcome {
    let sum = v0 + v1 + f0[0] + f0[1] + f0[2] + f1[0] + f1[1] + f1[2];
    if !sum.is_finite() {
        return NON_FINITE;
    }
    let ms = options.minimum_separation;
    let sys = System::vertex_face(v0, f0, v1, f1, ms);
    solve(&sys, options, || {
        Precise::new(system::vertex_face_operands(v0, f0, v1, f1), true, ms)
    })
}

/// The answer to non-finite input: contact at the start.
const NON_FINITE: MeshCcdOutcome = MeshCcdOutcome {
    toi: Some(0.0),
    boxes: 0,
    exhausted: false,
};

/// The first time of contact of edge `a` and edge `b`, both moving linearly
/// from their endpoints at `t = 0` (`a0`, `b0`) to those at `t = 1` (`a1`,
/// `b1`).
///
/// Returns `Some(toi)` with `toi ∈ [0, 1]` a lower bound of the first contact
/// time (within `options.time_tolerance` of it when contact is real), or
/// `None` when the (closed) segments certainly never touch within `[0, 1]`.
/// See the [module docs](self) for degenerate input.
///
/// ```
/// use glam::DVec3;
/// use peng::ccd::mesh::{edge_edge, MeshCcdOptions};
/// // Edge a along x drops from z = 1 to z = −1; edge b lies along y at z = 0.
/// let a0 = [DVec3::new(-1.0, 0.0, 1.0), DVec3::new(1.0, 0.0, 1.0)];
/// let a1 = [DVec3::new(-1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, -1.0)];
/// let b = [DVec3::new(0.0, -1.0, 0.0), DVec3::new(0.0, 1.0, 0.0)];
/// let toi = edge_edge(a0, b, a1, b, &MeshCcdOptions::default()).expect("contact");
/// assert!(toi <= 0.5 && toi >= 0.5 - 1e-6);
/// ```
pub fn edge_edge(
    a0: [DVec3; 2],
    b0: [DVec3; 2],
    a1: [DVec3; 2],
    b1: [DVec3; 2],
    options: &MeshCcdOptions,
) -> Option<f64> {
    edge_edge_detailed(a0, b0, a1, b1, options).toi
}

/// [`edge_edge`], also telling how much work the answer took and whether the
/// work budget ran out.
pub fn edge_edge_detailed(
    a0: [DVec3; 2],
    b0: [DVec3; 2],
    a1: [DVec3; 2],
    b1: [DVec3; 2],
    options: &MeshCcdOptions,
) -> MeshCcdOutcome {
    let sum = a0[0] + a0[1] + b0[0] + b0[1] + a1[0] + a1[1] + b1[0] + b1[1];
    if !sum.is_finite() {
        return NON_FINITE;
    }
    let ms = options.minimum_separation;
    let sys = System::edge_edge(a0, b0, a1, b1, ms);
    solve(&sys, options, || {
        Precise::new(system::edge_edge_operands(a0, b0, a1, b1), false, ms)
    })
}

/// Filters, then the inclusion search.
fn solve(
    sys: &System,
    options: &MeshCcdOptions,
    precise_system: impl Fn() -> Precise,
) -> MeshCcdOutcome {
    let filtered = MeshCcdOutcome {
        toi: None,
        boxes: 0,
        exhausted: false,
    };
    // 1. The whole parameter box.
    let whole = ParamBox {
        t: [0.0, 1.0],
        s: [0.0, 1.0],
        r: [0.0, 1.0],
    };
    if !sys.may_vanish(&sys.corners(&whole)) {
        return filtered;
    }
    // 2. Coplanarity (only meaningful when contact means distance 0).
    let intervals = if options.minimum_separation > 0.0 {
        Intervals::all()
    } else {
        let [x, y, z] = sys.differences();
        candidate_intervals(x, y, z)
    };
    if intervals.len == 0 {
        return filtered;
    }
    // 3. The inclusion search.
    let tolerance = if options.time_tolerance >= MIN_TIME_TOLERANCE {
        options.time_tolerance
    } else {
        MIN_TIME_TOLERANCE
    };
    let max_work = options.max_work.max(1);
    let mut work = 0;
    let toi = search::earliest_zero(
        sys,
        precise_system,
        intervals.as_slice(),
        tolerance,
        max_work,
        &mut work,
    );
    MeshCcdOutcome {
        toi,
        boxes: work.min(max_work),
        exhausted: work > max_work,
    }
}
