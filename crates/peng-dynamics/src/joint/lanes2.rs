//! The plane's revolute joints without motor or limits (chains, ragdolls,
//! Box2D's joint grid), eight at a time in lanes.
//!
//! Such a joint is its point block alone ([`super::point::solve_point`] on
//! the geometry of `JointC::geo`). A block's joints come from one colour,
//! so they share no dynamic body: a pass gathers the bodies into lanes
//! ([`Side`], as the contact lanes do), solves the eight joints with the
//! scalar solver's arithmetic, its one branch (a singular block) as a lane
//! select, and writes the dynamic bodies back. Fixed and kinematic bodies
//! are gathered (their motion matters) but never written.

use core::ops::Range;

use peng::math::Vector;
use peng::world::Dim2;

#[cfg(target_arch = "x86_64")]
use crate::solver::avx::Avx8;
use crate::solver::body::SolverBody;
use crate::solver::colour::{self, Shared};
use crate::solver::lanes::{avx2_dispatch, Lane, F8, LANES};
use crate::solver::pack::NONE;
use crate::solver::soft::Softness;
use crate::solver::wide2::{Motion, Side};

/// Eight hinges.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HingeBlock {
    /// Each lane's joint slot (`NONE`: empty).
    joint: [u32; LANES],
    a: [u32; LANES],
    b: [u32; LANES],
    /// Whether A (B) is dynamic: only those are written back.
    write_a: [bool; LANES],
    write_b: [bool; LANES],
    ma: F8,
    ia: F8,
    mb: F8,
    ib: F8,
    /// The anchor arms at the step's start.
    rax: F8,
    ray: F8,
    rbx: F8,
    rby: F8,
    /// `c_B − c_A` at the step's start.
    dcx: F8,
    dcy: F8,
    /// The accumulated point impulse.
    px: F8,
    py: F8,
}

const EMPTY: HingeBlock = HingeBlock {
    joint: [NONE; LANES],
    a: [NONE; LANES],
    b: [NONE; LANES],
    write_a: [false; LANES],
    write_b: [false; LANES],
    ma: F8::ZERO,
    ia: F8::ZERO,
    mb: F8::ZERO,
    ib: F8::ZERO,
    rax: F8::ZERO,
    ray: F8::ZERO,
    rbx: F8::ZERO,
    rby: F8::ZERO,
    dcx: F8::ZERO,
    dcy: F8::ZERO,
    px: F8::ZERO,
    py: F8::ZERO,
};

/// A hinge's data for a step, as [`JointC`](super::constraint::JointC) would hold it: the anchor
/// arms from the centres of mass at the step's start (world frame),
/// `c_B − c_A`, and the accumulated point impulse (warm start).
#[derive(Debug, Clone, Copy)]
pub(crate) struct HingeArms {
    pub ra0: [f32; 2],
    pub rb0: [f32; 2],
    pub delta_center: [f32; 2],
    pub point: [f32; 2],
}

impl HingeArms {
    /// From the plane's vectors, as the world's generic code has them.
    pub fn new<V: Vector>(ra0: V, rb0: V, delta_center: V, point: V) -> Self {
        let xy = |v: V| [v.get(0), v.get(1)];
        HingeArms {
            ra0: xy(ra0),
            rb0: xy(rb0),
            delta_center: xy(delta_center),
            point: xy(point),
        }
    }
}

/// The blocks filled by one thread at once.
const FILL_CHUNK: usize = 32;

/// The step's hinges in lanes.
#[derive(Debug, Default)]
pub(crate) struct HingeLanes {
    blocks: Vec<HingeBlock>,
}

impl HingeLanes {
    /// Removes every block (before colouring again).
    pub fn clear(&mut self) {
        self.blocks.clear();
    }

    /// Puts the hinges of one colour, (slot, (body A, body B)), into new
    /// blocks (`dynamic(body)`: whether it is written back) and returns the
    /// blocks' range.
    pub fn place(
        &mut self,
        hinges: impl Iterator<Item = (u32, (u32, u32))>,
        dynamic: impl Fn(u32) -> bool,
    ) -> Range<usize> {
        let first = self.blocks.len();
        for (k, (slot, (a, b))) in hinges.enumerate() {
            let lane = k % LANES;
            if lane == 0 {
                self.blocks.push(EMPTY);
            }
            let c = self.blocks.last_mut().expect("a block was opened");
            c.joint[lane] = slot;
            c.a[lane] = a;
            c.b[lane] = b;
            c.write_a[lane] = dynamic(a);
            c.write_b[lane] = dynamic(b);
        }
        first..self.blocks.len()
    }

    /// Fills every lane for the step: its bodies' masses and
    /// `arms(slot)`.
    pub fn fill(
        &mut self,
        bodies: &[SolverBody<Dim2>],
        arms: impl Fn(u32) -> HingeArms + Sync + Send,
    ) {
        let blocks = Shared::new(&mut self.blocks);
        colour::run_chunked(blocks.len(), FILL_CHUNK, true, |run| {
            for i in run {
                // SAFETY: each block is one run's.
                let c = unsafe { blocks.get_mut(i) };
                for lane in 0..LANES {
                    let slot = c.joint[lane];
                    if slot == NONE {
                        continue;
                    }
                    let (sa, sb) = (&bodies[c.a[lane] as usize], &bodies[c.b[lane] as usize]);
                    let h = arms(slot);
                    c.ma.0[lane] = sa.inv_m;
                    c.ia.0[lane] = sa.inv_i;
                    c.mb.0[lane] = sb.inv_m;
                    c.ib.0[lane] = sb.inv_i;
                    [c.rax.0[lane], c.ray.0[lane]] = h.ra0;
                    [c.rbx.0[lane], c.rby.0[lane]] = h.rb0;
                    [c.dcx.0[lane], c.dcy.0[lane]] = h.delta_center;
                    [c.px.0[lane], c.py.0[lane]] = h.point;
                }
            }
        });
    }

    /// Each hinge's slot and accumulated point impulse.
    pub fn impulses(&self) -> impl Iterator<Item = (u32, [f32; 2])> + '_ {
        self.blocks.iter().flat_map(|c| {
            (0..LANES)
                .filter(|&l| c.joint[l] != NONE)
                .map(|l| (c.joint[l], [c.px.0[l], c.py.0[l]]))
        })
    }

    /// The blocks, to share among the threads of a pass.
    pub fn blocks_mut(&mut self) -> &mut [HingeBlock] {
        &mut self.blocks
    }
}

/// The lanes' anchor arms now (`ΔR r₀`) and the separation `d` of the
/// anchors (as `JointC::geo`), in lanes of type `L`.
///
/// # Safety
/// The processor has what `L` needs.
#[inline(always)]
unsafe fn geometry<L: Lane>(c: &HingeBlock, a: &Side, b: &Side) -> [L; 6] {
    // SAFETY (every load): the caller's.
    let ld = |f: &F8| unsafe { L::load(f) };
    let (qc, qs) = (ld(&a.qc), ld(&a.qs));
    let rax = qc * ld(&c.rax) - qs * ld(&c.ray);
    let ray = qs * ld(&c.rax) + qc * ld(&c.ray);
    let (qc, qs) = (ld(&b.qc), ld(&b.qs));
    let rbx = qc * ld(&c.rbx) - qs * ld(&c.rby);
    let rby = qs * ld(&c.rbx) + qc * ld(&c.rby);
    let dx = (ld(&b.dpx) - ld(&a.dpx)) + ld(&c.dcx) + rbx - rax;
    let dy = (ld(&b.dpy) - ld(&a.dpy)) + ld(&c.dcy) + rby - ray;
    [rax, ray, rbx, rby, dx, dy]
}

avx2_dispatch!(
    /// Applies the accumulated impulses of the blocks `run` (warm start),
    /// compiled for AVX2 where the processor has it.
    ///
    /// # Safety
    /// No other thread writes these blocks, nor reaches their dynamic
    /// bodies, meanwhile.
    pub(crate) warm_start,
    warm_start_avx2,
    warm_start_lanes::<F8 | Avx8>,
    (blocks: &Shared<HingeBlock>, bodies: &Shared<SolverBody<Dim2>>, run: Range<usize>)
);

#[inline(always)]
unsafe fn warm_start_lanes<L: Lane>(
    blocks: &Shared<HingeBlock>,
    bodies: &Shared<SolverBody<Dim2>>,
    run: Range<usize>,
) {
    let idle = SolverBody::fixed();
    for i in run {
        // SAFETY (block, gather, apply, scatter): the caller's, which
        // covers what `L` needs.
        unsafe {
            let c = blocks.get(i);
            let mut a = Side::gather(bodies, &c.a, &idle);
            let mut b = Side::gather(bodies, &c.b, &idle);
            apply_accumulated::<L>(c, &mut a, &mut b);
            a.scatter(bodies, &c.a, &c.write_a);
            b.scatter(bodies, &c.b, &c.write_b);
        }
    }
}

/// Applies block `c`'s accumulated point impulses at the anchors' arms
/// now to the velocities of `a` and `b`, in lanes of type `L`. (The plain
/// lanes' arithmetic compiled to scalar code here, whatever the target.)
///
/// # Safety
/// The processor has what `L` needs.
#[inline(always)]
unsafe fn apply_accumulated<L: Lane>(c: &HingeBlock, a: &mut Side, b: &mut Side) {
    // SAFETY (loads, geometry, motions): the caller's.
    unsafe {
        let [rax, ray, rbx, rby, _, _] = geometry::<L>(c, a, b);
        let (px, py) = (L::load(&c.px), L::load(&c.py));
        let (mut va, mut vb) = (Motion::<L>::of(a), Motion::<L>::of(b));
        va.apply(-L::load(&c.ma), -L::load(&c.ia), rax, ray, px, py);
        vb.apply(L::load(&c.mb), L::load(&c.ib), rbx, rby, px, py);
        va.put(a);
        vb.put(b);
    }
}

avx2_dispatch!(
    /// One pass of the point blocks of the blocks `run` with softness `s`
    /// (the joint spring on the position error, or rigid when relaxing),
    /// compiled for AVX2 where the processor has it.
    ///
    /// # Safety
    /// No other thread reaches these blocks or their dynamic bodies
    /// meanwhile.
    pub(crate) solve,
    solve_avx2,
    solve_lanes::<F8 | Avx8>,
    (
        blocks: &Shared<HingeBlock>,
        bodies: &Shared<SolverBody<Dim2>>,
        run: Range<usize>,
        s: Softness,
    )
);

#[inline(always)]
unsafe fn solve_lanes<L: Lane>(
    blocks: &Shared<HingeBlock>,
    bodies: &Shared<SolverBody<Dim2>>,
    run: Range<usize>,
    s: Softness,
) {
    let idle = SolverBody::fixed();
    for i in run {
        // SAFETY (block, gather, solve, scatter): the caller's, which
        // covers what `L` needs.
        unsafe {
            let c = blocks.get_mut(i);
            let mut a = Side::gather(bodies, &c.a, &idle);
            let mut b = Side::gather(bodies, &c.b, &idle);
            solve_block::<L>(c, &mut a, &mut b, &s);
            a.scatter(bodies, &c.a, &c.write_a);
            b.scatter(bodies, &c.b, &c.write_b);
        }
    }
}

/// One pass of block `c`'s point blocks on the velocities of `a` and `b`,
/// in lanes of type `L`: `DynDim::solve_point_block` for the plane, its
/// one branch (a singular block) as a lane select.
///
/// # Safety
/// The processor has what `L` needs.
#[inline(always)]
unsafe fn solve_block<L: Lane>(c: &mut HingeBlock, a: &mut Side, b: &mut Side, s: &Softness) {
    // SAFETY (splats, loads, geometry, motions): the caller's.
    unsafe {
        let sp = |x: f32| L::splat(x);
        let ld = |f: &F8| L::load(f);
        let (bias_rate, mass_scale, impulse_scale) =
            (sp(s.bias_rate), sp(s.mass_scale), sp(s.impulse_scale));
        let [rax, ray, rbx, rby, dx, dy] = geometry::<L>(c, a, b);
        let (mut va, mut vb) = (Motion::<L>::of(a), Motion::<L>::of(b));
        let (vax, vay) = va.velocity_at(rax, ray);
        let (vbx, vby) = vb.velocity_at(rbx, rby);
        let rhsx = (vbx - vax) + dx * bias_rate;
        let rhsy = (vby - vay) + dy * bias_rate;
        let (ma, ia, mb, ib) = (ld(&c.ma), ld(&c.ia), ld(&c.mb), ld(&c.ib));
        let m = ma + mb;
        let k11 = m + ia * ray * ray + ib * rby * rby;
        let k12 = -ia * rax * ray - ib * rbx * rby;
        let k22 = m + ia * rax * rax + ib * rbx * rbx;
        let det = k11 * k22 - k12 * k12;
        let floor = (k11 * k22).abs().max(sp(f32::MIN_POSITIVE));
        let ok = det.abs().gt(sp(1e-12) * floor);
        let inv = det.recip_or_zero(ok);
        let xx = L::select(ok, inv * (k22 * rhsx - k12 * rhsy), sp(0.0));
        let xy = L::select(ok, inv * (k11 * rhsy - k12 * rhsx), sp(0.0));
        let (px, py) = (ld(&c.px), ld(&c.py));
        let ddx = -(xx * mass_scale) - px * impulse_scale;
        let ddy = -(xy * mass_scale) - py * impulse_scale;
        c.px = (px + ddx).store();
        c.py = (py + ddy).store();
        va.apply(-ma, -ia, rax, ray, ddx, ddy);
        vb.apply(mb, ib, rbx, rby, ddx, ddy);
        va.put(a);
        vb.put(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dim::DynDim;
    use crate::joint::constraint::{self, JointC, JointParams, LengthMode};
    use crate::joint::graph::ColouredJoints;
    use crate::joint::JointType;
    use glam::Vec2;
    use peng::math::Rot2;

    use crate::solver::test_rng::Rng;

    /// A chain of hinged bodies in several colours: some links to fixed or
    /// moving kinematic bodies, random arms, motion since the step began
    /// and warm impulses, and one link whose bodies cannot respond (a
    /// singular block: massless bodies).
    fn scene(seed: u32) -> (Vec<SolverBody<Dim2>>, Vec<JointC<Dim2>>) {
        let mut rng = Rng(seed);
        let mut bodies: Vec<SolverBody<Dim2>> = (0..60)
            .map(|i| match i % 10 {
                0 => SolverBody::fixed(),
                5 => SolverBody {
                    v: rng.v2(0.5),
                    w: rng.range(-1.0, 1.0),
                    dp: rng.v2(0.01),
                    dq: Rot2::from_angle(rng.range(-0.05, 0.05)),
                    moves: true,
                    ..SolverBody::fixed()
                },
                _ => SolverBody {
                    v: rng.v2(1.0),
                    w: rng.range(-2.0, 2.0),
                    dp: rng.v2(0.02),
                    dq: Rot2::from_angle(rng.range(-0.05, 0.05)),
                    inv_m: rng.range(0.5, 2.0),
                    inv_i: rng.range(0.5, 3.0),
                    moves: true,
                    dynamic: true,
                    ..SolverBody::fixed()
                },
            })
            .collect();
        // Bodies 58 and 59: dynamic but massless.
        for b in &mut bodies[58..] {
            b.inv_m = 0.0;
            b.inv_i = 0.0;
        }
        let mut joints = Vec::new();
        let mut link = |a: usize, b: usize, rng: &mut Rng| {
            let imp = crate::joint::JointImpulses::<Dim2> {
                point: rng.v2(0.3),
                ..Default::default()
            };
            joints.push(JointC {
                slot: joints.len() as u32,
                kind: JointType::Revolute,
                a: a as u32,
                b: b as u32,
                ra0: rng.v2(1.0),
                rb0: rng.v2(1.0),
                delta_center: rng.v2(2.0),
                fa0: Dim2::ROT_IDENTITY,
                fb0: Dim2::ROT_IDENTITY,
                ang_mass: 0.0,
                limits: None,
                motor: None,
                length_mode: LengthMode::Rigid,
                length: 0.0,
                imp,
                force: Vec2::ZERO,
                torque: 0.0,
                motor_force: 0.0,
            });
        };
        for i in 0..57 {
            link(i, i + 1, &mut rng);
            link(i, (i * 7 + 3) % 57, &mut rng);
        }
        link(58, 59, &mut rng);
        // No joint links a body to itself, nor two bodies that do not move.
        joints.retain(|j| {
            j.a != j.b && (bodies[j.a as usize].dynamic || bodies[j.b as usize].dynamic)
        });
        for (i, j) in joints.iter_mut().enumerate() {
            j.slot = i as u32;
        }
        (bodies, joints)
    }

    /// Two substeps of warm start, solve and relax, in lanes or one by
    /// one; the bodies' velocities and the joints' impulses after them.
    fn run(lanes: bool, seed: u32) -> (Vec<SolverBody<Dim2>>, Vec<(u32, Vec2)>) {
        let (mut bodies, joints) = scene(seed);
        let mut set = ColouredJoints::<Dim2>::default();
        set.colour(0, &bodies, || {
            joints.iter().map(|j| (j.slot, j.a, j.b, lanes))
        });
        set.fill(
            &bodies,
            |slot| joints[slot as usize],
            |slot| {
                let j = &joints[slot as usize];
                HingeArms::new(j.ra0, j.rb0, j.delta_center, j.imp.point)
            },
            crate::determinism::Kernels::Fast,
        );
        // Every joint but those of the overflow colour (none here).
        assert_eq!(set.in_lanes(), if lanes { joints.len() } else { 0 });
        let h = 1.0 / 240.0;
        let p = JointParams {
            soft: Softness::new(60.0, 5.0, h),
            h,
            inv_h: 1.0 / h,
            exact: false,
        };
        for _ in 0..2 {
            constraint::warm_start(&mut bodies, &mut set);
            constraint::solve(&mut bodies, &mut set, &p, true);
            for b in bodies.iter_mut().filter(|b| b.moves) {
                b.dp += b.v * h;
            }
            constraint::solve(&mut bodies, &mut set, &p, false);
        }
        constraint::store(&bodies, &mut set, p.inv_h);
        let mut imp: Vec<(u32, Vec2)> = set.list().iter().map(|j| (j.slot, j.imp.point)).collect();
        imp.extend(set.lane_impulses().map(|(s, p)| (s, Vec2::from(p))));
        imp.sort_by_key(|x| x.0);
        (bodies, imp)
    }

    /// The lanes do the one-by-one solver's arithmetic: the same
    /// velocities and impulses, to the bit.
    #[test]
    fn lanes_agree_with_the_one_by_one_solver() {
        for seed in [1, 2, 3] {
            let (b1, i1) = run(false, seed);
            let (b8, i8) = run(true, seed);
            assert!(i1.iter().any(|x| x.1 != Vec2::ZERO));
            assert_eq!(i1.len(), i8.len());
            for (x, y) in i1.iter().zip(&i8) {
                assert_eq!(x.0, y.0);
                assert_eq!(
                    x.1.to_array().map(f32::to_bits),
                    y.1.to_array().map(f32::to_bits)
                );
            }
            for (x, y) in b1.iter().zip(&b8) {
                assert_eq!(
                    x.v.to_array().map(f32::to_bits),
                    y.v.to_array().map(f32::to_bits)
                );
                assert_eq!(x.w.to_bits(), y.w.to_bits());
            }
            // The massless pair took no impulse from its singular block.
            let j = i8.last().unwrap();
            assert!(j.1.is_finite());
        }
    }
}
