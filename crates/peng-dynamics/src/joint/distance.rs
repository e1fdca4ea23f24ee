//! The distance joint: a rod, a rope (limits only) or a spring between two
//! anchors (Box2D v3 `b2SolveDistanceJoint`): along `n = d / |d|`,
//! `C = |d| − L`, `Ċ = n·(v_B + ω_B × r_b − v_A − ω_A × r_a)`.
//!
//! The spring is a soft constraint of its own frequency and damping ratio,
//! applied once per substep in the solve with bias (one implicit Euler step
//! of the spring; the relax pass leaves it alone). Its static deflection
//! under a load `F` is then exactly `F / k` with `k = m_eff (2π f)²`.

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
        LengthMode::Spring(s) => {
            if use_bias {
                row.solve_soft(a, b, c, &mut j.imp.axial, s);
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
