//! The point-to-point part (revolute and weld joints) and the rotation
//! locks, each solved as one block.
//!
//! Point: `C = p_B + r_b − p_A − r_a` (vector), `Ċ = v_B + ω_B × r_b −
//! v_A − ω_A × r_a`, effective mass `K⁻¹` with `K` from
//! [`DynDim::solve_point_block`] (Box2D's revolute point constraint, in 3D
//! the same with the skew matrices).

use super::row::apply_torque;
use crate::dim::{Angular, DynDim};
use crate::solver::body::SolverBody;
use crate::solver::soft::Softness;

/// Picks the softness: the joint spring with the position error when
/// `use_bias`, else rigid.
#[inline]
fn coeffs(soft: Softness, use_bias: bool) -> Softness {
    if use_bias {
        soft
    } else {
        Softness::RIGID
    }
}

/// Solves the anchor points together: `sep` is the current `C`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_point<D: DynDim>(
    a: &mut SolverBody<D>,
    b: &mut SolverBody<D>,
    ra: D::V,
    rb: D::V,
    sep: D::V,
    acc: &mut D::V,
    soft: Softness,
    use_bias: bool,
) {
    let s = coeffs(soft, use_bias);
    let cdot = b.velocity_at(rb) - a.velocity_at(ra);
    let x = D::solve_point_block(
        a.inv_m + b.inv_m,
        &a.inv_i,
        ra,
        &b.inv_i,
        rb,
        cdot + sep * s.bias_rate,
    );
    let d = -(x * s.mass_scale) - *acc * s.impulse_scale;
    *acc = *acc + d;
    a.apply(-d, ra);
    b.apply(d, rb);
}

/// Locks every relative rotation of frames `fa`, `fb` (weld, prismatic):
/// `C` = the rotation vector from `fa` to `fb`, `Ċ ≈ ω_B − ω_A`, effective
/// mass `ang_mass = (I_a⁻¹ + I_b⁻¹)⁻¹`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_rotation_lock<D: DynDim>(
    a: &mut SolverBody<D>,
    b: &mut SolverBody<D>,
    fa: D::Rot,
    fb: D::Rot,
    ang_mass: &D::InvInertia,
    acc: &mut D::Ang,
    soft: Softness,
    use_bias: bool,
    exact: bool,
) {
    let s = coeffs(soft, use_bias);
    let c = if exact {
        D::rot_error_exact(fa, fb)
    } else {
        D::rot_error(fa, fb)
    };
    let x = D::apply_inv_inertia(ang_mass, b.w - a.w + c * s.bias_rate);
    let d = -(x * s.mass_scale) - *acc * s.impulse_scale;
    *acc += d;
    apply_torque(a, b, d);
}

/// Keeps the hinge axes of `fa` and `fb` aligned (3D only: the two rows of
/// [`DynDim::hinge_lock`], solved as a 2×2 block).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_hinge_lock<D: DynDim>(
    a: &mut SolverBody<D>,
    b: &mut SolverBody<D>,
    fa: D::Rot,
    fb: D::Rot,
    acc: &mut [f32; 2],
    soft: Softness,
    use_bias: bool,
) {
    let (u, c, n) = D::hinge_lock(fa, fb);
    if n < 2 {
        return;
    }
    let s = coeffs(soft, use_bias);
    let iu = |x: D::Ang| D::apply_inv_inertia(&a.inv_i, x) + D::apply_inv_inertia(&b.inv_i, x);
    let (iu0, iu1) = (iu(u[0]), iu(u[1]));
    let (k11, k12, k22) = (u[0].dot(iu0), u[0].dot(iu1), u[1].dot(iu1));
    let dw = b.w - a.w;
    let r0 = u[0].dot(dw) + s.bias_rate * c[0];
    let r1 = u[1].dot(dw) + s.bias_rate * c[1];
    let det = k11 * k22 - k12 * k12;
    let ok = det > 1e-12 * (k11 * k22).max(f32::MIN_POSITIVE);
    if !ok {
        return;
    }
    let x0 = (k22 * r0 - k12 * r1) / det;
    let x1 = (k11 * r1 - k12 * r0) / det;
    let d0 = -s.mass_scale * x0 - s.impulse_scale * acc[0];
    let d1 = -s.mass_scale * x1 - s.impulse_scale * acc[1];
    acc[0] += d0;
    acc[1] += d1;
    apply_torque(a, b, u[0] * d0 + u[1] * d1);
}

/// The torque of the hinge lock's impulses `acc` (warm start, reaction).
pub(crate) fn hinge_lock_torque<D: DynDim>(fa: D::Rot, fb: D::Rot, acc: &[f32; 2]) -> D::Ang {
    let (u, _, n) = D::hinge_lock(fa, fb);
    let mut t = D::Ang::ZERO;
    for i in 0..n {
        t += u[i] * acc[i];
    }
    t
}
