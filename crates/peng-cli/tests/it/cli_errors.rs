//! Malformed scenes: every error exits with status 1 (no panic) and names the
//! file, the line and column of the offending element, and the field.

use std::path::PathBuf;
use std::process::Command;

/// Writes `text` to a scene file named `name`, runs `peng check` on it and
/// returns (file path, stderr), asserting a clean failure.
fn fail(name: &str, text: &str, extra: &[&str]) -> (String, String) {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_peng"))
        .arg("check")
        .arg(&path)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    assert!(out.stdout.is_empty(), "{name}: printed a report");
    (path.display().to_string(), stderr)
}

/// Asserts the error is `FILE:LINE:COL: FIELD: ...` with `message` in it, and that
/// LINE:COL points at `token` in the text.
fn expect(name: &str, text: &str, field: &str, token: &str, message: &str) {
    let (file, err) = fail(name, text, &[]);
    let prefix = format!("error: {file}:");
    let rest = err
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{name}: no file name in {err:?}"));
    let mut it = rest.splitn(3, ':');
    let line: usize = it.next().unwrap().parse().unwrap();
    let col: usize = it.next().unwrap().parse().unwrap();
    let tail = it.next().unwrap();
    if field.is_empty() {
        assert!(tail.starts_with(' '), "{name}: {err}");
    } else {
        assert!(
            tail.starts_with(&format!(" {field}: ")),
            "{name}: field {field} not in {err}"
        );
    }
    assert!(tail.contains(message), "{name}: {message:?} not in {err}");
    let at: String = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .chars()
        .skip(col - 1)
        .collect();
    assert!(
        at.starts_with(token),
        "{name}: {line}:{col} points at {at:?}, not {token:?}"
    );
}

#[test]
fn missing_file() {
    let out = Command::new(env!("CARGO_BIN_EXE_peng"))
        .args(["check", "no/such/scene.json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        err.contains("no/such/scene.json") && err.contains("cannot read"),
        "{err}"
    );
}

#[test]
fn invalid_json() {
    let text =
        "{\n  \"dimension\": 2,\n  \"shapes\": [\n    {\"name\": \"a\" \"shape\": 1}\n  ]\n}\n";
    expect(
        "syntax.json",
        text,
        "",
        "\"shape\"",
        "invalid JSON: expected `,` or `}`",
    );
    let (_, err) = fail("eof.json", "{\"dimension\": 2, \"shapes\": [", &[]);
    assert!(err.contains("eof.json:1:28: invalid JSON: EOF"), "{err}");
}

#[test]
fn wrong_type() {
    let text = r#"{
  "dimension": 2,
  "shapes": [
    {"name": "ok", "shape": {"type": "circle", "radius": 1}},
    {"name": "c2", "shape": {"type": "circle", "radius": 1}},
    {"name": "wheel",
     "shape": {"type": "circle",
               "radius": "a"}}
  ]
}"#;
    expect(
        "wrong_type.json",
        text,
        "shapes[2].shape.radius",
        "\"a\"",
        "invalid type: string \"a\", expected f32 (in shape \"wheel\")",
    );
}

#[test]
fn negative_size() {
    let text = r#"{
  "dimension": 3,
  "shapes": [
    {"name": "ok", "shape": {"type": "ball", "radius": 1}},
    {"name": "wheel", "shape": {"type": "ball", "radius": -1}}
  ]
}"#;
    expect(
        "negative.json",
        text,
        "shapes[1].shape.radius",
        "-1",
        "ball radius must not be negative, got -1 (in shape \"wheel\")",
    );
}

#[test]
fn non_finite_size() {
    // JSON has no NaN; a number beyond f32 range reads as infinity.
    let text = "{\"dimension\": 2, \"shapes\": [\n {\"name\": \"r\", \"shape\": {\"type\": \"rect\", \"half_extents\": [1, 1e39]}}]}";
    expect(
        "inf.json",
        text,
        "shapes[0].shape.half_extents",
        "[1, 1e39]",
        "rect half extents is not finite",
    );
}

#[test]
fn unknown_shape_type() {
    let text = "{\"dimension\": 2,\n \"shapes\": [{\"name\": \"x\",\n  \"shape\": {\"type\": \"ball\", \"radius\": 1}}]}";
    expect(
        "unknown_type.json",
        text,
        "shapes[0].shape.type",
        "\"ball\"",
        "unknown shape type \"ball\" for a 2D scene, expected one of: circle,",
    );
}

#[test]
fn missing_field() {
    let text = "{\"dimension\": 3,\n \"shapes\": [{\"name\": \"box\",\n  \"shape\": {\"type\": \"cuboid\"}}]}";
    expect(
        "missing.json",
        text,
        "shapes[0].shape",
        "{\"type\": \"cuboid\"}",
        "missing field `half_extents`",
    );
    let text =
        "{\"dimension\": 2,\n \"shapes\": [{\"name\": \"x\",\n  \"shape\": {\"radius\": 1}}]}";
    expect(
        "missing_type.json",
        text,
        "shapes[0].shape",
        "{\"radius\"",
        "missing field `type`",
    );
    let text = "{\n  \"shapes\": []\n}";
    expect(
        "missing_dim.json",
        text,
        "",
        "{",
        "missing field `dimension`",
    );
}

#[test]
fn wrong_vector_dimension() {
    let text = "{\"dimension\": 2, \"shapes\": [\n  {\"name\": \"c\", \"shape\": {\"type\": \"circle\", \"radius\": 1},\n   \"position\": [1, 2, 3]}]}";
    expect(
        "vec_dim.json",
        text,
        "shapes[0].position",
        "[1, 2, 3]",
        "invalid length 3, expected an array of 2 numbers [x, y]",
    );
    let text = "{\"dimension\": 3, \"shapes\": [\n  {\"name\": \"h\", \"shape\": {\"type\": \"halfspace\", \"normal\": [0, 1]}}]}";
    expect(
        "vec_dim3.json",
        text,
        "shapes[0].shape.normal",
        "[0, 1]",
        "expected an array of 3 numbers",
    );
}

#[test]
fn degenerate_polygon() {
    let text = "{\"dimension\": 2, \"shapes\": [\n  {\"name\": \"flat\", \"shape\": {\"type\": \"polygon\",\n    \"points\": [[0, 0], [1, 1], [2, 2], [3, 3]]}}]}";
    expect(
        "degenerate.json",
        text,
        "shapes[0].shape.points",
        "[[0, 0]",
        "convex polygon is degenerate",
    );
}

#[test]
fn self_intersecting_simple_polygon() {
    let text = "{\"dimension\": 2, \"shapes\": [\n  {\"name\": \"bow\", \"shape\": {\"type\": \"simple_polygon\",\n    \"points\": [[0, 0], [2, 2], [2, 0], [0, 2]]}}]}";
    expect(
        "bowtie.json",
        text,
        "shapes[0].shape.points",
        "[[0, 0]",
        "simple polygon is degenerate",
    );
}

#[test]
fn nested_compound_error_names_the_part() {
    let text = r#"{"dimension": 3, "shapes": [
  {"name": "cart", "shape": {"type": "compound", "parts": [
     {"shape": {"type": "ball", "radius": 1}},
     {"shape": {"type": "cone", "half_height": 1, "radius": -2}, "position": [0, 1, 0]}
  ]}}]}"#;
    expect(
        "compound.json",
        text,
        "shapes[0].shape.parts[1].shape.radius",
        "-2",
        "cone radius must not be negative, got -2 (in shape \"cart\")",
    );
}

#[test]
fn other_semantic_errors() {
    let text = "{\"dimension\": 4,\n \"shapes\": []}";
    expect(
        "dim.json",
        text,
        "dimension",
        "4",
        "dimension must be 2 or 3, got 4",
    );
    let text = "{\"dimension\": 2, \"shapes\": [\n  {\"name\": \"c\", \"shape\": {\"type\": \"circle\", \"radius\": 1}, \"colour\": \"red\"}]}";
    expect(
        "unknown_field.json",
        text,
        "shapes[0].colour",
        "\"red\"",
        "unknown field `colour`",
    );
    let text = "{\"dimension\": 2, \"shapes\": [\n  {\"name\": \"c\", \"shape\": {\"type\": \"circle\", \"radius\": 1}},\n  {\"name\": \"c\", \"shape\": {\"type\": \"circle\", \"radius\": 2}}]}";
    expect(
        "dup.json",
        text,
        "shapes[1].name",
        "\"c\"",
        "duplicate shape name \"c\"",
    );
    let text = "{\"dimension\": 3, \"shapes\": [\n  {\"name\": \"b\", \"shape\": {\"type\": \"ball\", \"radius\": 1},\n   \"rotation\": {\"axis\": [0, 0, 0], \"angle_deg\": 30}}]}";
    expect(
        "axis.json",
        text,
        "shapes[0].rotation.axis",
        "[0, 0, 0]",
        "rotation axis must be finite and non-zero",
    );
    let text = "{\"dimension\": 2, \"shapes\": [\n  {\"name\": \"s\", \"shape\": {\"type\": \"capsule\", \"radius\": 1, \"a\": [0, 0]}}]}";
    expect(
        "capsule.json",
        text,
        "shapes[0].shape",
        "{\"type\": \"capsule\"",
        "needs either `half_height` or both ends",
    );
    let text = "{\"dimension\": 2, \"distance\": -1, \"shapes\": []}";
    expect(
        "distance.json",
        text,
        "distance",
        "-1",
        "distance must be a finite number >= 0",
    );
}

#[test]
fn bad_distance_argument() {
    let text = "{\"dimension\": 2, \"shapes\": []}";
    let (_, err) = fail("ok.json", text, &["--distance", "-0.5"]);
    assert!(
        err.contains("--distance must be a finite number >= 0"),
        "{err}"
    );
}
