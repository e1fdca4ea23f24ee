//! Helpers shared by the CLI tests.

/// Walks a GIF's blocks (GIF89a specification, sections 17–27) and returns
/// (screen width, screen height, number of images, delays in cs).
pub fn gif_frames(bytes: &[u8]) -> (u16, u16, usize, Vec<u16>) {
    assert_eq!(&bytes[..6], b"GIF89a");
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let (w, h) = (u16_at(6), u16_at(8));
    let packed = bytes[10];
    let mut i = 13;
    if packed & 0x80 != 0 {
        i += 3 << ((packed & 7) + 1);
    }
    let skip_sub_blocks = |mut i: usize| {
        while bytes[i] != 0 {
            i += bytes[i] as usize + 1;
        }
        i + 1
    };
    let (mut images, mut delays) = (0, Vec::new());
    loop {
        match bytes[i] {
            0x21 => {
                if bytes[i + 1] == 0xF9 {
                    delays.push(u16_at(i + 4));
                }
                i = skip_sub_blocks(i + 2);
            }
            0x2C => {
                images += 1;
                let local = bytes[i + 9];
                i += 10;
                if local & 0x80 != 0 {
                    i += 3 << ((local & 7) + 1);
                }
                i = skip_sub_blocks(i + 1);
            }
            0x3B => {
                assert_eq!(i + 1, bytes.len(), "bytes after the trailer");
                return (w, h, images, delays);
            }
            b => panic!("unexpected block 0x{b:02x} at {i}"),
        }
    }
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
