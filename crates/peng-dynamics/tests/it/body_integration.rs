//! Rigid bodies under symplectic Euler: closed forms of the discrete steps
//! (projectile, damping), impulses, torque-free spin, turning about the
//! centre of mass, and the kinematic and static kinds.

use glam::{Quat, Vec3};
use peng::math::Pose3;
use peng::shape::d3::{Cuboid, Shape};
use peng_dynamics::{Body3, BodyKind, MassProperties3};

/// A unit cube of density 1: mass 1, inertia 1/6 about every axis.
fn cube() -> MassProperties3 {
    let s: Shape = Cuboid::new(Vec3::splat(0.5)).unwrap().into();
    MassProperties3::from_shape(&s, 1.0).unwrap()
}

fn close(a: Vec3, b: Vec3, tol: f32) -> bool {
    (a - b).length() <= tol * (1.0 + b.length())
}

#[test]
fn a_projectile_follows_the_discrete_closed_form() {
    // Symplectic Euler: v_n = v0 + n g dt and
    // x_n = x0 + n dt v0 + g dt² n (n + 1) / 2.
    let g = Vec3::new(0.0, -9.81, 0.0);
    let (dt, n) = (1.0 / 60.0, 120);
    let x0 = Vec3::new(1.0, 2.0, 3.0);
    let v0 = Vec3::new(3.0, 10.0, -1.0);
    let mut b = Body3::new(BodyKind::Dynamic, Pose3::from_translation(x0), cube());
    b.linvel = v0;
    for _ in 0..n {
        b.integrate(dt, g);
    }
    let nf = n as f32;
    assert!(close(b.linvel, v0 + g * nf * dt, 1e-5), "{}", b.linvel);
    let x = x0 + v0 * nf * dt + g * dt * dt * nf * (nf + 1.0) / 2.0;
    assert!(
        close(b.pose.translation, x, 1e-5),
        "{} vs {x}",
        b.pose.translation
    );
    assert_eq!(b.pose.rotation, Quat::IDENTITY);
}

#[test]
fn forces_and_impulses_change_velocities_by_their_closed_forms() {
    let mut b = Body3::new(BodyKind::Dynamic, Pose3::IDENTITY, cube());
    // An impulse at the corner (0.5, 0.5, 0.5) along +x: Δv = J/m and
    // Δω = I⁻¹ (r × J) = 6 (0, 0.5, -0.5).
    b.apply_impulse_at_point(Vec3::X, Vec3::splat(0.5));
    assert!(close(b.linvel, Vec3::X, 1e-5), "{}", b.linvel);
    assert!(
        close(b.angvel, Vec3::new(0.0, 3.0, -3.0), 1e-5),
        "{}",
        b.angvel
    );
    // The corner's own velocity: v + ω × r.
    let corner = b.velocity_at_point(Vec3::splat(0.5));
    assert!(close(
        corner,
        Vec3::X + Vec3::new(0.0, 3.0, -3.0).cross(Vec3::splat(0.5)),
        1e-5
    ));
    // A force for one step: Δv = F dt / m; a torque: Δω = I⁻¹ τ dt.
    let mut c = Body3::new(BodyKind::Dynamic, Pose3::IDENTITY, cube());
    c.apply_force(Vec3::new(0.0, 0.0, 6.0));
    c.apply_torque(Vec3::new(0.5, 0.0, 0.0));
    c.integrate(0.5, Vec3::ZERO);
    assert!(
        close(c.linvel, Vec3::new(0.0, 0.0, 3.0), 1e-5),
        "{}",
        c.linvel
    );
    assert!(
        close(c.angvel, Vec3::new(1.5, 0.0, 0.0), 1e-5),
        "{}",
        c.angvel
    );
    // Forces last one step only.
    c.integrate(0.5, Vec3::ZERO);
    assert!(close(c.linvel, Vec3::new(0.0, 0.0, 3.0), 1e-5));
}

#[test]
fn damping_decays_by_the_rational_factor() {
    let mut b = Body3::new(BodyKind::Dynamic, Pose3::IDENTITY, cube());
    b.linvel = Vec3::new(4.0, 0.0, 0.0);
    b.angvel = Vec3::new(0.0, 2.0, 0.0);
    b.linear_damping = 0.5;
    b.angular_damping = 2.0;
    let dt = 0.1;
    for _ in 0..30 {
        b.integrate(dt, Vec3::ZERO);
    }
    let lin = 4.0 * (1.0f32 / (1.0 + dt * 0.5)).powi(30);
    let ang = 2.0 * (1.0f32 / (1.0 + dt * 2.0)).powi(30);
    assert!(
        (b.linvel.x - lin).abs() < 1e-5 * lin,
        "{} vs {lin}",
        b.linvel.x
    );
    assert!((b.angvel.y - ang).abs() < 1e-5, "{} vs {ang}", b.angvel.y);
}

#[test]
fn a_free_spin_turns_at_constant_rate_about_the_centre_of_mass() {
    // A cube whose body frame is offset from its centre of mass: the centre
    // stays put while the frame's origin circles it.
    let mut m = cube();
    m.local_com = Vec3::new(1.0, 0.0, 0.0);
    let mut b = Body3::new(BodyKind::Dynamic, Pose3::IDENTITY, m);
    b.angvel = Vec3::new(0.0, 0.0, std::f32::consts::PI); // half a turn per second
    let com0 = b.world_com();
    for _ in 0..60 {
        b.integrate(1.0 / 60.0, Vec3::ZERO);
    }
    assert!(close(b.world_com(), com0, 1e-5), "{}", b.world_com());
    // Half a turn about z through (1, 0, 0): the origin went to (2, 0, 0).
    assert!(
        close(b.pose.translation, Vec3::new(2.0, 0.0, 0.0), 1e-4),
        "{}",
        b.pose.translation
    );
    let want = Quat::from_rotation_z(std::f32::consts::PI);
    assert!(
        b.pose.rotation.dot(want).abs() > 1.0 - 1e-6,
        "{}",
        b.pose.rotation
    );
    // A symmetric top keeps its angular velocity (no gyroscopic torque).
    assert!(close(
        b.angvel,
        Vec3::new(0.0, 0.0, std::f32::consts::PI),
        1e-6
    ));
}

#[test]
fn kinematic_bodies_ignore_forces_and_static_bodies_stay() {
    let mut k = Body3::new(BodyKind::Kinematic, Pose3::IDENTITY, cube());
    k.linvel = Vec3::X;
    k.apply_force(Vec3::Y * 100.0);
    k.apply_impulse(Vec3::Y * 100.0);
    k.integrate(0.5, Vec3::new(0.0, -9.81, 0.0));
    assert!(close(k.pose.translation, Vec3::new(0.5, 0.0, 0.0), 1e-6));
    assert_eq!(k.linvel, Vec3::X);
    assert_eq!(
        (k.inv_mass(), k.inv_inertia_world()),
        (0.0, glam::Mat3::ZERO)
    );
    let mut s = Body3::new(BodyKind::Static, Pose3::IDENTITY, cube());
    s.linvel = Vec3::X;
    s.integrate(1.0, Vec3::new(0.0, -9.81, 0.0));
    assert_eq!(s.pose, Pose3::IDENTITY);
}

#[test]
fn massless_bodies_stay_put_without_nan() {
    // A zero-thickness plate has no volume, hence no mass.
    let plate: Shape = Cuboid::new(Vec3::new(0.5, 0.0, 0.5)).unwrap().into();
    let m = MassProperties3::from_shape(&plate, 1.0).unwrap();
    assert_eq!(m.mass, 0.0);
    for m in [m, MassProperties3::ZERO] {
        let mut z = Body3::new(BodyKind::Dynamic, Pose3::IDENTITY, m);
        z.apply_impulse_at_point(Vec3::Y, Vec3::X);
        z.apply_force(Vec3::Y);
        z.integrate(0.1, Vec3::new(0.0, -9.81, 0.0));
        assert_eq!(
            (z.linvel, z.angvel, z.pose),
            (Vec3::ZERO, Vec3::ZERO, Pose3::IDENTITY)
        );
    }
}
