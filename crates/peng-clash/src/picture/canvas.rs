//! The one drawing surface of peng's pictures: the clash pictures here and
//! the `peng` tool's (`check --png`, `demo`, `sim`) draw on it.
//!
//! The 2D primitives (filled polygons and disks, anti-aliased strokes with
//! round caps and joins, dashes, arrows, rectangles) are `tiny-skia`'s path
//! filling and stroking on its `Pixmap`; PNG goes through the `png` crate.
//! Only the depth-tested triangles ([`super::depth`]) and the one-pixel
//! lines drawn by the hundred ([`Canvas::hairlines`]) are drawn by hand.
//! Coordinates are pixels: x right, y down, pixel `(i, j)` covering
//! `[i, i+1] × [j, j+1]`.

use glam::Vec2;
use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, PremultipliedColorU8,
    Rect, Stroke, StrokeDash, Transform,
};

/// An RGB colour.
pub type Rgb = [u8; 3];

/// The largest side of a canvas in pixels; larger requests are clamped.
pub const MAX_SIDE: u32 = 16_384;

/// An opaque picture (RGBA, alpha always 255), with a depth buffer for
/// [`Canvas::fill_triangle`] made on its first use.
#[derive(Debug, Clone)]
pub struct Canvas {
    pixmap: Pixmap,
    /// Per-pixel depth (larger is nearer), empty until a triangle is drawn.
    /// In `f32`: depths are taken from the view's centre, so 10 µm apart stay
    /// apart up to 80 m from it, and the buffer is half the memory traffic.
    pub(super) depth: Vec<f32>,
}

impl Canvas {
    /// A canvas filled with `background`, each side clamped to
    /// `1..=`[`MAX_SIDE`] (PNG has no empty pictures).
    pub fn new(width: u32, height: u32, background: Rgb) -> Canvas {
        let (w, h) = (width.clamp(1, MAX_SIDE), height.clamp(1, MAX_SIDE));
        let mut pixmap = Pixmap::new(w, h).expect("sides within 1..=MAX_SIDE");
        let [r, g, b] = background;
        pixmap.fill(Color::from_rgba8(r, g, b, 255));
        Canvas {
            pixmap,
            depth: Vec::new(),
        }
    }

    /// Fills the whole canvas with `background` and forgets the depths, so
    /// that one canvas can draw many pictures of its size.
    pub fn clear(&mut self, background: Rgb) {
        let [r, g, b] = background;
        self.pixmap.fill(Color::from_rgba8(r, g, b, 255));
        self.depth.fill(f32::NEG_INFINITY);
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// The pixels, row by row, four bytes each (RGBA, alpha always 255).
    pub fn rgba(&self) -> &[u8] {
        self.pixmap.data()
    }

    /// The pixels, row by row, three bytes each (RGB).
    pub fn rgb(&self) -> Vec<u8> {
        let rgba = self.rgba();
        let mut out = vec![0; rgba.len() / 4 * 3];
        for (o, p) in out.chunks_exact_mut(3).zip(rgba.chunks_exact(4)) {
            o.copy_from_slice(&p[..3]);
        }
        out
    }

    /// The colour of pixel `(x, y)`, if inside.
    pub fn get(&self, x: i64, y: i64) -> Option<Rgb> {
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        let p = self.pixmap.pixel(x, y)?;
        Some([p.red(), p.green(), p.blue()])
    }

    /// The pixels (row order) and the depth buffer, for the depth-tested
    /// triangles to write together.
    pub(super) fn pixels_and_depth(&mut self) -> (&mut [PremultipliedColorU8], &mut [f32]) {
        (self.pixmap.pixels_mut(), &mut self.depth)
    }

    /// The canvas as PNG bytes (8-bit RGB), through the `png` crate rather
    /// than `tiny-skia`'s `encode_png`, which always writes the alpha
    /// channel: that made these opaque pictures about 8% larger.
    pub fn to_png(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, self.width(), self.height());
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        // The fastest setting (fdeflate's ultra-fast mode on rows filtered by
        // the row above): on the duplex model's 1,029 clash pictures at
        // 480 × 360, 0.2 ms and 24 KB a picture, against 1.7 ms and 12 KB at
        // the default level (zlib 6, adaptive filters) and 0.46 ms and 18 KB
        // at zlib 1. Pictures are drawn by the thousand, so speed wins.
        enc.set_compression(png::Compression::Fastest);
        let mut w = enc.write_header().expect("writing to memory cannot fail");
        w.write_image_data(&self.rgb())
            .expect("the buffer has width × height pixels");
        drop(w);
        out
    }

    /// Writes the canvas as a PNG to `w`.
    pub fn write_png<W: std::io::Write>(&self, mut w: W) -> std::io::Result<()> {
        w.write_all(&self.to_png())?;
        w.flush()
    }

    /// Fills `path` with `color` at opacity `alpha` (even-odd rule).
    fn fill(&mut self, path: &Path, color: Rgb, alpha: f32) {
        let paint = paint(color, alpha);
        self.pixmap
            .fill_path(path, &paint, FillRule::EvenOdd, Transform::identity(), None);
    }

    /// Strokes `path` `width` pixels wide with round caps and joins.
    fn stroke(
        &mut self,
        path: &Path,
        width: f32,
        color: Rgb,
        alpha: f32,
        dash: Option<StrokeDash>,
    ) {
        let stroke = Stroke {
            width,
            line_cap: LineCap::Round,
            line_join: LineJoin::Round,
            dash,
            ..Stroke::default()
        };
        let paint = paint(color, alpha);
        self.pixmap
            .stroke_path(path, &paint, &stroke, Transform::identity(), None);
    }

    /// Fills a polygon (even-odd rule), anti-aliased.
    pub fn fill_polygon(&mut self, pts: &[Vec2], color: Rgb, alpha: f32) {
        if let Some(path) = polygon(pts, true) {
            self.fill(&path, color, alpha);
        }
    }

    /// A closed polyline `width` pixels wide.
    pub fn polyline_closed(&mut self, pts: &[Vec2], width: f32, color: Rgb) {
        if let Some(path) = polygon(pts, true) {
            self.stroke(&path, width, color, 1.0, None);
        }
    }

    /// A line `width` pixels wide with round caps, at opacity `alpha`.
    pub fn line(&mut self, a: Vec2, b: Vec2, width: f32, color: Rgb, alpha: f32) {
        if let Some(path) = segment(a, b) {
            self.stroke(&path, width, color, alpha, None);
        }
    }

    /// A dashed line: dashes of `dash` pixels (plus their round caps)
    /// separated by gaps of `gap`, starting with a dash at `a`.
    pub fn dashed_line(&mut self, a: Vec2, b: Vec2, width: f32, color: Rgb, dash: f32, gap: f32) {
        let Some(path) = segment(a, b) else { return };
        match StrokeDash::new(vec![dash, gap], 0.0) {
            Some(d) => self.stroke(&path, width, color, 1.0, Some(d)),
            // A zero gap is a solid line.
            None if dash > 0.0 && gap <= 0.0 => self.stroke(&path, width, color, 1.0, None),
            None => {}
        }
    }

    /// An arrow from `a` to `b`: a line `width` wide and a filled triangular
    /// head `head` pixels long.
    pub fn arrow(&mut self, a: Vec2, b: Vec2, width: f32, color: Rgb, head: f32) {
        let len = a.distance(b);
        if !len.is_finite() || len <= 0.0 {
            return;
        }
        let u = (b - a) / len;
        let h = head.min(len);
        let base = b - u * h;
        self.line(a, base, width, color, 1.0);
        let side = u.perp() * h * 0.45;
        let tri = [b, base + side, base - side];
        self.fill_polygon(&tri, color, 1.0);
        // A thin outline rounds the head's corners a little.
        self.polyline_closed(&tri, 1.0, color);
    }

    /// A filled disk, anti-aliased, at opacity `alpha`.
    pub fn disk(&mut self, center: Vec2, radius: f32, color: Rgb, alpha: f32) {
        if !center.is_finite() {
            return;
        }
        if let Some(path) = PathBuilder::from_circle(center.x, center.y, radius) {
            self.fill(&path, color, alpha);
        }
    }

    /// A circle of radius `radius` stroked `width` pixels wide.
    pub fn ring(&mut self, center: Vec2, radius: f32, width: f32, color: Rgb) {
        if !center.is_finite() {
            return;
        }
        if let Some(path) = PathBuilder::from_circle(center.x, center.y, radius) {
            self.stroke(&path, width, color, 1.0, None);
        }
    }

    /// Fills the rectangle `[x, x+w] × [y, y+h]` (pixel-aligned when the
    /// numbers are whole).
    pub fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, color: Rgb) {
        if let Some(r) = Rect::from_xywh(x, y, w, h) {
            let paint = paint(color, 1.0);
            self.pixmap
                .fill_rect(r, &paint, Transform::identity(), None);
        }
    }
}

/// A solid anti-aliased paint.
fn paint(color: Rgb, alpha: f32) -> Paint<'static> {
    let [r, g, b] = color;
    let a = (alpha.clamp(0.0, 1.0) * 255.0).round() as u8;
    let mut p = Paint::default();
    p.set_color_rgba8(r, g, b, a);
    p.anti_alias = true;
    p
}

/// The path through `pts`, closed or not; `None` for fewer than two points
/// or a point that is not finite.
fn polygon(pts: &[Vec2], close: bool) -> Option<Path> {
    if pts.len() < 2 || pts.iter().any(|p| !p.is_finite()) {
        return None;
    }
    let mut pb = PathBuilder::with_capacity(pts.len() + 1, pts.len());
    pb.move_to(pts[0].x, pts[0].y);
    for p in &pts[1..] {
        pb.line_to(p.x, p.y);
    }
    if close {
        pb.close();
    }
    pb.finish()
}

/// The path of segment `ab` (a single point draws as a round dot).
fn segment(a: Vec2, b: Vec2) -> Option<Path> {
    polygon(&[a, b], false)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Rgb = [255, 255, 255];
    const RED: Rgb = [255, 0, 0];

    fn count(c: &Canvas, col: Rgb) -> usize {
        c.rgb().chunks_exact(3).filter(|p| *p == col).count()
    }

    /// Total coverage by red over white: how much green is gone.
    fn coverage(c: &Canvas) -> f32 {
        c.rgb()
            .chunks_exact(3)
            .map(|p| (255.0 - p[1] as f32) / 255.0)
            .sum()
    }

    fn p(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn filled_square_covers_exactly_its_pixels() {
        let mut c = Canvas::new(20, 20, WHITE);
        let sq = [p(2.0, 3.0), p(12.0, 3.0), p(12.0, 8.0), p(2.0, 8.0)];
        c.fill_polygon(&sq, RED, 1.0);
        assert_eq!(count(&c, RED), 50);
        assert_eq!(c.get(2, 3), Some(RED));
        assert_eq!(c.get(11, 7), Some(RED));
        assert_eq!(c.get(12, 7), Some(WHITE));
        assert_eq!(c.get(1, 5), Some(WHITE));
        assert_eq!(c.get(-1, 5), None);
    }

    #[test]
    fn triangle_fill_has_half_the_area() {
        let mut c = Canvas::new(100, 100, WHITE);
        c.fill_polygon(&[p(0.0, 0.0), p(100.0, 0.0), p(0.0, 100.0)], RED, 1.0);
        let cov = coverage(&c);
        assert!((cov - 5000.0).abs() < 50.0, "{cov}");
    }

    #[test]
    fn disk_area_and_antialiased_edge() {
        let mut c = Canvas::new(40, 40, WHITE);
        c.disk(p(20.0, 20.0), 10.0, RED, 1.0);
        // Coverage sums to about π r² (tiny-skia's supersampled coverage
        // loses up to 0.1 px along the rim: 308 of 314 here).
        let cov = coverage(&c);
        assert!((cov - std::f32::consts::PI * 100.0).abs() < 8.0, "{cov}");
        // An edge pixel is partly covered.
        let edge = c.get(29, 23).unwrap();
        assert!(edge[1] > 0 && edge[1] < 255, "{edge:?}");
        assert_eq!(c.get(20, 20), Some(RED));
        assert_eq!(c.get(0, 0), Some(WHITE));
    }

    #[test]
    fn line_coverage_matches_its_area() {
        let mut c = Canvas::new(100, 50, WHITE);
        // Width 2, length 50: area 2·50 + π (round caps), less the part of
        // the lower cap below the canvas (y = 50).
        c.line(p(20.0, 10.0), p(50.0, 50.0), 2.0, RED, 1.0);
        let cov = coverage(&c);
        assert!(cov > 98.0 && cov < 104.0, "{cov}");
        // Off-canvas, degenerate and non-finite lines do not panic.
        c.line(p(-1e9, -5.0), p(1e9, 3e9), 3.0, RED, 1.0);
        c.line(p(5.0, 5.0), p(5.0, 5.0), 3.0, RED, 1.0);
        c.line(p(f32::NAN, 5.0), p(5.0, 5.0), 3.0, RED, 1.0);
    }

    #[test]
    fn dashed_line_has_gaps() {
        let mut c = Canvas::new(100, 10, WHITE);
        c.dashed_line(p(0.0, 5.0), p(100.0, 5.0), 1.0, RED, 6.0, 4.0);
        let row: Vec<bool> = (0..100).map(|x| c.get(x, 5) != Some(WHITE)).collect();
        assert!(row[2] && !row[8] && row[12] && !row[18], "{row:?}");
    }

    #[test]
    fn arrow_head_is_filled() {
        let mut c = Canvas::new(60, 30, WHITE);
        c.arrow(p(5.0, 15.0), p(55.0, 15.0), 2.0, RED, 12.0);
        // Inside the head, beside the shaft.
        assert_eq!(c.get(47, 13), Some(RED));
        assert_eq!(c.get(20, 15), Some(RED));
        assert_eq!(c.get(20, 10), Some(WHITE));
    }

    #[test]
    fn png_round_trip() {
        let mut c = Canvas::new(7, 5, WHITE);
        c.fill_rect(3.0, 2.0, 1.0, 1.0, RED);
        assert_eq!(count(&c, RED), 1);
        let png = c.to_png();
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut out = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut out).unwrap();
        assert_eq!((info.width, info.height), (7, 5));
        assert_eq!(&out[..info.buffer_size()], &c.rgb()[..]);
    }

    #[test]
    fn sizes_are_clamped() {
        let c = Canvas::new(0, 0, WHITE);
        assert_eq!((c.width(), c.height(), c.rgba().len()), (1, 1, 4));
        let c = Canvas::new(3, MAX_SIDE + 1, WHITE);
        assert_eq!((c.width(), c.height()), (3, MAX_SIDE));
    }
}
