//! The prismatic joint (slider): no relative rotation, B's anchor stays on
//! the axis through A's anchor (one row in 2D, two in 3D, along the frame's
//! other axes), and the translation along the axis may have a motor and
//! limits (Box2D v3 `b2SolvePrismaticJoint`).
//!
//! With `d` from A's anchor to B's and `n` an axis fixed in A,
//! `C = n·d`, `Ċ = n·(v_B + ω_B × r_b − v_A − ω_A × (r_a + d))`: the rows
//! act at B's anchor on both bodies.

use peng::math::Vector;

use super::constraint::{frame_axis, Geo, JointC, JointParams};
use super::point::solve_rotation_lock;
use super::row::Row;
use crate::dim::DynDim;
use crate::solver::body::SolverBody;

pub(crate) fn solve<D: DynDim>(
    j: &mut JointC<D>,
    a: &mut SolverBody<D>,
    b: &mut SolverBody<D>,
    g: &Geo<D>,
    p: &JointParams,
    use_bias: bool,
) {
    let arm_a = g.ra + g.d;
    let axis = frame_axis::<D>(g.fa, 0);
    let row = Row::<D>::linear(axis, arm_a, g.rb);
    if let Some(m) = j.motor {
        row.solve_motor(a, b, m.speed, m.max_force * p.h, &mut j.imp.motor);
    }
    if let Some(l) = j.limits {
        row.solve_limits(
            a,
            b,
            axis.dot(g.d),
            l,
            &mut j.imp.lower,
            &mut j.imp.upper,
            p.soft,
            p.inv_h,
            use_bias,
        );
    }
    solve_rotation_lock(
        a,
        b,
        g.fa,
        g.fb,
        &j.ang_mass,
        &mut j.imp.ang,
        p.soft,
        use_bias,
        p.exact,
    );
    for k in 0..D::V::DIM - 1 {
        let n = frame_axis::<D>(g.fa, k + 1);
        let row = Row::<D>::linear(n, arm_a, g.rb);
        row.solve_equal(a, b, n.dot(g.d), &mut j.imp.perp[k], p.soft, use_bias);
    }
}
