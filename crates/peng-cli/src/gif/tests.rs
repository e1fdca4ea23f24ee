//! Tests of the GIF writer: every file is read back with the `gif` crate's
//! decoder and composed frame by frame, so the checks are on what a viewer
//! shows.
//!
//! The decoder's optional strict end-code check (`check_lzw_end_code`) stays
//! off: in gif 0.14.2 it rejects some valid streams (a 76 × 2 frame of 200
//! colours, for one: the encoder's LZW bytes equal those of peng's earlier
//! hand-written encoder, and an independent decoder finds the End code as
//! the last code of both).

use super::*;
use crate::raster::{Canvas, P};

/// A decoded image with its graphic control values.
struct Image {
    delay_cs: u16,
    dispose: gif::DisposalMethod,
    x: usize,
    y: usize,
    w: usize,
    h: usize,
    indices: Vec<u8>,
}

/// A decoded GIF.
struct Decoded {
    width: usize,
    height: usize,
    /// The global colour table.
    table: Vec<[u8; 3]>,
    repeat: gif::Repeat,
    images: Vec<Image>,
}

impl Decoded {
    /// The screen after each image: RGB, drawn over the previous screen
    /// (disposal "keep").
    fn screens(&self) -> Vec<Vec<u8>> {
        let mut screen = vec![0u8; self.width * self.height];
        let mut out = Vec::new();
        for im in &self.images {
            assert_eq!(im.dispose, gif::DisposalMethod::Keep);
            assert!(im.x + im.w <= self.width && im.y + im.h <= self.height);
            for r in 0..im.h {
                let dst = (im.y + r) * self.width + im.x;
                screen[dst..dst + im.w].copy_from_slice(&im.indices[r * im.w..(r + 1) * im.w]);
            }
            out.push(
                screen
                    .iter()
                    .flat_map(|&i| self.table[i as usize])
                    .collect(),
            );
        }
        out
    }
}

/// Reads a whole GIF with the `gif` crate; panics on anything malformed,
/// on local colour tables and on indices beyond the global table.
fn decode(bytes: &[u8]) -> Decoded {
    assert_eq!(&bytes[..6], b"GIF89a");
    assert_eq!(bytes.last(), Some(&0x3B), "trailer");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut d = options.read_info(bytes).expect("a GIF header");
    let table: Vec<[u8; 3]> = d
        .global_palette()
        .expect("a global colour table")
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let (width, height) = (usize::from(d.width()), usize::from(d.height()));
    let mut images = Vec::new();
    while let Some(f) = d.read_next_frame().expect("a well-formed image") {
        assert!(f.palette.is_none(), "no local colour table");
        assert!(!f.interlaced);
        assert_eq!(f.buffer.len(), usize::from(f.width) * usize::from(f.height));
        assert!(
            f.buffer.iter().all(|&i| usize::from(i) < table.len()),
            "index beyond the colour table"
        );
        images.push(Image {
            delay_cs: f.delay,
            dispose: f.dispose,
            x: usize::from(f.left),
            y: usize::from(f.top),
            w: usize::from(f.width),
            h: usize::from(f.height),
            indices: f.buffer.to_vec(),
        });
    }
    Decoded {
        width,
        height,
        table,
        repeat: d.repeat(),
        images,
    }
}

/// A deterministic pseudo-random sequence (64-bit LCG, Knuth's MMIX
/// constants), top bits.
fn lcg(seed: u64) -> impl FnMut() -> u32 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) as u32
    }
}

/// `w × h` RGB pixels drawn from `colors` at random.
fn random_frame(w: usize, h: usize, colors: &[[u8; 3]], seed: u64) -> Vec<u8> {
    let mut rng = lcg(seed);
    (0..w * h)
        .flat_map(|_| colors[rng() as usize % colors.len()])
        .collect()
}

fn encode(frames: &[(u32, u32, &[u8], u16)]) -> Vec<u8> {
    let mut g = GifWriter::new();
    for &(w, h, rgb, d) in frames {
        g.add_rgb(w, h, rgb, d).unwrap();
    }
    g.to_bytes().unwrap()
}

#[test]
fn screen_palette_loop_and_first_frame() {
    let frame = random_frame(300, 2, &[[1, 2, 3], [4, 5, 6], [7, 8, 9]], 1);
    let bytes = encode(&[(300, 2, &frame, 25)]);
    let d = decode(&bytes);
    assert_eq!((d.width, d.height), (300, 2));
    // Three colours, sorted, padded to the four entries a table can hold.
    assert_eq!(d.table, vec![[1, 2, 3], [4, 5, 6], [7, 8, 9], [0, 0, 0]]);
    assert_eq!(d.repeat, gif::Repeat::Infinite);
    assert_eq!(d.images.len(), 1);
    let im = &d.images[0];
    assert_eq!((im.x, im.y, im.w, im.h, im.delay_cs), (0, 0, 300, 2, 25));
    assert_eq!(d.screens()[0], frame);
}

/// Images of every small size and colour count, so the LZW code width
/// changes fall at every place relative to the end of the data.
#[test]
fn images_of_every_size_and_colour_count_round_trip() {
    for n_colors in [2u32, 3, 5, 17, 200] {
        let colors: Vec<[u8; 3]> = (0..n_colors)
            .map(|i| [i as u8, (i * 7) as u8, 255 - i as u8])
            .collect();
        for w in (1..=600u32).step_by(if n_colors == 2 { 1 } else { 13 }) {
            let f = random_frame(w as usize, 2, &colors, u64::from(w));
            let d = decode(&encode(&[(w, 2, &f, 1)]));
            assert_eq!(d.screens()[0], f, "{n_colors} colours, {w} x 2");
        }
    }
}

#[test]
fn frames_round_trip_exactly_with_their_delays() {
    let colors = [
        [255, 255, 255],
        [214, 39, 40],
        [31, 119, 180],
        [0, 0, 0],
        [255, 0, 255],
    ];
    let (w, h) = (37u32, 23u32);
    let a = random_frame(37, 23, &colors, 1);
    let mut b = a.clone();
    // A change in a small block: the second image covers just that block.
    for y in 5..9 {
        for x in 10..20 {
            let i = (y * 37 + x) * 3;
            b[i..i + 3].copy_from_slice(&[31, 119, 180]);
        }
    }
    let c = random_frame(37, 23, &colors[..2], 3);
    let frames = [&a, &b, &b, &c];
    let delays = [7u16, 0, 65535, 300];
    let input: Vec<_> = frames
        .iter()
        .zip(delays)
        .map(|(f, d)| (w, h, f.as_slice(), d))
        .collect();
    let d = decode(&encode(&input));
    assert_eq!((d.width, d.height), (37, 23));
    assert_eq!(d.table.len(), 8);
    let screens = d.screens();
    assert_eq!(screens.len(), 4);
    for (s, f) in screens.iter().zip(frames) {
        assert_eq!(s, f);
    }
    let got: Vec<u16> = d.images.iter().map(|im| im.delay_cs).collect();
    assert_eq!(got, delays);
    let rects: Vec<_> = d.images.iter().map(|im| (im.x, im.y, im.w, im.h)).collect();
    assert_eq!(rects[0], (0, 0, 37, 23));
    assert!(rects[1].0 >= 10 && rects[1].1 >= 5, "{:?}", rects[1]);
    assert!(rects[1].0 + rects[1].2 <= 20 && rects[1].1 + rects[1].3 <= 9);
    assert_eq!(rects[2], (0, 0, 1, 1), "unchanged frame");
}

#[test]
fn one_pixel_frames() {
    let d = decode(&encode(&[(1, 1, &[9, 8, 7], 3)]));
    assert_eq!(d.table.len(), 2);
    assert_eq!(d.screens(), vec![vec![9, 8, 7]]);
    let d = decode(&encode(&[
        (1, 1, &[9, 8, 7], 3),
        (1, 1, &[1, 1, 1], 4),
        (1, 1, &[9, 8, 7], 5),
    ]));
    assert_eq!(
        d.screens(),
        vec![vec![9, 8, 7], vec![1, 1, 1], vec![9, 8, 7]]
    );
    assert_eq!(d.images[2].delay_cs, 5);
}

#[test]
fn full_dictionary_frame_round_trips() {
    // 256 colours at random: the 4096-entry LZW table fills several times
    // per image.
    let colors: Vec<[u8; 3]> = (0..256u32)
        .map(|i| [i as u8, (i * 7) as u8, (255 - i) as u8])
        .collect();
    let frame = random_frame(128, 96, &colors, 11);
    let other = random_frame(128, 96, &colors, 12);
    let d = decode(&encode(&[(128, 96, &frame, 10), (128, 96, &other, 10)]));
    assert_eq!(d.table.len(), 256);
    assert_eq!(d.screens(), vec![frame, other]);
}

#[test]
fn rasterized_canvas_round_trips() {
    let mut frames = Vec::new();
    for i in 0..3 {
        let mut c = Canvas::new(60, 40, [255, 255, 255]);
        c.disk(
            P::new(15.0 + 10.0 * i as f32, 20.0),
            8.0,
            [31, 119, 180],
            1.0,
        );
        c.line(
            P::new(0.0, 0.0),
            P::new(60.0, 40.0),
            2.0,
            [214, 39, 40],
            1.0,
        );
        frames.push(c);
    }
    let mut g = GifWriter::new();
    for c in &frames {
        g.add_canvas(c, 4).unwrap();
    }
    let d = decode(&g.to_bytes().unwrap());
    for (s, c) in d.screens().iter().zip(&frames) {
        assert_eq!(s, &c.rgb());
    }
}

/// The largest per-channel error of the decoded screens against the input.
fn max_error(screens: &[Vec<u8>], frames: &[&Vec<u8>]) -> u8 {
    screens
        .iter()
        .zip(frames)
        .flat_map(|(s, f)| s.iter().zip(f.iter()).map(|(a, b)| a.abs_diff(*b)))
        .max()
        .unwrap_or(0)
}

#[test]
fn gradient_is_quantized_within_the_stated_error() {
    // 4096 colours: red along x, green along y, blue along the diagonal.
    let (w, h) = (64usize, 64usize);
    let grad: Vec<u8> = (0..w * h)
        .flat_map(|i| {
            let (x, y) = (i % w, i / w);
            [(4 * x + 2) as u8, (4 * y + 1) as u8, (2 * (x + y)) as u8]
        })
        .collect();
    let d = decode(&encode(&[(64, 64, &grad, 5)]));
    assert_eq!(d.table.len(), 256);
    let err = max_error(&d.screens(), &[&grad]);
    // 256 boxes over a 256 × 256 square of (r, g) are about 16 × 16 each:
    // a colour is at most half a box, 8, from its box's mean in each channel
    // (the nearest entry is no farther). Measured: 6.
    assert!(err <= 8, "max channel error {err}");
    // Each pixel gets its nearest palette entry.
    let dist =
        |a: &[u8], b: &[u8]| -> u32 { (0..3).map(|k| u32::from(a[k].abs_diff(b[k])).pow(2)).sum() };
    for (got, want) in d.screens()[0].chunks_exact(3).zip(grad.chunks_exact(3)) {
        let best = d.table.iter().map(|p| dist(p, want)).min().unwrap_or(0);
        assert_eq!(dist(got, want), best, "{want:?} -> {got:?}");
    }
}

#[test]
fn flat_colours_stay_exact_beyond_256_colours() {
    // A diagram: white background, a blue square, and a band of 600 distinct
    // blend colours along an edge (few pixels each).
    let (w, h) = (200usize, 100usize);
    let mut img = vec![255u8; w * h * 3];
    for y in 20..80 {
        for x in 20..120 {
            let i = (y * w + x) * 3;
            img[i..i + 3].copy_from_slice(&[31, 119, 180]);
        }
    }
    for k in 0..600usize {
        let (x, y) = (130 + k % 60, k / 60 * 2);
        let i = (y * w + x) * 3;
        img[i..i + 3].copy_from_slice(&[(k % 256) as u8, (k * 3 % 256) as u8, (k / 3) as u8]);
    }
    let d = decode(&encode(&[(200, 100, &img, 5)]));
    let s = &d.screens()[0];
    assert_eq!(&s[..3], &[255, 255, 255]);
    let i = (50 * w + 50) * 3;
    assert_eq!(&s[i..i + 3], &[31, 119, 180]);
    // Every background and square pixel is exact.
    let exact = s
        .chunks_exact(3)
        .zip(img.chunks_exact(3))
        .filter(|(a, b)| a == b)
        .count();
    assert!(exact >= w * h - 600, "{exact}");
}

#[test]
fn one_colour_too_many_merges_just_two() {
    // 257 colours, equally common: 256 boxes, so exactly one holds two
    // colours and the other 255 stay exact.
    let colors: Vec<[u8; 3]> = (0..257u32)
        .map(|i| [(i * 5) as u8, (i * 11 / 3) as u8, (i / 2) as u8])
        .collect();
    let img: Vec<u8> = colors.iter().flatten().copied().collect();
    let d = decode(&encode(&[(257, 1, &img, 1)]));
    assert_eq!(d.table.len(), 256);
    let exact = d.screens()[0]
        .chunks_exact(3)
        .zip(img.chunks_exact(3))
        .filter(|(a, b)| a == b)
        .count();
    assert!(exact >= 255, "{exact} exact");
}

#[test]
fn flat_frames_compress() {
    // 307200 pixels of one colour: LZW strings grow by one pixel per code,
    // so about sqrt(2 · 307200) ≈ 784 codes of at most 10 bits.
    let img = [200u8, 10, 10].repeat(640 * 480);
    let bytes = encode(&[(640, 480, &img, 1)]);
    assert!(bytes.len() < 1200, "{} bytes", bytes.len());
    assert_eq!(decode(&bytes).screens()[0], img);
}

#[test]
fn output_is_deterministic() {
    let colors: Vec<[u8; 3]> = (0..1000u32)
        .map(|i| [i as u8, (i / 4) as u8, (i * 13) as u8])
        .collect();
    let f = random_frame(50, 50, &colors, 5);
    let a = encode(&[(50, 50, &f, 5)]);
    let b = encode(&[(50, 50, &f, 5)]);
    assert_eq!(a, b);
}

#[test]
fn bad_frames_are_rejected_with_clear_errors() {
    let mut g = GifWriter::new();
    assert!(matches!(g.to_bytes(), Err(GifError::Empty)));
    assert!(matches!(
        g.add_rgb(0, 5, &[], 1),
        Err(GifError::ZeroSize { frame: 0 })
    ));
    assert!(matches!(
        g.add_rgb(70_000, 1, &[], 1),
        Err(GifError::TooLarge { .. })
    ));
    assert!(matches!(
        g.add_rgb(2, 2, &[0; 11], 1),
        Err(GifError::BadLength {
            expected: 12,
            got: 11,
            ..
        })
    ));
    let e = g.add_rgba(2, 2, &[0; 12], 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "GIF frame 0 has 12 bytes of RGBA data; its size needs 16"
    );
    g.add_rgb(2, 2, &[0; 12], 1).unwrap();
    let e = g.add_rgb(3, 2, &[0; 18], 1).unwrap_err();
    assert!(matches!(
        e,
        GifError::SizeMismatch {
            frame: 1,
            expected: (2, 2),
            got: (3, 2)
        }
    ));
    assert_eq!(
        e.to_string(),
        "GIF frame 1 is 3x2 pixels but the first frame is 2x2"
    );
    assert!(!g.is_empty() && g.len() == 1);
    let path = Path::new("/nonexistent-peng-dir/out.gif");
    let e = g.save(path).unwrap_err();
    assert!(matches!(e, GifError::File { .. }));
    assert!(
        e.to_string().contains("/nonexistent-peng-dir/out.gif"),
        "{e}"
    );
}

#[test]
fn rgba_frames_are_their_rgb() {
    let colors = [[255, 255, 255], [214, 39, 40], [31, 119, 180]];
    let rgb = random_frame(30, 20, &colors, 4);
    let rgba: Vec<u8> = rgb
        .chunks_exact(3)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    let mut g = GifWriter::new();
    g.add_rgba(30, 20, &rgba, 7).unwrap();
    assert_eq!(g.to_bytes().unwrap(), encode(&[(30, 20, &rgb, 7)]));
}

#[test]
fn save_writes_the_file() {
    let path = std::env::temp_dir().join(format!("peng-gif-test-{}.gif", std::process::id()));
    let mut g = GifWriter::new();
    g.add_rgb(2, 1, &[1, 2, 3, 4, 5, 6], 9).unwrap();
    g.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(decode(&bytes).screens()[0], vec![1, 2, 3, 4, 5, 6]);
}

/// Cross-checks with gifsicle (not needed by CI): `cargo test -p peng-cli
/// --bin peng gifsicle -- --ignored`. gifsicle decodes every image while
/// unoptimizing and warns about corrupt LZW data or bad blocks.
#[test]
#[ignore = "needs the gifsicle program"]
fn gifsicle_reads_the_output() {
    let colors: Vec<[u8; 3]> = (0..1000u32)
        .map(|i| [i as u8, (i / 4) as u8, (i * 13) as u8])
        .collect();
    let a = random_frame(128, 96, &colors, 1);
    let mut b = a.clone();
    b[3000..3300].fill(7);
    let path = std::env::temp_dir().join(format!("peng-gifsicle-{}.gif", std::process::id()));
    let mut g = GifWriter::new();
    g.add_rgb(128, 96, &a, 12).unwrap();
    g.add_rgb(128, 96, &b, 34).unwrap();
    g.add_rgb(128, 96, &b, 56).unwrap();
    g.save(&path).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new("gifsicle")
            .args(args)
            .arg(&path)
            .output()
            .expect("gifsicle");
        assert!(out.status.success());
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run(&["--unoptimize", "-o", "/dev/null"]);
    let info = run(&["--info"]);
    let _ = std::fs::remove_file(&path);
    assert!(info.contains("3 images"), "{info}");
    assert!(info.contains("loop forever"), "{info}");
    for d in ["delay 0.12s", "delay 0.34s", "delay 0.56s"] {
        assert!(info.contains(d), "{info}");
    }
}
