//! `peng robot`: a robot arm (URDF, SRDF) checked along a trajectory of
//! waypoints in a cell of objects (a `peng check` scene): every waypoint on
//! its own, every segment between two waypoints continuously, with a text
//! or JSON report and optional pictures.
//!
//! - [`args`]: the command line and help texts;
//! - [`load`]: the inputs, and the bundled example for those not given;
//! - [`trajectory`]: waypoints from CSV;
//! - [`analysis`]: the checks;
//! - [`report`]: the text and JSON reports;
//! - [`tessellate`], [`picture`], [`render`]: the PNG and the GIF.

pub mod analysis;
pub mod args;
pub mod load;
pub mod picture;
pub mod render;
pub mod report;
pub mod tessellate;
pub mod trajectory;

use anyhow::Result;
use args::RobotArgs;

/// Runs `peng robot` with `args`: prints the report, draws the pictures
/// asked for.
pub fn run_cli(args: &RobotArgs) -> Result<()> {
    let inputs = load::load(args)?;
    let a = analysis::analyse(&inputs.checker, &inputs.trajectory.waypoints)?;
    let mut wrote = Vec::new();
    if let Some(path) = &args.png {
        render::write_png(&inputs, &a, path, args.width, args.height)?;
        wrote.push(format!("wrote {}", path.display()));
    }
    if let Some(path) = &args.gif {
        let n = render::write_gif(&inputs, &a, path, args.width, args.height)?;
        let plural = if n == 1 { "" } else { "s" };
        wrote.push(format!("wrote {} ({n} picture{plural})", path.display()));
    }
    if args.json {
        println!("{}", report::json(&inputs, &a));
        return Ok(());
    }
    print!("{}", report::text(&inputs, &a));
    if wrote.is_empty() {
        println!("(add --png robot.png --gif robot.gif to draw it)");
    }
    for w in wrote {
        println!("{w}");
    }
    Ok(())
}

#[cfg(test)]
mod tests;
