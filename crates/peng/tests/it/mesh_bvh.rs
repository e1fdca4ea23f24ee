//! Static BVH: structural invariants and every traversal against brute force.

use crate::mesh_common;

use mesh_common::Rng;
use peng::bound::Aabb;
use peng::math::{Vec2, Vec3, Vector};
use peng::mesh::Bvh;
use std::collections::BTreeSet;

fn random_boxes3(rng: &mut Rng, n: usize) -> Vec<Aabb<Vec3>> {
    (0..n)
        .map(|i| {
            let c = rng.v3(-10.0, 10.0);
            // Some flat and some point boxes among them.
            let mut h = rng.v3(0.0, 0.8);
            if i % 7 == 0 {
                h.y = 0.0;
            }
            if i % 13 == 0 {
                h = Vec3::ZERO;
            }
            Aabb::from_center_half_extents(c, h)
        })
        .collect()
}

fn random_boxes2(rng: &mut Rng, n: usize) -> Vec<Aabb<Vec2>> {
    (0..n)
        .map(|_| Aabb::from_center_half_extents(rng.v2(-10.0, 10.0), rng.v2(0.0, 0.8)))
        .collect()
}

/// Every node box holds its children and its primitives; every primitive is in
/// exactly one leaf; leaves hold 1..=4 primitives; children follow the
/// pre-order layout.
fn check_invariants<V: Vector>(bvh: &Bvh<V>, boxes: &[Aabb<V>]) {
    let nodes = bvh.nodes();
    if boxes.is_empty() {
        assert!(nodes.is_empty());
        return;
    }
    let mut seen = vec![0u32; boxes.len()];
    let mut reached = vec![false; nodes.len()];
    let mut stack = vec![0u32];
    while let Some(i) = stack.pop() {
        assert!(!reached[i as usize], "node {i} reached twice");
        reached[i as usize] = true;
        let n = &nodes[i as usize];
        if let Some((l, r)) = n.children(i) {
            assert_eq!(l, i + 1);
            assert!(r > l && (r as usize) < nodes.len());
            for c in [l, r] {
                assert!(
                    n.aabb.contains(&nodes[c as usize].aabb),
                    "child box escapes"
                );
            }
            stack.push(l);
            stack.push(r);
        } else {
            let s = n.slots();
            assert!((1..=4).contains(&s.len()), "leaf of {}", s.len());
            for slot in s {
                let p = bvh.primitive(slot) as usize;
                seen[p] += 1;
                assert!(n.aabb.contains(&boxes[p]), "primitive escapes its leaf");
            }
        }
    }
    assert!(reached.iter().all(|&r| r), "unreachable nodes");
    assert!(
        seen.iter().all(|&c| c == 1),
        "a primitive not in exactly one leaf"
    );
}

#[test]
fn invariants_on_random_and_degenerate_inputs() {
    let mut rng = Rng(1);
    for n in [0, 1, 2, 3, 5, 17, 100, 2000] {
        let b = random_boxes3(&mut rng, n);
        check_invariants(&Bvh::build(&b), &b);
        let b2 = random_boxes2(&mut rng, n);
        check_invariants(&Bvh::build(&b2), &b2);
    }
    // All boxes identical (no centroid spread): median splits, still valid.
    let same = vec![Aabb::new(Vec3::ONE, Vec3::splat(2.0)); 1000];
    let bvh = Bvh::build(&same);
    check_invariants(&bvh, &same);
    assert!(bvh.depth() <= 12, "depth {}", bvh.depth());
    // Exponentially spread boxes: the SAH would build a list; the depth cap
    // keeps the tree shallow enough for the traversal stack.
    let chain: Vec<_> = (0..3000)
        .map(|i| {
            let x = 1.01f32.powi(i);
            Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x, 1.0, 1.0))
        })
        .collect();
    let bvh = Bvh::build(&chain);
    check_invariants(&bvh, &chain);
    assert!(bvh.depth() <= 100);
    // Far from the origin.
    let far: Vec<_> = random_boxes3(&mut rng, 500)
        .into_iter()
        .map(|b| Aabb::new(b.min + Vec3::splat(1e5), b.max + Vec3::splat(1e5)))
        .collect();
    check_invariants(&Bvh::build(&far), &far);
    // Nodes are 32 bytes in 3D.
    assert_eq!(std::mem::size_of::<peng::mesh::BvhNode<Vec3>>(), 32);
}

#[test]
fn build_is_deterministic() {
    let mut rng = Rng(2);
    let b = random_boxes3(&mut rng, 3000);
    assert_eq!(Bvh::build(&b), Bvh::build(&b));
}

/// Ray against a box primitive: its entry parameter.
fn box_hit(b: &Aabb<Vec3>, o: Vec3, d: Vec3, max_t: f32) -> Option<f32> {
    b.ray_interval(o, d, max_t).map(|(t, _)| t)
}

#[test]
fn ray_queries_match_brute_force() {
    let mut rng = Rng(3);
    let boxes = random_boxes3(&mut rng, 1500);
    let bvh = Bvh::build(&boxes);
    for k in 0..600 {
        let o = rng.v3(-15.0, 15.0);
        let mut d = rng.unit3() * rng.range(0.5, 2.0);
        // Some axis-parallel rays (zero direction components).
        if k % 5 == 0 {
            d = Vec3::new(d.x, 0.0, 0.0);
        }
        if k % 11 == 0 {
            d = Vec3::new(0.0, d.y, 0.0);
        }
        let max_t = if k % 3 == 0 { f32::INFINITY } else { 10.0 };
        let brute = boxes
            .iter()
            .filter_map(|b| box_hit(b, o, d, max_t))
            .fold(None, |m: Option<f32>, t| Some(m.map_or(t, |m| m.min(t))));
        let got = bvh.cast_ray(o, d, max_t, |s, best| {
            box_hit(&boxes[bvh.primitive(s) as usize], o, d, best)
        });
        assert_eq!(got.map(|g| g.1), brute, "ray {k}");
        assert_eq!(
            bvh.ray_any(o, d, max_t, |s| box_hit(
                &boxes[bvh.primitive(s) as usize],
                o,
                d,
                max_t
            )
            .is_some()),
            brute.is_some()
        );
        // Every hit is visited by `visit_ray`.
        let mut visited = BTreeSet::new();
        bvh.visit_ray::<(), _>(o, d, max_t, |s| {
            visited.insert(bvh.primitive(s));
            core::ops::ControlFlow::Continue(())
        });
        for (i, b) in boxes.iter().enumerate() {
            if box_hit(b, o, d, max_t).is_some() {
                assert!(visited.contains(&(i as u32)));
            }
        }
    }
}

#[test]
fn box_and_point_queries_match_brute_force() {
    let mut rng = Rng(4);
    let boxes = random_boxes3(&mut rng, 1500);
    let bvh = Bvh::build(&boxes);
    for _ in 0..300 {
        let q = Aabb::from_center_half_extents(rng.v3(-12.0, 12.0), rng.v3(0.0, 3.0));
        let mut got = BTreeSet::new();
        bvh.query_aabb(&q, |s| {
            let p = bvh.primitive(s);
            if boxes[p as usize].overlaps(&q) {
                got.insert(p);
            }
        });
        let brute: BTreeSet<u32> = (0..boxes.len() as u32)
            .filter(|&i| boxes[i as usize].overlaps(&q))
            .collect();
        assert_eq!(got, brute);

        let p = rng.v3(-15.0, 15.0);
        let d2 = |b: &Aabb<Vec3>| {
            let c = p.clamp(b.min, b.max);
            c.distance_squared(p)
        };
        let brute = boxes.iter().map(d2).fold(f32::INFINITY, f32::min);
        let got = bvh.closest_point(p, f32::INFINITY, |s, _| {
            Some(d2(&boxes[bvh.primitive(s) as usize]))
        });
        assert_eq!(got.map(|g| g.1), Some(brute));
    }
}

#[test]
fn tree_pairs_match_brute_force() {
    let mut rng = Rng(5);
    for _ in 0..4 {
        let a = random_boxes2(&mut rng, 400);
        let b = random_boxes2(&mut rng, 300);
        let (ta, tb) = (Bvh::build(&a), Bvh::build(&b));
        let shift = rng.v2(-3.0, 3.0);
        let moved = |x: &Aabb<Vec2>| Aabb::new(x.min + shift, x.max + shift);
        let mut got = BTreeSet::new();
        ta.overlapping_leaves(&tb, moved, |ra, rb| {
            for sa in ra {
                for sb in rb.clone() {
                    let (i, j) = (ta.primitive(sa), tb.primitive(sb));
                    if a[i as usize].overlaps(&moved(&b[j as usize])) {
                        assert!(got.insert((i, j)), "pair reported twice");
                    }
                }
            }
        });
        let mut brute = BTreeSet::new();
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                if x.overlaps(&moved(y)) {
                    brute.insert((i as u32, j as u32));
                }
            }
        }
        assert_eq!(got, brute);

        // Closest pair of boxes, pushed apart so the answer is positive.
        let far = Vec2::new(25.0, 0.0);
        let apart = |x: &Aabb<Vec2>| Aabb::new(x.min + far, x.max + far);
        let gap = |x: &Aabb<Vec2>, y: &Aabb<Vec2>| {
            let d = (x.min - y.max).max(y.min - x.max).max(Vec2::ZERO);
            d.length_squared()
        };
        let brute = a
            .iter()
            .flat_map(|x| b.iter().map(move |y| (x, y)))
            .map(|(x, y)| gap(x, &apart(y)))
            .fold(f32::INFINITY, f32::min);
        let got = ta.closest_pair(
            &tb,
            |x, y| gap(x, &apart(y)),
            f32::INFINITY,
            |sa, sb, _| {
                Some(gap(
                    &a[ta.primitive(sa) as usize],
                    &apart(&b[tb.primitive(sb) as usize]),
                ))
            },
        );
        assert!(brute > 0.0);
        assert_eq!(got.map(|g| g.2), Some(brute));
    }
}

#[test]
fn non_finite_boxes_do_not_panic() {
    let mut rng = Rng(6);
    let mut b = random_boxes3(&mut rng, 300);
    b[3] = Aabb::new(Vec3::NAN, Vec3::NAN);
    b[10] = Aabb::new(Vec3::splat(f32::NEG_INFINITY), Vec3::splat(f32::INFINITY));
    b[20] = Aabb::new(Vec3::new(0.0, f32::NAN, 0.0), Vec3::ONE);
    let bvh = Bvh::build(&b);
    // Every primitive is still in exactly one leaf.
    let mut seen = vec![0; b.len()];
    for n in bvh.nodes() {
        for s in n.slots() {
            seen[bvh.primitive(s) as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&c| c == 1));
    let _ = bvh.cast_ray(Vec3::ZERO, Vec3::X, f32::INFINITY, |_, _| Some(1.0));
    let _ = bvh.closest_point(Vec3::ZERO, f32::INFINITY, |_, _| Some(1.0));
    bvh.query_aabb(&Aabb::new(Vec3::ZERO, Vec3::ONE), |_| {});
}
