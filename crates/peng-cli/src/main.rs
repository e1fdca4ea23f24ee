//! The `peng` command-line tool: collision checks on scene files.
//!
//! `peng check [SCENE]` loads a JSON scene (see [`scene`]), checks every pair of
//! shapes ([`check`]) and prints a report ([`report`]); `--png` draws it
//! ([`draw`], [`raster`]). `peng sim [SCENE]` runs a scene of rigid bodies on
//! peng's physics world ([`sim`]). `peng clash [FILES...]` checks building
//! models for clashes ([`clash`]). `peng robot [URDF]` checks a robot arm
//! along a trajectory ([`robot`]).

#![warn(missing_docs)]

mod check;
mod clash;
mod cli;
mod demo;
mod draw;
mod font;
mod frames;
mod gif;
mod outline;
mod raster;
mod report;
mod robot;
mod scene;
mod sim;

use anyhow::{bail, Context, Result};
use clap::Parser;
use cli::{CheckArgs, Cli, Command, Example};
use std::io::Read;

/// The bundled example scenes, embedded so `peng check` works from any directory.
const SCENE2D: &str = include_str!("../../../examples/scene2d.json");
const SCENE3D: &str = include_str!("../../../examples/scene3d.json");

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => run_check(&args),
        Command::Demo(args) => demo::run(&args),
        Command::Sim(args) => sim::run_cli(&args),
        Command::Clash(args) => clash::run_cli(&args),
        Command::Robot(args) => robot::run_cli(&args),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// Reads the scene named by the arguments: (source name, text).
fn read_scene(args: &CheckArgs) -> Result<(String, String)> {
    match &args.scene {
        None => Ok(match args.example {
            Example::Scene2d => ("<bundled examples/scene2d.json>".into(), SCENE2D.into()),
            Example::Scene3d => ("<bundled examples/scene3d.json>".into(), SCENE3D.into()),
        }),
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

fn run_check(args: &CheckArgs) -> Result<()> {
    if let Some(d) = args.distance {
        if !(d.is_finite() && d >= 0.0) {
            bail!("--distance must be a finite number >= 0, got {d}");
        }
    }
    let (name, text) = read_scene(args)?;
    if args.frames.is_some() {
        return frames::run_cli(args, &name, &text);
    }
    let scene = scene::parse(&name, &text)?;
    let distance = args.distance.or(scene.distance).unwrap_or(0.0);
    let report = check::check(&scene, distance);
    if let Some(path) = &args.png {
        let canvas = draw::render(&scene, &report, args.width, args.height);
        let file = std::fs::File::create(path)
            .with_context(|| format!("cannot create PNG file {}", path.display()))?;
        canvas
            .write_png(std::io::BufWriter::new(file))
            .with_context(|| format!("cannot write PNG file {}", path.display()))?;
    }
    if args.json {
        println!("{}", report::json(&report));
    } else {
        print!("{}", report::text(&report));
        if let Some(path) = &args.png {
            println!("\nwrote {}", path.display());
        }
    }
    Ok(())
}
