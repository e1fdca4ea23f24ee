//! Coulomb friction on a slope: a box stays put below `atan(μ)` and slides
//! above it, at the closed-form acceleration `g (sin θ − μ cos θ)`.

use glam::{Quat, Vec3};
use peng::d3::{Cuboid, Pose3};
use peng_dynamics::{BodyDesc, ColliderDesc, PhysicsWorld3};

/// How far a box slides down a slope of `deg` degrees in `seconds`, with
/// friction `mu` on both surfaces.
fn slide(deg: f32, mu: f32, seconds: f32) -> f32 {
    let mut w = PhysicsWorld3::new();
    let theta = deg.to_radians();
    let rot = Quat::from_rotation_z(theta);
    // The slope: a large slab whose top face passes through the origin.
    let slab_half = Vec3::new(20.0, 0.5, 5.0);
    let slope = w.add_body(BodyDesc::fixed(Pose3::new(
        rot * Vec3::new(0.0, -0.5, 0.0),
        rot,
    )));
    w.add_collider(
        slope,
        ColliderDesc::new(Cuboid::new(slab_half).unwrap()).with_friction(mu),
    )
    .unwrap();
    // A unit box resting on it, turned with it.
    let start = rot * Vec3::new(0.0, 0.5, 0.0);
    let b = w.add_body(BodyDesc::dynamic(Pose3::new(start, rot)));
    w.add_collider(
        b,
        ColliderDesc::new(Cuboid::new(Vec3::splat(0.5)).unwrap()).with_friction(mu),
    )
    .unwrap();
    let steps = (seconds / w.settings().dt).round() as usize;
    for _ in 0..steps {
        w.step().unwrap();
    }
    let down = rot * Vec3::NEG_X;
    (w.body(b).unwrap().pose.translation - start).dot(down)
}

#[test]
fn box_holds_one_degree_below_the_friction_angle_and_slides_one_degree_above() {
    let mu = 0.5f32;
    let critical = mu.atan().to_degrees(); // 26.57°
    let t = 3.0;
    let below = slide(critical - 1.0, mu, t);
    let above = slide(critical + 1.0, mu, t);
    eprintln!("critical {critical:.2}°: slid {below:.5} m below, {above:.4} m above");
    assert!(below.abs() < 0.005, "held box crept {below} m");
    // Above: x = a t² / 2 with a = g (sin θ − μ cos θ).
    let th = (critical + 1.0).to_radians();
    let a = 9.81 * (th.sin() - mu * th.cos());
    let expect = 0.5 * a * t * t;
    assert!(
        (above - expect).abs() < 0.1 * expect,
        "slid {above} m, closed form {expect} m"
    );
}

#[test]
fn frictionless_box_slides_at_g_sin_theta() {
    let t = 1.0;
    let x = slide(10.0, 0.0, t);
    let expect = 0.5 * 9.81 * 10f32.to_radians().sin() * t * t;
    assert!(
        (x - expect).abs() < 0.02 * expect,
        "slid {x} m, closed form {expect} m"
    );
}
