//! Shared helpers of the broad-phase tests: scene generators and brute-force
//! references written independently of the structures under test.
#![allow(dead_code)]

use peng::bound::Aabb;
use peng::broad::{
    BroadPhase, BruteForce, DynamicTree, Filter, LooseTree, ProxyId, ProxyPair, SpatialHash,
    SweepAndPrune,
};
use peng::math::{Vec2, Vec3, Vector};

/// Every structure under test, boxed behind the common trait, with a name.
pub fn structures<V: Vector>(cell: f32) -> Vec<(&'static str, Box<dyn BroadPhase<V>>)> {
    vec![
        ("brute", Box::new(BruteForce::<V>::new())),
        ("tree", Box::new(DynamicTree::<V>::new())),
        ("tree-margin0", Box::new(DynamicTree::<V>::with_margin(0.0))),
        ("sap-x", Box::new(SweepAndPrune::<V>::with_axis(0))),
        ("sap-y", Box::new(SweepAndPrune::<V>::with_axis(1))),
        ("grid", Box::new(SpatialHash::<V>::new(cell).unwrap())),
        ("grid-sorted", {
            // Small frames sorted too, as large ones are.
            let mut g = SpatialHash::<V>::new(cell).unwrap();
            g.set_in_order_max(0);
            Box::new(g)
        }),
        (
            "grid-small-cells",
            Box::new(SpatialHash::<V>::with_max_cells(cell * 0.25, 8).unwrap()),
        ),
        ("loose", Box::new(LooseTree::<V>::new(cell).unwrap())),
        (
            // A shallow tree: the root stops growing early, so many boxes go
            // to the overflow list.
            "loose-shallow",
            Box::new(LooseTree::<V>::with_max_depth(cell * 0.5, 3).unwrap()),
        ),
    ]
}

/// The MSVC `rand()` generator: `s = s·214013 + 2531011`, output bits 16..30.
pub struct MsvcRand(pub u32);

impl MsvcRand {
    pub fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(214013).wrapping_add(2531011);
        (self.0 >> 16) & 0x7fff
    }
}

/// The third-party box vector: centers `(r & 4095) - 2048`, half-extents
/// `r & 127`, drawn x, y, z then x, y, z per box.
pub fn msvc_boxes(n: usize, seed: u32) -> Vec<Aabb<Vec3>> {
    let mut r = MsvcRand(seed);
    (0..n)
        .map(|_| {
            let mut c = [0.0f32; 3];
            for v in c.iter_mut() {
                *v = ((r.next() & 4095) as i32 - 2048) as f32;
            }
            let mut h = [0.0f32; 3];
            for v in h.iter_mut() {
                *v = (r.next() & 127) as f32;
            }
            Aabb::from_center_half_extents(Vec3::from(c), Vec3::from(h))
        })
        .collect()
}

/// Closed-interval overlap on every axis, written out per component (not
/// through `Aabb::overlaps`, so the reference is independent).
pub fn overlap_ref<V: Vector>(a: &Aabb<V>, b: &Aabb<V>) -> bool {
    (0..V::DIM).all(|i| a.min.get(i) <= b.max.get(i) && b.min.get(i) <= a.max.get(i))
}

/// A live proxy as the tests know it.
#[derive(Clone, Copy, Debug)]
pub struct Known<V> {
    pub id: ProxyId,
    pub aabb: Aabb<V>,
    pub filter: Filter,
}

/// All overlapping, filter-accepted pairs by double loop, sorted.
pub fn brute_pairs<V: Vector>(known: &[Known<V>]) -> Vec<ProxyPair> {
    let mut out = Vec::new();
    for (i, a) in known.iter().enumerate() {
        for b in &known[i + 1..] {
            let fa = a.filter;
            let fb = b.filter;
            let ok = fa.category & fb.mask != 0 && fb.category & fa.mask != 0;
            if ok && overlap_ref(&a.aabb, &b.aabb) {
                out.push(ProxyPair::new(a.id, b.id));
            }
        }
    }
    out.sort();
    out
}

/// Sorted `a \ b` of two sorted lists.
pub fn diff(a: &[ProxyPair], b: &[ProxyPair]) -> Vec<ProxyPair> {
    a.iter()
        .filter(|p| b.binary_search(p).is_err())
        .copied()
        .collect()
}

/// 2D/3D vector from an array (extra components ignored).
pub fn vec_from<V: Vector>(c: [f32; 3]) -> V {
    let mut v = V::ZERO;
    for (i, x) in c.iter().enumerate().take(V::DIM) {
        v.set(i, *x);
    }
    v
}

/// Silence unused-import warnings for the concrete types used by some files.
pub type V2 = Vec2;
pub type V3 = Vec3;

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014), for reproducible scenes from a seed.
pub struct SceneRng(pub u64);
impl SceneRng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Uniform in `[lo, hi)`.
    pub fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
    /// A multiple of 0.25 in `[lo, hi]`: quantized so that boxes often touch
    /// exactly.
    pub fn quarter(&mut self, lo: f32, hi: f32) -> f32 {
        let steps = ((hi - lo) * 4.0) as u64;
        lo + self.below(steps + 1) as f32 * 0.25
    }
    /// A multiple of 0.5 in `[lo, hi]` (boxes often touch exactly and sit on
    /// cell boundaries).
    pub fn half(&mut self, lo: f32, hi: f32) -> f32 {
        lo + self.below(((hi - lo) * 2.0) as u64 + 1) as f32 * 0.5
    }
}

/// A small reproducible generator (64-bit LCG with Knuth's MMIX constants,
/// high bits).
pub struct Lcg(pub u64);
impl Lcg {
    /// Uniform in `[0, 1)`.
    pub fn f(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// A 3D box centred uniformly in `[0, side]^3` with half extents
/// `0.1 + [0, spread)` per axis.
pub fn lcg_box3(r: &mut Lcg, side: f32, spread: f32) -> Aabb<Vec3> {
    let c = Vec3::new(r.f(), r.f(), r.f()) * side;
    let h = Vec3::new(r.f(), r.f(), r.f()) * spread + Vec3::splat(0.1);
    Aabb::from_center_half_extents(c, h)
}

/// Updates a tree and a brute-force reference fed the same operations, checks
/// the tree's invariants, and asserts equal pairs and events (slots are handed
/// out the same way in both, so ids agree). Returns the events.
pub fn update_tree_against_brute<V: Vector>(
    tree: &mut DynamicTree<V>,
    brute: &mut BruteForce<V>,
    what: &str,
) -> peng::broad::PairEvents {
    let ev_t = tree.update_pairs().clone();
    let ev_b = brute.update_pairs().clone();
    assert_eq!(tree.check_invariants(), Ok(()), "{what}");
    assert_eq!(tree.pairs(), brute.pairs(), "{what}");
    assert_eq!(ev_t, ev_b, "{what}");
    ev_b
}
