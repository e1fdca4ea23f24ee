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
