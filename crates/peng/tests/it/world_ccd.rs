//! Continuous detection in the collision world: bullets flagged `ccd` are
//! swept over each update's motion, so they never pass through thin walls.
//!
//! The main test fires 10,000 bullets of random direction at 1,000 m/s at a
//! 1 cm thick wall with a discrete step of 1/60 s (16.7 m per step): with the
//! flag every bullet reports its impact, at the closed-form time; without it
//! nearly all of them tunnel through.

use peng::ccd::CastStatus;
use peng::math::{Pose2, Pose3, Quat, Vec2, Vec3};
use peng::shape::{d2, d3};
use peng::world::{
    Collider, ColliderHandle, CollisionFilter, EventKind, QueryFilter, World2, World3, WorldError,
};

/// A small deterministic generator (xorshift64*, Vigna 2016).
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `[lo, hi)`.
    fn f(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }
}

const SPEED: f64 = 1000.0;
const DT: f64 = 1.0 / 60.0;
const WALL_HALF_THICKNESS: f64 = 0.005;
const BULLET_RADIUS: f64 = 0.002;

/// One bullet: start point, unit direction, and the closed-form time (s) at
/// which its ball first touches the wall's near face `x = -0.005`.
struct Shot {
    start: [f64; 3],
    dir: [f64; 3],
    t_hit: f64,
}

/// Bullets starting 0.05–16 m in front of the wall (so they hit within two
/// steps), aimed at it from random directions within 60° of its normal.
fn shots(n: usize, seed: u64) -> Vec<Shot> {
    let mut r = Rng(seed);
    (0..n)
        .map(|_| {
            let x0 = -r.f(0.05, 16.0);
            let start = [x0, r.f(-5.0, 5.0), r.f(-5.0, 5.0)];
            // A random direction with dx >= 0.5 (within 60 degrees of +x).
            let dir = loop {
                let d = [r.f(-1.0, 1.0), r.f(-1.0, 1.0), r.f(-1.0, 1.0)];
                let l = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                if l > 0.1 && l <= 1.0 && d[0] / l >= 0.5 {
                    break [d[0] / l, d[1] / l, d[2] / l];
                }
            };
            let gap = -WALL_HALF_THICKNESS - BULLET_RADIUS - x0;
            Shot {
                start,
                dir,
                t_hit: gap / (SPEED * dir[0]),
            }
        })
        .collect()
}

fn position(s: &Shot, t: f64) -> Vec3 {
    Vec3::new(
        (s.start[0] + s.dir[0] * SPEED * t) as f32,
        (s.start[1] + s.dir[1] * SPEED * t) as f32,
        (s.start[2] + s.dir[2] * SPEED * t) as f32,
    )
}

/// Fires the shots at the wall for `steps` discrete steps; returns, per
/// bullet, the time (s) of its began event with the wall (from the event's
/// time of impact, or the step's end when the end poses touch), or `None`.
fn fire(shots: &[Shot], ccd: bool, steps: usize, bad_normals: &mut usize) -> Vec<Option<f64>> {
    let mut world = World3::new();
    // The wall: 1 cm thick, 200 m wide and tall (every shot crosses it well
    // inside: lateral travel <= 16 m * tan 60 + 5 m).
    let wall: d3::Shape = d3::Cuboid::new(Vec3::new(WALL_HALF_THICKNESS as f32, 100.0, 100.0))
        .expect("valid wall")
        .into();
    let wall = world
        .insert(Collider::new(wall, Pose3::IDENTITY))
        .expect("wall");
    let ball: d3::Shape = d3::Ball::new(BULLET_RADIUS as f32)
        .expect("valid bullet")
        .into();
    // Bullets share a negative group: they never touch each other.
    let no_self = CollisionFilter::ALL.with_group(-1);
    let handles: Vec<ColliderHandle> = shots
        .iter()
        .map(|s| {
            let c = Collider::new(ball.clone(), Pose3::from_translation(position(s, 0.0)))
                .with_filter(no_self)
                .with_ccd(ccd);
            world.insert(c).expect("bullet")
        })
        .collect();
    assert!(world.update().is_empty(), "nothing touches at the start");
    let slot = |h: ColliderHandle| handles.binary_search(&h).ok();
    let mut hit = vec![None; shots.len()];
    for step in 0..steps {
        let t1 = (step + 1) as f64 * DT;
        for (s, &h) in shots.iter().zip(&handles) {
            world
                .set_pose(h, Pose3::from_translation(position(s, t1)))
                .expect("finite pose");
        }
        let events = world.update().to_vec();
        for e in &events {
            if e.kind != EventKind::Began || e.watch.is_some() {
                continue;
            }
            assert_eq!(e.a, wall, "only bullet-wall pairs exist");
            let i = slot(e.b).expect("a bullet");
            assert!(hit[i].is_none(), "bullet {i}: one began event only");
            let frac = e.toi.map_or(1.0, f64::from);
            hit[i] = Some((step as f64 + frac) * DT);
            if let Some(toi) = e.toi {
                assert!((0.0..=1.0).contains(&toi), "toi {toi} outside the step");
                // Past the wall at the end of the step, the manifold is the
                // contact at impact: normal from the wall to the bullet.
                let end_x = position(&shots[i], t1).x as f64;
                if end_x.abs() <= WALL_HALF_THICKNESS + BULLET_RADIUS {
                    continue; // ends inside: the end pose's own manifold
                }
                let m = &world.contact_manifolds(wall, e.b).expect("swept contact")[0];
                if m.normal.x >= -0.99 {
                    eprintln!("bullet {i}: normal {}", m.normal);
                    *bad_normals += 1;
                }
            }
        }
    }
    hit
}

#[test]
fn ten_thousand_bullets_never_tunnel_through_a_thin_wall() {
    let shots = shots(10_000, 0x5eed_b011e7);
    // Every shot reaches the wall within two steps (33 m of travel).
    assert!(shots.iter().all(|s| s.t_hit > 0.0 && s.t_hit < 2.0 * DT));
    let mut bad_normals = 0;
    let hits = fire(&shots, true, 3, &mut bad_normals);
    let mut worst_early = 0.0f64;
    for (i, (s, h)) in shots.iter().zip(&hits).enumerate() {
        let t =
            h.unwrap_or_else(|| panic!("bullet {i} tunnelled (closed-form hit at {} s)", s.t_hit));
        // Never late (beyond f32 rounding of 30 m positions: ~4 µm of
        // travel), and early by at most 1 mm of travel.
        let late = (t - s.t_hit) * SPEED;
        assert!(late <= 1e-4, "bullet {i}: impact {late} m late");
        assert!(late >= -1e-3, "bullet {i}: impact {} m early", -late);
        worst_early = worst_early.max(-late);
    }
    eprintln!("worst early report: {worst_early:e} m of travel");
    assert_eq!(bad_normals, 0, "tilted normals at impact");
}

#[test]
fn without_the_flag_the_same_bullets_tunnel() {
    // The control: a discrete check sees a bullet only if a step ends with
    // it inside the 1.4 cm band around the wall (about 0.1 % of the shots).
    let shots = shots(10_000, 0x5eed_b011e7);
    let hits = fire(&shots, false, 3, &mut 0);
    let seen = hits.iter().filter(|h| h.is_some()).count();
    assert!(seen < 100, "{seen} of 10000 seen without ccd");
}

#[test]
fn a_swept_contact_ends_at_the_next_update() {
    let mut world = World3::new();
    let wall: d3::Shape = d3::Cuboid::new(Vec3::new(0.005, 1.0, 1.0)).unwrap().into();
    let wall = world.insert(Collider::new(wall, Pose3::IDENTITY)).unwrap();
    let ball: d3::Shape = d3::Ball::new(0.1).unwrap().into();
    let b = world
        .insert(
            Collider::new(ball, Pose3::from_translation(Vec3::new(-5.0, 0.0, 0.0))).with_ccd(true),
        )
        .unwrap();
    world.update();
    world
        .set_pose(b, Pose3::from_translation(Vec3::new(5.0, 0.0, 0.0)))
        .unwrap();
    let ev = world.update().to_vec();
    assert_eq!(ev.len(), 1);
    assert_eq!((ev[0].kind, ev[0].a, ev[0].b), (EventKind::Began, wall, b));
    // First touch when the ball's surface reaches x = -0.005: the centre has
    // moved 4.895 of the 10 m.
    let toi = ev[0].toi.expect("swept");
    assert!((toi - 0.4895).abs() < 1e-4, "toi {toi}");
    assert!(world.touching_pairs().any(|p| p == (wall, b)));
    // The next update (the ball did not move) tests the end poses: apart.
    let ev = world.update().to_vec();
    assert_eq!(ev.len(), 1);
    assert_eq!((ev[0].kind, ev[0].toi), (EventKind::Ended, None));
    assert!(world.update().is_empty());
    // Moving into contact that lasts to the end pose: began, with the time
    // the surfaces met (centre at x = 0.105 after 4.895 of 4.9 m).
    world
        .set_pose(b, Pose3::from_translation(Vec3::new(0.1, 0.0, 0.0)))
        .unwrap();
    let ev = world.update().to_vec();
    assert_eq!((ev.len(), ev[0].kind), (1, EventKind::Began));
    let toi = ev[0].toi.expect("dated impact");
    assert!((toi - 4.895 / 4.9).abs() < 1e-4, "toi {toi}");
    // Deeper, then out: no new contact, and the end has no time of impact.
    world
        .set_pose(b, Pose3::from_translation(Vec3::new(0.05, 0.0, 0.0)))
        .unwrap();
    assert!(world.update().is_empty());
    world
        .set_pose(b, Pose3::from_translation(Vec3::new(9.0, 0.0, 0.0)))
        .unwrap();
    let ev = world.update().to_vec();
    assert_eq!((ev[0].kind, ev[0].toi), (EventKind::Ended, None));
}

#[test]
fn a_spinning_rod_hits_a_thin_plate_between_updates() {
    // A 2 m rod (capsule radius 0.01) along y turning about its centre by
    // 170 degrees counter-clockwise about z in one update, and a tall 1 cm
    // plate whose near face is at x = 0.595. At both end poses they are
    // apart; in between, the lower tip (sin a, -cos a) swings towards +x and
    // its cap first reaches the plate when sin a + 0.01 = 0.595.
    let mut world = World3::new();
    let plate: d3::Shape = d3::Cuboid::new(Vec3::new(0.005, 2.0, 0.5)).unwrap().into();
    let plate = world
        .insert(Collider::new(
            plate,
            Pose3::from_translation(Vec3::new(0.6, 0.0, 0.0)),
        ))
        .unwrap();
    let rod: d3::Shape =
        d3::Capsule::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 0.01)
            .unwrap()
            .into();
    let r = world
        .insert(Collider::new(rod, Pose3::IDENTITY).with_ccd(true))
        .unwrap();
    world.update();
    // Turn by 170 degrees about z (the shortest turn is this one).
    let turned = Pose3::new(Vec3::ZERO, Quat::from_rotation_z(170f32.to_radians()));
    world.set_pose(r, turned).unwrap();
    let ev = world.update().to_vec();
    assert_eq!(ev.len(), 1, "{ev:?}");
    let toi = ev[0].toi.expect("swept contact");
    let a = 0.585f32.asin();
    let expected = a / 170f32.to_radians();
    assert!(toi <= expected + 1e-4, "late: {toi} vs {expected}");
    assert!(toi >= expected - 0.01, "early: {toi} vs {expected}");
    assert_eq!(ev[0].a, plate);
}

#[test]
fn bullets_in_2d_and_sensors_are_swept_too() {
    let mut world = World2::new();
    let wall: d2::Shape = d2::Rect::new(Vec2::new(0.005, 2.0)).unwrap().into();
    let wall = world
        .insert(Collider::new(wall, Pose2::IDENTITY).with_sensor(true))
        .unwrap();
    let ball: d2::Shape = d2::Circle::new(0.01).unwrap().into();
    let b = world
        .insert(Collider::new(ball, Pose2::from_translation(Vec2::new(-3.0, 0.5))).with_ccd(true))
        .unwrap();
    world.update();
    world
        .set_pose(b, Pose2::from_translation(Vec2::new(5.0, -0.5)))
        .unwrap();
    let ev = world.update().to_vec();
    assert_eq!(ev.len(), 1);
    assert!(ev[0].sensor);
    // The circle reaches x = -0.015 after 2.985 of 8 m.
    let toi = ev[0].toi.expect("swept");
    assert!((toi - 2.985 / 8.0).abs() < 1e-4, "toi {toi}");
    assert!(world.contact_manifolds(wall, b).unwrap().is_empty());
}

#[test]
fn cast_shape_finds_the_first_collider_on_the_way() {
    let mut world = World3::new();
    let cube: d3::Shape = d3::Cuboid::new(Vec3::splat(0.5)).unwrap().into();
    let near = world
        .insert(Collider::new(
            cube.clone(),
            Pose3::from_translation(Vec3::new(3.0, 0.0, 0.0)),
        ))
        .unwrap();
    let far = world
        .insert(Collider::new(
            cube.clone(),
            Pose3::from_translation(Vec3::new(6.0, 0.0, 0.0)),
        ))
        .unwrap();
    let ball: d3::Shape = d3::Ball::new(0.5).unwrap().into();
    let (h, hit) = world
        .cast_shape(
            &ball,
            &Pose3::IDENTITY,
            Vec3::new(2.0, 0.0, 0.0),
            10.0,
            QueryFilter::new(),
        )
        .unwrap()
        .expect("hit");
    // Surfaces meet when the ball's centre reaches x = 2: after 1 s at 2 m/s.
    assert_eq!(h, near);
    assert!((hit.time - 1.0).abs() < 1e-4, "time {}", hit.time);
    assert_eq!(hit.status, CastStatus::Hit);
    assert!((hit.normal - Vec3::X).length() < 1e-3);
    // Excluding the near cube finds the far one at 2.5 s; too short a cast
    // finds nothing.
    let ex = [near];
    let (h, hit) = world
        .cast_shape(
            &ball,
            &Pose3::IDENTITY,
            Vec3::X * 2.0,
            10.0,
            QueryFilter::new().excluding(&ex),
        )
        .unwrap()
        .expect("hit");
    assert_eq!(h, far);
    assert!((hit.time - 2.5).abs() < 1e-4, "time {}", hit.time);
    assert!(world
        .cast_shape(
            &ball,
            &Pose3::IDENTITY,
            Vec3::X * 2.0,
            0.9,
            QueryFilter::new()
        )
        .unwrap()
        .is_none());
    // Starting inside: time 0, penetrating.
    let (h, hit) = world
        .cast_shape(
            &ball,
            &Pose3::from_translation(Vec3::new(2.8, 0.0, 0.0)),
            Vec3::X,
            1.0,
            QueryFilter::new(),
        )
        .unwrap()
        .expect("overlap");
    assert_eq!(
        (h, hit.time, hit.status),
        (near, 0.0, CastStatus::Penetrating)
    );
    // Bad input names what is wrong.
    let nan = Vec3::new(f32::NAN, 0.0, 0.0);
    assert_eq!(
        world.cast_shape(&ball, &Pose3::IDENTITY, nan, 1.0, QueryFilter::new()),
        Err(WorldError::NonFiniteQuery("cast velocity"))
    );
    assert_eq!(
        world.cast_shape(&ball, &Pose3::IDENTITY, Vec3::X, -1.0, QueryFilter::new()),
        Err(WorldError::NegativeQueryLength("cast time", -1.0))
    );
}
