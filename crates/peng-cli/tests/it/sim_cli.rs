//! `peng sim`: the summary it prints, the GIF and event log it writes, and
//! its errors (located scene errors, joints the physics world lacks, bad
//! options).

use crate::common;
use crate::common::{fails, fresh_dir, ok, peng};

use common::gif_frames;
use std::path::Path;
use std::process::{Command, Output};

/// The bundled pyramid, shortened: the summary, a GIF with one picture
/// every 2 steps (30 per second at 60 Hz), and the boxes' first contacts.
#[test]
fn bundled_pyramid_writes_gif_and_log() {
    let d = fresh_dir("sim_pyramid");
    let stdout = ok(&run_sim(&d, &["--steps", "20"]));
    assert!(
        stdout.starts_with(
            "peng sim <bundled examples/sim/pyramid.json>: 2D, 56 bodies, 0 joints\n\
             steps: 20 (0.333 s simulated, dt 0.016667 s, 4 substeps) in "
        ),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("wrote peng-sim.gif (11 pictures of 480x360, every 2 step(s), 3.33 cs each)"),
        "{stdout}"
    );
    let gif = std::fs::read(d.join("peng-sim.gif")).unwrap();
    let (w, h, images, delays) = gif_frames(&gif);
    assert_eq!((w, h, images), (480, 360, 11));
    // Shown for 3 or 4 cs, adding up to the simulated time of 11 pictures
    // (each until the next: 11 * 2 / 60 s = 36.7 cs).
    assert!(delays.iter().all(|&c| c == 3 || c == 4), "{delays:?}");
    assert_eq!(delays.iter().map(|&c| c as u32).sum::<u32>(), 37);

    let log = std::fs::read_to_string(d.join("peng-sim-events.txt")).unwrap();
    let mut lines = log.lines();
    assert_eq!(
        lines.next(),
        Some(
            "# peng sim <bundled examples/sim/pyramid.json>: 2D, 56 bodies, 0 joints, \
             dt 0.016667 s, 4 substeps, 20 steps"
        )
    );
    let events: Vec<&str> = lines.collect();
    // The ten base boxes rest on the ground from the first step.
    for i in 0..10 {
        let l = format!("step 1  t=0.0167  began  ground — box0_{i}");
        assert!(events.contains(&l.as_str()), "{l} not in {log}");
    }
    let began = events.iter().filter(|l| l.contains("  began  ")).count();
    let ended = events.iter().filter(|l| l.contains("  ended  ")).count();
    assert!(
        stdout.contains(&format!("contacts: {began} began, {ended} ended\n")),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("({} events)", began + ended)));
}

/// A 3D ball dropped on a half-space floor: it lands (one began contact,
/// none ended), in the scene's own picture size.
#[test]
fn ball_on_a_floor_in_3d() {
    let d = fresh_dir("sim_ball3d");
    let scene = d.join("drop.json");
    std::fs::write(
        &scene,
        r#"{"dimension": 3, "seconds": 1, "substeps": 4,
  "view": {"width": 64, "height": 48, "min": [-2, -1], "max": [2, 2], "fps": 10},
  "bodies": [
    {"name": "floor", "kind": "static",
     "colliders": [{"shape": {"type": "halfspace", "normal": [0, 1, 0]}}]},
    {"name": "ball", "position": [0, 1, 0],
     "colliders": [{"shape": {"type": "ball", "radius": 0.25}, "restitution": 0}]}
  ]}"#,
    )
    .unwrap();
    let stdout = ok(&run_sim(
        &d,
        &["drop.json", "--out", "drop.gif", "--log", "drop.txt"],
    ));
    assert!(stdout.contains("3D, 2 bodies"), "{stdout}");
    assert!(stdout.contains("contacts: 1 began, 0 ended"), "{stdout}");
    let (w, h, images, delays) = gif_frames(&std::fs::read(d.join("drop.gif")).unwrap());
    // 10 pictures per second at 60 Hz: every 6 steps, 0 to 60.
    assert_eq!((w, h, images), (64, 48, 11));
    assert!(delays.iter().all(|&c| c == 10), "{delays:?}");
    let log = std::fs::read_to_string(d.join("drop.txt")).unwrap();
    let began: Vec<&str> = log.lines().filter(|l| l.contains("began")).collect();
    assert_eq!(began.len(), 1, "{log}");
    assert!(began[0].ends_with("began  floor — ball"), "{log}");
    // Falling 0.75 takes sqrt(2 * 0.75 / 9.81) = 0.39 s: step 20 to 24,
    // counting the speculative margin.
    let step: u64 = began[0]
        .strip_prefix("step ")
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!((18..=24).contains(&step), "{log}");
}

/// The first step at which a log line ending with `pair` says `kind`.
fn first_step(log: &str, kind: &str, pair: &str) -> u64 {
    log.lines()
        .find(|l| l.contains(&format!("  {kind}  ")) && l.ends_with(pair))
        .and_then(|l| l.strip_prefix("step "))
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {kind} {pair} in {log}"))
}

/// The bundled Newton's cradle: ball 1, let go 60 degrees out on a 3 m
/// string, meets ball 2 after a quarter swing (about 0.95 s: a pendulum's
/// quarter period from 60 degrees is 1.07 times the small-swing one,
/// 1.07 * (pi / 2) * sqrt(3 / 9.81) = 0.93 s), and the push passes
/// through the row to ball 5 within a few steps.
#[test]
fn cradle_passes_the_push_through() {
    let d = fresh_dir("sim_cradle");
    let stdout = ok(&run_sim(&d, &["--example", "cradle", "--no-picture"]));
    assert!(stdout.contains("2D, 6 bodies, 5 joints"), "{stdout}");
    let log = std::fs::read_to_string(d.join("peng-sim-events.txt")).unwrap();
    let first = first_step(&log, "began", "ball1 — ball2");
    let last = first_step(&log, "began", "ball4 — ball5");
    assert!((52..=60).contains(&first), "{log}");
    assert!(last > first && last <= first + 6, "{log}");
}

/// The bundled car drives over the bumps: each wheel meets the ground
/// parts in order (flat ground, bumps at x = 5, 8 and 11, the ramp).
#[test]
fn car_drives_over_the_bumps() {
    let d = fresh_dir("sim_car");
    ok(&run_sim(&d, &["--example", "car", "--no-picture"]));
    let log = std::fs::read_to_string(d.join("peng-sim-events.txt")).unwrap();
    for wheel in ["front_wheel", "rear_wheel"] {
        let steps: Vec<u64> = (1..=4)
            .map(|k| first_step(&log, "began", &format!("ground#{k} — {wheel}")))
            .collect();
        assert!(steps.windows(2).all(|w| w[0] < w[1]), "{wheel}: {steps:?}");
    }
    // The front wheel reaches each bump first.
    assert!(
        first_step(&log, "began", "ground#1 — front_wheel")
            < first_step(&log, "began", "ground#1 — rear_wheel")
    );
}

/// Bad values name file, line, column, field and body or joint.
#[test]
fn scene_errors_are_located() {
    let d = fresh_dir("sim_errors");
    let cases = [
        (
            "density.json",
            "{\"dimension\": 2, \"bodies\": [\n  {\"name\": \"b\", \"colliders\": [\n    {\"shape\": {\"type\": \"circle\", \"radius\": 1}, \"density\": -3}]}]}",
            "density.json:3:59: bodies[0].colliders[0].density: density must be a finite number >= 0, got -3 (in body \"b\")",
        ),
        (
            "joint.json",
            "{\"dimension\": 2, \"bodies\": [\n  {\"name\": \"b\", \"colliders\": [{\"shape\": {\"type\": \"circle\", \"radius\": 1}}]}],\n \"joints\": [{\"type\": \"weld\", \"body_a\": \"b\", \"body_b\": \"c\"}]}",
            "joint.json:3:55: joints[0].body_b: unknown body \"c\" (bodies: b)",
        ),
        (
            "dt.json",
            "{\"dimension\": 2,\n \"dt\": 0, \"bodies\": []}",
            "dt.json:2:8: dt: dt must be a finite number > 0, got 0",
        ),
    ];
    for (file, text, expected) in cases {
        std::fs::write(d.join(file), text).unwrap();
        let err = fails(&run_sim(&d, &[file]));
        assert_eq!(err.trim_end(), format!("error: {expected}"), "{file}");
    }
    let err = fails(&run_sim(&d, &["no/such.json"]));
    assert!(err.contains("cannot read scene file no/such.json"), "{err}");
}

#[test]
fn option_errors() {
    let d = fresh_dir("sim_options");
    let err = fails(&run_sim(&d, &["--fps", "0"]));
    assert!(
        err.contains("--fps must be a finite number > 0, got 0"),
        "{err}"
    );
    let err = fails(&run_sim(&d, &["--steps", "100000", "--fps", "60"]));
    assert!(err.contains("the GIF would hold 100001 pictures"), "{err}");
    let err = fails(&run_sim(
        &d,
        &["--steps", "2", "--out", "no/such/dir/x.gif"],
    ));
    assert!(
        err.contains("cannot create GIF file no/such/dir/x.gif"),
        "{err}"
    );
    // --no-picture writes only the log.
    let stdout = ok(&run_sim(
        &d,
        &["--steps", "2", "--no-picture", "--log", "e.txt"],
    ));
    assert!(!stdout.contains(".gif"), "{stdout}");
    assert!(d.join("e.txt").exists() && !d.join("peng-sim.gif").exists());
}

#[test]
fn help_documents_the_format() {
    let out = Command::new(env!("CARGO_BIN_EXE_peng"))
        .args(["sim", "--help"])
        .output()
        .unwrap();
    let help = ok(&out);
    for needle in [
        "SCENE FORMAT",
        "\"joints\"",
        "revolute | prismatic | distance | weld",
        "EVENT LOG",
        "world space at the start",
    ] {
        assert!(help.contains(needle), "{needle} not in help");
    }
}

/// Two runs of the same scene write the same GIF and the same log, byte
/// for byte.
#[test]
fn runs_are_deterministic() {
    let (d1, d2) = (fresh_dir("sim_det1"), fresh_dir("sim_det2"));
    for d in [&d1, &d2] {
        ok(&run_sim(d, &["--steps", "30"]));
    }
    for f in ["peng-sim.gif", "peng-sim-events.txt"] {
        let (a, b) = (
            std::fs::read(d1.join(f)).unwrap(),
            std::fs::read(d2.join(f)).unwrap(),
        );
        assert!(!a.is_empty() && a == b, "{f} differs between runs");
    }
}

/// The bundled 3D tower: the ball, thrown at 9 m/s from 5.9 m away (surface
/// to surface), reaches the crates after about 0.66 s, and the tower falls:
/// the top crate lands on the floor.
#[test]
fn tower3d_falls_when_hit() {
    let d = fresh_dir("sim_tower3d");
    let stdout = ok(&run_sim(&d, &["--example", "tower3d", "--no-picture"]));
    assert!(stdout.contains("3D, 7 bodies, 0 joints"), "{stdout}");
    let log = std::fs::read_to_string(d.join("peng-sim-events.txt")).unwrap();
    let step_of = |l: &str| -> u64 {
        l.strip_prefix("step ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap()
    };
    let hit = log
        .lines()
        .find(|l| l.contains("began  crate") && l.ends_with("— ball"))
        .unwrap_or_else(|| panic!("the ball never hits: {log}"));
    assert!((36..=44).contains(&step_of(hit)), "{hit}");
    assert!(
        log.lines().any(|l| l.ends_with("began  floor — crate5")),
        "{log}"
    );
}

/// `-` reads the scene from standard input; errors then name `<stdin>`.
#[test]
fn scene_from_stdin() {
    use std::io::Write;
    use std::process::Stdio;
    let d = fresh_dir("sim_stdin");
    let run = |text: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_peng"))
            .args(["sim", "-", "--steps", "3", "--no-picture"])
            .current_dir(&d)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let scene = r#"{"dimension": 2, "bodies": [
  {"name": "b", "colliders": [{"shape": {"type": "circle", "radius": 1}}]}]}"#;
    let stdout = ok(&run(scene));
    assert!(stdout.starts_with("peng sim <stdin>: 2D, 1 body, 0 joints\nsteps: 3 "));
    let err = fails(&run(&scene.replace("\"radius\": 1", "\"radius\": -1")));
    assert!(err.starts_with("error: <stdin>:2:"), "{err}");
}

/// Runs `peng sim ARGS` in `cwd`.
fn run_sim(cwd: &Path, args: &[&str]) -> Output {
    peng(cwd, "sim", args)
}
