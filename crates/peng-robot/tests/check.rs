//! Configuration checks: planar arms of two and three capsules against
//! their closed forms (segment distances in f64), environment balls,
//! padding, allowed pairs, and the Panda's default state.

use glam::{DVec2, Vec3};
use peng::d3::{Ball, Pose3};
use peng_robot::{
    link_shapes, srdf, urdf, Checker, MeshMode, MeshSource, MotionResult, Other, Stop, CONTACT_TOL,
};

mod common;

use common::{planar_arm, uniform, R};

/// The three-link planar arm.
fn arm() -> Checker {
    planar_arm(3)
}

/// Joint angles uniform in [-3.1, 3.1] from [`uniform`].
fn angles(seed: u64) -> impl FnMut() -> f64 {
    let mut u = uniform(seed);
    move || u() * 6.2 - 3.1
}

/// Distance from `p` to segment `a b`.
fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let e = b - a;
    let t = ((p - a).dot(e) / e.dot(e)).clamp(0.0, 1.0);
    (a + e * t - p).length()
}

/// Distance between two 2D segments (0 when they cross).
fn segment_segment(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    let cross = |u: DVec2, v: DVec2| u.x * v.y - u.y * v.x;
    let (e, f) = (b - a, d - c);
    let den = cross(e, f);
    if den != 0.0 {
        let t = cross(c - a, f) / den;
        let u = cross(c - a, e) / den;
        if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
            return 0.0;
        }
    }
    point_segment(a, c, d)
        .min(point_segment(b, c, d))
        .min(point_segment(c, a, b))
        .min(point_segment(d, a, b))
}

/// The three links' segments at `q`.
fn segments(q: &[f64]) -> [(DVec2, DVec2); 3] {
    let mut p = DVec2::ZERO;
    let mut a = 0.0;
    let mut out = [(DVec2::ZERO, DVec2::ZERO); 3];
    for (i, qi) in q.iter().enumerate() {
        a += qi;
        let next = p + DVec2::from_angle(a);
        out[i] = (p, next);
        p = next;
    }
    out
}

#[test]
fn the_planar_arm_checks_its_one_self_pair_against_the_closed_form() {
    let c = arm();
    // Links 0-1 and 1-2 are adjacent: only 0-2 is checked.
    assert_eq!(c.self_pairs(), &[(1, 3)]);
    let mut next = angles(11);
    let (mut hits, mut free) = (0, 0);
    for _ in 0..2000 {
        let q = [next(), next(), next()];
        let s = segments(&q);
        let truth = segment_segment(s[0].0, s[0].1, s[2].0, s[2].1) - 2.0 * R;
        let (closest, _) = c.distance(&q, 1.0).unwrap();
        let d = closest.unwrap().distance as f64;
        assert!((d - truth).abs() < 2e-5, "{q:?}: {d} vs {truth}");
        if truth.abs() < 1e-4 {
            continue;
        }
        let found = c.check(&q, Stop::Never).unwrap();
        assert_eq!(
            found.is_empty(),
            truth > 0.0,
            "{q:?}: {found:?}, truth {truth}"
        );
        if truth < 0.0 {
            hits += 1;
            assert_eq!((found[0].link, found[0].other), (1, Other::Link(3)));
            assert!((found[0].distance as f64 - truth).abs() < 2e-5);
        } else {
            free += 1;
        }
    }
    assert!(hits > 100 && free > 100, "{hits} in contact, {free} free");
}

/// The two-link planar arm and a ball obstacle.
fn two_link_arm(ball: DVec2, radius: f64) -> Checker {
    let mut c = planar_arm(2);
    let b = Ball::new(radius as f32).unwrap();
    let at = Pose3::from_translation(Vec3::new(ball.x as f32, ball.y as f32, 0.0));
    c.environment.push((b.into(), at));
    c
}

/// The two-link arm against a ball: the signed distance in closed form
/// (each link's segment to the centre, less both radii) for random
/// configurations, and the first contact of the first joint's sweep towards
/// the ball: the first link's axis comes within `R + r` of the centre at
/// `φ - asin((R + r) / ρ)` (centre at `ρ` from the joint, angle `φ`).
#[test]
fn the_two_link_arm_meets_a_ball_where_the_closed_form_says() {
    let (rho, phi, r) = (0.6f64, 0.4f64, 0.1f64);
    let centre = DVec2::from_angle(phi) * rho;
    let c = two_link_arm(centre, r);
    assert!(c.self_pairs().is_empty(), "two links are adjacent");
    let mut next = angles(23);
    let (mut hits, mut free) = (0, 0);
    for _ in 0..2000 {
        let q = [next(), next()];
        let s = segments(&[q[0], q[1], 0.0]);
        let truth = (0..2)
            .map(|k| point_segment(centre, s[k].0, s[k].1))
            .fold(f64::INFINITY, f64::min)
            - R
            - r;
        let (closest, _) = c.distance(&q, 1.0).unwrap();
        let d = closest.unwrap().distance as f64;
        assert!((d - truth).abs() < 2e-5, "{q:?}: {d} vs {truth}");
        if truth.abs() > 1e-4 {
            assert_eq!(c.check(&q, Stop::AtFirst).unwrap().is_empty(), truth > 0.0);
            hits += usize::from(truth < 0.0);
            free += usize::from(truth > 0.0);
        }
    }
    assert!(hits > 100 && free > 100, "{hits} {free}");
    // Sweeping the straight arm (second joint at 0) from φ - 1 towards φ.
    let (t0, t1) = (phi - 1.0, phi);
    let contact = phi - ((R + r) / rho).asin();
    let want = (contact - t0) / (t1 - t0);
    let MotionResult::Contact { s, pair } = c.check_motion(&[t0, 0.0], &[t1, 0.0]).unwrap() else {
        panic!("the sweep meets the ball");
    };
    assert_eq!(pair.other, Other::Object(0));
    // Never late; early by at most the contact tolerance's worth of sweep
    // (the axis point at ρ moves ρ per radian).
    let early = (CONTACT_TOL as f64 + 1e-5) / (rho * (t1 - t0));
    assert!(s <= want + 1e-9 && s >= want - early, "{s} vs {want}");
}

#[test]
fn an_environment_ball_and_padding() {
    let mut c = arm();
    // A ball of radius 0.2 at (0.5, 0.5): 0.5 from link 0's axis at q = 0.
    c.environment.push((
        Ball::new(0.2).unwrap().into(),
        Pose3::from_translation(Vec3::new(0.5, 0.5, 0.0)),
    ));
    let q = [0.0, 0.0, 0.0];
    let (closest, near) = c.distance(&q, 0.5).unwrap();
    let closest = closest.unwrap();
    assert_eq!((closest.link, closest.other), (1, Other::Object(0)));
    assert!((closest.distance - 0.2).abs() < 1e-5, "{closest:?}");
    // Link 1 (from x = 1 to 2) is 0.407 from the ball; the self pair 0.8.
    assert_eq!(
        near.iter().map(|r| (r.link, r.other)).collect::<Vec<_>>(),
        [(1, Other::Object(0)), (2, Other::Object(0))]
    );
    assert!((near[1].distance - (0.5f32.hypot(0.5) - 0.3)).abs() < 1e-5);
    assert!(c.check(&q, Stop::AtFirst).unwrap().is_empty());
    // Padding of 0.25 on link 0 closes the gap: 0.05 deep.
    c.set_padding(1, 0.25).unwrap();
    let found = c.check(&q, Stop::AtFirst).unwrap();
    assert_eq!(found.len(), 1);
    assert!((found[0].distance + 0.05).abs() < 1e-5, "{:?}", found[0]);
    assert!(c.set_padding(1, f64::NAN).is_err());
}

#[test]
fn the_panda_default_state_is_free() {
    let c = common::panda(MeshMode::ConvexHull);
    let r = c.robot.clone();
    let s = srdf::read_file(common::panda_dir().join("srdf/panda.srdf"), &r).unwrap();
    // The hand and link 7 are adjacent through the shapeless flange link.
    let (hand, l7) = (
        r.link("panda_hand").unwrap(),
        r.link("panda_link7").unwrap(),
    );
    let unchecked = !c.self_pairs().contains(&(l7.min(hand), l7.max(hand)));
    assert!(unchecked);
    let mut q = vec![0.0; 8];
    for (j, v) in &s.states[0].values {
        let k = r.active_joints().iter().position(|a| a == j).unwrap();
        q[k] = *v;
    }
    assert!(c.check(&q, Stop::Never).unwrap().is_empty());
    let (closest, _) = c.distance(&q, 0.0).unwrap();
    assert!(closest.unwrap().distance > 0.0);
}

/// An allowed pair is not checked: a link resting on an object, and a self
/// pair; unknown links and objects are errors.
#[test]
fn allowed_pairs_are_not_checked() {
    let mut c = arm();
    let ball = Ball::new(0.3).unwrap();
    c.environment.push((
        ball.into(),
        Pose3::from_translation(Vec3::new(0.5, 0.0, 0.0)),
    ));
    let q = [0.0, 0.0, 0.0];
    let hits = c.check(&q, Stop::Never).unwrap();
    assert!(hits.iter().any(|r| r.other == Other::Object(0)));
    let l0 = c.robot.link("l0").unwrap();
    c.allow(l0, Other::Object(0)).unwrap();
    assert!(c.check(&q, Stop::Never).unwrap().is_empty());
    // Folded back, links 0 and 2 meet; allowed, they do not count.
    let mut c = arm();
    let folded = [0.0, 3.1, 3.1];
    assert!(!c.check(&folded, Stop::Never).unwrap().is_empty());
    let l2 = c.robot.link("l2").unwrap();
    c.allow(l2, Other::Link(l0)).unwrap();
    let left = c.check(&folded, Stop::Never).unwrap();
    assert!(
        left.iter()
            .all(|r| r.other != Other::Link(l2) && r.link != l2),
        "{left:?}"
    );
    assert!(c.allow(99, Other::Link(l0)).is_err());
    assert!(c.allow(l0, Other::Object(0)).is_err());
}

/// The culled distance query (a finite cut-off skips pairs by their
/// bounding spheres) agrees with measuring every pair: the same closest
/// pair and distance, the same pairs within the cut-off, on random Panda
/// configurations among boxes, with padding on two links.
#[test]
fn a_cut_off_distance_finds_what_measuring_every_pair_finds() {
    let mut c = common::panda(MeshMode::ConvexHull);
    let r = c.robot.clone();
    for k in 0..6 {
        let a = k as f32;
        let pose = Pose3::from_translation(Vec3::new(0.5 * a.cos(), 0.5 * a.sin(), 0.1 * a));
        let shape = peng::d3::Cuboid::new(Vec3::splat(0.05)).unwrap();
        c.environment.push((shape.into(), pose));
    }
    c.set_padding(r.link("panda_hand").unwrap(), 0.02).unwrap();
    c.set_padding(r.link("panda_link3").unwrap(), 0.01).unwrap();
    let mut next = angles(99);
    let active = r.active_joints().to_vec();
    let mut compared = 0;
    for _ in 0..400 {
        let q: Vec<f64> = active
            .iter()
            .map(|&j| {
                let l = r.joints[j].limits.unwrap();
                l.lower + (l.upper - l.lower) * (next() + 3.1) / 6.2
            })
            .collect();
        let (all_closest, all) = c.distance(&q, f32::INFINITY).unwrap();
        for cutoff in [0.0, 0.05, 0.2] {
            let (closest, near) = c.distance(&q, cutoff).unwrap();
            assert_eq!(closest, all_closest);
            let want: Vec<_> = all
                .iter()
                .filter(|p| p.distance < cutoff)
                .copied()
                .collect();
            assert_eq!(near, want);
            compared += 1;
        }
    }
    assert_eq!(compared, 1200);
}

/// The ball obstacle of the motion test: centre and radius.
const BALL: (DVec2, f64) = (DVec2::new(1.3, 0.9), 0.25);

/// The closed-form signed distance of the arm at `q`: its one self pair
/// and each link against the ball, the least.
fn arm_truth(q: &[f64]) -> f64 {
    let s = segments(q);
    let selfd = segment_segment(s[0].0, s[0].1, s[2].0, s[2].1) - 2.0 * R;
    s.iter()
        .map(|(a, b)| point_segment(BALL.0, *a, *b) - R - BALL.1)
        .fold(selfd, f64::min)
}

/// Random segments between free configurations of the planar arm, with a
/// ball beside it, against a dense sampling of the closed form (every 1e-4
/// of the segment): a contact the sampling finds is never reported later,
/// a reported contact is real, and a segment found free never touches.
#[test]
fn planar_arm_motions_never_miss_a_contact() {
    let mut c = arm();
    c.environment.push((
        Ball::new(BALL.1 as f32).unwrap().into(),
        Pose3::from_translation(Vec3::new(BALL.0.x as f32, BALL.0.y as f32, 0.0)),
    ));
    let mut next = angles(5);
    let (mut contacts, mut free) = (0, 0);
    let mut tried = 0;
    while tried < 300 {
        let q0 = [next(), next(), next()];
        let q1 = [next(), next(), next()];
        if arm_truth(&q0) <= 0.0 || arm_truth(&q1) <= 0.0 {
            continue;
        }
        tried += 1;
        let lerp = |s: f64| [0, 1, 2].map(|i| q0[i] + s * (q1[i] - q0[i]));
        let n = 10_000;
        let dense: Vec<f64> = (0..=n)
            .map(|k| arm_truth(&lerp(k as f64 / n as f64)))
            .collect();
        let first = dense
            .iter()
            .position(|&d| d <= 0.0)
            .map(|k| k as f64 / n as f64);
        match c.check_motion(&q0, &q1).unwrap() {
            MotionResult::Contact { s, .. } => {
                contacts += 1;
                let at = arm_truth(&lerp(s));
                assert!(at <= 2e-4, "reported at {s} but {at} apart");
                if let Some(f) = first {
                    assert!(s <= f + 1e-4, "reported at {s}, sampled contact at {f}");
                }
            }
            MotionResult::Free { clearance } => {
                assert!(first.is_none(), "free, but sampled contact at {first:?}");
                let least = dense.iter().copied().fold(f64::INFINITY, f64::min);
                assert!(clearance as f64 >= least - 1e-4, "{clearance} vs {least}");
                free += 1;
            }
        }
    }
    assert!(
        contacts > 30 && free > 30,
        "{contacts} contacts, {free} free"
    );
}

/// A graze that checking at 0.005 of the segment (MoveIt's default
/// resolution) misses: the straight arm swings from -0.5 to 0.5 rad past a
/// small ball just inside the reach of its tip, in contact only for
/// 3e-3 rad between two of the samples. The motion check finds it.
#[test]
fn a_graze_between_coarse_samples_is_found() {
    use peng_robot::MotionResult;
    let mut c = arm();
    // The tip's cap reaches 3.1 from the base; the ball (radius 0.01) sits
    // 1e-4 inside that at 0.0025 rad, midway between samples at 0 and
    // 0.005.
    let (r_ball, angle) = (0.01f64, 0.0025f64);
    let centre = DVec2::from_angle(angle) * (3.0 + R + r_ball - 1e-4);
    c.environment.push((
        Ball::new(r_ball as f32).unwrap().into(),
        Pose3::from_translation(Vec3::new(centre.x as f32, centre.y as f32, 0.0)),
    ));
    let truth =
        |th: f64| point_segment(centre, DVec2::ZERO, DVec2::from_angle(th) * 3.0) - R - r_ball;
    let lerp = |s: f64| -0.5 + s;
    let coarse = (0..=200).any(|k| truth(lerp(k as f64 / 200.0)) <= 0.0);
    let dense = (0..=100_000).position(|k| truth(lerp(k as f64 / 100_000.0)) <= 0.0);
    assert!(!coarse, "the coarse samples should miss this graze");
    let first = dense.expect("in contact for a moment") as f64 / 100_000.0;
    match c.check_motion(&[-0.5, 0.0, 0.0], &[0.5, 0.0, 0.0]).unwrap() {
        MotionResult::Contact { s, pair } => {
            assert!(
                s <= first + 1e-5 && truth(lerp(s)) <= 2e-4,
                "{s} vs {first}"
            );
            assert_eq!((pair.link, pair.other), (3, Other::Object(0)));
        }
        free => panic!("missed the graze: {free:?}"),
    }
}

/// Batches give each item's own answer, in order, on 1 and 4 threads.
#[test]
fn batches_match_one_by_one_on_any_thread_count() {
    let c = arm();
    let mut next = angles(3);
    let qs: Vec<Vec<f64>> = (0..400).map(|_| vec![next(), next(), next()]).collect();
    let segs: Vec<(Vec<f64>, Vec<f64>)> =
        qs.chunks(2).map(|p| (p[0].clone(), p[1].clone())).collect();
    let one: Vec<_> = qs
        .iter()
        .map(|q| c.check(q, Stop::Never).unwrap())
        .collect();
    let motions: Vec<_> = segs
        .iter()
        .map(|(a, b)| c.check_motion(a, b).unwrap())
        .collect();
    for threads in [1, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (batch, mbatch) =
            pool.install(|| (c.check_batch(&qs, Stop::Never), c.check_motion_batch(&segs)));
        let batch: Vec<_> = batch.into_iter().map(Result::unwrap).collect();
        let mbatch: Vec<_> = mbatch.into_iter().map(Result::unwrap).collect();
        assert_eq!(batch, one, "{threads} threads");
        assert_eq!(mbatch, motions, "{threads} threads");
    }
    assert!(one.iter().any(|r| !r.is_empty()) && one.iter().any(|r| r.is_empty()));
}

/// The allowed-collision matrix of the planar arm: its two adjacent pairs;
/// its one other pair collides in some samples only, so it stays checked.
/// A tree of spheres adds a pair that always overlaps and one that never
/// meets. The SRDF written reads back to the same pairs.
#[test]
fn allowed_collision_matrix_by_sampling() {
    use peng_robot::acm::{generate, to_srdf, DisableReason::*};
    let c = arm();
    let shapes = link_shapes(&c.robot, &MeshSource::default()).unwrap();
    assert_eq!(
        generate(&c.robot, &shapes, 2000, 1),
        [((1, 2), Adjacent), ((2, 3), Adjacent)]
    );

    let spheres = urdf::parse(
        "<robot name=\"s\">\
         <link name=\"base\"><collision><geometry><sphere radius=\"1\"/></geometry></collision></link>\
         <link name=\"arm\"><collision><origin xyz=\"0.5 0 0\"/><geometry><sphere radius=\"0.5\"/></geometry></collision></link>\
         <link name=\"inner\"><collision><geometry><sphere radius=\"0.1\"/></geometry></collision></link>\
         <link name=\"far\"><collision><geometry><sphere radius=\"0.1\"/></geometry></collision></link>\
         <joint name=\"turn\" type=\"continuous\"><parent link=\"base\"/><child link=\"arm\"/><axis xyz=\"0 0 1\"/></joint>\
         <joint name=\"in\" type=\"fixed\"><parent link=\"arm\"/><child link=\"inner\"/><origin xyz=\"0.2 0 0\"/></joint>\
         <joint name=\"out\" type=\"fixed\"><parent link=\"arm\"/><child link=\"far\"/><origin xyz=\"10 0 0\"/></joint>\
         </robot>",
    )
    .unwrap();
    let shapes = link_shapes(&spheres, &MeshSource::default()).unwrap();
    let acm = generate(&spheres, &shapes, 500, 2);
    let (base, arm_l, inner, far) = (0, 1, 2, 3);
    assert_eq!(
        acm,
        [
            ((base, arm_l), Adjacent),
            ((base, inner), Default),
            ((base, far), Never),
            ((arm_l, inner), Adjacent),
            ((arm_l, far), Adjacent),
            ((inner, far), Never),
        ]
    );
    let text = to_srdf(&spheres, &acm);
    let back = srdf::parse(&text, &spheres).unwrap();
    let pairs: Vec<(usize, usize)> = back.disabled.iter().map(|(p, _)| *p).collect();
    assert_eq!(pairs, acm.iter().map(|(p, _)| *p).collect::<Vec<_>>());
    assert_eq!(back.disabled[1].1, "Default");
}
