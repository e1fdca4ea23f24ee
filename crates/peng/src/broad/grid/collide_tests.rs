//! Fingerprint collisions: with the fingerprints narrowed to 4 bits (on this
//! test's thread only), nearly every cell shares its fingerprint with many
//! others, so probe groups mix records of different cells. Pairs, events and
//! queries must still match brute force on both update paths.

use super::table::test_hooks::FP_MASK;
use super::SpatialHash;
use crate::bound::Aabb;
use crate::broad::{BroadPhase, BruteForce, Filter, ProxyId, RayControl};
use crate::math::Vec3;

/// A small LCG (Knuth, TAOCP vol. 2, 3.3.4, MMIX constants).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    /// A multiple of 0.5 in `[lo, lo + 0.5 n)` (boxes touch exactly and sit
    /// on cell boundaries often).
    fn half(&mut self, lo: f32, n: u32) -> f32 {
        lo + (self.next() % n) as f32 * 0.5
    }
}

fn random_box(rng: &mut Lcg) -> Aabb<Vec3> {
    let c = Vec3::new(
        rng.half(-12.0, 48),
        rng.half(-12.0, 48),
        rng.half(-12.0, 48),
    );
    let h = Vec3::new(rng.half(0.0, 5), rng.half(0.0, 5), rng.half(0.0, 5));
    Aabb::new(c - h, c + h)
}

fn sorted_query<B: BroadPhase<Vec3>>(b: &B, q: &Aabb<Vec3>) -> Vec<ProxyId> {
    let mut v = Vec::new();
    b.query_aabb(q, u64::MAX, &mut |id, _| {
        v.push(id);
        true
    });
    let n = v.len();
    v.sort();
    v.dedup();
    assert_eq!(v.len(), n, "a proxy reported twice");
    v
}

fn sorted_ray<B: BroadPhase<Vec3>>(b: &B, o: Vec3, d: Vec3) -> Vec<ProxyId> {
    let mut v = Vec::new();
    b.ray_cast(o, d, 40.0, u64::MAX, &mut |id, _, _| {
        v.push(id);
        RayControl::Continue
    });
    let n = v.len();
    v.sort();
    v.dedup();
    assert_eq!(v.len(), n, "a proxy hit twice");
    v
}

#[test]
fn colliding_fingerprints_lose_and_repeat_nothing() {
    FP_MASK.with(|m| m.set(0xF000_0000));
    for ratio in [0.0, f32::INFINITY] {
        let mut rng = Lcg(5);
        let mut g = SpatialHash::<Vec3>::new(1.0).unwrap();
        g.set_rebuild_ratio(ratio);
        let mut r = BruteForce::<Vec3>::new();
        let mut ids = Vec::new();
        for i in 0..150 {
            let b = random_box(&mut rng);
            let a = g.insert(b, i, Filter::ALL).unwrap();
            assert_eq!(r.insert(b, i, Filter::ALL).unwrap(), a);
            ids.push(a);
        }
        for frame in 0..12 {
            for _ in 0..20 {
                let k = rng.next() as usize % ids.len();
                let b = random_box(&mut rng);
                g.move_proxy(ids[k], b, Vec3::ZERO).unwrap();
                r.move_proxy(ids[k], b, Vec3::ZERO).unwrap();
            }
            // Queries see the moves before the update, and after it.
            for pass in 0..2 {
                for _ in 0..10 {
                    let q = random_box(&mut rng);
                    assert_eq!(sorted_query(&g, &q), sorted_query(&r, &q), "{frame}");
                    let o = Vec3::new(rng.half(-14.0, 60), rng.half(-14.0, 60), -15.0);
                    let d = Vec3::new(rng.half(-1.0, 4), rng.half(-1.0, 4), 1.0);
                    assert_eq!(sorted_ray(&g, o, d), sorted_ray(&r, o, d), "{frame}");
                }
                if pass == 0 {
                    let eg = g.update_pairs().clone();
                    let er = r.update_pairs().clone();
                    assert_eq!(eg, er, "ratio {ratio} frame {frame}: events");
                    assert_eq!(g.pairs(), r.pairs(), "ratio {ratio} frame {frame}");
                }
            }
            assert!(!g.pairs().is_empty());
        }
        // Sixteen fingerprints for more cells: collisions did happen.
        assert!(g.occupied_cells() > 16);
    }
    FP_MASK.with(|m| m.set(u32::MAX));
}
