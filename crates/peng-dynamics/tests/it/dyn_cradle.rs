//! Newton's cradle: five equal balls in a row, the first moving; momentum
//! is conserved and passes through to the last ball.
//!
//! The balls hang 5 cm apart, more than a ball moves in a step (3.3 cm at
//! 2 m/s and 60 Hz), so each impact is its own two-body collision, which
//! restitution 1 resolves exactly; balls that touch at rest meet all at once,
//! and a velocity-level solver shares that simultaneous impact among them
//! instead (not handled yet).

use glam::Vec3;
use peng::d3::{Ball, Pose3};
use peng_dynamics::{BodyDesc, ColliderDesc, PhysicsWorld3};

#[test]
fn five_ball_cradle_passes_momentum_through() {
    let mut w = PhysicsWorld3::new();
    w.settings_mut().gravity = Vec3::ZERO;
    let r = 0.5;
    let gap = 0.05;
    let v0 = 2.0;
    let balls: Vec<_> = (0..5)
        .map(|i| {
            let x = i as f32 * (2.0 * r + gap);
            let desc = BodyDesc::dynamic(Pose3::from_translation(Vec3::new(x, 0.0, 0.0)));
            let desc = if i == 0 {
                desc.with_linvel(Vec3::new(v0, 0.0, 0.0))
            } else {
                desc
            };
            let b = w.add_body(desc);
            w.add_collider(
                b,
                ColliderDesc::new(Ball::new(r).unwrap())
                    .with_restitution(1.0)
                    .with_friction(0.0),
            )
            .unwrap();
            b
        })
        .collect();
    let mass = w.body(balls[0]).unwrap().mass_properties().mass;
    let momentum = |w: &PhysicsWorld3| -> Vec3 {
        balls
            .iter()
            .map(|&b| w.body(b).unwrap().linvel * mass)
            .sum()
    };
    let p0 = momentum(&w);
    for _ in 0..60 {
        w.step().unwrap();
        let p = momentum(&w);
        assert!(
            (p - p0).length() < 1e-4 * p0.length(),
            "momentum {p} vs {p0}"
        );
    }
    let v: Vec<f32> = balls.iter().map(|&b| w.body(b).unwrap().linvel.x).collect();
    eprintln!("velocities after 1 s: {v:?}");
    for (i, vi) in v.iter().enumerate().take(4) {
        assert!(vi.abs() < 0.02 * v0, "ball {i} still moves at {vi}");
    }
    assert!(
        (v[4] - v0).abs() < 0.02 * v0,
        "last ball leaves at {}",
        v[4]
    );
    // Energy is kept too (restitution 1).
    let e: f32 = v.iter().map(|x| 0.5 * mass * x * x).sum();
    let e0 = 0.5 * mass * v0 * v0;
    assert!((e - e0).abs() < 0.02 * e0, "kinetic energy {e} vs {e0}");
}
