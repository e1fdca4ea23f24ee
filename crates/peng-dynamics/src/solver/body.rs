//! The solver's view of a body: velocities, the motion since the start of
//! the step, and the inverse mass and inertia, frozen for the step.

use peng::math::Vector;

use crate::body::{Body, BodyKind};
use crate::dim::{Angular, DynDim};

/// A body as the solver sees it. `repr(C)` in this order: in 3D the
/// fields the contact lanes read (`v`, `w`, `dp`, then three scalars, then
/// `dq`) fill the first 64 bytes with no padding, which the lanes load as
/// four rows of four floats ([`SolverBody::hot_rows`]).
#[derive(Debug)]
#[repr(C)]
pub(crate) struct SolverBody<D: DynDim> {
    /// Velocity of the centre of mass.
    pub v: D::V,
    /// Angular velocity.
    pub w: D::Ang,
    /// Displacement of the centre of mass since the start of the step.
    pub dp: D::V,
    /// Inverse mass (0: does not respond).
    pub inv_m: f32,
    /// Per-substep velocity factors of the damping, `1 / (1 + h c)`.
    pub lin_damp: f32,
    /// Angular damping factor per substep.
    pub ang_damp: f32,
    /// Rotation since the start of the step.
    pub dq: D::Rot,
    /// World inverse inertia at the start of the step.
    pub inv_i: D::InvInertia,
    /// Acceleration from gravity and forces over the step.
    pub accel: D::V,
    /// Angular acceleration from torques.
    pub ang_accel: D::Ang,
    /// Whether integration moves it (dynamic or kinematic).
    pub moves: bool,
    /// Whether it is dynamic (velocities change under forces).
    pub dynamic: bool,
}

impl SolverBody<peng::world::Dim3> {
    /// The first 64 bytes as four rows of four floats: `[v.x v.y v.z w.x]`,
    /// `[w.y w.z dp.x dp.y]`, `[dp.z inv_m lin_damp ang_damp]`, `[dq]`.
    #[inline(always)]
    pub fn hot_rows(&self) -> &[[f32; 4]; 4] {
        // SAFETY: `repr(C)` puts twelve `f32` and then the quaternion's four
        // in the first 64 bytes, without padding (checked below); rows of
        // `f32` need only the struct's own alignment (at least 4).
        unsafe { &*(self as *const Self as *const [[f32; 4]; 4]) }
    }

    /// Writes `v` and `w` from the first six floats of `row0 ++ row1`.
    #[inline(always)]
    pub fn set_velocities(&mut self, row0: &[f32; 4], row1: &[f32; 4]) {
        self.v = glam::Vec3::new(row0[0], row0[1], row0[2]);
        self.w = glam::Vec3::new(row0[3], row1[0], row1[1]);
    }
}

// The layout `hot_rows` reads.
const _: () = {
    use core::mem::offset_of;
    type B = SolverBody<peng::world::Dim3>;
    assert!(offset_of!(B, v) == 0 && offset_of!(B, w) == 12 && offset_of!(B, dp) == 24);
    assert!(offset_of!(B, inv_m) == 36 && offset_of!(B, lin_damp) == 40);
    assert!(offset_of!(B, ang_damp) == 44 && offset_of!(B, dq) == 48);
    assert!(size_of::<glam::Quat>() == 16);
};

// By hand: a derive would ask `D: Copy` of the dimension marker.
impl<D: DynDim> Clone for SolverBody<D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: DynDim> Copy for SolverBody<D> {}

impl<D: DynDim> SolverBody<D> {
    /// A body that never moves and takes no impulse.
    pub fn fixed() -> Self {
        SolverBody {
            v: D::V::ZERO,
            w: D::Ang::ZERO,
            dp: D::V::ZERO,
            dq: D::ROT_IDENTITY,
            inv_m: 0.0,
            inv_i: D::INV_INERTIA_ZERO,
            accel: D::V::ZERO,
            ang_accel: D::Ang::ZERO,
            lin_damp: 1.0,
            ang_damp: 1.0,
            moves: false,
            dynamic: false,
        }
    }

    /// The solver state of `body` for a step with substeps of `h` seconds.
    pub fn from_body(body: &Body<D>, gravity: D::V, h: f32) -> Self {
        if body.sleeping {
            return Self::fixed();
        }
        match body.kind {
            BodyKind::Static => Self::fixed(),
            BodyKind::Kinematic => SolverBody {
                v: body.linvel,
                w: body.angvel,
                moves: true,
                ..Self::fixed()
            },
            BodyKind::Dynamic => {
                let inv_m = body.inv_mass();
                let inv_i = body.inv_inertia_world();
                let accel = if inv_m > 0.0 {
                    gravity * body.gravity_scale + body.force * inv_m
                } else {
                    D::V::ZERO
                };
                SolverBody {
                    v: body.linvel,
                    w: body.angvel,
                    dp: D::V::ZERO,
                    dq: D::ROT_IDENTITY,
                    inv_m,
                    inv_i,
                    accel,
                    ang_accel: D::apply_inv_inertia(&inv_i, body.torque),
                    lin_damp: 1.0 / (1.0 + h * body.linear_damping),
                    ang_damp: 1.0 / (1.0 + h * body.angular_damping),
                    moves: true,
                    dynamic: true,
                }
            }
        }
    }

    /// Applies an impulse `p` at offset `r` from the centre of mass.
    #[inline(always)]
    pub fn apply(&mut self, p: D::V, r: D::V) {
        self.v = self.v + p * self.inv_m;
        self.w += D::apply_inv_inertia(&self.inv_i, D::cross_vv(r, p));
    }

    /// The velocity of the material point at offset `r`.
    #[inline(always)]
    pub fn velocity_at(&self, r: D::V) -> D::V {
        self.v + D::cross_av(self.w, r)
    }
}

/// The largest turn per substep (radians): faster spins are clamped, as in
/// Box2D (`B2_MAX_ROTATION`), so that fixed anchors stay meaningful.
pub(crate) const MAX_TURN_PER_SUBSTEP: f32 = 0.25 * core::f32::consts::PI;

/// Integrates velocities over a substep: forces, gravity, damping.
pub(crate) fn integrate_velocities<D: DynDim>(bodies: &mut [SolverBody<D>], h: f32) {
    let max_w2 = (MAX_TURN_PER_SUBSTEP / h) * (MAX_TURN_PER_SUBSTEP / h);
    super::colour::for_each(bodies, |b| {
        if !b.dynamic {
            return;
        }
        b.v = (b.v + b.accel * h) * b.lin_damp;
        b.w = (b.w + b.ang_accel * h) * b.ang_damp;
        let w2 = b.w.dot(b.w);
        if w2 > max_w2 {
            b.w = b.w * (max_w2 / w2).sqrt();
        }
    });
}

/// Integrates positions over a substep; with `exact`, the rotations with
/// the crate's own sine and cosine (`SolverDim::integrate_rotation_exact`).
pub(crate) fn integrate_positions<D: DynDim>(bodies: &mut [SolverBody<D>], h: f32, exact: bool) {
    if exact {
        super::colour::for_each(bodies, |b| {
            if b.moves {
                b.dp = b.dp + b.v * h;
                b.dq = D::integrate_rotation_exact(b.dq, b.w, h);
            }
        });
    } else {
        super::colour::for_each(bodies, |b| {
            if b.moves {
                b.dp = b.dp + b.v * h;
                b.dq = D::integrate_rotation(b.dq, b.w, h);
            }
        });
    }
}
