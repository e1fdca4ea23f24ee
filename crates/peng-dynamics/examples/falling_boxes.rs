//! A small physics scene: a stack of three boxes, a few boxes and balls
//! dropped from a height (one box tumbling), on a static ground, in 3D; and
//! the same idea in 2D. After 2 simulated seconds every body must rest on the
//! ground or on the box below it: the example checks positions, speeds and
//! (for the tumbling box) that it lies flat, with `assert!`.
//!
//! Shown here: `PhysicsWorld3` / `PhysicsWorld2` with their defaults (Earth
//! gravity, 60 Hz steps, 4 substeps), `BodyDesc::fixed` / `dynamic` with an
//! initial spin, `ColliderDesc` with friction and restitution, `step()`, the
//! contact events of a step and sleeping.
//!
//! Run it with:
//!
//! ```sh
//! cargo run -p peng-dynamics --example falling_boxes
//! ```

use peng::d3::{Ball, Cuboid, Pose3, Quat, Vec3};
use peng_dynamics::{BodyDesc, BodyHandle, ColliderDesc, PhysicsWorld2, PhysicsWorld3};
use std::error::Error;

/// Two seconds at the default 60 steps per second.
const STEPS: usize = 120;

/// A dynamic body and the height its centre should come to rest at.
struct Expect {
    name: &'static str,
    body: BodyHandle,
    rest_y: f32,
}

fn main() -> Result<(), Box<dyn Error>> {
    scene_3d()?;
    scene_2d()?;
    Ok(())
}

fn scene_3d() -> Result<(), Box<dyn Error>> {
    let mut world = PhysicsWorld3::new();
    let dt = world.settings().dt;

    // The ground: a fixed slab whose top face is the plane y = 0.
    let ground = world.add_body(BodyDesc::fixed(Pose3::from_translation(Vec3::new(
        0.0, -0.5, 0.0,
    ))));
    world.add_collider(
        ground,
        ColliderDesc::new(Cuboid::new(Vec3::new(10.0, 0.5, 10.0))?),
    )?;

    let cube = Cuboid::new(Vec3::splat(0.25))?; // 0.5 m boxes
    let mut expect = Vec::new();
    let mut add = |world: &mut PhysicsWorld3, name, desc: BodyDesc<_>, collider, rest_y| {
        let body = world.add_body(desc);
        world.add_collider(body, collider)?;
        expect.push(Expect { name, body, rest_y });
        Ok::<_, Box<dyn Error>>(())
    };
    // A stack of three boxes, placed touching.
    for (i, name) in ["stack 1", "stack 2", "stack 3"].into_iter().enumerate() {
        let y = 0.25 + 0.5 * i as f32;
        let desc = BodyDesc::dynamic(Pose3::from_translation(Vec3::new(-2.0, y, 0.0)));
        add(&mut world, name, desc, ColliderDesc::new(cube), y)?;
    }
    // Boxes dropped from 1 m and 2 m, one of them tilted and spinning.
    let desc = BodyDesc::dynamic(Pose3::from_translation(Vec3::new(0.0, 1.25, 0.0)));
    add(&mut world, "box", desc, ColliderDesc::new(cube), 0.25)?;
    let tilted = Pose3::new(
        Vec3::new(1.5, 2.25, 0.0),
        Quat::from_rotation_z(0.6) * Quat::from_rotation_x(0.3),
    );
    let desc = BodyDesc::dynamic(tilted).with_angvel(Vec3::new(0.0, 2.0, 1.0));
    add(
        &mut world,
        "tumbling box",
        desc,
        ColliderDesc::new(cube),
        0.25,
    )?;
    // Balls: one that does not bounce, one that bounces (restitution 0.5:
    // each bounce a quarter as high as the one before, until the impact speed
    // falls below the restitution threshold).
    let ball = Ball::new(0.2)?;
    let desc = BodyDesc::dynamic(Pose3::from_translation(Vec3::new(0.0, 1.0, 2.0)));
    add(&mut world, "ball", desc, ColliderDesc::new(ball), 0.2)?;
    let desc = BodyDesc::dynamic(Pose3::from_translation(Vec3::new(1.5, 1.0, 2.0)));
    let bouncy = ColliderDesc::new(ball).with_restitution(0.5);
    add(&mut world, "bouncy ball", desc, bouncy, 0.2)?;

    // Step two seconds; count the contacts that begin along the way.
    let mut began = 0;
    for _ in 0..STEPS {
        world.step()?;
        began += world
            .contact_events()
            .iter()
            .filter(|e| e.kind == peng::world::EventKind::Began)
            .count();
    }
    println!(
        "3D: {} bodies after {:.1} s ({} steps), {began} contacts began",
        world.body_count(),
        STEPS as f32 * dt,
        world.step_count()
    );
    for e in &expect {
        let b = world.body(e.body).ok_or("body vanished")?;
        let p = b.pose.translation;
        println!(
            "  {:<14} at [{:+.3}, {:.3}, {:+.3}], speed {:.4} m/s, spin {:.4} rad/s{}",
            e.name,
            p.x,
            p.y,
            p.z,
            b.linvel.length(),
            b.angvel.length(),
            if b.is_sleeping() { ", asleep" } else { "" }
        );
        // At rest, on the ground or on the box below: within 1.5 cm of the
        // resting height (soft contacts settle into a few millimetres of
        // overlap under load), and still.
        assert!(
            (p.y - e.rest_y).abs() < 0.015,
            "{} should rest at y = {}, is at {}",
            e.name,
            e.rest_y,
            p.y
        );
        assert!(b.linvel.length() < 0.05, "{} still moves", e.name);
        assert!(b.angvel.length() < 0.1, "{} still turns", e.name);
    }
    // The tumbling box lies flat: one of its axes points straight up.
    let tumbling = expect.iter().find(|e| e.name == "tumbling box");
    let b = world
        .body(tumbling.ok_or("no tumbling box")?.body)
        .ok_or("body vanished")?;
    let r = b.pose.rotation;
    let up = [Vec3::X, Vec3::Y, Vec3::Z]
        .map(|a| (r * a).y.abs())
        .into_iter()
        .fold(0.0f32, f32::max);
    println!("  the tumbling box's most upright axis: |y| = {up:.5}");
    assert!(up > 0.999, "the tumbling box should lie on a face");
    Ok(())
}

/// The same in the plane: a stack of two squares and a dropped circle.
fn scene_2d() -> Result<(), Box<dyn Error>> {
    use peng::d2::{Circle, Pose2, Rect, Vec2};
    let mut world = PhysicsWorld2::new();
    let ground = world.add_body(BodyDesc::fixed(Pose2::from_translation(Vec2::new(
        0.0, -0.5,
    ))));
    world.add_collider(ground, ColliderDesc::new(Rect::new(Vec2::new(10.0, 0.5))?))?;
    let square = Rect::new(Vec2::splat(0.25))?;
    let mut bodies = Vec::new();
    let squares = [
        ("bottom square", 0.0, 0.25, 0.25),
        ("top square", 0.0, 0.75, 0.75),
        ("dropped square", 1.0, 2.0, 0.25),
    ];
    for (name, x, y, rest) in squares {
        let b = world.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(x, y))));
        world.add_collider(b, ColliderDesc::new(square))?;
        bodies.push((name, b, rest));
    }
    let b = world.add_body(BodyDesc::dynamic(Pose2::from_translation(Vec2::new(
        -1.0, 1.5,
    ))));
    world.add_collider(b, ColliderDesc::new(Circle::new(0.2)?))?;
    bodies.push(("circle", b, 0.2));
    for _ in 0..STEPS {
        world.step()?;
    }
    println!("2D: {} bodies after 2 s", world.body_count());
    for (name, h, rest) in bodies {
        let b = world.body(h).ok_or("body vanished")?;
        let p = b.pose.translation;
        println!(
            "  {name:<14} at [{:+.3}, {:.3}], speed {:.4} m/s{}",
            p.x,
            p.y,
            b.linvel.length(),
            if b.is_sleeping() { ", asleep" } else { "" }
        );
        assert!((p.y - rest).abs() < 0.015 && b.linvel.length() < 0.05);
    }
    Ok(())
}
