//! Pairs kept apart in the 2D collision world: two circles report their
//! distance and two rects the separation of the face axis that parts them,
//! each a lower bound on the distance; and a world that skips the pairs
//! these gaps prove apart touches exactly the pairs a test of every pair
//! finds, on a pile of boxes and discs that jitters and closes in.

use peng::math::{Pose2, Vec2};
use peng::shape::d2;
use peng::world::{Collider, Dim2, Margin, World2};

use crate::mesh_common::Rng;
use crate::world_apart::{check_gap, close_in_and_check};

/// A random shape of about half a metre: two in seven a disc, one in seven
/// a thin rect, one in 21 a zero-width rect (a segment, which the closed
/// form leaves to the generic route), the rest a rect.
fn shape(r: &mut Rng, i: usize) -> d2::Shape {
    match i % 7 {
        0 | 1 => d2::Circle::new(r.range(0.15, 0.35)).expect("circle").into(),
        2 => d2::Rect::new(Vec2::new(r.range(0.2, 0.4), r.range(0.02, 0.05)))
            .expect("thin rect")
            .into(),
        3 if i % 21 == 3 => d2::Rect::new(Vec2::new(r.range(0.2, 0.4), 0.0))
            .expect("flat rect")
            .into(),
        _ => d2::Rect::new(Vec2::new(r.range(0.1, 0.3), r.range(0.1, 0.3)))
            .expect("rect")
            .into(),
    }
}

fn random_pose(r: &mut Rng, extent: f32) -> Pose2 {
    Pose2::new(
        Vec2::new(r.range(-extent, extent), r.range(-extent, extent)),
        r.range(-3.2, 3.2),
    )
}

#[test]
fn the_gap_bounds_the_distance_and_the_manifold_is_contacts() {
    let mut r = Rng(0x2d9a);
    let (mut measured, mut manifolds) = (0, 0);
    for i in 0..6000 {
        let (a, b) = (shape(&mut r, i), shape(&mut r, i / 2 + 1));
        let (pa, pb) = (random_pose(&mut r, 0.7), random_pose(&mut r, 0.7));
        let prediction = r.range(0.0, 0.05);
        match check_gap::<Dim2>((&a, &pa), (&b, &pb), prediction, i) {
            Some(gap) if gap > prediction => measured += 1,
            Some(_) => {}
            None => manifolds += 1,
        }
    }
    // Most apart pairs of circles and rects with area measure a gap.
    assert!(
        measured > 1000 && manifolds > 500,
        "{measured} gaps measured, {manifolds} manifolds"
    );
}

#[test]
fn skipping_pairs_kept_apart_changes_no_touching_pair() {
    let mut r = Rng(0x5eed2);
    let mut w = World2::new();
    let mut handles = Vec::new();
    for i in 0..48 {
        // A loose 8 x 6 grid, 0.8 m apart: most neighbours start apart.
        let t = Vec2::new((i % 8) as f32, (i / 8) as f32) * 0.8;
        let c = Collider::new(shape(&mut r, i), Pose2::new(t, r.range(-1.0, 1.0)))
            .with_margin(Margin::Offset(0.005));
        handles.push(w.insert(c).expect("insert"));
    }
    let centre = Vec2::new(3.5, 2.5) * 0.8;
    close_in_and_check(&mut w, &handles, |p, step| {
        let inward = (centre - p.translation) * 0.003;
        let jitter = Vec2::new(r.range(-step, step), r.range(-step, step));
        Pose2::new(
            p.translation + inward + jitter,
            p.rotation.angle() + r.range(-step, step),
        )
    });
}

/// A grid of discs whose diagonal neighbours' boxes overlap but who stay
/// apart: thousands of kept gaps, which the update checks in chunks on
/// rayon's threads. Exactly the diagonal pairs with an end that crept (and
/// none that jumped past its gap) are skipped.
#[test]
fn a_large_grid_skips_exactly_the_diagonal_pairs_that_crept() {
    let side = 70usize;
    let mut w = World2::new();
    let disc: d2::Shape = d2::Circle::new(0.5).expect("circle").into();
    let at = |i: usize, dx: f32| {
        let (x, y) = ((i % side) as f32, (i / side) as f32);
        Pose2::new(Vec2::new(x * 1.05 + dx, y * 1.05), 0.0)
    };
    let cells: Vec<_> = (0..side * side)
        .map(|i| {
            let c =
                Collider::<Dim2>::new(disc.clone(), at(i, 0.0)).with_margin(Margin::Offset(0.03));
            w.insert(c).expect("insert")
        })
        .collect();
    w.update();
    // Side neighbours touch within their offset (gap 0.05, offset 0.06);
    // diagonal ones are 0.485 apart, but their boxes overlap.
    assert_eq!(w.touching_len(), 2 * (side - 1) * side);
    // Every third row creeps 1 mm; every thirteenth disc jumps 0.45 m,
    // more than its diagonal gaps less the offset (0.425 m).
    let creeps = |i: usize| (i / side).is_multiple_of(3);
    let jumps = |i: usize| i.is_multiple_of(13);
    for (i, &h) in cells.iter().enumerate() {
        let dx = if jumps(i) {
            0.45
        } else if creeps(i) {
            1e-3
        } else {
            continue;
        };
        w.set_pose(h, at(i, dx)).expect("move");
    }
    w.update();
    let mut expected = 0;
    for y in 0..side - 1 {
        for x in 0..side - 1 {
            // The two diagonals of the square of cells at (x, y).
            let corner = |dx: usize, dy: usize| (y + dy) * side + x + dx;
            for (a, b) in [(corner(0, 0), corner(1, 1)), (corner(1, 0), corner(0, 1))] {
                let moved = creeps(a) || creeps(b) || jumps(a) || jumps(b);
                if moved && !jumps(a) && !jumps(b) {
                    expected += 1;
                }
            }
        }
    }
    assert!(expected > 2000, "{expected}");
    assert_eq!(w.skipped_apart_pairs(), expected);
}
