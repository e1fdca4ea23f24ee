//! Tests of the GIF writer against a small GIF reader written here from the
//! specification (its LZW decoder keeps strings in a `Vec<Vec<u8>>` and widens
//! codes by the decoder's rule, sharing no code with the encoder).

use super::lzw;
use super::*;
use crate::raster::{Canvas, P};

/// A decoded image block with its graphic control extension.
struct Image {
    delay_cs: u16,
    disposal: u8,
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
    table: Vec<[u8; 3]>,
    loop_count: Option<u16>,
    images: Vec<Image>,
    /// Clear codes seen in all images, the leading ones included.
    clears: usize,
}

impl Decoded {
    /// The screen after each image: RGB, drawn over the previous screen
    /// ("do not dispose").
    fn screens(&self) -> Vec<Vec<u8>> {
        let mut screen = vec![0u8; self.width * self.height];
        let mut out = Vec::new();
        for im in &self.images {
            assert_eq!(im.disposal, 1);
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

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        self.pos += 1;
        self.b[self.pos - 1]
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }
    fn take(&mut self, n: usize) -> &[u8] {
        self.pos += n;
        &self.b[self.pos - n..self.pos]
    }
    /// Data sub-blocks up to the terminator, joined.
    fn blocks(&mut self) -> Vec<u8> {
        let mut data = Vec::new();
        loop {
            let n = self.byte() as usize;
            if n == 0 {
                return data;
            }
            data.extend_from_slice(self.take(n));
        }
    }
}

/// Parses a whole GIF89a file; panics on anything malformed.
fn decode(bytes: &[u8]) -> Decoded {
    let mut r = Reader { b: bytes, pos: 0 };
    assert_eq!(r.take(6), b"GIF89a");
    let width = r.u16() as usize;
    let height = r.u16() as usize;
    let packed = r.byte();
    assert!(packed & 0x80 != 0, "global colour table expected");
    let n = 1usize << ((packed & 7) + 1);
    let _background = r.byte();
    let _aspect = r.byte();
    let table: Vec<[u8; 3]> = r
        .take(3 * n)
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let mut out = Decoded {
        width,
        height,
        table,
        loop_count: None,
        images: Vec::new(),
        clears: 0,
    };
    let mut gce: Option<(u16, u8)> = None;
    loop {
        match r.byte() {
            0x21 => match r.byte() {
                0xF9 => {
                    let data = r.blocks();
                    assert_eq!(data.len(), 4);
                    gce = Some((u16::from_le_bytes([data[1], data[2]]), (data[0] >> 2) & 7));
                }
                0xFF => {
                    let id = r.take(r.b[r.pos] as usize + 1)[1..].to_vec();
                    let data = r.blocks();
                    if id == b"NETSCAPE2.0" {
                        assert_eq!(data.len(), 3);
                        assert_eq!(data[0], 1);
                        out.loop_count = Some(u16::from_le_bytes([data[1], data[2]]));
                    }
                }
                _ => {
                    r.blocks();
                }
            },
            0x2C => {
                let x = r.u16() as usize;
                let y = r.u16() as usize;
                let w = r.u16() as usize;
                let h = r.u16() as usize;
                assert_eq!(r.byte(), 0, "no local table, not interlaced");
                let min = r.byte();
                let data = r.blocks();
                let (indices, clears) = lzw_decode(&data, min);
                assert_eq!(indices.len(), w * h, "pixel count of the image");
                assert!(
                    indices.iter().all(|&i| (i as usize) < out.table.len()),
                    "index beyond the colour table"
                );
                let (delay_cs, disposal) = gce.take().expect("a graphic control extension");
                out.clears += clears;
                out.images.push(Image {
                    delay_cs,
                    disposal,
                    x,
                    y,
                    w,
                    h,
                    indices,
                });
            }
            0x3B => break,
            b => panic!("unexpected block 0x{b:02x} at {}", r.pos - 1),
        }
    }
    assert_eq!(r.pos, bytes.len(), "bytes after the trailer");
    out
}

/// Decodes a GIF LZW stream; returns the symbols and the number of clear
/// codes. Panics unless the stream ends with the End code in its last byte.
fn lzw_decode(data: &[u8], min: u8) -> (Vec<u8>, usize) {
    assert!((2..=8).contains(&min));
    let clear = 1usize << min;
    let end = clear + 1;
    let reset = |t: &mut Vec<Vec<u8>>| {
        t.clear();
        t.extend((0..clear).map(|i| vec![i as u8]));
        t.push(Vec::new()); // Clear
        t.push(Vec::new()); // End
    };
    let mut table = Vec::new();
    reset(&mut table);
    let mut width = min as usize + 1;
    let mut bit = 0usize;
    let mut out = Vec::new();
    let mut prev: Option<usize> = None;
    let mut clears = 0;
    loop {
        assert!(bit + width <= data.len() * 8, "stream ended without End");
        let mut code = 0usize;
        for k in 0..width {
            let b = bit + k;
            code |= ((data[b / 8] >> (b % 8)) as usize & 1) << k;
        }
        bit += width;
        if code == clear {
            reset(&mut table);
            width = min as usize + 1;
            prev = None;
            clears += 1;
            continue;
        }
        if code == end {
            break;
        }
        let entry = match prev {
            None => {
                assert!(code < clear, "first code after Clear must be a symbol");
                table[code].clone()
            }
            Some(p) => {
                let entry = if code < table.len() {
                    table[code].clone()
                } else {
                    // The string being defined by this very code (KwKwK).
                    assert_eq!(code, table.len(), "code beyond the table");
                    let mut s = table[p].clone();
                    s.push(table[p][0]);
                    s
                };
                if table.len() < 4096 {
                    let mut s = table[p].clone();
                    s.push(entry[0]);
                    table.push(s);
                    if table.len() == 1 << width && width < 12 {
                        width += 1;
                    }
                }
                entry
            }
        };
        out.extend_from_slice(&entry);
        prev = Some(code);
    }
    assert_eq!(bit.div_ceil(8), data.len(), "bytes after End");
    (out, clears)
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
fn lzw_round_trips_at_every_length_and_code_size() {
    // Lengths cross every code-width change, including the ones that fall
    // right at the End code (the decoder's extra entry).
    for min in [2u8, 3, 5, 8] {
        let mut rng = lcg(u64::from(min));
        let data: Vec<u8> = (0..1500).map(|_| (rng() % (1 << min)) as u8).collect();
        for len in (0..=1500).step_by(if min == 2 { 1 } else { 7 }) {
            let packed = lzw::compress(&data[..len], min);
            let (back, clears) = lzw_decode(&packed, min);
            assert_eq!(back, &data[..len], "min {min}, len {len}");
            assert_eq!(clears, 1, "one leading Clear, table not full");
        }
    }
}

#[test]
fn lzw_clears_when_the_table_is_full() {
    for min in [2u8, 8] {
        // Random symbols add about one string per code: 4096 codes fill the
        // table several times over.
        let mut rng = lcg(7);
        let data: Vec<u8> = (0..40_000).map(|_| (rng() % (1 << min)) as u8).collect();
        let packed = lzw::compress(&data, min);
        let (back, clears) = lzw_decode(&packed, min);
        assert_eq!(back, data);
        assert!(clears >= 3, "min {min}: {clears} clears");
    }
    // Long runs: each code covers a longer run, the table still fills.
    let data = vec![0u8; 5_000_000];
    let (back, _) = lzw_decode(&lzw::compress(&data, 2), 2);
    assert_eq!(back, data);
}

#[test]
fn sub_blocks_are_at_most_255_bytes() {
    let data: Vec<u8> = (0..600u32).map(|i| i as u8).collect();
    let mut out = Vec::new();
    lzw::sub_blocks(&mut out, &data);
    assert_eq!(out[0], 255);
    assert_eq!(out[256], 255);
    assert_eq!(out[512], 90);
    assert_eq!(out.len(), 600 + 4);
    assert_eq!(out[out.len() - 1], 0);
    assert_eq!(&out[1..256], &data[..255]);
}

#[test]
fn header_screen_loop_and_trailer_bytes() {
    let frame = random_frame(300, 2, &[[1, 2, 3], [4, 5, 6], [7, 8, 9]], 1);
    let bytes = encode(&[(300, 2, &frame, 25)]);
    assert_eq!(&bytes[..6], b"GIF89a");
    // Width 300 = 0x012C and height 2, little-endian.
    assert_eq!(&bytes[6..10], &[44, 1, 2, 0]);
    // Global table of 4 entries (3 colours, padded), resolution 8 bits.
    assert_eq!(bytes[10], 0x80 | 0x70 | 1);
    assert_eq!(&bytes[11..13], &[0, 0]);
    assert_eq!(
        &bytes[13..25],
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0],
        "sorted colours, then black"
    );
    let mut netscape = vec![0x21, 0xFF, 11];
    netscape.extend_from_slice(b"NETSCAPE2.0");
    netscape.extend_from_slice(&[3, 1, 0, 0, 0]);
    assert_eq!(&bytes[25..44], &netscape[..]);
    // Graphic control extension: disposal 1, delay 25 = 0x19.
    assert_eq!(&bytes[44..52], &[0x21, 0xF9, 4, 4, 25, 0, 0, 0]);
    assert_eq!(&bytes[52..62], &[0x2C, 0, 0, 0, 0, 44, 1, 2, 0, 0]);
    assert_eq!(bytes[62], 2, "LZW minimum code size");
    assert_eq!(bytes.last(), Some(&0x3B));
    let d = decode(&bytes);
    assert_eq!(d.loop_count, Some(0));
    assert_eq!(d.screens()[0], frame);
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
    // 256 colours at random: the 4096-entry table fills after about 4000
    // codes, so the stream needs Clear codes.
    let colors: Vec<[u8; 3]> = (0..256u32)
        .map(|i| [i as u8, (i * 7) as u8, (255 - i) as u8])
        .collect();
    let frame = random_frame(128, 96, &colors, 11);
    let other = random_frame(128, 96, &colors, 12);
    let d = decode(&encode(&[(128, 96, &frame, 10), (128, 96, &other, 10)]));
    assert_eq!(d.table.len(), 256);
    // Two full images, each needing more than one table.
    assert!(d.clears >= 6, "{} clears", d.clears);
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
        assert_eq!(s, &c.data);
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
