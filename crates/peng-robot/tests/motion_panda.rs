//! Motion checks on the Panda among 20 boxes (convex hulls, the SRDF):
//! random straight joint-space segments between free waypoints (half of
//! them through a configuration in collision), each
//! checked by `check_motion` (conservative advancement) and by a reference
//! that checks configurations densely along it, every 1e-4 rad of the
//! joint that moves most. The certified check never misses a contact the
//! dense one finds, never reports it later, and every contact it reports is
//! within its tolerance at the reported time. Checking only at the
//! resolution MoveIt uses by default (0.005 of the joint space's extent)
//! misses some of them.

use peng_robot::{Checker, MeshMode, MotionResult, Stop, CONTACT_TOL};
use rayon::prelude::*;

mod common;

use common::SplitMix64;

/// The Panda (hulls, SRDF) in the 20-box cell of the reference scripts.
fn cell() -> Checker {
    let mut c = common::panda(MeshMode::ConvexHull);
    common::add_cell_boxes(&mut c);
    c
}

/// How many segments (`PENG_ROBOT_SEGMENTS` overrides).
fn segment_count() -> usize {
    std::env::var("PENG_ROBOT_SEGMENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

/// What the references saw along one segment.
struct Outcome {
    certified: MotionResult,
    /// The first dense sample in contact, as a fraction of the segment.
    dense: Option<f64>,
    /// Whether a sample at MoveIt's resolution is in contact.
    coarse_hit: bool,
}

#[test]
fn certified_motions_never_miss_what_dense_sampling_finds() {
    let c = cell();
    let r = &c.robot;
    let limits: Vec<_> = r
        .active_joints()
        .iter()
        .map(|&j| r.joints[j].limits.unwrap())
        .collect();
    // OMPL's maximum extent of a box-shaped joint space: its diagonal.
    let extent = limits
        .iter()
        .map(|l| (l.upper - l.lower).powi(2))
        .sum::<f64>()
        .sqrt();
    let coarse_step = 0.005 * extent;
    // Segments between free waypoints: half of them random (up to 0.15 rad
    // on the joint that moves most; most are free all the way), half through
    // a configuration in collision (up to 0.3 rad; each holds a contact).
    let mut rng = SplitMix64(4242);
    let free = |q: &[f64]| c.check(q, Stop::AtFirst).unwrap().is_empty();
    let mut segments = Vec::new();
    while segments.len() < segment_count() {
        let through = segments.len() % 2 == 1;
        let q = rng.config(r);
        if through && free(&q) {
            continue;
        }
        let len = if through {
            0.02 + 0.28 * rng.unit()
        } else {
            0.005 + 0.145 * rng.unit()
        };
        let dir: Vec<f64> = (0..q.len()).map(|_| rng.unit() * 2.0 - 1.0).collect();
        let m = dir.iter().fold(0.0f64, |m, d| m.max(d.abs()));
        // The configuration in collision anywhere in the middle 60%.
        let back = if through { 0.2 + 0.6 * rng.unit() } else { 0.0 };
        let ahead = 1.0 - back;
        let step = |t: f64| -> Vec<f64> {
            q.iter()
                .zip(&dir)
                .zip(&limits)
                .map(|((q, d), l)| (q + d / m * len * t).clamp(l.lower, l.upper))
                .collect()
        };
        let (q0, q1) = (step(-back), step(ahead));
        if free(&q0) && free(&q1) {
            segments.push((q0, q1));
        }
    }
    let at = |q0: &[f64], q1: &[f64], s: f64| -> Vec<f64> {
        q0.iter().zip(q1).map(|(a, b)| a + s * (b - a)).collect()
    };
    let outcomes: Vec<Outcome> = segments
        .par_iter()
        .map(|(q0, q1)| {
            let delta = q0
                .iter()
                .zip(q1)
                .fold(0.0f64, |m, (a, b)| m.max((b - a).abs()));
            let n = (delta / 1e-4).ceil().max(1.0) as usize;
            let dense = (1..n)
                .map(|k| k as f64 / n as f64)
                .find(|&s| !free(&at(q0, q1, s)));
            let coarse = (delta / coarse_step).ceil().max(1.0) as usize;
            let coarse_hit = (1..coarse).any(|k| !free(&at(q0, q1, k as f64 / coarse as f64)));
            Outcome {
                certified: c.check_motion(q0, q1).unwrap(),
                dense,
                coarse_hit,
            }
        })
        .collect();
    let (mut contacts, mut coarse_misses, mut grazes) = (0, 0, 0);
    for (k, o) in outcomes.iter().enumerate() {
        let (q0, q1) = &segments[k];
        match (o.certified, o.dense) {
            (MotionResult::Free { .. }, Some(s)) => {
                panic!("segment {k}: certified free, in contact at s = {s}")
            }
            (MotionResult::Contact { s, pair }, dense) => {
                // Not late: at or before the first dense sample in contact.
                if let Some(d) = dense {
                    assert!(s <= d + 1e-12, "segment {k}: contact at {s}, dense at {d}");
                }
                // Not false: within the tolerance at the reported time.
                assert!(pair.distance <= CONTACT_TOL, "segment {k}: {pair:?}");
                let (closest, _) = c.distance(&at(q0, q1, s), 0.0).unwrap();
                assert!(
                    closest.unwrap().distance <= CONTACT_TOL + 1e-6,
                    "segment {k}: {closest:?} at {s}"
                );
                contacts += 1;
                grazes += usize::from(dense.is_none());
                coarse_misses += usize::from(dense.is_some() && !o.coarse_hit);
            }
            (MotionResult::Free { .. }, None) => {}
        }
    }
    eprintln!(
        "{} segments: {contacts} with a contact between free waypoints ({grazes} within the \
         tolerance only, between dense samples); MoveIt's resolution ({coarse_step:.4} rad) misses \
         {coarse_misses}",
        segments.len()
    );
    assert!(contacts * 3 > segments.len(), "{contacts}");
    assert!(coarse_misses > 0);
}
