//! Rigid transforms in f64 along kinematic chains.

use glam::{DQuat, DVec3};

/// A rigid transform: `p ↦ rotation · p + translation`, in f64 (a chain of
/// a dozen joints composes a dozen of them; f32 would lose a micrometre a
/// metre).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    /// The rotation (unit).
    pub rotation: DQuat,
    /// The translation.
    pub translation: DVec3,
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        rotation: DQuat::IDENTITY,
        translation: DVec3::ZERO,
    };

    /// URDF's `<origin xyz rpy>`: roll about x, then pitch about y, then yaw
    /// about z, all about the fixed axes (`R = Rz(yaw) Ry(pitch) Rx(roll)`).
    pub fn from_xyz_rpy(xyz: DVec3, rpy: DVec3) -> Transform {
        let r = DQuat::from_rotation_z(rpy.z)
            * DQuat::from_rotation_y(rpy.y)
            * DQuat::from_rotation_x(rpy.x);
        Transform {
            rotation: r.normalize(),
            translation: xyz,
        }
    }

    /// A pure rotation by `angle` about the unit `axis`.
    pub fn rotation(axis: DVec3, angle: f64) -> Transform {
        Transform {
            rotation: DQuat::from_axis_angle(axis, angle),
            translation: DVec3::ZERO,
        }
    }

    /// A pure translation.
    pub fn translation(t: DVec3) -> Transform {
        Transform {
            rotation: DQuat::IDENTITY,
            translation: t,
        }
    }

    /// `self ∘ other`: first `other`, then `self`. (Not renormalized: the
    /// product of unit quaternions drifts from unit length by about 1e-16 a
    /// product, nothing over a chain of joints.)
    pub fn mul(&self, other: &Transform) -> Transform {
        Transform {
            rotation: self.rotation * other.rotation,
            translation: self.rotation * other.translation + self.translation,
        }
    }

    /// The image of point `p`.
    pub fn transform_point(&self, p: DVec3) -> DVec3 {
        self.rotation * p + self.translation
    }

    /// The same transform in f32 as a peng pose.
    pub fn to_pose(&self) -> peng::d3::Pose3 {
        let q = self.rotation;
        peng::d3::Pose3::new(
            self.translation.as_vec3(),
            glam::Quat::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32).normalize(),
        )
    }
}
