//! `peng sim [SCENE]`: reads and loads the scene, checks the options and
//! the output paths before the run, runs it ([`super::run::simulate`] on
//! [`super::physics::Dynamics`]) and prints the summary.

use super::load;
use super::model::{SimScene, World, Worlds};
use super::physics::Dynamics;
use super::run::{delay_cs, picture_count, picture_every, simulate, RunOptions, Summary};
use super::space::Space;
use super::BUNDLED;
use crate::cli::SimArgs;
use crate::gif::GifWriter;
use anyhow::{bail, Context, Result};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::time::Duration;

/// The most pictures a GIF may collect (they stay in memory until the end:
/// 3 bytes per pixel each).
pub const MAX_GIF_FRAMES: u64 = 600;

/// Runs that take longer than this report progress on standard error, this
/// often.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// Reads the scene named by the arguments: (source name, text).
fn read_scene(args: &SimArgs) -> Result<(String, String)> {
    match &args.scene {
        None => {
            let name = args.example.name();
            let (_, file, text) = BUNDLED
                .iter()
                .find(|(n, _, _)| *n == name)
                .copied()
                .context("internal error: a bundled scene is missing")?;
            Ok((format!("<bundled {file}>"), text.to_string()))
        }
        Some(p) if p.as_os_str() == "-" => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("cannot read the scene from standard input")?;
            Ok(("<stdin>".into(), s))
        }
        Some(p) => {
            let name = p.display().to_string();
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read scene file {name}"))?;
            Ok((name, text))
        }
    }
}

/// Runs `peng sim`.
pub fn run_cli(args: &SimArgs) -> Result<()> {
    if let Some(f) = args.fps {
        if !(f.is_finite() && f > 0.0) {
            bail!("--fps must be a finite number > 0, got {f}");
        }
    }
    let (name, text) = read_scene(args)?;
    let scene = load::parse(&name, &text)?;
    match &scene.worlds {
        Worlds::D2(w) => run_world(&scene, w, args),
        Worlds::D3(w) => run_world(&scene, w, args),
    }
}

/// Runs the bodies `w` of `scene`.
fn run_world<D: Space>(scene: &SimScene, w: &World<D>, args: &SimArgs) -> Result<()> {
    // The world first: a scene it refuses (joints) writes no files.
    let mut phys = Dynamics::build(w, &scene.timing)?;
    let steps = args.steps.unwrap_or(scene.timing.steps);
    let fps = args.fps.unwrap_or(scene.view.fps);
    let every = picture_every(scene.timing.dt, fps);
    let pictures = !args.no_picture;
    if pictures && picture_count(steps, every) > MAX_GIF_FRAMES {
        bail!(
            "the GIF would hold {} pictures (at most {MAX_GIF_FRAMES}: they stay in memory \
             until the end); lower --fps or --steps, or use --no-picture",
            picture_count(steps, every)
        );
    }
    // Created now (the GIF is written at the end) so that a bad path fails
    // before the run.
    if pictures {
        File::create(&args.out)
            .with_context(|| format!("cannot create GIF file {}", args.out.display()))?;
    }
    let log_file = File::create(&args.log)
        .with_context(|| format!("cannot create log file {}", args.log.display()))?;
    let mut log = BufWriter::new(log_file);
    let mut gif = GifWriter::new();
    let mut shown = 0u64;
    let o = RunOptions {
        steps,
        fps,
        pictures,
        contacts: !args.no_contacts,
        progress: Some(PROGRESS_EVERY),
    };
    let s = simulate(
        scene,
        w,
        &mut phys,
        o,
        |c| {
            gif.add_canvas(c, delay_cs(shown, every, scene.timing.dt))?;
            shown += 1;
            Ok(())
        },
        &mut log,
    )?;
    if pictures {
        gif.save(&args.out)?;
    }
    // Written, not printed: a closed pipe is an error, not a panic.
    let mut out = std::io::stdout().lock();
    write!(out, "{}", summary_text(scene, &s))?;
    if pictures {
        writeln!(
            out,
            "wrote {} ({} pictures of {}x{}, every {} step(s), {:.2} cs each)",
            args.out.display(),
            s.pictures,
            scene.view.width,
            scene.view.height,
            s.every,
            (s.every as f64 * scene.timing.dt as f64 * 100.0).max(2.0)
        )?;
    }
    writeln!(
        out,
        "wrote {} ({} events)",
        args.log.display(),
        s.began + s.ended
    )?;
    Ok(())
}

/// The summary of a run: scene, steps and times, contacts.
pub fn summary_text(scene: &SimScene, s: &Summary) -> String {
    let wall = s.wall.as_secs_f64();
    let rate = if wall > 0.0 {
        format!(" ({:.0} steps/s)", s.steps as f64 / wall)
    } else {
        String::new()
    };
    format!(
        "peng sim {}: {}\n\
         steps: {} ({:.3} s simulated, dt {:.6} s, {} substeps) in {wall:.3} s wall time{rate}\n\
         contacts: {} began, {} ended\n",
        scene.source,
        super::log::contents(scene),
        s.steps,
        s.seconds,
        scene.timing.dt,
        scene.timing.substeps,
        s.began,
        s.ended
    )
}
