//! What the dynamics needs from a dimension, on top of the collision world's
//! [`Dim`]: angular velocities, inertia, mass properties of shapes, and the
//! few products that differ between 2D and 3D.
//!
//! In 2D an angular velocity is a scalar (radians per second about the axis
//! out of the plane) and the "cross product" of an angular velocity and a
//! vector is the perpendicular `ω × r = ω (−r_y, r_x)`; `r × v` is the scalar
//! `r_x v_y − r_y v_x`. In 3D all three are the usual vector products. The
//! solver is written once against this trait (the same idea as Box2D's and
//! rapier's shared math, here as a type parameter).

use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use glam::{Mat3, Quat, Vec2, Vec3};
use peng::math::{Pose2, Pose3, Rot2};
use peng::query::types::ContactPoint;
use peng::world::{Dim, Dim2, Dim3};

use crate::mass::{MassError, MassProperties2, MassProperties3};

/// An angular quantity: `f32` in 2D, `Vec3` in 3D.
pub trait Angular:
    Copy
    + core::fmt::Debug
    + Default
    + PartialEq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<f32, Output = Self>
    + AddAssign
    + SubAssign
{
    /// Zero.
    const ZERO: Self;
    /// The inner product.
    fn dot(self, o: Self) -> f32;
    /// Whether every component is finite.
    fn is_finite(self) -> bool;
}

impl Angular for f32 {
    const ZERO: f32 = 0.0;
    #[inline]
    fn dot(self, o: f32) -> f32 {
        self * o
    }
    #[inline]
    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }
}

impl Angular for Vec3 {
    const ZERO: Vec3 = Vec3::ZERO;
    #[inline]
    fn dot(self, o: Vec3) -> f32 {
        Vec3::dot(self, o)
    }
    #[inline]
    fn is_finite(self) -> bool {
        Vec3::is_finite(self)
    }
}

/// A dimension the dynamics runs in ([`Dim2`] or [`Dim3`]).
pub trait DynDim: Dim {
    /// An angular velocity or torque.
    type Ang: Angular;
    /// An inverse inertia (world or local frame).
    type InvInertia: Copy + core::fmt::Debug + PartialEq + Send + Sync;
    /// A rotation (the rotation part of a pose).
    type Rot: Copy + core::fmt::Debug + PartialEq + Send + Sync;
    /// Mass properties of a body.
    type Mass: Copy + core::fmt::Debug + PartialEq + Default + Send + Sync;

    /// The identity rotation.
    const ROT_IDENTITY: Self::Rot;
    /// Earth's gravity, 9.81 m/s² down the y axis.
    const GRAVITY: Self::V;
    /// Zero inverse inertia (an infinitely heavy body).
    const INV_INERTIA_ZERO: Self::InvInertia;

    /// Mass properties of a shape of uniform `density`.
    fn mass_of(shape: &Self::Shape, density: f32) -> Result<Self::Mass, MassError>;
    /// Mass properties moved into a parent frame by `pose`.
    fn mass_transformed(m: &Self::Mass, pose: &Self::Pose) -> Self::Mass;
    /// The sum of two bodies' mass properties (a compound).
    fn mass_add(a: &Self::Mass, b: &Self::Mass) -> Self::Mass;
    /// The mass.
    fn mass_value(m: &Self::Mass) -> f32;
    /// The centre of mass, local frame.
    fn mass_com(m: &Self::Mass) -> Self::V;
    /// The (pseudo-)inverse inertia about the centre of mass, local frame.
    fn inv_inertia_local(m: &Self::Mass) -> Self::InvInertia;
    /// The inverse inertia in the world frame of a body turned by `rot`.
    fn inv_inertia_world(local: &Self::InvInertia, rot: Self::Rot) -> Self::InvInertia;
    /// `I⁻¹ a`.
    fn apply_inv_inertia(i: &Self::InvInertia, a: Self::Ang) -> Self::Ang;

    /// `ω × r`: the velocity of a point at `r` from the centre of a body
    /// turning at `ω`.
    fn cross_av(w: Self::Ang, r: Self::V) -> Self::V;
    /// `r × v`: the moment of `v` applied at `r`.
    fn cross_vv(r: Self::V, v: Self::V) -> Self::Ang;

    /// The rotation of a pose.
    fn rotation(pose: &Self::Pose) -> Self::Rot;
    /// The pose with this translation and rotation.
    fn pose_from(translation: Self::V, rot: Self::Rot) -> Self::Pose;
    /// `a ∘ b`: `b` placed in the frame of `a`.
    fn pose_mul(a: &Self::Pose, b: &Self::Pose) -> Self::Pose;
    /// A vector turned by `rot`.
    fn rotate(rot: Self::Rot, v: Self::V) -> Self::V;
    /// `rot` turned further by `w·h` (angular velocity times time),
    /// normalised.
    fn integrate_rotation(rot: Self::Rot, w: Self::Ang, h: f32) -> Self::Rot;
    /// `a ∘ b` for rotations.
    fn rot_mul(a: Self::Rot, b: Self::Rot) -> Self::Rot;

    /// Unit tangents spanning the plane normal to the unit vector `n` (one
    /// in 2D, two in 3D; unused entries are zero) and how many there are.
    fn tangents(n: Self::V) -> ([Self::V; 2], usize);
    /// The manifold's unit normal.
    fn normal(m: &Self::Manifold) -> Self::V;
    /// The manifold's points.
    fn points(m: &Self::Manifold) -> &[ContactPoint<Self::V>];
    /// The parts of a compound the manifold is between (0 for plain shapes).
    fn parts(m: &Self::Manifold) -> (u32, u32);
}

/// The pseudo-inverse of an inertia tensor through its principal axes:
/// moments at or below `1e-12` of the largest count as zero (a flat or
/// massless body does not turn about that axis).
fn inverse_inertia3(m: &MassProperties3) -> Mat3 {
    let (moments, rot) = m.principal_inertia();
    let floor = 1e-12 * moments.max_element().max(0.0);
    let inv = |x: f32| if x > floor && x > 0.0 { 1.0 / x } else { 0.0 };
    let r = Mat3::from_quat(rot);
    r * Mat3::from_diagonal(Vec3::new(inv(moments.x), inv(moments.y), inv(moments.z)))
        * r.transpose()
}

impl DynDim for Dim2 {
    #[inline]
    fn normal(m: &Self::Manifold) -> Vec2 {
        m.normal
    }
    #[inline]
    fn points(m: &Self::Manifold) -> &[ContactPoint<Vec2>] {
        m.points()
    }
    #[inline]
    fn parts(m: &Self::Manifold) -> (u32, u32) {
        (m.part_a, m.part_b)
    }
    type Ang = f32;
    type InvInertia = f32;
    type Rot = Rot2;
    type Mass = MassProperties2;
    const ROT_IDENTITY: Rot2 = Rot2::IDENTITY;
    const GRAVITY: Vec2 = Vec2::new(0.0, -9.81);
    const INV_INERTIA_ZERO: f32 = 0.0;

    fn mass_of(shape: &Self::Shape, density: f32) -> Result<MassProperties2, MassError> {
        MassProperties2::from_shape(shape, density)
    }
    fn mass_transformed(m: &MassProperties2, pose: &Pose2) -> MassProperties2 {
        m.transformed(pose)
    }
    fn mass_add(a: &MassProperties2, b: &MassProperties2) -> MassProperties2 {
        *a + *b
    }
    fn mass_value(m: &MassProperties2) -> f32 {
        m.mass
    }
    fn mass_com(m: &MassProperties2) -> Vec2 {
        m.local_com
    }
    fn inv_inertia_local(m: &MassProperties2) -> f32 {
        m.inv_inertia()
    }
    #[inline]
    fn inv_inertia_world(local: &f32, _rot: Rot2) -> f32 {
        *local
    }
    #[inline]
    fn apply_inv_inertia(i: &f32, a: f32) -> f32 {
        i * a
    }
    #[inline]
    fn cross_av(w: f32, r: Vec2) -> Vec2 {
        Vec2::new(-w * r.y, w * r.x)
    }
    #[inline]
    fn cross_vv(r: Vec2, v: Vec2) -> f32 {
        r.x * v.y - r.y * v.x
    }
    #[inline]
    fn rotation(pose: &Pose2) -> Rot2 {
        pose.rotation
    }
    #[inline]
    fn pose_from(translation: Vec2, rotation: Rot2) -> Pose2 {
        Pose2 {
            translation,
            rotation,
        }
    }
    #[inline]
    fn pose_mul(a: &Pose2, b: &Pose2) -> Pose2 {
        a.mul(b)
    }
    #[inline]
    fn rotate(rot: Rot2, v: Vec2) -> Vec2 {
        rot.rotate(v)
    }
    #[inline]
    fn integrate_rotation(rot: Rot2, w: f32, h: f32) -> Rot2 {
        // Box2D's b2IntegrateRotation: add the derivative (−s, c)·ωh to the
        // unit complex number and renormalise (first order, exact to
        // O((ωh)³) in angle, and never denormalises).
        let (c, s) = (rot.cos - h * w * rot.sin, rot.sin + h * w * rot.cos);
        let n = (c * c + s * s).sqrt();
        if n > 0.0 && n.is_finite() {
            Rot2 {
                cos: c / n,
                sin: s / n,
            }
        } else {
            rot
        }
    }
    #[inline]
    fn rot_mul(a: Rot2, b: Rot2) -> Rot2 {
        a.mul(b)
    }
    #[inline]
    fn tangents(n: Vec2) -> ([Vec2; 2], usize) {
        ([n.perp(), Vec2::ZERO], 1)
    }
}

impl DynDim for Dim3 {
    #[inline]
    fn normal(m: &Self::Manifold) -> Vec3 {
        m.normal
    }
    #[inline]
    fn points(m: &Self::Manifold) -> &[ContactPoint<Vec3>] {
        m.points()
    }
    #[inline]
    fn parts(m: &Self::Manifold) -> (u32, u32) {
        (m.part_a, m.part_b)
    }
    type Ang = Vec3;
    type InvInertia = Mat3;
    type Rot = Quat;
    type Mass = MassProperties3;
    const ROT_IDENTITY: Quat = Quat::IDENTITY;
    const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);
    const INV_INERTIA_ZERO: Mat3 = Mat3::ZERO;

    fn mass_of(shape: &Self::Shape, density: f32) -> Result<MassProperties3, MassError> {
        MassProperties3::from_shape(shape, density)
    }
    fn mass_transformed(m: &MassProperties3, pose: &Pose3) -> MassProperties3 {
        m.transformed(pose)
    }
    fn mass_add(a: &MassProperties3, b: &MassProperties3) -> MassProperties3 {
        *a + *b
    }
    fn mass_value(m: &MassProperties3) -> f32 {
        m.mass
    }
    fn mass_com(m: &MassProperties3) -> Vec3 {
        m.local_com
    }
    fn inv_inertia_local(m: &MassProperties3) -> Mat3 {
        inverse_inertia3(m)
    }
    #[inline]
    fn inv_inertia_world(local: &Mat3, rot: Quat) -> Mat3 {
        // R I⁻¹ Rᵀ.
        let r = Mat3::from_quat(rot);
        r * *local * r.transpose()
    }
    #[inline]
    fn apply_inv_inertia(i: &Mat3, a: Vec3) -> Vec3 {
        *i * a
    }
    #[inline]
    fn cross_av(w: Vec3, r: Vec3) -> Vec3 {
        w.cross(r)
    }
    #[inline]
    fn cross_vv(r: Vec3, v: Vec3) -> Vec3 {
        r.cross(v)
    }
    #[inline]
    fn rotation(pose: &Pose3) -> Quat {
        pose.rotation
    }
    #[inline]
    fn pose_from(translation: Vec3, rotation: Quat) -> Pose3 {
        Pose3 {
            translation,
            rotation,
        }
    }
    #[inline]
    fn pose_mul(a: &Pose3, b: &Pose3) -> Pose3 {
        a.mul(b)
    }
    #[inline]
    fn rotate(rot: Quat, v: Vec3) -> Vec3 {
        rot * v
    }
    #[inline]
    fn integrate_rotation(rot: Quat, w: Vec3, h: f32) -> Quat {
        // q ← exp(ωh/2) q: the exact turn for a constant ω over h.
        let q = (Quat::from_scaled_axis(w * h) * rot).normalize();
        if q.is_finite() {
            q
        } else {
            rot
        }
    }
    #[inline]
    fn rot_mul(a: Quat, b: Quat) -> Quat {
        a * b
    }
    #[inline]
    fn tangents(n: Vec3) -> ([Vec3; 2], usize) {
        let t1 = n.any_orthonormal_vector();
        ([t1, n.cross(t1)], 2)
    }
}
