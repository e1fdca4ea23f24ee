//! The 2D contact solver on lanes: eight manifolds at a time (after
//! Box2D v3's wide contact solver, `contact_solver.c`, in the soft step
//! scheme of [`super`]).
//!
//! The contacts are packed into blocks of [`LANES`] manifolds that share
//! no dynamic body ([`super::pack::Packer`]). A pass gathers a block's bodies into
//! lanes, solves its manifolds at once with the same arithmetic as
//! the scalar solver (`contact::solve`, in test builds), branches turned into lane
//! selects, and writes the dynamic bodies back. Empty lanes and fixed
//! bodies are gathered (a kinematic body's motion matters) but never
//! written.

use core::ops::Range;

use glam::Vec2;

#[cfg(target_arch = "x86_64")]
use super::avx::Avx8;
use super::body::SolverBody;
use super::colour::Shared;
use super::contact::{ContactC, ContactParams};
// The fused kernels are dispatched on x86-64 only (`avx2_dispatch!`).
#[cfg(target_arch = "x86_64")]
use super::lanes::Fused;
use super::lanes::{avx2_dispatch, Lane, MulAdd, Unfused, F8, LANES, M8};
use super::pack::{Coloured, NONE};
use super::PointImpulse;
use crate::determinism::Kernels;
use peng::world::Dim2;

/// One point of a block's manifolds.
#[derive(Debug, Clone, Copy, Default)]
struct PointLanes {
    /// Whether the manifold has this point.
    exists: M8,
    rax: F8,
    ray: F8,
    rbx: F8,
    rby: F8,
    /// The gap at the start of the step minus `n · (rb − ra)`.
    base_sep: F8,
    /// `K_ii`, the normal row's Delassus diagonal.
    k: F8,
    tangent_mass: F8,
    normal_impulse: F8,
    tangent_impulse: F8,
    max_normal_impulse: F8,
}

/// A block: one manifold per lane.
#[derive(Debug, Clone, Copy)]
struct Block {
    a: [u32; LANES],
    b: [u32; LANES],
    /// Whether A (B) is dynamic: only those are written back.
    write_a: [bool; LANES],
    write_b: [bool; LANES],
    ma: F8,
    ia: F8,
    mb: F8,
    ib: F8,
    nx: F8,
    ny: F8,
    tx: F8,
    ty: F8,
    friction: F8,
    /// The soft spring's bias rate, and `impulse_scale / mass_scale`
    /// (`γ = K_ii` times it), per lane (stiffer against fixed bodies).
    bias_rate: F8,
    gamma_ratio: F8,
    /// `K_12`, the coupling of the two normal rows.
    k12: F8,
    p: [PointLanes; 2],
}

/// The bodies of a block's side, in lanes (the plane's joint lanes,
/// [`crate::joint::lanes2`], use them too).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Side {
    pub vx: F8,
    pub vy: F8,
    pub w: F8,
    pub dpx: F8,
    pub dpy: F8,
    pub qc: F8,
    pub qs: F8,
}

impl Side {
    /// The bodies of the lanes (a still, fixed body in empty ones), each
    /// lane vector built from scalars in registers: writing the lanes one
    /// by one into memory and reading the vector back would stall on store
    /// forwarding. (The 3D lanes transpose whole rows of each body instead,
    /// `wide3::Side::gather`; in 2D that was no faster.)
    ///
    /// # Safety
    /// No other thread writes these bodies meanwhile (see [`Shared`]).
    #[inline(always)]
    pub unsafe fn gather(
        bodies: &Shared<SolverBody<Dim2>>,
        idx: &[u32; LANES],
        idle: &SolverBody<Dim2>,
    ) -> Side {
        // A plain loop: `array::from_fn` was left as a call in the joint
        // lanes.
        let mut b = [idle; LANES];
        for l in 0..LANES {
            if idx[l] != NONE {
                // SAFETY: the caller's.
                b[l] = unsafe { bodies.get(idx[l] as usize) };
            }
        }
        Side {
            vx: F8::gather(&b, |s| s.v.x),
            vy: F8::gather(&b, |s| s.v.y),
            w: F8::gather(&b, |s| s.w),
            dpx: F8::gather(&b, |s| s.dp.x),
            dpy: F8::gather(&b, |s| s.dp.y),
            qc: F8::gather(&b, |s| s.dq.cos),
            qs: F8::gather(&b, |s| s.dq.sin),
        }
    }

    /// Writes the velocities of the lanes marked in `write` back.
    ///
    /// # Safety
    /// No other thread reads or writes these bodies meanwhile.
    #[inline(always)]
    pub unsafe fn scatter(
        &self,
        bodies: &Shared<SolverBody<Dim2>>,
        idx: &[u32; LANES],
        write: &[bool; LANES],
    ) {
        for i in 0..LANES {
            if write[i] {
                // SAFETY: the caller's.
                let b = unsafe { bodies.get_mut(idx[i] as usize) };
                b.v = Vec2::new(self.vx.0[i], self.vy.0[i]);
                b.w = self.w.0[i];
            }
        }
    }

    // Lane operations with multiply-adds `M`: fused in the solve kernel
    // where it is compiled with FMA, `Unfused` elsewhere (the same results
    // as [`Motion`]'s).

    /// Velocity of the material point at `r` (`v + ω × r`).
    #[inline(always)]
    fn velocity_at_m<M: MulAdd>(&self, rx: F8, ry: F8) -> (F8, F8) {
        (
            M::neg_mul_add(self.w, ry, self.vx),
            M::mul_add(self.w, rx, self.vy),
        )
    }

    /// Displacement of the material point at `r` since the step began
    /// (`Δp + ΔR r`), with multiply-adds `M`.
    #[inline(always)]
    fn moved_m<M: MulAdd>(&self, rx: F8, ry: F8) -> (F8, F8) {
        (
            M::neg_mul_add(self.qs, ry, M::mul_add(self.qc, rx, self.dpx)),
            M::mul_add(self.qc, ry, M::mul_add(self.qs, rx, self.dpy)),
        )
    }

    /// Applies the impulse `(px, py)` at `r`, for inverse mass `m` and
    /// inertia `i`.
    #[inline(always)]
    fn apply_m<M: MulAdd>(&mut self, m: F8, i: F8, rx: F8, ry: F8, px: F8, py: F8) {
        self.vx = M::mul_add(m, px, self.vx);
        self.vy = M::mul_add(m, py, self.vy);
        self.w = M::mul_add(i, M::mul_sub(rx, py, ry * px), self.w);
    }
}

/// A side's velocities in lanes of type `L`.
#[derive(Clone, Copy)]
pub(crate) struct Motion<L> {
    vx: L,
    vy: L,
    w: L,
}

impl<L: Lane> Motion<L> {
    /// `side`'s velocities.
    ///
    /// # Safety
    /// The processor has what `L` needs.
    #[inline(always)]
    pub unsafe fn of(side: &Side) -> Self {
        // SAFETY: the caller's.
        unsafe {
            Motion {
                vx: L::load(&side.vx),
                vy: L::load(&side.vy),
                w: L::load(&side.w),
            }
        }
    }

    /// Writes the velocities into `side`.
    #[inline(always)]
    pub fn put(self, side: &mut Side) {
        side.vx = self.vx.store();
        side.vy = self.vy.store();
        side.w = self.w.store();
    }

    /// Velocity of the material point at `r` (`v + ω × r`).
    #[inline(always)]
    pub fn velocity_at(&self, rx: L, ry: L) -> (L, L) {
        (self.vx - self.w * ry, self.vy + self.w * rx)
    }

    /// Applies the impulse `(px, py)` at `r`, for inverse mass `m` and
    /// inertia `i`.
    #[inline(always)]
    pub fn apply(&mut self, m: L, i: L, rx: L, ry: L, px: L, py: L) {
        self.vx += m * px;
        self.vy += m * py;
        self.w += i * (rx * py - ry * px);
    }
}

/// The 2D contact constraints of one step in lanes. (`pub` in a private
/// module: the associated type `SolverDim::Contacts` names it.)
#[derive(Debug, Default, Clone)]
pub struct WideContacts2 {
    lanes: Coloured<Block, 2>,
    /// The kernels the passes run.
    kernels: Kernels,
}

impl WideContacts2 {
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
        bodies: &[SolverBody<Dim2>],
        con: &ContactC<Dim2>,
        id: u32,
        slot: u32,
        params: &ContactParams,
    ) {
        let (sa, sb) = (&bodies[con.a as usize], &bodies[con.b as usize]);
        let (block, cold, lane) = self.lanes.place(
            || EMPTY_BLOCK,
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
        bodies: &[SolverBody<Dim2>],
        contacts: &[ContactC<Dim2>],
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

    /// The contacts in the order the lanes solve them (colour after
    /// colour, block after block).
    #[cfg(test)]
    fn order(&self) -> Vec<u32> {
        self.lanes
            .iter()
            .flat_map(|(_, cold)| cold.ids.into_iter().filter(|&id| id != NONE))
            .collect()
    }

    /// Computes every block's Delassus matrix `K` and friction masses from
    /// its packed anchors, normal, tangent and bodies (once a step, before
    /// the substeps), eight manifolds at a time.
    pub(crate) fn masses(&mut self) {
        let kernels = self.kernels;
        // SAFETY: runs that go at once share no block (`run_mut`); the
        // pass reads no body.
        self.lanes
            .run_mut(|blocks, run| unsafe { masses_run(kernels, blocks, run) });
    }

    /// Applies the accumulated impulses (warm starting).
    pub(crate) fn warm_start(&self, bodies: &mut [SolverBody<Dim2>]) {
        let kernels = self.kernels;
        let bodies = Shared::new(bodies);
        // SAFETY: runs that go at once share no dynamic body (`run`).
        self.lanes
            .run(|blocks, run| unsafe { warm_start_run(kernels, blocks, &bodies, run) });
    }

    /// One pass: soft with the position error when `use_bias`, else the
    /// relax pass (see the scalar `contact::solve`, whose steps these are).
    pub(crate) fn solve(
        &mut self,
        bodies: &mut [SolverBody<Dim2>],
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
    /// Restitution, once after the substeps: points that pushed and were
    /// approaching faster than `threshold` leave at `e` times their impact
    /// speed (see `contact::impact_velocity`).
    pub(crate) fn restitution(&mut self, bodies: &mut [SolverBody<Dim2>], threshold: f32) {
        let zero = F8::ZERO;
        let fast = F8::splat(-threshold);
        let idle = SolverBody::fixed();
        let bodies = Shared::new(bodies);
        for (c, cold) in self.lanes.iter_mut() {
            let bouncy = cold.restitution.gt(zero);
            if !bouncy.any() {
                continue;
            }
            // SAFETY (gather, scatter): one thread.
            let mut a = unsafe { Side::gather(&bodies, &c.a, &idle) };
            let mut b = unsafe { Side::gather(&bodies, &c.b, &idle) };
            for (i, p) in c.p.iter_mut().enumerate() {
                let impact = cold.relative_velocity[i];
                let pushed = p.max_normal_impulse.gt(zero);
                let on = p.exists.and(bouncy).and(fast.ge(impact)).and(pushed);
                let (vax, vay) = a.velocity_at_m::<Unfused>(p.rax, p.ray);
                let (vbx, vby) = b.velocity_at_m::<Unfused>(p.rbx, p.rby);
                let vn = (vbx - vax) * c.nx + (vby - vay) * c.ny;
                let target = -cold.restitution * impact + cold.restitution_bias[i];
                // The normal row's effective mass, `1 / K_ii`.
                let normal_mass = p.k.recip_or_zero(p.k.gt(zero));
                let new = (p.normal_impulse - normal_mass * (vn - target)).max(zero);
                let d = F8::select(on, new - p.normal_impulse, zero);
                p.normal_impulse += d;
                let (px, py) = (c.nx * d, c.ny * d);
                a.apply_m::<Unfused>(-c.ma, -c.ia, p.rax, p.ray, px, py);
                b.apply_m::<Unfused>(c.mb, c.ib, p.rbx, p.rby, px, py);
            }
            unsafe {
                a.scatter(&bodies, &c.a, &c.write_a);
                b.scatter(&bodies, &c.b, &c.write_b);
            }
        }
    }

    /// Writes each point's feature id and impulses (normal; friction as a
    /// world vector) into its slot of `out`.
    pub(crate) fn impulses(&self, out: &mut [PointImpulse<Vec2>]) {
        let out = Shared::new(out);
        self.lanes.par_for_each(|c, cold| {
            for lane in 0..LANES {
                if cold.ids[lane] == NONE {
                    continue;
                }
                let t = Vec2::new(c.tx.0[lane], c.ty.0[lane]);
                for (i, p) in c.p.iter().enumerate() {
                    if p.exists.get(lane) {
                        // SAFETY: each point of each contact has a slot
                        // of its own, which only its block writes.
                        let slot = unsafe { out.get_mut((cold.slot[lane] as usize) + i) };
                        *slot = (
                            cold.point_ids[i][lane],
                            p.normal_impulse.0[lane],
                            t * p.tangent_impulse.0[lane],
                        );
                    }
                }
            }
        });
    }

    /// Writes the accumulated impulses back into the contacts.
    #[cfg(test)]
    fn store(&self, contacts: &mut [ContactC<Dim2>]) {
        for (c, cold) in self.lanes.iter() {
            for (lane, &id) in cold.ids.iter().enumerate() {
                if id == NONE {
                    continue;
                }
                let con = &mut contacts[id as usize];
                for (i, q) in con.points[..con.len as usize].iter_mut().enumerate() {
                    let p = &c.p[i];
                    q.normal_impulse = p.normal_impulse.0[lane];
                    q.tangent_impulse[0] = p.tangent_impulse.0[lane];
                    q.max_normal_impulse = p.max_normal_impulse.0[lane];
                }
            }
        }
    }
}

avx2_dispatch!(
    /// [`WideContacts2::masses`] on the blocks `run`, compiled for AVX2
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
/// friction masses, in lanes, with the arithmetic of `ContactC::compute_k`
/// and `contact::effective_mass` in 2D to the bit:
/// `K_ij = (m_a⁻¹ + m_b⁻¹) + c_aj (I_a⁻¹ c_ai) + c_bj (I_b⁻¹ c_bi)` with
/// `c = r × n`, where both points exist (0 elsewhere, as the solver expects
/// of an absent point).
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
        // `r × d` in 2D.
        let cross = |rx: F8, ry: F8, dx: F8, dy: F8| rx * dy - ry * dx;
        let (nx, ny, tx, ty) = (c.nx, c.ny, c.tx, c.ty);
        let (ia, ib) = (c.ia, c.ib);
        let mut ca = [zero; 2];
        let mut cb = [zero; 2];
        for (k, p) in c.p.iter().enumerate() {
            ca[k] = cross(p.rax, p.ray, nx, ny);
            cb[k] = cross(p.rbx, p.rby, nx, ny);
        }
        // `K_12` as `compute_k` sums `k[0][1]`: `c_1` against `I⁻¹ c_0`.
        let k12 = m + ca[1] * (ia * ca[0]) + cb[1] * (ib * cb[0]);
        c.k12 = F8::select(c.p[0].exists.and(c.p[1].exists), k12, zero);
        for (k, p) in c.p.iter_mut().enumerate() {
            let kii = m + ca[k] * (ia * ca[k]) + cb[k] * (ib * cb[k]);
            p.k = F8::select(p.exists, kii, zero);
            let (xa, xb) = (cross(p.rax, p.ray, tx, ty), cross(p.rbx, p.rby, tx, ty));
            let kt = m + xa * (ia * xa) + xb * (ib * xb);
            p.tangent_mass = F8::select(p.exists, kt.recip_or_zero(kt.gt(zero)), zero);
        }
    }
}

avx2_dispatch!(
    /// [`WideContacts2::warm_start`] on the blocks `run`, compiled for AVX2
    /// where the processor has it (one instruction per lane operation).
    ///
    /// # Safety
    /// No other thread reaches the dynamic bodies of these blocks meanwhile.
    warm_start_run,
    warm_start_avx2,
    warm_start_lanes::<F8 | Avx8>,
    (blocks: &[Block], bodies: &Shared<SolverBody<Dim2>>, run: Range<usize>)
);

#[inline(always)]
unsafe fn warm_start_lanes<L: Lane>(
    blocks: &[Block],
    bodies: &Shared<SolverBody<Dim2>>,
    run: Range<usize>,
) {
    let idle = SolverBody::fixed();
    for i in run {
        let c = &blocks[i];
        // SAFETY (gather, loads, motions, scatter): the caller's, which
        // covers what `L` needs.
        unsafe {
            let mut a = Side::gather(bodies, &c.a, &idle);
            let mut b = Side::gather(bodies, &c.b, &idle);
            let ld = |f: &F8| L::load(f);
            let (mut va, mut vb) = (Motion::<L>::of(&a), Motion::<L>::of(&b));
            let (nx, ny, tx, ty) = (ld(&c.nx), ld(&c.ny), ld(&c.tx), ld(&c.ty));
            let (ma, ia, mb, ib) = (ld(&c.ma), ld(&c.ia), ld(&c.mb), ld(&c.ib));
            for p in &c.p {
                let (normal, tangent) = (ld(&p.normal_impulse), ld(&p.tangent_impulse));
                let px = nx * normal + tx * tangent;
                let py = ny * normal + ty * tangent;
                va.apply(-ma, -ia, ld(&p.rax), ld(&p.ray), px, py);
                vb.apply(mb, ib, ld(&p.rbx), ld(&p.rby), px, py);
            }
            va.put(&mut a);
            vb.put(&mut b);
            a.scatter(bodies, &c.a, &c.write_a);
            b.scatter(bodies, &c.b, &c.write_b);
        }
    }
}

avx2_dispatch!(
    /// [`WideContacts2::solve`] on the blocks `run`, compiled for AVX2 where
    /// the processor has it.
    ///
    /// # Safety
    /// No other thread reaches these blocks or their dynamic bodies
    /// meanwhile.
    solve_run,
    solve_avx2 / solve_avx2_exact,
    solve_lanes::<Unfused | Fused | Unfused>,
    (
        blocks: &Shared<Block>,
        bodies: &Shared<SolverBody<Dim2>>,
        run: Range<usize>,
        k: &ContactParams,
        use_bias: bool,
    )
);

#[inline(always)]
unsafe fn solve_lanes<M: MulAdd>(
    blocks: &Shared<Block>,
    bodies: &Shared<SolverBody<Dim2>>,
    run: Range<usize>,
    k: &ContactParams,
    use_bias: bool,
) {
    let inv_h = F8::splat(k.inv_h);
    let max_push = F8::splat(-k.max_push);
    let slop = F8::splat(k.slop);
    let zero = F8::ZERO;
    let idle = SolverBody::fixed();
    for i in run {
        // SAFETY (block, gather, scatter): the caller's.
        let c = unsafe { blocks.get_mut(i) };
        let mut a = unsafe { Side::gather(bodies, &c.a, &idle) };
        let mut b = unsafe { Side::gather(bodies, &c.b, &idle) };
        // Residuals `v + bias + γλ`, the soft terms and activity of
        // each normal row.
        let mut r = [zero; 2];
        let mut gamma = [zero; 2];
        let mut active = [M8::default(); 2];
        for (i, p) in c.p.iter().enumerate() {
            let (dax, day) = a.moved_m::<M>(p.rax, p.ray);
            let (dbx, dby) = b.moved_m::<M>(p.rbx, p.rby);
            let s = M::mul_add(dby - day, c.ny, M::mul_add(dbx - dax, c.nx, p.base_sep));
            let open = s.gt(zero);
            let (bias, act) = if use_bias {
                let soft = (c.bias_rate * (s + slop).min(zero)).max(max_push);
                gamma[i] = F8::select(open, zero, p.k * c.gamma_ratio);
                (F8::select(open, s * inv_h, soft), p.exists)
            } else {
                // Relaxing: open gaps are left to the next solve.
                (zero, p.exists.and_not(open))
            };
            let (vax, vay) = a.velocity_at_m::<M>(p.rax, p.ray);
            let (vbx, vby) = b.velocity_at_m::<M>(p.rbx, p.rby);
            let vn = M::mul_add(vby - vay, c.ny, (vbx - vax) * c.nx);
            r[i] = M::mul_add(gamma[i], p.normal_impulse, vn + bias);
            active[i] = act;
        }
        let delta = normal_deltas(c, &r, &gamma, &active);
        let (mut pnx, mut pny) = (zero, zero);
        for (p, d) in c.p.iter_mut().zip(delta) {
            p.normal_impulse += d;
            p.max_normal_impulse = p.max_normal_impulse.max(d);
            let (dx, dy) = (c.nx * d, c.ny * d);
            pnx += dx;
            pny += dy;
            a.w = M::neg_mul_add(c.ia, M::mul_sub(p.rax, dy, p.ray * dx), a.w);
            b.w = M::mul_add(c.ib, M::mul_sub(p.rbx, dy, p.rby * dx), b.w);
        }
        a.vx = M::neg_mul_add(c.ma, pnx, a.vx);
        a.vy = M::neg_mul_add(c.ma, pny, a.vy);
        b.vx = M::mul_add(c.mb, pnx, b.vx);
        b.vy = M::mul_add(c.mb, pny, b.vy);
        // Friction, point after point, within the Coulomb bound.
        for p in c.p.iter_mut() {
            let limit = c.friction * p.normal_impulse;
            let (vax, vay) = a.velocity_at_m::<M>(p.rax, p.ray);
            let (vbx, vby) = b.velocity_at_m::<M>(p.rbx, p.rby);
            let vt = M::mul_add(vby - vay, c.ty, (vbx - vax) * c.tx);
            let new = M::neg_mul_add(p.tangent_mass, vt, p.tangent_impulse)
                .max(-limit)
                .min(limit);
            let d = new - p.tangent_impulse;
            p.tangent_impulse = new;
            let (px, py) = (c.tx * d, c.ty * d);
            a.apply_m::<M>(-c.ma, -c.ia, p.rax, p.ray, px, py);
            b.apply_m::<M>(c.mb, c.ib, p.rbx, p.rby, px, py);
        }
        unsafe {
            a.scatter(bodies, &c.a, &c.write_a);
            b.scatter(bodies, &c.b, &c.write_b);
        }
    }
}

/// The manifolds' normal impulse changes: the 2x2 complementarity problem
/// exactly where both points are active (the four cases of
/// `contact::block_lcp2`, as lane selects), one projected row where one
/// is, and projected Gauss-Seidel where the block has no solution (nearly
/// singular `K`).
#[inline(always)]
fn normal_deltas(c: &Block, r: &[F8; 2], gamma: &[F8; 2], active: &[M8; 2]) -> [F8; 2] {
    let zero = F8::ZERO;
    let (l1, l2) = (c.p[0].normal_impulse, c.p[1].normal_impulse);
    let a11 = c.p[0].k + gamma[0];
    let a22 = c.p[1].k + gamma[1];
    let a12 = c.k12;
    let inv1 = a11.recip_or_zero(active[0].and(a11.gt(zero)));
    let inv2 = a22.recip_or_zero(active[1].and(a22.gt(zero)));
    // One row on its own (the other inactive, or absent).
    let single1 = (l1 - r[0] * inv1).max(zero) - l1;
    let single2 = (l2 - r[1] * inv2).max(zero) - l2;
    let (x1, x2, solved) = block_lcp2(a11, a12, a22, [r[0], r[1]], [l1, l2]);
    let both = active[0].and(active[1]);
    let mut d1 = F8::select(both, x1 - l1, single1);
    let mut d2 = F8::select(both, x2 - l2, single2);
    let unsolved = both.and_not(solved);
    if unsolved.any() {
        let (mut g1, mut g2) = (zero, zero);
        for _ in 0..4 {
            g1 = (l1 + g1 - (r[0] + a11 * g1 + a12 * g2) * inv1).max(zero) - l1;
            g2 = (l2 + g2 - (r[1] + a12 * g1 + a22 * g2) * inv2).max(zero) - l2;
        }
        d1 = F8::select(unsolved, g1, d1);
        d2 = F8::select(unsolved, g2, d2);
    }
    [d1, d2]
}

/// The 2x2 complementarity problem of two normal rows in lanes (the four
/// cases of `contact::block_lcp2` as selects): for `A = [a11 a12; a12
/// a22]`, residuals `r` at the current impulses `lambda`, the new totals
/// `x ≥ 0` with `w = A (x − λ) + r ≥ 0`, `x·w = 0`, and the lanes where one
/// of the cases holds.
#[inline(always)]
pub(crate) fn block_lcp2(a11: F8, a12: F8, a22: F8, r: [F8; 2], lambda: [F8; 2]) -> (F8, F8, M8) {
    let zero = F8::ZERO;
    let (l1, l2) = (lambda[0], lambda[1]);
    // Unknowns are the new totals x with w = A x + b ≥ 0.
    let b1 = r[0] - a11 * l1 - a12 * l2;
    let b2 = r[1] - a12 * l1 - a22 * l2;
    let det = a11 * a22 - a12 * a12;
    let det_ok = det.gt(F8::splat(1e-6) * a11 * a22);
    let inv_det = det.recip_or_zero(det_ok);
    let both_x1 = (a12 * b2 - a22 * b1) * inv_det;
    let both_x2 = (a12 * b1 - a11 * b2) * inv_det;
    let both_ok = det_ok.and(both_x1.ge(zero)).and(both_x2.ge(zero));
    let inv1 = a11.recip_or_zero(a11.gt(zero));
    let inv2 = a22.recip_or_zero(a22.gt(zero));
    let first_x1 = -b1 * inv1;
    let first_ok = a11
        .gt(zero)
        .and(first_x1.ge(zero))
        .and((a12 * first_x1 + b2).ge(zero));
    let second_x2 = -b2 * inv2;
    let second_ok = a22
        .gt(zero)
        .and(second_x2.ge(zero))
        .and((a12 * second_x2 + b1).ge(zero));
    let none_ok = b1.ge(zero).and(b2.ge(zero));
    // Later selects take precedence: both, first, second, none.
    let mut x1 = zero;
    let mut x2 = zero;
    x1 = F8::select(second_ok, zero, x1);
    x2 = F8::select(second_ok, second_x2, x2);
    x1 = F8::select(first_ok, first_x1, x1);
    x2 = F8::select(first_ok, zero, x2);
    x1 = F8::select(both_ok, both_x1, x1);
    x2 = F8::select(both_ok, both_x2, x2);
    (x1, x2, both_ok.or(first_ok).or(second_ok).or(none_ok))
}

/// A block of empty lanes.
const EMPTY_BLOCK: Block = Block {
    a: [NONE; LANES],
    b: [NONE; LANES],
    write_a: [false; LANES],
    write_b: [false; LANES],
    ma: F8::ZERO,
    ia: F8::ZERO,
    mb: F8::ZERO,
    ib: F8::ZERO,
    nx: F8::ZERO,
    ny: F8::ZERO,
    tx: F8::ZERO,
    ty: F8::ZERO,
    friction: F8::ZERO,
    bias_rate: F8::ZERO,
    gamma_ratio: F8::ZERO,
    k12: F8::ZERO,
    p: [EMPTY_POINT; 2],
};

/// A point absent from every lane.
const EMPTY_POINT: PointLanes = PointLanes {
    exists: M8::NONE,
    rax: F8::ZERO,
    ray: F8::ZERO,
    rbx: F8::ZERO,
    rby: F8::ZERO,
    base_sep: F8::ZERO,
    k: F8::ZERO,
    tangent_mass: F8::ZERO,
    normal_impulse: F8::ZERO,
    tangent_impulse: F8::ZERO,
    max_normal_impulse: F8::ZERO,
};

/// Fills lane `l` of a block with a contact between `sa` and `sb`.
fn pack(
    c: &mut Block,
    l: usize,
    sa: &SolverBody<Dim2>,
    sb: &SolverBody<Dim2>,
    con: &ContactC<Dim2>,
    k: &ContactParams,
) {
    c.a[l] = con.a;
    c.b[l] = con.b;
    c.write_a[l] = sa.dynamic;
    c.write_b[l] = sb.dynamic;
    c.ma.0[l] = sa.inv_m;
    c.ia.0[l] = sa.inv_i;
    c.mb.0[l] = sb.inv_m;
    c.ib.0[l] = sb.inv_i;
    c.nx.0[l] = con.normal.x;
    c.ny.0[l] = con.normal.y;
    c.tx.0[l] = con.tangents[0].x;
    c.ty.0[l] = con.tangents[0].y;
    c.friction.0[l] = con.friction;
    let sf = if con.against_fixed {
        k.fixed_soft
    } else {
        k.soft
    };
    c.bias_rate.0[l] = sf.bias_rate;
    c.gamma_ratio.0[l] = sf.impulse_scale / sf.mass_scale;
    // `K` and the friction masses are computed in lanes afterwards
    // (`masses_lanes`), from what this packs.
    for (i, q) in con.points[..(con.len as usize).min(2)].iter().enumerate() {
        let p = &mut c.p[i];
        p.exists.set(l, true);
        p.rax.0[l] = q.ra.x;
        p.ray.0[l] = q.ra.y;
        p.rbx.0[l] = q.rb.x;
        p.rby.0[l] = q.rb.y;
        p.base_sep.0[l] = q.base_sep;
        p.normal_impulse.0[l] = q.normal_impulse;
        p.tangent_impulse.0[l] = q.tangent_impulse[0];
        p.max_normal_impulse.0[l] = q.max_normal_impulse;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dim::DynDim;
    use crate::solver::contact::{self, effective_mass, ContactPointC, MAX_POINTS};
    use peng::math::Rot2;
    use peng::query::types::ContactId;

    use crate::solver::test_rng::{test_params, Rng};

    fn body(rng: &mut Rng) -> SolverBody<Dim2> {
        SolverBody {
            v: rng.v2(1.0),
            w: rng.range(-2.0, 2.0),
            dp: rng.v2(0.02),
            dq: Rot2::from_angle(rng.range(-0.05, 0.05)),
            inv_m: rng.range(0.5, 2.0),
            inv_i: rng.range(0.5, 3.0),
            moves: true,
            dynamic: true,
            ..SolverBody::fixed()
        }
    }

    /// Contacts between body pairs (some against a moving kinematic body),
    /// with one or two points, open and overlapping gaps, warm impulses,
    /// and some with both points on one spot (a singular `K`, without
    /// friction).
    fn scene(seed: u32) -> (Vec<SolverBody<Dim2>>, Vec<ContactC<Dim2>>) {
        let mut rng = Rng(seed);
        let mut bodies = Vec::new();
        let mut contacts = Vec::new();
        for i in 0..40 {
            let a = bodies.len();
            bodies.push(body(&mut rng));
            let b = if i % 3 == 0 {
                bodies.push(SolverBody {
                    v: rng.v2(0.5),
                    dp: rng.v2(0.01),
                    moves: true,
                    ..SolverBody::fixed()
                });
                bodies.len() - 1
            } else if i % 3 == 1 && i > 1 {
                // Shares body A with the previous contact: another colour.
                a - 1
            } else {
                bodies.push(body(&mut rng));
                bodies.len() - 1
            };
            let (sa, sb) = (&bodies[a], &bodies[b]);
            let angle = rng.range(0.0, 6.3);
            let n = Vec2::new(angle.cos(), angle.sin());
            let (tangents, _) = Dim2::tangents(n);
            let len = 1 + (i % 2) as u8;
            let mut c = ContactC {
                a: a as u32,
                b: b as u32,
                normal: n,
                tangents,
                n_tangents: 1,
                len,
                friction: rng.range(0.0, 1.0),
                restitution: 0.0,
                against_fixed: !(sa.dynamic && sb.dynamic),
                points: [ContactPointC::EMPTY; MAX_POINTS],
                k: [[0.0; MAX_POINTS]; MAX_POINTS],
            };
            for k in 0..len as usize {
                let (ra, rb) = if k == 1 && i % 4 == 1 {
                    (c.points[0].ra, c.points[0].rb)
                } else {
                    (rng.v2(1.0), rng.v2(1.0))
                };
                c.points[k] = ContactPointC {
                    ra,
                    rb,
                    base_sep: rng.range(-0.05, 0.05),
                    normal_mass: effective_mass(sa, sb, ra, rb, n),
                    tangent_mass: [effective_mass(sa, sb, ra, rb, tangents[0]), 0.0],
                    normal_impulse: rng.range(0.0, 1.0),
                    tangent_impulse: [rng.range(-0.2, 0.2), 0.0],
                    id: ContactId(k as u32),
                    ..ContactPointC::EMPTY
                };
            }
            if len == 2 && c.points[0].ra == c.points[1].ra {
                // The split between the two points is not unique, and
                // friction, point after point, would depend on it.
                c.friction = 0.0;
            }
            c.compute_k(sa, sb);
            contacts.push(c);
        }
        (bodies, contacts)
    }

    fn close(x: f32, y: f32) -> bool {
        (x - y).abs() <= 1e-4 * (1.0 + x.abs().max(y.abs()))
    }

    /// The warm start in AVX registers (`Avx8`) gives the plain lanes'
    /// velocities to the bit: the same operations in the same order.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx_warm_start_matches_the_plain_lanes_to_the_bit() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let params = test_params();
        for seed in 0..20 {
            let (bodies, contacts) = scene(seed);
            let mut wide = WideContacts2::default();
            wide.load(&bodies, &contacts, &params);
            let runs: Vec<Vec<u32>> = [false, true]
                .into_iter()
                .map(|avx| {
                    let mut bw = bodies.clone();
                    let shared = Shared::new(&mut bw);
                    // SAFETY: runs that go at once share no dynamic body;
                    // AVX2 checked above.
                    wide.lanes.run(|blocks, run| unsafe {
                        if avx {
                            warm_start_lanes::<Avx8>(blocks, &shared, run)
                        } else {
                            warm_start_lanes::<F8>(blocks, &shared, run)
                        }
                    });
                    bodies_bits(&bw)
                })
                .collect();
            assert!(
                runs[0] != bodies_bits(&bodies),
                "seed {seed}: no impulse applied"
            );
            assert!(runs[0] == runs[1], "seed {seed}");
        }
    }

    fn bodies_bits(bodies: &[SolverBody<Dim2>]) -> Vec<u32> {
        bodies
            .iter()
            .flat_map(|b| [b.v.x, b.v.y, b.w])
            .map(f32::to_bits)
            .collect()
    }

    /// The lanes give the scalar solver's velocities and impulses, pass by
    /// pass (warm start, soft solve, relax).
    /// The Delassus matrices and friction masses computed in lanes are the
    /// scalar ones (`ContactC::compute_k`, `effective_mass`) to the bit (the
    /// same operations in the same order), and zero for absent points.
    #[test]
    fn lane_masses_match_the_scalar_ones_to_the_bit() {
        let params = test_params();
        for seed in 0..20 {
            let (bodies, contacts) = scene(seed);
            let mut wide = WideContacts2::default();
            wide.load(&bodies, &contacts, &params);
            let mut lanes = 0;
            for (c, cold) in wide.lanes.iter() {
                for lane in 0..LANES {
                    let Some(con) = contacts.get(cold.ids[lane] as usize) else {
                        continue;
                    };
                    lanes += 1;
                    let two = con.len == 2;
                    let k12 = if two { con.k[0][1] } else { 0.0 };
                    assert_eq!(c.k12.0[lane].to_bits(), k12.to_bits(), "seed {seed} K_12");
                    for i in 0..2 {
                        let here = i < con.len as usize;
                        let (k, m) = if here {
                            (con.k[i][i], con.points[i].tangent_mass[0])
                        } else {
                            (0.0, 0.0)
                        };
                        let p = &c.p[i];
                        assert_eq!(p.k.0[lane].to_bits(), k.to_bits(), "seed {seed} K_{i}{i}");
                        assert_eq!(
                            p.tangent_mass.0[lane].to_bits(),
                            m.to_bits(),
                            "seed {seed} point {i}"
                        );
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
            let mut wide = WideContacts2::default();
            wide.load(&bw, &cw, &params);
            // The scalar solver in the lanes' order: the same Gauss-Seidel
            // order (a block's lanes are independent).
            let order = wide.order();
            let mut seen = order.clone();
            seen.sort_unstable();
            assert!(
                seen.iter().copied().eq(0..cw.len() as u32),
                "each contact in one lane"
            );
            for (block, _) in wide.lanes.iter() {
                let mut written: Vec<u32> = (0..LANES)
                    .flat_map(|l| {
                        [
                            (block.a[l], block.write_a[l]),
                            (block.b[l], block.write_b[l]),
                        ]
                    })
                    .filter(|&(_, w)| w)
                    .map(|(x, _)| x)
                    .collect();
                let n = written.len();
                written.sort_unstable();
                written.dedup();
                assert_eq!(written.len(), n, "a dynamic body twice in a block");
            }
            let mut colored: Vec<ContactC<Dim2>> = order.iter().map(|&i| cs[i as usize]).collect();
            contact::warm_start(&mut bs, &colored);
            wide.warm_start(&mut bw);
            for use_bias in [true, false] {
                contact::solve(&mut bs, &mut colored, &params, use_bias);
                wide.solve(&mut bw, &params, use_bias);
            }
            wide.store(&mut cw);
            for (&i, c) in order.iter().zip(&colored) {
                cs[i as usize] = *c;
            }
            for (s, w) in bs.iter().zip(&bw) {
                assert!(
                    close(s.v.x, w.v.x) && close(s.v.y, w.v.y) && close(s.w, w.w),
                    "seed {seed}: {:?} {} vs {:?} {}",
                    s.v,
                    s.w,
                    w.v,
                    w.w
                );
            }
            for (s, w) in cs.iter().zip(&cw) {
                let pts = |c: &ContactC<Dim2>| c.points[..c.len as usize].to_vec();
                let (ps, pw) = (pts(s), pts(w));
                if s.len == 2 && ps[0].ra == ps[1].ra {
                    // Two points on one spot: only the total is unique.
                    singular += 1;
                    let sum = |p: &[ContactPointC<Dim2>]| {
                        (
                            p[0].normal_impulse + p[1].normal_impulse,
                            p[0].tangent_impulse[0] + p[1].tangent_impulse[0],
                        )
                    };
                    let (a, b) = (sum(&ps), sum(&pw));
                    assert!(
                        close(a.0, b.0) && close(a.1, b.1),
                        "seed {seed}: {a:?} vs {b:?}"
                    );
                    continue;
                }
                for (p, q) in ps.iter().zip(&pw) {
                    assert!(close(p.normal_impulse, q.normal_impulse), "seed {seed}");
                    assert!(close(p.tangent_impulse[0], q.tangent_impulse[0]));
                    assert!(close(p.max_normal_impulse, q.max_normal_impulse));
                }
            }
        }
        assert!(singular > 0, "the singular case was exercised");
    }
}
