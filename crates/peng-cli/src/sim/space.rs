//! What the simulation command needs from a dimension beyond
//! [`peng_dynamics::DynDim`]: pose algebra, and how a shape
//! looks in the picture (2D as it is; 3D as the orthographic front view of
//! `peng check --png`: x right, y up, looking along -z).

use peng::d2::{self, Pose2, Vec2};
use peng::d3::{self, Pose3, Vec3};
use peng::world::{Dim2, Dim3};
use peng_dynamics::DynDim;

pub use crate::outline::Outline;
use crate::outline::{outline2, outline3};

/// A dimension of the simulation command (implemented for [`Dim2`] and
/// [`Dim3`]).
pub trait Space: DynDim {
    /// `a * b`: `b`'s frame placed in `a`'s.
    fn mul(a: &Self::Pose, b: &Self::Pose) -> Self::Pose;
    /// A world point in the frame of `pose`.
    fn to_local_point(pose: &Self::Pose, p: Self::V) -> Self::V;
    /// A world direction in the frame of `pose`.
    fn to_local_vector(pose: &Self::Pose, v: Self::V) -> Self::V;
    /// A point in view coordinates (3D: front view, drop z).
    fn project(p: Self::V) -> Vec2;
    /// How near the viewer a pose is (3D: z; 2D: 0); nearer bodies are drawn
    /// last.
    fn depth(pose: &Self::Pose) -> f32;
    /// Appends the outlines of `shape` at `pose` in view coordinates.
    fn outline(shape: &Self::Shape, pose: &Self::Pose, out: &mut Vec<Outline>);
}

impl Space for Dim2 {
    fn mul(a: &Pose2, b: &Pose2) -> Pose2 {
        a.mul(b)
    }
    fn to_local_point(pose: &Pose2, p: Vec2) -> Vec2 {
        pose.inverse_transform_point(p)
    }
    fn to_local_vector(pose: &Pose2, v: Vec2) -> Vec2 {
        pose.inverse_transform_vector(v)
    }
    fn project(p: Vec2) -> Vec2 {
        p
    }
    fn depth(_: &Pose2) -> f32 {
        0.0
    }
    fn outline(s: &d2::Shape, pose: &Pose2, out: &mut Vec<Outline>) {
        outline2(s, pose, out);
    }
}

impl Space for Dim3 {
    fn mul(a: &Pose3, b: &Pose3) -> Pose3 {
        a.mul(b)
    }
    fn to_local_point(pose: &Pose3, p: Vec3) -> Vec3 {
        pose.inverse_transform_point(p)
    }
    fn to_local_vector(pose: &Pose3, v: Vec3) -> Vec3 {
        pose.inverse_transform_vector(v)
    }
    fn project(p: Vec3) -> Vec2 {
        Vec2::new(p.x, p.y)
    }
    fn depth(pose: &Pose3) -> f32 {
        pose.translation.z
    }
    fn outline(s: &d3::Shape, pose: &Pose3, out: &mut Vec<Outline>) {
        outline3(s, pose, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::SAMPLES;

    #[test]
    fn rect_outline_is_placed_by_the_pose() {
        let r: d2::Shape = d2::Rect::new(Vec2::new(1.0, 0.5)).unwrap().into();
        let mut out = Vec::new();
        let pose = Pose2::new(Vec2::new(3.0, 1.0), std::f32::consts::FRAC_PI_2);
        Dim2::outline(&r, &pose, &mut out);
        let Outline::Poly(ps) = &out[0] else {
            panic!("{out:?}")
        };
        // Turned a quarter: half extents (0.5, 1) about (3, 1).
        for p in ps {
            assert!(((p.x - 3.0).abs() - 0.5).abs() < 1e-5, "{p}");
            assert!(((p.y - 1.0).abs() - 1.0).abs() < 1e-5, "{p}");
        }
    }

    #[test]
    fn ball_silhouette_is_a_circle_in_the_front_view() {
        let b: d3::Shape = d3::Ball::new(2.0).unwrap().into();
        let mut out = Vec::new();
        let pose = Pose3::from_translation(Vec3::new(1.0, -1.0, 5.0));
        Dim3::outline(&b, &pose, &mut out);
        let Outline::Poly(ps) = &out[0] else {
            panic!("{out:?}")
        };
        assert!(ps.len() >= SAMPLES / 2);
        for p in ps {
            assert!(((*p - Vec2::new(1.0, -1.0)).length() - 2.0).abs() < 1e-4);
        }
        assert_eq!(Dim3::depth(&pose), 5.0);
    }
}
