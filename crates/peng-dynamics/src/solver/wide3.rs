//! The 3D contact solver on lanes: eight manifolds at a time, each of
//! up to four points, with the arithmetic of the scalar solver
//! (`contact::solve`, in test builds) turned into lane operations; the blocks are
//! packed as in 2D ([`super::pack::Packer`]).
//!
//! A manifold's normal impulses: projected Gauss-Seidel on its Delassus
//! matrix, and for two-point manifolds the exact 2x2 complementarity
//! problem where it has a solution (as the scalar solver chooses).
//! Friction: both tangent directions at once, clamped to the Coulomb disc.

use glam::Mat3;

use core::ops::Range;

use super::body::SolverBody;
use super::colour::Shared;
use super::contact::{ContactC, ContactParams, MAX_POINTS};
#[cfg(target_arch = "x86_64")]
use super::lanes::AvxRows;
use super::lanes::{avx2_dispatch, BaselineRows, Lane, MulAdd, Rows, Unfused, F8, LANES, M8, V3};
// The fused kernels are dispatched on x86-64 only (`avx2_dispatch!`).
#[cfg(target_arch = "x86_64")]
use super::lanes::Fused;
use super::pack::{Coloured, NONE};
use super::PointImpulse;
use crate::determinism::Kernels;
use peng::world::Dim3;

/// Projected Gauss-Seidel sweeps on a manifold's normal rows (the scalar
/// solver's `BLOCK_SWEEPS`).
const SWEEPS: usize = 4;

/// One point of a block's manifolds.
#[derive(Debug, Clone, Copy, Default)]
struct PointLanes {
    exists: M8,
    ra: V3,
    rb: V3,
    /// The gap at the start of the step minus `n · (rb − ra)`.
    base_sep: F8,
    /// The friction mass (the smaller of the two tangents').
    tangent_mass: F8,
    normal_impulse: F8,
    tangent_impulse: [F8; 2],
    max_normal_impulse: F8,
}

impl PointLanes {
    const EMPTY: PointLanes = PointLanes {
        exists: M8::NONE,
        ra: V3::ZERO,
        rb: V3::ZERO,
        base_sep: F8::ZERO,
        tangent_mass: F8::ZERO,
        normal_impulse: F8::ZERO,
        tangent_impulse: [F8::ZERO; 2],
        max_normal_impulse: F8::ZERO,
    };
}

/// A symmetric 3x3 matrix (an inverse inertia) in lanes.
#[derive(Debug, Clone, Copy, Default)]
struct Sym3 {
    xx: F8,
    xy: F8,
    xz: F8,
    yy: F8,
    yz: F8,
    zz: F8,
}

impl Sym3 {
    const ZERO: Sym3 = Sym3 {
        xx: F8::ZERO,
        xy: F8::ZERO,
        xz: F8::ZERO,
        yy: F8::ZERO,
        yz: F8::ZERO,
        zz: F8::ZERO,
    };

    fn set(&mut self, l: usize, m: &Mat3) {
        self.xx.0[l] = m.x_axis.x;
        self.xy.0[l] = m.y_axis.x;
        self.xz.0[l] = m.z_axis.x;
        self.yy.0[l] = m.y_axis.y;
        self.yz.0[l] = m.z_axis.y;
        self.zz.0[l] = m.z_axis.z;
    }

    /// The matrix times `v` in each lane, in lanes of type `L`.
    ///
    /// # Safety
    /// The processor has what `L` needs.
    #[inline(always)]
    unsafe fn mul_lanes<L: Lane>(&self, v: V3<L>) -> V3<L> {
        // SAFETY: the caller's. (Six loads, not an `array::map`, whose
        // closure was not inlined into the AVX2 kernels.)
        let (xx, xy, xz) = unsafe { (L::load(&self.xx), L::load(&self.xy), L::load(&self.xz)) };
        let (yy, yz, zz) = unsafe { (L::load(&self.yy), L::load(&self.yz), L::load(&self.zz)) };
        V3 {
            x: xx * v.x + xy * v.y + xz * v.z,
            y: xy * v.x + yy * v.y + yz * v.z,
            z: xz * v.x + yz * v.y + zz * v.z,
        }
    }

    /// The matrix times `v` in each lane.
    #[inline(always)]
    fn mul(&self, v: V3) -> V3 {
        // SAFETY: the plain lanes need nothing of the processor.
        unsafe { self.mul_lanes::<F8>(v) }
    }

    /// [`mul`](Self::mul) with the solve kernel's multiply-adds `M`.
    #[inline(always)]
    fn mul_m<M: MulAdd>(&self, v: V3) -> V3 {
        V3 {
            x: M::mul_add(self.xz, v.z, M::mul_add(self.xy, v.y, self.xx * v.x)),
            y: M::mul_add(self.yz, v.z, M::mul_add(self.yy, v.y, self.xy * v.x)),
            z: M::mul_add(self.zz, v.z, M::mul_add(self.yz, v.y, self.xz * v.x)),
        }
    }
}

/// A block: one manifold per lane.
#[derive(Debug, Clone, Copy, Default)]
struct Block {
    a: [u32; LANES],
    b: [u32; LANES],
    write_a: [bool; LANES],
    write_b: [bool; LANES],
    ma: F8,
    mb: F8,
    ia: Sym3,
    ib: Sym3,
    n: V3,
    /// The first tangent; the second is `n × t` (as `Dim3::tangents` makes
    /// it), found again where needed rather than stored.
    t: V3,
    friction: F8,
    bias_rate: F8,
    gamma_ratio: F8,
    /// Lanes whose manifold has exactly two points (the block LCP).
    two: M8,
    /// The Delassus matrix `K_ij` of the normal rows, symmetric: its upper
    /// triangle, row by row ([`sym`]).
    k: [F8; SYM],
    p: [PointLanes; MAX_POINTS],
}

/// Entries of a symmetric `MAX_POINTS`² matrix's upper triangle.
const SYM: usize = MAX_POINTS * (MAX_POINTS + 1) / 2;

/// The place of `K_ij` (= `K_ji`) in the upper triangle stored row by row:
/// row `a` starts after `a·MAX_POINTS − a(a−1)/2` entries.
#[inline(always)]
const fn sym(i: usize, j: usize) -> usize {
    let (a, b) = if i <= j { (i, j) } else { (j, i) };
    a * MAX_POINTS - a * a.saturating_sub(1) / 2 + (b - a)
}

impl Block {
    /// The second tangent, `n × t`.
    #[inline(always)]
    fn t1(&self) -> V3 {
        self.n.cross(self.t)
    }

    /// A block of empty lanes (no bodies: `NONE`).
    const EMPTY: Block = Block {
        a: [NONE; LANES],
        b: [NONE; LANES],
        write_a: [false; LANES],
        write_b: [false; LANES],
        ma: F8::ZERO,
        mb: F8::ZERO,
        ia: Sym3::ZERO,
        ib: Sym3::ZERO,
        n: V3::ZERO,
        t: V3::ZERO,
        friction: F8::ZERO,
        bias_rate: F8::ZERO,
        gamma_ratio: F8::ZERO,
        two: M8::NONE,
        k: [F8::ZERO; SYM],
        p: [PointLanes::EMPTY; MAX_POINTS],
    };
}

/// A side's bodies in lanes.
#[derive(Debug, Clone, Copy, Default)]
struct Side {
    v: V3,
    w: V3,
    dp: V3,
    /// The rotation since the step began: vector part and scalar.
    q: V3,
    qw: F8,
}

/// Row `k` of the lanes' bodies' [`SolverBody::hot_rows`], transposed into
/// lanes. (A function: as a closure it was left as a call out of the solve
/// kernel.)
///
/// # Safety
/// The processor has what `R` needs.
#[inline(always)]
unsafe fn lane_rows<R: Rows>(b: &[&SolverBody<Dim3>; LANES], k: usize) -> [F8; 4] {
    let mut rows = [&b[0].hot_rows()[k]; LANES];
    for l in 1..LANES {
        rows[l] = &b[l].hot_rows()[k];
    }
    // SAFETY: the caller's.
    unsafe { R::rows_in(rows) }
}

impl Side {
    /// The bodies of the lanes (a still, fixed body in empty ones): each
    /// body's first 64 bytes as four rows of four floats
    /// ([`SolverBody::hot_rows`]), transposed into lanes
    /// ([`Rows::rows_in`]).
    ///
    /// # Safety
    /// No other thread writes these bodies meanwhile (see [`Shared`]); the
    /// processor has what `R` needs.
    #[inline(always)]
    unsafe fn gather<R: Rows>(
        bodies: &Shared<SolverBody<Dim3>>,
        idx: &[u32; LANES],
        idle: &SolverBody<Dim3>,
    ) -> Side {
        // SAFETY: the caller's.
        let pick = |k: u32| {
            if k == NONE {
                idle
            } else {
                unsafe { bodies.get(k as usize) }
            }
        };
        // Loops, not `array::from_fn`, whose closure was left as a call out
        // of the solve kernel once that grew.
        let mut b: [&SolverBody<_>; LANES] = [idle; LANES];
        for l in 0..LANES {
            b[l] = pick(idx[l]);
        }
        // SAFETY: the caller's.
        let ([vx, vy, vz, wx], [wy, wz, dpx, dpy], [dpz, ..], [qx, qy, qz, qw]) = unsafe {
            (
                lane_rows::<R>(&b, 0),
                lane_rows::<R>(&b, 1),
                lane_rows::<R>(&b, 2),
                lane_rows::<R>(&b, 3),
            )
        };
        Side {
            v: V3 {
                x: vx,
                y: vy,
                z: vz,
            },
            w: V3 {
                x: wx,
                y: wy,
                z: wz,
            },
            dp: V3 {
                x: dpx,
                y: dpy,
                z: dpz,
            },
            q: V3 {
                x: qx,
                y: qy,
                z: qz,
            },
            qw,
        }
    }

    /// Writes the velocities of the lanes marked in `write` back.
    ///
    /// # Safety
    /// No other thread reads or writes these bodies meanwhile; the
    /// processor has what `R` needs.
    #[inline(always)]
    unsafe fn scatter<R: Rows>(
        &self,
        bodies: &Shared<SolverBody<Dim3>>,
        idx: &[u32; LANES],
        write: &[bool; LANES],
    ) {
        // SAFETY: the caller's.
        let row0 = unsafe { R::rows_out([self.v.x, self.v.y, self.v.z, self.w.x]) };
        let row1 = unsafe { R::rows_out([self.w.y, self.w.z, F8::ZERO, F8::ZERO]) };
        for l in 0..LANES {
            if write[l] {
                // SAFETY: the caller's.
                let b = unsafe { bodies.get_mut(idx[l] as usize) };
                b.set_velocities(&row0[l], &row1[l]);
            }
        }
    }

    // Lane operations with multiply-adds `M`: fused in the solve kernel
    // where it is compiled with FMA, `Unfused` elsewhere.

    /// The velocity of the material point at `r`, `v + ω × r`.
    #[inline(always)]
    fn velocity_at_m<M: MulAdd>(&self, r: V3) -> V3 {
        self.v + M::cross(self.w, r)
    }

    /// `Δp + ΔR r`, with `ΔR r = r + q_w t + q × t`, `t = 2 q × r`.
    #[inline(always)]
    fn moved_m<M: MulAdd>(&self, r: V3) -> V3 {
        let t = M::cross(self.q, r) * F8::splat(2.0);
        M::scale_add(t, self.qw, self.dp + r) + M::cross(self.q, t)
    }

    /// Applies impulse `p` at `r` (inverse mass `m`, inverse inertia `i`,
    /// negated for body A by `sign`).
    #[inline(always)]
    fn apply_m<M: MulAdd>(&mut self, m: F8, i: &Sym3, r: V3, p: V3, sign: F8) {
        self.v = M::scale_add(p, m * sign, self.v);
        self.w = M::scale_add(i.mul_m::<M>(M::cross(r, p)), sign, self.w);
    }

    /// Applies several impulses at once, given as their sum `p` and the sum
    /// of their moments `r_k × p_k`: one multiplication by the inverse
    /// inertia instead of one per impulse (the same velocities, up to
    /// rounding); multiply-adds `M`.
    #[inline(always)]
    fn apply_sum_m<M: MulAdd>(&mut self, m: F8, i: &Sym3, p: V3, moment: V3, sign: F8) {
        self.v = M::scale_add(p, m * sign, self.v);
        self.w = M::scale_add(i.mul_m::<M>(moment), sign, self.w);
    }
}

/// The 3D contact constraints of one step in lanes. (`pub` in a private
/// module: the associated type `SolverDim::Contacts` names it.)
#[derive(Debug, Default, Clone)]
pub struct WideContacts3 {
    lanes: Coloured<Block, MAX_POINTS>,
    /// The kernels the passes run.
    kernels: Kernels,
}

impl WideContacts3 {
    /// Removes every constraint (the start of a step).
    pub(crate) fn clear(&mut self) {
        self.lanes.clear();
    }

    /// Sets the kernels the passes run.
    pub(crate) fn set_kernels(&mut self, kernels: Kernels) {
        self.kernels = kernels;
    }

    /// Adds contact `id` (whose points' impulses go to `slot` on in the
    /// step's impulse list) to a lane.
    pub(crate) fn add(
        &mut self,
        bodies: &[SolverBody<Dim3>],
        con: &ContactC<Dim3>,
        id: u32,
        slot: u32,
        params: &ContactParams,
    ) {
        let (sa, sb) = (&bodies[con.a as usize], &bodies[con.b as usize]);
        let (block, cold, lane) = self.lanes.place(
            || Block::EMPTY,
            sa.dynamic.then_some(con.a),
            sb.dynamic.then_some(con.b),
        );
        pack(block, lane, sa, sb, con, params);
        cold.set(lane, con, id, slot);
    }

    /// Puts the contacts into lanes (their impulses to consecutive slots).
    #[cfg(test)]
    fn load(
        &mut self,
        bodies: &[SolverBody<Dim3>],
        contacts: &[ContactC<Dim3>],
        params: &ContactParams,
    ) {
        self.clear();
        let mut slot = 0;
        for (i, c) in contacts.iter().enumerate() {
            self.add(bodies, c, i as u32, slot, params);
            slot += c.len as u32;
        }
        self.masses();
    }

    /// The contacts in the order the lanes solve them.
    #[cfg(test)]
    fn order(&self) -> Vec<u32> {
        self.lanes
            .iter()
            .flat_map(|(_, cold)| cold.ids.into_iter().filter(|&id| id != NONE))
            .collect()
    }

    /// Computes every block's Delassus matrix `K` and friction masses from
    /// its packed anchors, normal, tangent and bodies (once a step, before
    /// the substeps): eight manifolds at a time, where building each
    /// manifold alone cost about a third of its set-up.
    pub(crate) fn masses(&mut self) {
        let kernels = self.kernels;
        // SAFETY: runs that go at once share no block (`run_mut`); the
        // pass reads no body.
        self.lanes
            .run_mut(|blocks, run| unsafe { masses_run(kernels, blocks, run) });
    }

    /// Applies the accumulated impulses (warm starting).
    pub(crate) fn warm_start(&self, bodies: &mut [SolverBody<Dim3>]) {
        let kernels = self.kernels;
        let bodies = Shared::new(bodies);
        // SAFETY: runs that go at once share no dynamic body (`run`).
        self.lanes
            .run(|blocks, run| unsafe { warm_start_run(kernels, blocks, &bodies, run) });
    }

    /// One pass: soft with the position error when `use_bias`, else the
    /// relax pass.
    pub(crate) fn solve(
        &mut self,
        bodies: &mut [SolverBody<Dim3>],
        k: &ContactParams,
        use_bias: bool,
    ) {
        let kernels = self.kernels;
        let bodies = Shared::new(bodies);
        // SAFETY: runs that go at once share no block and no dynamic body
        // (`run_mut`).
        self.lanes.run_mut(|blocks, run| unsafe {
            solve_run(kernels, blocks, &bodies, run, k, use_bias)
        });
    }

    /// Restitution, once after the substeps (see
    /// `WideContacts2::restitution`).
    pub(crate) fn restitution(&mut self, bodies: &mut [SolverBody<Dim3>], threshold: f32) {
        let zero = F8::ZERO;
        let fast = F8::splat(-threshold);
        let (plus, minus) = (F8::splat(1.0), F8::splat(-1.0));
        let idle = SolverBody::fixed();
        let bodies = Shared::new(bodies);
        for (c, cold) in self.lanes.iter_mut() {
            let bouncy = cold.restitution.gt(zero);
            if !bouncy.any() {
                continue;
            }
            // SAFETY (gather, scatter): one thread; the baseline's rows.
            let mut a = unsafe { Side::gather::<BaselineRows>(&bodies, &c.a, &idle) };
            let mut b = unsafe { Side::gather::<BaselineRows>(&bodies, &c.b, &idle) };
            for (i, p) in c.p.iter_mut().enumerate() {
                let impact = cold.relative_velocity[i];
                let pushed = p.max_normal_impulse.gt(zero);
                let on = p.exists.and(bouncy).and(fast.ge(impact)).and(pushed);
                let vn =
                    (b.velocity_at_m::<Unfused>(p.rb) - a.velocity_at_m::<Unfused>(p.ra)).dot(c.n);
                let target = -cold.restitution * impact + cold.restitution_bias[i];
                // The normal row's effective mass, `1 / K_ii`.
                let kii = c.k[sym(i, i)];
                let normal_mass = kii.recip_or_zero(kii.gt(zero));
                let new = (p.normal_impulse - normal_mass * (vn - target)).max(zero);
                let d = F8::select(on, new - p.normal_impulse, zero);
                p.normal_impulse += d;
                let imp = c.n * d;
                a.apply_m::<Unfused>(c.ma, &c.ia, p.ra, imp, minus);
                b.apply_m::<Unfused>(c.mb, &c.ib, p.rb, imp, plus);
            }
            unsafe {
                a.scatter::<BaselineRows>(&bodies, &c.a, &c.write_a);
                b.scatter::<BaselineRows>(&bodies, &c.b, &c.write_b);
            }
        }
    }

    /// Writes each point's feature id and impulses (normal; friction as a
    /// world vector) into its slot of `out`.
    pub(crate) fn impulses(&self, out: &mut [PointImpulse<glam::Vec3>]) {
        let out = Shared::new(out);
        self.lanes.par_for_each(|c, cold| {
            // The second tangent of every lane at once.
            let t1s = c.t1();
            for lane in 0..LANES {
                if cold.ids[lane] == NONE {
                    continue;
                }
                let (t0, t1) = (c.t.get(lane), t1s.get(lane));
                for (i, p) in c.p.iter().enumerate() {
                    if p.exists.get(lane) {
                        // SAFETY: each point of each contact has a slot
                        // of its own, which only its block writes.
                        let slot = unsafe { out.get_mut((cold.slot[lane] as usize) + i) };
                        *slot = (
                            cold.point_ids[i][lane],
                            p.normal_impulse.0[lane],
                            t0 * p.tangent_impulse[0].0[lane] + t1 * p.tangent_impulse[1].0[lane],
                        );
                    }
                }
            }
        });
    }

    /// Writes the accumulated impulses back into the contacts.
    #[cfg(test)]
    fn store(&self, contacts: &mut [ContactC<Dim3>]) {
        for (c, cold) in self.lanes.iter() {
            for (lane, &id) in cold.ids.iter().enumerate() {
                if id == NONE {
                    continue;
                }
                let con = &mut contacts[id as usize];
                for (q, p) in con.points[..con.len as usize].iter_mut().zip(&c.p) {
                    q.normal_impulse = p.normal_impulse.0[lane];
                    q.tangent_impulse =
                        [p.tangent_impulse[0].0[lane], p.tangent_impulse[1].0[lane]];
                    q.max_normal_impulse = p.max_normal_impulse.0[lane];
                }
            }
        }
    }
}

avx2_dispatch!(
    /// [`WideContacts3::masses`] on the blocks `run`, compiled for AVX2
    /// where the processor has it.
    ///
    /// # Safety
    /// No other thread reaches these blocks meanwhile.
    masses_run,
    masses_avx2,
    masses_lanes,
    (blocks: &Shared<Block>, run: Range<usize>)
);

/// The Delassus matrix of each block's normal rows and its points'
/// friction masses, in lanes (the arithmetic of `ContactC::compute_k` and
/// `contact::effective_mass`):
/// `K_ij = m_a⁻¹ + m_b⁻¹ + (r_aj × n)·I_a⁻¹(r_ai × n) + (r_bj × n)·I_b⁻¹(r_bi × n)`
/// where both points exist (0 elsewhere, as the solver expects of absent
/// points), and each point's friction mass the smaller of the effective
/// masses along the two tangents.
///
/// # Safety
/// No other thread reaches these blocks meanwhile.
#[inline(always)]
unsafe fn masses_lanes(blocks: &Shared<Block>, run: Range<usize>) {
    let zero = F8::ZERO;
    for i in run {
        // SAFETY: the caller's.
        let c = unsafe { blocks.get_mut(i) };
        let m = c.ma + c.mb;
        let (n, t0, t1) = (c.n, c.t, c.t1());
        let mut ca = [V3::ZERO; MAX_POINTS];
        let mut ua = [V3::ZERO; MAX_POINTS];
        let mut cb = [V3::ZERO; MAX_POINTS];
        let mut ub = [V3::ZERO; MAX_POINTS];
        for (k, p) in c.p.iter().enumerate() {
            (ca[k], ua[k]) = arm(p.ra, n, &c.ia);
            (cb[k], ub[k]) = arm(p.rb, n, &c.ib);
        }
        for a in 0..MAX_POINTS {
            for b in a..MAX_POINTS {
                let k = m + ca[b].dot(ua[a]) + cb[b].dot(ub[a]);
                let both = c.p[a].exists.and(c.p[b].exists);
                c.k[sym(a, b)] = F8::select(both, k, zero);
            }
        }
        for p in c.p.iter_mut() {
            let m0 = effective_mass(m, p, t0, &c.ia, &c.ib);
            let m1 = effective_mass(m, p, t1, &c.ia, &c.ib);
            p.tangent_mass = F8::select(p.exists, m0.min(m1), zero);
        }
    }
}

/// `r × d` and `I⁻¹ (r × d)`. (Functions, not closures, here: a closure was
/// left as a call out of the AVX2 kernel.)
#[inline(always)]
fn arm(r: V3, d: V3, inv_i: &Sym3) -> (V3, V3) {
    let x = r.cross(d);
    (x, inv_i.mul(x))
}

/// The effective mass of point `p` along `d`,
/// `1 / (m + (r_a × d)·I_a⁻¹(r_a × d) + (r_b × d)·I_b⁻¹(r_b × d))` (`m`: the
/// summed inverse masses), 0 where nothing responds.
#[inline(always)]
fn effective_mass(m: F8, p: &PointLanes, d: V3, ia: &Sym3, ib: &Sym3) -> F8 {
    let (xa, ya) = arm(p.ra, d, ia);
    let (xb, yb) = arm(p.rb, d, ib);
    let k = m + xa.dot(ya) + xb.dot(yb);
    k.recip_or_zero(k.gt(F8::ZERO))
}

avx2_dispatch!(
    /// [`WideContacts3::warm_start`] on the blocks `run`, compiled for AVX2
    /// where the processor has it (one instruction per lane operation).
    ///
    /// # Safety
    /// No other thread reaches the dynamic bodies of these blocks meanwhile.
    warm_start_run,
    warm_start_avx2,
    warm_start_lanes::<BaselineRows | AvxRows>,
    (blocks: &[Block], bodies: &Shared<SolverBody<Dim3>>, run: Range<usize>)
);

#[inline(always)]
unsafe fn warm_start_lanes<R: Rows>(
    blocks: &[Block],
    bodies: &Shared<SolverBody<Dim3>>,
    run: Range<usize>,
) {
    let idle = SolverBody::fixed();
    for i in run {
        let c = &blocks[i];
        // SAFETY (gather, scatter, apply): the caller's, which covers what
        // `R` and its lane type need.
        unsafe {
            let mut a = Side::gather::<R>(bodies, &c.a, &idle);
            let mut b = Side::gather::<R>(bodies, &c.b, &idle);
            apply_accumulated::<R::Lane>(c, &mut a, &mut b);
            a.scatter::<R>(bodies, &c.a, &c.write_a);
            b.scatter::<R>(bodies, &c.b, &c.write_b);
        }
    }
}

/// Applies the accumulated impulses of block `c`'s points to the
/// velocities of its bodies `a` and `b`: the impulses summed, with their
/// moments about each centre of mass, so the inverse inertia multiplies
/// once a side. Computed in lanes of type `L` (see [`Lane`]).
///
/// # Safety
/// The processor has what `L` needs.
#[inline(always)]
unsafe fn apply_accumulated<L: Lane>(c: &Block, a: &mut Side, b: &mut Side) {
    // SAFETY (every load and splat): the caller's.
    unsafe {
        let (n, t) = (V3::<L>::load(&c.n), V3::<L>::load(&c.t));
        let t1 = n.cross(t);
        let (mut sum, mut moment_a, mut moment_b) = (V3::zero(), V3::zero(), V3::zero());
        for p in &c.p {
            let imp = n * L::load(&p.normal_impulse)
                + t * L::load(&p.tangent_impulse[0])
                + t1 * L::load(&p.tangent_impulse[1]);
            sum += imp;
            moment_a += V3::load(&p.ra).cross(imp);
            moment_b += V3::load(&p.rb).cross(imp);
        }
        // The same operations as `Side::apply_sum_m::<Unfused>` (with the sign folded
        // into a subtraction for A, which rounds the same): the lanes
        // give the velocities of the scalar solver to the bit.
        a.v = (V3::load(&a.v) - sum * L::load(&c.ma)).store();
        a.w = (V3::load(&a.w) - c.ia.mul_lanes(moment_a)).store();
        b.v = (V3::load(&b.v) + sum * L::load(&c.mb)).store();
        b.w = (V3::load(&b.w) + c.ib.mul_lanes(moment_b)).store();
    }
}

avx2_dispatch!(
    /// [`WideContacts3::solve`] on the blocks `run`, compiled for AVX2 where
    /// the processor has it.
    ///
    /// # Safety
    /// No other thread reaches these blocks or their dynamic bodies
    /// meanwhile.
    solve_run,
    solve_avx2 / solve_avx2_exact,
    solve_lanes::<BaselineRows, Unfused | AvxRows, Fused | AvxRows, Unfused>,
    (
        blocks: &Shared<Block>,
        bodies: &Shared<SolverBody<Dim3>>,
        run: Range<usize>,
        k: &ContactParams,
        use_bias: bool,
    )
);

#[inline(always)]
unsafe fn solve_lanes<R: Rows, M: MulAdd>(
    blocks: &Shared<Block>,
    bodies: &Shared<SolverBody<Dim3>>,
    run: Range<usize>,
    k: &ContactParams,
    use_bias: bool,
) {
    let inv_h = F8::splat(k.inv_h);
    let max_push = F8::splat(-k.max_push);
    let slop = F8::splat(k.slop);
    let zero = F8::ZERO;
    let (plus, minus) = (F8::splat(1.0), F8::splat(-1.0));
    let idle = SolverBody::fixed();
    for i in run {
        // SAFETY: the caller's.
        let c = unsafe { blocks.get_mut(i) };
        // SAFETY (gather, scatter): the caller's.
        let mut a = unsafe { Side::gather::<R>(bodies, &c.a, &idle) };
        let mut b = unsafe { Side::gather::<R>(bodies, &c.b, &idle) };
        let mut r = [zero; MAX_POINTS];
        let mut gamma = [zero; MAX_POINTS];
        let mut active = [M8::default(); MAX_POINTS];
        for (i, p) in c.p.iter().enumerate() {
            let s = M::dot(b.moved_m::<M>(p.rb) - a.moved_m::<M>(p.ra), c.n) + p.base_sep;
            let open = s.gt(zero);
            let bias = if use_bias {
                let soft = (c.bias_rate * (s + slop).min(zero)).max(max_push);
                gamma[i] = F8::select(open, zero, c.k[sym(i, i)] * c.gamma_ratio);
                active[i] = p.exists;
                F8::select(open, s * inv_h, soft)
            } else {
                active[i] = p.exists.and_not(open);
                zero
            };
            let vn = M::dot(b.velocity_at_m::<M>(p.rb) - a.velocity_at_m::<M>(p.ra), c.n);
            r[i] = M::mul_add(gamma[i], p.normal_impulse, vn + bias);
        }
        let delta = normal_deltas::<M>(c, &r, &gamma, &active, use_bias);
        // The normal impulses are solved together, so they apply together:
        // their sum `n Σd` and moments `(Σ d r) × n`.
        let (mut total, mut arm_a, mut arm_b) = (zero, V3::ZERO, V3::ZERO);
        for (p, d) in c.p.iter_mut().zip(delta) {
            p.normal_impulse += d;
            p.max_normal_impulse = p.max_normal_impulse.max(d);
            total += d;
            arm_a = M::scale_add(p.ra, d, arm_a);
            arm_b = M::scale_add(p.rb, d, arm_b);
        }
        let imp = c.n * total;
        a.apply_sum_m::<M>(c.ma, &c.ia, imp, M::cross(arm_a, c.n), minus);
        b.apply_sum_m::<M>(c.mb, &c.ib, imp, M::cross(arm_b, c.n), plus);
        // Friction: both tangents at once, clamped to the disc.
        let (t0, t1) = (c.t, c.t1());
        for p in c.p.iter_mut() {
            let limit = c.friction * p.normal_impulse;
            let dv = b.velocity_at_m::<M>(p.rb) - a.velocity_at_m::<M>(p.ra);
            let new0 = M::neg_mul_add(p.tangent_mass, M::dot(dv, t0), p.tangent_impulse[0]);
            let new1 = M::neg_mul_add(p.tangent_mass, M::dot(dv, t1), p.tangent_impulse[1]);
            let m2 = M::mul_add(new1, new1, new0 * new0);
            let over = m2.gt(limit * limit);
            // Where over, m2 > limit² >= 0: the root is positive.
            let scale = F8::select(over, limit / m2.sqrt(), F8::splat(1.0));
            let (new0, new1) = (new0 * scale, new1 * scale);
            let imp = M::scale_add(
                t1,
                new1 - p.tangent_impulse[1],
                t0 * (new0 - p.tangent_impulse[0]),
            );
            p.tangent_impulse = [new0, new1];
            a.apply_m::<M>(c.ma, &c.ia, p.ra, imp, minus);
            b.apply_m::<M>(c.mb, &c.ib, p.rb, imp, plus);
        }
        unsafe {
            a.scatter::<R>(bodies, &c.a, &c.write_a);
            b.scatter::<R>(bodies, &c.b, &c.write_b);
        }
    }
}

/// The normal impulse changes of a block's manifolds: [`SWEEPS`] projected
/// Gauss-Seidel sweeps on `K + diag(γ)` (absent and inactive rows have no
/// diagonal inverse and stay put), replaced by the exact 2x2 solution in
/// two-point lanes where both points are active and it exists, and, in the
/// soft pass (`use_bias`), by the exact solution of three or four points
/// that all push. The relax pass keeps to the sweeps there: the soft pass
/// has balanced the corners already (the 20-box 3D tower sways 8 µm in 10 s
/// instead of 0.01 µm, against the 1 mm its test allows), and the 4x4
/// solve was a tenth of the 3D pyramid's solver.
#[inline(always)]
fn normal_deltas<M: MulAdd>(
    c: &Block,
    r: &[F8; MAX_POINTS],
    gamma: &[F8; MAX_POINTS],
    active: &[M8; MAX_POINTS],
    use_bias: bool,
) -> [F8; MAX_POINTS] {
    let zero = F8::ZERO;
    let mut inv = [zero; MAX_POINTS];
    let mut lambda = [zero; MAX_POINTS];
    for i in 0..MAX_POINTS {
        let d = c.k[sym(i, i)] + gamma[i];
        inv[i] = d.recip_or_zero(active[i].and(d.gt(zero)));
        lambda[i] = c.p[i].normal_impulse;
    }
    // Three or four points, all pushing (soft pass only): the exact solution
    // where it keeps every impulse non-negative (see `block4`); absent points
    // are rows of the identity. The sweeps run only when some lane with
    // points is left. Plain loops rather than `core::array::from_fn`: its closures were not
    // inlined into the AVX2 kernel, and each call passed lanes through memory
    // (about 7 % of the 3D pyramid's instructions).
    let mut used = [M8::default(); MAX_POINTS];
    for (u, p) in used.iter_mut().zip(&c.p) {
        *u = p.exists;
    }
    let mut all = c.p[2].exists;
    for i in 0..MAX_POINTS {
        all = all.and(active[i].or(used[i].not()));
    }
    let mut exact = None;
    if use_bias && all.any() {
        let one = F8::splat(1.0);
        let reg = F8::splat(super::block4::REGULARISATION);
        let mut a = [[zero; MAX_POINTS]; MAX_POINTS];
        let mut rhs = [zero; MAX_POINTS];
        for i in 0..MAX_POINTS {
            for j in 0..MAX_POINTS {
                let both = used[i].and(used[j]);
                a[i][j] = if i == j {
                    let kii = c.k[sym(i, i)];
                    let d = kii + gamma[i].max(reg * kii);
                    F8::select(both, d, one)
                } else {
                    F8::select(both, c.k[sym(i, j)], zero)
                };
            }
            rhs[i] = F8::select(used[i], zero - r[i], zero);
        }
        let (x, d) = super::block4::ldlt4(&a, rhs, |d| d.recip_or_zero(d.gt(zero)));
        let mut ok = all;
        for i in 0..MAX_POINTS {
            let fine = d[i].gt(zero).and((lambda[i] + x[i]).ge(zero));
            ok = ok.and(fine.or(used[i].not()));
        }
        exact = Some((x, ok));
    }
    let mut delta = [zero; MAX_POINTS];
    let settled = exact.is_some_and(|(_, ok)| ok.or(used[0].not()).all());
    if !settled {
        for _ in 0..SWEEPS {
            for i in 0..MAX_POINTS {
                let mut res = M::mul_add(gamma[i], delta[i], r[i]);
                for (j, dj) in delta.iter().enumerate() {
                    res = M::mul_add(c.k[sym(i, j)], *dj, res);
                }
                delta[i] = (lambda[i] + delta[i] - res * inv[i]).max(zero) - lambda[i];
            }
        }
    }
    if let Some((x, ok)) = exact {
        for i in 0..MAX_POINTS {
            delta[i] = F8::select(ok.and(used[i]), x[i], delta[i]);
        }
    }
    let both = c.two.and(active[0]).and(active[1]);
    if both.any() {
        let (x1, x2, ok) = super::wide2::block_lcp2(
            c.k[sym(0, 0)] + gamma[0],
            c.k[sym(0, 1)],
            c.k[sym(1, 1)] + gamma[1],
            [r[0], r[1]],
            [lambda[0], lambda[1]],
        );
        let use_block = both.and(ok);
        delta[0] = F8::select(use_block, x1 - lambda[0], delta[0]);
        delta[1] = F8::select(use_block, x2 - lambda[1], delta[1]);
    }
    delta
}

/// Fills lane `l` of a block with a contact between `sa` and `sb`.
fn pack(
    c: &mut Block,
    l: usize,
    sa: &SolverBody<Dim3>,
    sb: &SolverBody<Dim3>,
    con: &ContactC<Dim3>,
    k: &ContactParams,
) {
    c.a[l] = con.a;
    c.b[l] = con.b;
    c.write_a[l] = sa.dynamic;
    c.write_b[l] = sb.dynamic;
    c.ma.0[l] = sa.inv_m;
    c.mb.0[l] = sb.inv_m;
    c.ia.set(l, &sa.inv_i);
    c.ib.set(l, &sb.inv_i);
    c.n.set(l, con.normal);
    c.t.set(l, con.tangents[0]);
    c.friction.0[l] = con.friction;
    let sf = if con.against_fixed {
        k.fixed_soft
    } else {
        k.soft
    };
    c.bias_rate.0[l] = sf.bias_rate;
    c.gamma_ratio.0[l] = sf.impulse_scale / sf.mass_scale;
    c.two.set(l, con.len == 2);
    // `K` and the friction masses are computed in lanes afterwards
    // (`masses_lanes`), from what this packs.
    let len = con.len as usize;
    for (q, p) in con.points[..len].iter().zip(c.p.iter_mut()) {
        p.exists.set(l, true);
        p.ra.set(l, q.ra);
        p.rb.set(l, q.rb);
        p.base_sep.0[l] = q.base_sep;
        p.normal_impulse.0[l] = q.normal_impulse;
        p.tangent_impulse[0].0[l] = q.tangent_impulse[0];
        p.tangent_impulse[1].0[l] = q.tangent_impulse[1];
        p.max_normal_impulse.0[l] = q.max_normal_impulse;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dim::DynDim;
    use crate::solver::contact::{self, effective_mass, ContactPointC};

    /// `sym` puts the 16 entries of a symmetric 4x4 matrix on its 10
    /// distinct places, `K_ij` and `K_ji` on the same one.
    #[test]
    fn symmetric_places_cover_the_upper_triangle_once() {
        let mut seen = [0; SYM];
        for i in 0..MAX_POINTS {
            for j in 0..MAX_POINTS {
                assert_eq!(sym(i, j), sym(j, i));
                if i <= j {
                    seen[sym(i, j)] += 1;
                }
            }
        }
        assert_eq!(seen, [1; SYM]);
    }
    use glam::{Quat, Vec3};
    use peng::query::types::ContactId;

    use crate::solver::test_rng::{test_params, Rng};

    fn body(rng: &mut Rng) -> SolverBody<Dim3> {
        // A world inverse inertia R D Rᵀ: symmetric positive definite.
        let rot = Mat3::from_quat(Quat::from_scaled_axis(rng.v3(3.0)));
        let d = Mat3::from_diagonal(Vec3::new(
            rng.range(0.5, 3.0),
            rng.range(0.5, 3.0),
            rng.range(0.5, 3.0),
        ));
        SolverBody {
            v: rng.v3(1.0),
            w: rng.v3(2.0),
            dp: rng.v3(0.02),
            dq: Quat::from_scaled_axis(rng.v3(0.05)),
            inv_m: rng.range(0.5, 2.0),
            inv_i: rot * d * rot.transpose(),
            moves: true,
            dynamic: true,
            ..SolverBody::fixed()
        }
    }

    /// Manifolds of one to four points between body pairs (some against a
    /// moving kinematic body, some sharing a body), open and overlapping
    /// gaps, warm impulses, and two-point manifolds with both points on
    /// one spot (a singular `K`, without friction).
    fn scene(seed: u32) -> (Vec<SolverBody<Dim3>>, Vec<ContactC<Dim3>>) {
        let mut rng = Rng(seed);
        let mut bodies = Vec::new();
        let mut contacts = Vec::new();
        for i in 0..40usize {
            let a = bodies.len();
            bodies.push(body(&mut rng));
            let b = if i % 3 == 0 {
                bodies.push(SolverBody {
                    v: rng.v3(0.5),
                    dp: rng.v3(0.01),
                    moves: true,
                    ..SolverBody::fixed()
                });
                bodies.len() - 1
            } else if i % 3 == 1 && i > 1 {
                a - 1
            } else {
                bodies.push(body(&mut rng));
                bodies.len() - 1
            };
            let (sa, sb) = (&bodies[a], &bodies[b]);
            let n = rng.v3(1.0).normalize_or(Vec3::Y);
            let (tangents, _) = Dim3::tangents(n);
            let len = 1 + (i % 4) as u8;
            let singular = len == 2 && i % 8 == 1;
            let mut c = ContactC {
                a: a as u32,
                b: b as u32,
                normal: n,
                tangents,
                n_tangents: 2,
                len,
                friction: if singular { 0.0 } else { rng.range(0.0, 1.0) },
                restitution: 0.0,
                against_fixed: !(sa.dynamic && sb.dynamic),
                points: [ContactPointC::EMPTY; MAX_POINTS],
                k: [[0.0; MAX_POINTS]; MAX_POINTS],
            };
            for k in 0..len as usize {
                let (ra, rb) = if k == 1 && singular {
                    (c.points[0].ra, c.points[0].rb)
                } else {
                    (rng.v3(1.0), rng.v3(1.0))
                };
                c.points[k] = ContactPointC {
                    ra,
                    rb,
                    base_sep: rng.range(-0.05, 0.05),
                    normal_mass: effective_mass(sa, sb, ra, rb, n),
                    tangent_mass: [
                        effective_mass(sa, sb, ra, rb, tangents[0]),
                        effective_mass(sa, sb, ra, rb, tangents[1]),
                    ],
                    normal_impulse: rng.range(0.0, 1.0),
                    tangent_impulse: [rng.range(-0.2, 0.2), rng.range(-0.2, 0.2)],
                    id: ContactId(k as u32),
                    ..ContactPointC::EMPTY
                };
            }
            c.compute_k(sa, sb);
            contacts.push(c);
        }
        (bodies, contacts)
    }

    fn close(x: f32, y: f32) -> bool {
        (x - y).abs() <= 2e-4 * (1.0 + x.abs().max(y.abs()))
    }

    fn close3(x: Vec3, y: Vec3) -> bool {
        close(x.x, y.x) && close(x.y, y.y) && close(x.z, y.z)
    }

    /// The lanes give the scalar solver's velocities and impulses after a
    /// warm start, a soft solve and a relax pass.
    /// The AVX kernels ([`AvxRows`], `Avx8` lanes) and the baseline's give
    /// the same velocities and impulses to the bit: the same operations in
    /// the same order, only moved through other registers.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx_kernels_match_the_baseline_to_the_bit() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let params = test_params();
        let bits = |b: &[SolverBody<Dim3>]| -> Vec<u32> {
            b.iter()
                .flat_map(|b| b.v.to_array().into_iter().chain(b.w.to_array()))
                .map(f32::to_bits)
                .collect()
        };
        for (seed, fused) in (0..20).flat_map(|s| [(s, false), (s, true)]) {
            let (bodies, contacts) = scene(seed);
            let mut runs = Vec::new();
            for avx in [false, true] {
                let mut bw = bodies.clone();
                let mut wide = WideContacts3::default();
                wide.load(&bw, &contacts, &params);
                let shared = Shared::new(&mut bw);
                // SAFETY: one thread at a time (each `run` call's closure
                // gets runs that share no dynamic body); AVX2 checked above.
                wide.lanes.run(|blocks, run| unsafe {
                    if avx {
                        warm_start_lanes::<AvxRows>(blocks, &shared, run)
                    } else {
                        warm_start_lanes::<BaselineRows>(blocks, &shared, run)
                    }
                });
                let after_warm_start = bits(&bw);
                for use_bias in [true, false] {
                    let shared = Shared::new(&mut bw);
                    // Both multiply-adds (the kernels' flavours); fused
                    // lanes here, outside a kernel, are library calls.
                    wide.lanes.run_mut(|blocks, run| unsafe {
                        let (s, k) = (&shared, &params);
                        match (avx, fused) {
                            (true, true) => {
                                solve_lanes::<AvxRows, Fused>(blocks, s, run, k, use_bias)
                            }
                            (true, false) => {
                                solve_lanes::<AvxRows, Unfused>(blocks, s, run, k, use_bias)
                            }
                            (false, true) => {
                                solve_lanes::<BaselineRows, Fused>(blocks, s, run, k, use_bias)
                            }
                            (false, false) => {
                                solve_lanes::<BaselineRows, Unfused>(blocks, s, run, k, use_bias)
                            }
                        }
                    });
                }
                let mut impulses = vec![(0, 0.0, glam::Vec3::ZERO); 4 * contacts.len()];
                wide.impulses(&mut impulses);
                let impulse_bits: Vec<u32> = impulses
                    .iter()
                    .flat_map(|&(_, n, t)| [n, t.x, t.y, t.z])
                    .map(f32::to_bits)
                    .collect();
                runs.push((after_warm_start, bits(&bw), impulse_bits));
            }
            assert!(runs[0].0 == runs[1].0, "seed {seed}: warm start");
            assert!(runs[0].1 == runs[1].1, "seed {seed}: solve");
            assert!(runs[0].2 == runs[1].2, "seed {seed}: impulses");
        }
    }

    /// The Delassus matrices and friction masses computed in lanes are the
    /// scalar ones (`ContactC::compute_k`, `effective_mass`) to rounding, and
    /// zero for absent points; the restitution's normal mass `1 / K_ii` too.
    #[test]
    fn lane_masses_match_the_scalar_ones() {
        let params = test_params();
        let rel = |x: f32, y: f32| (x - y).abs() <= 1e-5 * x.abs().max(y.abs()).max(1e-3);
        for seed in 0..20 {
            let (bodies, contacts) = scene(seed);
            let mut wide = WideContacts3::default();
            wide.load(&bodies, &contacts, &params);
            let mut lanes = 0;
            for (c, cold) in wide.lanes.iter() {
                for lane in 0..LANES {
                    let Some(con) = contacts.get(cold.ids[lane] as usize) else {
                        continue;
                    };
                    lanes += 1;
                    let len = con.len as usize;
                    for i in 0..MAX_POINTS {
                        for j in 0..MAX_POINTS {
                            // Off the diagonal, to rounding of the diagonal's
                            // size (the terms cancel; the scalar `K` is not
                            // exactly symmetric either).
                            let (want, size) = if i < len && j < len {
                                (con.k[i][j], con.k[i][i].max(con.k[j][j]))
                            } else {
                                (0.0, 0.0)
                            };
                            let got = c.k[sym(i, j)].0[lane];
                            assert!(
                                (got - want).abs() <= 1e-5 * size,
                                "seed {seed} K[{i}][{j}]: {got} vs {want}"
                            );
                        }
                        let want = con.points[i].tangent_mass[0].min(con.points[i].tangent_mass[1]);
                        let want = if i < len { want } else { 0.0 };
                        let got = c.p[i].tangent_mass.0[lane];
                        assert!(rel(got, want), "seed {seed} point {i}: {got} vs {want}");
                        if i < len {
                            let n = con.points[i].normal_mass;
                            assert!(
                                rel(1.0 / c.k[sym(i, i)].0[lane], n),
                                "seed {seed} normal mass"
                            );
                        }
                    }
                }
            }
            assert_eq!(lanes, contacts.len());
        }
    }

    #[test]
    fn lanes_agree_with_the_scalar_solver() {
        let params = test_params();
        let mut singular = 0;
        for seed in 0..20 {
            let (bodies, contacts) = scene(seed);
            let (mut bs, mut cs) = (bodies.clone(), contacts.clone());
            let (mut bw, mut cw) = (bodies, contacts);
            let mut wide = WideContacts3::default();
            wide.load(&bw, &cw, &params);
            let order = wide.order();
            let mut seen = order.clone();
            seen.sort_unstable();
            assert!(
                seen.iter().copied().eq(0..cw.len() as u32),
                "each contact in one lane"
            );
            let mut ordered: Vec<ContactC<Dim3>> = order.iter().map(|&i| cs[i as usize]).collect();
            contact::warm_start(&mut bs, &ordered);
            wide.warm_start(&mut bw);
            for use_bias in [true, false] {
                contact::solve(&mut bs, &mut ordered, &params, use_bias);
                wide.solve(&mut bw, &params, use_bias);
            }
            wide.store(&mut cw);
            for (&i, c) in order.iter().zip(&ordered) {
                cs[i as usize] = *c;
            }
            for (s, w) in bs.iter().zip(&bw) {
                assert!(
                    close3(s.v, w.v) && close3(s.w, w.w),
                    "seed {seed}: {} {} vs {} {}",
                    s.v,
                    s.w,
                    w.v,
                    w.w
                );
            }
            for (s, w) in cs.iter().zip(&cw) {
                let (ps, pw) = (&s.points[..s.len as usize], &w.points[..w.len as usize]);
                if s.len == 2 && ps[0].ra == ps[1].ra {
                    // Two points on one spot: only the total is unique.
                    singular += 1;
                    let total =
                        |p: &[ContactPointC<Dim3>]| p[0].normal_impulse + p[1].normal_impulse;
                    assert!(close(total(ps), total(pw)), "seed {seed}");
                    continue;
                }
                for (p, q) in ps.iter().zip(pw) {
                    assert!(
                        close(p.normal_impulse, q.normal_impulse),
                        "seed {seed}: {} vs {}",
                        p.normal_impulse,
                        q.normal_impulse
                    );
                    assert!(close(p.tangent_impulse[0], q.tangent_impulse[0]));
                    assert!(close(p.tangent_impulse[1], q.tangent_impulse[1]));
                    assert!(close(p.max_normal_impulse, q.max_normal_impulse));
                }
            }
        }
        assert!(singular > 0, "the singular case was exercised");
    }
}
