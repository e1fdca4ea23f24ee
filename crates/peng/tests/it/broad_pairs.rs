//! Every broad-phase structure reports exactly the brute-force pair set: on the
//! fixed MSVC-`rand()` box vector, and on random scenes of moving boxes over
//! many frames (with exactly touching boxes, large boxes, filters and
//! changes of filter, removals).

use crate::broad_common;

use broad_common::*;
use peng::bound::Aabb;
use peng::broad::{BroadPhase, Filter, ProxyId, ProxyPair};
use peng::math::{Vec2, Vec3, Vector};
use proptest::prelude::*;

#[test]
fn msvc_vector_gives_11811_pairs_by_brute_force_and_every_structure() {
    // The first outputs of MSVC `rand()` after `srand(42)`.
    let mut r = MsvcRand(42);
    let first: Vec<u32> = (0..6).map(|_| r.next()).collect();
    assert_eq!(first, vec![175, 400, 17869, 30056, 16083, 12879]);
    let boxes = msvc_boxes(10_000, 42);
    assert_eq!(
        boxes[0].center(),
        Vec3::new(
            175.0 - 2048.0,
            400.0 - 2048.0,
            (17869 & 4095) as f32 - 2048.0
        )
    );
    assert_eq!(
        boxes[0].half_extents(),
        Vec3::new(
            (30056 & 127) as f32,
            (16083 & 127) as f32,
            (12879 & 127) as f32
        )
    );

    let mut expected: Option<Vec<ProxyPair>> = None;
    for (name, mut bp) in structures::<Vec3>(256.0) {
        if name == "grid-small-cells" {
            // Most of these boxes span more than its 8 cells: it would be the
            // brute force again. It is covered by the moving scenes.
            continue;
        }
        let known: Vec<Known<Vec3>> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| Known {
                id: bp.insert(*b, i as u64, Filter::ALL).unwrap(),
                aabb: *b,
                filter: Filter::ALL,
            })
            .collect();
        // The independent double loop, once (ids are the same in every
        // structure: slots are handed out in insertion order).
        let expected = expected.get_or_insert_with(|| {
            let e = brute_pairs(&known);
            assert_eq!(e.len(), 11_811, "brute-force reference");
            e
        });
        let began = bp.update_pairs().began.clone();
        assert_eq!(bp.pairs(), expected.as_slice(), "{name}");
        assert_eq!(bp.pairs().len(), 11_811, "{name}");
        assert_eq!(began.as_slice(), bp.pairs(), "{name}: all pairs are new");
        // A second update with nothing changed reports no events.
        let ev = bp.update_pairs();
        assert!(ev.began.is_empty() && ev.ended.is_empty(), "{name}");
        assert_eq!(bp.pairs().len(), 11_811, "{name}");
    }
}

fn random_box<V: Vector>(rng: &mut SceneRng, world: f32) -> Aabb<V> {
    let large = rng.below(20) == 0;
    let mut c = [0.0; 3];
    let mut h = [0.0; 3];
    for i in 0..3 {
        c[i] = rng.quarter(-world, world);
        h[i] = if large {
            rng.quarter(8.0, 30.0)
        } else {
            rng.quarter(0.0, 2.0)
        };
    }
    Aabb::from_center_half_extents(vec_from(c), vec_from(h))
}

fn random_filter(rng: &mut SceneRng) -> Filter {
    if rng.below(10) < 7 {
        Filter::ALL
    } else {
        Filter::new(1 << rng.below(3), rng.below(8))
    }
}

/// Runs one random scene on every structure in lockstep; returns a
/// description of the first disagreement with the brute-force reference.
fn run_scene<V: Vector>(seed: u64, n: usize, frames: usize, move_pct: u64) -> Result<(), String> {
    let world = (n as f32).powf(1.0 / V::DIM as f32) * 3.0;
    let mut all = structures::<V>(4.0);
    let mut rng = SceneRng(seed);
    let mut known: Vec<Known<V>> = Vec::new();
    // Applies an insertion to every structure; all must hand out the same id.
    let insert = |all: &mut Vec<(&str, Box<dyn BroadPhase<V>>)>, aabb, filter| {
        let ids: Vec<_> = all
            .iter_mut()
            .map(|(_, bp)| bp.insert(aabb, 0, filter).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        if ids.iter().any(|&i| i != ids[0]) {
            return Err("structures handed out different ids".to_string());
        }
        Ok::<_, String>(ids[0])
    };
    for _ in 0..n {
        let aabb = random_box::<V>(&mut rng, world);
        let filter = random_filter(&mut rng);
        let id = insert(&mut all, aabb, filter)?;
        known.push(Known { id, aabb, filter });
    }
    let mut prev: Vec<ProxyPair> = Vec::new();
    // Proxies inserted or moved since the previous update (all, at first).
    let mut touched: Vec<ProxyId> = known.iter().map(|k| k.id).collect();
    for frame in 0..frames {
        if frame > 0 {
            touched.clear();
            let movers = ((known.len() as u64 * move_pct) / 100).max(1);
            for _ in 0..movers {
                let k = rng.below(known.len() as u64) as usize;
                let old = known[k].aabb;
                let new = if rng.below(10) == 0 {
                    random_box::<V>(&mut rng, world)
                } else {
                    let mut d = [0.0; 3];
                    for x in d.iter_mut() {
                        *x = rng.quarter(-1.0, 1.0);
                    }
                    let d: V = vec_from(d);
                    Aabb::new(old.min + d, old.max + d)
                };
                let hint = if rng.below(2) == 0 {
                    new.center() - old.center()
                } else {
                    V::ZERO
                };
                for (_, bp) in all.iter_mut() {
                    bp.move_proxy(known[k].id, new, hint)
                        .map_err(|e| e.to_string())?;
                }
                known[k].aabb = new;
                touched.push(known[k].id);
            }
            if rng.below(4) == 0 {
                let k = rng.below(known.len() as u64) as usize;
                let gone = known.swap_remove(k);
                for (_, bp) in all.iter_mut() {
                    bp.remove(gone.id).map_err(|e| e.to_string())?;
                }
            }
            if rng.below(4) == 0 {
                // A new filter: the proxy's pairs are found again (it
                // counts as changed when the filter differs).
                let k = rng.below(known.len() as u64) as usize;
                let filter = random_filter(&mut rng);
                for (_, bp) in all.iter_mut() {
                    bp.set_filter(known[k].id, filter)
                        .map_err(|e| e.to_string())?;
                }
                if filter != known[k].filter {
                    touched.push(known[k].id);
                }
                known[k].filter = filter;
            }
            if rng.below(4) == 0 {
                let aabb = random_box::<V>(&mut rng, world);
                let filter = random_filter(&mut rng);
                let id = insert(&mut all, aabb, filter)?;
                known.push(Known { id, aabb, filter });
                touched.push(id);
            }
        }
        let expected = brute_pairs(&known);
        touched.sort_unstable();
        let is_touched = |id: &ProxyId| touched.binary_search(id).is_ok();
        let changed: Vec<ProxyPair> = expected
            .iter()
            .filter(|p| is_touched(&p.a) || is_touched(&p.b))
            .copied()
            .collect();
        let began = diff(&expected, &prev);
        let ended = diff(&prev, &expected);
        for (name, bp) in all.iter_mut() {
            let ev = bp.update_pairs().clone();
            if bp.pairs() != expected.as_slice() {
                return Err(format!(
                    "{name} frame {frame}: {} pairs, expected {}; missing {:?}, extra {:?}",
                    bp.pairs().len(),
                    expected.len(),
                    diff(&expected, bp.pairs()),
                    diff(bp.pairs(), &expected)
                ));
            }
            if ev.began != began || ev.ended != ended {
                return Err(format!("{name} frame {frame}: began/ended events wrong"));
            }
            if bp.changed_pairs() != changed.as_slice() {
                return Err(format!(
                    "{name} frame {frame}: {} changed pairs, expected {}",
                    bp.changed_pairs().len(),
                    changed.len()
                ));
            }
        }
        prev = expected;
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::seeds::scaled(ProptestConfig { cases: 24, ..ProptestConfig::default() }))]

    #[test]
    fn moving_scenes_3d_match_brute_force(
        seed in any::<u64>(), n in 20usize..400, move_pct in 1u64..=3
    ) {
        prop_assert_eq!(run_scene::<Vec3>(seed, n, 40, move_pct), Ok(()));
    }

    #[test]
    fn moving_scenes_2d_match_brute_force(
        seed in any::<u64>(), n in 20usize..400, move_pct in 1u64..=3
    ) {
        prop_assert_eq!(run_scene::<Vec2>(seed, n, 40, move_pct), Ok(()));
    }
}

#[test]
fn every_box_moving_every_frame_still_matches() {
    // Coherent motion of all boxes (the case sweep and prune is made for), and
    // a dense scene where most boxes touch.
    assert_eq!(run_scene::<Vec3>(7, 300, 10, 100), Ok(()));
    assert_eq!(run_scene::<Vec2>(8, 300, 10, 100), Ok(()));
}

#[test]
fn touching_boxes_pair_and_separated_boxes_do_not() {
    for (name, mut bp) in structures::<Vec2>(1.0) {
        let unit = |x: f32, y: f32| Aabb::new(Vec2::new(x, y), Vec2::new(x + 1.0, y + 1.0));
        let a = bp.insert(unit(0.0, 0.0), 0, Filter::ALL).unwrap();
        let b = bp.insert(unit(1.0, 0.0), 1, Filter::ALL).unwrap(); // shares an edge
        let c = bp.insert(unit(1.0, 1.0), 2, Filter::ALL).unwrap(); // shares a corner with a
        let d = bp.insert(unit(2.0 + 1e-3, 0.0), 3, Filter::ALL).unwrap(); // just apart from b
        bp.update_pairs();
        let want = {
            let mut v = vec![
                ProxyPair::new(a, b),
                ProxyPair::new(a, c),
                ProxyPair::new(b, c),
            ];
            v.sort();
            v
        };
        assert_eq!(bp.pairs(), want.as_slice(), "{name}");
        // Move d left until it touches b and c exactly.
        bp.move_proxy(d, unit(2.0, 0.0), Vec2::ZERO).unwrap();
        let ev = bp.update_pairs().clone();
        let mut began = vec![ProxyPair::new(b, d), ProxyPair::new(c, d)];
        began.sort();
        assert_eq!(ev.began, began, "{name}");
        assert!(ev.ended.is_empty(), "{name}");
        // Removing b ends its pairs, named by its old id.
        bp.remove(b).unwrap();
        let ev = bp.update_pairs().clone();
        let mut ended = vec![
            ProxyPair::new(a, b),
            ProxyPair::new(b, c),
            ProxyPair::new(b, d),
        ];
        ended.sort();
        assert_eq!(ev.ended, ended, "{name}");
        assert_eq!(bp.pairs().len(), 2, "{name}");
    }
}

#[test]
fn sweep_and_prune_chooses_the_spread_axis_and_stays_exact() {
    use peng::broad::SweepAndPrune;
    let mut sap = SweepAndPrune::<Vec3>::new();
    let mut known = Vec::new();
    // A column of boxes along z, jittered a little in x and y.
    let mut r = MsvcRand(5);
    for i in 0..300 {
        let c = Vec3::new((r.next() % 5) as f32, (r.next() % 5) as f32, i as f32 * 1.5);
        let aabb = Aabb::from_center_half_extents(c, Vec3::splat(1.0));
        let id = sap.insert(aabb, 0, Filter::ALL).unwrap();
        known.push(Known {
            id,
            aabb,
            filter: Filter::ALL,
        });
    }
    sap.update_pairs();
    let before = sap.pairs().to_vec();
    assert_eq!(before, brute_pairs(&known));
    assert_eq!(sap.choose_axis(), 2);
    assert_eq!(sap.axis(), 2);
    // Nothing changed: same pairs, no events; then moves stay exact.
    let ev = sap.update_pairs();
    assert!(ev.began.is_empty() && ev.ended.is_empty());
    for k in known.iter_mut().step_by(3) {
        let d = Vec3::new(0.0, 0.0, 2.0);
        k.aabb = Aabb::new(k.aabb.min + d, k.aabb.max + d);
        sap.move_proxy(k.id, k.aabb, d).unwrap();
    }
    sap.update_pairs();
    assert_eq!(sap.pairs(), brute_pairs(&known).as_slice());
}
