//! `peng check --png`: a decodable PNG of the requested size with the contact
//! markers, overlap outlines and near-pair lines drawn.

use std::path::PathBuf;
use std::process::Command;

const CONTACT: [u8; 3] = [255, 0, 255];
const OVERLAP: [u8; 3] = [214, 39, 40];
const NEAR: [u8; 3] = [0, 140, 70];

fn render(name: &str, args: &[&str]) -> (u32, u32, Vec<u8>) {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    let out = Command::new(env!("CARGO_BIN_EXE_peng"))
        .arg("check")
        .args(args)
        .arg("--png")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn count(data: &[u8], c: [u8; 3]) -> usize {
    data.chunks_exact(3).filter(|p| *p == c).count()
}

#[test]
fn png_of_the_2d_scene() {
    let (w, h, data) = render("scene2d.png", &["--width", "640", "--height", "400"]);
    assert_eq!((w, h), (640, 400));
    // Every contact point gets a disk of radius 4: about 50 pure pixels each.
    assert!(count(&data, CONTACT) >= 6 * 30, "{}", count(&data, CONTACT));
    assert!(count(&data, OVERLAP) > 200);
    assert!(count(&data, NEAR) > 10);
}

#[test]
fn png_of_the_3d_scene_and_default_size() {
    let (w, h, data) = render("scene3d.png", &["--example", "scene3d"]);
    assert_eq!((w, h), (900, 600));
    assert!(count(&data, CONTACT) >= 6 * 30);
    assert!(count(&data, NEAR) > 10);
}

#[test]
fn unwritable_png_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_peng"))
        .args(["check", "--png", "/no/such/dir/x.png"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/no/such/dir/x.png"), "{err}");
}
