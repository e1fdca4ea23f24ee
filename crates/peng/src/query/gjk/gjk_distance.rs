//! The GJK distance algorithm.
//!
//! Gilbert, Johnson and Keerthi, "A fast procedure for computing the distance
//! between complex objects in three-dimensional space" (1988); the loop and its
//! termination tests follow Ericson, *Real-Time Collision Detection*, 9.5, and
//! van den Bergen, *Collision Detection in Interactive 3D Environments* (2004),
//! 4.3: stop when the lower bound `v·w/|v|` is within a relative tolerance of
//! the upper bound `|v|`, when the new support point is already in the simplex,
//! or when `|v|` stops decreasing (the f32 floor).

use super::simplex::{Simplex, SupportPoint};
use super::support::{Local, Minkowski, Posed, SupportMap};
use super::GjkCache;
use crate::math::tolerance::GJK_MAX_ITERATIONS;
use crate::math::{Pose3, Vec3};
use glam::DVec3;

/// The three outcomes of GJK (as in Jolt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GjkStatus {
    /// The cores are disjoint; the distance and closest points are valid.
    Separated,
    /// The cores overlap or touch (the origin is within tolerance of the
    /// Minkowski difference); the simplex can seed EPA.
    Overlapping,
    /// No convergence (iteration cap or non-finite input); the best estimate so
    /// far is returned.
    Indeterminate,
}

/// What GJK found. Points are in A's frame.
///
/// `repr(C)` with each `Vec3` followed by a float, for the reason given at
/// [`SignedDistance`](super::SignedDistance): no padding byte ends up in the
/// fourth lane of a vectorized `Vec3`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct GjkOutput {
    /// Closest point on A's core.
    pub point_a: Vec3,
    /// Closest point on B's core.
    pub point_b: Vec3,
    /// Distance between the cores (0 when overlapping).
    pub distance: f32,
    /// The outcome.
    pub status: GjkStatus,
    /// The final simplex.
    pub simplex: Simplex,
    /// Number of support evaluations after the starting simplex.
    pub iterations: usize,
}

/// Relative tolerance on `|v|² - v·w` at termination. The distance converges
/// quadratically in the direction error (an error of θ in the normal costs
/// about θ²/2 in distance), so a tight value is needed for accurate normals;
/// the f32 floor is caught by the no-progress and repeated-vertex tests.
const REL_TOL: f64 = 1.0e-9;
/// Absolute tolerance on the distance, in units of the Minkowski difference's
/// size (about 3 f32 ulps).
const ABS_TOL: f64 = 4.0e-7;
/// Consecutive iterations without progress before GJK settles for the best.
const MAX_STALLS: usize = 4;
/// Below this distance (relative to the size), the cores are considered touching.
const TOUCH_TOL: f64 = 1.0e-6;

/// GJK distance between the cores of `a` and `b`, with B placed by `pose_ab` in
/// A's frame. With a cache, starts from the cached simplex and stores the final
/// one.
pub fn gjk<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose3,
    cache: Option<&mut GjkCache>,
) -> GjkOutput {
    let m = Posed {
        a,
        b,
        pose: pose_ab,
    };
    gjk_minkowski(&m, pose_ab.translation, cache)
}

/// [`gjk`] for a `b` whose support function answers in A's frame already
/// (e.g. a [`Cloud`](super::Cloud) of B's vertices mapped into A's frame);
/// `centre_b` is B's reference point in A's frame (it sets the first search
/// direction only).
pub fn gjk_local<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    centre_b: Vec3,
    cache: Option<&mut GjkCache>,
) -> GjkOutput {
    gjk_minkowski(&Local { a, b }, centre_b, cache)
}

/// Whether the support plane of the difference facing the origin along `v`
/// (the simplex's closest point) separates it from the origin beyond the
/// rounding of the support point (a few f32 ulps of its coordinates).
fn plane_separates<M: Minkowski>(m: &M, v: DVec3) -> bool {
    let w = m.support(-v.as_vec3()).w.as_dvec3();
    let lower = v.dot(w) / v.length();
    lower > 8.0 * f64::from(f32::EPSILON) * w.abs().max_element()
}

/// Relative tolerance on `|v|² − v·w` that ends the f32 phase: a few f32
/// ulps of `|v|·|w|`, the rounding of the f32 dot products.
const FAST_REL_TOL: f32 = 1.0e-6;

/// The f32 phase of GJK: iterations with the f32 solver
/// ([`Simplex::solve_fast`]) until it converges to f32 precision (the new
/// support point repeats a vertex or closes the gap to rounding), stops making
/// progress, or finds the origin inside. The f64 loop in [`gjk_minkowski`]
/// then starts from the simplex reached, so for polytopes it usually only
/// confirms the answer (one f64 solve and one support query) and computes the
/// weights, points and normal in f64. Returns the support queries made and
/// the last support point found (whether or not it joined the simplex).
fn fast_phase<M: Minkowski>(m: &M, simplex: &mut Simplex) -> (usize, Option<SupportPoint>) {
    let mut last = None;
    let (mut v, mut inside) = simplex.solve_fast();
    let mut v2 = v.length_squared();
    let mut iterations = 0;
    // Sizes only grow as support points are added: a running maximum.
    let mut scale2 = simplex.max_norm_sq();
    while iterations < GJK_MAX_ITERATIONS {
        if inside || v2.is_nan() || v2 <= (TOUCH_TOL * TOUCH_TOL) as f32 * scale2 {
            break;
        }
        iterations += 1;
        let sp = m.support(-v);
        last = Some(sp);
        scale2 = scale2.max(sp.w.length_squared());
        let gap = v2 - v.dot(sp.w);
        let dup = (ABS_TOL * ABS_TOL) as f32 * scale2;
        if simplex.contains(sp.w, dup) {
            break;
        }
        if gap <= FAST_REL_TOL * v2 {
            // Converged to f32 precision; the point may still help the f64
            // solver (on curved shapes it is progress f32 cannot see).
            simplex.push(sp);
            break;
        }
        simplex.push(sp);
        let (nv, ninside) = simplex.solve_fast();
        let nv2 = nv.length_squared();
        // No progress (or a non-finite point): the f64 solver takes over.
        if !ninside && (nv2.is_nan() || nv2 >= v2) {
            break;
        }
        v = nv;
        v2 = nv2;
        inside = ninside;
    }
    (iterations, last)
}

/// Whether the f32 phase's last support point `sp` already proves that `v`,
/// the closest point of the final simplex (f64), meets the termination test of
/// the f64 loop, so that loop's confirming support query can be skipped.
///
/// `sp.w` minimizes `x·(−sp.dir)` over `A − B`, so `−sp.dir·sp.w / |sp.dir|` is
/// a lower bound on the distance for any search direction, not only for the
/// direction of `v` (van den Bergen 2004, 4.3.4: every support point gives
/// one); `|v|` is an upper bound. The test is the f64 loop's test on these
/// two bounds, with `|v|·(|v| − lower)` in place of `|v|² − v·w`: whatever
/// direction gave the lower bound, the distance is within the same tolerance.
fn converged_by(v: DVec3, sp: &SupportPoint, scale2: f64) -> bool {
    let v2 = v.length_squared();
    let d = sp.dir.as_dvec3();
    let dd = d.length_squared();
    let w = sp.w.as_dvec3();
    let scale2 = scale2.max(w.length_squared());
    // Touching, degenerate or non-finite: the f64 loop decides.
    if !(v2 > TOUCH_TOL * TOUCH_TOL * scale2 && v2.is_finite() && dd > 0.0 && dd.is_finite()) {
        return false;
    }
    let len = v2.sqrt();
    let lower = -d.dot(w) / dd.sqrt();
    let gap = len * (len - lower);
    gap <= REL_TOL * v2 || gap <= ABS_TOL * len * scale2.sqrt()
}

/// Puts back the best simplex seen unless the current one is it.
#[inline]
fn restore(simplex: &mut Simplex, best: &Option<Simplex>, current_is_best: bool) {
    if let (false, Some(b)) = (current_is_best, best) {
        *simplex = *b;
    }
}

/// The GJK loop on the support function of `A − B`; `t` is B's centre in
/// A's frame.
fn gjk_minkowski<M: Minkowski>(m: &M, t: Vec3, cache: Option<&mut GjkCache>) -> GjkOutput {
    let mut simplex = Simplex::new();
    if let Some(c) = cache.as_deref() {
        for &d in c.directions() {
            let sp = m.support(d);
            if !simplex.contains(sp.w, 0.0) {
                simplex.push(sp);
            }
        }
    }
    if simplex.is_empty() {
        // Start along the line between the centres: -t finds the point of A − B
        // on the side of A facing B's centre reversed, a good first guess.
        let d0 = if t.length_squared() > 0.0 {
            -t
        } else {
            Vec3::X
        };
        simplex.push(m.support(d0));
    }
    let (mut iterations, last) = fast_phase(m, &mut simplex);
    let (mut v, mut inside) = simplex.solve();
    let mut status = GjkStatus::Indeterminate;
    if let (false, Some(sp)) = (inside, last) {
        if converged_by(v, &sp, simplex.max_norm_sq() as f64) {
            status = GjkStatus::Separated;
        }
    }
    // The best simplex so far and its squared distance. It is copied aside
    // only when the current one, being the best, is about to change (the f64
    // loop usually ends at its first support query, without a copy).
    let mut best_v2 = v.length_squared();
    let mut best: Option<Simplex> = None;
    let mut current_is_best = true;
    let mut stalls = 0;
    while status == GjkStatus::Indeterminate && iterations < GJK_MAX_ITERATIONS {
        let v2 = v.length_squared();
        if !v2.is_finite() {
            break;
        }
        let scale2 = simplex.max_norm_sq() as f64;
        if inside || v2 <= TOUCH_TOL * TOUCH_TOL * scale2 {
            // Within the touch tolerance of a simplex whose size comes from
            // far points (a face of a triangle 5e7 long, 14 from a small
            // shape): a support plane that separates the origin by more than
            // the rounding of the support point still certifies the pair
            // apart, by at least that much and at most `|v|`.
            status = if !inside && v2 > 0.0 && plane_separates(m, v) {
                GjkStatus::Separated
            } else {
                GjkStatus::Overlapping
            };
            break;
        }
        iterations += 1;
        let sp: SupportPoint = m.support(-v.as_vec3());
        let w = sp.w.as_dvec3();
        let scale = scale2.max(w.length_squared()).sqrt();
        // gap = |v|² - v·w = |v| · (upper bound - lower bound) on the distance.
        let gap = v2 - v.dot(w);
        if gap <= REL_TOL * v2 || gap <= ABS_TOL * v2.sqrt() * scale {
            restore(&mut simplex, &best, current_is_best);
            status = GjkStatus::Separated;
            break;
        }
        let dup = (ABS_TOL * scale) as f32;
        if simplex.contains(sp.w, dup * dup) {
            restore(&mut simplex, &best, current_is_best);
            status = GjkStatus::Separated;
            break;
        }
        if current_is_best {
            best = Some(simplex);
        }
        simplex.push(sp);
        let (nv, ninside) = simplex.solve();
        let nv2 = nv.length_squared();
        // From here the best simplex is `best` unless the new one beats it.
        current_is_best = false;
        if !nv2.is_finite() {
            restore(&mut simplex, &best, false);
            status = GjkStatus::Indeterminate;
            break;
        }
        if !ninside {
            if nv2 < best_v2 {
                best_v2 = nv2;
                current_is_best = true;
                stalls = 0;
            } else {
                // No progress (rounding in a sliver simplex): a few more steps
                // usually get past it; give up after several.
                stalls += 1;
                if stalls > MAX_STALLS {
                    restore(&mut simplex, &best, false);
                    status = GjkStatus::Separated;
                    break;
                }
            }
        }
        v = nv;
        inside = ninside;
    }
    if status == GjkStatus::Indeterminate && !inside {
        // Iteration cap: return the best simplex seen.
        restore(&mut simplex, &best, current_is_best);
    }
    if let Some(c) = cache {
        c.store(simplex.points().iter().map(|p| p.dir));
        c.last_iterations = iterations as u32;
    }
    let (point_a, point_b) = simplex.witnesses();
    let distance = if status == GjkStatus::Overlapping {
        0.0
    } else {
        simplex.closest().length() as f32
    };
    GjkOutput {
        status,
        distance,
        point_a,
        point_b,
        simplex,
        iterations,
    }
}
