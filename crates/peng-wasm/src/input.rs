//! Checks of the numbers and words that come from JavaScript: every error
//! names the argument (and the collider, where there is one).

use peng::d2::{EventMode, Margin, Pose2, Vec2};
use peng::math::Num;

/// An error for JavaScript: its message.
pub(crate) type InputResult<T> = Result<T, String>;

/// `v` as a finite `f32`, else an error naming `what`.
pub(crate) fn finite(what: &str, v: f64) -> InputResult<f32> {
    let f = v as f32;
    if v.is_finite() && f.is_finite() {
        Ok(f)
    } else {
        Err(format!(
            "{what} must be a finite number, got {v}",
            v = Num::from(v)
        ))
    }
}

/// `v` as a finite `f32` above zero.
pub(crate) fn positive(what: &str, v: f64) -> InputResult<f32> {
    let f = finite(what, v)?;
    if f > 0.0 {
        Ok(f)
    } else {
        Err(format!(
            "{what} must be above zero, got {v}",
            v = Num::from(v)
        ))
    }
}

/// `v` as a finite `f32` at or above zero.
pub(crate) fn non_negative(what: &str, v: f64) -> InputResult<f32> {
    let f = finite(what, v)?;
    if f >= 0.0 {
        Ok(f)
    } else {
        Err(format!(
            "{what} must be zero or more, got {v}",
            v = Num::from(v)
        ))
    }
}

/// A pose from a position and an angle in radians.
pub(crate) fn pose(x: f64, y: f64, angle: f64) -> InputResult<Pose2> {
    let t = Vec2::new(finite("x", x)?, finite("y", y)?);
    Ok(Pose2::new(t, finite("angle", angle)?))
}

/// `"once"` or `"continuous"`.
pub(crate) fn event_mode(mode: &str) -> InputResult<EventMode> {
    match mode {
        "once" => Ok(EventMode::Once),
        "continuous" => Ok(EventMode::Continuous),
        other => Err(format!(
            "trigger must be \"once\" or \"continuous\", got \"{other}\""
        )),
    }
}

/// `"none"`, `"boundary"` (touching within `value` of the boundary) or
/// `"centre"` (touching when the centres are within `value`).
pub(crate) fn margin(kind: &str, value: f64) -> InputResult<Margin> {
    match kind {
        "none" => Ok(Margin::None),
        "boundary" => Ok(Margin::Offset(non_negative("boundary margin", value)?)),
        "centre" | "center" => Ok(Margin::CenterRadius(non_negative("centre margin", value)?)),
        other => Err(format!(
            "margin must be \"none\", \"boundary\" or \"centre\", got \"{other}\""
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked_by_name() {
        assert_eq!(finite("x", 2.5), Ok(2.5));
        assert_eq!(
            finite("x", f64::NAN).unwrap_err(),
            "x must be a finite number, got NaN"
        );
        assert!(finite("y", 1e300)
            .unwrap_err()
            .starts_with("y must be a finite"));
        assert_eq!(
            positive("radius", 0.0).unwrap_err(),
            "radius must be above zero, got 0"
        );
        assert_eq!(non_negative("boundary margin", 0.0), Ok(0.0));
        assert!(non_negative("boundary margin", -1.0).is_err());
        assert!(pose(0.0, f64::INFINITY, 0.0).unwrap_err().starts_with("y "));
    }

    #[test]
    fn words_are_checked() {
        assert_eq!(event_mode("continuous"), Ok(EventMode::Continuous));
        assert!(event_mode("twice").unwrap_err().contains("\"twice\""));
        assert_eq!(margin("boundary", 10.0), Ok(Margin::Offset(10.0)));
        assert_eq!(margin("centre", 3.0), Ok(Margin::CenterRadius(3.0)));
        assert!(margin("inside", 1.0).unwrap_err().contains("\"inside\""));
        assert!(margin("boundary", -2.0).is_err());
    }
}
