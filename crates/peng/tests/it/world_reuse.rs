//! Manifold reuse in the collision world: carried manifolds against exact
//! ones on jittering piles (2D and 3D), the tolerance, shape changes, round
//! shapes and bad tolerances.

use std::collections::BTreeMap;

use peng::math::{Pose2, Pose3, Quat, Vec2, Vec3};
use peng::shape::{d2, d3};
use peng::world::{Collider, ColliderHandle, Dim, Dim2, Dim3, Margin, World, WorldError};

use crate::mesh_common::Rng;

/// Flat-faced random shapes, grid poses and small motions per dimension.
trait Pile: Dim {
    fn shape(r: &mut Rng, i: usize) -> Self::Shape;
    fn place(i: usize, r: &mut Rng) -> Self::Pose;
    fn nudge(p: &Self::Pose, r: &mut Rng, step: f32, turn: f32) -> Self::Pose;
    /// A static floor under the pile (a mesh in 3D, a polyline in 2D).
    fn floor() -> Self::Shape;
}

impl Pile for Dim3 {
    fn shape(r: &mut Rng, i: usize) -> d3::Shape {
        if i.is_multiple_of(2) {
            let h = Vec3::new(r.range(0.3, 0.5), r.range(0.3, 0.5), r.range(0.3, 0.5));
            d3::Cuboid::new(h).expect("cuboid").into()
        } else {
            let pts: Vec<Vec3> = (0..10).map(|_| r.unit3() * r.range(0.35, 0.55)).collect();
            d3::ConvexPolyhedron::from_points(&pts)
                .expect("hull")
                .into()
        }
    }
    fn place(i: usize, r: &mut Rng) -> Pose3 {
        let (x, z, y) = ((i % 4) as f32, ((i / 4) % 3) as f32, (i / 12) as f32);
        let t = Vec3::new(x * 0.8, 0.45 + y * 0.8, z * 0.8);
        Pose3::new(t, Quat::from_scaled_axis(r.v3(-0.3, 0.3)))
    }
    fn nudge(p: &Pose3, r: &mut Rng, s: f32, turn: f32) -> Pose3 {
        let (d, w) = (r.v3(-s, s), r.v3(-turn, turn));
        Pose3::new(
            p.translation + d,
            (Quat::from_scaled_axis(w) * p.rotation).normalize(),
        )
    }
    fn floor() -> d3::Shape {
        peng::mesh::TriMesh::new(
            vec![
                Vec3::new(-5.0, 0.0, -5.0),
                Vec3::new(5.0, 0.02, -5.0),
                Vec3::new(5.0, 0.0, 5.0),
                Vec3::new(-5.0, 0.03, 5.0),
                Vec3::new(0.0, -0.02, 0.0),
            ],
            vec![[0, 4, 1], [1, 4, 2], [2, 4, 3], [3, 4, 0]],
        )
        .expect("mesh")
        .into()
    }
}

impl Pile for Dim2 {
    fn shape(r: &mut Rng, i: usize) -> d2::Shape {
        if i.is_multiple_of(2) {
            let h = Vec2::new(r.range(0.3, 0.5), r.range(0.3, 0.5));
            d2::Rect::new(h).expect("rect").into()
        } else {
            let pts: Vec<Vec2> = (0..7)
                .map(|_| {
                    let a = r.range(0.0, std::f32::consts::TAU);
                    Vec2::new(a.cos(), a.sin()) * r.range(0.35, 0.55)
                })
                .collect();
            d2::ConvexPolygon::from_points(&pts)
                .expect("polygon")
                .into()
        }
    }
    fn place(i: usize, r: &mut Rng) -> Pose2 {
        let (x, y) = ((i % 6) as f32, (i / 6) as f32);
        Pose2::new(Vec2::new(x * 0.8, 0.45 + y * 0.8), r.range(-0.3, 0.3))
    }
    fn nudge(p: &Pose2, r: &mut Rng, s: f32, turn: f32) -> Pose2 {
        Pose2::new(
            p.translation + r.v2(-s, s),
            p.rotation.angle() + r.range(-turn, turn),
        )
    }
    fn floor() -> d2::Shape {
        d2::Polyline::new(
            vec![
                Vec2::new(-5.0, 0.0),
                Vec2::new(0.0, -0.02),
                Vec2::new(2.0, 0.01),
                Vec2::new(9.0, 0.0),
            ],
            None,
        )
        .expect("polyline")
        .into()
    }
}

/// The deepest point of each touching pair.
fn depths<D: Dim>(w: &World<D>) -> BTreeMap<(ColliderHandle, ColliderHandle), f32>
where
    D::Manifold: HasDepth,
{
    w.touching_contacts()
        .map(|(a, b, ms)| {
            let d = ms
                .iter()
                .map(|m| m.deepest())
                .fold(f32::NEG_INFINITY, f32::max);
            ((a, b), d)
        })
        .collect()
}

/// The deepest point of a manifold, in either dimension.
trait HasDepth {
    fn deepest(&self) -> f32;
}
impl HasDepth for peng::query::types::Manifold2 {
    fn deepest(&self) -> f32 {
        self.depth()
    }
}
impl HasDepth for peng::query::types::Manifold3 {
    fn deepest(&self) -> f32 {
        self.depth()
    }
}

/// Runs a jittering pile in an exact world and in one that reuses manifolds
/// with `tol`, and checks after every update that both agree on the
/// touching pairs and their deepest points up to `2·tol` (each carried depth
/// and the exact one each move by at most the drift, which stays within
/// `tol`). Returns how many pair updates were carried.
fn jitter<D: Pile>(n: usize, updates: usize, tol: f32, seed: u64) -> usize
where
    D::Manifold: HasDepth,
{
    let off = 0.01;
    let mut r = Rng(seed);
    let mut exact = World::<D>::new();
    let mut reuse = World::<D>::new();
    reuse
        .set_manifold_reuse(Some(tol))
        .expect("valid tolerance");
    let floor = Collider::<D>::new(D::floor(), D::IDENTITY).with_margin(Margin::Offset(off));
    exact.insert(floor.clone()).expect("floor");
    reuse.insert(floor).expect("floor");
    let mut bodies = Vec::new();
    for i in 0..n {
        let c = Collider::<D>::new(D::shape(&mut r, i), D::place(i, &mut r))
            .with_margin(Margin::Offset(off));
        let h = exact.insert(c.clone()).expect("insert");
        assert_eq!(reuse.insert(c).expect("insert"), h);
        bodies.push(h);
    }
    let mut carried = 0;
    for u in 0..updates {
        for &h in &bodies {
            let p = exact.get(h).expect("live").pose;
            // Mostly jitter; now and then a jump past the tolerance.
            let q = if (u + h.index() as usize).is_multiple_of(17) {
                D::nudge(&p, &mut r, 0.02, 0.02)
            } else {
                D::nudge(&p, &mut r, 3e-4, 4e-4)
            };
            exact.set_pose(h, q).expect("move");
            reuse.set_pose(h, q).expect("move");
        }
        exact.update();
        reuse.update();
        carried += reuse.carried_pairs();
        let (de, dr) = (depths(&exact), depths(&reuse));
        let slack = 2.0 * tol + 1e-4;
        for (k, &d) in &de {
            match dr.get(k) {
                Some(&c) => assert!(
                    (c - d).abs() <= slack,
                    "update {u}, pair {k:?}: carried depth {c}, exact {d}"
                ),
                None => assert!(
                    d < -2.0 * off + slack,
                    "update {u}, pair {k:?} missed with exact depth {d}"
                ),
            }
        }
        for (k, &c) in &dr {
            if !de.contains_key(k) {
                assert!(
                    c < -2.0 * off + slack,
                    "update {u}, pair {k:?} kept at depth {c}, apart in the exact world"
                );
            }
        }
    }
    carried
}

#[test]
fn carried_manifolds_stay_within_twice_the_tolerance_of_exact_ones_3d() {
    let carried = jitter::<Dim3>(36, 60, 0.004, 7);
    assert!(carried > 500, "only {carried} pair updates carried");
}

#[test]
fn carried_manifolds_stay_within_twice_the_tolerance_of_exact_ones_2d() {
    let carried = jitter::<Dim2>(30, 60, 0.004, 11);
    assert!(carried > 300, "only {carried} pair updates carried");
}

fn box_on_box(reuse: Option<f32>) -> (World<Dim3>, ColliderHandle) {
    let mut w = World::<Dim3>::new();
    w.set_manifold_reuse(reuse).expect("valid tolerance");
    let cube = d3::Cuboid::new(Vec3::splat(0.5)).expect("cube");
    w.insert(Collider::new(cube, Pose3::IDENTITY))
        .expect("lower");
    let upper = w
        .insert(Collider::new(
            cube,
            Pose3::from_translation(Vec3::new(0.1, 0.99, 0.0)),
        ))
        .expect("upper");
    w.update();
    (w, upper)
}

fn deepest(w: &World<Dim3>) -> f32 {
    depths(w)
        .values()
        .copied()
        .fold(f32::NEG_INFINITY, f32::max)
}

#[test]
fn a_small_move_is_carried_and_a_large_one_tested_again() {
    let (mut w, upper) = box_on_box(Some(0.01));
    assert_eq!(w.carried_pairs(), 0, "the first update tests");
    // Up by 2 mm: carried, and the depth follows the move exactly.
    w.set_pose(upper, Pose3::from_translation(Vec3::new(0.1, 0.992, 0.0)))
        .expect("move");
    w.update();
    assert_eq!(w.carried_pairs(), 1);
    assert!((deepest(&w) - 0.008).abs() < 1e-5, "{}", deepest(&w));
    // 2 cm sideways from the anchor: past the tolerance, tested again, and
    // the manifold is the exact one.
    let far = Pose3::from_translation(Vec3::new(0.12, 0.992, 0.0));
    w.set_pose(upper, far).expect("move");
    w.update();
    assert_eq!(w.carried_pairs(), 0);
    let (mut exact, up2) = box_on_box(None);
    exact.set_pose(up2, far).expect("move");
    exact.update();
    let (m, e) = (
        w.touching_contacts().next().expect("touching").2,
        exact.touching_contacts().next().expect("touching").2,
    );
    assert_eq!(m, e);
}

/// The carry pass walks the touching list in chunks of a few hundred
/// pairs: on a grid of squares with thousands of touching pairs, exactly the
/// pairs with a moved end carry, and none with an end moved past the
/// tolerance, wherever they fall in the list.
#[test]
fn exactly_the_pairs_moved_within_the_tolerance_carry_in_a_large_grid() {
    let side = 40usize;
    let mut w = World::<Dim2>::new();
    w.set_manifold_reuse(Some(0.004)).expect("valid tolerance");
    let square: d2::Shape = d2::Rect::new(Vec2::splat(0.5)).expect("rect").into();
    let at = |i: usize| {
        let (x, y) = ((i % side) as f32, (i / side) as f32);
        Pose2::new(Vec2::new(x * 0.99, y * 0.99), 0.0)
    };
    // First, a disc off the first cell's corner: their boxes overlap but
    // they stay apart, so the first pair to test is not a touching one.
    let disc: d2::Shape = d2::Circle::new(0.5).expect("circle").into();
    let off_corner = |dx: f32| Pose2::new(Vec2::new(-0.9 + dx, -0.9), 0.0);
    let lone = w
        .insert(Collider::<Dim2>::new(disc, off_corner(0.0)).with_margin(Margin::Offset(0.01)))
        .expect("insert");
    let cells: Vec<ColliderHandle> = (0..side * side)
        .map(|i| {
            let c = Collider::<Dim2>::new(square.clone(), at(i)).with_margin(Margin::Offset(0.01));
            w.insert(c).expect("insert")
        })
        .collect();
    w.update();
    assert_eq!(w.carried_pairs(), 0, "the first update tests");
    // Sides and corners of neighbours overlap: 2 (n - 1) n + 2 (n - 1)^2.
    let pairs = 2 * (side - 1) * side + 2 * (side - 1) * (side - 1);
    assert_eq!(w.touching_len(), pairs);
    // Every third row creeps 0.1 mm; every seventh cell jumps 2 cm.
    let creeps = |i: usize| (i / side).is_multiple_of(3);
    let jumps = |i: usize| i.is_multiple_of(7);
    let index: BTreeMap<ColliderHandle, usize> =
        cells.iter().enumerate().map(|(i, &h)| (h, i)).collect();
    let before: Vec<(usize, usize)> = w
        .touching_contacts()
        .map(|(a, b, _)| (index[&a], index[&b]))
        .collect();
    w.set_pose(lone, off_corner(1e-4)).expect("move");
    for (i, &h) in cells.iter().enumerate() {
        let step = if jumps(i) {
            0.02
        } else if creeps(i) {
            1e-4
        } else {
            continue;
        };
        w.set_pose(h, Pose2::new(at(i).translation + Vec2::new(step, 0.0), 0.0))
            .expect("move");
    }
    w.update();
    let moved = |i: usize| creeps(i) || jumps(i);
    let expected = before
        .iter()
        .filter(|&&(a, b)| (moved(a) || moved(b)) && !jumps(a) && !jumps(b))
        .count();
    assert!(expected > 1000, "{expected}");
    assert_eq!(w.carried_pairs(), expected);
    assert_eq!(w.touching_len(), pairs, "nothing moved apart");
}

#[test]
fn a_turn_counts_with_the_reach_of_the_shape() {
    // 1° is 17 mm at the cube's corner (reach 0.87 m): past 1 cm, so
    // tested again; a tenth of that is carried.
    for (degrees, carried) in [(1f32, 0), (0.1, 1)] {
        let (mut w, upper) = box_on_box(Some(0.01));
        let turned = Pose3::new(
            Vec3::new(0.1, 0.99, 0.0),
            Quat::from_rotation_y(degrees.to_radians()),
        );
        w.set_pose(upper, turned).expect("turn");
        w.update();
        assert_eq!(w.carried_pairs(), carried, "a turn of {degrees}°");
    }
}

#[test]
fn a_new_shape_is_tested_again() {
    let (mut w, upper) = box_on_box(Some(0.01));
    // A taller box at the same pose overlaps 0.1 more.
    w.set_shape(
        upper,
        d3::Cuboid::new(Vec3::new(0.5, 0.6, 0.5))
            .expect("box")
            .into(),
    )
    .expect("reshape");
    w.update();
    assert_eq!(w.carried_pairs(), 0);
    assert!((deepest(&w) - 0.11).abs() < 1e-5, "{}", deepest(&w));
}

#[test]
fn round_shapes_are_never_carried() {
    // A rolling ball's contact point does not move with the ball.
    let mut w = World::<Dim3>::new();
    w.set_manifold_reuse(Some(0.01)).expect("valid tolerance");
    let cube = d3::Cuboid::new(Vec3::splat(0.5)).expect("cube");
    w.insert(Collider::new(cube, Pose3::IDENTITY)).expect("box");
    let ball = w
        .insert(Collider::new(
            d3::Ball::new(0.3).expect("ball"),
            Pose3::from_translation(Vec3::new(0.0, 0.79, 0.0)),
        ))
        .expect("ball");
    w.update();
    w.set_pose(ball, Pose3::from_translation(Vec3::new(0.001, 0.79, 0.0)))
        .expect("move");
    w.update();
    assert_eq!(w.carried_pairs(), 0);
    assert_eq!(w.touching_pairs().count(), 1);
}

#[test]
fn bad_tolerances_are_rejected_and_none_turns_reuse_off() {
    let mut w = World::<Dim3>::new();
    for bad in [-0.1, f32::NAN, f32::INFINITY] {
        match w.set_manifold_reuse(Some(bad)) {
            Err(WorldError::InvalidReuseTolerance(_)) => {}
            other => panic!("{bad}: {other:?}"),
        }
    }
    assert_eq!(w.manifold_reuse(), None);
    w.set_manifold_reuse(Some(0.0)).expect("zero is valid");
    assert_eq!(w.manifold_reuse(), Some(0.0));
    let (mut w, upper) = box_on_box(Some(0.01));
    w.set_manifold_reuse(None).expect("off");
    w.set_pose(upper, Pose3::from_translation(Vec3::new(0.1, 0.992, 0.0)))
        .expect("move");
    w.update();
    assert_eq!(w.carried_pairs(), 0);
}
