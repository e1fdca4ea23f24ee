//! Math: glam re-exports, poses, tolerances and the degeneracy policy.

mod num;
pub mod policy;
mod pose2;
mod pose3;
pub(crate) mod quadratic;
pub mod tolerance;
mod vector;

pub use glam::{Mat2, Mat3, Quat, Vec2, Vec3};
pub use num::Num;
pub use pose2::{Pose2, Rot2};
pub use pose3::Pose3;
pub use vector::Vector;
