//! Draws one frame of the demo: the floor, the paddle, the ball and its
//! trail, and for a moment after each touch the highlight (red ball and
//! paddle, the contact point, the normal arrow and a "CONTACT" label), plus
//! a frame counter.

use super::scene::{Contact, Frame, BALL_R, FLOOR_TOP, FPS, PADDLE_HALF, PADDLE_Y};
use crate::draw::{CONTACT, NORMAL, OVERLAP};
use crate::font::{draw_text, text_width};
use crate::raster::{Canvas, Rgb, P};
use peng::d2::Vec2;

/// Frames a touch stays highlighted (a quarter second, so a picture taken
/// every few frames still shows it).
pub const FLASH_FRAMES: u32 = 15;
/// How many past ball positions the trail shows.
pub const TRAIL: usize = 18;

const BACKGROUND: Rgb = [250, 250, 250];
const FLOOR: Rgb = [205, 205, 205];
const PADDLE: Rgb = [31, 119, 180];
const BALL: Rgb = [255, 127, 14];
const TEXT: Rgb = [60, 60, 60];

/// The world rectangle every frame shows: x in `[-X, X]`, y in `[Y0, Y1]`.
const VIEW_X: f32 = 4.3;
const VIEW_Y0: f32 = -3.4;
const VIEW_Y1: f32 = 3.0;

/// World to pixels: the view rectangle fitted into the canvas, centred.
struct View {
    scale: f32,
    w: f32,
    h: f32,
}

impl View {
    fn new(width: u32, height: u32) -> Self {
        let (w, h) = (width as f32, height as f32);
        let scale = (w / (2.0 * VIEW_X)).min(h / (VIEW_Y1 - VIEW_Y0));
        View { scale, w, h }
    }

    fn px(&self, p: Vec2) -> P {
        let cy = (VIEW_Y0 + VIEW_Y1) * 0.5;
        P::new(
            self.w * 0.5 + p.x * self.scale,
            self.h * 0.5 - (p.y - cy) * self.scale,
        )
    }
}

/// What a picture shows besides the frame itself.
pub struct Overlay<'a> {
    /// Recent ball positions, oldest first.
    pub trail: &'a [Vec2],
    /// The latest ball–paddle touch (its point moved along with the paddle
    /// since) and how many frames ago it began, if within [`FLASH_FRAMES`].
    pub flash: Option<(Contact, u32)>,
    /// Ball–paddle touches so far.
    pub touches: u32,
}

/// Draws frame `f` on a `width × height` canvas.
pub fn render(f: &Frame, o: &Overlay, width: u32, height: u32) -> Canvas {
    let v = View::new(width, height);
    let mut c = Canvas::new(width, height, BACKGROUND);
    let s = v.scale;

    // The floor sensor: everything below its top edge.
    let floor = [
        v.px(Vec2::new(-VIEW_X * 2.0, FLOOR_TOP)),
        v.px(Vec2::new(VIEW_X * 2.0, FLOOR_TOP)),
        v.px(Vec2::new(VIEW_X * 2.0, VIEW_Y0 * 2.0)),
        v.px(Vec2::new(-VIEW_X * 2.0, VIEW_Y0 * 2.0)),
    ];
    c.fill_polygon(&floor, FLOOR, 1.0);

    // The trail: fading dots, oldest faintest.
    let n = o.trail.len().max(1) as f32;
    for (i, &p) in o.trail.iter().enumerate() {
        let a = (i + 1) as f32 / n;
        c.disk(v.px(p), BALL_R * s * (0.25 + 0.35 * a), BALL, 0.45 * a);
    }

    let hot = o.flash.is_some();
    // The paddle.
    let hx = PADDLE_HALF;
    let centre = Vec2::new(f.paddle_x, PADDLE_Y);
    let corners: Vec<P> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .iter()
        .map(|&(sx, sy)| v.px(centre + Vec2::new(sx * hx.x, sy * hx.y)))
        .collect();
    c.fill_polygon(&corners, if hot { OVERLAP } else { PADDLE }, 1.0);
    c.polyline_closed(&corners, 1.5, [20, 20, 20]);

    // The ball.
    let b = v.px(f.ball);
    c.disk(b, BALL_R * s + 1.0, [20, 20, 20], 1.0);
    c.disk(b, BALL_R * s - 0.5, if hot { OVERLAP } else { BALL }, 1.0);

    // The touch: normal arrow (ball to paddle), contact point, label.
    if let Some((k, _)) = o.flash {
        let p = v.px(k.point);
        let len = 0.7 * s;
        let tip = P::new(p.x + k.normal.x * len, p.y - k.normal.y * len);
        c.arrow(p, tip, 2.0, NORMAL, 0.18 * s);
        c.disk(p, 5.5, [0, 0, 0], 1.0);
        c.disk(p, 4.0, CONTACT, 1.0);
        let label = "CONTACT";
        let w = text_width(label, 2) as f32;
        let x = (p.x + 12.0).min(v.w - w - 4.0).max(4.0);
        let y = (p.y - 0.9 * s).max(4.0);
        draw_text(&mut c, x as i64, y as i64, label, 2, OVERLAP);
    }

    // Frame counter and touches.
    let t = f.n as f32 / FPS;
    let counter = format!("FRAME {:4}  T {:5.2} S", f.n, t);
    draw_text(&mut c, 6, 6, &counter, 1, TEXT);
    let touches = format!("TOUCHES {}", o.touches);
    let w = text_width(&touches, 1) as i64;
    draw_text(&mut c, width as i64 - w - 6, 6, &touches, 1, TEXT);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> Frame {
        Frame {
            n: 3,
            ball: Vec2::new(0.0, 1.0),
            paddle_x: 0.0,
            drop: 0,
            events: Vec::new(),
        }
    }

    fn count(c: &Canvas, col: Rgb) -> usize {
        c.rgb().chunks_exact(3).filter(|p| *p == col).count()
    }

    #[test]
    fn the_highlight_shows_only_while_flashing() {
        let o = Overlay {
            trail: &[],
            flash: None,
            touches: 0,
        };
        let calm = render(&frame(), &o, 240, 180);
        assert_eq!(count(&calm, CONTACT), 0);
        assert_eq!(count(&calm, OVERLAP), 0);
        assert!(count(&calm, PADDLE) > 100 && count(&calm, BALL) > 20);
        let k = Contact {
            point: Vec2::new(0.0, PADDLE_Y + PADDLE_HALF.y),
            normal: Vec2::new(0.0, -1.0),
            depth: 0.01,
        };
        let o = Overlay {
            flash: Some((k, 0)),
            ..o
        };
        let hot = render(&frame(), &o, 240, 180);
        assert!(count(&hot, CONTACT) > 10);
        assert!(count(&hot, OVERLAP) > 100);
        assert_eq!(count(&hot, PADDLE), 0);
    }
}
