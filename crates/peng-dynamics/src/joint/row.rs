//! One scalar constraint row shared by every joint: a linear direction with
//! lever arms, or an angular direction, and its soft, limit and motor
//! solves (Box2D v3's axial and spring parts, written once for 2D and 3D).

use peng::math::Vector;

use crate::dim::{Angular, DynDim};
use crate::solver::body::SolverBody;
use crate::solver::soft::Softness;

/// A row `Ċ = n·(v_B − v_A) + j_a·ω_A + j_b·ω_B`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Row<D: DynDim> {
    n: D::V,
    ja: D::Ang,
    jb: D::Ang,
}

/// Applies `t` to B's angular velocity and `−t` to A's.
#[inline]
pub(crate) fn apply_torque<D: DynDim>(a: &mut SolverBody<D>, b: &mut SolverBody<D>, t: D::Ang) {
    a.w -= D::apply_inv_inertia(&a.inv_i, t);
    b.w += D::apply_inv_inertia(&b.inv_i, t);
}

impl<D: DynDim> Row<D> {
    /// The separation along `n` of a point at `ra` from A's centre of mass
    /// and one at `rb` from B's: `Ċ = n·(v_B + ω_B × r_b − v_A − ω_A × r_a)`,
    /// so `j_a = −r_a × n`, `j_b = r_b × n`.
    #[inline]
    pub fn linear(n: D::V, ra: D::V, rb: D::V) -> Self {
        Row {
            n,
            ja: -D::cross_vv(ra, n),
            jb: D::cross_vv(rb, n),
        }
    }

    /// The relative turn about `u`: `Ċ = u·(ω_B − ω_A)`.
    #[inline]
    pub fn angular(u: D::Ang) -> Self {
        Row {
            n: D::V::ZERO,
            ja: -u,
            jb: u,
        }
    }

    /// `Ċ` at the bodies' current velocities.
    #[inline]
    pub fn cdot(&self, a: &SolverBody<D>, b: &SolverBody<D>) -> f32 {
        self.n.dot(b.v - a.v) + self.ja.dot(a.w) + self.jb.dot(b.w)
    }

    /// `1 / (J M⁻¹ Jᵀ)`, or 0 when nothing responds.
    #[inline]
    pub fn mass(&self, a: &SolverBody<D>, b: &SolverBody<D>) -> f32 {
        let k = (a.inv_m + b.inv_m) * self.n.dot(self.n)
            + self.ja.dot(D::apply_inv_inertia(&a.inv_i, self.ja))
            + self.jb.dot(D::apply_inv_inertia(&b.inv_i, self.jb));
        if k > 0.0 {
            1.0 / k
        } else {
            0.0
        }
    }

    /// Applies the impulse `λ` along the row (`+` on B).
    #[inline]
    pub fn apply(&self, a: &mut SolverBody<D>, b: &mut SolverBody<D>, lambda: f32) {
        let p = self.n * lambda;
        a.v = a.v - p * a.inv_m;
        b.v = b.v + p * b.inv_m;
        a.w += D::apply_inv_inertia(&a.inv_i, self.ja * lambda);
        b.w += D::apply_inv_inertia(&b.inv_i, self.jb * lambda);
    }

    /// An equality `C = 0` (position error `c`): soft with the position
    /// error when `use_bias`, rigid without it when relaxing.
    pub fn solve_equal(
        &self,
        a: &mut SolverBody<D>,
        b: &mut SolverBody<D>,
        c: f32,
        acc: &mut f32,
        soft: Softness,
        use_bias: bool,
    ) {
        let s = if use_bias { soft } else { Softness::RIGID };
        self.solve_soft(a, b, c, acc, s);
    }

    /// One soft update (Catto's soft step): `Δλ = −m·ms·(Ċ + b·C) − is·λ`.
    pub fn solve_soft(
        &self,
        a: &mut SolverBody<D>,
        b: &mut SolverBody<D>,
        c: f32,
        acc: &mut f32,
        s: Softness,
    ) {
        let m = self.mass(a, b);
        let d = -m * s.mass_scale * (self.cdot(a, b) + s.bias_rate * c) - s.impulse_scale * *acc;
        *acc += d;
        self.apply(a, b, d);
    }

    /// A motor: drives `Ċ` to `speed`, the accumulated impulse within
    /// `±max_impulse` (the largest force times the substep).
    pub fn solve_motor(
        &self,
        a: &mut SolverBody<D>,
        b: &mut SolverBody<D>,
        speed: f32,
        max_impulse: f32,
        acc: &mut f32,
    ) {
        let m = self.mass(a, b);
        let d = -m * (self.cdot(a, b) - speed);
        let new = (*acc + d).clamp(-max_impulse, max_impulse);
        let d = new - *acc;
        *acc = new;
        self.apply(a, b, d);
    }

    /// The two one-sided limits `lower <= value <= upper` (Box2D v3): a gap
    /// still open may close within the substep (`bias = C / h`, rigid);
    /// a violated limit is pushed back by the soft spring when `use_bias`,
    /// held rigidly when relaxing. Each impulse stays `>= 0`.
    #[allow(clippy::too_many_arguments)]
    pub fn solve_limits(
        &self,
        a: &mut SolverBody<D>,
        b: &mut SolverBody<D>,
        value: f32,
        (lower, upper): (f32, f32),
        acc_lower: &mut f32,
        acc_upper: &mut f32,
        soft: Softness,
        inv_h: f32,
        use_bias: bool,
    ) {
        let m = self.mass(a, b);
        let coeffs = |c: f32| {
            if c > 0.0 {
                (c * inv_h, 1.0, 0.0)
            } else if use_bias {
                (soft.bias_rate * c, soft.mass_scale, soft.impulse_scale)
            } else {
                (0.0, 1.0, 0.0)
            }
        };
        // Lower: C = value − lower >= 0, pushing along +row.
        let (bias, ms, is) = coeffs(value - lower);
        let d = -m * ms * (self.cdot(a, b) + bias) - is * *acc_lower;
        let new = (*acc_lower + d).max(0.0);
        let d = new - *acc_lower;
        *acc_lower = new;
        self.apply(a, b, d);
        // Upper: C = upper − value >= 0, pushing along −row.
        let (bias, ms, is) = coeffs(upper - value);
        let d = -m * ms * (-self.cdot(a, b) + bias) - is * *acc_upper;
        let new = (*acc_upper + d).max(0.0);
        let d = new - *acc_upper;
        *acc_upper = new;
        self.apply(a, b, -d);
    }
}
