//! The revolute joint (hinge): the anchors coincide (point block), in 3D
//! the hinge axes stay aligned (two rows), and the turn about the axis may
//! have a motor and limits (Box2D v3 `b2SolveRevoluteJoint`: motor, then
//! limits, then the point).

use super::constraint::{Geo, JointC, JointParams};
use super::point::{solve_hinge_lock, solve_point};
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
    let row = Row::<D>::angular(D::hinge_axis(g.fa));
    if let Some(m) = j.motor {
        row.solve_motor(a, b, m.speed, m.max_force * p.h, &mut j.imp.motor);
    }
    if let Some(l) = j.limits {
        let angle = if p.exact {
            D::twist_angle_exact(g.fa, g.fb)
        } else {
            D::twist_angle(g.fa, g.fb)
        };
        row.solve_limits(
            a,
            b,
            angle,
            l,
            &mut j.imp.lower,
            &mut j.imp.upper,
            p.soft,
            p.inv_h,
            use_bias,
        );
    }
    solve_hinge_lock(a, b, g.fa, g.fb, &mut j.imp.hinge, p.soft, use_bias);
    solve_point(a, b, g.ra, g.rb, g.d, &mut j.imp.point, p.soft, use_bias);
}
