//! `peng check --frames N`: runs a scene's motions through a collision world
//! and reports contact events over time.
//!
//! Every shape becomes a collider of a [`peng::world::World`] (user data: its
//! scene index, so the smaller handle is the earlier shape). Frame `k` sets
//! the pose of every moving shape at `t = k / fps` and runs one update; its
//! began / ended (and with `--persist` persisted) events are listed with the
//! deepest contact depth. The distance threshold `D` becomes a
//! [`Margin::Offset`] of `D / 2` on every collider (a pair's offset is the sum
//! of its colliders', so a pair touches when its distance is at most `D`, as
//! in the static check). With `--ccd` every collider is flagged for
//! continuous detection, and began events carry the time of impact.

use crate::cli::CheckArgs;
use crate::scene::motion::{Key, Motion};
use crate::scene::{Motions, Named, Scene, Shapes};
use anyhow::{anyhow, bail, Result};
use peng::world::{Collider, Dim, Dim2, Dim3, EventKind, EventMode, Margin, World};
use serde::Serialize;
use std::fmt::Write as _;

/// Frames per second when neither `--fps` nor the scene sets it.
pub const DEFAULT_FPS: f32 = 30.0;

/// Settings of a timeline run.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Number of frames (>= 1).
    pub frames: u64,
    /// Frames per second (finite, > 0).
    pub fps: f32,
    /// Distance threshold (finite, >= 0).
    pub distance: f32,
    /// Report persisted events too.
    pub persist: bool,
    /// Sweep the shapes between frames (continuous detection).
    pub ccd: bool,
}

/// One event of the run.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FrameEvent {
    /// Frame index.
    pub frame: u64,
    /// Time of the frame, seconds.
    pub t: f32,
    /// `began`, `persisted` or `ended`.
    pub kind: &'static str,
    /// Name of shape A (earlier in the scene).
    pub a: String,
    /// Name of shape B.
    pub b: String,
    /// Deepest contact depth (negative: separated, within the distance);
    /// `None` on ended events or when no contact point is known.
    pub depth: Option<f32>,
    /// With `--ccd`, the time (seconds) at which the pair met between the
    /// previous frame and this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impact_t: Option<f32>,
}

/// The contact history of one pair.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PairSummary {
    /// Name of shape A.
    pub a: String,
    /// Name of shape B.
    pub b: String,
    /// First frame in contact.
    pub first_contact: u64,
    /// Last frame in contact.
    pub last_contact: u64,
    /// Number of contact intervals.
    pub intervals: usize,
    /// The intervals: began frame, and the ended frame (first frame out of
    /// contact) or `None` when still touching at the last frame.
    pub spans: Vec<(u64, Option<u64>)>,
}

/// The result of a timeline run; serialized as the `--json` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FramesReport {
    /// Output format tag, `peng-check-frames/1`.
    pub format: &'static str,
    /// The scene's source.
    pub scene: String,
    /// 2 or 3.
    pub dimension: u8,
    /// Number of shapes.
    pub shapes: usize,
    /// Number of frames.
    pub frames: u64,
    /// Frames per second.
    pub fps: f32,
    /// The distance threshold.
    pub distance: f32,
    /// The events, by frame, then pair in scene order.
    pub events: Vec<FrameEvent>,
    /// One summary per pair that was ever in contact, in scene order.
    pub pairs: Vec<PairSummary>,
}

/// Runs the scene's timeline (see the module documentation).
pub fn run(scene: &Scene, motions: &Motions, s: Settings) -> Result<FramesReport> {
    let mut r = FramesReport {
        format: "peng-check-frames/1",
        scene: scene.source.clone(),
        dimension: scene.dimension(),
        shapes: scene.len(),
        frames: s.frames,
        fps: s.fps,
        distance: s.distance,
        events: Vec::new(),
        pairs: Vec::new(),
    };
    match (&scene.shapes, motions) {
        (Shapes::D2(v), Motions::D2(m)) => timeline::<Dim2, _>(v, m, s, &mut r.events)?,
        (Shapes::D3(v), Motions::D3(m)) => timeline::<Dim3, _>(v, m, s, &mut r.events)?,
        _ => return Err(anyhow!("internal error: motions of another dimension")),
    }
    r.pairs = summarize(&r.events, scene, s.frames);
    Ok(r)
}

/// The pose of a shape with motion `m` at time `t` (its own pose without one).
fn pose_at<S, P: Copy, K: Key<Pose = P>>(n: &Named<S, P>, m: Option<&Motion<K>>, t: f32) -> P {
    m.map_or(n.pose, |m| m.pose_at(t))
}

/// Steps the world of one dimension through the frames, appending events.
fn timeline<D: Dim, K: Key<Pose = D::Pose>>(
    shapes: &[Named<D::Shape, D::Pose>],
    motions: &[Option<Motion<K>>],
    s: Settings,
    out: &mut Vec<FrameEvent>,
) -> Result<()> {
    let margin = if s.distance > 0.0 {
        Margin::Offset(s.distance * 0.5)
    } else {
        Margin::None
    };
    let events = if s.persist {
        EventMode::Continuous
    } else {
        EventMode::Once
    };
    let motion = |i: usize| motions.get(i).and_then(Option::as_ref);
    let mut world = World::<D>::new();
    let mut handles = Vec::with_capacity(shapes.len());
    for (i, n) in shapes.iter().enumerate() {
        let c = Collider::new(n.shape.clone(), pose_at(n, motion(i), 0.0))
            .with_margin(margin)
            .with_events(events)
            .with_ccd(s.ccd)
            .with_user_data(i as u64);
        let h = world
            .insert(c)
            .map_err(|e| anyhow!("shape {:?} at t=0: {e}", n.name))?;
        handles.push(h);
    }
    for frame in 0..s.frames {
        let t = (frame as f64 / s.fps as f64) as f32;
        if frame > 0 {
            for (i, n) in shapes.iter().enumerate() {
                if let Some(m) = motion(i) {
                    world
                        .set_pose(handles[i], m.pose_at(t))
                        .map_err(|e| anyhow!("shape {:?} at t={t}: {e}", n.name))?;
                }
            }
        }
        let evs = world.update().to_vec();
        for e in evs.iter().filter(|e| e.watch.is_none()) {
            let index = |h| world.get(h).map(|c| c.user_data as usize);
            let (Ok(ia), Ok(ib)) = (index(e.a), index(e.b)) else {
                continue;
            };
            let (ia, ib, ha, hb) = if ia < ib {
                (ia, ib, e.a, e.b)
            } else {
                (ib, ia, e.b, e.a)
            };
            let depth = match e.kind {
                EventKind::Ended => None,
                _ => pair_depth(&world, ha, hb),
            };
            out.push(FrameEvent {
                frame,
                t,
                kind: match e.kind {
                    EventKind::Began => "began",
                    EventKind::Persisted => "persisted",
                    EventKind::Ended => "ended",
                },
                a: shapes[ia].name.clone(),
                b: shapes[ib].name.clone(),
                depth,
                impact_t: e
                    .toi
                    .map(|toi| ((frame as f64 - 1.0 + toi as f64) / s.fps as f64) as f32),
            });
        }
    }
    Ok(())
}

/// The deepest point depth of a touching pair: its manifolds', else minus
/// the distance of the shapes (a pair touching through the margin may keep
/// no manifold).
fn pair_depth<D: Dim>(
    world: &World<D>,
    a: peng::world::ColliderHandle,
    b: peng::world::ColliderHandle,
) -> Option<f32> {
    let deepest = world
        .contact_manifolds(a, b)?
        .iter()
        .map(D::manifold_depth)
        .fold(None, |m: Option<f32>, d| Some(m.map_or(d, |m| m.max(d))));
    if deepest.is_some() {
        return deepest;
    }
    let (ca, cb) = (world.get(a).ok()?, world.get(b).ok()?);
    Some(-D::distance(&ca.shape, &ca.pose, &cb.shape, &cb.pose).distance)
}

/// One summary per pair that was in contact, in scene order.
fn summarize(events: &[FrameEvent], scene: &Scene, frames: u64) -> Vec<PairSummary> {
    let names: Vec<&str> = match &scene.shapes {
        Shapes::D2(v) => v.iter().map(|n| n.name.as_str()).collect(),
        Shapes::D3(v) => v.iter().map(|n| n.name.as_str()).collect(),
    };
    let order = |name: &str| names.iter().position(|n| *n == name).unwrap_or(usize::MAX);
    let mut pairs: Vec<PairSummary> = Vec::new();
    for e in events {
        let i = pairs.iter().position(|p| p.a == e.a && p.b == e.b);
        match (e.kind, i) {
            ("began", None) => pairs.push(PairSummary {
                a: e.a.clone(),
                b: e.b.clone(),
                first_contact: e.frame,
                last_contact: e.frame,
                intervals: 1,
                spans: vec![(e.frame, None)],
            }),
            ("began", Some(i)) => {
                pairs[i].intervals += 1;
                pairs[i].spans.push((e.frame, None));
            }
            ("ended", Some(i)) => {
                if let Some(last) = pairs[i].spans.last_mut() {
                    last.1 = Some(e.frame);
                }
                pairs[i].last_contact = e.frame.saturating_sub(1);
            }
            _ => {}
        }
    }
    for p in &mut pairs {
        if p.spans.last().is_some_and(|s| s.1.is_none()) {
            p.last_contact = frames - 1;
        }
    }
    pairs.sort_by_key(|p| (order(&p.a), order(&p.b)));
    pairs
}

/// A number with 4 decimals, without a `-0.0000`.
fn num(x: f32) -> String {
    let s = format!("{x:.4}");
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// The text report of a timeline run.
pub fn text_report(r: &FramesReport) -> String {
    let mut s = String::new();
    let last_t = (r.frames.saturating_sub(1) as f64 / r.fps as f64) as f32;
    let _ = writeln!(
        s,
        "scene {}: {}D, {} shapes, {} frames at {} fps (t = 0 to {:.3}), distance {}",
        r.scene,
        r.dimension,
        r.shapes,
        r.frames,
        r.fps,
        last_t,
        num(r.distance)
    );
    let _ = writeln!(s);
    if r.events.is_empty() {
        let _ = writeln!(s, "no contact events");
    }
    for e in &r.events {
        let mut line = format!(
            "frame {}  t={:.3}  {}  {} — {}",
            e.frame, e.t, e.kind, e.a, e.b
        );
        match e.depth {
            Some(d) if d < 0.0 => {
                let _ = write!(line, "  distance {}", num(-d));
            }
            Some(d) => {
                let _ = write!(line, "  depth {}", num(d));
            }
            None => {}
        }
        if let Some(ti) = e.impact_t {
            let _ = write!(line, "  impact t={ti:.4}");
        }
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "\npairs in contact: {}", r.pairs.len());
    let time = |f: u64| (f as f64 / r.fps as f64) as f32;
    for p in &r.pairs {
        let _ = writeln!(
            s,
            "  {} — {}: first frame {} (t={:.3}), last frame {} (t={:.3}), {} interval{}",
            p.a,
            p.b,
            p.first_contact,
            time(p.first_contact),
            p.last_contact,
            time(p.last_contact),
            p.intervals,
            if p.intervals == 1 { "" } else { "s" }
        );
    }
    s
}

/// The `--json` report, pretty-printed.
pub fn json(r: &FramesReport) -> String {
    // Serializing plain structs cannot fail; fall back to an empty object anyway.
    serde_json::to_string_pretty(r).unwrap_or_else(|_| "{}".to_string())
}

/// `peng check --frames N`: checks the options, loads the scene `text` (from
/// `name`) with its motions, runs it and prints the report.
pub fn run_cli(args: &CheckArgs, name: &str, text: &str) -> Result<()> {
    let frames = args.frames.unwrap_or(0);
    if frames == 0 {
        bail!("--frames must be at least 1, got {frames}");
    }
    if let Some(f) = args.fps {
        if !(f.is_finite() && f > 0.0) {
            bail!("--fps must be a finite number > 0, got {f}");
        }
    }
    if args.png.is_some() {
        bail!("--png draws one moment; it cannot be combined with --frames");
    }
    let (scene, timeline) = crate::scene::parse_timeline(name, text)?;
    let settings = Settings {
        frames,
        fps: args.fps.or(timeline.fps).unwrap_or(DEFAULT_FPS),
        distance: args.distance.or(scene.distance).unwrap_or(0.0),
        persist: args.persist,
        ccd: args.ccd,
    };
    let report = run(&scene, &timeline.motions, settings)?;
    if args.json {
        println!("{}", json(&report));
    } else {
        print!("{}", text_report(&report));
    }
    Ok(())
}
