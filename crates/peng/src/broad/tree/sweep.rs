//! Pair finding by sorting and sweeping, for updates where most proxies
//! changed.
//!
//! Sort and sweep (Baraff, "Dynamic Simulation of Non-Penetrating Rigid
//! Bodies", 1992; Ericson, Real-Time Collision Detection, 7.5.2): the given
//! boxes are sorted by their lower bound on one axis, and each box is tested
//! against the boxes after it that start before it ends on that axis. Every
//! overlapping pair is met exactly once, from its end that sorts first. The
//! axis is the one along which the box centres spread most (largest
//! variance, as Ericson 7.5.2 suggests), so that the fewest boxes share a
//! stretch of it.
//!
//! When most leaves moved, the tree's self traversal (`selfpairs.rs`)
//! opens every node pair whose boxes overlap. In a dense pile of small boxes
//! (Box2D's tumbler: 2,029 proxies) that is 30,000 to 95,000 node pairs a
//! step, each a random read of two nodes: about 5.7 million instructions a
//! step. The sweep tests 130,000 to 140,000 candidates there, but eight at a
//! time, from arrays read in order: about 1.4 million instructions with the
//! sort. Its cost depends on the scene, though: boxes in a column across
//! the sweep axis, or a layer in 3D, share the axis with most others. So
//! the number of candidates is first estimated from a sample of the boxes,
//! and the sweep declines when it exceeds [`MAX_CANDIDATES_PER_PROXY`]; the
//! self traversal then runs as before. (On the MSVC box vector the sweep
//! was as fast as the traversal at 343 candidates per box, 10,000 boxes,
//! and 1.6 times slower at 3,125, 100,000 boxes.)
//!
//! The pairs are those of the given boxes with a changed end, as the other
//! searches find them; only the way to them differs.

use crate::bound::Aabb;
use crate::math::Vector;

use crate::par::*;

use super::super::pairs::pair_of;
use super::super::proxy::{Filter, ProxyId, ProxyPair};
use super::DynamicTree;

/// The most candidates per live proxy the sweep may test (estimated) before
/// it gives way to the self traversal.
const MAX_CANDIDATES_PER_PROXY: usize = 128;

/// How many boxes the choice of axis and the candidate estimate look at
/// (at most).
const SAMPLES: usize = 256;

/// The fewest proxies for which the sweep runs on several threads.
const PARALLEL_PROXIES: usize = 1024;

/// How many pieces a parallel sweep is cut into: several per thread, so
/// uneven pieces even out.
const PIECES: usize = 32;

/// Boxes per block: the bounds of eight candidates are compared at once.
const LANES: usize = 8;

/// A block's bounds on one axis, one lane per box.
type Row = [f32; LANES];

/// The sweep's arrays, kept between updates so their memory is reused.
///
/// The sorted boxes are cut into blocks of [`LANES`]; block `b` is the
/// `1 + 2·(DIM - 1)` rows from `rows[b·R]`: the boxes' lower bounds on the
/// sweep axis, then the lower and upper bounds on each other axis. After the
/// last box come blank lanes and one blank block, whose bounds start after
/// every box ends and overlap nothing.
#[derive(Debug, Clone, Default)]
pub(crate) struct SweepScratch<V> {
    /// (sort key << 32 | live proxy slot), in sweep order.
    order: Vec<u64>,
    /// The sampled boxes, for the axis, and their bounds on it.
    sample_boxes: Vec<Aabb<V>>,
    sample: Vec<(f32, f32)>,
    /// The blocks' rows.
    rows: Vec<Row>,
    /// In sweep order: each box's own bounds `[hi on the sweep axis, (lo,
    /// hi) on each other axis]`, id, whether it changed, and filter (filled
    /// only when some filter is not the default).
    own: Vec<[f32; 5]>,
    ids: Vec<ProxyId>,
    moved: Vec<bool>,
    filters: Vec<Filter>,
    _axes: core::marker::PhantomData<V>,
}

/// A float's bits as an unsigned integer in the same order (negative
/// floats' bits flipped, positive ones' sign bit set). The boxes are
/// sanitized (no NaN), so the order is the floats'.
#[inline]
fn sort_key(x: f32) -> u32 {
    let b = x.to_bits();
    if b & 0x8000_0000 != 0 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// The axis along which the boxes' centres have the largest variance.
fn spread_axis<V: Vector>(boxes: impl Iterator<Item = Aabb<V>>) -> usize {
    let (mut sum, mut sq, mut n) = ([0f64; 3], [0f64; 3], 0f64);
    for b in boxes {
        for i in 0..V::DIM {
            let c = 0.5 * (b.min.get(i) as f64 + b.max.get(i) as f64);
            sum[i] += c;
            sq[i] += c * c;
        }
        n += 1.0;
    }
    let mut best = (0, f64::NEG_INFINITY);
    for i in 0..V::DIM {
        let var = sq[i] - sum[i] * sum[i] / n.max(1.0);
        if var > best.1 {
            best = (i, var);
        }
    }
    best.0
}

/// The axes other than `axis` (the first `DIM - 1` entries are used).
fn other_axes<V: Vector>(axis: usize) -> [usize; 2] {
    let mut out = [0; 2];
    for (k, d) in (0..V::DIM).filter(|&d| d != axis).enumerate() {
        out[k] = d;
    }
    out
}

/// Rows per block for boxes of `V`.
const fn rows_per_block<V: Vector>() -> usize {
    1 + 2 * (V::DIM - 1)
}

impl<V: Vector> DynamicTree<V> {
    /// Pushes onto `found` every pair with a changed live proxy whose given
    /// boxes overlap and whose filters agree, each once, by sort and sweep
    /// (see the module documentation); or returns `false`, having found
    /// nothing, when the sweep would test too many candidates.
    pub(super) fn find_pairs_swept(&mut self) -> bool {
        let n = self.table.len();
        if n < 2 {
            return true;
        }
        let mut s = core::mem::take(&mut self.sweep);
        let axis = self.take_sample(&mut s);
        if estimated_candidates(&mut s.sample, n) > MAX_CANDIDATES_PER_PROXY * n {
            self.sweep = s;
            return false;
        }
        self.sort_live(&mut s, axis);
        self.lay_out(&mut s, axis);
        // Every live proxy changed: the changed list (each slot once) has as
        // many entries as there are live proxies, and only live ones (a
        // removal lists its slot too, so the count alone could mislead).
        let t = &self.table;
        let all = t.dirty_list.len() >= n && t.dirty_list.iter().all(|&slot| t.alive(slot));
        let filtered = self.filtered > 0;
        match (all, filtered) {
            (true, false) => sweep_all::<V, true, false>(&s, &mut self.found),
            (true, true) => sweep_all::<V, true, true>(&s, &mut self.found),
            (false, false) => sweep_all::<V, false, false>(&s, &mut self.found),
            (false, true) => sweep_all::<V, false, true>(&s, &mut self.found),
        }
        self.sweep = s;
        true
    }

    /// Picks up to [`SAMPLES`] live boxes evenly over the proxy table, and
    /// puts their bounds on the axis of their largest spread into
    /// `s.sample`; returns the axis.
    fn take_sample(&self, s: &mut SweepScratch<V>) -> usize {
        let slots = &self.table.slots;
        let stride = slots.len().div_ceil(SAMPLES).max(1);
        s.sample_boxes.clear();
        s.sample_boxes.extend(
            slots
                .iter()
                .step_by(stride)
                .filter(|slot| slot.alive)
                .map(|slot| slot.info.aabb),
        );
        let axis = spread_axis(s.sample_boxes.iter().copied());
        s.sample.clear();
        s.sample.extend(
            s.sample_boxes
                .iter()
                .map(|b| (b.min.get(axis), b.max.get(axis))),
        );
        axis
    }

    /// Sorts the live proxies by lower bound on `axis` into `s.order`.
    fn sort_live(&self, s: &mut SweepScratch<V>, axis: usize) {
        let live = self.table.slots.iter().enumerate();
        s.order.clear();
        s.order.extend(
            live.filter(|(_, slot)| slot.alive).map(|(i, slot)| {
                ((sort_key(slot.info.aabb.min.get(axis)) as u64) << 32) | i as u64
            }),
        );
        crate::sort::unstable(&mut s.order);
    }

    /// Fills the blocks and the per-box arrays in sweep order.
    fn lay_out(&self, s: &mut SweepScratch<V>, axis: usize) {
        let t = &self.table;
        let others = other_axes::<V>(axis);
        let d = V::DIM - 1;
        let r = rows_per_block::<V>();
        let n = s.order.len();
        let blocks = n.div_ceil(LANES) + 1;
        // Blank rows: lower bounds +inf, upper bounds -inf.
        s.rows.clear();
        s.rows.resize(blocks * r, [f32::INFINITY; LANES]);
        for b in 0..blocks {
            for a in 0..d {
                s.rows[b * r + 2 + 2 * a] = [f32::NEG_INFINITY; LANES];
            }
        }
        s.own.clear();
        s.ids.clear();
        s.moved.clear();
        s.filters.clear();
        let filtered = self.filtered > 0;
        for (k, &key) in s.order.iter().enumerate() {
            let i = key as u32;
            let slot = &t.slots[i as usize];
            let b = &slot.info.aabb;
            let (block, lane) = (k / LANES * r, k % LANES);
            s.rows[block][lane] = b.min.get(axis);
            let mut own = [b.max.get(axis), 0.0, 0.0, 0.0, 0.0];
            for (a, &axis) in others.iter().enumerate().take(d) {
                let (lo, hi) = (b.min.get(axis), b.max.get(axis));
                s.rows[block + 1 + 2 * a][lane] = lo;
                s.rows[block + 2 + 2 * a][lane] = hi;
                own[1 + 2 * a] = lo;
                own[2 + 2 * a] = hi;
            }
            s.own.push(own);
            s.ids.push(ProxyId::from_parts(i, slot.generation));
            s.moved.push(t.dirty[i as usize]);
            if filtered {
                s.filters.push(slot.info.filter);
            }
        }
    }
}

/// An estimate of how many candidates the sweep of all `n` boxes tests,
/// from a sample of them (their bounds on the sweep axis): the sweep's
/// candidates within the sample, times `(n / m)²` for a sample of `m`
/// (each pair of boxes is in the sample with that chance squared). An empty
/// sample (every sampled slot dead) is no evidence: the estimate is then
/// `usize::MAX`, and the sweep declines.
fn estimated_candidates(sample: &mut [(f32, f32)], n: usize) -> usize {
    let m = sample.len();
    if m == 0 {
        return usize::MAX;
    }
    crate::sort::unstable_by(sample, |x, y| x.0.total_cmp(&y.0));
    let mut count = 0usize;
    for (i, &(_, end)) in sample.iter().enumerate() {
        count += sample[i + 1..].partition_point(|&(lo, _)| lo <= end);
    }
    let scale = n as f64 / m as f64;
    (count as f64 * scale * scale) as usize
}

/// Runs the sweep over every box, on rayon's threads when there are
/// several and enough boxes; the pieces' pairs are appended in order.
fn sweep_all<V: Vector, const ALL: bool, const FILTERED: bool>(
    s: &SweepScratch<V>,
    found: &mut Vec<ProxyPair>,
) {
    let n = s.ids.len();
    if crate::par::threads() > 1 && n >= PARALLEL_PROXIES {
        let step = n.div_ceil(PIECES);
        let parts: Vec<Vec<ProxyPair>> = (0..PIECES)
            .into_par_iter()
            .map(|p| {
                let mut out = Vec::new();
                let range = (p * step).min(n)..((p + 1) * step).min(n);
                sweep_range::<V, ALL, FILTERED>(s, range, &mut out);
                out
            })
            .collect();
        for part in parts {
            found.extend(part);
        }
    } else {
        sweep_range::<V, ALL, FILTERED>(s, 0..n, found);
    }
}

/// The sweep for the boxes of `range` (sweep-order positions): each is
/// tested against the boxes after it that start no later than it ends on
/// the sweep axis, a block at a time. `ALL`: every box changed (no flags
/// read); `FILTERED`: some filter is not the default.
fn sweep_range<V: Vector, const ALL: bool, const FILTERED: bool>(
    s: &SweepScratch<V>,
    range: core::ops::Range<usize>,
    out: &mut Vec<ProxyPair>,
) {
    let r = rows_per_block::<V>();
    for i in range {
        let own = s.own[i];
        let first = (i + 1) / LANES;
        // Lanes before `i + 1` in the first block are not candidates.
        let mut keep = !0u32 << ((i + 1) % LANES);
        for (b, block) in s.rows[first * r..].chunks_exact(r).enumerate() {
            let mut mask = block_mask::<V>(block, &own) & keep;
            keep = !0;
            while mask != 0 {
                let k = (first + b) * LANES + mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if (ALL || s.moved[i] || s.moved[k])
                    && (!FILTERED || s.filters[i].pairs_with(&s.filters[k]))
                {
                    out.push(pair_of(s.ids[i], s.ids[k]));
                }
            }
            // Later boxes start later: once a block's last box starts after
            // this one ends, so do all the rest (the blank block ends the
            // walk at the latest).
            if block[0][LANES - 1] > own[0] {
                break;
            }
        }
    }
}

/// Bit `k` set when box `k` of `block` starts on the sweep axis no later
/// than `own[0]` and overlaps `own[1 + 2a]..=own[2 + 2a]` on each other
/// axis `a`. Box `k` then overlaps the box `own` came from, if that one
/// sorts before it (it starts no later, so it reaches `k`'s start).
///
/// On x86-64, two 4-lane SSE compares per row (SSE2 is part of every x86-64
/// CPU); elsewhere the same test lane by lane.
#[inline(always)]
fn block_mask<V: Vector>(block: &[Row], own: &[f32; 5]) -> u32 {
    let d = V::DIM - 1;
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{__m128, _mm_and_ps, _mm_cmple_ps, _mm_loadu_ps};
        use core::arch::x86_64::{_mm_movemask_ps, _mm_set1_ps};
        // SAFETY: SSE2 is in the x86-64 baseline, and every load reads four
        // floats from a row of eight at offset 0 or 4.
        unsafe {
            let half = |row: &Row, h: usize| -> __m128 { _mm_loadu_ps(row.as_ptr().add(4 * h)) };
            let end = _mm_set1_ps(own[0]);
            let mut m = [
                _mm_cmple_ps(half(&block[0], 0), end),
                _mm_cmple_ps(half(&block[0], 1), end),
            ];
            for a in 0..d {
                let (lo, hi) = (&block[1 + 2 * a], &block[2 + 2 * a]);
                let (own_lo, own_hi) = (_mm_set1_ps(own[1 + 2 * a]), _mm_set1_ps(own[2 + 2 * a]));
                for (h, mh) in m.iter_mut().enumerate() {
                    let ok = _mm_and_ps(
                        _mm_cmple_ps(half(lo, h), own_hi),
                        _mm_cmple_ps(own_lo, half(hi, h)),
                    );
                    *mh = _mm_and_ps(*mh, ok);
                }
            }
            (_mm_movemask_ps(m[0]) | (_mm_movemask_ps(m[1]) << 4)) as u32
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut mask = 0u32;
        // Lane k of every row: an index loop reads plainest here.
        #[allow(clippy::needless_range_loop)]
        for k in 0..LANES {
            let mut ok = block[0][k] <= own[0];
            for a in 0..d {
                ok &= (block[1 + 2 * a][k] <= own[2 + 2 * a])
                    & (own[1 + 2 * a] <= block[2 + 2 * a][k]);
            }
            mask |= (ok as u32) << k;
        }
        mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bound::{Aabb2, Aabb3};
    use crate::broad::BroadPhase;
    use crate::math::{Vec2, Vec3};

    /// A small xorshift generator: the tests need no statistical quality,
    /// only reproducible spread.
    struct Rng(u64);

    impl Rng {
        fn unit(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }

        /// A coordinate in `-r..r`, snapped to a coarse grid one time in
        /// four so that bounds coincide and boxes touch.
        fn coord(&mut self, r: f32) -> f32 {
            let x = (2.0 * self.unit() - 1.0) * r;
            if self.unit() < 0.25 {
                (x * 2.0).round() / 2.0
            } else {
                x
            }
        }
    }

    /// Every pair of live proxies with a dirty end whose given boxes overlap
    /// and whose filters agree, sorted.
    fn brute_pairs<V: Vector>(tree: &DynamicTree<V>) -> Vec<ProxyPair> {
        let t = &tree.table;
        let live: Vec<u32> = t.live().collect();
        let mut out = Vec::new();
        for (x, &a) in live.iter().enumerate() {
            for &b in &live[x + 1..] {
                if (t.dirty[a as usize] || t.dirty[b as usize]) && t.pair_passes(a, b) {
                    let id = |i: u32| ProxyId::from_parts(i, t.slots[i as usize].generation);
                    out.push(pair_of(id(a), id(b)));
                }
            }
        }
        crate::sort::unstable(&mut out);
        out
    }

    /// The sweep's pairs, sorted; `None` if it declined.
    fn swept_pairs<V: Vector>(tree: &mut DynamicTree<V>) -> Option<Vec<ProxyPair>> {
        tree.found.clear();
        if !tree.find_pairs_swept() {
            assert!(tree.found.is_empty(), "a declined sweep found pairs");
            return None;
        }
        let mut found = core::mem::take(&mut tree.found);
        crate::sort::unstable(&mut found);
        Some(found)
    }

    /// Random boxes of mixed sizes (a few huge, some flat, some points),
    /// some filtered, then a random share moved: the sweep finds exactly the
    /// brute-force pairs, each once, at every share and in either dimension.
    fn check_random<V: Vector>(make: impl Fn(&mut Rng, f32) -> Aabb<V>) {
        for seed in 1..=24u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut tree = DynamicTree::<V>::new();
            let n = 50 + (rng.unit() * 400.0) as usize;
            let mut ids = Vec::new();
            for k in 0..n {
                let filter = if seed % 3 == 0 && k % 5 == 0 {
                    Filter::new(1 << (k % 3), 0b101)
                } else {
                    Filter::ALL
                };
                let b = make(&mut rng, 20.0);
                ids.push(tree.insert(b, k as u64, filter).unwrap());
            }
            // Remove a few, so that dead slots sit between live ones.
            for k in (0..n).step_by(17) {
                tree.remove(ids[k]).unwrap();
            }
            // First update: every proxy is new.
            let expect = brute_pairs(&tree);
            assert_eq!(swept_pairs(&mut tree), Some(expect), "seed {seed}, all new");
            tree.update_pairs();
            // Then remove a few more (their slots count as changed) and move
            // a share of the rest.
            let gone = |k: usize| k.is_multiple_of(17) || k % 13 == 5;
            for k in (0..n).filter(|&k| !k.is_multiple_of(17) && gone(k)) {
                tree.remove(ids[k]).unwrap();
            }
            let share = 0.5 + 0.5 * rng.unit();
            for (k, &id) in ids.iter().enumerate() {
                if !gone(k) && rng.unit() < share {
                    let b = make(&mut rng, 20.0);
                    tree.move_proxy(id, b, V::ZERO).unwrap();
                }
            }
            let expect = brute_pairs(&tree);
            assert_eq!(
                swept_pairs(&mut tree),
                Some(expect),
                "seed {seed}, share {share}"
            );
        }
    }

    fn random_box2(rng: &mut Rng, r: f32) -> Aabb2 {
        let c = Vec2::new(rng.coord(r), rng.coord(r));
        let size = match (rng.unit() * 10.0) as u32 {
            0 => Vec2::new(3.0 * r * rng.unit(), 0.0), // flat or huge
            1 => Vec2::ZERO,                           // a point
            _ => Vec2::new(rng.unit(), rng.unit()) * 2.0,
        };
        Aabb2::new(c - size, c + size)
    }

    fn random_box3(rng: &mut Rng, r: f32) -> Aabb3 {
        let c = Vec3::new(rng.coord(r), rng.coord(r), rng.coord(r));
        let size = match (rng.unit() * 10.0) as u32 {
            0 => Vec3::new(3.0 * r * rng.unit(), 0.0, 3.0 * r * rng.unit()),
            1 => Vec3::ZERO,
            _ => Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 4.0,
        };
        Aabb3::new(c - size, c + size)
    }

    #[test]
    fn sweep_finds_exactly_the_brute_force_pairs_in_2d() {
        check_random(random_box2);
    }

    #[test]
    fn sweep_finds_exactly_the_brute_force_pairs_in_3d() {
        check_random(random_box3);
    }

    /// Removals list their slots as changed too: with two removed and all
    /// but two of the rest moved, the changed list is as long as the live
    /// proxies, yet the two unmoved ones (which overlap) are not new. The
    /// update keeps their pair once, and every pair is exact.
    #[test]
    fn removals_do_not_pass_for_changed_proxies() {
        let mut tree = DynamicTree::<Vec2>::new();
        let mut ids = Vec::new();
        for k in 0..12 {
            // A row of overlapping unit boxes, each over its neighbours.
            let c = Vec2::new(k as f32 * 0.5, 0.0);
            ids.push(
                tree.insert(Aabb2::new(c, c + Vec2::ONE), k, Filter::ALL)
                    .unwrap(),
            );
        }
        tree.update_pairs();
        tree.remove(ids[10]).unwrap();
        tree.remove(ids[11]).unwrap();
        // Move all but boxes 0 and 1 (which overlap) a little.
        for &id in &ids[2..10] {
            let b = tree.proxy(id).unwrap().aabb;
            let d = Vec2::new(0.0, 0.01);
            tree.move_proxy(id, Aabb2::new(b.min + d, b.max + d), d)
                .unwrap();
        }
        let expect = brute_pairs(&tree);
        assert_eq!(swept_pairs(&mut tree), Some(expect));
        tree.update_pairs();
        let mut all: Vec<ProxyPair> = tree.pairs().to_vec();
        let len = all.len();
        all.dedup();
        assert_eq!(all.len(), len, "a pair listed twice");
        // Each box overlaps its next two neighbours (10 live boxes).
        assert_eq!(len, 9 + 8);
    }

    /// The sample takes every third slot of 600; with exactly those slots
    /// removed it holds no live box, so there is no estimate: the sweep
    /// declines rather than run blind, and the update is still exact.
    #[test]
    fn an_empty_sample_declines() {
        let mut tree = DynamicTree::<Vec2>::new();
        let mut ids = Vec::new();
        for k in 0..600u64 {
            let c = Vec2::new(k as f32 * 0.5, 0.0);
            ids.push(
                tree.insert(Aabb2::new(c, c + Vec2::ONE), k, Filter::ALL)
                    .unwrap(),
            );
        }
        tree.update_pairs();
        let stride = 600usize.div_ceil(SAMPLES);
        for (k, &id) in ids.iter().enumerate() {
            if k % stride == 0 {
                tree.remove(id).unwrap();
            }
        }
        assert_eq!(swept_pairs(&mut tree), None);
        tree.update_pairs();
        // Boxes 0.5 apart and 1 wide: each live box touches the next live
        // one (at most 1 further on), and no other.
        let live = (0..600).filter(|k| k % stride != 0).count();
        assert_eq!(tree.pairs().len(), live - 1);
    }

    #[test]
    #[cfg(feature = "parallel")]
    fn sweep_runs_the_same_on_several_threads() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let mut rng = Rng(7);
        let mut tree = DynamicTree::<Vec2>::new();
        for k in 0..3000 {
            // Small boxes only (no huge ones), so the sweep takes them.
            let c = Vec2::new(rng.coord(60.0), rng.coord(60.0));
            let h = Vec2::new(rng.unit(), rng.unit());
            tree.insert(Aabb2::new(c - h, c + h), k, Filter::ALL)
                .unwrap();
        }
        let expect = brute_pairs(&tree);
        let got = pool.install(|| swept_pairs(&mut tree));
        assert_eq!(got, Some(expect));
    }

    /// Boxes stacked in one column along every axis in turn share the sweep
    /// axis whichever it is: the sweep declines, and the update still finds
    /// every pair (by the tree).
    #[test]
    fn sweep_declines_when_the_boxes_share_the_axis() {
        let mut tree = DynamicTree::<Vec2>::new();
        // A diagonal of long boxes: each spans the whole range on both axes.
        for k in 0..600 {
            let c = Vec2::splat(k as f32 * 0.1);
            tree.insert(
                Aabb2::new(c - Vec2::splat(100.0), c + Vec2::splat(100.0)),
                k,
                Filter::ALL,
            )
            .unwrap();
        }
        assert_eq!(swept_pairs(&mut tree), None);
        assert_eq!(tree.update_pairs().began.len(), 600 * 599 / 2);
    }

    /// One box whose right side touches the left sides of 40 others, which
    /// fill several blocks with the same lower bound on the sweep axis:
    /// every touching pair is found (the walk goes on past blocks that start
    /// exactly where the box ends).
    #[test]
    fn touching_boxes_in_later_blocks_are_found() {
        let mut tree = DynamicTree::<Vec2>::new();
        tree.insert(
            Aabb2::new(Vec2::new(-1.0, 0.0), Vec2::new(0.0, 50.0)),
            0,
            Filter::ALL,
        )
        .unwrap();
        for k in 0..40 {
            let y = k as f32;
            tree.insert(
                Aabb2::new(Vec2::new(0.0, y), Vec2::new(0.5, y + 0.5)),
                1 + k,
                Filter::ALL,
            )
            .unwrap();
            // Far boxes spread along x, so that x is the sweep axis.
            let x = 1000.0 + 100.0 * y;
            tree.insert(
                Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0)),
                100 + k,
                Filter::ALL,
            )
            .unwrap();
        }
        let pairs = swept_pairs(&mut tree).unwrap();
        assert_eq!(pairs, brute_pairs(&tree));
        assert_eq!(pairs.len(), 40);
    }

    #[test]
    fn sort_keys_keep_the_order_of_floats() {
        let xs = [
            f32::NEG_INFINITY,
            -1.0e18,
            -2.5,
            -1.0e-30,
            -0.0,
            0.0,
            1.0e-30,
            3.0,
            1.0e18,
            f32::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(sort_key(w[0]) <= sort_key(w[1]), "{} {}", w[0], w[1]);
            if w[0] < w[1] {
                assert!(sort_key(w[0]) < sort_key(w[1]), "{} {}", w[0], w[1]);
            }
        }
    }
}
