//! One-pixel anti-aliased lines drawn straight into the canvas's pixels, for
//! the clash pictures' creases: hundreds of lines a picture, where
//! `tiny-skia`'s hairlines, each blitted a pixel or two at a time through its
//! raster pipeline, took a third of the drawing time.
//!
//! Xiaolin Wu's algorithm ("An efficient antialiasing technique", SIGGRAPH
//! 1991): one step per pixel along the major axis, the ink shared between
//! the two pixels the line passes between in proportion to its distance
//! from their centres. Each step lays down the line's length over that step
//! (√(1 + slope²) pixels of ink), so a line of any direction covers its
//! length, as a one-pixel-wide stroke does.

use super::canvas::{Canvas, Rgb};
use glam::Vec2;
use tiny_skia::PremultipliedColorU8;

impl Canvas {
    /// Opaque one-pixel anti-aliased lines in `color`, blended over what is
    /// drawn. Segments not finite draw nothing; the parts off the canvas are
    /// skipped without being walked.
    pub fn hairlines(&mut self, segments: &[(Vec2, Vec2)], color: Rgb) {
        for &(a, b) in segments {
            if a.is_finite() && b.is_finite() {
                self.hairline(a, b, color);
            }
        }
    }

    fn hairline(&mut self, a: Vec2, b: Vec2, color: Rgb) {
        let (w, h) = (self.width() as i64, self.height() as i64);
        // Pixel centres at whole numbers.
        let (a, b) = (a - Vec2::splat(0.5), b - Vec2::splat(0.5));
        let d = b - a;
        let steep = d.y.abs() > d.x.abs();
        // Along the major axis u, across it v.
        let (mut a, mut b, extent_u, extent_v) = if steep {
            (Vec2::new(a.y, a.x), Vec2::new(b.y, b.x), h, w)
        } else {
            (a, b, w, h)
        };
        if a.x > b.x {
            std::mem::swap(&mut a, &mut b);
        }
        let du = b.x - a.x;
        let slope = if du > 0.0 { (b.y - a.y) / du } else { 0.0 };
        let ink = (1.0 + slope * slope).sqrt();
        let from = (a.x.round() as i64).max(0);
        let to = (b.x.round() as i64).min(extent_u - 1);
        for u in from..=to {
            let v = a.y + slope * (u as f32 - a.x);
            // floor(v) without a call to libm (v is within the canvas's
            // reach here, or far off it, where the pixels are skipped).
            let t = v as i64;
            let v0 = if (t as f32) > v { t - 1 } else { t };
            let frac = v - v0 as f32;
            for (vv, cover) in [(v0, (1.0 - frac) * ink), (v0 + 1, frac * ink)] {
                if (0..extent_v).contains(&vv) && cover > 0.0 {
                    let (x, y) = if steep { (vv, u) } else { (u, vv) };
                    self.blend((y * w + x) as usize, color, cover.min(1.0));
                }
            }
        }
    }

    /// Blends `color` at coverage `alpha` (0 to 1) over pixel number `i`.
    fn blend(&mut self, i: usize, color: Rgb, alpha: f32) {
        let (pixels, _) = self.pixels_and_depth();
        let p = pixels[i];
        // (Both ends within 0..=255, so adding 0.5 and truncating rounds.)
        let mix = |old: u8, new: u8| (old as f32 + (new as f32 - old as f32) * alpha + 0.5) as u8;
        let [r, g, b] = color;
        if let Some(c) = PremultipliedColorU8::from_rgba(
            mix(p.red(), r),
            mix(p.green(), g),
            mix(p.blue(), b),
            255,
        ) {
            pixels[i] = c;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Rgb = [255, 255, 255];
    const RED: Rgb = [255, 0, 0];

    /// Ink laid down: how much green is gone, in pixels.
    fn coverage(c: &Canvas) -> f32 {
        c.rgb()
            .chunks_exact(3)
            .map(|p| (255.0 - p[1] as f32) / 255.0)
            .sum()
    }

    fn p(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// A hairline covers its length (one pixel wide) in any direction, as
    /// `tiny-skia`'s one-pixel stroke of the same segment does; but where it
    /// runs through pixel centres diagonally, a pixel holds at most one pixel
    /// of ink, and the line is as light as one step a pixel (Wu's plain
    /// ink).
    #[test]
    fn a_line_covers_its_length_in_any_direction() {
        for (a, b) in [
            (p(5.2, 20.5), p(75.7, 20.5)),
            (p(40.5, 3.0), p(40.5, 37.0)),
            (p(5.0, 35.0), p(35.0, 5.0)),
            (p(3.3, 4.1), p(77.0, 31.6)),
            (p(12.0, 2.0), p(20.0, 38.0)),
        ] {
            let mut c = Canvas::new(80, 40, WHITE);
            c.hairlines(&[(a, b)], RED);
            let mut t = Canvas::new(80, 40, WHITE);
            t.line(a, b, 1.0, RED, 1.0);
            let (len, mine, theirs) = (a.distance(b), coverage(&c), coverage(&t));
            let steps = (b - a).abs().max_element();
            assert!(
                mine <= len + 1.5 && mine >= steps - 1.5,
                "{a} {b}: {mine} for {len}"
            );
            if (b - a).abs().min_element() < 0.5 * steps {
                // Off the diagonal: the length, within a few percent.
                assert!(
                    (mine - len).abs() < 1.5 + 0.03 * len,
                    "{a} {b}: {mine} for {len}"
                );
                assert!(
                    (mine - theirs).abs() < 1.5 + 0.05 * len,
                    "{a} {b}: {mine} vs {theirs}"
                );
            }
        }
    }

    /// The ink sits on the line: a horizontal line through pixel centres
    /// fills its row; one between two rows shares itself between them.
    #[test]
    fn ink_sits_on_the_line() {
        let mut c = Canvas::new(20, 10, WHITE);
        c.hairlines(&[(p(2.0, 4.5), p(17.0, 4.5))], RED);
        assert_eq!(c.get(10, 4), Some(RED));
        assert_eq!(c.get(10, 3), Some(WHITE));
        let mut c = Canvas::new(20, 10, WHITE);
        c.hairlines(&[(p(2.0, 5.0), p(17.0, 5.0))], RED);
        let (up, down) = (c.get(10, 4).unwrap(), c.get(10, 5).unwrap());
        assert!(up == down && up[1] > 100 && up[1] < 155, "{up:?} {down:?}");
    }

    /// Lines off the canvas, through it from far away, degenerate or not
    /// finite: no panic, and nothing drawn off the canvas's own line.
    #[test]
    fn off_canvas_and_degenerate_lines() {
        let mut c = Canvas::new(30, 20, WHITE);
        c.hairlines(
            &[
                (p(-50.0, -50.0), p(-10.0, -40.0)),
                (p(40.0, 5.0), p(90.0, 25.0)),
                (p(f32::NAN, 5.0), p(5.0, 5.0)),
                (p(5.0, f32::INFINITY), p(5.0, 5.0)),
            ],
            RED,
        );
        assert_eq!(coverage(&c), 0.0);
        c.hairlines(&[(p(-1e9, 10.5), p(1e9, 10.5))], RED);
        assert!((coverage(&c) - 30.0).abs() < 1e-3, "{}", coverage(&c));
        c.hairlines(&[(p(7.5, 7.5), p(7.5, 7.5))], RED);
        assert_eq!(c.get(7, 7), Some(RED));
    }
}
