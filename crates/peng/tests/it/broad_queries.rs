//! Box and ray queries of every broad-phase structure against brute force,
//! category/mask filtering, stale handles and invalid input.

use crate::broad_common;

use broad_common::*;
use peng::bound::{Aabb, Aabb2, Aabb3};
use peng::broad::{BroadPhase, BroadPhaseError, Filter, ProxyId, RayControl, COORD_LIMIT};
use peng::math::{Vec2, Vec3, Vector};
use proptest::prelude::*;

/// Builds a random scene (same in every structure) from a proptest-chosen list.
fn fill<V: Vector>(
    bp: &mut dyn BroadPhase<V>,
    boxes: &[([f32; 3], [f32; 3], u8)],
) -> Vec<Known<V>> {
    boxes
        .iter()
        .enumerate()
        .map(|(i, (c, h, cat))| {
            let aabb = Aabb::from_center_half_extents(vec_from::<V>(*c), vec_from::<V>(*h));
            let filter = Filter::new(1 << (cat % 4), u64::MAX);
            let id = bp.insert(aabb, i as u64, filter).unwrap();
            Known { id, aabb, filter }
        })
        .collect()
}

fn box_strategy() -> impl Strategy<Value = Vec<([f32; 3], [f32; 3], u8)>> {
    let c = prop::array::uniform3(-20.0f32..20.0);
    let h = prop::array::uniform3(prop_oneof![3 => 0.0f32..2.0, 1 => 0.0f32..8.0, 1 => Just(0.0)]);
    prop::collection::vec((c, h, any::<u8>()), 1..150)
}

fn ray_strategy() -> impl Strategy<Value = ([f32; 3], [f32; 3], f32)> {
    (
        prop::array::uniform3(-30.0f32..30.0),
        prop::array::uniform3(prop_oneof![4 => -1.0f32..1.0, 1 => Just(0.0)]),
        prop_oneof![3 => 0.0f32..80.0, 1 => Just(f32::INFINITY)],
    )
}

/// Brute-force ray hits: `(id, t_enter)` for boxes in `mask` the ray touches.
fn brute_ray<V: Vector>(
    known: &[Known<V>],
    o: V,
    d: V,
    max_t: f32,
    mask: u64,
) -> Vec<(ProxyId, f32)> {
    let mut v: Vec<_> = known
        .iter()
        .filter(|k| k.filter.category & mask != 0)
        .filter_map(|k| k.aabb.ray_interval(o, d, max_t).map(|(t, _)| (k.id, t)))
        .collect();
    v.sort_by_key(|h| h.0);
    v
}

fn check_queries<V: Vector>(
    boxes: &[([f32; 3], [f32; 3], u8)],
    rays: &[([f32; 3], [f32; 3], f32)],
    mask: u64,
) -> Result<(), String> {
    for (name, mut bp) in structures::<V>(3.0) {
        let mut known = fill(bp.as_mut(), boxes);
        // Round 0 queries after a pair update; round 1 after moving every box,
        // before the next update (queries must see the new boxes at once).
        bp.update_pairs();
        for round in 0..2 {
            for (o, d, max_t) in rays {
                let (o, d): (V, V) = (vec_from(*o), vec_from(*d));
                if d.length_squared() == 0.0 {
                    continue;
                }
                let want = brute_ray(&known, o, d, *max_t, mask);
                let mut got = Vec::new();
                bp.ray_cast(o, d, *max_t, mask, &mut |id, _, t| {
                    got.push((id, t));
                    RayControl::Continue
                });
                got.sort_by_key(|h| h.0);
                if got != want {
                    return Err(format!(
                        "{name} round {round}: ray hits {got:?}, want {want:?}"
                    ));
                }
                // Closest hit by clipping the ray to each hit.
                let mut best = f32::INFINITY;
                bp.ray_cast(o, d, *max_t, mask, &mut |_, _, t| {
                    best = best.min(t);
                    RayControl::Clip(t)
                });
                let want_best = want.iter().map(|h| h.1).fold(f32::INFINITY, f32::min);
                if best != want_best {
                    return Err(format!("{name}: closest {best} want {want_best}"));
                }
                // Stop after the first hit.
                let mut calls = 0;
                bp.ray_cast(o, d, *max_t, mask, &mut |_, _, _| {
                    calls += 1;
                    RayControl::Stop
                });
                if calls != want.len().min(1) {
                    return Err(format!("{name}: Stop gave {calls} calls"));
                }
            }
            // Box queries: each scene box (grown a bit) as a query.
            for k in known.iter().take(30) {
                let q = k.aabb.loosened(0.5);
                let mut want: Vec<ProxyId> = known
                    .iter()
                    .filter(|x| x.filter.category & mask != 0 && overlap_ref(&x.aabb, &q))
                    .map(|x| x.id)
                    .collect();
                want.sort();
                let mut got = Vec::new();
                bp.query_aabb(&q, mask, &mut |id, _| {
                    got.push(id);
                    true
                });
                got.sort();
                if got != want {
                    return Err(format!("{name}: box query {got:?}, want {want:?}"));
                }
            }
            // Move every box by a fixed offset.
            let off: V = vec_from([0.75, -0.5, 0.25]);
            for k in known.iter_mut() {
                k.aabb = Aabb::new(k.aabb.min + off, k.aabb.max + off);
                bp.move_proxy(k.id, k.aabb, off)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::seeds::scaled(ProptestConfig { cases: 48, ..ProptestConfig::default() }))]

    #[test]
    fn queries_3d_match_brute_force(
        boxes in box_strategy(),
        rays in prop::collection::vec(ray_strategy(), 1..12),
        mask in prop_oneof![Just(u64::MAX), 1u64..16],
    ) {
        prop_assert_eq!(check_queries::<Vec3>(&boxes, &rays, mask), Ok(()));
    }

    #[test]
    fn queries_2d_match_brute_force(
        boxes in box_strategy(),
        rays in prop::collection::vec(ray_strategy(), 1..12),
        mask in prop_oneof![Just(u64::MAX), 1u64..16],
    ) {
        prop_assert_eq!(check_queries::<Vec2>(&boxes, &rays, mask), Ok(()));
    }
}

#[test]
fn stale_ids_are_rejected_never_aliased() {
    for (name, mut bp) in structures::<Vec3>(1.0) {
        let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let a = bp.insert(b, 11, Filter::ALL).unwrap();
        assert_eq!(bp.remove(a), Ok(11), "{name}");
        // The slot is reused by the next proxy, with a new generation.
        let c = bp.insert(b, 22, Filter::ALL).unwrap();
        assert_eq!(c.index(), a.index(), "{name}");
        assert_ne!(c, a, "{name}");
        assert_eq!(bp.remove(a), Err(BroadPhaseError::StaleProxy), "{name}");
        assert_eq!(
            bp.move_proxy(a, b, Vec3::ZERO),
            Err(BroadPhaseError::StaleProxy),
            "{name}"
        );
        assert!(bp.proxy(a).is_none(), "{name}");
        assert_eq!(bp.proxy(c).map(|p| p.user_data), Some(22), "{name}");
        assert_eq!(bp.len(), 1, "{name}");
        // The live proxy was not touched by the stale calls.
        assert_eq!(bp.remove(c), Ok(22), "{name}");
        assert!(bp.is_empty(), "{name}");
    }
}

#[test]
fn invalid_boxes_are_rejected_and_infinite_ones_clamped() {
    for (name, mut bp) in structures::<Vec2>(1.0) {
        let nan = Aabb::new(Vec2::new(f32::NAN, 0.0), Vec2::ONE);
        assert!(matches!(
            bp.insert(nan, 0, Filter::ALL),
            Err(BroadPhaseError::InvalidBox(_))
        ));
        let empty = Aabb::new(Vec2::ONE, Vec2::ZERO);
        assert!(bp.insert(empty, 0, Filter::ALL).is_err(), "{name}");
        let a = bp
            .insert(Aabb::new(Vec2::ZERO, Vec2::ONE), 0, Filter::ALL)
            .unwrap();
        assert!(bp.move_proxy(a, nan, Vec2::ZERO).is_err(), "{name}");
        // The failed move left the proxy as it was.
        assert_eq!(bp.proxy(a).unwrap().aabb.max, Vec2::ONE, "{name}");
        let all = bp.insert(Aabb::everything(), 1, Filter::ALL).unwrap();
        assert_eq!(
            bp.proxy(all).unwrap().aabb.max,
            Vec2::splat(COORD_LIMIT),
            "{name}"
        );
        bp.insert(
            Aabb::new(Vec2::splat(1e9), Vec2::splat(1e9 + 1.0)),
            2,
            Filter::ALL,
        )
        .unwrap();
        bp.update_pairs();
        assert_eq!(bp.pairs().len(), 2, "{name}: the infinite box meets both");
        let mut hits = 0;
        bp.ray_cast(
            Vec2::new(-5.0, 0.5),
            Vec2::X,
            f32::INFINITY,
            u64::MAX,
            &mut |_, _, _| {
                hits += 1;
                RayControl::Continue
            },
        );
        assert_eq!(hits, 2, "{name}: the unit box and the infinite box");
    }
}

#[test]
fn category_and_mask_filter_pairs_and_queries() {
    const PLAYER: u64 = 1;
    const ENEMY: u64 = 2;
    const WALL: u64 = 4;
    for (name, mut bp) in structures::<Vec2>(1.0) {
        let unit = Aabb::new(Vec2::ZERO, Vec2::ONE);
        // Players hit enemies and walls; enemies hit players only; walls hit all.
        let p = bp
            .insert(unit, 0, Filter::new(PLAYER, ENEMY | WALL))
            .unwrap();
        let e1 = bp.insert(unit, 1, Filter::new(ENEMY, PLAYER)).unwrap();
        let e2 = bp.insert(unit, 2, Filter::new(ENEMY, PLAYER)).unwrap();
        let w = bp.insert(unit, 3, Filter::new(WALL, u64::MAX)).unwrap();
        bp.update_pairs();
        let mut want = vec![
            peng::broad::ProxyPair::new(p, e1),
            peng::broad::ProxyPair::new(p, e2),
            peng::broad::ProxyPair::new(p, w),
        ];
        want.sort();
        // e1-e2: enemies do not hit enemies; e-w: enemies do not hit walls.
        assert_eq!(bp.pairs(), want.as_slice(), "{name}");
        let mut got = Vec::new();
        bp.query_aabb(&unit, ENEMY | WALL, &mut |id, _| {
            got.push(id);
            true
        });
        got.sort();
        assert_eq!(got, vec![e1, e2, w], "{name}");
        let mut n = 0;
        bp.ray_cast(
            Vec2::new(-1.0, 0.5),
            Vec2::X,
            10.0,
            PLAYER,
            &mut |id, _, t| {
                assert_eq!(id, p);
                assert_eq!(t, 1.0);
                n += 1;
                RayControl::Continue
            },
        );
        assert_eq!(n, 1, "{name}");
        // Stopping a box query after the first hit.
        let mut calls = 0;
        bp.query_aabb(&unit, u64::MAX, &mut |_, _| {
            calls += 1;
            false
        });
        assert_eq!(calls, 1, "{name}");
    }
}

#[test]
fn lattice_rays_along_cell_boundaries_and_through_corners() {
    // Boxes and rays on the integer lattice, with grid cells of side 1 and 2:
    // rays run exactly along cell boundaries and through cell corners, and
    // boxes touch them in single points. Exact arithmetic, so every structure
    // must match brute force hit for hit.
    let mut boxes = Vec::new();
    for x in -4..4 {
        for y in -4..4 {
            let (sx, sy) = (((x * 7 + y * 3) & 3) as f32 * 0.5, ((x * 5 + y) & 1) as f32);
            boxes.push(Aabb2::new(
                Vec2::new(x as f32 * 2.0, y as f32 * 2.0),
                Vec2::new(x as f32 * 2.0 + sx, y as f32 * 2.0 + sy),
            ));
        }
    }
    let dirs = [
        Vec2::X,
        -Vec2::X,
        Vec2::Y,
        -Vec2::Y,
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, -1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(2.0, 1.0),
        Vec2::new(-1.0, 2.0),
        // A zero direction is a point query (it must not loop forever).
        Vec2::ZERO,
    ];
    for cell in [1.0, 2.0] {
        for (name, mut bp) in structures::<Vec2>(cell) {
            let ids: Vec<ProxyId> = boxes
                .iter()
                .map(|b| bp.insert(*b, 0, Filter::ALL).unwrap())
                .collect();
            bp.update_pairs();
            // Box queries on the lattice: query boxes touch many boxes exactly.
            for q in &boxes {
                let q = Aabb2::new(q.min - Vec2::splat(1.0), q.max);
                let mut want: Vec<ProxyId> = ids
                    .iter()
                    .zip(&boxes)
                    .filter(|(_, b)| overlap_ref(b, &q))
                    .map(|(id, _)| *id)
                    .collect();
                want.sort();
                let mut got = Vec::new();
                bp.query_aabb(&q, u64::MAX, &mut |id, _| {
                    got.push(id);
                    true
                });
                got.sort();
                assert_eq!(got, want, "{name} cell {cell} box query {q:?}");
            }
            for ox in -10..=10 {
                for oy in [-9, -2, 0, 1, 4, 9] {
                    let o = Vec2::new(ox as f32, oy as f32);
                    for d in dirs {
                        for max_t in [3.0, f32::INFINITY] {
                            let mut want: Vec<(ProxyId, f32)> = ids
                                .iter()
                                .zip(&boxes)
                                .filter_map(|(id, b)| {
                                    b.ray_interval(o, d, max_t).map(|(t, _)| (*id, t))
                                })
                                .collect();
                            want.sort_by_key(|h| h.0);
                            let mut got = Vec::new();
                            bp.ray_cast(o, d, max_t, u64::MAX, &mut |id, _, t| {
                                got.push((id, t));
                                RayControl::Continue
                            });
                            got.sort_by_key(|h| h.0);
                            assert_eq!(got, want, "{name} cell {cell} o {o} d {d} max_t {max_t}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn lattice_rays_3d_through_cell_edges_and_corners() {
    let mut boxes = Vec::new();
    for x in -3..3 {
        for y in -3..3 {
            for z in -3..3 {
                let s = ((x * 7 + y * 3 + z * 5) & 3) as f32 * 0.5;
                let m = Vec3::new(x as f32, y as f32, z as f32) * 2.0;
                boxes.push(Aabb3::new(m, m + Vec3::new(s, 1.0 - s * 0.5, s)));
            }
        }
    }
    let dirs = [
        Vec3::new(1.0, 1.0, 1.0),
        Vec3::new(-1.0, -1.0, -1.0),
        Vec3::new(-1.0, 1.0, 0.0),
        Vec3::new(1.0, -1.0, -1.0),
        Vec3::new(2.0, 1.0, -1.0),
        Vec3::new(0.0, 0.0, -1.0),
    ];
    for (name, mut bp) in structures::<Vec3>(1.0) {
        let ids: Vec<ProxyId> = boxes
            .iter()
            .map(|b| bp.insert(*b, 0, Filter::ALL).unwrap())
            .collect();
        for ox in -7..=7 {
            for oy in [-7, -1, 0, 3] {
                for oz in [-6, 0, 2] {
                    let o = Vec3::new(ox as f32, oy as f32, oz as f32);
                    for d in dirs {
                        let mut want: Vec<(ProxyId, f32)> = ids
                            .iter()
                            .zip(&boxes)
                            .filter_map(|(id, b)| {
                                b.ray_interval(o, d, f32::INFINITY).map(|(t, _)| (*id, t))
                            })
                            .collect();
                        want.sort_by_key(|h| h.0);
                        let mut got = Vec::new();
                        bp.ray_cast(o, d, f32::INFINITY, u64::MAX, &mut |id, _, t| {
                            got.push((id, t));
                            RayControl::Continue
                        });
                        got.sort_by_key(|h| h.0);
                        assert_eq!(got, want, "{name} o {o} d {d}");
                    }
                }
            }
        }
    }
}
