//! The loose quadtree/octree against brute force, beyond the shared
//! agreement tests (`broad_pairs.rs`, `broad_queries.rs`, which run it too as
//! "loose" and "loose-shallow"): sizes over six orders of magnitude, a world
//! that keeps growing while it holds objects, jumps out to the overflow list
//! and back, lattices of exactly touching boxes on cell boundaries, and the
//! MSVC box vector for several cell sizes.

use crate::broad_common;

use broad_common::*;
use peng::bound::Aabb;
use peng::broad::{BroadPhase, Filter, LooseOctree, LooseTree, ProxyPair};
use peng::math::{Vec2, Vec3, Vector};
use proptest::prelude::*;

/// A box of a size drawn log-uniformly over six decades, centred within
/// `world`; sometimes quantized to quarters so boxes touch exactly.
fn mixed_box<V: Vector>(rng: &mut SceneRng, world: f32) -> Aabb<V> {
    let mut c = V::ZERO;
    let mut h = V::ZERO;
    let quant = rng.below(3) == 0;
    let scale = 10f32.powf(rng.f(-3.0, 2.0));
    for i in 0..V::DIM {
        let (mut ci, mut hi) = (rng.f(-world, world), scale * rng.f(0.2, 1.0));
        if quant {
            ci = (ci * 4.0).round() / 4.0;
            hi = (hi * 4.0).round() / 4.0;
        }
        c.set(i, ci);
        h.set(i, hi);
    }
    Aabb::from_center_half_extents(c, h)
}

/// Runs a scene on several loose trees and brute force in lockstep. The world
/// radius grows every frame (the root must grow under its objects); some
/// boxes jump far away (beyond a shallow tree's reach) and come back.
fn run<V: Vector>(seed: u64, n: usize, frames: usize) -> Result<(), String> {
    let mut trees: Vec<(&str, LooseTree<V>)> = vec![
        ("default", LooseTree::default()),
        ("fine", LooseTree::new(0.01).map_err(|e| e.to_string())?),
        ("coarse", LooseTree::new(50.0).map_err(|e| e.to_string())?),
        (
            "shallow",
            LooseTree::with_max_depth(0.5, 5).map_err(|e| e.to_string())?,
        ),
    ];
    let mut rng = SceneRng(seed);
    let mut known: Vec<Known<V>> = Vec::new();
    let mut world = 5.0f32;
    let mut prev: Vec<ProxyPair> = Vec::new();
    for frame in 0..frames {
        world *= 1.15;
        let inserts = if frame == 0 { n } else { rng.below(4) as usize };
        for _ in 0..inserts {
            let aabb = mixed_box::<V>(&mut rng, world);
            let filter = if rng.below(5) == 0 {
                Filter::new(1 << rng.below(2), 1 << rng.below(2))
            } else {
                Filter::ALL
            };
            let mut id = None;
            for (_, t) in trees.iter_mut() {
                let got = t.insert(aabb, 0, filter).map_err(|e| e.to_string())?;
                if id.is_some_and(|i| i != got) {
                    return Err("different ids".into());
                }
                id = Some(got);
            }
            let id = id.ok_or("no tree")?;
            known.push(Known { id, aabb, filter });
        }
        for _ in 0..(known.len() / 5).max(1) {
            let k = rng.below(known.len() as u64) as usize;
            let old = known[k].aabb;
            let new = match rng.below(10) {
                0 => mixed_box::<V>(&mut rng, world),
                1 => {
                    let far = V::splat(1.0e7);
                    Aabb::new(old.min + far, old.max + far)
                }
                _ => {
                    let mut d = V::ZERO;
                    for i in 0..V::DIM {
                        d.set(i, rng.f(-1.0, 1.0) * (old.half_extents().get(i) + 0.5));
                    }
                    // Back from far away.
                    if old.min.get(0) > 1.0e6 {
                        d = -V::splat(1.0e7);
                    }
                    Aabb::new(old.min + d, old.max + d)
                }
            };
            for (_, t) in trees.iter_mut() {
                t.move_proxy(known[k].id, new, V::ZERO)
                    .map_err(|e| e.to_string())?;
            }
            known[k].aabb = new;
        }
        if rng.below(3) == 0 && known.len() > 1 {
            let k = rng.below(known.len() as u64) as usize;
            let gone = known.swap_remove(k);
            for (_, t) in trees.iter_mut() {
                t.remove(gone.id).map_err(|e| e.to_string())?;
            }
        }
        let want = brute_pairs(&known);
        let (began, ended) = (diff(&want, &prev), diff(&prev, &want));
        for (name, t) in trees.iter_mut() {
            let ev = t.update_pairs().clone();
            if t.pairs() != want.as_slice() {
                return Err(format!(
                    "{name} frame {frame}: {} pairs, want {}; missing {:?}, extra {:?}",
                    t.pairs().len(),
                    want.len(),
                    diff(&want, t.pairs()),
                    diff(t.pairs(), &want)
                ));
            }
            if ev.began != began || ev.ended != ended {
                return Err(format!("{name} frame {frame}: events wrong"));
            }
            if t.stats().depth > t.max_depth() {
                return Err(format!("{name}: depth {} over the bound", t.stats().depth));
            }
        }
        prev = want;
    }
    // Emptied, every tree frees all its nodes.
    for k in &known {
        for (_, t) in trees.iter_mut() {
            t.remove(k.id).map_err(|e| e.to_string())?;
        }
    }
    for (name, t) in &trees {
        if t.stats().nodes != 0 || t.stats().overflow != 0 || !t.is_empty() {
            return Err(format!(
                "{name}: {:?} left after removing everything",
                t.stats()
            ));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::seeds::cases(16))]

    #[test]
    fn mixed_sizes_growing_world_3d(seed in any::<u64>(), n in 10usize..250) {
        prop_assert_eq!(run::<Vec3>(seed, n, 30), Ok(()));
    }

    #[test]
    fn mixed_sizes_growing_world_2d(seed in any::<u64>(), n in 10usize..250) {
        prop_assert_eq!(run::<Vec2>(seed, n, 30), Ok(()));
    }
}

#[test]
fn the_shallow_tree_overflows_and_stays_exact() {
    // Fixed seeds where many boxes go beyond the shallow tree's root.
    assert_eq!(run::<Vec3>(1, 200, 40), Ok(()));
    assert_eq!(run::<Vec2>(2, 200, 40), Ok(()));
}

#[test]
fn lattice_of_touching_boxes_on_cell_boundaries() {
    // Unit boxes on the integer lattice with unit cells: every box touches its
    // neighbours exactly on cell boundaries, and each box's centre is a cell
    // centre. Then shifted by half a cell so the centres lie on the boundaries.
    for shift in [0.0f32, 0.5] {
        let mut t = LooseOctree::new(1.0).unwrap();
        let mut known = Vec::new();
        for x in -4..4 {
            for y in -4..4 {
                for z in -4..4 {
                    let m = Vec3::new(x as f32, y as f32, z as f32) + Vec3::splat(shift);
                    let aabb = Aabb::new(m, m + Vec3::ONE);
                    let id = t.insert(aabb, 0, Filter::ALL).unwrap();
                    known.push(Known {
                        id,
                        aabb,
                        filter: Filter::ALL,
                    });
                }
            }
        }
        t.update_pairs();
        let want = brute_pairs(&known);
        // Each box meets the up to 26 around it: (3·8 - 2)^3 ... counted as
        // ordered neighbour offsets in the 8^3 block, halved.
        let per_axis = |d: i32| 8 - d.abs();
        let mut n = 0;
        for dx in -1i32..=1 {
            for dy in -1i32..=1 {
                for dz in -1i32..=1 {
                    if (dx, dy, dz) != (0, 0, 0) {
                        n += per_axis(dx) * per_axis(dy) * per_axis(dz);
                    }
                }
            }
        }
        assert_eq!(want.len(), n as usize / 2);
        assert_eq!(t.pairs(), want.as_slice(), "shift {shift}");
    }
}

#[test]
fn msvc_vector_for_several_cell_sizes() {
    let boxes = msvc_boxes(10_000, 42);
    for cell in [1.0, 16.0, 128.0, 4096.0] {
        let mut t = LooseOctree::new(cell).unwrap();
        for (i, b) in boxes.iter().enumerate() {
            t.insert(*b, i as u64, Filter::ALL).unwrap();
        }
        t.update_pairs();
        assert_eq!(t.pairs().len(), 11_811, "cell {cell}");
        assert_eq!(t.stats().overflow, 0, "cell {cell}");
    }
}
