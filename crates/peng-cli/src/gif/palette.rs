//! One colour table of at most 256 colours for a whole animation.
//!
//! peng's pictures are flat-coloured diagrams with anti-aliased edges: a few
//! colours cover almost every pixel and the blends along edges add a few
//! hundred more. So:
//!
//! - If the frames hold at most 256 distinct colours, the palette is exactly
//!   those colours, in ascending `0xRRGGBB` order, and the GIF is lossless.
//! - Otherwise a median cut (Heckbert, "Color image quantization for frame
//!   buffer display", SIGGRAPH 1982) over the colour histogram: starting from
//!   one box holding every colour, the box with the largest count-weighted
//!   squared error about its mean is split along its channel of largest
//!   variance at the count-weighted median, until there are 256 boxes. Ranking
//!   boxes by weighted error (rather than by size alone) spends the entries
//!   where many pixels are, so the large flat areas keep their exact colour
//!   and the rare edge blends share entries. Each box contributes its
//!   count-weighted mean colour, and every colour is then mapped to its
//!   nearest palette entry (squared RGB distance, ties to the lower index).
//!
//! Everything is ordered by colour value, never by hash order, so the same
//! frames always give the same palette and the same file.
//!
//! Why not the `gif` crate's own quantizer (`Frame::from_rgba_speed`,
//! NeuQuant, a palette per frame): on `peng demo`'s 160 frames it took 2.5 s
//! instead of 0.33 s (speed 10), wrote 497 kB instead of 295 kB (a local
//! table per frame, no changed rectangles), and moved colours by up to 185
//! per channel (569 000 channel values off, against at most 29 and 216 000
//! here): the magenta contact dot turns pale, the dark blue normal black.

use std::collections::HashMap;

/// An RGB colour.
pub type Rgb = [u8; 3];

/// A palette and the index of every colour that occurs in the frames.
pub struct Quantized {
    /// The palette: 1 to 256 colours.
    pub colors: Vec<Rgb>,
    /// Palette index of each colour that occurs (key: `0xRRGGBB`).
    pub index: HashMap<u32, u8>,
}

/// Packs a colour as `0xRRGGBB`.
pub fn pack(c: &[u8]) -> u32 {
    u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2])
}

fn unpack(c: u32) -> Rgb {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

/// Builds the palette of the RGB frames (`3` bytes per pixel each).
pub fn quantize<'a>(frames: impl IntoIterator<Item = &'a [u8]>) -> Quantized {
    let mut counts: HashMap<u32, u64> = HashMap::new();
    for frame in frames {
        // Flat areas repeat one colour: count runs, not pixels.
        let mut run: Option<(u32, u64)> = None;
        for px in frame.chunks_exact(3) {
            let c = pack(px);
            match &mut run {
                Some((rc, n)) if *rc == c => *n += 1,
                _ => {
                    if let Some((rc, n)) = run {
                        *counts.entry(rc).or_default() += n;
                    }
                    run = Some((c, 1));
                }
            }
        }
        if let Some((rc, n)) = run {
            *counts.entry(rc).or_default() += n;
        }
    }
    let mut hist: Vec<(u32, u64)> = counts.into_iter().collect();
    hist.sort_unstable();
    if hist.len() <= 256 {
        let colors = hist.iter().map(|&(c, _)| unpack(c)).collect();
        let index = hist
            .iter()
            .enumerate()
            .map(|(i, &(c, _))| (c, i as u8))
            .collect();
        return Quantized { colors, index };
    }
    let colors = median_cut(&mut hist, 256);
    let index = hist
        .iter()
        .map(|&(c, _)| (c, nearest(&colors, unpack(c))))
        .collect();
    Quantized { colors, index }
}

/// The index of the palette colour nearest to `c` (squared RGB distance; the
/// lowest index among equals).
pub fn nearest(colors: &[Rgb], c: Rgb) -> u8 {
    let mut best = (u32::MAX, 0);
    for (i, p) in colors.iter().enumerate() {
        let d: u32 = (0..3)
            .map(|k| (i32::from(p[k]) - i32::from(c[k])).pow(2) as u32)
            .sum();
        if d < best.0 {
            best = (d, i);
        }
    }
    best.1 as u8
}

/// A box of the median cut: a range of the histogram with its statistics.
struct ColorBox {
    start: usize,
    end: usize,
    count: u64,
    /// Count-weighted squared error about the mean, per channel.
    var: [f64; 3],
}

impl ColorBox {
    fn new(hist: &[(u32, u64)], start: usize, end: usize) -> Self {
        let mut count = 0u64;
        let mut sum = [0f64; 3];
        let mut sq = [0f64; 3];
        for &(c, n) in &hist[start..end] {
            count += n;
            for (k, v) in unpack(c).iter().enumerate() {
                let (v, n) = (f64::from(*v), n as f64);
                sum[k] += v * n;
                sq[k] += v * v * n;
            }
        }
        // Σ n (v - mean)² = Σ n v² - (Σ n v)² / Σ n; clamp rounding below 0.
        let var = std::array::from_fn(|k| (sq[k] - sum[k] * sum[k] / count as f64).max(0.0));
        ColorBox {
            start,
            end,
            count,
            var,
        }
    }

    fn error(&self) -> f64 {
        self.var.iter().sum()
    }

    fn mean(&self, hist: &[(u32, u64)]) -> Rgb {
        let mut sum = [0u64; 3];
        for &(c, n) in &hist[self.start..self.end] {
            for (k, v) in unpack(c).iter().enumerate() {
                sum[k] += u64::from(*v) * n;
            }
        }
        // Rounded to nearest: (2 Σ + count) / (2 count).
        sum.map(|s| ((2 * s + self.count) / (2 * self.count)) as u8)
    }
}

/// Splits `hist` (sorted by colour, at least 2 entries) into at most
/// `max_colors` boxes and returns their mean colours. Reorders `hist` within
/// the boxes.
fn median_cut(hist: &mut [(u32, u64)], max_colors: usize) -> Vec<Rgb> {
    let mut boxes = vec![ColorBox::new(hist, 0, hist.len())];
    while boxes.len() < max_colors {
        // The box with the largest error; a box of one colour has none.
        let Some((i, _)) = boxes
            .iter()
            .enumerate()
            .filter(|(_, b)| b.end - b.start > 1)
            .max_by(|(_, a), (_, b)| a.error().total_cmp(&b.error()))
        else {
            break;
        };
        let b = &boxes[i];
        let (start, end, count) = (b.start, b.end, b.count);
        let axis = (0..3)
            .max_by(|&x, &y| b.var[x].total_cmp(&b.var[y]))
            .unwrap_or(0);
        let shift = 16 - 8 * axis as u32;
        // Sort by the channel, then by the whole colour (so ties are ordered
        // the same way every run).
        hist[start..end].sort_unstable_by_key(|&(c, _)| ((c >> shift) & 0xff, c));
        // The weighted median: the first split that puts at least half the
        // pixels on the left, keeping both sides non-empty.
        let mut left = 0u64;
        let mut cut = end - 1;
        for (j, &(_, n)) in hist[start..end].iter().enumerate() {
            left += n;
            if 2 * left >= count {
                cut = start + j + 1;
                break;
            }
        }
        let cut = cut.clamp(start + 1, end - 1);
        boxes[i] = ColorBox::new(hist, start, cut);
        boxes.push(ColorBox::new(hist, cut, end));
    }
    boxes.iter().map(|b| b.mean(hist)).collect()
}
