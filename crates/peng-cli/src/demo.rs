//! `peng demo`: the ball-and-paddle scene.
//!
//! A ball drops again and again while a paddle slides left and right; a
//! [`World2`](peng::d2::World2) finds every contact ([`scene`]). The run
//! prints each event of the watched set "ball against paddle and floor" and
//! a summary, and draws the frames ([`render`]) into an animated GIF or
//! numbered PNGs.

mod render;
mod scene;

use crate::cli::DemoArgs;
use crate::gif::GifWriter;
use anyhow::{bail, Context, Result};
use peng::world::EventKind;
use render::{Overlay, FLASH_FRAMES, TRAIL};
use scene::{frame_time, Contact, Event, Other, Sim, FPS};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The most pictures a GIF may collect (they stay in memory until the end:
/// 3 bytes per pixel each).
const MAX_GIF_FRAMES: u32 = 600;

/// Where the pictures go.
enum Sink {
    None,
    Gif { path: PathBuf, gif: GifWriter },
    Pngs(PathBuf),
}

/// Runs `peng demo`.
pub fn run(args: &DemoArgs) -> Result<()> {
    let pictures = if args.no_picture {
        0
    } else {
        args.frames.div_ceil(args.every)
    };
    let mut sink = open_sink(args, pictures)?;
    // The delay that plays `every` frames of 1/FPS s in real time.
    let delay_cs = ((args.every as f32 * 100.0 / FPS).round() as u16).max(2);

    println!(
        "peng demo: a ball dropped again and again onto a paddle sliding along \
         x = {} sin(2 pi t / {} s); {} frames at {} fps",
        scene::PADDLE_AMP,
        scene::PADDLE_PERIOD,
        args.frames,
        FPS
    );
    let mut sim = Sim::new()?;
    let mut trail: VecDeque<peng::d2::Vec2> = VecDeque::with_capacity(TRAIL + 1);
    // The latest touch, its frame and the paddle's x then.
    let mut flash: Option<(Contact, u32, f32)> = None;
    let (mut touches, mut floors, mut events, mut drops) = (0u32, 0u32, 0u32, 0u32);
    let mut out = std::io::stdout().lock();
    for _ in 0..args.frames {
        let f = sim.step()?;
        drops = f.drop + 1;
        for e in &f.events {
            events += 1;
            match (e.kind, e.other) {
                (EventKind::Began, Other::Paddle) => touches += 1,
                (EventKind::Began, Other::Floor) => floors += 1,
                _ => {}
            }
            if let (EventKind::Began, Some(k)) = (e.kind, e.contact) {
                flash = Some((k, f.n, f.paddle_x));
            }
            writeln!(out, "{}", event_line(e))?;
        }
        // The marker rides on the paddle while the highlight lasts.
        let shown = flash
            .filter(|&(_, n0, _)| f.n - n0 < FLASH_FRAMES)
            .map(|(mut k, n0, x0)| {
                k.point.x += f.paddle_x - x0;
                (k, f.n - n0)
            });
        if f.n % args.every == 0 && !matches!(sink, Sink::None) {
            let trail: Vec<_> = trail.iter().copied().collect();
            let o = Overlay {
                trail: &trail,
                flash: shown,
                touches,
            };
            let canvas = render::render(&f, &o, args.width, args.height);
            match &mut sink {
                Sink::None => {}
                Sink::Gif { gif, .. } => gif.add_canvas(&canvas, delay_cs)?,
                Sink::Pngs(dir) => write_png(&canvas, &dir.join(png_name(f.n)))?,
            }
        }
        trail.push_back(f.ball);
        if trail.len() > TRAIL {
            trail.pop_front();
        }
    }
    writeln!(
        out,
        "summary: {} frames ({:.2} s), {drops} drops, {touches} touches of the paddle, \
         {floors} balls reached the floor, {events} events",
        args.frames,
        args.frames as f32 / FPS
    )?;
    match sink {
        Sink::None => {}
        Sink::Gif { path, gif } => {
            let n = gif.len();
            gif.save(&path)?;
            writeln!(
                out,
                "wrote {} ({n} frames of {}x{}, every {} simulation frame(s), {delay_cs} cs each)",
                path.display(),
                args.width,
                args.height,
                args.every
            )?;
        }
        Sink::Pngs(dir) => writeln!(
            out,
            "wrote {pictures} PNG files {}/{} ...",
            dir.display(),
            png_name(0)
        )?,
    }
    Ok(())
}

/// Checks the options and opens the output before the run, so a bad path
/// fails at once.
fn open_sink(args: &DemoArgs, pictures: u32) -> Result<Sink> {
    if args.no_picture {
        return Ok(Sink::None);
    }
    if let Some(dir) = &args.png_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create PNG directory {}", dir.display()))?;
        return Ok(Sink::Pngs(dir.clone()));
    }
    if pictures > MAX_GIF_FRAMES {
        bail!(
            "the GIF would hold {pictures} pictures (at most {MAX_GIF_FRAMES}: they stay in \
             memory until the end); raise --every, lower --frames, or use --png-dir"
        );
    }
    // Created now (and written at the end) so that a bad path fails at once.
    let path = args.out.clone();
    File::create(&path).with_context(|| format!("cannot create GIF file {}", path.display()))?;
    Ok(Sink::Gif {
        path,
        gif: GifWriter::new(),
    })
}

/// The file name of frame `n`'s picture.
fn png_name(n: u32) -> String {
    format!("frame-{n:05}.png")
}

fn write_png(canvas: &crate::raster::Canvas, path: &Path) -> Result<()> {
    let file =
        File::create(path).with_context(|| format!("cannot create PNG file {}", path.display()))?;
    canvas
        .write_png(BufWriter::new(file))
        .with_context(|| format!("cannot write PNG file {}", path.display()))
}

/// One printed event: frame, time, kind, the pair, and on a began contact
/// with the paddle its point, normal (ball to paddle) and depth.
fn event_line(e: &Event) -> String {
    let kind = match e.kind {
        EventKind::Began => "began",
        EventKind::Persisted => "persisted",
        EventKind::Ended => "ended",
    };
    let mut s = format!(
        "frame {:5}  t={:6.3}s  {kind:<6} ball-{}",
        e.frame,
        frame_time(e.frame),
        e.other.name()
    );
    if e.other == Other::Floor {
        s.push_str(" (sensor)");
    }
    if let Some(c) = e.contact {
        s.push_str(&format!(
            "  point=({:.3}, {:.3})  normal=({:.3}, {:.3})  depth={:.3}",
            c.point.x, c.point.y, c.normal.x, c.normal.y, c.depth
        ));
    }
    s
}
