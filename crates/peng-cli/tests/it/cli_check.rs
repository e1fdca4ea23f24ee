//! `peng check` on the bundled scenes: the pairs designed into them are found
//! with their closed-form depths, normals and distances, in text and JSON.

use serde_json::Value;
use std::process::Command;

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_peng"))
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "peng {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&run(args)).unwrap()
}

fn v(x: &Value) -> Vec<f32> {
    x.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_f64().unwrap() as f32)
        .collect()
}

fn close(a: &[f32], b: &[f32], tol: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

/// The overlaps as (a, b, depth, normal), in report order.
fn overlaps(r: &Value) -> Vec<(String, String, f32, Vec<f32>)> {
    r["overlaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["a"].as_str().unwrap().to_string(),
                o["b"].as_str().unwrap().to_string(),
                o["depth"].as_f64().unwrap() as f32,
                v(&o["normal"]),
            )
        })
        .collect()
}

/// Checks the found overlaps against the expected list and the contact points
/// against the manifold convention: `point_a - point_b = normal * depth`.
fn assert_overlaps(r: &Value, expected: &[(&str, &str, f32, &[f32])]) {
    let got = overlaps(r);
    assert_eq!(got.len(), expected.len(), "{got:?}");
    for ((a, b, d, n), (ea, eb, ed, en)) in got.iter().zip(expected) {
        assert_eq!((a.as_str(), b.as_str()), (*ea, *eb), "{got:?}");
        assert!((d - ed).abs() < 2e-3, "{a}/{b}: depth {d}, expected {ed}");
        assert!(close(n, en, 2e-3), "{a}/{b}: normal {n:?}, expected {en:?}");
    }
    for o in r["overlaps"].as_array().unwrap() {
        let pts = o["points"].as_array().unwrap();
        assert!(!pts.is_empty(), "{o}");
        for p in pts {
            let n = v(&p["normal"]);
            let (pa, pb, d) = (
                v(&p["point_a"]),
                v(&p["point_b"]),
                p["depth"].as_f64().unwrap() as f32,
            );
            let diff: Vec<f32> = pa.iter().zip(&pb).map(|(x, y)| x - y).collect();
            let nd: Vec<f32> = n.iter().map(|c| c * d).collect();
            assert!(
                close(&diff, &nd, 2e-3),
                "{o}: a - b = {diff:?}, n d = {nd:?}"
            );
            assert!(d <= o["depth"].as_f64().unwrap() as f32 + 1e-6);
        }
    }
}

const UP2: &[f32] = &[0.0, 1.0];
const UP3: &[f32] = &[0.0, 1.0, 0.0];

#[test]
fn bundled_2d_scene_reports_the_designed_pairs() {
    let r = json(&["check", "--json"]);
    assert_eq!(r["dimension"], 2);
    assert_eq!(r["shapes"], 9);
    assert_eq!(r["pairs"], 36);
    assert_eq!(r["distance"].as_f64(), Some(0.5));
    assert_overlaps(
        &r,
        &[
            ("ground", "crate", 0.25, UP2),
            ("ground", "wedge", 0.1, UP2),
            ("ground", "cart", 0.05, UP2),
            ("crate", "ball", 0.2, &[1.0, 0.0]),
            ("ball", "rail", 0.15, UP2),
            ("beam", "hexagon", 0.15, UP2),
        ],
    );
    // ground/crate is a face contact: the points lie on the ground's top (y = 0)
    // and the crate's bottom (y = -0.25), within the crate's width.
    let gc = &r["overlaps"][0]["points"];
    for p in gc.as_array().unwrap() {
        let (pa, pb) = (v(&p["point_a"]), v(&p["point_b"]));
        assert!(pa[1].abs() < 1e-3 && (pb[1] + 0.25).abs() < 1e-3, "{p}");
        assert!(pa[0] >= -6.001 && pa[0] <= -3.999, "{p}");
    }
    // ground/cart: both wheels (parts 1 and 2 of the compound) touch.
    let wheels = r["overlaps"][2]["points"].as_array().unwrap();
    let parts: Vec<u64> = wheels
        .iter()
        .map(|p| p["part_b"].as_u64().unwrap())
        .collect();
    assert_eq!(parts, [1, 2], "{wheels:?}");
    for (p, x) in wheels.iter().zip([3.7, 5.3]) {
        assert!(close(&v(&p["point_a"]), &[x, 0.0], 2e-3), "{p}");
        assert!((p["depth"].as_f64().unwrap() - 0.05).abs() < 2e-3, "{p}");
    }
    // crate/ball: the ball's deepest point is 0.2 inside the crate's right face.
    let cb = &r["overlaps"][3]["points"][0];
    assert!(close(&v(&cb["point_a"]), &[-4.0, 1.5], 2e-3), "{cb}");
    assert!(close(&v(&cb["point_b"]), &[-4.2, 1.5], 2e-3), "{cb}");

    let near = r["near"].as_array().unwrap();
    assert_eq!(near.len(), 1, "{near:?}");
    let n = &near[0];
    assert_eq!(
        (n["a"].as_str(), n["b"].as_str()),
        (Some("wedge"), Some("beam"))
    );
    assert!((n["distance"].as_f64().unwrap() - 0.4).abs() < 2e-3, "{n}");
    assert!(close(&v(&n["point_a"]), &[0.5, 1.4], 2e-3), "{n}");
    assert!(close(&v(&n["point_b"]), &[0.5, 1.8], 2e-3), "{n}");
    assert!(close(&v(&n["normal"]), UP2, 2e-3), "{n}");
}

#[test]
fn bundled_3d_scene_reports_the_designed_pairs() {
    let r = json(&["check", "--example", "scene3d", "--json"]);
    assert_eq!(r["dimension"], 3);
    assert_eq!(r["shapes"], 10);
    assert_overlaps(
        &r,
        &[
            ("floor", "crate", 0.2, UP3),
            ("floor", "pillar", 0.05, UP3),
            ("crate", "ball", 0.1, &[1.0, 0.0, 0.0]),
            ("crate", "dumbbell", 0.05, UP3),
            ("pillar", "spike", 0.05, UP3),
            ("rod", "tetra", 0.15, UP3),
        ],
    );
    let near = r["near"].as_array().unwrap();
    assert_eq!(near.len(), 1, "{near:?}");
    assert_eq!(
        (near[0]["a"].as_str(), near[0]["b"].as_str()),
        (Some("floor"), Some("rod"))
    );
    assert!((near[0]["distance"].as_f64().unwrap() - 0.35).abs() < 2e-3);
}

#[test]
fn text_report_lists_pairs_and_distance_flag_overrides_the_scene() {
    let t = run(&["check"]);
    assert!(t.contains("2D, 9 shapes, 36 pairs"), "{t}");
    assert!(t.contains("overlapping pairs: 6"), "{t}");
    assert!(
        t.contains("ground / crate: depth 0.2500, normal (0.0000, 1.0000)"),
        "{t}"
    );
    assert!(
        t.contains("crate / ball: depth 0.2000, normal (1.0000, 0.0000)"),
        "{t}"
    );
    assert!(t.contains("near pairs (distance <= 0.5000): 1"), "{t}");
    assert!(t.contains("wedge / beam: distance 0.4000"), "{t}");

    // --distance 0: overlaps only. --distance 1: more near pairs.
    let r = json(&["check", "--json", "--distance", "0"]);
    assert_eq!(r["near"].as_array().unwrap().len(), 0);
    assert_eq!(r["overlaps"].as_array().unwrap().len(), 6);
    let r = json(&["check", "--json", "--distance", "1"]);
    let near = r["near"].as_array().unwrap();
    assert!(near.len() > 1, "{near:?}");
    for n in near {
        let d = n["distance"].as_f64().unwrap();
        assert!(d > 0.0 && d <= 1.0, "{n}");
    }
}

#[test]
fn json_has_the_documented_keys_in_order() {
    let raw = run(&["check", "--json"]);
    let keys = [
        "\"format\"",
        "\"scene\"",
        "\"dimension\"",
        "\"shapes\"",
        "\"distance\"",
        "\"pairs\"",
        "\"pairs_tested\"",
        "\"overlaps\"",
        "\"near\"",
    ];
    let pos: Vec<usize> = keys.iter().map(|k| raw.find(k).unwrap()).collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{pos:?}");
    let r: Value = serde_json::from_str(&raw).unwrap();
    assert_eq!(r["format"], "peng-check/1");
    let tested = r["pairs_tested"].as_u64().unwrap();
    assert!((7..36).contains(&tested), "prefilter kept {tested} pairs");
    let o = &r["overlaps"][0];
    let okeys: Vec<&String> = o.as_object().unwrap().keys().collect();
    for k in ["a", "b", "depth", "normal", "points"] {
        assert!(okeys.iter().any(|x| *x == k), "{o}");
    }
    let p = &o["points"][0];
    for k in ["point_a", "point_b", "depth", "normal", "part_a", "part_b"] {
        assert!(p.get(k).is_some(), "{p}");
    }
    let raw_o = raw.find("\"points\"").unwrap();
    assert!(raw[raw_o..].find("\"point_a\"") < raw[raw_o..].find("\"point_b\""));
}

#[test]
fn reads_scenes_from_files_and_stdin() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("two_circles.json");
    let text = r#"{"dimension": 2, "shapes": [
        {"name": "p", "shape": {"type": "circle", "radius": 1}},
        {"name": "q", "shape": {"type": "circle", "radius": 1}, "position": [1.5, 0]},
        {"name": "far", "shape": {"type": "circle", "radius": 1}, "position": [100, 0]}]}"#;
    std::fs::write(&path, text).unwrap();
    let r = json(&["check", path.to_str().unwrap(), "--json"]);
    assert_overlaps(&r, &[("p", "q", 0.5, &[1.0, 0.0])]);
    // The far circle is culled by the AABB prefilter.
    assert_eq!(r["pairs_tested"], 1);

    let mut child = Command::new(env!("CARGO_BIN_EXE_peng"))
        .args(["check", "-", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["scene"], "<stdin>");
    assert_eq!(r["overlaps"].as_array().unwrap().len(), 1);
}

#[test]
fn simple_polygon_is_split_into_convex_parts() {
    // An L: the circle sits in its inner corner, touching only the lower arm.
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ell.json");
    let text = r#"{"dimension": 2, "shapes": [
        {"name": "ell", "shape": {"type": "simple_polygon",
         "points": [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]]}},
        {"name": "pebble", "shape": {"type": "circle", "radius": 0.5}, "position": [3, 1.3]},
        {"name": "inside", "shape": {"type": "circle", "radius": 0.5}, "position": [2.5, 2.5]}]}"#;
    std::fs::write(&path, text).unwrap();
    let r = json(&["check", path.to_str().unwrap(), "--json"]);
    // "inside" lies in the L's bounding box but outside the L: no overlap.
    assert_overlaps(&r, &[("ell", "pebble", 0.2, UP2)]);
}

#[test]
fn help_explains_the_command_and_format() {
    let h = run(&["--help"]);
    assert!(h.contains("check") && h.contains("collision"), "{h}");
    let h = run(&["check", "--help"]);
    for s in [
        "--distance",
        "--json",
        "--png",
        "SCENE FORMAT",
        "half_extents",
        "polyhedron",
        "simple_polygon",
        "quaternion",
        "JSON OUTPUT",
        "peng-check/1",
        "orthographic front view",
        "Exit status",
    ] {
        assert!(h.contains(s), "check --help lacks {s:?}");
    }
}
