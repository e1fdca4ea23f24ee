//! Rigid poses in 2D: a rotation (unit complex number) and a translation.

use super::policy::{check_finite, check_vec, GeometryError};
use glam::Vec2;

/// A 2D rotation stored as `(cos θ, sin θ)`: rotating is one complex multiply.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rot2 {
    /// cos θ.
    pub cos: f32,
    /// sin θ.
    pub sin: f32,
}

impl Default for Rot2 {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Rot2 {
    /// No rotation.
    pub const IDENTITY: Rot2 = Rot2 { cos: 1.0, sin: 0.0 };

    /// The rotation by `angle` radians (counter-clockwise).
    #[inline]
    pub fn from_angle(angle: f32) -> Self {
        let (sin, cos) = angle.sin_cos();
        Rot2 { cos, sin }
    }

    /// The angle in `(-π, π]`.
    #[inline]
    pub fn angle(self) -> f32 {
        self.sin.atan2(self.cos)
    }

    /// Rotates a vector.
    #[inline]
    pub fn rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(
            self.cos * v.x - self.sin * v.y,
            self.sin * v.x + self.cos * v.y,
        )
    }

    /// Rotates a vector by the inverse rotation.
    #[inline]
    pub fn inv_rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(
            self.cos * v.x + self.sin * v.y,
            -self.sin * v.x + self.cos * v.y,
        )
    }

    /// `self * o`: first `o`, then `self`.
    #[inline]
    #[allow(clippy::should_implement_trait)] // also `impl Mul`; the method reads better in chains
    pub fn mul(self, o: Rot2) -> Rot2 {
        Rot2 {
            cos: self.cos * o.cos - self.sin * o.sin,
            sin: self.sin * o.cos + self.cos * o.sin,
        }
    }

    /// The inverse rotation.
    #[inline]
    pub fn inverse(self) -> Rot2 {
        Rot2 {
            cos: self.cos,
            sin: -self.sin,
        }
    }
}

/// A rigid transform in 2D: `p ↦ rotation·p + translation`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pose2 {
    /// Translation (the position of the local origin in the parent frame).
    pub translation: Vec2,
    /// Rotation.
    pub rotation: Rot2,
}

impl Pose2 {
    /// The identity pose.
    pub const IDENTITY: Pose2 = Pose2 {
        translation: Vec2::ZERO,
        rotation: Rot2::IDENTITY,
    };

    /// A pose from a translation and an angle in radians.
    #[inline]
    pub fn new(translation: Vec2, angle: f32) -> Self {
        Pose2 {
            translation,
            rotation: Rot2::from_angle(angle),
        }
    }

    /// Like [`Pose2::new`], but rejects non-finite input (the public boundary check
    /// of the degeneracy policy).
    pub fn try_new(translation: Vec2, angle: f32) -> Result<Self, GeometryError> {
        check_vec("pose translation", translation)?;
        check_finite("pose angle", angle)?;
        Ok(Self::new(translation, angle))
    }

    /// A pure translation.
    #[inline]
    pub fn from_translation(translation: Vec2) -> Self {
        Pose2 {
            translation,
            rotation: Rot2::IDENTITY,
        }
    }

    /// Whether every field is finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite()
            && self.rotation.cos.is_finite()
            && self.rotation.sin.is_finite()
    }

    /// Maps a local point to the parent frame.
    #[inline]
    pub fn transform_point(&self, p: Vec2) -> Vec2 {
        self.rotation.rotate(p) + self.translation
    }

    /// Maps a local vector (direction) to the parent frame.
    #[inline]
    pub fn transform_vector(&self, v: Vec2) -> Vec2 {
        self.rotation.rotate(v)
    }

    /// Maps a parent-frame point into the local frame.
    #[inline]
    pub fn inverse_transform_point(&self, p: Vec2) -> Vec2 {
        self.rotation.inv_rotate(p - self.translation)
    }

    /// Maps a parent-frame vector into the local frame.
    #[inline]
    pub fn inverse_transform_vector(&self, v: Vec2) -> Vec2 {
        self.rotation.inv_rotate(v)
    }

    /// `self * o`: apply `o` first, then `self`.
    #[inline]
    #[allow(clippy::should_implement_trait)] // also `impl Mul`; the method reads better in chains
    pub fn mul(&self, o: &Pose2) -> Pose2 {
        Pose2 {
            translation: self.transform_point(o.translation),
            rotation: self.rotation.mul(o.rotation),
        }
    }

    /// The inverse transform.
    #[inline]
    pub fn inverse(&self) -> Pose2 {
        let rotation = self.rotation.inverse();
        Pose2 {
            translation: -rotation.rotate(self.translation),
            rotation,
        }
    }

    /// `self⁻¹ * o`: the pose of `o` seen from `self`'s frame. Pair queries run in
    /// the frame of shape A using this relative pose.
    #[inline]
    pub fn inv_mul(&self, o: &Pose2) -> Pose2 {
        Pose2 {
            translation: self.inverse_transform_point(o.translation),
            rotation: self.rotation.inverse().mul(o.rotation),
        }
    }
}

impl core::ops::Mul for Rot2 {
    type Output = Rot2;
    #[inline]
    fn mul(self, o: Rot2) -> Rot2 {
        Rot2::mul(self, o)
    }
}

impl core::ops::Mul for Pose2 {
    type Output = Pose2;
    #[inline]
    fn mul(self, o: Pose2) -> Pose2 {
        Pose2::mul(&self, &o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_and_invert() {
        let a = Pose2::new(Vec2::new(1.0, 2.0), 0.7);
        let b = Pose2::new(Vec2::new(-3.0, 0.5), -1.9);
        let p = Vec2::new(0.3, -0.8);
        let ab = a.mul(&b);
        assert!((ab.transform_point(p) - a.transform_point(b.transform_point(p))).length() < 1e-5);
        assert!((a.inverse().transform_point(a.transform_point(p)) - p).length() < 1e-5);
        let rel = a.inv_mul(&b);
        assert!((a.transform_point(rel.transform_point(p)) - b.transform_point(p)).length() < 1e-5);
        assert!(Pose2::try_new(Vec2::new(f32::NAN, 0.0), 0.0).is_err());
        assert!((Rot2::from_angle(0.5).angle() - 0.5).abs() < 1e-6);
    }
}
