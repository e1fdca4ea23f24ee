//! Configuration checks: a planar arm of capsules against its closed form
//! (segment distances in f64), an environment ball, padding, and the
//! Panda's default state.

use glam::{DVec2, Vec3};
use peng::d3::{Ball, Pose3};
use peng_robot::{link_shapes, srdf, urdf, Checker, MeshMode, MeshSource, Other, Stop};
use std::path::PathBuf;

const R: f64 = 0.1;

/// Three unit links in the x-y plane, each a capsule of radius 0.1 along
/// its link (URDF capsules stand along z: turned onto x).
fn arm() -> Checker {
    let mut x = String::from("<robot name=\"arm\"><link name=\"base\"/>");
    let mut parent = "base".to_string();
    for i in 0..3 {
        x += &format!(
            "<link name=\"l{i}\"><collision><origin xyz=\"0.5 0 0\" rpy=\"0 1.5707963267948966 0\"/>\
             <geometry><capsule radius=\"{R}\" length=\"1\"/></geometry></collision></link>\
             <joint name=\"j{i}\" type=\"revolute\"><parent link=\"{parent}\"/><child link=\"l{i}\"/>\
             <origin xyz=\"{} 0 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-3.14\" upper=\"3.14\"/></joint>",
            if i == 0 { 0.0 } else { 1.0 }
        );
        parent = format!("l{i}");
    }
    x += "</robot>";
    let r = urdf::parse(&x).unwrap();
    let shapes = link_shapes(&r, &MeshSource::default()).unwrap();
    Checker::new(r, shapes, None)
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
    let mut seed = 11u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 11) as f64 / (1u64 << 53) as f64) * 6.2 - 3.1
    };
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
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/robots");
    let dir = data.join("example-robot-data/robots/panda_description");
    let r = urdf::read_file(dir.join("urdf/panda.urdf")).unwrap();
    let s = srdf::read_file(dir.join("srdf/panda.srdf"), &r).unwrap();
    let source = MeshSource {
        search_paths: vec![data],
        base: None,
        mode: MeshMode::ConvexHull,
    };
    let shapes = link_shapes(&r, &source).unwrap();
    let c = Checker::new(r.clone(), shapes, Some(&s));
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
