//! The DynamicTree's update paths after the bulk-build rework: deferred
//! inserts (queries before the update, removal of a proxy inserted in the same
//! frame, bulk build against one-by-one linking), and the fat-neighbour lists
//! kept once a tree of a few thousand proxies moves a minority per frame. Every
//! frame's pairs and events are compared with brute force, and the tree's
//! invariants (which include the neighbour lists' completeness) are checked.

use crate::broad_common;

use broad_common::{lcg_box3, msvc_boxes, overlap_ref, update_tree_against_brute, Lcg};
use peng::bound::{Aabb2, Aabb3};
use peng::broad::{BroadPhase, BruteForce, DynamicTree, Filter, ProxyId};
use peng::math::{Vec2, Vec3};

/// 3,000 proxies (above the neighbour-list threshold), 30 frames: a tenth
/// moves each frame by small steps (most stay in their fat boxes), a few by
/// jumps, some are removed and inserted, one frame moves nearly everything;
/// every fifth proxy has a filter that drops some pairs.
#[test]
fn neighbour_lists_give_brute_force_pairs_over_many_frames() {
    let n = 3000;
    let side = 40.0;
    let mut r = Lcg(11);
    let mut tree = DynamicTree::<Vec3>::new();
    let mut brute = BruteForce::<Vec3>::new();
    let mut live: Vec<(ProxyId, ProxyId, Aabb3, Vec3)> = Vec::new();
    for k in 0..n {
        let b = lcg_box3(&mut r, side, 1.2);
        let f = if k % 5 == 0 {
            Filter::new(2, 1)
        } else {
            Filter::ALL
        };
        let v = (Vec3::new(r.f(), r.f(), r.f()) - Vec3::splat(0.5)) * 0.3;
        live.push((
            tree.insert(b, 0, f).unwrap(),
            brute.insert(b, 0, f).unwrap(),
            b,
            v,
        ));
    }
    let mut total = 0;
    for frame in 0..30 {
        let stride = if frame == 17 { 1 } else { 10 };
        for (k, e) in live
            .iter_mut()
            .enumerate()
            .skip(frame % stride)
            .step_by(stride)
        {
            let d = if k % 41 == 0 {
                (Vec3::new(r.f(), r.f(), r.f()) - Vec3::splat(0.5)) * 6.0
            } else {
                e.3
            };
            let b = Aabb3::new(e.2.min + d, e.2.max + d);
            e.2 = b;
            tree.move_proxy(e.0, b, d).unwrap();
            brute.move_proxy(e.1, b, d).unwrap();
        }
        if frame % 3 == 2 {
            for e in live.iter_mut().skip(frame).step_by(89) {
                tree.remove(e.0).unwrap();
                brute.remove(e.1).unwrap();
                let b = lcg_box3(&mut r, side, 1.2);
                e.0 = tree.insert(b, 0, Filter::ALL).unwrap();
                e.1 = brute.insert(b, 0, Filter::ALL).unwrap();
                e.2 = b;
            }
        }
        let ev_b = update_tree_against_brute(&mut tree, &mut brute, &format!("frame {frame}"));
        total += ev_b.began.len() + ev_b.ended.len();
    }
    assert!(total > 1000, "the frames change pairs ({total} events)");
}

/// A simulation's frames: every one of 3,000 proxies moves at every frame,
/// mostly by small steps inside its fat box, so the neighbour lists are
/// kept although every proxy changed; every 37th jumps each frame (their
/// lists are refreshed), and at frames 12 and 13 a third of them jump (too
/// many to refresh: the lists are dropped, then built again).
#[test]
fn neighbour_lists_follow_frames_where_every_proxy_moves() {
    let n = 3000;
    let side = 40.0;
    let mut r = Lcg(23);
    let mut tree = DynamicTree::<Vec3>::new();
    let mut brute = BruteForce::<Vec3>::new();
    let mut live: Vec<(ProxyId, ProxyId, Aabb3)> = Vec::new();
    for _ in 0..n {
        let b = lcg_box3(&mut r, side, 1.2);
        live.push((
            tree.insert(b, 0, Filter::ALL).unwrap(),
            brute.insert(b, 0, Filter::ALL).unwrap(),
            b,
        ));
    }
    update_tree_against_brute(&mut tree, &mut brute, "build");
    let mut total = 0;
    for frame in 0..24 {
        for (k, e) in live.iter_mut().enumerate() {
            let jump = k % 37 == frame % 37 || ((frame == 12 || frame == 13) && k % 3 == 0);
            let scale = if jump { 5.0 } else { 0.02 };
            let d = (Vec3::new(r.f(), r.f(), r.f()) - Vec3::splat(0.5)) * scale;
            let b = Aabb3::new(e.2.min + d, e.2.max + d);
            e.2 = b;
            tree.move_proxy(e.0, b, d).unwrap();
            brute.move_proxy(e.1, b, d).unwrap();
        }
        let ev_b = update_tree_against_brute(&mut tree, &mut brute, &format!("frame {frame}"));
        total += ev_b.began.len() + ev_b.ended.len();
    }
    assert!(total > 500, "the frames change pairs ({total} events)");
}

/// Queries between inserts and the update see the new boxes; a proxy inserted
/// and removed in the same frame leaves no trace; bulk-built and one-by-one
/// linked trees give the same pairs and events as brute force (2D).
#[test]
fn deferred_inserts_are_seen_by_queries_and_removable() {
    let mut r = Lcg(5);
    let mut tree = DynamicTree::<Vec2>::new();
    let mut brute = BruteForce::<Vec2>::new();
    let mut ids = Vec::new();
    let mk = |r: &mut Lcg| {
        let c = Vec2::new(r.f(), r.f()) * 60.0;
        let h = Vec2::new(r.f(), r.f()) * 1.5 + Vec2::splat(0.05);
        Aabb2::from_center_half_extents(c, h)
    };
    for round in 0..6 {
        // Round 0 is a bulk build (2,000 new proxies); later rounds add 40,
        // linked one by one.
        let count = if round == 0 { 2000 } else { 40 };
        for _ in 0..count {
            let b = mk(&mut r);
            ids.push((
                tree.insert(b, 0, Filter::ALL).unwrap(),
                brute.insert(b, 0, Filter::ALL).unwrap(),
            ));
        }
        // A proxy inserted and removed before the update.
        let gone = tree.insert(mk(&mut r), 0, Filter::ALL).unwrap();
        let gone_b = brute.insert(mk(&mut Lcg(1)), 0, Filter::ALL).unwrap();
        tree.remove(gone).unwrap();
        brute.remove(gone_b).unwrap();
        assert!(tree.proxy(gone).is_none());
        // Queries see every box as given, before the update.
        for q in 0..20 {
            let qb = Aabb2::from_center_half_extents(
                Vec2::new(q as f32 * 3.0, 30.0),
                Vec2::new(2.0, 25.0),
            );
            let mut got: Vec<ProxyId> = Vec::new();
            tree.query(&qb, u64::MAX, |id, _| {
                got.push(id);
                true
            });
            got.sort();
            let mut want: Vec<ProxyId> = ids
                .iter()
                .map(|e| e.0)
                .filter(|id| overlap_ref(&tree.proxy(*id).unwrap().aabb, &qb))
                .collect();
            want.sort();
            assert_eq!(got, want, "round {round}, query {q}");
            let mut hits = 0;
            tree.ray_cast(
                Vec2::new(-1.0, q as f32 * 3.0),
                Vec2::X,
                100.0,
                u64::MAX,
                &mut |_, _, _| {
                    hits += 1;
                    peng::broad::RayControl::Continue
                },
            );
            let mut want_hits = 0;
            brute.ray_cast(
                Vec2::new(-1.0, q as f32 * 3.0),
                Vec2::X,
                100.0,
                u64::MAX,
                &mut |_, _, _| {
                    want_hits += 1;
                    peng::broad::RayControl::Continue
                },
            );
            assert_eq!(hits, want_hits);
        }
        assert_eq!(tree.check_invariants(), Ok(()));
        update_tree_against_brute(&mut tree, &mut brute, &format!("round {round}"));
    }
}

/// The MSVC vector (3D, 3,000 boxes): built in one batch (bulk build) or with
/// an update after every 50 inserts (one-by-one SAH linking), the final pairs
/// are the same.
#[test]
fn bulk_build_and_incremental_linking_agree() {
    let boxes = msvc_boxes(3000, 42);
    let mut bulk = DynamicTree::<Vec3>::new();
    let mut inc = DynamicTree::<Vec3>::new();
    for (i, b) in boxes.iter().enumerate() {
        bulk.insert(*b, 0, Filter::ALL).unwrap();
        inc.insert(*b, 0, Filter::ALL).unwrap();
        if i % 50 == 49 {
            inc.update_pairs();
        }
    }
    bulk.update_pairs();
    inc.update_pairs();
    assert_eq!(bulk.check_invariants(), Ok(()));
    assert_eq!(inc.check_invariants(), Ok(()));
    assert!(!bulk.pairs().is_empty());
    assert_eq!(bulk.pairs(), inc.pairs());
}
