//! `World::set_poses_and_margins` leaves the world as the same moves made
//! one by one through `modify` would (each one that changes something): the same events, touching pairs and
//! colliders, with many moves (planned on the threads) and few, handles
//! listed twice, margins that become or stop being a centre radius,
//! bullets and unchanged entries; and a bad entry changes nothing.

use peng::math::{Pose3, Quat, Vec3};
use peng::shape::d3;
use peng::world::{Collider, ColliderHandle, EventKind, Margin, World3, WorldError};

use crate::mesh_common::Rng;

/// `n` colliders of mixed shapes in a cube of side `extent`, some of them
/// bullets, built the same way from the same seed.
fn world(seed: u64, n: usize, extent: f32) -> (World3, Vec<ColliderHandle>) {
    let mut r = Rng(seed);
    let mut w = World3::new();
    let hs = (0..n)
        .map(|_| {
            let shape: d3::Shape = match r.below(3) {
                0 => d3::Ball::new(r.range(0.2, 0.8)).expect("ball").into(),
                1 => d3::Cuboid::new(r.v3(0.2, 0.6)).expect("cuboid").into(),
                _ => d3::Capsule::new(Vec3::ZERO, r.v3(-0.5, 0.5), r.range(0.1, 0.4))
                    .expect("capsule")
                    .into(),
            };
            let c = Collider::new(shape, pose(&mut r, extent))
                .with_margin(margin(&mut r, false))
                .with_ccd(r.below(10) == 0);
            w.insert(c).expect("insert")
        })
        .collect();
    (w, hs)
}

fn pose(r: &mut Rng, extent: f32) -> Pose3 {
    let q = Quat::from_scaled_axis(r.v3(-3.0, 3.0));
    Pose3::new(r.v3(0.0, extent), q)
}

/// No margin, an offset, or (when `radius`) rarely a centre radius.
fn margin(r: &mut Rng, radius: bool) -> Margin {
    match r.below(20) {
        0 if radius => Margin::CenterRadius(r.range(0.5, 1.5)),
        0..=9 => Margin::None,
        _ => Margin::Offset(r.range(0.0, 0.1)),
    }
}

/// Moves for a random half of `hs`, some listed twice, some to where they
/// already are.
fn moves(
    r: &mut Rng,
    w: &World3,
    hs: &[ColliderHandle],
    extent: f32,
    radius: bool,
) -> Vec<(ColliderHandle, Pose3, Margin)> {
    let mut out = Vec::new();
    for &h in hs {
        match r.below(8) {
            0..=3 => {}
            4 => {
                let c = w.get(h).expect("live");
                out.push((h, c.pose, c.margin));
            }
            5 => {
                out.push((h, pose(r, extent), margin(r, radius)));
                out.push((h, pose(r, extent), margin(r, radius)));
            }
            _ => {
                // A small move, as a physics step makes.
                let c = w.get(h).expect("live");
                let p = Pose3::new(c.pose.translation + r.v3(-0.05, 0.05), c.pose.rotation);
                out.push((h, p, margin(r, radius)));
            }
        }
    }
    out
}

type Brief = (EventKind, ColliderHandle, ColliderHandle);

/// Whether an error is the expected one.
type IsError = fn(&WorldError) -> bool;

fn events(w: &mut World3) -> Vec<Brief> {
    w.update().iter().map(|e| (e.kind, e.a, e.b)).collect()
}

/// Every touching pair with its manifolds' point counts.
fn touching(w: &World3) -> Vec<(ColliderHandle, ColliderHandle, Vec<usize>)> {
    w.touching_contacts()
        .map(|(a, b, ms)| (a, b, ms.iter().map(|m| m.points().len()).collect()))
        .collect()
}

fn same_as_one_by_one(seed: u64, n: usize, extent: f32, rounds: usize, radius: bool) {
    let (mut batch, hs) = world(seed, n, extent);
    let (mut single, hs2) = world(seed, n, extent);
    assert_eq!(hs, hs2);
    assert_eq!(events(&mut batch), events(&mut single));
    let mut r = Rng(seed ^ 0xabcd);
    let mut began = 0;
    for round in 0..rounds {
        let m = moves(&mut r, &batch, &hs, extent, radius);
        batch.set_poses_and_margins(&m).expect("valid moves");
        for &(h, p, mg) in &m {
            let c = single.get(h).expect("live");
            if (c.pose, c.margin) != (p, mg) {
                single
                    .modify(h, |c| {
                        c.pose = p;
                        c.margin = mg;
                    })
                    .expect("valid move");
            }
        }
        let (eb, es) = (events(&mut batch), events(&mut single));
        if eb != es {
            let d = eb.iter().zip(&es).position(|(x, y)| x != y);
            panic!(
                "round {round}: {} vs {} events, first difference at {d:?}: {:?} vs {:?}",
                eb.len(),
                es.len(),
                d.map(|i| eb[i]),
                d.map(|i| es[i])
            );
        }
        began += eb.iter().filter(|e| e.0 == EventKind::Began).count();
        assert_eq!(touching(&batch), touching(&single), "round {round}");
        for &h in &hs {
            let (cb, cs) = (batch.get(h).expect("live"), single.get(h).expect("live"));
            assert_eq!((cb.pose, cb.margin), (cs.pose, cs.margin));
        }
        batch
            .broad_phase()
            .check_invariants()
            .expect("tree invariants");
    }
    assert!(
        began > 0,
        "the moves made no contact: the test tests nothing"
    );
}

#[test]
fn many_moves_match_one_by_one() {
    same_as_one_by_one(1, 600, 12.0, 6, false);
}

#[test]
fn few_moves_and_centre_radii_match_one_by_one() {
    same_as_one_by_one(2, 60, 5.0, 6, false);
    same_as_one_by_one(3, 600, 12.0, 4, true);
}

/// A bad entry anywhere in the list fails the call with its error, and no
/// collider moves.
#[test]
fn a_bad_entry_changes_nothing() {
    let (mut w, mut hs) = world(4, 400, 10.0);
    let gone = hs.remove(7);
    w.remove(gone).expect("live");
    w.update();
    let before: Vec<_> = hs
        .iter()
        .map(|&h| w.get(h).map(|c| (c.pose, c.margin)).expect("live"))
        .collect();
    let mut r = Rng(5);
    let mut m = moves(&mut r, &w, &hs, 10.0, false);
    let good = m.clone();
    // Beyond the broad phase's coordinate limit, 1e18.
    let far = Pose3::from_translation(Vec3::new(0.0, 1e20, 0.0));
    let mut nan = far;
    nan.translation.x = f32::NAN;
    let bad: [(ColliderHandle, Pose3, Margin, IsError); 4] = [
        (hs[3], nan, Margin::None, |e| {
            matches!(e, WorldError::NonFinitePose)
        }),
        (hs[3], far, Margin::None, |e| {
            matches!(e, WorldError::TooFar(..))
        }),
        (hs[3], before[3].0, Margin::Offset(-1.0), |e| {
            matches!(e, WorldError::InvalidMargin(_))
        }),
        (gone, before[7].0, Margin::None, |e| {
            matches!(e, WorldError::StaleHandle(_))
        }),
    ];
    for (h, p, mg, is) in bad {
        m.insert(m.len() / 2, (h, p, mg));
        let e = w.set_poses_and_margins(&m).expect_err("a bad entry");
        assert!(is(&e), "{e:?}");
        m.clone_from(&good);
        for (k, &h) in hs.iter().enumerate() {
            let c = w.get(h).expect("live");
            assert_eq!((c.pose, c.margin), before[k], "collider {k} moved");
        }
    }
    // The next update is that of the same world left alone.
    let (mut twin, _) = world(4, 400, 10.0);
    twin.remove(gone).expect("live");
    twin.update();
    assert_eq!(events(&mut w), events(&mut twin));
    assert_eq!(touching(&w), touching(&twin));
}
