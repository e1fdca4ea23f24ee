//! The scripted ball-and-paddle scene, stepped at a fixed rate, with every
//! contact found by a [`World2`].
//!
//! Units are metres and seconds, y up. The ball (a circle) is dropped from
//! rest at height [`DROP_Y`] and falls under gravity; a drop aims at where the
//! paddle will be when the ball reaches it, plus a scripted offset
//! ([`OFFSETS`]: some hit the middle, some an edge, some miss). The paddle (a
//! rectangle) slides along `x = A sin(2πt/P)`. A wide sensor below the view
//! (the "floor") tells when the ball has left; the next frame starts a new
//! drop. The motion is scripted, not simulated: positions come from closed
//! forms per flight; the only feedback is that a began contact with the
//! paddle reflects the ball's velocity relative to the paddle about the
//! contact normal (restitution [`RESTITUTION`]), which starts a new flight.

use anyhow::{Context, Result};
use peng::d2::{Circle, Collider, ColliderHandle, EventMode, Pose2, Rect, Vec2, World2};
use peng::world::{EventKind, WatchId};

/// Frames per second (the fixed time step is its inverse).
pub const FPS: f32 = 60.0;
/// Gravity, m/s².
pub const GRAVITY: f32 = 9.81;
/// Ball radius.
pub const BALL_R: f32 = 0.25;
/// Height of the ball's centre at the start of a drop.
pub const DROP_Y: f32 = 2.6;
/// Paddle half-extents.
pub const PADDLE_HALF: Vec2 = Vec2::new(0.9, 0.15);
/// Height of the paddle's centre.
pub const PADDLE_Y: f32 = -2.0;
/// Paddle path amplitude and period: `x = A sin(2πt/P)`.
pub const PADDLE_AMP: f32 = 2.5;
/// Paddle path period, seconds.
pub const PADDLE_PERIOD: f32 = 4.0;
/// Height of the floor sensor's top edge (the bottom of the view).
pub const FLOOR_TOP: f32 = -3.0;
/// Floor sensor half-extents (wide enough to catch every ball).
pub const FLOOR_HALF: Vec2 = Vec2::new(8.0, 0.5);
/// Ratio of the ball's speed away from the paddle to its speed towards it.
pub const RESTITUTION: f32 = 0.8;
/// Horizontal offsets of the drops from the paddle's predicted position,
/// cycled, positive towards the middle of the view (so no drop starts
/// outside it): 0 and small ones hit, ±0.95 clip the paddle's ends
/// (half-width 0.9), 1.9 misses (well beyond half-width + radius = 1.15,
/// however the paddle moves while the ball passes it).
pub const OFFSETS: [f32; 6] = [0.0, 0.5, 1.9, -0.3, -0.95, 0.2];
/// Drops are clamped to this |x| so they start in view.
const MAX_DROP_X: f32 = 3.6;
/// A ball this far out (or below) starts a new drop even without the floor.
const LOST: f32 = 9.0;

/// The paddle's x at time `t`.
pub fn paddle_x(t: f32) -> f32 {
    PADDLE_AMP * (std::f32::consts::TAU * t / PADDLE_PERIOD).sin()
}

/// The paddle's x velocity at time `t` (the derivative of [`paddle_x`]).
pub fn paddle_vx(t: f32) -> f32 {
    let w = std::f32::consts::TAU / PADDLE_PERIOD;
    PADDLE_AMP * w * (w * t).cos()
}

/// Time a dropped ball takes to reach the paddle's top face, from
/// `DROP_Y - g τ²/2 = PADDLE_Y + half height + radius`.
pub fn fall_time() -> f32 {
    let h = DROP_Y - (PADDLE_Y + PADDLE_HALF.y + BALL_R);
    (2.0 * h / GRAVITY).sqrt()
}

/// The time of frame `n`.
pub fn frame_time(n: u32) -> f32 {
    n as f32 / FPS
}

/// Which collider the ball met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Other {
    /// The paddle.
    Paddle,
    /// The floor sensor.
    Floor,
}

impl Other {
    /// Its name in the output.
    pub fn name(self) -> &'static str {
        match self {
            Other::Paddle => "paddle",
            Other::Floor => "floor",
        }
    }
}

/// A contact point of a began ball–paddle pair: the deepest point of the
/// first manifold, normal from the ball to the paddle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Midway between the two surface points.
    pub point: Vec2,
    /// Unit normal, from the ball to the paddle.
    pub normal: Vec2,
    /// Penetration depth (>= 0).
    pub depth: f32,
}

/// One event of the watched set, ball first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    /// The frame it happened in.
    pub frame: u32,
    /// Began or ended (the set reports once).
    pub kind: EventKind,
    /// What the ball met.
    pub other: Other,
    /// The contact, on a began event with the paddle.
    pub contact: Option<Contact>,
}

/// The state of one frame, after its update.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The frame number (from 0).
    pub n: u32,
    /// The ball's centre.
    pub ball: Vec2,
    /// The paddle's centre x.
    pub paddle_x: f32,
    /// The drop number (from 0).
    pub drop: u32,
    /// The events of this frame.
    pub events: Vec<Event>,
}

/// One ballistic flight of the ball: from `p0` with velocity `v0` at `t0`.
#[derive(Debug, Clone, Copy)]
struct Flight {
    t0: f32,
    p0: Vec2,
    v0: Vec2,
}

impl Flight {
    fn at(&self, t: f32) -> (Vec2, Vec2) {
        let s = t - self.t0;
        let g = Vec2::new(0.0, -GRAVITY);
        (self.p0 + self.v0 * s + g * (0.5 * s * s), self.v0 + g * s)
    }
}

/// The scene and its world.
pub struct Sim {
    world: World2,
    ball: ColliderHandle,
    paddle: ColliderHandle,
    watch: WatchId,
    next: u32,
    drop: u32,
    flight: Flight,
    /// The floor was reached: the next frame starts a new drop.
    restart: bool,
}

/// The flight of drop `k` starting at time `t0`: from rest above where the
/// paddle will be when the ball gets there, plus the drop's offset.
fn drop_flight(k: u32, t0: f32) -> Flight {
    let px = paddle_x(t0 + fall_time());
    let towards_middle = if px > 0.0 { -1.0 } else { 1.0 };
    let aim = px + towards_middle * OFFSETS[k as usize % OFFSETS.len()];
    Flight {
        t0,
        p0: Vec2::new(aim.clamp(-MAX_DROP_X, MAX_DROP_X), DROP_Y),
        v0: Vec2::ZERO,
    }
}

impl Sim {
    /// The scene at frame 0, before its first update.
    pub fn new() -> Result<Self> {
        let mut world = World2::new();
        let flight = drop_flight(0, 0.0);
        let ball = world
            .insert(Collider::new(
                Circle::new(BALL_R).context("ball shape")?,
                Pose2::from_translation(flight.p0),
            ))
            .context("inserting the ball")?;
        let paddle = world
            .insert(Collider::new(
                Rect::new(PADDLE_HALF).context("paddle shape")?,
                Pose2::from_translation(Vec2::new(paddle_x(0.0), PADDLE_Y)),
            ))
            .context("inserting the paddle")?;
        let floor = world
            .insert(
                Collider::new(
                    Rect::new(FLOOR_HALF).context("floor shape")?,
                    Pose2::from_translation(Vec2::new(0.0, FLOOR_TOP - FLOOR_HALF.y)),
                )
                .with_sensor(true),
            )
            .context("inserting the floor")?;
        // Ball first: the set's events name the ball as `a`.
        let watch = world.watch(&[ball], &[paddle, floor], EventMode::Once);
        Ok(Sim {
            world,
            ball,
            paddle,
            watch,
            next: 0,
            drop: 0,
            flight,
            restart: false,
        })
    }

    /// Moves everything to the next frame's time, updates the world and
    /// returns the frame with its events.
    pub fn step(&mut self) -> Result<Frame> {
        let n = self.next;
        self.next += 1;
        let t = frame_time(n);
        if self.restart {
            self.restart = false;
            self.drop += 1;
            self.flight = drop_flight(self.drop, t);
        }
        let (mut ball, _) = self.flight.at(t);
        if ball.y < -LOST || ball.x.abs() > LOST {
            self.drop += 1;
            self.flight = drop_flight(self.drop, t);
            ball = self.flight.p0;
        }
        let px = paddle_x(t);
        self.world
            .set_pose(self.ball, Pose2::from_translation(ball))
            .context("moving the ball")?;
        self.world
            .set_pose(
                self.paddle,
                Pose2::from_translation(Vec2::new(px, PADDLE_Y)),
            )
            .context("moving the paddle")?;
        let raw: Vec<_> = self
            .world
            .update()
            .iter()
            .filter(|e| e.watch == Some(self.watch))
            .copied()
            .collect();
        let mut events = Vec::with_capacity(raw.len());
        for e in raw {
            let other = if e.b == self.paddle {
                Other::Paddle
            } else {
                Other::Floor
            };
            let mut contact = None;
            if e.kind == EventKind::Began && other == Other::Paddle {
                contact = self.contact();
                if let Some(c) = contact {
                    self.bounce(t, c.normal);
                }
            }
            if e.kind == EventKind::Began && other == Other::Floor {
                self.restart = true;
            }
            events.push(Event {
                frame: n,
                kind: e.kind,
                other,
                contact,
            });
        }
        Ok(Frame {
            n,
            ball,
            paddle_x: px,
            drop: self.drop,
            events,
        })
    }

    /// The deepest point of the ball–paddle manifolds, normal ball to paddle.
    fn contact(&self) -> Option<Contact> {
        let ms = self.world.contact_manifolds(self.ball, self.paddle)?;
        // Normals point from the smaller handle's collider to the other's.
        let sign = if self.ball < self.paddle { 1.0 } else { -1.0 };
        ms.iter()
            .flat_map(|m| m.points().iter().map(move |p| (m.normal, p)))
            .max_by(|a, b| a.1.depth.total_cmp(&b.1.depth))
            .map(|(normal, p)| Contact {
                point: (p.point_a + p.point_b) * 0.5,
                normal: normal * sign,
                depth: p.depth,
            })
    }

    /// Reflects the ball's velocity relative to the paddle about the contact
    /// normal when it moves towards the paddle (Newton's restitution law for
    /// a paddle of infinite mass), starting a new flight from here.
    fn bounce(&mut self, t: f32, normal: Vec2) {
        let (p, v) = self.flight.at(t);
        let rel = v - Vec2::new(paddle_vx(t), 0.0);
        let towards = rel.dot(normal);
        if towards > 0.0 {
            self.flight = Flight {
                t0: t,
                p0: p,
                v0: v - normal * ((1.0 + RESTITUTION) * towards),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(frames: u32) -> Vec<Frame> {
        let mut sim = Sim::new().unwrap();
        (0..frames).map(|_| sim.step().unwrap()).collect()
    }

    fn events(frames: &[Frame]) -> Vec<Event> {
        frames.iter().flat_map(|f| f.events.clone()).collect()
    }

    /// The first drop aims at the paddle with offset 0: it touches in the
    /// first frame `n` where `DROP_Y - g (n/FPS)²/2` reaches the top face,
    /// i.e. `n = ceil(FPS · fall_time())`, on the paddle's top face.
    #[test]
    fn first_touch_is_at_the_closed_form_frame() {
        let tf = ((DROP_Y - (PADDLE_Y + PADDLE_HALF.y + BALL_R)) * 2.0 / 9.81f64 as f32).sqrt();
        let n = (tf * FPS).ceil() as u32;
        // Not near a frame boundary, so f32 rounding cannot move it.
        assert!((tf * FPS).fract() > 0.1 && (tf * FPS).fract() < 0.9);
        assert_eq!(n, 56);
        let ev = events(&run(n + 5));
        let first = ev[0];
        assert_eq!(
            (first.frame, first.kind, first.other),
            (n, EventKind::Began, Other::Paddle)
        );
        let c = first.contact.expect("a manifold on began");
        assert!((c.normal - Vec2::new(0.0, -1.0)).length() < 1e-4, "{c:?}");
        let top = PADDLE_Y + PADDLE_HALF.y;
        assert!((c.point.y - top).abs() <= c.depth * 0.5 + 1e-4, "{c:?}");
        // The depth is how far the ball fell past the face in that frame.
        let y = DROP_Y - 0.5 * GRAVITY * (n as f32 / FPS).powi(2);
        assert!((c.depth - (top + BALL_R - y)).abs() < 1e-4, "{c:?} {y}");
        assert!((c.point.x - paddle_x(tf)).abs() < 0.1, "{c:?}");
    }

    /// Every began has a later matching ended (or the run stops first); the
    /// drop aimed 1.9 beside the paddle (third in `OFFSETS`) meets only the
    /// floor, in the frame its fall time predicts.
    #[test]
    fn events_pair_up_and_the_miss_misses() {
        let frames = run(900);
        let ev = events(&frames);
        for other in [Other::Paddle, Other::Floor] {
            let kinds: Vec<_> = ev
                .iter()
                .filter(|e| e.other == other)
                .map(|e| e.kind)
                .collect();
            assert!(kinds.len() >= 4, "{other:?}: {kinds:?}");
            for (i, k) in kinds.iter().enumerate() {
                let want = if i % 2 == 0 {
                    EventKind::Began
                } else {
                    EventKind::Ended
                };
                assert_eq!(*k, want, "{other:?} event {i}: {kinds:?}");
            }
        }
        let start = frames.iter().position(|f| f.drop == 2).expect("third drop");
        let end = frames
            .iter()
            .position(|f| f.drop == 3)
            .expect("fourth drop");
        let third: Vec<_> = frames[start..end]
            .iter()
            .flat_map(|f| f.events.iter())
            .filter(|e| e.kind == EventKind::Began)
            .collect();
        assert_eq!(third.len(), 1, "{third:?}");
        assert_eq!(third[0].other, Other::Floor);
        // The floor is touched once the ball's bottom reaches FLOOR_TOP.
        let h = DROP_Y - BALL_R - FLOOR_TOP;
        let fall = (2.0 * h / GRAVITY).sqrt() * FPS;
        assert_eq!(third[0].frame - start as u32, fall.ceil() as u32);
    }
}
