//! The time stepping and the picture settings of a simulation scene, with
//! their defaults and checks.

use super::defs::{SimDef, ViewDef};
use super::load::{key, number};
use super::model::{Timing, ViewSpec};
use crate::scene::error::Located;
use crate::scene::locate::Seg;
use peng::d2::Vec2;

/// Time step when the scene gives none (seconds).
pub const DEFAULT_DT: f32 = 1.0 / 60.0;

/// Solver substeps when the scene gives none.
pub const DEFAULT_SUBSTEPS: u32 = 4;

/// Simulated time when the scene gives neither steps nor seconds.
pub const DEFAULT_SECONDS: f32 = 5.0;

/// Picture width when the scene gives none.
pub const DEFAULT_WIDTH: u32 = 480;

/// Picture height when the scene gives none.
pub const DEFAULT_HEIGHT: u32 = 360;

/// Pictures per simulated second when the scene gives none.
pub const DEFAULT_FPS: f32 = 30.0;

/// Most steps a scene may ask for.
pub const MAX_STEPS: u64 = 10_000_000;

/// The time stepping of a scene.
pub fn timing<B, W>(def: &SimDef<B, W>) -> Result<Timing, Located> {
    let dt = number(def.dt, DEFAULT_DT, &[], "dt", "a finite number > 0", |x| {
        x > 0.0
    })?;
    let substeps = def.substeps.unwrap_or(DEFAULT_SUBSTEPS);
    if substeps == 0 {
        return Err(Located::new(
            vec![Seg::Key("substeps".into())],
            "substeps must be at least 1, got 0",
        ));
    }
    let steps = match (def.steps, def.seconds) {
        (Some(_), Some(_)) => {
            return Err(Located::new(
                vec![Seg::Key("seconds".into())],
                "give either steps or seconds, not both",
            ))
        }
        (Some(n), None) => n,
        (None, s) => {
            let s = number(
                s,
                DEFAULT_SECONDS,
                &[],
                "seconds",
                "a finite number > 0",
                |x| x > 0.0,
            )?;
            // The smallest number of steps that covers the time (a hair of
            // slack so that 2 s at 1/60 s is 120 steps, not 121).
            ((s as f64 / dt as f64) - 1e-6).ceil().max(1.0) as u64
        }
    };
    if !(1..=MAX_STEPS).contains(&steps) {
        let field = if def.steps.is_some() {
            "steps"
        } else {
            "seconds"
        };
        return Err(Located::new(
            vec![Seg::Key(field.into())],
            format!("the scene must run from 1 to {MAX_STEPS} steps, got {steps}"),
        ));
    }
    Ok(Timing {
        dt,
        substeps,
        steps,
    })
}

/// The picture settings of a scene.
pub fn view(v: Option<&ViewDef>) -> Result<ViewSpec, Located> {
    let base = vec![Seg::Key("view".into())];
    let empty = ViewDef::default();
    let v = v.unwrap_or(&empty);
    let px = |n: Option<u32>, default: u32, field: &str| {
        let n = n.unwrap_or(default);
        if (16..=4096).contains(&n) {
            Ok(n)
        } else {
            Err(Located::new(
                key(&base, field),
                format!("{field} must be from 16 to 4096 pixels, got {n}"),
            ))
        }
    };
    let width = px(v.width, DEFAULT_WIDTH, "width")?;
    let height = px(v.height, DEFAULT_HEIGHT, "height")?;
    let fps = number(
        v.fps,
        DEFAULT_FPS,
        &base,
        "fps",
        "a finite number > 0",
        |x| x > 0.0,
    )?;
    let region = match (v.min, v.max) {
        (None, None) => None,
        (Some(lo), Some(hi)) => {
            let (lo, hi) = (Vec2::from(lo), Vec2::from(hi));
            if !lo.is_finite() {
                return Err(Located::new(key(&base, "min"), "min must be finite"));
            }
            if !(hi.is_finite() && hi.x > lo.x && hi.y > lo.y) {
                return Err(Located::new(
                    key(&base, "max"),
                    format!("max must be finite and above min on both axes, got {hi} (min {lo})"),
                ));
            }
            Some((lo, hi))
        }
        (Some(_), None) => {
            return Err(Located::new(
                key(&base, "min"),
                "give both min and max (or neither: fit all bodies)",
            ))
        }
        (None, Some(_)) => {
            return Err(Located::new(
                key(&base, "max"),
                "give both min and max (or neither: fit all bodies)",
            ))
        }
    };
    Ok(ViewSpec {
        width,
        height,
        region,
        fps,
    })
}
