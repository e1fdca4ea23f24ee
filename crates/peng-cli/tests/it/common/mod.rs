//! Helpers shared by the CLI tests.

/// Reads a GIF back with the `gif` crate, decoding every image, and returns
/// (screen width, screen height, number of images, delays in cs).
pub fn gif_frames(bytes: &[u8]) -> (u16, u16, usize, Vec<u16>) {
    assert_eq!(&bytes[..6], b"GIF89a");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut d = options.read_info(bytes).expect("a GIF header");
    let (w, h) = (d.width(), d.height());
    let mut delays = Vec::new();
    while let Some(f) = d.read_next_frame().expect("a well-formed image") {
        assert!(f.left + f.width <= w && f.top + f.height <= h);
        delays.push(f.delay);
    }
    (w, h, delays.len(), delays)
}

/// A fresh, empty directory for one test, under cargo's test scratch space.
pub fn fresh_dir(name: &str) -> std::path::PathBuf {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `peng SUBCOMMAND ARGS` in `cwd`.
pub fn peng(cwd: &std::path::Path, subcommand: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_peng"))
        .arg(subcommand)
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

/// Asserts success and returns standard output.
pub fn ok(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Asserts a clean failure (status 1, no panic, nothing on standard output)
/// and returns standard error.
pub fn fails(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty(), "{err}");
    err
}
