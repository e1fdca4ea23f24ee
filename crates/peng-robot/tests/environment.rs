//! Environment objects of every kind against closed forms in f64: a planar
//! arm of three capsules (radius 0.1, in the plane z = 0) among a point
//! cloud of spheres, over a tilted height field, and over the same plane as
//! a two-triangle mesh. The verdicts and the distances to the object agree
//! with the truth, except within 1e-5 m of touching.

use glam::Vec2;
use glam::{DVec2, DVec3};
use peng::d3::{HeightField, Pose3, Quat, Shape, TriMesh, Vec3};
use peng_robot::{point_cloud, Checker, Other, Stop};

mod common;

use common::{planar_arm, uniform, R};

fn arm() -> Checker {
    planar_arm(3)
}

/// The three links' segments at `q` (z = 0).
fn segments(q: &[f64]) -> [(DVec3, DVec3); 3] {
    let mut p = DVec2::ZERO;
    let mut a = 0.0;
    let mut out = [(DVec3::ZERO, DVec3::ZERO); 3];
    for (i, qi) in q.iter().enumerate() {
        a += qi;
        let next = p + DVec2::from_angle(a);
        out[i] = (p.extend(0.0), next.extend(0.0));
        p = next;
    }
    out
}

fn point_segment(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let e = b - a;
    let t = ((p - a).dot(e) / e.dot(e)).clamp(0.0, 1.0);
    (a + e * t - p).length()
}

/// Runs `configs` random configurations against object 0 of `c`: the
/// verdict and the distance to the object from the checker, against
/// `truth(link segment)` (the distance of the link's capsule to the object,
/// in f64, least over the links).
fn compare(c: &Checker, configs: usize, truth: impl Fn(DVec3, DVec3) -> f64) -> (usize, usize) {
    let mut next = uniform(17);
    let (mut hits, mut compared) = (0, 0);
    for _ in 0..configs {
        let q: Vec<f64> = (0..3).map(|_| next() * 6.2 - 3.1).collect();
        let want = segments(&q)
            .iter()
            .map(|&(a, b)| truth(a, b))
            .fold(f64::INFINITY, f64::min);
        let reports = c.check(&q, Stop::Never).unwrap();
        let got = reports.iter().any(|r| r.other == Other::Object(0));
        let (_, near) = c.distance(&q, f32::INFINITY).unwrap();
        let d = near
            .iter()
            .filter(|r| r.other == Other::Object(0))
            .map(|r| r.distance as f64)
            .fold(f64::INFINITY, f64::min);
        if want.abs() > 1e-5 {
            assert_eq!(got, want < 0.0, "q {q:?}: distance {want}");
            compared += 1;
        }
        if want > 0.0 {
            assert!((d - want).abs() <= 1e-5, "q {q:?}: {d} vs {want}");
        } else {
            assert!(d <= 1e-5, "q {q:?}: {d} vs {want}");
        }
        hits += usize::from(want < 0.0);
    }
    (hits, compared)
}

#[test]
fn a_point_cloud_of_spheres() {
    let mut c = arm();
    let mut next = uniform(5);
    let points: Vec<DVec3> = (0..400)
        .map(|_| DVec3::new(next() * 6.0 - 3.0, next() * 6.0 - 3.0, next() * 0.4 - 0.2))
        .collect();
    let r = 0.05;
    let p32: Vec<Vec3> = points.iter().map(|p| p.as_vec3()).collect();
    c.environment
        .push((point_cloud(&p32, r as f32).unwrap(), Pose3::IDENTITY));
    let (hits, compared) = compare(&c, 300, |a, b| {
        points
            .iter()
            .map(|p| point_segment(p.as_vec3().as_dvec3(), a, b) - R - r)
            .fold(f64::INFINITY, f64::min)
    });
    assert!(hits > 30 && compared > 290, "{hits} {compared}");
}

/// The plane `z = A x + B y + C` below the arm, tilted so that it meets some
/// configurations.
const A: f64 = 0.05;
const B: f64 = -0.03;
const C: f64 = -0.15;

/// The distance from a link's capsule to the plane (both sides: the height
/// field and the mesh are surfaces).
fn plane_truth(a: DVec3, b: DVec3) -> f64 {
    let f = |p: DVec3| (p.z - (A * p.x + B * p.y + C)) / (1.0 + A * A + B * B).sqrt();
    let (fa, fb) = (f(a), f(b));
    let d = if fa * fb <= 0.0 {
        0.0
    } else {
        fa.abs().min(fb.abs())
    };
    d - R
}

/// peng's height fields stand along their local y: turned so that y is the
/// world's z (a quarter turn about x takes local `(x, h, z)` to world
/// `(x, -z, h)`).
fn y_up_to_z_up() -> Quat {
    Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)
}

#[test]
fn a_height_field() {
    let mut c = arm();
    let (rows, cols, cell) = (41, 41, Vec2::splat(0.2));
    let flat = HeightField::new(rows, cols, vec![0.0; rows * cols], cell).unwrap();
    let mut heights = Vec::new();
    for r in 0..rows {
        for col in 0..cols {
            let v = flat.vertex(r, col);
            let (x, y) = (v.x as f64, -v.z as f64);
            heights.push((A * x + B * y + C) as f32);
        }
    }
    let field = HeightField::new(rows, cols, heights, cell).unwrap();
    let pose = Pose3::new(Vec3::ZERO, y_up_to_z_up());
    c.environment.push((Shape::HeightField(field.into()), pose));
    let (hits, compared) = compare(&c, 300, plane_truth);
    assert!(hits > 30 && compared > 290, "{hits} {compared}");
}

#[test]
fn a_triangle_mesh() {
    let mut c = arm();
    let corner = |x: f64, y: f64| Vec3::new(x as f32, y as f32, (A * x + B * y + C) as f32);
    let mesh = TriMesh::new(
        vec![
            corner(-4.0, -4.0),
            corner(4.0, -4.0),
            corner(4.0, 4.0),
            corner(-4.0, 4.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap();
    c.environment
        .push((Shape::TriMesh(mesh.into()), Pose3::IDENTITY));
    let (hits, compared) = compare(&c, 300, plane_truth);
    assert!(hits > 30 && compared > 290, "{hits} {compared}");
}
