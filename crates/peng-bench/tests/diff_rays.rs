//! Differential test of peng's ray casts against parry's
//! `cast_ray_and_get_normal` (solid), 10,000 rays per convex kind in 2D and 3D
//! (`peng_bench::gen2/gen3::rays`: from outside the bounding sphere towards a
//! random point of it, so many hit and many miss).
//!
//! - hit or miss agree, except grazing rays: a mismatch is excused when moving
//!   the ray sideways by `1e-4·s` (`s` the shape's bounding radius) in some
//!   direction makes parry agree with peng, or parry's claimed hit point is
//!   within 1e-4·s of the shape (grazing); a parry hit point outside by more
//!   than 1e-4·s (`referee::refine3` on the point) is refuted and counted;
//! - the hit point agrees within `1e-4·s` (`|Δtoi|·|dir|`);
//! - normals agree within 1e-3 rad, except where the normal is not unique: the
//!   sideways-shifted rays get different normals from parry (an edge or rim);
//! - a toi or normal mismatch is excused when the support-function referee
//!   (`peng_bench::referee::refine_ray3`) refutes parry's answer and not peng's,
//!   and a normal mismatch when both normals' supporting planes are entered at
//!   the common toi within `1e-4·s` (ties; on curved surfaces this admits
//!   normals off by ~1e-3 rad, the same limit as in `diff3d.rs`).

#[path = "../src/peer.rs"]
mod peer;

mod common;

use common::*;
use glam::{Vec2, Vec3};
use peng::d2::{self as p2, Ray2};
use peng::d3::{self as p3, Ray3};
use peng_bench::{gen2, gen3};

const RAYS: usize = 10_000;
const MAX_TOI: f32 = 100.0;

fn run3(kind: p3::ShapeKind, seed: u64) {
    let cases = gen3::rays(seed, kind, RAYS);
    let mut failures = Vec::new();
    let (mut hits, mut grazing, mut edge, mut parry_wrong) = (0, 0, 0, 0);
    for (i, c) in cases.iter().enumerate() {
        let tol = REL_TOL * gen3::bounding_radius(&c.shape);
        let (ps, pp) = (peer::d3::shape(&c.shape), peer::d3::pose(&c.pose));
        let parry_cast = |r: &Ray3| {
            ps.cast_ray_and_get_normal(&pp, &peer::d3::ray(r), MAX_TOI, true)
                .map(|h| (h.time_of_impact, h.normal))
        };
        let q = parry_cast(&c.ray);
        let p = match guarded(|| p3::ray_cast(&c.shape, &c.pose, &c.ray, MAX_TOI, true)) {
            Ok(h) => h.map(|h| (h.toi, h.normal)),
            Err(e) => {
                failures.push(format!("seed {seed:#x} ray #{i}: peng panicked: {e}"));
                continue;
            }
        };
        let (t1, t2) = c.ray.dir.normalize().any_orthonormal_pair();
        let shifted: Vec<_> = [t1, -t1, t2, -t2]
            .iter()
            .map(|&d| {
                parry_cast(&Ray3 {
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
                let normal_bad = angle3(np, nq) > ANGLE_TOL;
                // Referee: every supporting plane bounds the hit parameter from
                // below, its maximum is the hit; an answer whose own normal's plane
                // is not entered at its toi, or whose toi is below the bound, is
                // refuted.
                let refuted = |t: f32, n: Vec3, lb: f32, margin: f32| {
                    let own = peng_bench::referee::ray_entry3(&c.shape, &c.pose, &c.ray, n);
                    t < lb - margin / len || (own - t).abs() * len > tol
                };
                if value_bad || normal_bad {
                    let (_, lb) =
                        peng_bench::referee::refine_ray3(&c.shape, &c.pose, &c.ray, &[np, nq]);
                    if !refuted(tp, np, lb, tol) && refuted(tq, nq, lb, CERT_MARGIN * tol) {
                        parry_wrong += 1;
                        continue;
                    }
                    if !value_bad && !refuted(tp, np, lb, tol) && !refuted(tq, nq, lb, tol) {
                        // Both normals' supporting planes are entered at the
                        // common toi within tolerance: a tie (edge, rim), or the
                        // flat neighbourhood of a curved surface's normal (see
                        // diff3d.rs for this limit of the f32 referee).
                        edge += 1;
                        continue;
                    }
                    if value_bad {
                        failures.push(format!(
                            "seed {seed:#x} ray #{i}: toi peng {tp} vs parry {tq}, certified lower bound {lb}, peng refuted: {}; {c:?}",
                            refuted(tp, np, lb, tol)
                        ));
                        continue;
                    }
                }
                if normal_bad {
                    let unique = shifted
                        .iter()
                        .all(|s| s.is_some_and(|(_, n)| angle3(n, nq) <= ANGLE_TOL));
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
                // A hit claimed by parry alone is refuted when its point is
                // certifiably outside the shape: the referee separates the shape
                // from a point (a zero-radius ball) by more than 1e-5·s.
                let parry_point_gap = q.filter(|_| p.is_none()).map_or(0.0, |(tq, nq)| {
                    let x = c.ray.origin + c.ray.dir * tq;
                    let pt: p3::Shape = p3::Ball::new(0.0).expect("zero radius").into();
                    let pose_x = p3::Pose3::from_translation(x);
                    let (_, g) = peng_bench::referee::refine3(
                        &c.shape,
                        &c.pose,
                        &pt,
                        &pose_x,
                        &[nq, -c.ray.dir],
                    );
                    -g
                });
                if parry_point_gap > tol {
                    parry_wrong += 1;
                } else if (p.is_none() && q.is_some())
                    || shifted.iter().any(|s| s.is_some() == p.is_some())
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
    eprintln!(
        "3D {kind:?}: {hits} hits of {RAYS}, {grazing} grazing, {edge} tied normals, {parry_wrong} parry refuted, {} failures",
        failures.len()
    );
    // Rays (almost) never hit a segment in 3D, and hit flat triangles less often.
    let min_hits = match kind {
        p3::ShapeKind::Segment => 0,
        p3::ShapeKind::Triangle => RAYS / 50,
        _ => RAYS / 5,
    };
    assert!(hits >= min_hits, "too few hits: {hits}");
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(8)].join("\n")
    );
}

fn run2(kind: p2::ShapeKind, seed: u64) {
    let cases = gen2::rays(seed, kind, RAYS);
    let mut failures = Vec::new();
    let (mut hits, mut grazing, mut edge, mut parry_wrong) = (0, 0, 0, 0);
    for (i, c) in cases.iter().enumerate() {
        let tol = REL_TOL * gen2::bounding_radius(&c.shape);
        let (ps, pp) = (peer::d2::shape(&c.shape), peer::d2::pose(&c.pose));
        let parry_cast = |r: &Ray2| {
            ps.cast_ray_and_get_normal(&pp, &peer::d2::ray(r), MAX_TOI, true)
                .map(|h| (h.time_of_impact, h.normal))
        };
        let q = parry_cast(&c.ray);
        let p = match guarded(|| p2::ray_cast(&c.shape, &c.pose, &c.ray, MAX_TOI, true)) {
            Ok(h) => h.map(|h| (h.toi, h.normal)),
            Err(e) => {
                failures.push(format!("seed {seed:#x} ray #{i}: peng panicked: {e}"));
                continue;
            }
        };
        let t = c.ray.dir.normalize().perp();
        let shifted: Vec<_> = [t, -t]
            .iter()
            .map(|&d| {
                parry_cast(&Ray2 {
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
                let normal_bad = angle2(np, nq) > ANGLE_TOL;
                // Referee: every supporting plane bounds the hit parameter from
                // below, its maximum is the hit; an answer whose own normal's plane
                // is not entered at its toi, or whose toi is below the bound, is
                // refuted.
                let refuted = |t: f32, n: Vec2, lb: f32, margin: f32| {
                    let own = peng_bench::referee::ray_entry2(&c.shape, &c.pose, &c.ray, n);
                    t < lb - margin / len || (own - t).abs() * len > tol
                };
                if value_bad || normal_bad {
                    let (_, lb) =
                        peng_bench::referee::refine_ray2(&c.shape, &c.pose, &c.ray, &[np, nq]);
                    if !refuted(tp, np, lb, tol) && refuted(tq, nq, lb, CERT_MARGIN * tol) {
                        parry_wrong += 1;
                        continue;
                    }
                    if !value_bad && !refuted(tp, np, lb, tol) && !refuted(tq, nq, lb, tol) {
                        // Both normals' supporting planes are entered at the
                        // common toi within tolerance: a tie (edge, rim), or the
                        // flat neighbourhood of a curved surface's normal (see
                        // diff3d.rs for this limit of the f32 referee).
                        edge += 1;
                        continue;
                    }
                    if value_bad {
                        failures.push(format!(
                            "seed {seed:#x} ray #{i}: toi peng {tp} vs parry {tq}, certified lower bound {lb}, peng refuted: {}; {c:?}",
                            refuted(tp, np, lb, tol)
                        ));
                        continue;
                    }
                }
                if normal_bad {
                    let unique = shifted
                        .iter()
                        .all(|s| s.is_some_and(|(_, n)| angle2(n, nq) <= ANGLE_TOL));
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
                // A hit claimed by parry alone is refuted when its point is
                // certifiably outside the shape: the referee separates the shape
                // from a point (a zero-radius circle) by more than 1e-5·s.
                let parry_point_gap = q.filter(|_| p.is_none()).map_or(0.0, |(tq, nq)| {
                    let x = c.ray.origin + c.ray.dir * tq;
                    let pt: p2::Shape = p2::Circle::new(0.0).expect("zero radius").into();
                    let pose_x = p2::Pose2::from_translation(x);
                    let (_, g) = peng_bench::referee::refine2(
                        &c.shape,
                        &c.pose,
                        &pt,
                        &pose_x,
                        &[nq, -c.ray.dir],
                    );
                    -g
                });
                if parry_point_gap > tol {
                    parry_wrong += 1;
                } else if (p.is_none() && q.is_some())
                    || shifted.iter().any(|s| s.is_some() == p.is_some())
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
    eprintln!(
        "2D {kind:?}: {hits} hits of {RAYS}, {grazing} grazing, {edge} tied normals, {parry_wrong} parry refuted, {} failures",
        failures.len()
    );
    assert!(hits > RAYS / 5, "too few hits: {hits}");
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(8)].join("\n")
    );
}

macro_rules! ray_tests {
    ($($(#[$m:meta])* $name:ident: $run:ident, $kind:expr, $seed:expr;)*) => {$(
        #[test]
        $(#[$m])*
        fn $name() {
            $run($kind, $seed);
        }
    )*};
}

ray_tests! {
    ray3_ball: run3, p3::ShapeKind::Ball, 0x7a_3d00;
    ray3_capsule: run3, p3::ShapeKind::Capsule, 0x7a_3d01;
    ray3_cuboid: run3, p3::ShapeKind::Cuboid, 0x7a_3d02;
    ray3_cylinder: run3, p3::ShapeKind::Cylinder, 0x7a_3d03;
    ray3_cone: run3, p3::ShapeKind::Cone, 0x7a_3d04;
    ray3_segment: run3, p3::ShapeKind::Segment, 0x7a_3d05;
    ray3_triangle: run3, p3::ShapeKind::Triangle, 0x7a_3d06;
    ray3_polyhedron: run3, p3::ShapeKind::Polyhedron, 0x7a_3d07;
    ray2_circle: run2, p2::ShapeKind::Circle, 0x7a_2d00;
    ray2_capsule: run2, p2::ShapeKind::Capsule, 0x7a_2d01;
    ray2_rect: run2, p2::ShapeKind::Rect, 0x7a_2d02;
    ray2_segment: run2, p2::ShapeKind::Segment, 0x7a_2d03;
    ray2_triangle: run2, p2::ShapeKind::Triangle, 0x7a_2d04;
    ray2_polygon: run2, p2::ShapeKind::Polygon, 0x7a_2d05;
}
