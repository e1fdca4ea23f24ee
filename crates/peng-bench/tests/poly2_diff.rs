//! Differential test of peng's 2D polyline distance and overlap against
//! parry2d 0.31's `Polyline`: random chains (random walks, so with collinear
//! runs, sharp corners and self-crossings) against every convex kind and
//! against other chains, at random poses.
//!
//! parry's distance is unsigned (0 for intersecting shapes); peng's is signed
//! (minus the deepest penetration through one segment), so peng's is clamped
//! at 0 before comparing, and overlap answers are compared where the pair is
//! not within tolerance of touching.
//!
//! Where peng's distance is the lower by more than the tolerance, the pair
//! is excused only when peng's witness points are certified (on or in their
//! shapes, the stated distance apart): then parry's answer is the one too
//! large. This happens mostly against capsules (about a quarter of the pairs,
//! by up to 1e-3 of the distance): parry2d's own segment-versus-capsule
//! distance gives the same larger values, so it is the per-segment query of
//! the peer, not the polyline traversal, that differs.

mod common;

use common::peer::Peer;
use peng::d2::{
    contains_point, distance, intersects, project_point, Polyline, Pose2, Segment, Shape,
    ShapeKind, Vec2,
};
use peng_bench::dim::D2;
use peng_bench::gen::Pair;
use peng_bench::referee;
use peng_bench::seeds::Run;
use peng_bench::{gen2, Rng};

/// Pairs per convex kind (and for chain against chain).
const PAIRS: usize = 1500;

/// A random chain of 3 to 24 vertices: a walk of steps of length up to 1.2
/// around the origin, with a bias along a random direction.
fn chain(rng: &mut Rng) -> Polyline {
    let n = 3 + rng.below(22);
    let drift = rng.unit_vec2() * rng.range(0.0, 0.6);
    let mut v = vec![rng.in_disk(1.0) - drift * (n as f32 / 2.0)];
    for _ in 1..n {
        let last = v[v.len() - 1];
        v.push(last + drift + rng.in_disk(0.8));
    }
    Polyline::new(v, None).expect("finite chain")
}

/// The largest distance from the local origin to a vertex.
fn radius(p: &Polyline) -> f32 {
    p.vertices().iter().fold(0.0f32, |m, v| m.max(v.length()))
}

/// The convex pieces of a placed shape: a polyline's segments, a compound's
/// parts (recursively), or the shape itself.
fn pieces(s: &Shape, pose: &Pose2) -> Vec<(Shape, Pose2)> {
    match s {
        Shape::Polyline(l) => (0..l.segments().len() as u32)
            .filter_map(|i| {
                let [a, b] = l.segment(i);
                Segment::new(a, b).ok().map(|g| (g.into(), *pose))
            })
            .collect(),
        Shape::Compound(c) => c
            .parts()
            .iter()
            .flat_map(|(p, part)| pieces(part, &pose.mul(p)))
            .collect(),
        _ => vec![(s.clone(), *pose)],
    }
}

/// Whether two placed shapes overlap, from the support-function referee alone
/// (`peng_bench::referee`, no query under test): each pair of convex pieces
/// gets a certified lower bound `lb` on its signed distance. All `lb > 0`
/// proves the shapes apart (`Some(false)`); some `lb < -tol` means that pair
/// overlaps (a separated convex pair has a single local maximum of the gap,
/// which the search from several starts finds), `Some(true)`; otherwise the
/// shapes touch within `tol` and either answer is right (`None`).
fn referee_overlap(a: &Shape, pa: &Pose2, b: &Shape, pb: &Pose2, tol: f32) -> Option<bool> {
    let mut lb = f32::INFINITY;
    for (x, px) in pieces(a, pa) {
        for (y, py) in pieces(b, pb) {
            let d = (py.translation - px.translation).normalize_or(Vec2::X);
            let starts = [d, d.perp(), -d.perp(), Vec2::X, Vec2::Y];
            let pair = Pair::<D2> {
                a: x.clone(),
                pose_a: px,
                b: y,
                pose_b: py,
            };
            lb = lb.min(-referee::refine(&pair, &starts).1);
        }
    }
    if lb > 0.0 {
        Some(false)
    } else if lb < -tol {
        Some(true)
    } else {
        None
    }
}

/// Runs `PAIRS` pairs (times `PENG_TEST_SCALE`) of a chain against shapes made
/// by `other`, from the written seed `base` (combined with `PENG_TEST_SEED` when
/// it is set, see `peng_bench::seeds`); returns the largest relative distance
/// difference seen (over the pairs not excused by a certified witness, see the
/// loop).
fn run(base: u64, mut other: impl FnMut(&mut Rng) -> Option<Shape>) -> f32 {
    let run = Run::new(env!("CARGO_CRATE_NAME"), base);
    let (seed, pairs) = (run.seed(), run.count(PAIRS));
    let mut rng = Rng::new(seed);
    let mut worst = 0.0f32;
    let (mut overlapping, mut checked, mut excused, mut refuted) = (0, 0, 0, 0);
    let mut worst_excused = 0.0f32;
    while checked < pairs {
        run.case(checked);
        let line = chain(&mut rng);
        let Some(s) = other(&mut rng) else {
            continue;
        };
        let scale = radius(&line).max(gen2::bounding_radius(&s)).max(1.0);
        let l: Shape = line.into();
        let (pa, pb): (Pose2, Pose2) = (gen2::pose(&mut rng), gen2::pose(&mut rng));
        let ours = distance(&l, &pa, &s, &pb);
        let theirs = <D2 as Peer>::parry_distance(
            &D2::parry_pose(&pa),
            &D2::parry_shape(&l),
            &D2::parry_pose(&pb),
            &D2::parry_shape(&s),
        )
        .expect("parry answers polyline distance");
        // Relative to the pair's size or the distance, whichever is larger:
        // parry's GJK stops at a relative tolerance of the distance.
        let size = scale.max(theirs);
        let diff = (ours.distance.max(0.0) - theirs).abs() / size;
        if diff > 1e-4 {
            // Excused only when peng is the lower and its witness points lie
            // on (or in) the shapes: then a pair of points at peng's distance
            // exists and parry's larger answer is the wrong one.
            let lower = ours.distance.max(0.0) < theirs;
            let on = |sh: &Shape, p: &Pose2, x: Vec2| {
                contains_point(sh, p, x)
                    || (project_point(sh, p, x, false).point - x).length() <= 1e-5 * size
            };
            let certified = ours.distance > 0.0
                && ((ours.point_b - ours.point_a).length() - ours.distance).abs() <= 1e-5 * size
                && on(&l, &pa, ours.point_a)
                && on(&s, &pb, ours.point_b);
            // Or peng finds an overlap: its point on the polyline lies inside
            // the convex shape, as deep as it says (seen: a polyline vertex
            // 1.3e-3 inside a polygon, parry 8.8e-4 apart).
            let inside_depth = project_point(&s, &pb, ours.point_a, false).point - ours.point_a;
            let overlap_certified = ours.distance < 0.0
                && on(&l, &pa, ours.point_a)
                && contains_point(&s, &pb, ours.point_a)
                && (inside_depth.length() + ours.distance).abs() <= 1e-5 * size;
            // Or peng finds a shallow overlap and the support-function
            // referee finds no separating direction, which parry's distance
            // would give (seen, soak seed 860315: a segment of the chain cuts
            // a triangle's corner 5e-6 deep, parry 3.2e-4 apart; no point of
            // the segment lies that deep inside, so the test above cannot
            // certify it).
            let shallow_overlap = ours.distance < 0.0
                && -ours.distance <= 1e-4 * size
                && referee_overlap(&l, &pa, &s, &pb, 1e-5 * size) != Some(false);
            assert!(
                (lower && certified) || overlap_certified || shallow_overlap,
                "distance: peng {} parry {theirs} (scale {scale})\nA = {l:?} at {pa:?}\nB = {s:?} at {pb:?}",
                ours.distance
            );
            excused += 1;
            worst_excused = worst_excused.max(diff);
        } else {
            worst = worst.max(diff);
        }
        // Both orders agree with each other.
        let back = distance(&s, &pb, &l, &pa);
        assert!((back.distance - ours.distance).abs() <= 1e-4 * scale);
        let hit = intersects(&l, &pa, &s, &pb);
        let their_hit = <D2 as Peer>::parry_intersects(
            &D2::parry_pose(&pa),
            &D2::parry_shape(&l),
            &D2::parry_pose(&pb),
            &D2::parry_shape(&s),
        )
        .expect("parry answers polyline intersection");
        if hit != their_hit && (theirs > 1e-4 * scale || ours.distance < -1e-4 * scale) {
            // Decided by the referee's own certified bounds, not by parry's
            // distance: parry2d's intersection test of a segment against a
            // polygon can say "touching" for a pair its own distance query puts
            // 2e-4 to 4e-4 apart.
            let truth = referee_overlap(&l, &pa, &s, &pb, 1e-4 * scale);
            assert!(
                truth != Some(their_hit),
                "overlap: peng {hit}, parry {their_hit} (parry distance {theirs}, referee {truth:?})\nA = {l:?} at {pa:?}\nB = {s:?} at {pb:?}"
            );
            refuted += usize::from(truth == Some(hit));
        }
        // peng's own distance and overlap agree.
        assert!(!(hit && ours.distance > 1e-4 * scale), "{ours:?}");
        overlapping += usize::from(their_hit);
        checked += 1;
    }
    run.cases_done();
    eprintln!(
        "seed {seed:#x}: {excused} pairs where parry's distance is certified too large \
         (by up to {worst_excused:e} relative), {refuted} where the referee refutes \
         parry's overlap answer"
    );
    // The inputs are balanced: both overlapping and separated pairs occur.
    assert!(
        overlapping > pairs / 20 && overlapping < pairs * 19 / 20,
        "{overlapping} of {pairs} overlap"
    );
    worst
}

#[test]
fn polyline_against_every_convex_kind() {
    for (i, kind) in gen2::CONVEX_KINDS.into_iter().enumerate() {
        let worst = run(0x9011_2d00 + i as u64, |rng| gen2::shape(rng, kind));
        eprintln!("{kind:?}: worst relative distance difference {worst:e}");
    }
}

#[test]
fn polyline_against_polyline() {
    let worst = run(0x9011_2d99, |rng| Some(chain(rng).into()));
    eprintln!("Polyline: worst relative distance difference {worst:e}");
}

#[test]
fn polyline_against_compound() {
    let worst = run(0x9011_2dc0, |rng| gen2::shape(rng, ShapeKind::Compound));
    eprintln!("Compound: worst relative distance difference {worst:e}");
}

/// A closed polyline converts with its closing segment (the peer gets the
/// same index list).
#[test]
fn closed_polyline_converts() {
    let v = vec![Vec2::ZERO, Vec2::X, Vec2::Y];
    let l: Shape = Polyline::new(v, Some(vec![[0, 1], [1, 2], [2, 0]]))
        .unwrap()
        .into();
    let ball: Shape = peng::d2::Circle::new(0.1).unwrap().into();
    let at = Pose2::from_translation(Vec2::new(-0.5, 0.5));
    let ours = distance(&l, &Pose2::IDENTITY, &ball, &at).distance;
    let theirs = <D2 as Peer>::parry_distance(
        &D2::parry_pose(&Pose2::IDENTITY),
        &D2::parry_shape(&l),
        &D2::parry_pose(&at),
        &D2::parry_shape(&ball),
    )
    .unwrap();
    assert!((ours - 0.4).abs() < 1e-6 && (theirs - 0.4).abs() < 1e-6);
}
