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

/// A dimension the dynamics runs in ([`Dim2`] or [`Dim3`]). Sealed: its
/// supertrait `SolverDim` (the solver's lane solvers for the dimension)
/// is the crate's own.
pub trait DynDim: Dim + crate::solver::SolverDim {
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

    // ---- Joints (see `crate::joint`): a joint frame is a rotation whose
    // x axis is the joint's axis (the hinge axis, the slider axis).

    /// The inverse rotation.
    fn rot_inverse(r: Self::Rot) -> Self::Rot;
    /// A rotation whose x axis is the unit vector along `axis` (any such
    /// rotation in 3D; `ROT_IDENTITY` for a zero or non-finite axis).
    fn rot_from_axis(axis: Self::V) -> Self::Rot;
    /// The hinge axis of the joint frame `fa` as an angular direction:
    /// `1` in 2D (the axis out of the plane), `fa·x̂` in 3D.
    fn hinge_axis(fa: Self::Rot) -> Self::Ang;
    /// The turn of frame `fb` relative to frame `fa` about `fa`'s hinge
    /// axis, in `(−π, π]` (2D: the relative angle; 3D: the twist angle of
    /// `fa⁻¹ fb` about x).
    fn twist_angle(fa: Self::Rot, fb: Self::Rot) -> f32;
    /// The small rotation vector (world frame) turning frame `fa` into
    /// `fb`, for a constraint that locks every rotation (`C`, with
    /// `Ċ ≈ ω_B − ω_A`).
    fn rot_error(fa: Self::Rot, fb: Self::Rot) -> Self::Ang;
    /// The rows that keep the x axes of frames `fa` and `fb` aligned (none
    /// in 2D, where every rotation is about the hinge axis; two in 3D): for
    /// each row the angular Jacobian `u` (`Ċ = u·(ω_B − ω_A)`) and the error
    /// `C`, and the number of rows.
    fn hinge_lock(fa: Self::Rot, fb: Self::Rot) -> ([Self::Ang; 2], [f32; 2], usize);
    /// `(I_a⁻¹ + I_b⁻¹)⁻¹`, the effective mass of a rotation lock (zero
    /// when it is singular).
    fn ang_mass(ia: &Self::InvInertia, ib: &Self::InvInertia) -> Self::InvInertia;
    /// Solves `K x = rhs` for the point-to-point block
    /// `K = (m_a⁻¹ + m_b⁻¹) 1 − [r_a]× I_a⁻¹ [r_a]× − [r_b]× I_b⁻¹ [r_b]×`
    /// (the velocity response of the anchor points to an impulse), with
    /// `inv_m = m_a⁻¹ + m_b⁻¹`; zero when `K` is singular.
    fn solve_point_block(
        inv_m: f32,
        ia: &Self::InvInertia,
        ra: Self::V,
        ib: &Self::InvInertia,
        rb: Self::V,
        rhs: Self::V,
    ) -> Self::V;
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

    #[inline]
    fn rot_inverse(r: Rot2) -> Rot2 {
        r.inverse()
    }
    fn rot_from_axis(axis: Vec2) -> Rot2 {
        let n = axis.length();
        if n > 0.0 && n.is_finite() {
            Rot2 {
                cos: axis.x / n,
                sin: axis.y / n,
            }
        } else {
            Rot2::IDENTITY
        }
    }
    #[inline]
    fn hinge_axis(_fa: Rot2) -> f32 {
        1.0
    }
    #[inline]
    fn twist_angle(fa: Rot2, fb: Rot2) -> f32 {
        fa.inverse().mul(fb).angle()
    }
    #[inline]
    fn rot_error(fa: Rot2, fb: Rot2) -> f32 {
        fa.inverse().mul(fb).angle()
    }
    #[inline]
    fn hinge_lock(_fa: Rot2, _fb: Rot2) -> ([f32; 2], [f32; 2], usize) {
        ([0.0; 2], [0.0; 2], 0)
    }
    #[inline]
    fn ang_mass(ia: &f32, ib: &f32) -> f32 {
        let k = ia + ib;
        if k > 0.0 {
            1.0 / k
        } else {
            0.0
        }
    }
    fn solve_point_block(inv_m: f32, ia: &f32, ra: Vec2, ib: &f32, rb: Vec2, rhs: Vec2) -> Vec2 {
        // The impulse p at r turns the body by i (r × p); the anchor's
        // velocity changes by m⁻¹ p + i (r × p)(−r_y, r_x), which gives the
        // symmetric 2×2 block below (Box2D's revolute point constraint).
        let k11 = inv_m + ia * ra.y * ra.y + ib * rb.y * rb.y;
        let k12 = -ia * ra.x * ra.y - ib * rb.x * rb.y;
        let k22 = inv_m + ia * ra.x * ra.x + ib * rb.x * rb.x;
        let det = k11 * k22 - k12 * k12;
        // Singular (nothing responds) or NaN: no impulse.
        let ok = det.abs() > 1e-12 * (k11 * k22).abs().max(f32::MIN_POSITIVE);
        if !ok {
            return Vec2::ZERO;
        }
        let inv = 1.0 / det;
        Vec2::new(
            inv * (k22 * rhs.x - k12 * rhs.y),
            inv * (k11 * rhs.y - k12 * rhs.x),
        )
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

    #[inline]
    fn rot_inverse(r: Quat) -> Quat {
        r.inverse()
    }
    fn rot_from_axis(axis: Vec3) -> Quat {
        let n = axis.length();
        if n > 0.0 && n.is_finite() {
            Quat::from_rotation_arc(Vec3::X, axis / n)
        } else {
            Quat::IDENTITY
        }
    }
    #[inline]
    fn hinge_axis(fa: Quat) -> Vec3 {
        fa * Vec3::X
    }
    fn twist_angle(fa: Quat, fb: Quat) -> f32 {
        // Swing-twist split of q = fa⁻¹ fb about x: the twist is the unit
        // quaternion along (w, x), of angle 2·atan2(x, w); with w ≥ 0 (q and
        // −q are the same turn) it lies in (−π, π].
        let q = fa.inverse() * fb;
        let (w, x) = if q.w < 0.0 { (-q.w, -q.x) } else { (q.w, q.x) };
        2.0 * x.atan2(w)
    }
    fn rot_error(fa: Quat, fb: Quat) -> Vec3 {
        // q = fb fa⁻¹ = (cos θ/2, sin θ/2 n) in world axes: 2 q_xyz = θ n to
        // second order; the shorter of q and −q.
        let q = fb * fa.inverse();
        let v = Vec3::new(q.x, q.y, q.z) * 2.0;
        if q.w < 0.0 {
            -v
        } else {
            v
        }
    }
    fn hinge_lock(fa: Quat, fb: Quat) -> ([Vec3; 2], [f32; 2], usize) {
        // Jolt's hinge rotation part: a = fa·x̂ (A's axis) stays normal to
        // b = fb·ŷ and c = fb·ẑ (B's axes normal to its hinge axis):
        // C = (a·b, a·c); ȧ = ω_A × a, ḃ = ω_B × b give
        // Ċ₁ = (ω_B − ω_A)·(b × a), and the same for c.
        let a = fa * Vec3::X;
        let b = fb * Vec3::Y;
        let c = fb * Vec3::Z;
        ([b.cross(a), c.cross(a)], [a.dot(b), a.dot(c)], 2)
    }
    fn ang_mass(ia: &Mat3, ib: &Mat3) -> Mat3 {
        let k = *ia + *ib;
        let det = k.determinant();
        let scale =
            k.x_axis.length_squared() + k.y_axis.length_squared() + k.z_axis.length_squared();
        if det.is_finite() && det.abs() > 1e-9 * (scale * scale.sqrt()) && det != 0.0 {
            k.inverse()
        } else {
            Mat3::ZERO
        }
    }
    fn solve_point_block(inv_m: f32, ia: &Mat3, ra: Vec3, ib: &Mat3, rb: Vec3, rhs: Vec3) -> Vec3 {
        // An impulse p at r turns the body by I⁻¹ (r × p) = I⁻¹ [r]× p and
        // moves the anchor by m⁻¹ p − [r]× I⁻¹ [r]× p.
        let skew = |r: Vec3| {
            Mat3::from_cols(
                Vec3::new(0.0, r.z, -r.y),
                Vec3::new(-r.z, 0.0, r.x),
                Vec3::new(r.y, -r.x, 0.0),
            )
        };
        let (sa, sb) = (skew(ra), skew(rb));
        let k = Mat3::from_diagonal(Vec3::splat(inv_m)) - sa * *ia * sa - sb * *ib * sb;
        let det = k.determinant();
        let scale =
            k.x_axis.length_squared() + k.y_axis.length_squared() + k.z_axis.length_squared();
        if det.is_finite() && det != 0.0 && det.abs() > 1e-9 * (scale * scale.sqrt()) {
            k.inverse() * rhs
        } else {
            Vec3::ZERO
        }
    }
}
