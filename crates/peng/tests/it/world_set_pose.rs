//! `World::set_placement` against `World::modify` setting the same pose,
//! margin and displacement: the same events, contacts and errors, move after move.
//! `World::set_placements` checks every placement before it applies any.

use crate::broad_common::Lcg;
use peng::math::{Pose3, Quat, Vec3};
use peng::shape::d3::{Ball, Cuboid, Shape};
use peng::world::{Collider, ColliderHandle, Dim3, Margin, World};

/// Uniform in `[lo, hi)`.
fn range(r: &mut Lcg, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * r.f()
}

/// Uniform in `0..n`.
fn below(r: &mut Lcg, n: u32) -> u32 {
    ((r.f() * n as f32) as u32).min(n - 1)
}

fn shape(i: usize) -> Shape {
    if i.is_multiple_of(2) {
        Ball::new(0.5).expect("radius").into()
    } else {
        Cuboid::new(Vec3::splat(0.4)).expect("half extents").into()
    }
}

#[test]
fn set_placement_matches_modify() {
    let mut rng = Lcg(0x2545_f491_4f6c_dd1d);
    let (mut fast, mut slow) = (World::<Dim3>::new(), World::<Dim3>::new());
    for w in [&mut fast, &mut slow] {
        w.set_manifold_reuse(Some(0.01)).expect("tolerance");
    }
    let mut handles: Vec<ColliderHandle> = Vec::new();
    for i in 0..40 {
        let p = Pose3::from_translation(Vec3::new(
            range(&mut rng, 0.0, 6.0),
            range(&mut rng, 0.0, 6.0),
            range(&mut rng, 0.0, 6.0),
        ));
        let h = fast.insert(Collider::new(shape(i), p)).expect("insert");
        assert_eq!(slow.insert(Collider::new(shape(i), p)).expect("insert"), h);
        handles.push(h);
    }
    for round in 0..60 {
        for &h in &handles {
            if below(&mut rng, 3) != 0 {
                continue;
            }
            let old = fast.get(h).expect("live").pose;
            let d = Vec3::new(
                range(&mut rng, -0.3, 0.3),
                range(&mut rng, -0.3, 0.3),
                range(&mut rng, -0.3, 0.3),
            );
            let turn = Quat::from_rotation_y(range(&mut rng, -0.2, 0.2));
            let mut pose = Pose3::new(old.translation + d, turn * old.rotation);
            let margin = match below(&mut rng, 8) {
                0 => Margin::None,
                1 => Margin::CenterRadius(range(&mut rng, 0.0, 0.2)),
                2 => Margin::Offset(-1.0),
                3 => {
                    pose.translation.x = f32::NAN;
                    Margin::None
                }
                _ => Margin::Offset(range(&mut rng, 0.0, 0.1)),
            };
            let mut motion = Vec3::ZERO;
            if below(&mut rng, 2) == 0 {
                motion.x = range(&mut rng, -0.2, 0.2);
            }
            if below(&mut rng, 40) == 0 {
                motion.y = f32::INFINITY;
            }
            let a = fast.set_placement(h, pose, margin, motion);
            let b = slow.modify(h, |c| {
                c.pose = pose;
                c.margin = margin;
                c.displacement = motion;
            });
            assert_eq!(a, b, "round {round}: the same answer");
            let (cf, cs) = (fast.get(h).expect("live"), slow.get(h).expect("live"));
            assert_eq!(
                (cf.pose, cf.margin, cf.displacement),
                (cs.pose, cs.margin, cs.displacement)
            );
        }
        let ef: Vec<_> = fast.update().to_vec();
        let es: Vec<_> = slow.update().to_vec();
        assert_eq!(ef, es, "round {round}: the same events");
        let touching = |w: &World<Dim3>| -> Vec<_> {
            w.touching_contacts()
                .map(|(a, b, ms)| (a, b, ms.iter().map(|m| m.depth()).collect::<Vec<_>>()))
                .collect()
        };
        assert_eq!(touching(&fast), touching(&slow), "round {round}");
    }
    // A stale handle is refused, and nothing changes.
    let gone = handles[0];
    fast.remove(gone).expect("live");
    assert!(fast
        .set_placement(gone, Pose3::IDENTITY, Margin::None, Vec3::ZERO)
        .is_err());
}

/// `set_placements` checks every placement before it applies any: a bad
/// one anywhere in the list (NaN displacement, stale handle) is refused,
/// naming it, and leaves the good ones before it unplaced.
#[test]
fn set_placements_is_all_or_nothing() {
    let mut w = World::<Dim3>::new();
    let a = w
        .insert(Collider::new(shape(0), Pose3::IDENTITY))
        .expect("valid");
    let b = w
        .insert(Collider::new(
            shape(1),
            Pose3::from_translation(Vec3::X * 3.0),
        ))
        .expect("valid");
    let moved = Pose3::from_translation(Vec3::Y);
    let snapshot = |w: &World<Dim3>| {
        [a, b].map(|h| {
            let c = w.get(h).expect("live");
            (c.pose, c.margin, c.displacement)
        })
    };
    let before = snapshot(&w);
    let nan = Vec3::new(f32::NAN, 0.0, 0.0);
    let bad = [
        (a, moved, Margin::Offset(0.1), Vec3::ZERO),
        (b, moved, Margin::None, nan),
    ];
    assert!(matches!(
        w.set_placements(&bad),
        Err(peng::world::WorldError::NonFiniteDisplacement)
    ));
    assert_eq!(snapshot(&w), before);
    let gone = w
        .insert(Collider::new(shape(0), Pose3::IDENTITY))
        .expect("valid");
    w.remove(gone).expect("live");
    let stale = [
        (a, moved, Margin::None, Vec3::ZERO),
        (gone, moved, Margin::None, Vec3::ZERO),
    ];
    assert!(matches!(
        w.set_placements(&stale),
        Err(peng::world::WorldError::StaleHandle(h)) if h == gone
    ));
    assert_eq!(snapshot(&w), before);
    // All good: all placed.
    let good = [
        (a, moved, Margin::Offset(0.1), Vec3::X),
        (b, moved, Margin::None, Vec3::ZERO),
    ];
    w.set_placements(&good).expect("valid");
    assert_eq!(w.get(a).expect("live").pose, moved);
    assert_eq!(w.get(a).expect("live").displacement, Vec3::X);
    assert_eq!(w.get(b).expect("live").pose, moved);
}
