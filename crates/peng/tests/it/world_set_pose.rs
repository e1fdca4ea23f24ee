//! `World::set_pose_and_margin` against `World::modify` setting the same
//! pose and margin: the same events, contacts and errors, move after move.

use peng::math::{Pose3, Quat, Vec3};
use peng::shape::d3::{Ball, Cuboid, Shape};
use peng::world::{Collider, ColliderHandle, Dim3, Margin, World};

/// A small xorshift generator for reproducible moves.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() % 1_000_000) as f32 / 1_000_000.0
    }
}

fn shape(i: usize) -> Shape {
    if i.is_multiple_of(2) {
        Ball::new(0.5).expect("radius").into()
    } else {
        Cuboid::new(Vec3::splat(0.4)).expect("half extents").into()
    }
}

#[test]
fn set_pose_and_margin_matches_modify() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut fast, mut slow) = (World::<Dim3>::new(), World::<Dim3>::new());
    for w in [&mut fast, &mut slow] {
        w.set_manifold_reuse(Some(0.01)).expect("tolerance");
    }
    let mut handles: Vec<ColliderHandle> = Vec::new();
    for i in 0..40 {
        let p = Pose3::from_translation(Vec3::new(
            rng.range(0.0, 6.0),
            rng.range(0.0, 6.0),
            rng.range(0.0, 6.0),
        ));
        let h = fast.insert(Collider::new(shape(i), p)).expect("insert");
        assert_eq!(slow.insert(Collider::new(shape(i), p)).expect("insert"), h);
        handles.push(h);
    }
    for round in 0..60 {
        for &h in &handles {
            if !rng.next().is_multiple_of(3) {
                continue;
            }
            let old = fast.get(h).expect("live").pose;
            let d = Vec3::new(
                rng.range(-0.3, 0.3),
                rng.range(-0.3, 0.3),
                rng.range(-0.3, 0.3),
            );
            let turn = Quat::from_rotation_y(rng.range(-0.2, 0.2));
            let mut pose = Pose3::new(old.translation + d, turn * old.rotation);
            let margin = match rng.next() % 8 {
                0 => Margin::None,
                1 => Margin::CenterRadius(rng.range(0.0, 0.2)),
                2 => Margin::Offset(-1.0),
                3 => {
                    pose.translation.x = f32::NAN;
                    Margin::None
                }
                _ => Margin::Offset(rng.range(0.0, 0.1)),
            };
            let a = fast.set_pose_and_margin(h, pose, margin);
            let b = slow.modify(h, |c| {
                c.pose = pose;
                c.margin = margin;
            });
            assert_eq!(a, b, "round {round}: the same answer");
            let (cf, cs) = (fast.get(h).expect("live"), slow.get(h).expect("live"));
            assert_eq!((cf.pose, cf.margin), (cs.pose, cs.margin));
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
        .set_pose_and_margin(gone, Pose3::IDENTITY, Margin::None)
        .is_err());
}
