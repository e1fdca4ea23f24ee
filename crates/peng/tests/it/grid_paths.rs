//! The spatial hash's two pair-update paths (rebuilding the cell table from
//! every box, or relisting only the changed proxies) give the same pairs and
//! events as brute force, frame after frame; queries between moves and the
//! next pair update see the boxes as last given.

use crate::broad_common;

use broad_common::*;
use peng::bound::Aabb;
use peng::broad::{BroadPhase, Filter, ProxyPair, RayControl, SpatialHash};
use peng::math::{Vec2, Vec3, Vector};

/// A box of the scene: mostly about a cell, sometimes spanning many cells
/// (the side list), sometimes degenerate (a point).
fn random_box<V: Vector>(rng: &mut SceneRng, world: f32) -> Aabb<V> {
    let kind = rng.below(20);
    let mut c = [0.0; 3];
    let mut h = [0.0; 3];
    for i in 0..3 {
        c[i] = rng.half(-world, world);
        h[i] = match kind {
            0 => rng.half(6.0, 12.0),
            1 => 0.0,
            _ => rng.half(0.0, 1.5),
        };
    }
    Aabb::from_center_half_extents(vec_from(c), vec_from(h))
}

fn grids<V: Vector>() -> Vec<(&'static str, SpatialHash<V>)> {
    let mut rebuild = SpatialHash::<V>::new(2.0).unwrap();
    rebuild.set_rebuild_ratio(0.0);
    let mut incremental = SpatialHash::<V>::new(2.0).unwrap();
    incremental.set_rebuild_ratio(f32::INFINITY);
    let default = SpatialHash::<V>::new(2.0).unwrap();
    let mut small = SpatialHash::<V>::with_max_cells(0.75, 27).unwrap();
    small.set_rebuild_ratio(f32::INFINITY);
    vec![
        ("rebuild", rebuild),
        ("incremental", incremental),
        ("default", default),
        ("small-cells", small),
    ]
}

/// Runs a scene on every grid in lockstep and compares with brute force each
/// frame. Frames mix small moves, jumps (the cell range changes), moves then
/// removal of the same proxy, removal then insertion that reuses the slot,
/// and frames where most proxies move (the rebuild path of `default`).
fn run<V: Vector>(seed: u64, n: usize, frames: usize) {
    let world = (n as f32).powf(1.0 / V::DIM as f32) * 2.0;
    let mut rng = SceneRng(seed);
    let mut gs = grids::<V>();
    let mut known: Vec<Known<V>> = Vec::new();
    let insert = |gs: &mut Vec<(&str, SpatialHash<V>)>, aabb: Aabb<V>, filter: Filter| {
        let ids: Vec<_> = gs
            .iter_mut()
            .map(|(_, g)| g.insert(aabb, 7, filter).unwrap())
            .collect();
        assert!(ids.iter().all(|&i| i == ids[0]));
        ids[0]
    };
    for _ in 0..n {
        let aabb = random_box::<V>(&mut rng, world);
        let filter = if rng.below(8) == 0 {
            Filter::new(1 << rng.below(2), 1 << rng.below(2))
        } else {
            Filter::ALL
        };
        let id = insert(&mut gs, aabb, filter);
        known.push(Known { id, aabb, filter });
    }
    let mut prev: Vec<ProxyPair> = Vec::new();
    for frame in 0..frames {
        if frame > 0 {
            let movers = if frame % 7 == 3 {
                known.len() * 4 / 5
            } else {
                known.len() / 10 + 1
            };
            for _ in 0..movers {
                let k = rng.below(known.len() as u64) as usize;
                let old = known[k].aabb;
                let new = if rng.below(6) == 0 {
                    random_box::<V>(&mut rng, world)
                } else {
                    let mut d = [0.0; 3];
                    for x in d.iter_mut() {
                        *x = rng.half(-1.0, 1.0) * 0.5;
                    }
                    let d: V = vec_from(d);
                    Aabb::new(old.min + d, old.max + d)
                };
                for (_, g) in gs.iter_mut() {
                    g.move_proxy(known[k].id, new, V::ZERO).unwrap();
                }
                known[k].aabb = new;
            }
            // Moved, then removed in the same frame.
            let k = rng.below(known.len() as u64) as usize;
            let gone = known.swap_remove(k);
            for (_, g) in gs.iter_mut() {
                g.move_proxy(
                    gone.id,
                    random_box::<V>(&mut SceneRng(frame as u64), world),
                    V::ZERO,
                )
                .unwrap();
                assert_eq!(g.remove(gone.id), Ok(7));
            }
            // Removed, then a new proxy takes the slot in the same frame.
            if frame % 2 == 0 {
                let aabb = random_box::<V>(&mut rng, world);
                let id = insert(&mut gs, aabb, Filter::ALL);
                assert_eq!(id.index(), gone.id.index());
                assert_ne!(id, gone.id);
                known.push(Known {
                    id,
                    aabb,
                    filter: Filter::ALL,
                });
            }
        }
        let expected = brute_pairs(&known);
        let began = diff(&expected, &prev);
        let ended = diff(&prev, &expected);
        for (name, g) in gs.iter_mut() {
            let ev = g.update_pairs().clone();
            assert_eq!(
                g.pairs(),
                expected.as_slice(),
                "{name} seed {seed} frame {frame}"
            );
            assert_eq!(ev.began, began, "{name} frame {frame}: began");
            assert_eq!(ev.ended, ended, "{name} frame {frame}: ended");
        }
        prev = expected;
    }
}

#[test]
fn rebuild_and_incremental_paths_match_brute_force_3d() {
    for seed in 0..4 {
        run::<Vec3>(seed, 300, 24);
    }
}

#[test]
fn rebuild_and_incremental_paths_match_brute_force_2d() {
    for seed in 10..14 {
        run::<Vec2>(seed, 300, 24);
    }
}

#[test]
fn queries_between_moves_and_the_update_see_the_new_boxes() {
    let mut rng = SceneRng(99);
    let world = 20.0;
    let mut g = SpatialHash::<Vec3>::new(2.0).unwrap();
    let mut known: Vec<Known<Vec3>> = (0..400)
        .map(|i| {
            let aabb = random_box::<Vec3>(&mut rng, world);
            let id = g.insert(aabb, i, Filter::ALL).unwrap();
            Known {
                id,
                aabb,
                filter: Filter::ALL,
            }
        })
        .collect();
    g.update_pairs();
    for round in 0..6 {
        // Move a few proxies (some far), remove one, insert one, and query
        // before the pair update.
        for _ in 0..30 {
            let k = rng.below(known.len() as u64) as usize;
            known[k].aabb = random_box::<Vec3>(&mut rng, world);
            g.move_proxy(known[k].id, known[k].aabb, Vec3::ZERO)
                .unwrap();
        }
        let gone = known.swap_remove(rng.below(known.len() as u64) as usize);
        g.remove(gone.id).unwrap();
        let aabb = random_box::<Vec3>(&mut rng, world);
        let id = g.insert(aabb, 1000 + round, Filter::ALL).unwrap();
        known.push(Known {
            id,
            aabb,
            filter: Filter::ALL,
        });
        for _ in 0..20 {
            let q = random_box::<Vec3>(&mut rng, world);
            let mut got = Vec::new();
            g.query_aabb(&q, u64::MAX, &mut |id, _| {
                got.push(id);
                true
            });
            got.sort();
            let mut want: Vec<_> = known
                .iter()
                .filter(|k| overlap_ref(&k.aabb, &q))
                .map(|k| k.id)
                .collect();
            want.sort();
            assert_eq!(got, want, "round {round}: box query");

            let o = vec_from::<Vec3>([rng.half(-25.0, 25.0), rng.half(-25.0, 25.0), 0.3]);
            let d = vec_from::<Vec3>([rng.half(-1.0, 1.0), rng.half(-1.0, 1.0), 0.25]);
            let mut hits = Vec::new();
            g.ray_cast(o, d, 60.0, u64::MAX, &mut |id, _, t| {
                hits.push((id, t));
                RayControl::Continue
            });
            hits.sort_by_key(|h| h.0);
            let mut want: Vec<_> = known
                .iter()
                .filter_map(|k| k.aabb.ray_interval(o, d, 60.0).map(|(t, _)| (k.id, t)))
                .collect();
            want.sort_by_key(|h| h.0);
            assert_eq!(hits, want, "round {round}: ray query");
        }
        g.update_pairs();
        assert_eq!(g.pairs(), brute_pairs(&known).as_slice());
    }
}

#[test]
fn occupied_cells_count_distinct_cells() {
    let mut g = SpatialHash::<Vec2>::new(1.0).unwrap();
    let b = |x0: f32, y0: f32, x1: f32, y1: f32| Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1));
    // Two boxes inside cell (0, 0); one spanning cells x 2..=3, y 0..=1.
    g.insert(b(0.1, 0.1, 0.4, 0.4), 0, Filter::ALL).unwrap();
    g.insert(b(0.5, 0.5, 0.9, 0.9), 1, Filter::ALL).unwrap();
    let c = g.insert(b(2.5, 0.5, 3.5, 1.5), 2, Filter::ALL).unwrap();
    g.update_pairs();
    assert_eq!(g.occupied_cells(), 5);
    // Moving the spanning box into cell (0, 0) leaves one cell.
    g.move_proxy(c, b(0.2, 0.2, 0.3, 0.3), Vec2::ZERO).unwrap();
    g.update_pairs();
    assert_eq!(g.occupied_cells(), 1);
    // Only boxes 0 and 2 overlap (0.2..0.3 inside 0.1..0.4).
    assert_eq!(g.pairs().len(), 1);
}

/// Boxes longer than 256 cells along one axis go to the side list even when
/// `max_cells` would allow them in cells (an operation stores a cell as an
/// 8-bit offset per axis); rods of 200 to 400 cells moving among small boxes
/// give the brute-force pairs and events on both update paths.
#[test]
fn rods_spanning_hundreds_of_cells_match_brute_force() {
    let mut rng = SceneRng(4242);
    let world = 25.0;
    let mut incremental = SpatialHash::<Vec3>::with_max_cells(0.25, 1 << 20).unwrap();
    incremental.set_rebuild_ratio(f32::INFINITY);
    let mut rebuild = SpatialHash::<Vec3>::with_max_cells(0.25, 1 << 20).unwrap();
    rebuild.set_rebuild_ratio(0.0);
    let mut gs = [incremental, rebuild];
    let rod = |rng: &mut SceneRng, len: f32| {
        let c = Vec3::new(0.0, rng.half(-2.0, 2.0), rng.half(-2.0, 2.0));
        Aabb::from_center_half_extents(c, Vec3::new(len * 0.5, 0.1, 0.1))
    };
    let mut known: Vec<Known<Vec3>> = Vec::new();
    for i in 0..200 {
        let aabb = if i % 20 == 0 {
            // 200 to 400 cells of 0.25 along x.
            let len = rng.half(50.0, 100.0);
            rod(&mut rng, len)
        } else {
            let c = Vec3::new(
                rng.half(-world, world),
                rng.half(-2.0, 2.0),
                rng.half(-2.0, 2.0),
            );
            Aabb::from_center_half_extents(c, Vec3::splat(rng.half(0.1, 0.6)))
        };
        let ids: Vec<_> = gs
            .iter_mut()
            .map(|g| g.insert(aabb, 0, Filter::ALL).unwrap())
            .collect();
        known.push(Known {
            id: ids[0],
            aabb,
            filter: Filter::ALL,
        });
    }
    let mut prev: Vec<ProxyPair> = Vec::new();
    for frame in 0..12 {
        if frame > 0 {
            for kn in known.iter_mut() {
                if rng.below(4) != 0 {
                    continue;
                }
                let len = (kn.aabb.max - kn.aabb.min).x;
                // Rods change length across the 256-cell limit.
                let new = if len > 20.0 {
                    let len = rng.half(50.0, 100.0);
                    rod(&mut rng, len)
                } else {
                    let d = Vec3::new(rng.half(-1.0, 1.0), rng.half(-0.2, 0.2), 0.0);
                    Aabb::new(kn.aabb.min + d, kn.aabb.max + d)
                };
                for g in gs.iter_mut() {
                    g.move_proxy(kn.id, new, Vec3::ZERO).unwrap();
                }
                kn.aabb = new;
            }
        }
        let expected = brute_pairs(&known);
        let began = diff(&expected, &prev);
        for g in gs.iter_mut() {
            let ev = g.update_pairs().clone();
            assert_eq!(g.pairs(), expected.as_slice(), "frame {frame}");
            assert_eq!(ev.began, began, "frame {frame}: began");
        }
        assert!(
            expected.len() > 40,
            "the scene has pairs ({})",
            expected.len()
        );
        prev = expected;
    }
}
