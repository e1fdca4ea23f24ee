//! `peng check --frames N`: shapes moving along keyframes begin and end
//! touching at the frames computed in closed form, in text and JSON; bad
//! options and motions fail with exit status 1 and a located message.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

/// Writes `text` to a scene file `name` and runs `peng check FILE args...`.
fn peng(name: &str, text: &str, args: &[&str]) -> (String, Output) {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_peng"))
        .arg("check")
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    (path.display().to_string(), out)
}

/// Runs successfully and returns stdout.
fn ok(name: &str, text: &str, args: &[&str]) -> String {
    let (_, out) = peng(name, text, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name} {args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Fails with status 1 and returns (file path, stderr).
fn fail(name: &str, text: &str, args: &[&str]) -> (String, String) {
    let (file, out) = peng(name, text, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{name} {args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.stdout.is_empty(), "{name}: printed a report");
    (file, stderr)
}

/// The events of a JSON report as (frame, kind, a, b, depth).
fn events(r: &Value) -> Vec<(u64, String, String, String, Option<f64>)> {
    r["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["frame"].as_u64().unwrap(),
                e["kind"].as_str().unwrap().to_string(),
                e["a"].as_str().unwrap().to_string(),
                e["b"].as_str().unwrap().to_string(),
                e["depth"].as_f64(),
            )
        })
        .collect()
}

/// The spans of pair `a`/`b` in a JSON report.
fn spans(r: &Value, a: &str, b: &str) -> Vec<(u64, Option<u64>)> {
    let p = r["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"] == a && p["b"] == b)
        .unwrap_or_else(|| panic!("no pair {a}/{b} in {r}"));
    p["spans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s[0].as_u64().unwrap(), s[1].as_u64()))
        .collect()
}

/// A unit circle moving along +x at 1 unit/s from x = -5.05 toward a fixed
/// 2 x 2 box at the origin: it touches while -2 <= x <= 2, i.e. for
/// 3.05 <= t <= 7.05 s. At 10 fps the first frame in contact is 31 (t = 3.1,
/// depth 0.05) and the first frame out of contact is 71 (t = 7.1).
const SLIDE2D: &str = r#"{
  "dimension": 2,
  "fps": 10,
  "shapes": [
    {"name": "box", "shape": {"type": "rect", "half_extents": [1, 1]}},
    {"name": "ball", "shape": {"type": "circle", "radius": 1},
     "motion": {"keyframes": [{"t": 0, "position": [-5.05, 0]},
                              {"t": 10, "position": [4.95, 0]}]}}
  ]
}"#;

/// The (a, b) names of the overlapping and near pairs of a static
/// `peng check --json` report, sorted.
fn static_pairs(report: &Value) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = ["overlaps", "near"]
        .iter()
        .flat_map(|k| report[k].as_array().unwrap().clone())
        .map(|o| {
            (
                o["a"].as_str().unwrap().to_string(),
                o["b"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    pairs.sort();
    pairs
}

#[test]
fn circle_through_box_begins_and_ends_at_closed_form_frames() {
    let r: Value =
        serde_json::from_str(&ok("slide.json", SLIDE2D, &["--frames", "100", "--json"])).unwrap();
    assert_eq!(r["format"], "peng-check-frames/1");
    assert_eq!(
        (r["frames"].as_u64(), r["fps"].as_f64()),
        (Some(100), Some(10.0))
    );
    let ev = events(&r);
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!((ev[0].0, ev[0].1.as_str()), (31, "began"));
    assert_eq!((ev[0].2.as_str(), ev[0].3.as_str()), ("box", "ball"));
    let depth = ev[0].4.unwrap();
    assert!((depth - 0.05).abs() < 1e-4, "depth {depth}");
    assert_eq!((ev[1].0, ev[1].1.as_str(), ev[1].4), (71, "ended", None));
    assert_eq!(spans(&r, "box", "ball"), vec![(31, Some(71))]);
    let p = &r["pairs"][0];
    assert_eq!(
        (
            p["first_contact"].as_u64(),
            p["last_contact"].as_u64(),
            p["intervals"].as_u64()
        ),
        (Some(31), Some(70), Some(1))
    );
    // --fps overrides the scene's: at 20 fps the same times are frames 61 and 141.
    let r: Value = serde_json::from_str(&ok(
        "slide.json",
        SLIDE2D,
        &["--frames", "200", "--fps", "20", "--json"],
    ))
    .unwrap();
    assert_eq!(spans(&r, "box", "ball"), vec![(61, Some(141))]);
    // Stopping while in contact leaves the interval open.
    let r: Value =
        serde_json::from_str(&ok("slide.json", SLIDE2D, &["--frames", "50", "--json"])).unwrap();
    assert_eq!(spans(&r, "box", "ball"), vec![(31, None)]);
    assert_eq!(r["pairs"][0]["last_contact"].as_u64(), Some(49));
}

#[test]
fn text_lists_the_same_events_as_json() {
    let text = ok("slide_t.json", SLIDE2D, &["--frames", "100"]);
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("frame ")).collect();
    assert_eq!(
        lines,
        [
            "frame 31  t=3.100  began  box — ball  depth 0.0500",
            "frame 71  t=7.100  ended  box — ball"
        ]
    );
    assert!(
        text.contains("box — ball: first frame 31 (t=3.100), last frame 70 (t=7.000), 1 interval"),
        "{text}"
    );
    // Persisted events fill the frames in between, each with its depth.
    let r: Value = serde_json::from_str(&ok(
        "slide_t.json",
        SLIDE2D,
        &["--frames", "100", "--persist", "--json"],
    ))
    .unwrap();
    let ev = events(&r);
    let persisted: Vec<u64> = ev
        .iter()
        .filter(|e| e.1 == "persisted")
        .map(|e| e.0)
        .collect();
    assert_eq!(persisted, (32..71).collect::<Vec<_>>());
    // Mid-way (frame 51, t = 5.1, x = 0.05) the unit circle is 1.95 deep
    // through the nearest face... along x: box half width 1 + radius 1 - 0.05.
    let mid = ev.iter().find(|e| e.0 == 51).unwrap().4.unwrap();
    assert!((mid - 1.95).abs() < 1e-3, "depth {mid}");
    let text = ok("slide_t.json", SLIDE2D, &["--frames", "100", "--persist"]);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("frame ")).count(),
        ev.len()
    );
}

/// A bar (half extents 2, 0.1, 0.1) turning about z at 100°/s (slerp from 0°
/// to 120° over 1.2 s) sweeps past a ball of radius 0.25 at (0, 1.5, 0). The
/// ball touches the bar's face when 1.5 |cos θ| <= 0.35, i.e. for
/// 76.51° <= θ <= 103.49°. At 100 fps frame k has θ = k°: contact from frame
/// 77 to 103, ended at 104.
const TURN3D: &str = r#"{
  "dimension": 3,
  "shapes": [
    {"name": "bar", "shape": {"type": "cuboid", "half_extents": [2, 0.1, 0.1]},
     "motion": {"keyframes": [
       {"t": 0, "rotation": {"axis": [0, 0, 1], "angle_deg": 0}},
       {"t": 1.2, "rotation": {"axis": [0, 0, 1], "angle_deg": 120}}]}},
    {"name": "ball", "shape": {"type": "ball", "radius": 0.25}, "position": [0, 1.5, 0]}
  ]
}"#;

#[test]
fn turning_bar_3d_meets_the_ball_at_closed_form_angles() {
    let r: Value = serde_json::from_str(&ok(
        "turn.json",
        TURN3D,
        &["--frames", "150", "--fps", "100", "--json"],
    ))
    .unwrap();
    assert_eq!(r["dimension"].as_u64(), Some(3));
    assert_eq!(spans(&r, "bar", "ball"), vec![(77, Some(104))]);
    // At 77°: depth = 0.35 - 1.5 cos 77°.
    let d = events(&r)[0].4.unwrap();
    let expected = 0.35 - 1.5 * 77f64.to_radians().cos();
    assert!(
        (d - expected).abs() < 1e-3,
        "depth {d}, expected {expected}"
    );
}

/// A unit-diameter circle going from x = -3 to 3 and back in 2 s, looping,
/// past a unit box at the origin: in contact while |x| <= 1, i.e. for t in
/// [1/3, 2/3] and [4/3, 5/3] (mod 2). At 10 fps: frames 4-6 and 14-16 each
/// period of 20 frames.
const LOOP2D: &str = r#"{
  "dimension": 2,
  "shapes": [
    {"name": "box", "shape": {"type": "rect", "half_extents": [0.5, 0.5]}},
    {"name": "puck", "shape": {"type": "circle", "radius": 0.5},
     "motion": {"loop": true, "keyframes": [
       {"t": 0, "position": [-3, 0]},
       {"t": 1, "position": [3, 0]},
       {"t": 2, "position": [-3, 0]}]}}
  ]
}"#;

#[test]
fn looping_motion_repeats_its_intervals() {
    let r: Value = serde_json::from_str(&ok(
        "loop.json",
        LOOP2D,
        &["--frames", "40", "--fps", "10", "--json"],
    ))
    .unwrap();
    assert_eq!(
        spans(&r, "box", "puck"),
        vec![(4, Some(7)), (14, Some(17)), (24, Some(27)), (34, Some(37))]
    );
    assert_eq!(r["pairs"][0]["intervals"].as_u64(), Some(4));
    // Without the loop the last pose holds (x = -3): two intervals only.
    let once = LOOP2D.replace("\"loop\": true", "\"loop\": false");
    let r: Value = serde_json::from_str(&ok(
        "once.json",
        &once,
        &["--frames", "40", "--fps", "10", "--json"],
    ))
    .unwrap();
    assert_eq!(spans(&r, "box", "puck"), vec![(4, Some(7)), (14, Some(17))]);
}

#[test]
fn static_scene_gives_its_pairs_as_one_interval_from_frame_0() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_peng"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success());
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    for example in ["scene2d"] {
        let fixed = run(&["check", "--example", example, "--json"]);
        let expected = static_pairs(&fixed);
        assert!(!expected.is_empty());
        let r = run(&["check", "--example", example, "--frames", "5", "--json"]);
        let ev = events(&r);
        assert!(ev.iter().all(|e| e.0 == 0 && e.1 == "began"), "{ev:?}");
        let mut got: Vec<(String, String)> =
            ev.iter().map(|e| (e.2.clone(), e.3.clone())).collect();
        got.sort();
        assert_eq!(got, expected, "{example}");
        for p in r["pairs"].as_array().unwrap() {
            assert_eq!(p["spans"], serde_json::json!([[0, null]]));
            assert_eq!(p["last_contact"].as_u64(), Some(4));
        }
    }
    // The bundled 3D scene without its halfspace floor (see below), from a file.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/scene3d.json");
    let mut scene: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    scene["shapes"]
        .as_array_mut()
        .unwrap()
        .retain(|s| s["shape"]["type"] != "halfspace");
    let text = scene.to_string();
    let fixed: Value = serde_json::from_str(&ok("static3d.json", &text, &["--json"])).unwrap();
    let expected = static_pairs(&fixed);
    assert!(expected.len() >= 3, "{expected:?}");
    let r: Value =
        serde_json::from_str(&ok("static3d.json", &text, &["--frames", "3", "--json"])).unwrap();
    let ev = events(&r);
    assert!(ev.iter().all(|e| e.0 == 0 && e.1 == "began"), "{ev:?}");
    let mut got: Vec<(String, String)> = ev.iter().map(|e| (e.2.clone(), e.3.clone())).collect();
    got.sort();
    assert_eq!(got, expected);
    // The bundled 3D scene as it is, with its halfspace floor (unbounded):
    // the same pairs as the static check, all from frame 0.
    let stat = Command::new(env!("CARGO_BIN_EXE_peng"))
        .args(["check", "--example", "scene3d", "--json"])
        .output()
        .unwrap();
    assert_eq!(stat.status.code(), Some(0));
    let fixed: Value = serde_json::from_slice(&stat.stdout).unwrap();
    let expected = static_pairs(&fixed);
    assert!(
        expected.iter().any(|(a, b)| a == "floor" || b == "floor"),
        "{expected:?}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_peng"))
        .args(["check", "--example", "scene3d", "--frames", "3", "--json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ev = events(&r);
    assert!(ev.iter().all(|e| e.0 == 0 && e.1 == "began"), "{ev:?}");
    let mut got: Vec<(String, String)> = ev.iter().map(|e| (e.2.clone(), e.3.clone())).collect();
    got.sort();
    assert_eq!(got, expected);
}

#[test]
fn bundled_moving_example_runs() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/moving2d.json");
    let text = std::fs::read_to_string(path).unwrap();
    let r: Value =
        serde_json::from_str(&ok("moving2d.json", &text, &["--frames", "150", "--json"])).unwrap();
    // The ball (radius 0.5) dips into the ground at t = 1 s and comes down for
    // good from y = 2 at t = 2 to y = 0.4 at t = 3: touching from y = 0.5, at
    // t = 3 - 0.1 / 1.6 = 2.9375 s, frame 89 (t = 2.967) at 30 fps. In between
    // it meets the turning paddle.
    let pairs: Vec<(&str, &str)> = r["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["a"].as_str().unwrap(), p["b"].as_str().unwrap()))
        .collect();
    assert_eq!(pairs, [("ground", "ball"), ("paddle", "ball")]);
    assert_eq!(spans(&r, "ground", "ball").last(), Some(&(89, None)));
    // The text lists the JSON's events, line for line.
    let text_out = ok("moving2d.json", &text, &["--frames", "150"]);
    let lines: Vec<&str> = text_out
        .lines()
        .filter(|l| l.starts_with("frame "))
        .collect();
    let from_json: Vec<String> = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let mut l = format!(
                "frame {}  t={:.3}  {}  {} — {}",
                e["frame"],
                e["t"].as_f64().unwrap(),
                e["kind"].as_str().unwrap(),
                e["a"].as_str().unwrap(),
                e["b"].as_str().unwrap()
            );
            if let Some(d) = e["depth"].as_f64() {
                l += &if d < 0.0 {
                    format!("  distance {:.4}", -d)
                } else {
                    format!("  depth {d:.4}")
                };
            }
            l
        })
        .collect();
    assert_eq!(lines, from_json);
    assert!(lines.len() >= 5, "{text_out}");
    // Without --frames the scene checks as before, shapes at their positions.
    let text_out = ok("moving2d.json", &text, &[]);
    assert!(text_out.contains("overlapping pairs:"), "{text_out}");
}

/// Asserts `err` is `error: FILE:LINE:COL: FIELD: ...` containing `message`,
/// with LINE:COL pointing at `token` in `text`.
fn located(file: &str, err: &str, text: &str, field: &str, token: &str, message: &str) {
    let rest = err
        .strip_prefix(&format!("error: {file}:"))
        .unwrap_or_else(|| panic!("no file name in {err:?}"));
    let mut it = rest.splitn(3, ':');
    let line: usize = it.next().unwrap().parse().unwrap();
    let col: usize = it.next().unwrap().parse().unwrap();
    let tail = it.next().unwrap();
    assert!(
        tail.starts_with(&format!(" {field}: ")),
        "field {field} not in {err}"
    );
    assert!(tail.contains(message), "{message:?} not in {err}");
    let at: String = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .chars()
        .skip(col - 1)
        .collect();
    assert!(
        at.starts_with(token),
        "{line}:{col} points at {at:?}, not {token:?}"
    );
}

#[test]
fn bad_motions_name_the_field_and_position() {
    let cases = [
        (
            SLIDE2D.replace("\"t\": 10", "\"t\": 0"),
            "shapes[1].motion.keyframes[1].t",
            "0, \"position\": [4.95",
            "strictly increasing",
        ),
        (
            SLIDE2D.replace("\"t\": 0,", "\"t\": -1,"),
            "shapes[1].motion.keyframes[0].t",
            "-1",
            "finite number >= 0",
        ),
        (
            SLIDE2D.replace("\"fps\": 10", "\"fps\": 0"),
            "fps",
            "0",
            "fps must be a finite number > 0",
        ),
        (
            SLIDE2D.replace("[4.95, 0]", "[4.95, 0], \"speed\": 3"),
            "shapes[1].motion.keyframes[1].speed",
            "3",
            "unknown field `speed`",
        ),
        (
            TURN3D.replace(
                "\"angle_deg\": 120",
                "\"angle_deg\": 120, \"quaternion\": [0, 0, 0, 1]",
            ),
            "shapes[0].motion.keyframes[1].rotation",
            "{\"axis\"",
            "",
        ),
    ];
    for (i, (text, field, token, message)) in cases.iter().enumerate() {
        // The motion is checked with or without --frames.
        for args in [&["--frames", "10"][..], &[]] {
            let (file, err) = fail(&format!("bad{i}.json"), text, args);
            located(&file, &err, text, field, token, message);
        }
    }
    let empty = SLIDE2D.replace(
        r#"[{"t": 0, "position": [-5.05, 0]},
                              {"t": 10, "position": [4.95, 0]}]"#,
        "[]",
    );
    let (file, err) = fail("empty.json", &empty, &[]);
    located(
        &file,
        &err,
        &empty,
        "shapes[1].motion.keyframes",
        "[]",
        "at least one keyframe",
    );
}

#[test]
fn bad_options_fail_with_a_clear_message() {
    for (args, message) in [
        (&["--frames", "0"][..], "--frames must be at least 1"),
        (
            &["--frames", "5", "--fps", "0"],
            "--fps must be a finite number > 0",
        ),
        (
            &["--frames", "5", "--fps", "-2"],
            "--fps must be a finite number > 0",
        ),
        (
            &["--frames", "5", "--fps", "NaN"],
            "--fps must be a finite number > 0",
        ),
        (&["--frames", "5", "--distance", "-1"], "--distance must be"),
        (
            &["--frames", "5", "--png", "x.png"],
            "cannot be combined with --frames",
        ),
    ] {
        let (_, err) = fail("opts.json", SLIDE2D, args);
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

/// A bullet (circle of radius 0.05) flying at 300 units/s along +x from
/// x = -10 across a 2 cm wall at x = 0, sampled at 10 fps: the frames put it
/// at x = -10, 20, 50, never near the wall. It first touches the wall when
/// its centre reaches x = -0.06, at t = 9.94 / 300 = 0.033133 s.
const BULLET2D: &str = r#"{
  "dimension": 2,
  "fps": 10,
  "shapes": [
    {"name": "wall", "shape": {"type": "rect", "half_extents": [0.01, 3]}},
    {"name": "bullet", "shape": {"type": "circle", "radius": 0.05},
     "motion": {"keyframes": [
       {"t": 0, "position": [-10, 0.5]},
       {"t": 1, "position": [290, 0.5]}
     ]}}
  ]
}"#;

#[test]
fn ccd_catches_a_bullet_that_passes_between_frames() {
    // Without --ccd the discrete frames never see the contact.
    let plain = ok("bullet2d.json", BULLET2D, &["--frames", "3", "--json"]);
    let r: Value = serde_json::from_str(&plain).unwrap();
    assert!(events(&r).is_empty(), "{plain}");
    // With it: began at frame 1 with the closed-form impact time, ended at
    // frame 2.
    let swept = ok(
        "bullet2d.json",
        BULLET2D,
        &["--frames", "3", "--json", "--ccd"],
    );
    let r: Value = serde_json::from_str(&swept).unwrap();
    let ev = events(&r);
    assert_eq!(ev.len(), 2, "{swept}");
    assert_eq!((ev[0].0, ev[0].1.as_str()), (1, "began"));
    assert_eq!((ev[1].0, ev[1].1.as_str()), (2, "ended"));
    let t = r["events"][0]["impact_t"].as_f64().expect("impact time");
    assert!((t - 9.94 / 300.0).abs() < 1e-5, "impact at {t}");
    assert!(r["events"][1].get("impact_t").is_none());
    // The text report shows the impact time.
    let text = ok("bullet2d.json", BULLET2D, &["--frames", "3", "--ccd"]);
    assert!(text.contains("impact t=0.0331"), "{text}");
}
