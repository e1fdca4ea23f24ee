//! The weld joint: the anchors coincide and every relative rotation is
//! locked (Box2D v3 `b2SolveWeldJoint`, with the joint spring for both).

use super::constraint::{Geo, JointC, JointParams};
use super::point::{solve_point, solve_rotation_lock};
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
    solve_point(a, b, g.ra, g.rb, g.d, &mut j.imp.point, p.soft, use_bias);
}
