//! Pairs kept apart in the collision world: the gap the contact query
//! measures is a lower bound on the distance, and a world that skips the
//! pairs its gaps prove apart touches exactly the pairs a test of every
//! pair finds, on a pile of hulls and boxes that jitters and closes in.

use std::collections::BTreeSet;

use peng::math::{Pose3, Quat, Vec3};
use peng::shape::d3;
use peng::world::{Collider, ColliderHandle, Dim, Dim3, Margin, World, World3};

use crate::mesh_common::Rng;

/// A random box or hull of about half a metre.
fn shape(r: &mut Rng, i: usize) -> d3::Shape {
    if i.is_multiple_of(3) {
        let h = Vec3::new(r.range(0.2, 0.4), r.range(0.2, 0.4), r.range(0.2, 0.4));
        d3::Cuboid::new(h).expect("cuboid").into()
    } else {
        let pts: Vec<Vec3> = (0..12).map(|_| r.unit3() * r.range(0.3, 0.5)).collect();
        d3::ConvexPolyhedron::from_points(&pts)
            .expect("hull")
            .into()
    }
}

fn random_pose(r: &mut Rng, extent: f32) -> Pose3 {
    let axis = r.unit3();
    Pose3::new(
        r.v3(-extent, extent),
        Quat::from_axis_angle(axis, r.range(0.0, 3.0)),
    )
}

/// Checks `contact_or_gap` on one pair (number `i`): a manifold is
/// `contact`'s, and a gap is at least `prediction`, at most the distance,
/// and comes only when `contact` finds nothing. Returns the gap, if any.
pub(crate) fn check_gap<D: Dim>(
    (a, pa): (&D::Shape, &D::Pose),
    (b, pb): (&D::Shape, &D::Pose),
    prediction: f32,
    i: usize,
) -> Option<f32>
where
    D::Manifold: PartialEq,
{
    match D::contact_or_gap(a, pa, b, pb, prediction) {
        Ok(m) => {
            assert_eq!(Some(m), D::contact(a, pa, b, pb, prediction), "pair {i}");
            None
        }
        Err(gap) => {
            assert!(D::contact(a, pa, b, pb, prediction).is_none(), "pair {i}");
            let d = D::distance(a, pa, b, pb).distance;
            assert!(gap >= prediction, "pair {i}: gap {gap} below {prediction}");
            assert!(gap <= d + 1e-5, "pair {i}: gap {gap} over the distance {d}");
            Some(gap)
        }
    }
}

#[test]
fn the_gap_bounds_the_distance_and_the_manifold_is_contacts() {
    let mut r = Rng(0xa9a7);
    let (mut gaps, mut manifolds) = (0, 0);
    for i in 0..3000 {
        let (a, b) = (shape(&mut r, i), shape(&mut r, i + 1));
        let (pa, pb) = (random_pose(&mut r, 0.8), random_pose(&mut r, 0.8));
        let prediction = r.range(0.0, 0.05);
        match check_gap::<Dim3>((&a, &pa), (&b, &pb), prediction, i) {
            Some(_) => gaps += 1,
            None => manifolds += 1,
        }
    }
    assert!(
        gaps > 500 && manifolds > 500,
        "{gaps} gaps, {manifolds} manifolds"
    );
}

/// The pairs touching under the world's rule, by testing every pair:
/// within the sum of their offsets (no displacement here).
fn touching_by_brute_force<D: Dim>(
    w: &World<D>,
    handles: &[ColliderHandle],
) -> BTreeSet<(ColliderHandle, ColliderHandle)> {
    let mut out = BTreeSet::new();
    for (i, &ha) in handles.iter().enumerate() {
        for &hb in &handles[i + 1..] {
            let (a, b) = (w.get(ha).expect("live"), w.get(hb).expect("live"));
            let off = [a, b]
                .map(|c| match c.margin {
                    Margin::Offset(d) => d,
                    _ => 0.0,
                })
                .iter()
                .sum::<f32>();
            let m = D::contact(&a.shape, &a.pose, &b.shape, &b.pose, off);
            if m.is_some_and(|m| D::manifold_depth(&m) >= -off) {
                out.insert(if ha < hb { (ha, hb) } else { (hb, ha) });
            }
        }
    }
    out
}

#[test]
fn skipping_pairs_kept_apart_changes_no_touching_pair() {
    let mut r = Rng(0x5eed);
    let mut w = World3::new();
    let mut handles = Vec::new();
    for i in 0..40 {
        // A loose 4 x 5 x 2 grid, 1.1 m apart: most neighbours start apart.
        let (x, y, z) = ((i % 4) as f32, ((i / 4) % 5) as f32, (i / 20) as f32);
        let t = Vec3::new(x, y, z) * 1.1;
        let c = Collider::new(
            shape(&mut r, i),
            Pose3::new(t, Quat::from_scaled_axis(r.v3(-1.0, 1.0))),
        )
        .with_margin(Margin::Offset(0.005));
        handles.push(w.insert(c).expect("insert"));
    }
    let centre = Vec3::new(1.5, 2.0, 0.5) * 1.1;
    close_in_and_check(&mut w, &handles, |p, step| {
        let inward = (centre - p.translation) * 0.003;
        let turn = Quat::from_scaled_axis(r.v3(-step, step));
        Pose3::new(
            p.translation + inward + r.v3(-step, step),
            (turn * p.rotation).normalize(),
        )
    });
}

/// 200 updates of a pile whose colliders jitter (by `4e-4` a step, now
/// and then `0.03`: `moved(pose, step)` gives the new pose) while the pile
/// closes in on its centre, so that pairs kept apart come to touch; after
/// each, the touching pairs must be the brute-force ones. Asserts that over
/// 1,000 pair updates were skipped and over 40 pairs began touching.
pub(crate) fn close_in_and_check<D: Dim>(
    w: &mut World<D>,
    handles: &[ColliderHandle],
    mut moved: impl FnMut(&D::Pose, f32) -> D::Pose,
) {
    let (mut skipped, mut began) = (0, 0);
    let mut before = BTreeSet::new();
    for u in 0..200 {
        for &h in handles {
            let p = w.get(h).expect("live").pose;
            let step = if (u + h.index() as usize).is_multiple_of(13) {
                0.03
            } else {
                4e-4
            };
            w.set_pose(h, moved(&p, step)).expect("move");
        }
        w.update();
        skipped += w.skipped_apart_pairs();
        let now: BTreeSet<_> = w.touching_pairs().collect();
        assert_eq!(now, touching_by_brute_force(w, handles), "update {u}");
        began += now.difference(&before).count();
        before = now;
    }
    assert!(skipped > 1000, "only {skipped} pair updates skipped");
    assert!(began > 40, "only {began} pairs began touching");
}
