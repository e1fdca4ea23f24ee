//! The differential test of peng's ray casts against parry's
//! `cast_ray_and_get_normal` (solid), for either dimension (`diff_rays.rs` runs
//! it per convex kind), on `RAYS` rays (times `PENG_TEST_SCALE`) from
//! `peng_bench::gen::rays` (from outside the bounding circle or sphere towards a
//! random point of it, so many hit and many miss).
//!
//! - hit or miss agree, except grazing rays: a mismatch is excused when moving
//!   the ray sideways by `1e-4·s` (`s` the shape's bounding radius) in some
//!   direction makes parry agree with peng, or parry's claimed hit point is
//!   within 1e-4·s of the shape, or peng's is (grazing); a parry hit point
//!   outside by more than 1e-4·s (`referee::refine` on the point) is refuted
//!   and counted, and so is parry's miss when peng's hit is certain: the ray and its
//!   sideways-shifted copies all cross a chord or triangle between support
//!   points (`referee::ray_upper`), and peng's toi lies within the certified
//!   bounds;
//! - the hit point agrees within `1e-4·s` (`|Δtoi|·|dir|`);
//! - normals agree within 1e-3 rad, except where the normal is not unique: the
//!   sideways-shifted rays get different normals from parry (an edge or rim);
//! - a toi or normal mismatch is excused when the support-function referee
//!   refutes parry's answer and not peng's: `peng_bench::referee::refine_ray`
//!   bounds the hit parameter from below (for polytopes exactly, from the
//!   facet planes: `referee::polytope_ray_entry`), `referee::ray_upper` (the
//!   ray's crossing of a chord between support points) from above, both in f64;
//!   for a circle, ball or capsule both are its exact entry in f64
//!   (`referee::round_ray_entry`);
//!   and a normal mismatch when both normals' supporting planes are entered at
//!   the common toi within `1e-4·s` (ties; on curved surfaces this admits
//!   normals off by ~1e-3 rad, the same limit as in `common::pairs`).

use super::peer::Peer;
use super::*;
use peng::math::Vector;
use peng::query::types::Ray;
use peng_bench::dim::VecN;
use peng_bench::gen::{self, Pair};
use peng_bench::referee;
use peng_bench::seeds::Run;

/// Rays per kind.
pub const RAYS: usize = 10_000;
/// The longest ray parameter asked for.
const MAX_TOI: f32 = 100.0;

/// The certified bounds `(lb, ub)` on the hit parameter of `ray` when it
/// certainly enters the shape within `MAX_TOI`: it crosses a chord (2D) or
/// triangle (3D) between support points near its entry normal, searched
/// from `n` (`referee::refine_ray`, `referee::ray_upper`); `None` otherwise.
fn certain_hit<D: Peer>(
    shape: &D::Shape,
    pose: &D::Pose,
    ray: &Ray<D::V>,
    n: D::V,
) -> Option<(f32, f32)> {
    let (nb, lb) = referee::refine_ray::<D>(shape, pose, ray, &[n]);
    let ub = referee::ray_upper::<D>(shape, pose, ray, nb)?;
    (ub <= MAX_TOI).then_some((lb, ub))
}

/// Runs the ray test on `RAYS` rays (times `PENG_TEST_SCALE`) at shapes of
/// `kind` from the written seed `base` (combined with `PENG_TEST_SEED` when it is
/// set, see `peng_bench::seeds`); fails unless at least `min_hits` rays (times
/// the scale) hit and every mismatch is excused.
/// The rounding of an f32 unit normal's direction, radians (a few ulps).
const NORMAL_ROUNDING: f32 = 1e-6;

pub fn run<D: Peer>(kind: D::Kind, base: u64, min_hits: usize) {
    let run = Run::new(env!("CARGO_CRATE_NAME"), base);
    let (seed, rays, min_hits) = (run.seed(), run.count(RAYS), run.count(min_hits));
    let cases = gen::rays::<D>(seed, kind, rays);
    let mut failures = Vec::new();
    let (mut hits, mut grazing, mut edge, mut parry_wrong) = (0, 0, 0, 0);
    for (i, c) in cases.iter().enumerate() {
        run.case(i);
        let tol = REL_TOL * D::bounding_radius(&c.shape);
        let (ps, pp) = (D::parry_shape(&c.shape), D::parry_pose(&c.pose));
        let parry_cast =
            |r: &Ray<D::V>| D::parry_cast_ray(&ps, &pp, &D::parry_ray(r), MAX_TOI, true);
        let q = parry_cast(&c.ray);
        let p = match guarded(|| D::ray_cast(&c.shape, &c.pose, &c.ray, MAX_TOI, true)) {
            Ok(h) => h,
            Err(e) => {
                failures.push(format!("seed {seed:#x} ray #{i}: peng panicked: {e}"));
                continue;
            }
        };
        let shifted: Vec<_> = D::tangents(c.ray.dir.normalize())
            .iter()
            .map(|&d| {
                parry_cast(&Ray {
                    origin: c.ray.origin + d * tol,
                    dir: c.ray.dir,
                })
            })
            .collect();
        let len = c.ray.dir.length();
        match (p, q) {
            (None, None) => {}
            (Some((tp, np)), Some((tq, nq))) => {
                hits += 1;
                let value_bad = (tp - tq).abs() * len > tol;
                let normal_bad = np.angle_to(nq) > ANGLE_TOL;
                // Referee: every supporting plane bounds the hit parameter from
                // below, its maximum is the hit; an answer whose own normal's plane
                // is not entered at its toi, or whose toi is below the bound, is
                // refuted.
                // A chord between support points near the best normal gives
                // an upper bound; an answer past it is refuted too.
                //
                // The entry along an answer's own normal is ill-conditioned
                // where the ray crosses that plane at a shallow slope
                // `s = |n·d|/|d|`: a normal rounded by α turns the plane
                // about its support point, which lies within 2R of the entry
                // point (R the bounding radius), and moves the crossing by up
                // to α·2R/s along the ray. f32 normals carry a few ulps;
                // `NORMAL_ROUNDING` allows for them (seed 850119: a hull face
                // crossed at s = 3e-4, peng's toi exact to 1e-7 in f64 but
                // its f32 normal's plane entered 6e-5 earlier).
                let own_tol = |n: D::V| {
                    let slope = n.dot(c.ray.dir).abs() / len;
                    tol.max(NORMAL_ROUNDING * 2.0 * (tol / REL_TOL) / slope)
                };
                let refuted = |t: f32, n: D::V, (lb, ub): (f32, f32), margin: f32| {
                    let own = referee::ray_entry::<D>(&c.shape, &c.pose, &c.ray, n);
                    t < lb - margin / len
                        || t > ub + margin / len
                        || (own - t).abs() * len > own_tol(n)
                };
                if value_bad || normal_bad {
                    let (nb, lb) = referee::refine_ray::<D>(&c.shape, &c.pose, &c.ray, &[np, nq]);
                    // A polytope's entry is exact from its facet planes in f64
                    // (the search's f32 normals are not, at shallow slopes).
                    let lb = referee::polytope_ray_entry::<D>(&c.shape, &c.pose, &c.ray)
                        .map_or(lb, |e| lb.max(e));
                    let ub = referee::ray_upper::<D>(&c.shape, &c.pose, &c.ray, nb)
                        .unwrap_or(f32::INFINITY);
                    // A round shape's entry is exact in closed form (the
                    // search's bound is not one for a ray near tangent).
                    let (lb, ub) = match referee::round_ray_entry::<D>(&c.shape, &c.pose, &c.ray) {
                        Some(e) => (e, e),
                        None => (lb, ub),
                    };
                    // Both bounds are f32 constructions whose rounding grows as
                    // the ray grazes the surface; where they cross, the entry
                    // lies between them (soak seed 860371: a 2D capsule's side
                    // crossed at a shallow slope, bounds 2.4168198 and 2.416416
                    // around the f64 entry 2.4166969).
                    let lb = (lb.min(ub), lb.max(ub));
                    if !refuted(tp, np, lb, tol) && refuted(tq, nq, lb, CERT_MARGIN * tol) {
                        parry_wrong += 1;
                        continue;
                    }
                    if !value_bad && !refuted(tp, np, lb, tol) && !refuted(tq, nq, lb, tol) {
                        // Both normals' supporting planes are entered at the
                        // common toi within tolerance: a tie (edge, rim), or the
                        // flat neighbourhood of a curved surface's normal (see
                        // `common::pairs` for this limit of the f32 referee).
                        edge += 1;
                        continue;
                    }
                    if value_bad {
                        failures.push(format!(
                            "seed {seed:#x} ray #{i}: toi peng {tp} vs parry {tq}, certified bounds {lb:?}, peng refuted: {}; {c:?}",
                            refuted(tp, np, lb, tol)
                        ));
                        continue;
                    }
                }
                if normal_bad {
                    let unique = shifted
                        .iter()
                        .all(|s| s.is_some_and(|(_, n)| n.angle_to(nq) <= ANGLE_TOL));
                    if unique {
                        failures.push(format!(
                            "seed {seed:#x} ray #{i}: normal peng {np} vs parry {nq}; {c:?}"
                        ));
                    } else {
                        edge += 1;
                    }
                }
            }
            (p, q) => {
                // The referee's overlap of the shape with the point the ray
                // reaches at `t` (a zero-radius circle or ball): minus the
                // point's distance outside the shape.
                let point_overlap = |t: f32, n: D::V| {
                    let point = Pair::<D> {
                        a: c.shape.clone(),
                        pose_a: c.pose,
                        b: D::point_shape(),
                        pose_b: D::pose_from_translation(c.ray.origin + c.ray.dir * t),
                    };
                    referee::refine(&point, &[n, -c.ray.dir]).1
                };
                // A hit claimed by parry alone is refuted when its point is
                // certifiably outside the shape: the referee separates the shape
                // from a point by more than 1e-5·s.
                let parry_point_gap = q
                    .filter(|_| p.is_none())
                    .map_or(0.0, |(tq, nq)| -point_overlap(tq, nq));
                // A miss claimed by parry alone is refuted when peng's hit is
                // certain for the ray and for its copies shifted sideways by
                // 1e-4·s (so not a graze), and peng's toi within the
                // certified bounds (seen: a segment crossed mid-length at
                // 4e-4 rad, its ends 2.4e-4 either side of the ray, which
                // parry's parallel test, a ulps comparison of |d|²|e|² and
                // (d·e)², takes for parallel and apart).
                let parry_miss_refuted = p.filter(|_| q.is_none()).is_some_and(|(tp, np)| {
                    let shifted_hit = |d: D::V| {
                        let r = Ray {
                            origin: c.ray.origin + d * tol,
                            dir: c.ray.dir,
                        };
                        certain_hit::<D>(&c.shape, &c.pose, &r, np).is_some()
                    };
                    certain_hit::<D>(&c.shape, &c.pose, &c.ray, np).is_some_and(|(lb, ub)| {
                        (lb - tol / len..=ub + tol / len).contains(&tp)
                            && D::tangents(c.ray.dir.normalize())
                                .into_iter()
                                .all(shifted_hit)
                    })
                });
                // A hit claimed by peng alone whose point lies within 1e-4·s
                // of the shape is a graze too (seed 850135: a ray passing
                // 3.6e-5 from a segment, which parry, testing a line against
                // a line, misses at every sideways shift).
                let peng_point_gap = p
                    .filter(|_| q.is_none())
                    .map_or(f32::INFINITY, |(tp, np)| point_overlap(tp, np).abs());
                if parry_point_gap > tol || parry_miss_refuted {
                    parry_wrong += 1;
                } else if (p.is_none() && q.is_some())
                    || shifted.iter().any(|s| s.is_some() == p.is_some())
                    || peng_point_gap <= tol
                {
                    // parry's hit point lies within 1e-4·s of the shape, so the
                    // ray passes that close to it, or a 1e-4·s shift changes
                    // parry's answer: the ray grazes the shape.
                    grazing += 1;
                } else {
                    failures.push(format!(
                        "seed {seed:#x} ray #{i}: peng {p:?} vs parry {q:?}; {c:?}"
                    ));
                }
            }
        }
    }
    run.cases_done();
    eprintln!(
        "{} {kind:?}: {hits} hits of {rays}, {grazing} grazing, {edge} tied normals, {parry_wrong} parry refuted, {} failures",
        D::NAME,
        failures.len()
    );
    assert!(hits >= min_hits, "too few hits: {hits}");
    assert!(
        failures.is_empty(),
        "{} of {rays} rays fail; {}\nfirst ones:\n{}",
        failures.len(),
        run.context(),
        failures[..failures.len().min(8)].join("\n")
    );
}
