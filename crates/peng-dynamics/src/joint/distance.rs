//! The distance joint: a rod, a rope (limits only) or a spring between two
//! anchors (Box2D v3 `b2SolveDistanceJoint`): along `n = d / |d|`,
//! `C = |d| − L`, `Ċ = n·(v_B + ω_B × r_b − v_A − ω_A × r_a)`.
//!
//! The spring acts once per substep, in the solve with bias (the relax pass
//! leaves it alone), with `k = m_eff ω²` and `c = 2 m_eff ζ ω` for the
//! effective mass `m_eff` along the joint. When the substep resolves it
//! (`ω h <= 1/2`) the spring force is explicit in the position and the
//! damper implicit in the velocity (symplectic Euler: an undamped spring
//! keeps its energy; stable for `ω h < 2`):
//! `λ = (−h k C − h c v₀) / (1 + h c / m_eff)`, with `v₀` the velocity
//! before this substep's spring impulse. A stiffer spring uses the soft
//! constraint (implicit Euler, Catto's soft step), which is stable for any
//! frequency but damps an undamped spring by about `ω h / 2` of critical.
//! Either way the static deflection under a load `F` is exactly `F / k`.

use peng::math::Vector;

use super::constraint::{Geo, JointC, JointParams, LengthMode};
use super::row::Row;
use crate::dim::DynDim;
use crate::solver::body::SolverBody;

/// Below this anchor distance the direction is undefined and the joint
/// does nothing (a rod of zero length would be a revolute joint).
pub(crate) const MIN_LENGTH: f32 = 1e-6;

pub(crate) fn solve<D: DynDim>(
    j: &mut JointC<D>,
    a: &mut SolverBody<D>,
    b: &mut SolverBody<D>,
    g: &Geo<D>,
    p: &JointParams,
    use_bias: bool,
) {
    let len = g.d.length();
    if len <= MIN_LENGTH {
        return;
    }
    let n = g.d * (1.0 / len);
    let row = Row::<D>::linear(n, g.ra, g.rb);
    let c = len - j.length;
    match j.length_mode {
        LengthMode::Rigid => {
            row.solve_equal(a, b, c, &mut j.imp.axial, p.soft, use_bias);
        }
        LengthMode::Spring { omega, zeta, soft } => {
            if use_bias {
                if omega * p.h <= 0.5 {
                    spring_explicit(&row, a, b, c, omega, zeta, p.h, &mut j.imp.axial);
                } else {
                    row.solve_soft(a, b, c, &mut j.imp.axial, soft);
                }
            }
        }
        LengthMode::Free => {}
    }
    if let Some(l) = j.limits {
        row.solve_limits(
            a,
            b,
            len,
            l,
            &mut j.imp.lower,
            &mut j.imp.upper,
            p.soft,
            p.inv_h,
            use_bias,
        );
    }
    if let Some(m) = j.motor {
        row.solve_motor(a, b, m.speed, m.max_force * p.h, &mut j.imp.motor);
    }
}

/// The symplectic spring with an implicit damper (see the module
/// documentation); `acc` is the spring's impulse in this substep so far
/// (warm-started), so `v₀ = Ċ − acc / m_eff`.
#[allow(clippy::too_many_arguments)]
fn spring_explicit<D: DynDim>(
    row: &Row<D>,
    a: &mut SolverBody<D>,
    b: &mut SolverBody<D>,
    c: f32,
    omega: f32,
    zeta: f32,
    h: f32,
    acc: &mut f32,
) {
    let m = row.mass(a, b);
    if m <= 0.0 {
        return;
    }
    let v0 = row.cdot(a, b) - *acc / m;
    let hc = 2.0 * zeta * omega * h;
    let total = -m * (h * omega * omega * c + hc * v0) / (1.0 + hc);
    let d = total - *acc;
    *acc = total;
    row.apply(a, b, d);
}
