//! The DynamicTree's batch paths (self traversal when many proxies changed,
//! stale leaves refitted or rebuilt in place, bulk rebuild after many
//! insertions) give exactly the brute-force pairs and events, frame after
//! frame, whatever fraction of the proxies moves, on any number of threads.

use crate::broad_common;

use broad_common::{lcg_box3, update_tree_against_brute, Lcg};
use peng::bound::Aabb3;
use peng::broad::{BroadPhase, BruteForce, DynamicTree, Filter, ProxyId};
use peng::math::Vec3;

/// On one thread, and on three (the self traversal splits over threads from
/// 1,024 proxies on).
#[test]
fn batch_paths_match_brute_force_at_every_moving_fraction() {
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(batch_paths_match_brute_force);
    }
}

fn batch_paths_match_brute_force() {
    let n = 1200;
    let side = 30.0;
    let mut r = Lcg(7);
    let mut tree = DynamicTree::<Vec3>::new();
    let mut brute = BruteForce::<Vec3>::new();
    let mut ids: Vec<(ProxyId, ProxyId, Aabb3)> = Vec::new();
    for k in 0..n {
        let b = lcg_box3(&mut r, side, 1.5);
        // Some filters that exclude pairs, so the leaf test's filter check counts.
        let f = if k % 7 == 0 {
            Filter::new(2, 1)
        } else {
            Filter::ALL
        };
        ids.push((
            tree.insert(b, k, f).unwrap(),
            brute.insert(b, k, f).unwrap(),
            b,
        ));
    }
    // Fractions: all (self traversal, refit), 1/3, 1/10, 1/50 (refit: at
    // least 1/128 of the leaves are stale), 1/500 (reinsertion, per-proxy
    // queries; 1,200 proxies is below the neighbour-list threshold, which
    // tests/it/treeperf_adjacency.rs covers).
    let strides = [1usize, 3, 10, 50, 500, 10, 3, 1, 50];
    let mut total_began = 0;
    for (frame, &stride) in strides.iter().enumerate() {
        for e in ids.iter_mut().skip(frame % stride).step_by(stride) {
            let d = Vec3::new(r.f() - 0.5, r.f() - 0.5, r.f() - 0.5) * 2.5;
            let b = Aabb3::new(e.2.min + d, e.2.max + d);
            e.2 = b;
            tree.move_proxy(e.0, b, d).unwrap();
            brute.move_proxy(e.1, b, d).unwrap();
        }
        // Remove and re-insert a few, too.
        if frame % 2 == 1 {
            for e in ids.iter_mut().skip(frame).step_by(97) {
                tree.remove(e.0).unwrap();
                brute.remove(e.1).unwrap();
                let b = lcg_box3(&mut r, side, 1.5);
                e.0 = tree.insert(b, 0, Filter::ALL).unwrap();
                e.1 = brute.insert(b, 0, Filter::ALL).unwrap();
                e.2 = b;
            }
        }
        let ev_b = update_tree_against_brute(&mut tree, &mut brute, &format!("frame {frame}"));
        total_began += ev_b.began.len();
        // Tight fat boxes: every leaf's fat box holds its proxy's box.
        for e in &ids {
            assert!(tree.fat_aabb(e.0).unwrap().contains(&e.2));
        }
    }
    assert!(total_began > 1000, "the scene must make and break pairs");
}
