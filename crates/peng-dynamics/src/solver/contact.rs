//! Contact constraints: non-penetration with speculative gaps, Coulomb
//! friction, restitution; solved with soft steps and relaxed (Catto,
//! "Solver2D", 2024, the "soft step" solver that Box2D v3 uses).
//!
//! Each manifold point is a constraint on the gap along the normal. The
//! anchors `ra`, `rb` (from each centre of mass to the contact point) are
//! fixed in the bodies at the start of the step, so the current gap follows
//! from the bodies' motion without new collision queries:
//!
//! `s = s₀ + n · ((Δp_B + ΔR_B r_b − r_b) − (Δp_A + ΔR_A r_a − r_a))`
//!
//! stored as `base_sep = s₀ − n · (r_b − r_a)`, so that each solve adds only
//! `n · ((Δp_B + ΔR_B r_b) − (Δp_A + ΔR_A r_a))`.
//!
//! A positive gap is speculative: the approach speed may use it up within
//! the substep (`bias = s / h`). A negative gap (overlap beyond the slop)
//! is pushed out by a soft spring, at most `max_push_speed`.
//!
//! The world solves contacts in lanes, eight manifolds at a time
//! ([`super::wide2`], [`super::wide3`]); the scalar `warm_start` and
//! `solve` here (built for tests only) state the same arithmetic one
//! manifold at a time and are the reference the lanes are tested against.

use peng::math::Vector;
use peng::query::types::ContactId;

#[cfg(test)]
use super::block4::{ldlt4, REGULARISATION};
#[cfg(test)]
use super::body::SolverBody;
use super::soft::Softness;
#[cfg(test)]
use crate::dim::Angular;
use crate::dim::DynDim;

/// Most points of a manifold (4 in 3D, 2 in 2D).
pub(crate) const MAX_POINTS: usize = 4;

/// Projected Gauss-Seidel sweeps on a manifold's own normal problem per
/// solve (see [`solve`]).
#[cfg(test)]
const BLOCK_SWEEPS: usize = 4;

/// One point of a contact constraint.
#[derive(Debug)]
pub(crate) struct ContactPointC<D: DynDim> {
    /// Anchor on A: from A's centre of mass to the contact point.
    pub ra: D::V,
    /// Anchor on B.
    pub rb: D::V,
    /// The gap at the start of the step minus `n · (rb − ra)`.
    pub base_sep: f32,
    /// `1 / (J M⁻¹ Jᵀ)` along the normal. (This and the tangent masses
    /// are the scalar reference solver's, in test builds: the lanes compute
    /// their own, `Lanes::masses`.)
    #[cfg(test)]
    pub normal_mass: f32,
    /// The same along each tangent.
    #[cfg(test)]
    pub tangent_mass: [f32; 2],
    /// Accumulated normal impulse.
    pub normal_impulse: f32,
    /// Accumulated tangent impulses.
    pub tangent_impulse: [f32; 2],
    /// Largest normal impulse applied in the step (restitution applies only
    /// to points that pushed).
    pub max_normal_impulse: f32,
    /// The normal relative velocity at impact (negative: approaching);
    /// see [`impact_velocity`].
    pub relative_velocity: f32,
    /// Added to the restitution's target velocity: `−a_n h / 2`, see
    /// [`impact_velocity`].
    pub restitution_bias: f32,
    /// Feature id for warm starting.
    pub id: ContactId,
}

impl<D: DynDim> ContactPointC<D> {
    /// An unused slot.
    pub const EMPTY: Self = ContactPointC {
        ra: D::V::ZERO,
        rb: D::V::ZERO,
        base_sep: 0.0,
        #[cfg(test)]
        normal_mass: 0.0,
        #[cfg(test)]
        tangent_mass: [0.0; 2],
        normal_impulse: 0.0,
        tangent_impulse: [0.0; 2],
        max_normal_impulse: 0.0,
        relative_velocity: 0.0,
        restitution_bias: 0.0,
        id: ContactId(0),
    };
}

/// A contact constraint: one manifold between two bodies.
#[derive(Debug)]
pub(crate) struct ContactC<D: DynDim> {
    /// Solver body index of A.
    pub a: u32,
    /// Solver body index of B.
    pub b: u32,
    /// Unit normal from A to B.
    pub normal: D::V,
    /// Unit tangents.
    pub tangents: [D::V; 2],
    /// Number of tangents (1 in 2D, 2 in 3D).
    #[cfg_attr(not(test), allow(dead_code))]
    pub n_tangents: u8,
    /// Number of points.
    pub len: u8,
    /// Friction coefficient.
    pub friction: f32,
    /// Restitution.
    pub restitution: f32,
    /// Whether one body is not dynamic (stiffer spring, as in Box2D).
    pub against_fixed: bool,
    /// The points.
    pub points: [ContactPointC<D>; MAX_POINTS],
    /// The Delassus matrix of the normal rows, `K_ij = J_i M⁻¹ J_jᵀ`, for
    /// the scalar reference solver (test builds; the lanes compute their
    /// own, `Lanes::masses`).
    #[cfg(test)]
    pub k: [[f32; MAX_POINTS]; MAX_POINTS],
}

// Copy without requiring the dimension marker `D` to be Copy.
impl<D: DynDim> Clone for ContactPointC<D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: DynDim> Copy for ContactPointC<D> {}
impl<D: DynDim> Clone for ContactC<D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D: DynDim> Copy for ContactC<D> {}

impl<D: DynDim> ContactC<D> {
    /// Fills [`k`](Self::k) from the points' anchors and the bodies'
    /// inverse masses.
    #[cfg(test)]
    pub fn compute_k(&mut self, a: &SolverBody<D>, b: &SolverBody<D>) {
        let n = self.normal;
        let len = self.len as usize;
        let mut ua = [D::Ang::ZERO; MAX_POINTS];
        let mut ub = [D::Ang::ZERO; MAX_POINTS];
        let mut ca = [D::Ang::ZERO; MAX_POINTS];
        let mut cb = [D::Ang::ZERO; MAX_POINTS];
        for i in 0..len {
            ca[i] = D::cross_vv(self.points[i].ra, n);
            cb[i] = D::cross_vv(self.points[i].rb, n);
            ua[i] = D::apply_inv_inertia(&a.inv_i, ca[i]);
            ub[i] = D::apply_inv_inertia(&b.inv_i, cb[i]);
        }
        for i in 0..len {
            for j in 0..len {
                self.k[i][j] = a.inv_m + b.inv_m + ca[j].dot(ua[i]) + cb[j].dot(ub[i]);
            }
        }
    }
}

/// `1 / (m_a⁻¹ + m_b⁻¹ + (r_a × d)·I_a⁻¹(r_a × d) + (r_b × d)·I_b⁻¹(r_b × d))`,
/// or 0 when nothing can respond.
#[cfg(test)]
#[inline]
pub(crate) fn effective_mass<D: DynDim>(
    a: &SolverBody<D>,
    b: &SolverBody<D>,
    ra: D::V,
    rb: D::V,
    d: D::V,
) -> f32 {
    let rad = D::cross_vv(ra, d);
    let rbd = D::cross_vv(rb, d);
    let k = a.inv_m
        + b.inv_m
        + rad.dot(D::apply_inv_inertia(&a.inv_i, rad))
        + rbd.dot(D::apply_inv_inertia(&b.inv_i, rbd));
    if k > 0.0 {
        1.0 / k
    } else {
        0.0
    }
}

/// Two distinct bodies of the slice, mutably (`i != j`).
#[cfg(test)]
#[inline(always)]
pub(crate) fn pair_mut<T>(s: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    debug_assert_ne!(i, j);
    if i < j {
        let (lo, hi) = s.split_at_mut(j);
        (&mut lo[i], &mut hi[0])
    } else {
        let (lo, hi) = s.split_at_mut(i);
        (&mut hi[0], &mut lo[j])
    }
}

/// The 2x2 linear complementarity problem `w = A x + b ≥ 0`, `x ≥ 0`,
/// `x·w = 0` for a symmetric positive definite `A` (entries `a11`, `a12`,
/// `a22`, determinant `det`), by trying its four cases in turn (both points
/// pushing, only the first, only the second, neither); `None` when `A` is
/// too close to singular for the first case and no other case holds.
#[cfg(test)]
#[inline]
fn block_lcp2(a11: f32, a12: f32, a22: f32, det: f32, b1: f32, b2: f32) -> Option<(f32, f32)> {
    // Both pushing: x = −A⁻¹ b.
    if det > 1e-6 * a11 * a22 {
        let x1 = (a12 * b2 - a22 * b1) / det;
        let x2 = (a12 * b1 - a11 * b2) / det;
        if x1 >= 0.0 && x2 >= 0.0 {
            return Some((x1, x2));
        }
    }
    // Only the first: x2 = 0, w1 = 0, w2 ≥ 0.
    if a11 > 0.0 {
        let x1 = -b1 / a11;
        if x1 >= 0.0 && a12 * x1 + b2 >= 0.0 {
            return Some((x1, 0.0));
        }
    }
    // Only the second.
    if a22 > 0.0 {
        let x2 = -b2 / a22;
        if x2 >= 0.0 && a12 * x2 + b1 >= 0.0 {
            return Some((0.0, x2));
        }
    }
    // Neither.
    (b1 >= 0.0 && b2 >= 0.0).then_some((0.0, 0.0))
}

/// The contact solver's coefficients for one step.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ContactParams {
    /// Spring between two dynamic bodies.
    pub soft: Softness,
    /// Stiffer spring against static and kinematic bodies.
    pub fixed_soft: Softness,
    /// `1 / h`.
    pub inv_h: f32,
    /// Fastest push-out speed.
    pub max_push: f32,
    /// Allowed overlap.
    pub slop: f32,
}

/// Applies the accumulated impulses of the last step (warm starting).
#[cfg(test)]
pub(crate) fn warm_start<D: DynDim>(bodies: &mut [SolverBody<D>], contacts: &[ContactC<D>]) {
    for c in contacts {
        let (a, b) = pair_mut(bodies, c.a as usize, c.b as usize);
        for p in &c.points[..c.len as usize] {
            let mut imp = c.normal * p.normal_impulse;
            for k in 0..c.n_tangents as usize {
                imp = imp + c.tangents[k] * p.tangent_impulse[k];
            }
            a.apply(-imp, p.ra);
            b.apply(imp, p.rb);
        }
    }
}

/// One pass over the contacts: normal impulses (soft, with the position
/// error, when `use_bias`; rigid and speculative only when relaxing), then
/// friction.
#[cfg(test)]
pub(crate) fn solve<D: DynDim>(
    bodies: &mut [SolverBody<D>],
    contacts: &mut [ContactC<D>],
    k: &ContactParams,
    use_bias: bool,
) {
    let (soft, fixed_soft, inv_h) = (k.soft, k.fixed_soft, k.inv_h);
    let (max_push, slop) = (k.max_push, k.slop);
    for c in contacts.iter_mut() {
        let (a, b) = pair_mut(bodies, c.a as usize, c.b as usize);
        let n = c.normal;
        let sf = if c.against_fixed { fixed_soft } else { soft };
        let (dpa, dpb, dqa, dqb) = (a.dp, b.dp, a.dq, b.dq);
        let len = c.len as usize;
        // The normal impulses of the manifold as one small problem: the
        // points' relative normal velocities respond to each other's
        // impulses through the Delassus matrix `K = J M⁻¹ Jᵀ`, so a few
        // projected Gauss-Seidel sweeps on `K` alone (no body updates)
        // converge the manifold before its impulse is applied once. Solving
        // point after point on the bodies instead leaves a torque from
        // whichever point goes first, which tips tall stacks.
        //
        // A soft row is the scalar update `Δ = −m·ms(v + b) − is·λ`
        // written as `(K + γ)Δ = −(v + b) − γλ` with `γ = K·is/ms`
        // (Catto's soft step; the constraint force mixing form).
        let mut bias = [0.0f32; MAX_POINTS];
        let mut gamma = [0.0f32; MAX_POINTS];
        let mut vn = [0.0f32; MAX_POINTS];
        let mut active = [false; MAX_POINTS];
        for i in 0..len {
            let p = &c.points[i];
            // The current gap, from the bodies' motion since the step began.
            let da = dpa + D::rotate(dqa, p.ra);
            let db = dpb + D::rotate(dqb, p.rb);
            let s = (db - da).dot(n) + p.base_sep;
            if s > 0.0 {
                if !use_bias {
                    // Relaxing a gap that is still open: the next substep's
                    // solve (or the next step's) stops the approach in
                    // time. Braking it here would slow a falling body before
                    // it lands, which loses energy and bounces it early.
                    continue;
                }
                // Speculative: the bodies may close the gap, no more.
                bias[i] = s * inv_h;
            } else if use_bias {
                bias[i] = (sf.bias_rate * (s + slop).min(0.0)).max(-max_push);
                gamma[i] = c.k[i][i] * sf.impulse_scale / sf.mass_scale;
            }
            vn[i] = (b.velocity_at(p.rb) - a.velocity_at(p.ra)).dot(n);
            active[i] = true;
        }
        let mut delta = [0.0f32; MAX_POINTS];
        let mut inv_diag = [0.0f32; MAX_POINTS];
        let mut lambda = [0.0f32; MAX_POINTS];
        for i in 0..len {
            let d = c.k[i][i] + gamma[i];
            inv_diag[i] = if active[i] && d > 0.0 { 1.0 / d } else { 0.0 };
            lambda[i] = c.points[i].normal_impulse;
            // The right-hand side without the coupling: v + b + γλ.
            vn[i] += bias[i] + gamma[i] * lambda[i];
        }
        let solved = len == 2 && active[0] && active[1] && {
            // Two points (2D manifolds, 3D edge contacts): the 2x2 LCP
            // exactly, by its four cases (Box2D v2.4's block solver).
            // Unknowns are the new totals x = λ + Δ with
            // w = A x + b' ≥ 0, x ≥ 0, x·w = 0, A = K + diag(γ),
            // b' = vn + b + γλ − A λ (vn here already holds v + b + γλ).
            let a11 = c.k[0][0] + gamma[0];
            let a22 = c.k[1][1] + gamma[1];
            let a12 = c.k[0][1];
            let b1 = vn[0] - a11 * lambda[0] - a12 * lambda[1];
            let b2 = vn[1] - a12 * lambda[0] - a22 * lambda[1];
            let det = a11 * a22 - a12 * a12;
            let x = block_lcp2(a11, a12, a22, det, b1, b2);
            if let Some((x1, x2)) = x {
                delta[0] = x1 - lambda[0];
                delta[1] = x2 - lambda[1];
            }
            x.is_some()
        };
        let solved = solved
            || (use_bias && len >= 3 && active[..len].iter().all(|&x| x) && {
                // Three or four points all pushing, in the soft pass: the
                // unclamped solution when it keeps every impulse
                // non-negative (see `block4`). The relax pass keeps to the
                // sweeps: the soft pass has already balanced the corners,
                // and the towers still stand (see `wide3::normal_deltas`).
                let mut a = [[0.0f32; MAX_POINTS]; MAX_POINTS];
                let mut rhs = [0.0f32; MAX_POINTS];
                for i in 0..MAX_POINTS {
                    if i < len {
                        a[i][..len].copy_from_slice(&c.k[i][..len]);
                        a[i][i] = c.k[i][i] + gamma[i].max(REGULARISATION * c.k[i][i]);
                        rhs[i] = -vn[i];
                    } else {
                        a[i][i] = 1.0;
                    }
                }
                let (x, d) = ldlt4(&a, rhs, |d| if d > 0.0 { 1.0 / d } else { 0.0 });
                let ok = (0..len).all(|i| d[i] > 0.0 && lambda[i] + x[i] >= 0.0);
                if ok {
                    delta[..len].copy_from_slice(&x[..len]);
                }
                ok
            });
        let sweeps = if solved {
            0
        } else if len == 1 {
            1
        } else {
            BLOCK_SWEEPS
        };
        for _ in 0..sweeps {
            for i in 0..len {
                let mut r = vn[i] + gamma[i] * delta[i];
                for (kij, dj) in c.k[i][..len].iter().zip(&delta[..len]) {
                    r += kij * dj;
                }
                delta[i] = (lambda[i] + delta[i] - r * inv_diag[i]).max(0.0) - lambda[i];
            }
        }
        for (p, &d) in c.points[..len].iter_mut().zip(&delta) {
            if d == 0.0 {
                continue;
            }
            p.normal_impulse += d;
            p.max_normal_impulse = p.max_normal_impulse.max(d);
            let j = n * d;
            a.apply(-j, p.ra);
            b.apply(j, p.rb);
        }
        let nt = c.n_tangents as usize;
        for p in c.points[..len].iter_mut() {
            let limit = c.friction * p.normal_impulse;
            let dv = b.velocity_at(p.rb) - a.velocity_at(p.ra);
            if nt == 1 {
                let t = c.tangents[0];
                let imp = -p.tangent_mass[0] * dv.dot(t);
                let new = (p.tangent_impulse[0] + imp).clamp(-limit, limit);
                let j = t * (new - p.tangent_impulse[0]);
                p.tangent_impulse[0] = new;
                a.apply(-j, p.ra);
                b.apply(j, p.rb);
            } else {
                // Both directions together, clamped to the friction disc,
                // with one mass for both (the smaller), so that the impulse
                // opposes the sliding velocity: with a mass per direction the
                // clamped impulse leans off it and a sliding box feels less
                // than μN against its motion.
                let m = p.tangent_mass[0].min(p.tangent_mass[1]);
                let mut new = [0.0f32; 2];
                for (k, nk) in new.iter_mut().enumerate() {
                    *nk = p.tangent_impulse[k] - m * dv.dot(c.tangents[k]);
                }
                let m2 = new[0] * new[0] + new[1] * new[1];
                if m2 > limit * limit {
                    let s = if m2 > 0.0 { limit / m2.sqrt() } else { 0.0 };
                    new = [new[0] * s, new[1] * s];
                }
                let j = c.tangents[0] * (new[0] - p.tangent_impulse[0])
                    + c.tangents[1] * (new[1] - p.tangent_impulse[1]);
                p.tangent_impulse = new;
                a.apply(-j, p.ra);
                b.apply(j, p.rb);
            }
        }
    }
}

/// The normal velocity at which a point's gap closes, from its gap `s`,
/// normal velocity `u` and normal acceleration `a` (gravity and forces) at
/// the start of the step, for substeps of `h`.
///
/// Symplectic Euler with a constant acceleration conserves
/// `Q = u² + a h u − 2 a s` exactly from substep to substep (`u` the
/// velocity at a substep's start: `Q' − Q = (u+ah)² − u² + a²h² ... = 0`).
/// With `w = u + a h / 2`, `w² − 2 a s` is that invariant, so the gap
/// closes at `w_imp = −√(w² − 2 a s)` whichever substep it closes in. A
/// bounce that leaves at `w_out = e |w_imp|` (start-of-substep velocity
/// `w_out − a h / 2`) then reaches exactly `e²` times the height of the
/// drop: restitution 1 keeps the bounce height over any number of bounces
/// (Box2D uses the velocity at the step's start instead, which loses up to
/// `2 g dt / v` of the height per bounce).
pub(crate) fn impact_velocity(s: f32, u: f32, a: f32, h: f32) -> f32 {
    let w = u + 0.5 * a * h;
    if w >= 0.0 {
        return w;
    }
    let w2 = w * w - 2.0 * a * s.max(0.0);
    -w2.max(0.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block solution satisfies the complementarity conditions on random
    /// well-conditioned problems, in all four cases.
    #[test]
    fn block_lcp2_solves_the_complementarity_problem() {
        let mut seed = 99u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        };
        let mut cases = [0usize; 4];
        for _ in 0..10_000 {
            let (p, q, r) = (rnd(), rnd(), rnd());
            // A = M Mᵀ + 0.1 I: symmetric positive definite.
            let a11 = p * p + q * q + 0.1;
            let a12 = p * q + q * r;
            let a22 = q * q + r * r + 0.1;
            let det = a11 * a22 - a12 * a12;
            let (b1, b2) = (rnd(), rnd());
            let (x1, x2) = block_lcp2(a11, a12, a22, det, b1, b2).expect("SPD: always solvable");
            let (w1, w2) = (a11 * x1 + a12 * x2 + b1, a12 * x1 + a22 * x2 + b2);
            assert!(x1 >= 0.0 && x2 >= 0.0);
            assert!(w1 >= -1e-4 && w2 >= -1e-4, "w {w1} {w2}");
            assert!((x1 * w1).abs() < 1e-4 && (x2 * w2).abs() < 1e-4);
            cases[(x1 > 0.0) as usize * 2 + (x2 > 0.0) as usize] += 1;
        }
        assert!(
            cases.iter().all(|&n| n > 100),
            "every case exercised: {cases:?}"
        );
    }

    /// A point's normal mass is `1 / K_ii` (restitution takes it so from
    /// the lanes' `K`): that is the normal row's effective mass to the bit,
    /// in 2D and 3D (the same products summed in the same order), on random
    /// bodies and anchors.
    #[test]
    fn normal_mass_is_the_inverse_diagonal_of_k_to_the_bit() {
        use super::super::test_rng::Rng;
        use glam::{Mat3, Quat, Vec2, Vec3};
        use peng::world::{Dim2, Dim3};

        /// `1 / K_ii` against the normal's effective mass for every point
        /// of a four-point contact between `a` and `b` along `n`.
        fn check<D: DynDim>(
            a: &SolverBody<D>,
            b: &SolverBody<D>,
            n: D::V,
            anchors: [(D::V, D::V); MAX_POINTS],
        ) {
            let mut c = ContactC::<D> {
                a: 0,
                b: 1,
                normal: n,
                tangents: [D::V::ZERO; 2],
                n_tangents: 0,
                len: MAX_POINTS as u8,
                friction: 0.5,
                restitution: 0.0,
                against_fixed: false,
                points: [ContactPointC::<D>::EMPTY; MAX_POINTS],
                k: [[0.0; MAX_POINTS]; MAX_POINTS],
            };
            for (p, (ra, rb)) in c.points.iter_mut().zip(anchors) {
                (p.ra, p.rb) = (ra, rb);
            }
            c.compute_k(a, b);
            for (i, p) in c.points.iter().enumerate() {
                let m = effective_mass(a, b, p.ra, p.rb, n);
                assert_eq!((1.0 / c.k[i][i]).to_bits(), m.to_bits(), "point {i}");
            }
        }

        let mut rng = Rng(41);
        for _ in 0..500 {
            let mut body3 = || {
                let rot = Mat3::from_quat(Quat::from_scaled_axis(rng.v3(3.0)));
                let d = Vec3::new(
                    rng.range(0.1, 3.0),
                    rng.range(0.1, 3.0),
                    rng.range(0.1, 3.0),
                );
                SolverBody::<Dim3> {
                    inv_m: rng.range(0.1, 2.0),
                    inv_i: rot * Mat3::from_diagonal(d) * rot.transpose(),
                    dynamic: true,
                    ..SolverBody::fixed()
                }
            };
            let (a, b) = (body3(), body3());
            let n = rng.v3(1.0).normalize_or(Vec3::Y);
            let anchors = core::array::from_fn(|_| (rng.v3(2.0), rng.v3(2.0)));
            check(&a, &b, n, anchors);

            let mut body2 = || SolverBody::<Dim2> {
                inv_m: rng.range(0.1, 2.0),
                inv_i: rng.range(0.1, 3.0),
                dynamic: true,
                ..SolverBody::fixed()
            };
            let (a, b) = (body2(), body2());
            let n = rng.v2(1.0).normalize_or(Vec2::Y);
            let anchors = core::array::from_fn(|_| (rng.v2(2.0), rng.v2(2.0)));
            check(&a, &b, n, anchors);
        }
    }
}
