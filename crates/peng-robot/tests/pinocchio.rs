//! The Panda against Pinocchio (with coal): forward kinematics of every
//! link on 100 random configurations; self-collision verdicts (the SRDF's
//! pairs removed) on 2,000 with the meshes as triangles and on 100,000 with
//! their convex hulls; every link pair's distance on 1,000 (hulls); and
//! verdicts among 20 boxes on 20,000. The reference files and the scripts
//! that made them are in `data/robots/reference/`.

use glam::{DQuat, DVec3};
use peng_robot::{urdf, Checker, MeshMode, Robot, Stop};

mod common;

use common::data;

fn panda() -> Robot {
    urdf::read_file(common::panda_dir().join("urdf/panda.urdf")).unwrap()
}

/// The rows of a reference CSV, header dropped.
fn rows(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(data().join("reference").join(name)).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn numbers(row: &[String]) -> Vec<f64> {
    row.iter().map(|v| v.parse().unwrap()).collect()
}

#[test]
fn forward_kinematics_matches_pinocchio() {
    let r = panda();
    let configs: Vec<Vec<f64>> = rows("panda_configs.csv")
        .iter()
        .map(|row| numbers(&row[1..]))
        .collect();
    let mut checked = 0;
    let poses: Vec<_> = configs.iter().map(|q| r.link_poses(q).unwrap()).collect();
    for row in rows("panda_fk.csv") {
        let k: usize = row[0].parse().unwrap();
        let link = r
            .link(&row[1])
            .unwrap_or_else(|| panic!("no link {}", row[1]));
        let v = numbers(&row[2..]);
        let (t, q) = (
            DVec3::new(v[0], v[1], v[2]),
            DQuat::from_xyzw(v[3], v[4], v[5], v[6]),
        );
        let p = poses[k][link];
        assert!(
            (p.translation - t).length() < 1e-9,
            "config {k} {}: {} vs {t}",
            row[1],
            p.translation
        );
        assert!(
            p.rotation.dot(q).abs() > 1.0 - 1e-12,
            "config {k} {}: {:?} vs {q:?}",
            row[1],
            p.rotation
        );
        checked += 1;
    }
    assert_eq!(checked, 100 * 13);
}

#[test]
fn self_collision_verdicts_match_pinocchio_and_coal() {
    let c = common::panda(MeshMode::TriMesh);
    let mut disagree = Vec::new();
    let mut colliding = 0;
    for row in rows("panda_collisions.csv") {
        let v = numbers(&row[1..10]);
        let want = row[9] == "1";
        colliding += usize::from(want);
        let got = !c.check(&v[..8], Stop::AtFirst).unwrap().is_empty();
        if got != want {
            let (closest, _) = c.distance(&v[..8], 0.0).unwrap();
            disagree.push((row[0].clone(), want, closest.map(|p| p.distance)));
        }
    }
    assert!(colliding > 40, "{colliding}");
    assert!(
        disagree.is_empty(),
        "{} of 2000 differ: {disagree:?}",
        disagree.len()
    );
}

/// A reference file of verdicts: hexadecimal digits of four configurations
/// each, the first in the highest bit.
fn verdicts(name: &str) -> Vec<bool> {
    let text = std::fs::read_to_string(data().join("reference").join(name)).unwrap();
    text.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(|d| {
            let v = d.to_digit(16).unwrap();
            (0..4).rev().map(move |b| v >> b & 1 == 1)
        })
        .collect()
}

/// The Panda with convex hulls of its meshes, the SRDF's pairs removed.
fn hull_checker() -> Checker {
    common::panda(MeshMode::ConvexHull)
}

#[test]
fn hull_verdicts_match_pinocchio_and_coal_on_100000_configurations() {
    let c = hull_checker();
    let want = verdicts("panda_hull_verdicts.txt");
    assert_eq!(want.len(), 100_000);
    let configs = common::reference_configs(&c.robot, want.len());
    let got = c.check_batch(&configs, Stop::AtFirst);
    let mut disagree = Vec::new();
    for (k, (g, &w)) in got.iter().zip(&want).enumerate() {
        let g = !g.as_ref().unwrap().is_empty();
        if g != w {
            let (closest, _) = c.distance(&configs[k], 0.0).unwrap();
            disagree.push((k, w, closest.map(|p| p.distance)));
        }
    }
    let colliding = want.iter().filter(|&&w| w).count();
    assert!(colliding > 4000, "{colliding}");
    assert!(
        disagree.is_empty(),
        "{} of 100000 differ (k, coal's verdict, peng's least distance): {:?}",
        disagree.len(),
        &disagree[..disagree.len().min(20)]
    );
}

#[test]
fn hull_distances_match_pinocchio_and_coal() {
    distances_match(&hull_checker(), "panda_hull_distances.csv", 1e-4);
}

/// With the triangle meshes on both sides (peng's distances go through the
/// meshes' hulls where those settle them).
#[test]
fn mesh_distances_match_pinocchio_and_coal() {
    distances_match(
        &common::panda(MeshMode::TriMesh),
        "panda_mesh_distances.csv",
        1e-5,
    );
}

/// Every checked link pair's distance in `file` (Pinocchio's, on the first
/// configurations of `reference_configs`) against peng's: the same pairs,
/// the same verdict on whether they overlap, separated pairs within `tol` m
/// (depths are measured differently and not compared).
fn distances_match(c: &Checker, file: &str, tol: f64) {
    let r = &c.robot;
    let configs = common::reference_configs(r, 1000);
    let mut compared = 0;
    let mut worst = (0.0f64, String::new());
    let mut peng_pairs = std::collections::HashMap::new();
    let mut last = usize::MAX;
    for row in rows(file) {
        let k: usize = row[0].parse().unwrap();
        if k != last {
            let (_, all) = c.distance(&configs[k], f32::INFINITY).unwrap();
            peng_pairs = all
                .iter()
                .map(|p| {
                    let peng_robot::Other::Link(b) = p.other else {
                        panic!("no environment here")
                    };
                    ((p.link.min(b), p.link.max(b)), p.distance as f64)
                })
                .collect();
            last = k;
        }
        let (a, b) = (r.link(&row[1]).unwrap(), r.link(&row[2]).unwrap());
        let want: f64 = row[3].parse().unwrap();
        let got = *peng_pairs
            .get(&(a.min(b), a.max(b)))
            .unwrap_or_else(|| panic!("config {k}: peng does not check {}-{}", row[1], row[2]));
        assert_eq!(
            got > 0.0,
            want > 0.0,
            "config {k} {}-{}: {got} vs {want}",
            row[1],
            row[2]
        );
        if want > 0.0 {
            let off = (got - want).abs();
            if off > worst.0 {
                worst = (
                    off,
                    format!("config {k} {}-{}: {got} vs {want}", row[1], row[2]),
                );
            }
            compared += 1;
        }
    }
    eprintln!(
        "{compared} separated pairs, worst {:.2e} m: {}",
        worst.0, worst.1
    );
    assert!(compared > 19_000, "{compared}");
    assert!(worst.0 <= tol, "worst {:e}: {}", worst.0, worst.1);
}

/// The cell of `panda_bench.py`: 20 boxes around the arm (`x,y,z` centre,
/// half sides, a turn about z), and Pinocchio's verdicts on 20,000
/// configurations among them, self pairs included.
#[test]
fn verdicts_among_20_boxes_match_pinocchio_and_coal() {
    let mut c = hull_checker();
    common::add_cell_boxes(&mut c);
    assert_eq!(c.environment.len(), 20);
    let want = verdicts("panda_bench_verdicts.txt");
    assert_eq!(want.len(), 20_000);
    let configs = common::reference_configs(&c.robot, want.len());
    let got = c.check_batch(&configs, Stop::AtFirst);
    let differ: Vec<usize> = (0..want.len())
        .filter(|&k| got[k].as_ref().unwrap().is_empty() == want[k])
        .collect();
    let colliding = want.iter().filter(|&&w| w).count();
    assert!(colliding > 8000, "{colliding}");
    assert!(
        differ.is_empty(),
        "{} differ: {:?}",
        differ.len(),
        &differ[..differ.len().min(20)]
    );
}
