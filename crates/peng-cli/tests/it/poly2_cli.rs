//! The `polyline` scene shape: checked, drawn, and rejected with a clear
//! error when malformed.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const SCENE: &str = r#"{"dimension": 2, "shapes": [
  {"name": "ground", "shape": {"type": "polyline",
    "points": [[-4, 0], [-2, 0], [0, 0], [2, 0], [4, 0], [5, 1]]}},
  {"name": "crate", "shape": {"type": "rect", "half_extents": [0.5, 0.25]},
    "position": [0.5, 0.15]},
  {"name": "ring", "shape": {"type": "polyline", "closed": true,
    "points": [[0, 0], [1, 0], [1, 1], [0, 1]]}, "position": [10, 10]}]}"#;

fn scene_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn peng(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_peng"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_box_resting_on_a_polyline_is_found() {
    let path = scene_file("poly2_scene.json", SCENE);
    let out = peng(&["check", path.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ov = r["overlaps"].as_array().unwrap();
    assert_eq!(ov.len(), 1, "{r}");
    assert_eq!(
        (ov[0]["a"].as_str(), ov[0]["b"].as_str()),
        (Some("ground"), Some("crate"))
    );
    let depth = ov[0]["depth"].as_f64().unwrap();
    assert!((depth - 0.1).abs() < 1e-4, "{r}");
    let n: Vec<f64> = ov[0]["normal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_f64().unwrap())
        .collect();
    assert!(n[0].abs() < 1e-5 && (n[1] - 1.0).abs() < 1e-5, "{r}");
    // The crate straddles the vertex at x = 0: still two points, both upright.
    assert_eq!(ov[0]["points"].as_array().unwrap().len(), 2, "{r}");
}

#[test]
fn a_polyline_is_drawn() {
    let path = scene_file("poly2_draw.json", SCENE);
    let png_path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("poly2_draw.png");
    let _ = std::fs::remove_file(&png_path);
    let out = peng(&[
        "check",
        path.to_str().unwrap(),
        "--png",
        png_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dec = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).unwrap(),
    ));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    // The ground is the first shape: overlapping, so drawn in the overlap
    // red along a long horizontal run of pixels.
    let red = buf.chunks_exact(3).filter(|p| *p == [214, 39, 40]).count();
    assert!(red > 200, "{red}");
}

fn error_of(name: &str, text: &str) -> String {
    let path = scene_file(name, text);
    let out = peng(&["check", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn malformed_polylines_are_clear_errors() {
    let one = r#"{"dimension": 2, "shapes": [
  {"name": "dot", "shape": {"type": "polyline", "points": [[0, 0]]}}]}"#;
    let err = error_of("poly2_one.json", one);
    assert!(err.contains("shapes[0].shape.points"), "{err}");
    assert!(
        err.contains("polyline needs at least 2 points, got 1"),
        "{err}"
    );

    let closed = r#"{"dimension": 2, "shapes": [
  {"name": "loop", "shape": {"type": "polyline", "closed": true,
    "points": [[0, 0], [1, 0]]}}]}"#;
    let err = error_of("poly2_closed.json", closed);
    assert!(err.contains("shapes[0].shape.points"), "{err}");
    assert!(
        err.contains("closed polyline needs at least 3 points, got 2"),
        "{err}"
    );

    let typo = r#"{"dimension": 2, "shapes": [
  {"name": "l", "shape": {"type": "polyline", "point": [[0, 0], [1, 0]]}}]}"#;
    let err = error_of("poly2_typo.json", typo);
    assert!(err.contains("point"), "{err}");

    let bad_point = r#"{"dimension": 2, "shapes": [
  {"name": "l", "shape": {"type": "polyline", "points": [[0, 0], [1, 0, 2]]}}]}"#;
    let err = error_of("poly2_point.json", bad_point);
    assert!(err.contains("shapes[0].shape.points[1]"), "{err}");
}

#[test]
fn help_lists_the_polyline() {
    let out = peng(&["check", "--help"]);
    let h = String::from_utf8_lossy(&out.stdout);
    assert!(h.contains("polyline") && h.contains("closed"), "{h}");
}
