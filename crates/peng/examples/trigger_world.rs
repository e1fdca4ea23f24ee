//! A 2D collision world with triggers: a player walks to the right through a
//! sensor zone, picks up a coin that disappears on contact, comes near a wall
//! (a margin of 0.5 around its boundary) and a beacon (a centre radius), and
//! the world reports what began, persisted and ended at every frame.
//!
//! Shown here:
//!
//! - `World2`: colliders by generation-checked handle, `update()` once a frame;
//! - sensors (`with_sensor(true)`): overlap events only, no contact manifold;
//! - `Margin::Offset(d)`: touching when the surfaces are within `d`;
//! - `Margin::CenterRadius(r)`: touching when the centres are within `r`;
//! - `EventMode::Once` (began and ended) vs `EventMode::Continuous` (also
//!   persisted every frame while touching);
//! - `with_remove_on_contact(true)`: the coin leaves the world in the update
//!   in which its first contact begins (that began event says `removed`);
//! - two watched sets (`watch(a, b, mode)`): "the player against the pickups"
//!   in once mode and "the player against the obstacles" in continuous mode;
//!   their events carry the set's id, the player first.
//!
//! The expected frames are checked with `assert!`, so the example fails if
//! the behaviour changes.
//!
//! Run it with:
//!
//! ```sh
//! cargo run -p peng --example trigger_world
//! ```

use peng::d2::*;
use peng::world::{ContactEvent, EventKind, WatchId};
use std::collections::HashMap;
use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    let mut world = World2::new();
    let at = |x: f32, y: f32| Pose2::from_translation(Vec2::new(x, y));

    // The player: a circle of radius 0.25 on the x axis, moved by hand below.
    let player = world.insert(Collider::new(Circle::new(0.25)?, at(0.0, 0.0)))?;
    // A trigger zone covering x in [2, 4]: a sensor reports overlap only.
    let zone = world
        .insert(Collider::new(Rect::new(Vec2::new(1.0, 1.0))?, at(3.0, 0.0)).with_sensor(true))?;
    // A coin that leaves the world when first touched.
    let coin = world.insert(
        Collider::new(Circle::new(0.2)?, at(6.0, 0.0))
            .with_sensor(true)
            .with_remove_on_contact(true),
    )?;
    // A thin wall at x in [9.4, 9.6] that counts as touched within 0.5 of its
    // surface (a pair's offset is the sum of both colliders' offsets; the
    // player has none). The player walks through it: these are only events.
    let wall = world.insert(
        Collider::new(Rect::new(Vec2::new(0.1, 2.0))?, at(9.5, 0.0))
            .with_margin(Margin::Offset(0.5)),
    )?;
    // A beacon above the path, at (13, 1.5), that counts as touched when the
    // centres are within 2.6 of each other, whatever the shapes: for the player
    // on the x axis that is |x - 13| <= 2.12. Its own pairs report continuously.
    let beacon = world.insert(
        Collider::new(Circle::new(0.3)?, at(13.0, 1.5))
            .with_margin(Margin::CenterRadius(2.6))
            .with_events(EventMode::Continuous),
    )?;

    // Handles are small `Copy` values: keep them to name what events report
    // (a removed collider's handle stays a valid key here, it is just stale
    // in the world: `world.get(coin)` fails after the pickup).
    let names: HashMap<ColliderHandle, &str> = [
        (player, "player"),
        (zone, "zone"),
        (coin, "coin"),
        (wall, "wall"),
        (beacon, "beacon"),
    ]
    .into();

    // Two watched sets: the player against the pickups (once: began and
    // ended) and the player against the obstacles (continuous: also persisted,
    // even for the wall, whose own pairs are in once mode).
    let pickups = world.watch(&[player], &[zone, coin], EventMode::Once);
    let obstacles = world.watch(&[player], &[wall, beacon], EventMode::Continuous);
    let set_name = |w: Option<WatchId>| match w {
        None => "own",
        Some(id) if id == pickups => "pickups",
        Some(id) if id == obstacles => "obstacles",
        Some(_) => "?",
    };

    // Frame k puts the player at x = k (a unit step per frame).
    let mut log: Vec<(u32, ContactEvent)> = Vec::new();
    for frame in 0..17u32 {
        world.set_pose(player, at(frame as f32, 0.0))?;
        // `update` returns the events of this frame, sorted (deterministic).
        for e in world.update() {
            let (a, b) = (names[&e.a], names[&e.b]);
            println!(
                "frame {frame:2}  x = {frame:2}  {:<9} {:<11} {a} - {b}{}{}",
                format!("{:?}", e.kind),
                format!("[{}]", set_name(e.watch)),
                if e.sensor { "  (sensor)" } else { "" },
                if e.removed {
                    "  (removed on contact)"
                } else {
                    ""
                },
            );
            log.push((frame, *e));
        }
    }
    println!(
        "coin still in the world: {}, colliders left: {}",
        world.contains(coin),
        world.len()
    );

    // What the log must show. Watched-set events put the set's first group
    // (the player) as A; the pair's own events put the smaller handle first.
    assert!(log.iter().all(|(_, e)| e.watch.is_none() || e.a == player));
    // `frames` lists the frames of the events of one kind between the player
    // and `other`, for one watched set (`None`: the pair's own events).
    let frames = |kind: EventKind, other, watch: Option<WatchId>| -> Vec<u32> {
        log.iter()
            .filter(|(_, e)| e.kind == kind && e.watch == watch)
            .filter(|(_, e)| (e.a, e.b) == (player, other) || (e.b, e.a) == (player, other))
            .map(|(f, _)| *f)
            .collect()
    };
    use EventKind::{Began, Ended, Persisted};
    // The zone: overlapping for x in [1.75, 4.25], so frames 2 to 4.
    assert_eq!(frames(Began, zone, Some(pickups)), [2]);
    assert_eq!(frames(Ended, zone, Some(pickups)), [5]);
    assert!(frames(Persisted, zone, Some(pickups)).is_empty()); // once mode
                                                                // The coin: picked up at frame 6 and gone from the world afterwards.
    let coin_began: Vec<_> = log
        .iter()
        .filter(|(_, e)| e.kind == Began && e.b == coin && e.watch.is_none())
        .collect();
    assert!(coin_began.len() == 1 && coin_began[0].0 == 6 && coin_began[0].1.removed);
    assert!(!world.contains(coin) && world.len() == 4);
    // The wall: its margin makes the pair touch from x = 9, before the shapes
    // meet (the player's right side at 9.25 < 9.4), until x = 10; the
    // continuous set also reports the frame in between, the wall's own
    // (once-mode) events do not.
    assert_eq!(frames(Began, wall, None), [9]);
    assert_eq!(frames(Persisted, wall, Some(obstacles)), [10]);
    assert!(frames(Persisted, wall, None).is_empty());
    assert_eq!(frames(Ended, wall, Some(obstacles)), [11]);
    // The beacon: centres within 2.6 for x in [10.88, 15.12].
    assert_eq!(frames(Began, beacon, None), [11]);
    assert_eq!(frames(Persisted, beacon, None), [12, 13, 14, 15]);
    assert_eq!(frames(Ended, beacon, None), [16]);
    Ok(())
}
