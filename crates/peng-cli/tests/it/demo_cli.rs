//! `peng demo`: the events it prints, the GIF and PNGs it writes, and its
//! errors.

use crate::common;
use crate::common::{fresh_dir, ok, peng};

use common::gif_frames;
use std::path::Path;
use std::process::Output;

/// The event lines: those starting with "frame".
fn events(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("frame")).collect()
}

/// The default run: touches with their contact, every began ended, the GIF
/// in the current directory with one picture per 3 frames at 5 cs.
#[test]
fn default_run_prints_touches_and_writes_the_gif() {
    let d = fresh_dir("demo_default");
    let stdout = ok(&run_demo(&d, &[]));
    let ev = events(&stdout);
    let count = |pat: &str| ev.iter().filter(|l| l.contains(pat)).count();
    let began = count("began  ball-paddle");
    assert!(began >= 2, "{stdout}");
    assert_eq!(count("ended  ball-paddle"), began, "{stdout}");
    assert_eq!(
        count("began  ball-floor"),
        count("ended  ball-floor"),
        "{stdout}"
    );
    for l in ev.iter().filter(|l| l.contains("began  ball-paddle")) {
        assert!(l.contains("point=(") && l.contains("normal=("), "{l}");
    }
    // The first drop lands on the paddle at frame 56 (see the unit test).
    assert!(
        ev[0].starts_with("frame    56  t= 0.933s  began  ball-paddle"),
        "{}",
        ev[0]
    );
    assert!(
        stdout.contains(&format!("{began} touches of the paddle")),
        "{stdout}"
    );
    let bytes = std::fs::read(d.join("peng-demo.gif")).unwrap();
    let (w, h, images, delays) = gif_frames(&bytes);
    assert_eq!((w, h), (480, 360));
    assert_eq!(images, 160); // 480 frames, every 3rd
    assert!(delays.iter().all(|&c| c == 5), "{delays:?}");
    assert!(
        stdout.contains("wrote peng-demo.gif (160 frames"),
        "{stdout}"
    );
}

#[test]
fn runs_are_deterministic_and_options_shape_the_gif() {
    let d = fresh_dir("demo_det");
    let a = ok(&run_demo(&d, &["--no-picture", "--frames", "700"]));
    let b = ok(&run_demo(&d, &["--no-picture", "--frames", "700"]));
    assert_eq!(a, b);
    assert!(events(&a).len() >= 8, "{a}");
    assert!(!d.join("peng-demo.gif").exists(), "--no-picture drew");
    // The events do not depend on the picture.
    let out = d.join("small.gif");
    let c = ok(&run_demo(
        &d,
        &[
            "--frames", "700", "--every", "7", "--width", "120", "--height", "90", "--out",
        ]
        .iter()
        .copied()
        .chain([out.to_str().unwrap()])
        .collect::<Vec<_>>(),
    ));
    assert_eq!(events(&a), events(&c));
    let (w, h, images, delays) = gif_frames(&std::fs::read(&out).unwrap());
    assert_eq!((w, h, images), (120, 90, 100));
    assert!(delays.iter().all(|&c| c == 12), "{delays:?}");
}

#[test]
fn png_dir_writes_numbered_pngs() {
    let d = fresh_dir("demo_png");
    let stdout = ok(&run_demo(
        &d,
        &[
            "--frames",
            "25",
            "--every",
            "10",
            "--width",
            "96",
            "--height",
            "72",
            "--png-dir",
            "pics",
        ],
    ));
    let mut names: Vec<String> = std::fs::read_dir(d.join("pics"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["frame-00000.png", "frame-00010.png", "frame-00020.png"]
    );
    let file = std::fs::File::open(d.join("pics/frame-00010.png")).unwrap();
    let info = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap()
        .info()
        .clone();
    assert_eq!((info.width, info.height), (96, 72));
    assert!(!d.join("peng-demo.gif").exists());
    assert!(stdout.contains("wrote 3 PNG files"), "{stdout}");
}

/// Exit status 1, no panic, and the message names the path.
fn fails_naming(d: &Path, args: &[&str], path: &str) {
    let out = run_demo(d, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains(path), "{stderr}");
    // It fails before the run: no events printed.
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn unwritable_outputs_are_named() {
    let d = fresh_dir("demo_bad");
    let gif = d.join("no-such-dir/x.gif");
    let gif = gif.to_str().unwrap();
    fails_naming(&d, &["--out", gif], gif);
    std::fs::write(d.join("plain-file"), b"x").unwrap();
    let pngs = d.join("plain-file/pics");
    let pngs = pngs.to_str().unwrap();
    fails_naming(&d, &["--png-dir", pngs], pngs);
    // Too many pictures for one GIF: says what to do.
    let out = run_demo(&d, &["--frames", "5000", "--every", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--png-dir"));
    // Two destinations at once is a usage error.
    let out = run_demo(&d, &["--png-dir", "p", "--out", "o.gif"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Runs `peng demo ARGS` in `cwd`.
fn run_demo(cwd: &Path, args: &[&str]) -> Output {
    peng(cwd, "demo", args)
}
