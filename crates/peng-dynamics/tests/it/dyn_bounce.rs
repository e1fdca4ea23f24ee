//! Bouncing balls on a triangle-mesh floor: restitution keeps (e = 1) or
//! quarters (e = 0.5) the bounce height.

use crate::common;

use glam::Vec3;
use peng_dynamics::PhysicsWorld3;

/// The peak heights of the ball's centre above its resting height, over
/// `bounces` bounces.
///
/// Sampling positions once a step misses the apex by up to `g dt² / 8`
/// (0.3 mm at 60 Hz, 2% of a 15 mm bounce), so the apex comes from the
/// last rising sample: symplectic Euler with substeps of `h` under gravity
/// keeps `w² + 2 g y` constant, `w = v − g h / 2` (the invariant the solver's
/// restitution uses), and the apex is where `w = 0`.
fn peaks(e: f32, drop: f32, bounces: usize) -> Vec<f32> {
    let mut w = PhysicsWorld3::new();
    common::mesh_floor(&mut w, 5.0, 4);
    let r = 0.25;
    let ball = common::ball3(&mut w, Vec3::new(0.3, r + drop, -0.2), r, e);
    let mut out = Vec::new();
    let h = w.settings().dt / w.settings().substeps as f32;
    let g = 9.81f32;
    let mut last_vy = 0.0f32;
    let mut last_apex = 0.0f32;
    let mut steps = 0;
    while out.len() < bounces && steps < 100_000 {
        w.step().expect("step");
        steps += 1;
        let b = w.body(ball).expect("ball");
        let vy = b.linvel.y;
        if last_vy > 0.0 && vy <= 0.0 {
            out.push(last_apex);
        }
        let wv = vy - 0.5 * g * h;
        last_apex = b.pose.translation.y - r + wv * wv / (2.0 * g);
        last_vy = vy;
    }
    out
}

#[test]
fn perfectly_elastic_ball_keeps_its_bounce_height_over_20_bounces() {
    let p = peaks(1.0, 2.0, 20);
    eprintln!("{p:?}");
    assert_eq!(p.len(), 20);
    for (i, h) in p.iter().enumerate() {
        assert!(
            (h / 2.0 - 1.0).abs() < 0.01,
            "bounce {i}: peak {h} vs 2.0 ({p:?})"
        );
    }
}

#[test]
fn half_elastic_ball_quarters_each_peak() {
    let p = peaks(0.5, 4.0, 4);
    eprintln!("{p:?}");
    let mut last = 4.0;
    for (i, h) in p.iter().enumerate() {
        let ratio = h / last;
        assert!(
            (ratio / 0.25 - 1.0).abs() < 0.02,
            "bounce {i}: {h} / {last} = {ratio} ({p:?})"
        );
        last = *h;
    }
}
