//! Rigid poses in 3D: a unit quaternion and a translation.

use super::policy::{check_vec, GeometryError};
use glam::{Quat, Vec3, Vec4};

/// A rigid transform in 3D: `p ↦ rotation·p + translation`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pose3 {
    /// Translation (the position of the local origin in the parent frame).
    pub translation: Vec3,
    /// Rotation, a unit quaternion.
    pub rotation: Quat,
}

impl Pose3 {
    /// The identity pose.
    pub const IDENTITY: Pose3 = Pose3 {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    /// A pose from a translation and a rotation (normalized here: any finite
    /// non-zero quaternion, however long or short, gives its unit rotation).
    #[inline]
    pub fn new(translation: Vec3, rotation: Quat) -> Self {
        Pose3 {
            translation,
            rotation: normalize_quat(rotation),
        }
    }

    /// Like [`Pose3::new`] but rejects a non-finite translation or rotation, a
    /// translation beyond [`MAX_MAGNITUDE`](super::policy::MAX_MAGNITUDE)
    /// ([`GeometryError::TooLarge`]) and the zero quaternion.
    pub fn try_new(translation: Vec3, rotation: Quat) -> Result<Self, GeometryError> {
        check_vec("pose translation", translation)?;
        if !rotation.is_finite() {
            return Err(GeometryError::NonFinite {
                what: "pose rotation",
            });
        }
        if Vec4::from(rotation).abs().max_element() == 0.0 {
            return Err(GeometryError::Degenerate {
                what: "pose rotation",
                why: "the quaternion is zero",
            });
        }
        Ok(Self::new(translation, rotation))
    }

    /// A pure translation.
    #[inline]
    pub fn from_translation(translation: Vec3) -> Self {
        Pose3 {
            translation,
            rotation: Quat::IDENTITY,
        }
    }

    /// A pose from a translation and a scaled rotation axis (axis · angle).
    #[inline]
    pub fn from_axis_angle(translation: Vec3, scaled_axis: Vec3) -> Self {
        Pose3 {
            translation,
            rotation: Quat::from_scaled_axis(scaled_axis),
        }
    }

    /// Whether every field is finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.rotation.is_finite()
    }

    /// Maps a local point to the parent frame.
    #[inline]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.translation
    }

    /// Maps a local vector to the parent frame.
    #[inline]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotation * v
    }

    /// Maps a parent-frame point into the local frame.
    #[inline]
    pub fn inverse_transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation.inverse() * (p - self.translation)
    }

    /// Maps a parent-frame vector into the local frame.
    #[inline]
    pub fn inverse_transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotation.inverse() * v
    }

    /// `self * o`: apply `o` first, then `self`.
    #[inline]
    #[allow(clippy::should_implement_trait)] // also `impl Mul`; the method reads better in chains
    pub fn mul(&self, o: &Pose3) -> Pose3 {
        Pose3 {
            translation: self.transform_point(o.translation),
            rotation: self.rotation * o.rotation,
        }
    }

    /// The inverse transform.
    #[inline]
    pub fn inverse(&self) -> Pose3 {
        let rotation = self.rotation.inverse();
        Pose3 {
            translation: -(rotation * self.translation),
            rotation,
        }
    }

    /// `self⁻¹ * o`: the pose of `o` seen from `self`'s frame.
    #[inline]
    pub fn inv_mul(&self, o: &Pose3) -> Pose3 {
        let inv = self.rotation.inverse();
        Pose3 {
            translation: inv * (o.translation - self.translation),
            rotation: inv * o.rotation,
        }
    }

    /// The rotation as a 3x3 matrix (columns are the local axes in the parent frame).
    #[inline]
    pub fn rotation_matrix(&self) -> glam::Mat3 {
        glam::Mat3::from_quat(self.rotation)
    }
}

/// `q / |q|`, also where `|q|²` overflows (components beyond about 1.8e19) or
/// underflows (below about 1e-19): there `q` is first divided by its largest
/// component, which puts `|q|²` in `[1, 4]`. Unit-sized input takes the
/// direct path. The zero quaternion stays zero.
#[inline]
fn normalize_quat(q: Quat) -> Quat {
    let l2 = q.length_squared();
    // Normal range: `1/sqrt` is accurate and finite.
    if (1.0e-30..=1.0e30).contains(&l2) {
        return q.normalize();
    }
    let m = Vec4::from(q).abs().max_element();
    if m == 0.0 || !m.is_finite() {
        return q.normalize();
    }
    Quat::from_vec4(Vec4::from(q) / m).normalize()
}

impl core::ops::Mul for Pose3 {
    type Output = Pose3;
    #[inline]
    fn mul(self, o: Pose3) -> Pose3 {
        Pose3::mul(&self, &o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_and_invert() {
        let a = Pose3::from_axis_angle(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.3, -0.2, 0.9));
        let b = Pose3::from_axis_angle(Vec3::new(-1.0, 0.5, 0.0), Vec3::new(-1.1, 0.4, 0.2));
        let p = Vec3::new(0.3, -0.8, 2.0);
        let ab = a.mul(&b);
        assert!((ab.transform_point(p) - a.transform_point(b.transform_point(p))).length() < 1e-5);
        assert!((a.inverse().transform_point(a.transform_point(p)) - p).length() < 1e-5);
        let rel = a.inv_mul(&b);
        assert!((a.transform_point(rel.transform_point(p)) - b.transform_point(p)).length() < 1e-5);
        assert!(Pose3::try_new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)).is_err());
    }
}
