//! Compounds: one manifold per touching part pair (task contact3).

use peng::d3::*;

fn cube(h: f32) -> Shape {
    Cuboid::new(Vec3::splat(h)).unwrap().into()
}

fn at(x: f32, y: f32, z: f32) -> Pose3 {
    Pose3::from_translation(Vec3::new(x, y, z))
}

fn dumbbell() -> Shape {
    Compound::new(vec![
        (at(-1.0, 0.0, 0.0), cube(0.5)),
        (at(1.0, 0.1, 0.0), cube(0.5)),
        (at(0.0, 3.0, 0.0), Ball::new(0.2).unwrap().into()),
    ])
    .unwrap()
    .into()
}

#[test]
fn compound_on_floor_gives_one_manifold_per_touching_part() {
    let floor: Shape = HalfSpace::new(Vec3::Y).unwrap().into();
    let c = dumbbell();
    // Left cube 0.02 deep, right cube 0.08 above the floor.
    let pose = at(0.0, 0.48, 0.0);
    let mut out = Vec::new();
    contacts(&floor, &Pose3::IDENTITY, &c, &pose, 0.0, &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!((out[0].part_a, out[0].part_b), (0, 0));
    assert_eq!(out[0].len(), 4);
    assert!((out[0].depth() - 0.02).abs() < 1e-6);
    // With a prediction covering the gap, the right cube joins.
    out.clear();
    contacts(&floor, &Pose3::IDENTITY, &c, &pose, 0.1, &mut out);
    assert_eq!(out.len(), 2);
    let right = out.iter().find(|m| m.part_b == 1).unwrap();
    assert!((right.depth() + 0.08).abs() < 1e-5);
    for m in &out {
        assert!((m.normal - Vec3::Y).length() < 1e-6);
    }
    // `contact` returns the deepest; swapped order flips and keeps parts.
    let m = contact(&floor, &Pose3::IDENTITY, &c, &pose, 0.1).unwrap();
    assert_eq!(m.part_b, 0);
    assert!((m.depth() - 0.02).abs() < 1e-6);
    let s = contact(&c, &pose, &floor, &Pose3::IDENTITY, 0.1).unwrap();
    assert_eq!((s.part_a, s.part_b), (0, 0));
    assert!((s.normal + Vec3::Y).length() < 1e-6);
    // Far away: nothing.
    assert!(contact(&floor, &Pose3::IDENTITY, &c, &at(0.0, 5.0, 0.0), 0.1).is_none());
}

#[test]
fn compound_against_compound_reports_part_pairs() {
    let c = dumbbell();
    // A second dumbbell right above, its left cube on the first's left cube.
    let pose_b = at(0.0, 0.99, 0.0);
    let mut out = Vec::new();
    contacts(&c, &Pose3::IDENTITY, &c, &pose_b, 0.0, &mut out);
    // Left on left (0.01 deep), right on right (0.01 deep, both lifted 0.1).
    let mut pairs: Vec<(u32, u32)> = out.iter().map(|m| (m.part_a, m.part_b)).collect();
    pairs.sort();
    assert_eq!(pairs, vec![(0, 0), (1, 1)], "{out:?}");
    for m in &out {
        assert!((m.depth() - 0.01).abs() < 1e-5);
        assert!((m.normal - Vec3::Y).length() < 1e-5);
        assert_eq!(m.len(), 4);
    }
    // Turned a quarter about y, its cubes sit at z = ±1 over x = 0: they only
    // touch the lower cubes along shared faces and edges (zero depth).
    let turned = Pose3::from_axis_angle(
        Vec3::new(0.0, 0.99, 0.0),
        Vec3::Y * std::f32::consts::FRAC_PI_2,
    );
    out.clear();
    contacts(&c, &Pose3::IDENTITY, &c, &turned, 0.0, &mut out);
    for m in &out {
        assert!(m.depth().abs() < 1e-5, "{m:?}");
    }
}
