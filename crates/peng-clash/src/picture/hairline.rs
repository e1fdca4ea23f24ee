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
use super::depth::mix;
use glam::{Vec2, Vec3};

/// How far (metres) behind a filled surface a line still shows: an edge of
/// a face lies on it.
const HIDDEN: f32 = 1e-3;

impl Canvas {
    /// Opaque one-pixel anti-aliased lines in `color`, blended over what is
    /// drawn. Segments not finite draw nothing; the parts off the canvas are
    /// skipped without being walked.
    pub fn hairlines(&mut self, segments: &[(Vec2, Vec2)], color: Rgb) {
        for &(a, b) in segments {
            if a.is_finite() && b.is_finite() {
                self.hairline(a.extend(0.0), b.extend(0.0), color, false);
            }
        }
    }

    /// [`Canvas::hairlines`] hidden behind the triangles filled: each segment
    /// `(x, y, depth)` to `(x, y, depth)`, its depth interpolated along it,
    /// drawn only where it is not behind the depth already there.
    pub fn hairlines_behind(&mut self, segments: &[(Vec3, Vec3)], color: Rgb) {
        for &(a, b) in segments {
            if a.is_finite() && b.is_finite() {
                self.hairline(a, b, color, true);
            }
        }
    }

    fn hairline(&mut self, a: Vec3, b: Vec3, color: Rgb, depth_test: bool) {
        let (w, h) = (self.width() as i64, self.height() as i64);
        // Pixel centres at whole numbers.
        let (a, b) = (a - Vec3::new(0.5, 0.5, 0.0), b - Vec3::new(0.5, 0.5, 0.0));
        let d = b - a;
        let steep = d.y.abs() > d.x.abs();
        // Along the major axis u, across it v; depth z.
        let (mut a, mut b, extent_u, extent_v) = if steep {
            (Vec3::new(a.y, a.x, a.z), Vec3::new(b.y, b.x, b.z), h, w)
        } else {
            (a, b, w, h)
        };
        if a.x > b.x {
            std::mem::swap(&mut a, &mut b);
        }
        let du = b.x - a.x;
        let (slope, dz) = if du > 0.0 {
            ((b.y - a.y) / du, (b.z - a.z) / du)
        } else {
            (0.0, 0.0)
        };
        let ink = (1.0 + slope * slope).sqrt();
        let (mut from, mut to) = (a.x.round() as i64, b.x.round() as i64);
        // Only where the line is within a pixel of the canvas across it.
        let (v_lo, v_hi) = (-1.0, extent_v as f32);
        if slope == 0.0 {
            if a.y < v_lo || a.y > v_hi {
                return;
            }
        } else {
            let (u1, u2) = (a.x + (v_lo - a.y) / slope, a.x + (v_hi - a.y) / slope);
            from = from.max(u1.min(u2).floor() as i64);
            to = to.min(u1.max(u2).ceil() as i64);
        }
        let (from, to) = (from.max(0), to.min(extent_u - 1));
        for u in from..=to {
            let v = a.y + slope * (u as f32 - a.x);
            let z = a.z + dz * (u as f32 - a.x);
            // floor(v) without a call to libm (v is within the canvas's
            // reach here, or far off it, where the pixels are skipped).
            let t = v as i64;
            let v0 = if (t as f32) > v { t - 1 } else { t };
            let frac = v - v0 as f32;
            for (vv, cover) in [(v0, (1.0 - frac) * ink), (v0 + 1, frac * ink)] {
                if (0..extent_v).contains(&vv) && cover > 0.0 {
                    let (x, y) = if steep { (vv, u) } else { (u, vv) };
                    let i = (y * w + x) as usize;
                    if !depth_test || self.depth.get(i).is_none_or(|&d| z >= d - HIDDEN) {
                        self.blend(i, color, cover.min(1.0));
                    }
                }
            }
        }
    }

    /// Blends `color` at coverage `alpha` (0 to 1) over pixel number `i`.
    fn blend(&mut self, i: usize, color: Rgb, alpha: f32) {
        let (pixels, _) = self.pixels_and_depth();
        pixels[i] = mix(pixels[i], color, alpha);
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
        // Long lines passing above and beside the canvas.
        c.hairlines(
            &[(p(-1e6, -5.0), p(1e6, -4.0)), (p(-4.0, -1e6), p(-3.0, 1e6))],
            RED,
        );
        assert_eq!(coverage(&c), 0.0);
        // A long diagonal through it covers its 20-pixel run (√2 · 20
        // pixels long, at most one pixel of ink a pixel).
        let mut d = Canvas::new(30, 20, WHITE);
        d.hairlines(&[(p(-1e5, -1e5), p(1e5, 1e5))], RED);
        let ink = coverage(&d);
        assert!(ink > 19.0 && ink < 29.0, "{ink}");
        c.hairlines(&[(p(-1e9, 10.5), p(1e9, 10.5))], RED);
        assert!((coverage(&c) - 30.0).abs() < 1e-3, "{}", coverage(&c));
        c.hairlines(&[(p(7.5, 7.5), p(7.5, 7.5))], RED);
        assert_eq!(c.get(7, 7), Some(RED));
    }
}
