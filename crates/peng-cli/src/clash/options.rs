//! The numeric and textual options of `peng clash`, checked before anything
//! is read: the tests to run, the region, the grouping.

use crate::cli::{ClashArgs, ClashMode};
use anyhow::{bail, Context, Result};
use peng_clash::report::GroupBy;
use peng_clash::{Bounds, Mode};

/// The tests to run, by name and mode, in order (each mode once).
pub fn tests(args: &ClashArgs) -> Result<Vec<(&'static str, Mode)>> {
    let tolerance = metres("--tolerance", args.tolerance, false)?;
    let clearance = metres("--clearance", args.clearance, true)?;
    let duplicate = metres("--duplicate-tolerance", args.duplicate_tolerance, false)?;
    let mut modes: Vec<ClashMode> = Vec::new();
    let asked = if args.modes.is_empty() {
        &[ClashMode::Hard, ClashMode::Clearance, ClashMode::Duplicate][..]
    } else {
        &args.modes[..]
    };
    for &m in asked {
        if !modes.contains(&m) {
            modes.push(m);
        }
    }
    Ok(modes
        .into_iter()
        .map(|m| {
            let mode = match m {
                ClashMode::Hard => Mode::Hard {
                    tolerance,
                    report_touching: false,
                },
                ClashMode::Collision => Mode::COLLISION,
                ClashMode::Touching => Mode::TOUCHING,
                ClashMode::Clearance => Mode::Clearance {
                    distance: clearance,
                },
                ClashMode::Duplicate => Mode::Duplicate {
                    tolerance: duplicate,
                },
            };
            (m.name(), mode)
        })
        .collect())
}

/// A length option: finite, and >= 0 (or > 0 when `positive`).
fn metres(option: &str, value: f64, positive: bool) -> Result<f64> {
    let ok = value.is_finite() && if positive { value > 0.0 } else { value >= 0.0 };
    if !ok {
        let bound = if positive { "> 0" } else { ">= 0" };
        bail!("{option} must be a finite number of metres {bound}, got {value}");
    }
    Ok(value)
}

/// `--region minx,miny,minz,maxx,maxy,maxz`.
pub fn region(text: &str) -> Result<Bounds> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != 6 {
        bail!(
            "--region {text:?}: expected 6 numbers minx,miny,minz,maxx,maxy,maxz, got {}",
            parts.len()
        );
    }
    let mut v = [0.0f64; 6];
    for (x, p) in v.iter_mut().zip(&parts) {
        *x = p
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .with_context(|| format!("--region {text:?}: {p:?} is not a finite number"))?;
    }
    for (axis, k) in [("x", 0), ("y", 1), ("z", 2)] {
        if v[k] > v[k + 3] {
            bail!(
                "--region {text:?}: min{axis} {} is greater than max{axis} {}",
                v[k],
                v[k + 3]
            );
        }
    }
    // (No glam in this crate: the vectors come from arrays.)
    Ok(Bounds {
        min: [v[0], v[1], v[2]].into(),
        max: [v[3], v[4], v[5]].into(),
    })
}

/// `--group proximity:D | proximity | type | storey`.
pub fn group(text: &str) -> Result<GroupBy> {
    let t = text.trim();
    match t.to_ascii_lowercase().as_str() {
        "type" => return Ok(GroupBy::TypePair),
        "storey" => return Ok(GroupBy::Storey),
        "proximity" => return Ok(GroupBy::Proximity(1.0)),
        _ => {}
    }
    if let Some(d) = t.strip_prefix("proximity:") {
        return match d.trim().parse::<f64>() {
            Ok(d) if d.is_finite() && d > 0.0 => Ok(GroupBy::Proximity(d)),
            _ => bail!(
                "--group {text:?}: the proximity distance must be a finite number of metres > 0"
            ),
        };
    }
    bail!("--group {text:?}: expected proximity:D (metres), type or storey")
}

/// The smallest and largest side of a picture, pixels.
pub const PICTURE_SIDES: std::ops::RangeInclusive<u32> = 64..=4096;

/// `--picture-size WxH`: width and height in pixels, each within
/// [`PICTURE_SIDES`].
pub fn picture_size(text: &str) -> Result<(u32, u32)> {
    let (lo, hi) = (PICTURE_SIDES.start(), PICTURE_SIDES.end());
    let parsed = text
        .trim()
        .split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)));
    let Some((w, h)) = parsed else {
        bail!("--picture-size {text:?}: expected WxH in pixels, e.g. 480x360");
    };
    if !PICTURE_SIDES.contains(&w) || !PICTURE_SIDES.contains(&h) {
        bail!(
            "--picture-size {text:?}: width and height must each be {lo} to {hi} pixels, \
             got {w}x{h}"
        );
    }
    Ok((w, h))
}

/// How a mode reads in the summary: `hard (tolerance 2 mm)`.
pub fn describe(name: &str, mode: Mode) -> String {
    match mode {
        Mode::Hard {
            tolerance,
            report_touching: true,
        } => format!("{name} (tolerance {}, touches too)", mm(tolerance)),
        Mode::Hard { tolerance, .. } => format!("{name} (tolerance {})", mm(tolerance)),
        Mode::Clearance { distance } => format!("{name} ({})", mm(distance)),
        Mode::Duplicate { tolerance } => format!("{name} (tolerance {})", mm(tolerance)),
    }
}

/// Metres as millimetres, without trailing zeros: `2 mm`, `0.5 mm`.
pub fn mm(m: f64) -> String {
    let s = format!("{:.3}", m * 1000.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s} mm")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions() {
        let r = region("-1, 0,0.5,2,3,4").unwrap();
        assert_eq!(r.min.to_array(), [-1.0, 0.0, 0.5]);
        assert_eq!(r.max.to_array(), [2.0, 3.0, 4.0]);
        let e = region("1,2,3").unwrap_err().to_string();
        assert!(
            e.contains("expected 6 numbers") && e.contains("got 3"),
            "{e}"
        );
        let e = region("0,0,0,1,x,1").unwrap_err().to_string();
        assert!(e.contains("\"x\" is not a finite number"), "{e}");
        let e = region("0,0,0,1,1,inf").unwrap_err().to_string();
        assert!(e.contains("\"inf\""), "{e}");
        let e = region("0,5,0,1,1,1").unwrap_err().to_string();
        assert!(e.contains("miny 5 is greater than maxy 1"), "{e}");
    }

    #[test]
    fn groups() {
        assert_eq!(group("proximity:2.5").unwrap(), GroupBy::Proximity(2.5));
        assert_eq!(group("proximity").unwrap(), GroupBy::Proximity(1.0));
        assert_eq!(group("type").unwrap(), GroupBy::TypePair);
        assert_eq!(group("Storey").unwrap(), GroupBy::Storey);
        assert!(group("proximity:0").is_err());
        assert!(group("proximity:-1").is_err());
        let e = group("room").unwrap_err().to_string();
        assert!(e.contains("--group \"room\""), "{e}");
    }

    #[test]
    fn picture_sizes() {
        assert_eq!(picture_size("480x360").unwrap(), (480, 360));
        assert_eq!(picture_size(" 64X4096 ").unwrap(), (64, 4096));
        let e = picture_size("10x10").unwrap_err().to_string();
        assert_eq!(
            e,
            "--picture-size \"10x10\": width and height must each be 64 to 4096 pixels, got 10x10"
        );
        assert!(picture_size("480x4097").is_err());
        for bad in ["480", "480x", "x360", "-480x360", "480x360x2", "wide", ""] {
            let e = picture_size(bad).unwrap_err().to_string();
            assert!(e.contains("expected WxH in pixels"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn lengths() {
        assert_eq!(metres("--x", 0.0, false).unwrap(), 0.0);
        let e = metres("--tolerance", -1.0, false).unwrap_err().to_string();
        assert_eq!(
            e,
            "--tolerance must be a finite number of metres >= 0, got -1"
        );
        assert!(metres("--clearance", 0.0, true).is_err());
        assert!(metres("--clearance", f64::NAN, true).is_err());
        assert_eq!(mm(0.002), "2 mm");
        assert_eq!(mm(0.0005), "0.5 mm");
        assert_eq!(mm(0.05), "50 mm");
    }
}
