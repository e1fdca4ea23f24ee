//! The simulation loop of `peng sim`: steps a physics world, draws every
//! k-th step into the animation, logs every contact that begins or ends, and
//! reports progress and a summary.
//!
//! The loop knows the physics world only through [`Physics`], so it is the
//! same for 2D and 3D (and testable without one).

use super::log::{self, LogEvent};
use super::model::{SimScene, World};
use super::render::{render, viewport};
use super::space::Space;
use crate::raster::Canvas;
use anyhow::{Context, Result};
use std::io::Write;
use std::time::{Duration, Instant};

/// The message of a failed write to the event log.
const LOG_ERROR: &str = "cannot write the event log";

/// A contact that began or ended in the last step, between collider `a.1`
/// of body `a.0` and collider `b.1` of body `b.0` (scene indices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawEvent {
    /// (body, collider) of the first collider.
    pub a: (usize, usize),
    /// (body, collider) of the second collider.
    pub b: (usize, usize),
    /// Began (true) or ended (false).
    pub began: bool,
}

/// What the loop needs from a physics world built from a scene.
pub trait Physics<D: Space> {
    /// Advances by one time step.
    fn step(&mut self) -> Result<()>;
    /// The pose of every body, in scene order.
    fn poses(&self, out: &mut Vec<D::Pose>);
    /// The contacts that began or ended in the last step.
    fn events(&self, out: &mut Vec<RawEvent>);
    /// The points where bodies touch now (midway between the two surface
    /// points).
    fn contact_points(&self, out: &mut Vec<D::V>);
}

/// How to run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunOptions {
    /// Number of steps (>= 1).
    pub steps: u64,
    /// Pictures per second of simulated time (> 0); 0 pictures when
    /// `pictures` is false.
    pub fps: f32,
    /// Whether to draw pictures at all.
    pub pictures: bool,
    /// Whether pictures show the contact points.
    pub contacts: bool,
    /// Report progress on standard error about every this often (`None`:
    /// never).
    pub progress: Option<Duration>,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Steps taken.
    pub steps: u64,
    /// Simulated time, seconds.
    pub seconds: f64,
    /// Wall-clock time of the loop.
    pub wall: Duration,
    /// Contacts that began.
    pub began: u64,
    /// Contacts that ended.
    pub ended: u64,
    /// Pictures drawn.
    pub pictures: u64,
    /// Steps between two pictures.
    pub every: u64,
}

/// Steps between two pictures for `fps` pictures per simulated second at
/// step `dt` (at least 1).
pub fn picture_every(dt: f32, fps: f32) -> u64 {
    ((1.0 / (fps as f64 * dt as f64)).round() as u64).max(1)
}

/// The number of pictures of a run of `steps` steps drawing every `every`
/// (the start, then after every `every`-th step).
pub fn picture_count(steps: u64, every: u64) -> u64 {
    steps / every + 1
}

/// How long picture `k` (from 0) of an animation drawn every `every` steps
/// of `dt` is shown, in centiseconds: the rounded time of the next picture
/// minus the rounded time of this one, so that the animation keeps
/// simulated time however the step divides into centiseconds (3, 4, 3, ...
/// for 3.33 cs). At least 2: viewers slow shorter delays down unreliably.
pub fn delay_cs(k: u64, every: u64, dt: f32) -> u16 {
    let cs = |k: u64| (k as f64 * every as f64 * dt as f64 * 100.0).round();
    (cs(k + 1) - cs(k)).clamp(2.0, u16::MAX as f64) as u16
}

/// The caption of a picture.
fn caption(step: u64, t: f64) -> String {
    // The bitmap font has letters, digits, '-', '_' and '.'.
    format!("t {t:.2} s   step {step}")
}

/// Runs `phys` (built from `world` of `scene`) for `o.steps` steps, handing
/// each picture to `picture` and writing the event log to `log_out`.
pub fn simulate<D: Space, P: Physics<D>>(
    scene: &SimScene,
    world: &World<D>,
    phys: &mut P,
    o: RunOptions,
    mut picture: impl FnMut(&Canvas) -> Result<()>,
    log_out: &mut dyn Write,
) -> Result<Summary> {
    let dt = scene.timing.dt as f64;
    let vp = viewport(world, &scene.view);
    let every = picture_every(scene.timing.dt, o.fps);
    let names: Vec<Vec<String>> = world
        .bodies
        .iter()
        .map(|b| {
            (0..b.colliders.len())
                .map(|k| log::collider_name(&b.name, k, b.colliders.len()))
                .collect()
        })
        .collect();
    let name = |(b, k): (usize, usize)| {
        names
            .get(b)
            .and_then(|n| n.get(k))
            .map_or("?", String::as_str)
    };
    writeln!(log_out, "{}", log::header(scene, o.steps)).context(LOG_ERROR)?;
    let start = Instant::now();
    let mut last_report = start;
    let mut poses = Vec::with_capacity(world.bodies.len());
    let mut events = Vec::new();
    let mut points = Vec::new();
    let mut s = Summary {
        steps: 0,
        seconds: 0.0,
        wall: Duration::ZERO,
        began: 0,
        ended: 0,
        pictures: 0,
        every,
    };
    for step in 0..=o.steps {
        if step > 0 {
            phys.step()?;
            events.clear();
            phys.events(&mut events);
            for e in &events {
                if e.began {
                    s.began += 1;
                } else {
                    s.ended += 1;
                }
                let l = LogEvent {
                    step,
                    t: step as f64 * dt,
                    began: e.began,
                    a: name(e.a).to_string(),
                    b: name(e.b).to_string(),
                };
                writeln!(log_out, "{}", log::line(&l)).context(LOG_ERROR)?;
            }
        }
        if o.pictures && step % every == 0 {
            poses.clear();
            phys.poses(&mut poses);
            points.clear();
            if o.contacts {
                phys.contact_points(&mut points);
            }
            let shown: Vec<peng::d2::Vec2> = points.iter().map(|&p| D::project(p)).collect();
            let cap = caption(step, step as f64 * dt);
            picture(&render(world, &poses, &shown, &vp, &cap))?;
            s.pictures += 1;
        }
        if let Some(p) = o.progress {
            if last_report.elapsed() >= p {
                last_report = Instant::now();
                eprintln!(
                    "peng sim: step {step}/{} ({:.0}%), {:.1} s",
                    o.steps,
                    step as f64 * 100.0 / o.steps as f64,
                    start.elapsed().as_secs_f64()
                );
            }
        }
    }
    s.steps = o.steps;
    s.seconds = o.steps as f64 * dt;
    s.wall = start.elapsed();
    log_out.flush().context(LOG_ERROR)?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::load::parse;
    use crate::sim::model::Worlds;
    use crate::sim::render::BACKGROUND;
    use peng::d2::{Pose2, Vec2};
    use peng::world::Dim2;

    /// Bodies that drift at their initial velocity and report a made-up
    /// began event on step 2 and an ended one on step 3: enough to test the
    /// loop.
    struct Drift {
        poses: Vec<Pose2>,
        vel: Vec<Vec2>,
        dt: f32,
        n: u64,
    }

    impl Physics<Dim2> for Drift {
        fn step(&mut self) -> Result<()> {
            self.n += 1;
            for (p, v) in self.poses.iter_mut().zip(&self.vel) {
                p.translation += *v * self.dt;
            }
            Ok(())
        }
        fn poses(&self, out: &mut Vec<Pose2>) {
            out.extend_from_slice(&self.poses);
        }
        fn contact_points(&self, out: &mut Vec<Vec2>) {
            // A made-up contact at the puck's centre.
            out.push(self.poses[0].translation);
        }
        fn events(&self, out: &mut Vec<RawEvent>) {
            if self.n == 2 || self.n == 3 {
                out.push(RawEvent {
                    a: (0, 0),
                    b: (1, 1),
                    began: self.n == 2,
                });
            }
        }
    }

    #[test]
    fn pictures_log_and_summary() {
        let t = r#"{"dimension": 2, "dt": 0.1, "steps": 10,
          "view": {"width": 100, "height": 100, "min": [0, 0], "max": [10, 10], "fps": 5},
          "bodies": [
            {"name": "puck", "position": [1, 5], "linvel": [8, 0],
             "colliders": [{"shape": {"type": "circle", "radius": 0.5}}]},
            {"name": "wall", "kind": "static", "position": [9.5, 5],
             "colliders": [{"shape": {"type": "rect", "half_extents": [0.5, 5]}},
                           {"shape": {"type": "circle", "radius": 0.2}}]}]}"#;
        let scene = parse("d.json", t).unwrap();
        let Worlds::D2(w) = &scene.worlds else {
            panic!("2D")
        };
        let mut phys = Drift {
            poses: w.bodies.iter().map(|b| b.pose).collect(),
            vel: w.bodies.iter().map(|b| b.linvel).collect(),
            dt: 0.1,
            n: 0,
        };
        let o = RunOptions {
            steps: 10,
            fps: scene.view.fps,
            pictures: true,
            contacts: true,
            progress: None,
        };
        let mut pics: Vec<Canvas> = Vec::new();
        let mut log = Vec::new();
        let s = simulate(
            &scene,
            w,
            &mut phys,
            o,
            |c| {
                pics.push(c.clone());
                Ok(())
            },
            &mut log,
        )
        .unwrap();
        // 5 pictures per second at 0.1 s steps: every 2nd step, 0 to 10.
        assert_eq!((s.every, s.pictures), (2, 6));
        assert_eq!(pics.len() as u64, picture_count(10, 2));
        assert_eq!((s.steps, s.began, s.ended), (10, 1, 1));
        assert!((s.seconds - 1.0).abs() < 1e-6);
        let log = String::from_utf8(log).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 3, "{log}");
        assert!(lines[0].starts_with("# peng sim d.json: 2D, 2 bodies"));
        assert_eq!(lines[1], "step 2  t=0.2000  began  puck — wall#1");
        assert_eq!(lines[2], "step 3  t=0.3000  ended  puck — wall#1");
        // The puck starts at x = 1 and is at x = 1 + 8 * 0.4 = 4.2 in the
        // third picture (step 4): 10 px per unit, y = 5 is row 50.
        let at = |c: &Canvas, x: f32| c.get((x * 10.0) as i64, 50);
        assert_ne!(at(&pics[0], 1.0), Some(BACKGROUND));
        assert_eq!(at(&pics[0], 4.2), Some(BACKGROUND));
        assert_ne!(at(&pics[2], 4.2), Some(BACKGROUND));
        // The contact dot sits on the puck's centre.
        assert_eq!(at(&pics[2], 4.2), Some(crate::draw::CONTACT));
        assert_eq!(at(&pics[2], 1.0), Some(BACKGROUND));
    }

    #[test]
    fn picture_spacing() {
        assert_eq!(picture_every(1.0 / 60.0, 30.0), 2);
        assert_eq!(picture_every(1.0 / 60.0, 1000.0), 1);
        assert_eq!(picture_every(1.0 / 120.0, 30.0), 4);
        assert_eq!(picture_count(240, 2), 121);
        // 3.33 cs per picture: 3, 4, 3, 3, 4, 3, ... adding up to 10 cs per
        // 3 pictures.
        let d: Vec<u16> = (0..6).map(|k| delay_cs(k, 2, 1.0 / 60.0)).collect();
        assert_eq!(d, [3, 4, 3, 3, 4, 3]);
        assert_eq!(delay_cs(7, 1, 1.0 / 120.0), 2);
    }
}
