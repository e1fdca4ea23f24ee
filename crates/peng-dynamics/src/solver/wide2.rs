//! The 2D contact solver on four lanes: four manifolds of one colour at a
//! time (Box2D v3's wide contact solver, `contact_solver.c`, in the soft
//! step scheme of [`super`]).
//!
//! Each colour's contacts (see [`super::color`]) are packed into blocks of
//! [`LANES`] manifolds that share no dynamic body. A pass gathers the
//! blocks' bodies into lanes, solves the four manifolds at once with the
//! same arithmetic as the scalar solver ([`super::contact::solve`]),
//! branches turned into lane selects, and writes the dynamic bodies back.
//! Empty lanes and fixed bodies are gathered (a kinematic body's motion
//! matters) but never written.

use glam::Vec2;

use super::body::SolverBody;
use super::color::OVERFLOW;
use super::contact::{ContactC, ContactParams};
use super::lanes::{F4, LANES, M4};
use peng::world::Dim2;

/// A lane with no body.
const NONE: u32 = u32::MAX;

/// One point of four manifolds.
#[derive(Debug, Clone, Copy, Default)]
struct Point4 {
    /// Whether the manifold has this point.
    exists: M4,
    rax: F4,
    ray: F4,
    rbx: F4,
    rby: F4,
    /// The gap at the start of the step minus `n · (rb − ra)`.
    base_sep: F4,
    /// `K_ii`, the normal row's Delassus diagonal.
    k: F4,
    tangent_mass: F4,
    normal_impulse: F4,
    tangent_impulse: F4,
    max_normal_impulse: F4,
}

/// Four manifolds of one colour.
#[derive(Debug, Clone, Copy)]
struct Block {
    a: [u32; LANES],
    b: [u32; LANES],
    /// Whether A (B) is dynamic: only those are written back.
    write_a: [bool; LANES],
    write_b: [bool; LANES],
    ma: F4,
    ia: F4,
    mb: F4,
    ib: F4,
    nx: F4,
    ny: F4,
    tx: F4,
    ty: F4,
    friction: F4,
    /// The soft spring's bias rate, and `impulse_scale / mass_scale`
    /// (`γ = K_ii` times it), per lane (stiffer against fixed bodies).
    bias_rate: F4,
    gamma_ratio: F4,
    /// `K_12`, the coupling of the two normal rows.
    k12: F4,
    p: [Point4; 2],
    /// The lanes' contacts (`NONE` for an empty lane).
    ids: [u32; LANES],
}

/// The bodies of a block's side, in lanes.
#[derive(Debug, Clone, Copy, Default)]
struct Side {
    vx: F4,
    vy: F4,
    w: F4,
    dpx: F4,
    dpy: F4,
    qc: F4,
    qs: F4,
}

impl Side {
    #[inline(always)]
    fn gather(bodies: &[SolverBody<Dim2>], idx: &[u32; LANES]) -> Side {
        let mut s = Side::default();
        for (i, &k) in idx.iter().enumerate() {
            if k == NONE {
                s.qc.0[i] = 1.0;
                continue;
            }
            let b = &bodies[k as usize];
            s.vx.0[i] = b.v.x;
            s.vy.0[i] = b.v.y;
            s.w.0[i] = b.w;
            s.dpx.0[i] = b.dp.x;
            s.dpy.0[i] = b.dp.y;
            s.qc.0[i] = b.dq.cos;
            s.qs.0[i] = b.dq.sin;
        }
        s
    }

    #[inline(always)]
    fn scatter(&self, bodies: &mut [SolverBody<Dim2>], idx: &[u32; LANES], write: &[bool; LANES]) {
        for i in 0..LANES {
            if write[i] {
                let b = &mut bodies[idx[i] as usize];
                b.v = Vec2::new(self.vx.0[i], self.vy.0[i]);
                b.w = self.w.0[i];
            }
        }
    }

    /// Velocity of the material point at `r` (`v + ω × r`).
    #[inline(always)]
    fn velocity_at(&self, rx: F4, ry: F4) -> (F4, F4) {
        (self.vx - self.w * ry, self.vy + self.w * rx)
    }

    /// Displacement of the material point at `r` since the step began
    /// (`Δp + ΔR r`).
    #[inline(always)]
    fn moved(&self, rx: F4, ry: F4) -> (F4, F4) {
        (
            self.dpx + self.qc * rx - self.qs * ry,
            self.dpy + self.qs * rx + self.qc * ry,
        )
    }

    /// Applies the impulse `(px, py)` at `r`, for inverse mass `m` and
    /// inertia `i`.
    #[inline(always)]
    fn apply(&mut self, m: F4, i: F4, rx: F4, ry: F4, px: F4, py: F4) {
        self.vx += m * px;
        self.vy += m * py;
        self.w += i * (rx * py - ry * px);
    }
}

/// The 2D contact constraints of one step in lanes.
#[derive(Debug, Default, Clone)]
pub(crate) struct WideContacts2 {
    blocks: Vec<Block>,
}

impl WideContacts2 {
    /// Packs the contacts into blocks, colour by colour (`order`: the
    /// contacts' indices in colour order; `offsets`: each colour's start
    /// in it, see [`super::color::Coloring::offsets`]). The overflow
    /// colour's contacts may share bodies: they get a block each.
    pub fn load(
        &mut self,
        bodies: &[SolverBody<Dim2>],
        contacts: &[ContactC<Dim2>],
        order: &[u32],
        offsets: &[u32],
        params: &ContactParams,
    ) {
        self.blocks.clear();
        for color in 0..=OVERFLOW as usize {
            let start = offsets[color] as usize;
            let ids = &order[start..offsets[color + 1] as usize];
            let width = if color == OVERFLOW as usize { 1 } else { LANES };
            for (k, chunk) in ids.chunks(width).enumerate() {
                // Colour order visits the contacts out of memory order.
                if let Some(&ahead) = order.get(start + k * width + PREFETCH_AHEAD) {
                    prefetch(&contacts[ahead as usize]);
                }
                self.blocks.push(EMPTY_BLOCK);
                if let Some(block) = self.blocks.last_mut() {
                    pack(block, bodies, contacts, chunk, params);
                }
            }
        }
    }

    /// Applies the accumulated impulses (warm starting).
    pub fn warm_start(&self, bodies: &mut [SolverBody<Dim2>]) {
        for c in &self.blocks {
            let mut a = Side::gather(bodies, &c.a);
            let mut b = Side::gather(bodies, &c.b);
            for p in &c.p {
                let px = c.nx * p.normal_impulse + c.tx * p.tangent_impulse;
                let py = c.ny * p.normal_impulse + c.ty * p.tangent_impulse;
                a.apply(-c.ma, -c.ia, p.rax, p.ray, px, py);
                b.apply(c.mb, c.ib, p.rbx, p.rby, px, py);
            }
            a.scatter(bodies, &c.a, &c.write_a);
            b.scatter(bodies, &c.b, &c.write_b);
        }
    }

    /// One pass: soft with the position error when `use_bias`, else the
    /// relax pass (see [`super::contact::solve`], whose steps these are).
    pub fn solve(&mut self, bodies: &mut [SolverBody<Dim2>], k: &ContactParams, use_bias: bool) {
        let inv_h = F4::splat(k.inv_h);
        let max_push = F4::splat(-k.max_push);
        let slop = F4::splat(k.slop);
        let zero = F4::ZERO;
        for c in self.blocks.iter_mut() {
            let mut a = Side::gather(bodies, &c.a);
            let mut b = Side::gather(bodies, &c.b);
            // Residuals `v + bias + γλ`, the soft terms and activity of
            // each normal row.
            let mut r = [zero; 2];
            let mut gamma = [zero; 2];
            let mut active = [M4::default(); 2];
            for (i, p) in c.p.iter().enumerate() {
                let (dax, day) = a.moved(p.rax, p.ray);
                let (dbx, dby) = b.moved(p.rbx, p.rby);
                let s = (dbx - dax) * c.nx + (dby - day) * c.ny + p.base_sep;
                let open = s.gt(zero);
                let (bias, act) = if use_bias {
                    let soft = (c.bias_rate * (s + slop).min(zero)).max(max_push);
                    gamma[i] = F4::select(open, zero, p.k * c.gamma_ratio);
                    (F4::select(open, s * inv_h, soft), p.exists)
                } else {
                    // Relaxing: open gaps are left to the next solve.
                    (zero, p.exists.and_not(open))
                };
                let (vax, vay) = a.velocity_at(p.rax, p.ray);
                let (vbx, vby) = b.velocity_at(p.rbx, p.rby);
                let vn = (vbx - vax) * c.nx + (vby - vay) * c.ny;
                r[i] = vn + bias + gamma[i] * p.normal_impulse;
                active[i] = act;
            }
            let delta = normal_deltas(c, &r, &gamma, &active);
            let (mut pnx, mut pny) = (zero, zero);
            for (p, d) in c.p.iter_mut().zip(delta) {
                p.normal_impulse += d;
                p.max_normal_impulse = p.max_normal_impulse.max(d);
                pnx += c.nx * d;
                pny += c.ny * d;
                a.w -= c.ia * (p.rax * (c.ny * d) - p.ray * (c.nx * d));
                b.w += c.ib * (p.rbx * (c.ny * d) - p.rby * (c.nx * d));
            }
            a.vx -= c.ma * pnx;
            a.vy -= c.ma * pny;
            b.vx += c.mb * pnx;
            b.vy += c.mb * pny;
            // Friction, point after point, within the Coulomb bound.
            for p in c.p.iter_mut() {
                let limit = c.friction * p.normal_impulse;
                let (vax, vay) = a.velocity_at(p.rax, p.ray);
                let (vbx, vby) = b.velocity_at(p.rbx, p.rby);
                let vt = (vbx - vax) * c.tx + (vby - vay) * c.ty;
                let new = (p.tangent_impulse - p.tangent_mass * vt)
                    .max(-limit)
                    .min(limit);
                let d = new - p.tangent_impulse;
                p.tangent_impulse = new;
                let (px, py) = (c.tx * d, c.ty * d);
                a.apply(-c.ma, -c.ia, p.rax, p.ray, px, py);
                b.apply(c.mb, c.ib, p.rbx, p.rby, px, py);
            }
            a.scatter(bodies, &c.a, &c.write_a);
            b.scatter(bodies, &c.b, &c.write_b);
        }
    }

    /// Writes the accumulated impulses back into the contacts.
    pub fn store(&self, contacts: &mut [ContactC<Dim2>]) {
        for (k, c) in self.blocks.iter().enumerate() {
            if let Some(ahead) = self.blocks.get(k + 2) {
                for &id in ahead.ids.iter().filter(|&&id| id != NONE) {
                    prefetch(&contacts[id as usize]);
                }
            }
            for (lane, &id) in c.ids.iter().enumerate() {
                if id == NONE {
                    break;
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

/// The manifolds' normal impulse changes: the 2x2 complementarity problem
/// exactly where both points are active (the four cases of
/// `contact::block_lcp2`, as lane selects), one projected row where one
/// is, and projected Gauss-Seidel where the block has no solution (nearly
/// singular `K`).
#[inline(always)]
fn normal_deltas(c: &Block, r: &[F4; 2], gamma: &[F4; 2], active: &[M4; 2]) -> [F4; 2] {
    let zero = F4::ZERO;
    let (l1, l2) = (c.p[0].normal_impulse, c.p[1].normal_impulse);
    let a11 = c.p[0].k + gamma[0];
    let a22 = c.p[1].k + gamma[1];
    let a12 = c.k12;
    let inv1 = a11.recip_or_zero(active[0].and(a11.gt(zero)));
    let inv2 = a22.recip_or_zero(active[1].and(a22.gt(zero)));
    // One row on its own (the other inactive, or absent).
    let single1 = (l1 - r[0] * inv1).max(zero) - l1;
    let single2 = (l2 - r[1] * inv2).max(zero) - l2;
    // Both rows: unknowns are the new totals x with w = A x + b ≥ 0.
    let b1 = r[0] - a11 * l1 - a12 * l2;
    let b2 = r[1] - a12 * l1 - a22 * l2;
    let det = a11 * a22 - a12 * a12;
    let det_ok = det.gt(F4::splat(1e-6) * a11 * a22);
    let inv_det = det.recip_or_zero(det_ok);
    let both_x1 = (a12 * b2 - a22 * b1) * inv_det;
    let both_x2 = (a12 * b1 - a11 * b2) * inv_det;
    let both_ok = det_ok.and(both_x1.ge(zero)).and(both_x2.ge(zero));
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
    x1 = F4::select(second_ok, zero, x1);
    x2 = F4::select(second_ok, second_x2, x2);
    x1 = F4::select(first_ok, first_x1, x1);
    x2 = F4::select(first_ok, zero, x2);
    x1 = F4::select(both_ok, both_x1, x1);
    x2 = F4::select(both_ok, both_x2, x2);
    let solved = both_ok.or(first_ok).or(second_ok).or(none_ok);
    let both = active[0].and(active[1]);
    let mut d1 = F4::select(both, x1 - l1, single1);
    let mut d2 = F4::select(both, x2 - l2, single2);
    let unsolved = both.and_not(solved);
    if unsolved.any() {
        let (mut g1, mut g2) = (zero, zero);
        for _ in 0..4 {
            g1 = (l1 + g1 - (r[0] + a11 * g1 + a12 * g2) * inv1).max(zero) - l1;
            g2 = (l2 + g2 - (r[1] + a12 * g1 + a22 * g2) * inv2).max(zero) - l2;
        }
        d1 = F4::select(unsolved, g1, d1);
        d2 = F4::select(unsolved, g2, d2);
    }
    [d1, d2]
}

/// How many contacts ahead [`WideContacts2::load`] asks for.
const PREFETCH_AHEAD: usize = 8;

/// Asks the processor to bring `x` into the cache (a hint; nothing on
/// other targets).
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = (x as *const T).cast::<i8>();
        for offset in (0..core::mem::size_of::<T>()).step_by(64) {
            // SAFETY: SSE is part of x86_64's baseline, and a prefetch
            // is a hint that reads nothing and never faults (Intel SDM,
            // PREFETCHh).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// A block with four empty lanes.
const EMPTY_BLOCK: Block = Block {
    a: [NONE; LANES],
    b: [NONE; LANES],
    write_a: [false; LANES],
    write_b: [false; LANES],
    ma: F4::ZERO,
    ia: F4::ZERO,
    mb: F4::ZERO,
    ib: F4::ZERO,
    nx: F4::ZERO,
    ny: F4::ZERO,
    tx: F4::ZERO,
    ty: F4::ZERO,
    friction: F4::ZERO,
    bias_rate: F4::ZERO,
    gamma_ratio: F4::ZERO,
    k12: F4::ZERO,
    p: [EMPTY_POINT; 2],
    ids: [NONE; LANES],
};

/// A point absent from all four lanes.
const EMPTY_POINT: Point4 = Point4 {
    exists: M4([false; LANES]),
    rax: F4::ZERO,
    ray: F4::ZERO,
    rbx: F4::ZERO,
    rby: F4::ZERO,
    base_sep: F4::ZERO,
    k: F4::ZERO,
    tangent_mass: F4::ZERO,
    normal_impulse: F4::ZERO,
    tangent_impulse: F4::ZERO,
    max_normal_impulse: F4::ZERO,
};

/// Fills the lanes of an empty block with the contacts `ids`.
fn pack(
    c: &mut Block,
    bodies: &[SolverBody<Dim2>],
    contacts: &[ContactC<Dim2>],
    ids: &[u32],
    k: &ContactParams,
) {
    for (l, &id) in ids.iter().enumerate() {
        let con = &contacts[id as usize];
        c.ids[l] = id;
        let (sa, sb) = (&bodies[con.a as usize], &bodies[con.b as usize]);
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
        c.k12.0[l] = con.k[0][1];
        for (i, q) in con.points[..(con.len as usize).min(2)].iter().enumerate() {
            let p = &mut c.p[i];
            p.exists.0[l] = true;
            p.rax.0[l] = q.ra.x;
            p.ray.0[l] = q.ra.y;
            p.rbx.0[l] = q.rb.x;
            p.rby.0[l] = q.rb.y;
            p.base_sep.0[l] = q.base_sep;
            p.k.0[l] = con.k[i][i];
            p.tangent_mass.0[l] = q.tangent_mass[0];
            p.normal_impulse.0[l] = q.normal_impulse;
            p.tangent_impulse.0[l] = q.tangent_impulse[0];
            p.max_normal_impulse.0[l] = q.max_normal_impulse;
        }
    }
}
