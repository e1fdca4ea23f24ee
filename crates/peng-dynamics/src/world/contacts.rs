//! The step's contact constraints: one per manifold of every touching pair
//! with an awake dynamic body, warm-started from the last step's impulses
//! and packed into the solver's lanes.
//!
//! Building a constraint (its anchors, impact velocities and warm-start
//! impulses; the effective masses and the normal rows' Delassus matrix are
//! computed later in the lanes, `Lanes::masses`) depends on its pair alone
//! and is most of the work. Packing (a lane in a block of the right colour) must go
//! in pair order, so that the lanes, and so the results, are the same on any
//! number of threads.
//!
//! - On one thread, or with few pairs, each constraint is packed just after
//!   it is built, while it is in cache.
//! - On more, the touching pairs are cut into chunks. The threads claim
//!   chunks in order and build them into buffers, while the calling thread
//!   packs each finished chunk in turn; whenever the next chunk is not
//!   ready it builds one itself instead of waiting. A buffer is read back a
//!   few chunks after it was written, from cache. (Building every
//!   constraint first and packing after read them all back from memory and
//!   gained little; see BENCHMARKS.md.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use peng::math::Vector;
use peng::world::{ColliderHandle, World};

use super::{ColliderInfo, PhysicsWorld, WarmStart};
use crate::dim::DynDim;
use crate::solver::body::SolverBody;
use crate::solver::contact::{impact_velocity, ContactC, ContactParams, ContactPointC, MAX_POINTS};
use crate::solver::Lanes;

/// A constraint's key: the collider pair and the manifold's parts.
pub(crate) type ContactKey = (ColliderHandle, ColliderHandle, u32, u32);

/// A buffer of the threaded build: a chunk's built constraints, in pair
/// order, and which chunk they are (`i + 1` for chunk `i` once built, 0
/// while none is).
pub(crate) struct ChunkBuffer<D: DynDim> {
    built: Mutex<Vec<(ContactC<D>, ContactKey)>>,
    holds: AtomicUsize,
}

impl<D: DynDim> Default for ChunkBuffer<D> {
    fn default() -> Self {
        ChunkBuffer {
            built: Mutex::new(Vec::new()),
            holds: AtomicUsize::new(0),
        }
    }
}

/// Touching pairs per chunk of the threaded build (about 10 µs of work).
const CHUNK: usize = 32;

/// Chunk buffers per thread of the threaded build: enough that the
/// builders rarely wait for the packing, few enough to stay in cache.
const SLOTS_PER_THREAD: usize = 4;

/// Below this many touching pairs, the calling thread builds and packs
/// alone.
const THREADED_MIN: usize = 1024;

/// What building a pair's constraints reads.
struct Sources<'a, D: DynDim> {
    colliders: &'a [Option<ColliderInfo<D>>],
    bodies: &'a [SolverBody<D>],
    coms: &'a [D::V],
    /// The last step's contacts, for warm starting.
    warm: &'a WarmStart<D::V>,
    /// The substep.
    h: f32,
}

impl<D: DynDim> Sources<'_, D> {
    /// The index of the last step's first contact of pair `(ha, hb)` or of
    /// a later pair (they are sorted by pair), searched from `guess`
    /// outwards in doubling steps, then by bisection: when the guess is
    /// close, the entries read lie near each other, where a bisection of
    /// the whole list reads some twenty entries far apart.
    fn cache_start(&self, ha: ColliderHandle, hb: ColliderHandle, guess: usize) -> usize {
        let cache = &self.warm.keys[..];
        let before = |i: usize| (cache[i].0, cache[i].1) < (ha, hb);
        let guess = guess.min(cache.len());
        // The answer lies in `lo..=hi`.
        let (mut lo, mut hi) = (guess, guess);
        let mut step = 1;
        if guess < cache.len() && before(guess) {
            lo = guess + 1;
            hi = lo.min(cache.len());
            while hi < cache.len() && before(hi) {
                lo = hi + 1;
                step *= 2;
                hi = (hi + step).min(cache.len());
            }
        } else {
            while lo > 0 && !before(lo - 1) {
                hi = lo - 1;
                lo = lo.saturating_sub(step);
                step *= 2;
            }
        }
        lo + cache[lo..hi].partition_point(|e| (e.0, e.1) < (ha, hb))
    }

    /// Builds the constraints of touching pair `(ha, hb)`, one per manifold
    /// with points, and hands each to `emit`; none when neither body is an
    /// awake dynamic one. `cursor` is an index into the last step's
    /// contacts at or before the pair's first, and is left at it.
    fn pair(
        &self,
        (ha, hb): (ColliderHandle, ColliderHandle),
        manifolds: &[D::Manifold],
        cursor: &mut usize,
        mut emit: impl FnMut(&ContactC<D>, ContactKey),
    ) {
        let keys = &self.warm.keys[..];
        while *cursor < keys.len() && (keys[*cursor].0, keys[*cursor].1) < (ha, hb) {
            *cursor += 1;
        }
        let mut end = *cursor;
        while end < keys.len() && (keys[end].0, keys[end].1) == (ha, hb) {
            end += 1;
        }
        let first = *cursor;
        let (Some(ia), Some(ib)) = (
            self.colliders[ha.index() as usize].as_ref(),
            self.colliders[hb.index() as usize].as_ref(),
        ) else {
            return;
        };
        let (a, b) = (ia.body.index as usize, ib.body.index as usize);
        let (sa, sb) = (&self.bodies[a], &self.bodies[b]);
        // Pairs with no awake dynamic body need no solving (asleep on the
        // ground, or two static bodies).
        if a == b || !(sa.dynamic || sb.dynamic) {
            return;
        }
        let friction = (ia.friction * ib.friction).sqrt();
        let restitution = ia.restitution.max(ib.restitution);
        for m in manifolds {
            let pts = D::points(m);
            if pts.is_empty() {
                continue;
            }
            let n = D::normal(m);
            let (tangents, nt) = D::tangents(n);
            let mut c = ContactC {
                a: a as u32,
                b: b as u32,
                normal: n,
                tangents,
                n_tangents: nt as u8,
                len: 0,
                friction,
                restitution,
                against_fixed: !(sa.dynamic && sb.dynamic),
                points: [ContactPointC::<D>::EMPTY; MAX_POINTS],
                #[cfg(test)]
                k: [[0.0; MAX_POINTS]; MAX_POINTS],
            };
            let (pa, pb) = D::parts(m);
            let key = (ha, hb, pa, pb);
            // The same manifold's points last step, if it had one.
            let cached = (first..end).find(|&k| keys[k] == key).map_or(&[][..], |k| {
                let span = &self.warm.points[k..k + 2];
                &self.warm.impulses[span[0] as usize..span[1] as usize]
            });
            for p in pts.iter().take(MAX_POINTS) {
                let mid = (p.point_a + p.point_b) * 0.5;
                let (ra, rb) = (mid - self.coms[a], mid - self.coms[b]);
                let a_n = (sb.accel - sa.accel).dot(n);
                // The impact speed serves restitution alone: a pair that
                // does not bounce skips the bodies' point velocities.
                let impact = if restitution > 0.0 {
                    let dv = sb.velocity_at(rb) - sa.velocity_at(ra);
                    impact_velocity(-p.depth, dv.dot(n), a_n, self.h)
                } else {
                    0.0
                };
                let (warm_n, warm_t) = cached
                    .iter()
                    .find(|(id, _, _)| *id == p.id.0)
                    .map_or((0.0, D::V::ZERO), |e| (e.1, e.2));
                c.points[c.len as usize] = ContactPointC {
                    ra,
                    rb,
                    base_sep: -p.depth - (rb - ra).dot(n),
                    // The masses and `K` are computed in the lanes
                    // (`Lanes::masses`), eight manifolds at a time.
                    #[cfg(test)]
                    normal_mass: 0.0,
                    #[cfg(test)]
                    tangent_mass: [0.0; 2],
                    normal_impulse: warm_n,
                    tangent_impulse: [warm_t.dot(tangents[0]), warm_t.dot(tangents[1])],
                    max_normal_impulse: 0.0,
                    relative_velocity: impact,
                    restitution_bias: -0.5 * a_n * self.h,
                    id: p.id,
                };
                c.len += 1;
            }
            emit(&c, key);
        }
    }

    /// Builds the constraints of the touching pairs `range` into `out`
    /// (emptied first).
    fn chunk(
        &self,
        world: &World<D>,
        range: core::ops::Range<usize>,
        out: &mut Vec<(ContactC<D>, ContactKey)>,
    ) {
        out.clear();
        // There are about as many contacts per touching pair all along:
        // the place in proportion is a close guess.
        let per_pair = self.warm.keys.len() as f64 / world.touching_len().max(1) as f64;
        let guess = (range.start as f64 * per_pair) as usize;
        let mut cursor = None;
        for (ha, hb, manifolds) in world.touching_contacts_in(range) {
            let at = cursor.get_or_insert_with(|| self.cache_start(ha, hb, guess));
            self.pair((ha, hb), manifolds, at, |c, k| out.push((*c, k)));
        }
    }
}

/// Packs built constraints into the lanes, numbering them and their points
/// in the order they come.
struct Packer<'a, D: DynDim> {
    lanes: &'a mut Lanes<D>,
    pairs: &'a mut Vec<(u32, u32)>,
    keys: &'a mut Vec<ContactKey>,
    /// Each constraint's first point slot; one more entry, the total, at
    /// the end.
    points: &'a mut Vec<u32>,
    bodies: &'a Vec<SolverBody<D>>,
    params: &'a ContactParams,
    next_point: u32,
}

impl<D: DynDim> Packer<'_, D> {
    fn push(&mut self, c: &ContactC<D>, key: ContactKey) {
        let id = self.pairs.len() as u32;
        self.lanes
            .add(self.bodies, c, id, self.next_point, self.params);
        self.pairs.push((c.a, c.b));
        self.keys.push(key);
        self.points.push(self.next_point);
        self.next_point += c.len as u32;
    }

    fn finish(self) {
        self.points.push(self.next_point);
    }
}

impl<D: DynDim> PhysicsWorld<D> {
    /// One contact constraint per manifold of every touching pair with a
    /// dynamic body, warm-started from the cache, in the lanes; the same
    /// lanes on any number of threads.
    pub(super) fn build_contacts(&mut self, h: f32, params: &ContactParams) {
        self.lanes.clear(self.kernels());
        self.contact_pairs.clear();
        self.contact_keys.clear();
        self.contact_points.clear();
        let mut coms = core::mem::take(&mut self.coms);
        coms.clear();
        coms.extend(
            self.bodies
                .iter()
                .map(|s| s.body.as_ref().map_or(D::V::ZERO, |b| b.world_com())),
        );
        let src = Sources {
            colliders: &self.colliders,
            bodies: &self.solver_bodies,
            coms: &coms,
            warm: &self.warm,
            h,
        };
        let mut packer = Packer {
            lanes: &mut self.lanes,
            pairs: &mut self.contact_pairs,
            keys: &mut self.contact_keys,
            points: &mut self.contact_points,
            bodies: &self.solver_bodies,
            params,
            next_point: 0,
        };
        let world = &self.collision;
        if rayon::current_num_threads() > 1 && world.touching_len() >= THREADED_MIN {
            build_threaded(&src, world, &mut packer, &mut self.contact_chunks);
        } else {
            // The last step's contacts and the touching pairs are both
            // sorted by pair: one cursor walks them alongside.
            let mut cursor = 0usize;
            for (ha, hb, manifolds) in world.touching_contacts() {
                src.pair((ha, hb), manifolds, &mut cursor, |c, k| packer.push(c, k));
            }
        }
        packer.finish();
        self.coms = coms;
    }
}

/// The threaded build (see the module documentation): chunks of [`CHUNK`]
/// touching pairs built on rayon's threads and packed in order by the
/// calling thread. Chunk `i` is built into buffer `i % slots.len()` of
/// `slots` (grown as needed, kept from step to step), and may be claimed
/// only once the chunk that last used its buffer is packed: the few buffers
/// in use stay in cache.
fn build_threaded<D: DynDim>(
    src: &Sources<'_, D>,
    world: &World<D>,
    packer: &mut Packer<'_, D>,
    slots: &mut Vec<ChunkBuffer<D>>,
) {
    let threads = rayon::current_num_threads();
    let ring = SLOTS_PER_THREAD * threads;
    if slots.len() < ring {
        slots.resize_with(ring, Default::default);
    }
    let slots = &slots[..ring];
    // Last step's chunks are no longer ready.
    for slot in slots {
        slot.holds.store(0, Ordering::Relaxed);
    }
    let pairs = world.touching_len();
    let n = pairs.div_ceil(CHUNK);
    let ready = |i: usize| slots[i % ring].holds.load(Ordering::Acquire) == i + 1;
    // Chunks claimed, and chunks packed (whose buffers are free again).
    let (next, packed) = (AtomicUsize::new(0), AtomicUsize::new(0));
    // Claims the next chunk and builds it, when there is one and its buffer
    // is free.
    let build_next = || -> Claim {
        let mut i = next.load(Ordering::Relaxed);
        loop {
            if i >= n {
                return Claim::Done;
            }
            if i >= packed.load(Ordering::Acquire) + ring {
                return Claim::Full;
            }
            match next.compare_exchange_weak(i, i + 1, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => break,
                Err(now) => i = now,
            }
        }
        let slot = &slots[i % ring];
        {
            let mut out = slot.built.lock().unwrap_or_else(PoisonError::into_inner);
            src.chunk(world, i * CHUNK..((i + 1) * CHUNK).min(pairs), &mut out);
        }
        slot.holds.store(i + 1, Ordering::Release);
        Claim::Built
    };
    rayon::join(
        || {
            for i in 0..n {
                // A chunk not ready is either claimed now (its buffer is
                // free: every earlier chunk is packed) or already claimed by
                // a running thread, whose buffer was free: either way it is
                // finished, and the wait ends.
                while !ready(i) {
                    if build_next() != Claim::Built {
                        std::hint::spin_loop();
                    }
                }
                {
                    let built = slots[i % ring]
                        .built
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner);
                    for (c, key) in built.iter() {
                        packer.push(c, *key);
                    }
                }
                packed.store(i + 1, Ordering::Release);
            }
        },
        || {
            (1..threads).into_par_iter().for_each(|_| loop {
                match build_next() {
                    Claim::Built => {}
                    Claim::Full => std::hint::spin_loop(),
                    Claim::Done => break,
                }
            })
        },
    );
}

/// What an attempt to claim a chunk did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claim {
    /// Claimed and built one.
    Built,
    /// The next chunk's buffer is still to be packed.
    Full,
    /// Every chunk is claimed.
    Done,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::test_rng::Rng;
    use peng::world::Dim2;

    /// The search from a guess finds what a bisection of the whole cache
    /// finds, for pairs in the cache, between its pairs and beyond its
    /// ends, from guesses anywhere (past the end too).
    #[test]
    fn cache_start_from_any_guess_matches_bisection() {
        let mut rng = Rng(7);
        let h = |i: u32| ColliderHandle::from_parts(i, 0);
        for len in [0usize, 1, 2, 5, 64, 300] {
            // Sorted pairs (i, i + 1) with even i, one to three contacts
            // (manifolds of parts) each.
            let mut warm = WarmStart::<glam::Vec2>::default();
            let mut i = 0;
            while warm.keys.len() < len {
                let n = 1 + (rng.range(0.0, 3.0) as usize);
                for part in 0..n.min(len - warm.keys.len()) {
                    warm.keys.push((h(i), h(i + 1), part as u32, 0));
                }
                i += 2;
            }
            let src = Sources::<Dim2> {
                colliders: &[],
                bodies: &[],
                coms: &[],
                warm: &warm,
                h: 0.0,
            };
            let cache = &warm.keys;
            for a in 0..i + 3 {
                let want = cache.partition_point(|e| (e.0, e.1) < (h(a), h(a + 1)));
                for guess in 0..len + 3 {
                    assert_eq!(
                        src.cache_start(h(a), h(a + 1), guess),
                        want,
                        "len {len}, pair {a}, guess {guess}"
                    );
                }
            }
        }
    }
}
