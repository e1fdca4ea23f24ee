//! The Panda against Pinocchio (with coal): forward kinematics of every
//! link on 100 random configurations, and self-collision verdicts (the
//! SRDF's pairs removed, meshes as triangles) on 2,000. The reference
//! files and the script that made them are in `data/robots/reference/`.

use glam::{DQuat, DVec3};
use peng_robot::{link_shapes, srdf, urdf, Checker, MeshMode, MeshSource, Robot, Stop};
use std::path::PathBuf;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/robots")
}

fn panda() -> Robot {
    urdf::read_file(data().join("example-robot-data/robots/panda_description/urdf/panda.urdf"))
        .unwrap()
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
    let r = panda();
    let dir = data().join("example-robot-data/robots/panda_description");
    let s = srdf::read_file(dir.join("srdf/panda.srdf"), &r).unwrap();
    let source = MeshSource {
        search_paths: vec![data()],
        base: None,
        mode: MeshMode::TriMesh,
    };
    let c = Checker::new(r.clone(), link_shapes(&r, &source).unwrap(), Some(&s));
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
