//! [`ColouredJoints`]: the step's joint constraints in colours whose joints
//! share no dynamic body (placed by the contacts' [`Packer`]), so that a
//! pass can solve one colour after another, each colour's joints at once
//! on rayon's threads, with the same result on any number of threads.
//! The plane's plain hinges of a colour go in lanes ([`super::lanes2`]),
//! the other joints one by one.

use core::ops::Range;

use super::constraint::JointC;
use super::lanes2::{HingeArms, HingeLanes};
use crate::determinism::Kernels;
use crate::dim::DynDim;
use crate::solver::body::SolverBody;
use crate::solver::colour::{self, Shared};
use crate::solver::lanes::LANES;
use crate::solver::pack::{Packer, NONE, OVERFLOW};
use crate::solver::soft::Softness;

/// The fewest joints a thread is handed at once (a joint costs about a
/// tenth of a block of eight contacts).
const MIN_JOINTS: usize = 64;

/// The fewest blocks of hinges a thread is handed at once.
const MIN_HINGE_BLOCKS: usize = 8;

/// One colour's joints.
#[derive(Debug, Clone)]
struct Span {
    /// Its joints solved one by one, in the step's list.
    list: Range<usize>,
    /// Its blocks of hinges in lanes.
    blocks: Range<usize>,
    /// Whether its joints may be solved at once (every colour but the
    /// overflow).
    parallel: bool,
}

/// Which pass [`ColouredJoints::run`] runs, for the joints in lanes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum LanePass {
    /// Apply the accumulated impulses.
    WarmStart,
    /// Solve with this softness (the joint spring, or rigid to relax).
    Solve(Softness),
}

/// The step's joint constraints, colour after colour.
pub(crate) struct ColouredJoints<D: DynDim> {
    /// The slots of the joints solved one by one, in solving order.
    order: Vec<u32>,
    /// Their constraints, in that order.
    list: Vec<JointC<D>>,
    /// The colours' spans of `list`.
    spans: Vec<Span>,
    /// The hinges in lanes (only in the plane).
    hinges: HingeLanes,
    /// The kernels of the hinges' passes.
    kernels: Kernels,
    packer: Packer,
    /// Per colour, its blocks of joint slots (`NONE`: empty).
    blocks: Vec<Vec<[u32; LANES]>>,
    /// The slots of the joints the colours hold, in slot order, their
    /// bodies, and where each is in `order` (unless in lanes).
    slots: Vec<u32>,
    ends: Vec<(u32, u32)>,
    position: Vec<u32>,
    /// Per joint in `slots`, whether it goes in lanes.
    in_lanes: Vec<bool>,
    /// The joint edits and which bodies were dynamic when coloured.
    edits: Option<u64>,
    dynamic: Vec<bool>,
}

impl<D: DynDim> Default for ColouredJoints<D> {
    fn default() -> Self {
        ColouredJoints {
            order: Vec::new(),
            list: Vec::new(),
            spans: Vec::new(),
            hinges: HingeLanes::default(),
            kernels: Kernels::Fast,
            packer: Packer::default(),
            blocks: (0..=OVERFLOW).map(|_| Vec::new()).collect(),
            slots: Vec::new(),
            ends: Vec::new(),
            position: Vec::new(),
            in_lanes: Vec::new(),
            edits: None,
            dynamic: Vec::new(),
        }
    }
}

impl<D: DynDim> ColouredJoints<D> {
    /// Orders the step's joints, given as (slot, body A, body B, whether
    /// it is a plain hinge: a revolute joint with no motor and no limits)
    /// in slot order, into colours: the packer's blocks of eight, taken
    /// colour after colour, block after block, so the order stays close to
    /// the slots' where the colours allow; in each colour but the overflow
    /// the plane's plain hinges go into lanes, the others into the list of
    /// joints solved one by one. [`fill`](Self::fill) then builds the
    /// constraints and lanes in that order.
    pub fn colour<I: Iterator<Item = (u32, u32, u32, bool)>>(
        &mut self,
        edits: u64,
        bodies: &[SolverBody<D>],
        joints: impl FnOnce() -> I,
    ) {
        // The joints and the bodies' kinds (dynamic or not) rarely change
        // from step to step, and the colours with them.
        let same = self.edits == Some(edits)
            && self.dynamic.len() == bodies.len()
            && self
                .dynamic
                .iter()
                .zip(bodies)
                .all(|(&d, b)| d == b.dynamic);
        if same {
            return;
        }
        self.edits = Some(edits);
        self.dynamic.clear();
        self.dynamic.extend(bodies.iter().map(|b| b.dynamic));
        self.packer.clear();
        for blocks in &mut self.blocks {
            blocks.clear();
        }
        self.slots.clear();
        self.ends.clear();
        self.in_lanes.clear();
        let planar = D::HINGE_LANES;
        let dynamic = |x: u32| bodies[x as usize].dynamic.then_some(x);
        for (slot, a, b, hinge) in joints() {
            let blocks = &mut self.blocks;
            let (c, block, lane) = self.packer.place(dynamic(a), dynamic(b), |c| {
                blocks[c].push([NONE; LANES]);
                blocks[c].len() - 1
            });
            // The joint's index among the step's joints.
            blocks[c][block][lane] = self.slots.len() as u32;
            self.slots.push(slot);
            self.ends.push((a, b));
            self.in_lanes.push(hinge && planar && c != OVERFLOW);
        }
        self.order.clear();
        self.spans.clear();
        self.position.clear();
        self.position.resize(self.slots.len(), 0);
        self.hinges.clear();
        for (c, blocks) in self.blocks.iter().enumerate() {
            let start = self.order.len();
            let joints = || blocks.iter().flatten().filter(|&&i| i != NONE);
            let (slots, ends, in_lanes) = (&self.slots, &self.ends, &self.in_lanes);
            let hinges = joints()
                .filter(|&&i| in_lanes[i as usize])
                .map(|&i| (slots[i as usize], ends[i as usize]));
            let blocks = self.hinges.place(hinges, |x| bodies[x as usize].dynamic);
            for &i in joints().filter(|&&i| !in_lanes[i as usize]) {
                self.position[i as usize] = self.order.len() as u32;
                self.order.push(slots[i as usize]);
            }
            if self.order.len() > start || !blocks.is_empty() {
                self.spans.push(Span {
                    list: start..self.order.len(),
                    blocks,
                    parallel: c != OVERFLOW,
                });
            }
        }
        self.list.clear();
    }

    /// Builds the constraints of the joints solved one by one, `build(slot)`,
    /// into their places in the list, and the lanes of the plain hinges from
    /// `hinge(slot)` and the bodies. The list's joints are visited in slot
    /// order (the order of the joints' and bodies' own storage), the lanes
    /// block by block, on rayon's threads when there are many; the
    /// hinges' passes of the step run `kernels`.
    pub fn fill(
        &mut self,
        bodies: &[SolverBody<D>],
        build: impl Fn(u32) -> JointC<D> + Sync + Send,
        hinge: impl Fn(u32) -> HingeArms + Sync + Send,
        kernels: Kernels,
    ) {
        self.kernels = kernels;
        if self.list.len() != self.order.len() {
            // Just coloured: nothing to overwrite yet.
            self.list.clear();
            self.list.extend(self.order.iter().map(|&s| build(s)));
        } else {
            let list = Shared::new(&mut self.list);
            let (slots, position, in_lanes) = (&self.slots, &self.position, &self.in_lanes);
            colour::run_chunked(slots.len(), MIN_JOINTS, true, |run| {
                for i in run.filter(|&i| !in_lanes[i]) {
                    // SAFETY: each joint has its own position.
                    unsafe { *list.get_mut(position[i] as usize) = build(slots[i]) };
                }
            });
        }
        D::fill_hinges(&mut self.hinges, bodies, hinge);
    }

    /// How many joints went in lanes.
    #[cfg(test)]
    pub fn in_lanes(&self) -> usize {
        self.in_lanes.iter().filter(|&&x| x).count()
    }

    /// The plain hinges in lanes with their accumulated point impulses.
    pub fn lane_impulses(&self) -> impl Iterator<Item = (u32, [f32; 2])> + '_ {
        self.hinges.impulses()
    }

    /// The constraints solved one by one, in solving order.
    pub fn list(&self) -> &[JointC<D>] {
        &self.list
    }

    /// The constraints solved one by one, to write.
    pub fn list_mut(&mut self) -> &mut [JointC<D>] {
        &mut self.list
    }

    /// Runs one pass colour after colour, each colour's joints on rayon's
    /// threads: `pass` on its hinges in lanes, then `f` on each of its other
    /// joints with its two bodies. A dynamic body is handed to `f` in place;
    /// any other (fixed, kinematic or asleep: it takes no impulse) as a
    /// copy, which is dropped, so no two threads write one body.
    pub fn run(
        &mut self,
        bodies: &mut [SolverBody<D>],
        pass: LanePass,
        f: impl Fn(&mut JointC<D>, &mut SolverBody<D>, &mut SolverBody<D>) + Sync,
    ) {
        let bodies = Shared::new(bodies);
        let list = Shared::new(&mut self.list);
        let hinges = Shared::new(self.hinges.blocks_mut());
        let kernels = self.kernels;
        for span in &self.spans {
            if !span.blocks.is_empty() {
                let blocks = &span.blocks;
                colour::run_chunked(blocks.len(), MIN_HINGE_BLOCKS, span.parallel, |run| {
                    let run = blocks.start + run.start..blocks.start + run.end;
                    // SAFETY: the blocks of a colour share no dynamic body,
                    // and each run has its own blocks.
                    unsafe { D::hinge_pass(kernels, &hinges, &bodies, run, pass) };
                });
            }
            let rest = &span.list;
            colour::run_chunked(rest.len(), MIN_JOINTS, span.parallel, |run| {
                let run = rest.start + run.start..rest.start + run.end;
                // SAFETY: the joints of a run are its own; the joints that
                // go at once (one colour) share no dynamic body, and the
                // others are only read (copied).
                unsafe { solve_run(list.slice_mut(run), &bodies, &f) };
            });
        }
    }
}

/// Runs `f` on each joint of a run with its bodies ([`with_bodies`]).
/// Not inlined: as parameters, the joints and the bodies' table are known
/// to be apart from the bodies, which the compiler would otherwise reload
/// after every write to a body.
///
/// # Safety
/// As for [`with_bodies`], for every joint of the run.
#[inline(never)]
unsafe fn solve_run<D: DynDim>(
    joints: &mut [JointC<D>],
    bodies: &Shared<SolverBody<D>>,
    f: &impl Fn(&mut JointC<D>, &mut SolverBody<D>, &mut SolverBody<D>),
) {
    let bodies = bodies.reborrow();
    for j in joints {
        // SAFETY: the caller's.
        unsafe { with_bodies(&bodies, j, f) };
    }
}

/// Runs `f` on joint `j` and its bodies: a dynamic body in place, any
/// other (it takes no impulse) as a copy, which is dropped. One arm per
/// case, so that each sees plain references.
///
/// # Safety
/// No other thread reaches `j`'s dynamic bodies meanwhile, nor writes its
/// other bodies.
#[inline(always)]
unsafe fn with_bodies<D: DynDim>(
    bodies: &Shared<SolverBody<D>>,
    j: &mut JointC<D>,
    f: &impl Fn(&mut JointC<D>, &mut SolverBody<D>, &mut SolverBody<D>),
) {
    let (a, b) = (j.a as usize, j.b as usize);
    // SAFETY: the caller's; `a != b` (no joint links a body to itself).
    unsafe {
        match (bodies.get(a).dynamic, bodies.get(b).dynamic) {
            (true, true) => f(j, bodies.get_mut(a), bodies.get_mut(b)),
            (true, false) => {
                let mut copy = *bodies.get(b);
                f(j, bodies.get_mut(a), &mut copy)
            }
            (false, true) => {
                let mut copy = *bodies.get(a);
                f(j, &mut copy, bodies.get_mut(b))
            }
            // Left out when the constraints are built.
            (false, false) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joint::constraint::LengthMode;
    use crate::joint::JointType;
    use glam::Vec2;
    use peng::world::Dim2;

    /// A revolute joint between bodies `a` and `b`.
    fn hinge(a: u32, b: u32, slot: u32) -> JointC<Dim2> {
        JointC {
            slot,
            kind: JointType::Revolute,
            a,
            b,
            ra0: Vec2::ZERO,
            rb0: Vec2::ZERO,
            delta_center: Vec2::ZERO,
            fa0: Dim2::ROT_IDENTITY,
            fb0: Dim2::ROT_IDENTITY,
            ang_mass: Dim2::INV_INERTIA_ZERO,
            limits: None,
            motor: None,
            length_mode: LengthMode::Rigid,
            length: 0.0,
            imp: Default::default(),
            force: Vec2::ZERO,
            torque: 0.0,
            motor_force: 0.0,
        }
    }

    /// No two joints of a colour share a dynamic body; every joint is
    /// kept once; joints with a fixed body come after the others.
    #[test]
    fn joints_of_a_colour_share_no_dynamic_body() {
        // A grid of 30 x 30 bodies, each linked to its right and lower
        // neighbour; the top row's bodies are fixed.
        let n = 30u32;
        let mut bodies = vec![SolverBody::<Dim2>::fixed(); (n * n) as usize];
        for (i, b) in bodies.iter_mut().enumerate() {
            b.dynamic = i as u32 >= n;
        }
        let mut set = ColouredJoints::<Dim2>::default();
        let mut input = Vec::new();
        for r in 0..n {
            for c in 0..n {
                let k = r * n + c;
                if c + 1 < n {
                    input.push(hinge(k, k + 1, input.len() as u32));
                }
                if r + 1 < n {
                    input.push(hinge(k, k + n, input.len() as u32));
                }
            }
        }
        // Joints between two fixed bodies are left out by the world.
        input.retain(|j| j.a >= n || j.b >= n);
        set.colour(0, &bodies, || {
            input.iter().map(|j| (j.slot, j.a, j.b, false))
        });
        let by_slot: std::collections::HashMap<u32, JointC<Dim2>> =
            input.iter().map(|j| (j.slot, *j)).collect();
        set.fill(
            &bodies,
            |slot| by_slot[&slot],
            |_| unreachable!("no hinge in lanes"),
            Kernels::Fast,
        );
        let mut slots: Vec<u32> = set.list().iter().map(|j| j.slot).collect();
        slots.sort_unstable();
        let mut want: Vec<u32> = input.iter().map(|j| j.slot).collect();
        want.sort_unstable();
        assert_eq!(slots, want);
        assert!(set.spans.len() >= 4, "a grid needs four colours");
        let mut seen_fixed = false;
        for span in &set.spans {
            assert!(span.parallel, "no body of a grid is in 40 joints");
            let mut used = std::collections::HashSet::new();
            let joints = &set.list()[span.list.clone()];
            let fixed = joints.iter().filter(|j| j.a < n || j.b < n).count();
            assert!(
                fixed == 0 || fixed == joints.len(),
                "fixed and dynamic joints in a colour"
            );
            let fixed = fixed > 0;
            assert!(!seen_fixed || fixed, "a dynamic colour after a fixed one");
            seen_fixed |= fixed;
            for j in joints {
                for x in [j.a, j.b] {
                    assert!(x < n || used.insert(x), "body {x} twice in a colour");
                }
            }
        }
    }
}
