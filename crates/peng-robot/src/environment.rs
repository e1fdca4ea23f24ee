//! Environment objects that are not a single peng shape out of the box:
//! point clouds (a depth camera's or a laser scanner's points), each point
//! a small sphere, gathered in one compound so its tree finds the points
//! near a link.

use crate::error::RobotError;
use peng::d3::{Ball, Compound, Pose3, Shape, Vec3};

/// A point cloud as one shape: a sphere of `radius` (m, positive) at each
/// point (root frame), in a compound with a bounding-volume tree. Errors on
/// no points, a non-finite point (naming its index) or a bad radius.
pub fn point_cloud(points: &[Vec3], radius: f32) -> Result<Shape, RobotError> {
    let what = "point cloud";
    if radius.is_nan() || radius <= 0.0 {
        return Err(RobotError::new(
            what,
            format!("radius {radius} must be positive"),
        ));
    }
    let ball =
        Ball::new(radius).map_err(|e| RobotError::new(what, format!("radius {radius}: {e}")))?;
    if points.is_empty() {
        return Err(RobotError::new(what, "has no points"));
    }
    if let Some(i) = points.iter().position(|p| !p.is_finite()) {
        return Err(RobotError::new(
            what,
            format!("point {i} ({}) is not finite", points[i]),
        ));
    }
    let parts = points
        .iter()
        .map(|&p| (Pose3::from_translation(p), Shape::from(ball)))
        .collect();
    Compound::new(parts)
        .map(Shape::from)
        .map_err(|e| RobotError::new(what, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_clouds_are_errors_that_say_why() {
        let e = point_cloud(&[], 0.01).unwrap_err();
        assert!(e.to_string().contains("no points"), "{e}");
        let e = point_cloud(&[Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0)], 0.01).unwrap_err();
        assert!(e.to_string().contains("point 1"), "{e}");
        assert!(point_cloud(&[Vec3::ZERO], 0.0).is_err());
        assert!(point_cloud(&[Vec3::ZERO], f32::NAN).is_err());
        let Shape::Compound(c) = point_cloud(&[Vec3::ZERO, Vec3::X], 0.01).unwrap() else {
            panic!("a compound");
        };
        assert_eq!(c.parts().len(), 2);
    }
}
