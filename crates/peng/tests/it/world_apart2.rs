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
