//! Continuous collision detection: a small fast ball against a thin wall.
//!
//! A 5 cm ball flies at 120 m/s towards a 2 cm wall; at 60 frames per second
//! it moves 2 m per frame, so at every frame it is clear of the wall: first
//! on one side, then on the other. A discrete test at the frames never sees
//! the hit. The shape cast (`cast_linear`) of the ball over each frame's
//! motion finds the time of impact, and so does the collision world for a
//! collider flagged `with_ccd(true)` (a "bullet"), while the same collider
//! without the flag passes through unseen. `World::cast_shape` asks the world
//! the same question for a shape that is not in it.
//!
//! The closed-form time of impact is checked with `assert!`, so the example
//! fails if the behaviour changes.
//!
//! Run it with:
//!
//! ```sh
//! cargo run -p peng --example bullets_ccd
//! ```

use peng::d3::*;
use peng::world::EventKind;
use std::error::Error;

/// Frame time (s).
const DT: f32 = 1.0 / 60.0;
/// The ball's speed along +x (m/s): 2 m per frame.
const SPEED: f32 = 120.0;
/// The ball's radius and the wall's half thickness (m).
const RADIUS: f32 = 0.05;
const HALF_THICKNESS: f32 = 0.01;
/// Where the ball starts, on the x axis (m).
const START_X: f32 = -3.0;

/// The ball's pose at frame `k` (frame `k` is at time `k * DT`), offset by
/// `z` sideways so that two balls can fly side by side.
fn ball_pose(k: u32, z: f32) -> Pose3 {
    Pose3::from_translation(Vec3::new(START_X + SPEED * DT * k as f32, 0.0, z))
}

fn main() -> Result<(), Box<dyn Error>> {
    let ball: Shape = Ball::new(RADIUS)?.into();
    // The wall: the plane x = 0, 2 cm thick, 4 m x 4 m.
    let wall: Shape = Cuboid::new(Vec3::new(HALF_THICKNESS, 2.0, 2.0))?.into();
    let wall_pose = Pose3::IDENTITY;
    let velocity = Vec3::new(SPEED, 0.0, 0.0);

    // The time the ball's surface meets the wall's near face, in closed form:
    // the centre reaches x = -(HALF_THICKNESS + RADIUS).
    let t_exact = (-(HALF_THICKNESS + RADIUS) - START_X) / SPEED;
    println!(
        "ball r = {RADIUS} m at {SPEED} m/s ({} m per frame), wall {} m thick; exact impact at t = {:.5} s",
        SPEED * DT,
        2.0 * HALF_THICKNESS,
        t_exact
    );

    // 1. Discrete tests at the frames: the ball is never in contact.
    let mut discrete_hits = 0;
    let mut cast_toi = None;
    for k in 0..4u32 {
        let pose = ball_pose(k, 0.0);
        let d = distance(&ball, &pose, &wall, &wall_pose);
        let touching = intersects(&ball, &pose, &wall, &wall_pose);
        println!(
            "frame {k}: ball at x = {:+.2}, distance to the wall {:.3} m, overlap: {touching}",
            pose.translation.x, d.distance
        );
        discrete_hits += touching as u32;

        // 2. The shape cast over this frame's motion: the ball translates by
        //    `velocity * DT` per unit of cast time, the wall stands still.
        //    `time` is the fraction of the frame at impact.
        if cast_toi.is_none() {
            if let Some(hit) = cast_linear(
                &ball,
                &pose,
                velocity * DT,
                &wall,
                &wall_pose,
                Vec3::ZERO,
                &CastOptions::default(),
            ) {
                let t = (k as f32 + hit.time) * DT;
                println!(
                    "         cast over frame {k} -> {}: hit at {:.4} of the frame (t = {t:.5} s), \
                     {:?}, normal {:.3}, on ball {:.3}, on wall {:.3}",
                    k + 1,
                    hit.time,
                    hit.status,
                    hit.normal,
                    hit.point_a,
                    hit.point_b
                );
                assert_eq!(hit.status, CastStatus::Hit);
                assert!(
                    (hit.normal - Vec3::X).length() < 1e-3,
                    "from the ball to the wall"
                );
                cast_toi = Some(t);
            }
        }
    }
    let cast_toi = cast_toi.ok_or("the cast missed the wall")?;
    println!("discrete overlaps found: {discrete_hits}; cast time of impact: {cast_toi:.5} s");
    assert_eq!(discrete_hits, 0, "the discrete test should miss this wall");
    assert!((cast_toi - t_exact).abs() < 1e-5);

    // 3. The collision world: two balls side by side, one flagged as a bullet.
    //    Each update sweeps a ccd collider from its previous pose to the new
    //    one; a pair met on the way begins touching in that update (the
    //    event's `toi` is the fraction of the motion) and ends at the next.
    let mut world = World3::new();
    let wall_h = world.insert(Collider::new(wall.clone(), wall_pose))?;
    let bullet = world.insert(Collider::new(ball.clone(), ball_pose(0, -0.5)).with_ccd(true))?;
    let plain = world.insert(Collider::new(ball.clone(), ball_pose(0, 0.5)))?;
    let mut bullet_toi = None;
    let mut plain_events = 0;
    for k in 0..4u32 {
        world.set_pose(bullet, ball_pose(k, -0.5))?;
        world.set_pose(plain, ball_pose(k, 0.5))?;
        // `update` borrows the world mutably; `events()` gives the same list
        // through a shared borrow, so the world can be queried in the loop.
        world.update();
        for e in world.events() {
            let who = if e.a == bullet || e.b == bullet {
                "bullet (ccd)"
            } else {
                "plain ball"
            };
            println!(
                "world frame {k}: {:?} {who} - wall, toi {:?}",
                e.kind, e.toi
            );
            if e.a == plain || e.b == plain {
                plain_events += 1;
            } else if e.kind == EventKind::Began {
                bullet_toi = e.toi.map(|f| ((k - 1) as f32 + f) * DT);
                // The manifold kept for the pair is the contact at impact.
                if let Some(ms) = world.contact_manifolds(wall_h, bullet) {
                    let m = ms.first().ok_or("no manifold")?;
                    // (From the smaller handle, the wall, to the ball.)
                    println!("               manifold at impact: normal {:.3}", m.normal);
                }
            }
        }
    }
    let bullet_toi = bullet_toi.ok_or("the world did not report the bullet")?;
    println!("world: bullet hit at t = {bullet_toi:.5} s; plain ball events: {plain_events}");
    assert!((bullet_toi - t_exact).abs() < 1e-4);
    assert_eq!(plain_events, 0, "without ccd the ball tunnels through");

    // 4. A scene query: which collider would a ball meet moving from the start
    //    with this velocity for 4 frames? (`max_time` in the units of `vel`.)
    let probe = ball_pose(0, 0.0);
    let (h, hit) = world
        .cast_shape(&ball, &probe, velocity, 4.0 * DT, QueryFilter::new())?
        .ok_or("cast_shape found nothing")?;
    println!(
        "world.cast_shape: first meets {} at t = {:.5} s, normal {:.3}",
        if h == wall_h { "the wall" } else { "a ball" },
        hit.time,
        hit.normal
    );
    assert!(h == wall_h && (hit.time - t_exact).abs() < 1e-5);
    Ok(())
}
