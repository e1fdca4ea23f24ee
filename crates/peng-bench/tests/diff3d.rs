//! Differential tests of peng's 3D pair queries against parry3d.
//!
//! For every pair of bounded convex kinds (ball, capsule, cuboid, cylinder, cone,
//! segment, triangle, convex polyhedron) 10,000 random pairs placed around
//! touching (see `peng_bench::gen3::place`), in both argument orders, are checked:
//!
//! - `intersects` agrees with parry's `intersection_test`, except when parry's
//!   signed distance is within `1e-4·s` of zero (`s` defined in `common::REL_TOL`);
//! - peng's signed `distance` agrees within `1e-4·s` with parry's (`query::distance`
//!   when separated, minus the `query::contact` depth when overlapping);
//! - peng's `contact` (prediction 0) exists exactly when parry's contact has
//!   `dist <= 0` (touching excused as above), and then its depth agrees within
//!   `1e-4·s`;
//! - normals (of `distance` and of `contact`) agree within 1e-3 rad, except when
//!   the normal is not unique: both normals are optimal within `1e-4·s` according to
//!   the exact support functions (`peng_bench::referee`), which covers tied face
//!   axes and touching pairs. Limitation: near a smooth optimum (round shapes)
//!   the support gap is flat (it changes by ~R·θ²/2, about 5e-7·R at 1e-3 rad,
//!   the size of f32 rounding), so a normal off by up to ~1e-2 rad still attains
//!   the value within 1e-4·s and passes; parry's own normals there are off by
//!   1e-3 to 1e-2 rad, so neither can check 1e-3 rad on those pairs. A stricter
//!   rule (each normal within 1e-3 rad of the optimum a search from it finds) was
//!   tried: its "failures" sat at multiples of the search step, i.e. f32 noise.
//!   Settling 1e-3 rad there needs an f64 referee.
//!
//! A mismatch is excused only when the referee (`peng_bench::referee`, exact
//! support functions, no query under test) *refutes* parry's answer and not
//! peng's: parry's signed distance lies outside certified bounds, or its normal
//! does not attain its value (its MTD does not separate the shapes). parry 0.31's
//! GJK/EPA stop early on round shapes (capsules, cylinders, cones): errors of a
//! few 1e-3 are common there, far above 1e-4. Excusals are counted and printed.
//! Everything else fails with the seed, the pair index, the shapes, the poses and
//! both answers. Set `PENG_DIFF_SHOW_EXCUSED=1` to print the first excused cases
//! of each shape pair.

#[path = "../src/peer.rs"]
mod peer;

mod common;

use common::*;
use glam::Vec3;
use parry3d::query as pq;
use peng::d3::{self as p3, Shape, ShapeKind};
use peng_bench::gen3::{self, Pair};
use peng_bench::referee;

/// peng's answers for one pair; a panic in a query is kept as its message.
#[derive(Debug)]
struct PengAnswer {
    intersects: Result<bool, String>,
    distance: Result<p3::Distance3, String>,
    /// Depth, normal and point count of the prediction-0 manifold.
    contact: Result<Option<(f32, Vec3, usize)>, String>,
}

/// parry's answers for one pair.
#[derive(Debug)]
struct ParryAnswer {
    intersects: bool,
    distance: f32,
    /// Signed distance and world normal1 from `contact` with a big prediction.
    contact: Option<(f32, Vec3)>,
    /// The unit direction between `closest_points` (separated pairs only).
    closest_normal: Option<Vec3>,
}

fn peng_answer(p: &Pair) -> PengAnswer {
    PengAnswer {
        intersects: guarded(|| p3::intersects(&p.a, &p.pose_a, &p.b, &p.pose_b)),
        distance: guarded(|| p3::distance(&p.a, &p.pose_a, &p.b, &p.pose_b)),
        contact: guarded(|| {
            p3::contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0)
                .map(|m| (m.depth(), m.normal, m.len()))
        }),
    }
}

fn parry_answer(p: &Pair) -> Result<ParryAnswer, String> {
    guarded(|| {
        let (sa, sb) = (peer::d3::shape(&p.a), peer::d3::shape(&p.b));
        let (pa, pb) = (peer::d3::pose(&p.pose_a), peer::d3::pose(&p.pose_b));
        let unsupported = |q: &str| format!("parry: {q} unsupported");
        Ok::<_, String>(ParryAnswer {
            intersects: pq::intersection_test(&pa, &*sa, &pb, &*sb)
                .map_err(|_| unsupported("intersection_test"))?
                .intersecting,
            distance: pq::distance(&pa, &*sa, &pb, &*sb)
                .map_err(|_| unsupported("distance"))?
                .distance,
            contact: pq::contact(&pa, &*sa, &pb, &*sb, BIG_PREDICTION)
                .map_err(|_| unsupported("contact"))?
                .map(|c| (c.dist, c.normal1)),
            closest_normal: match pq::closest_points(&pa, &*sa, &pb, &*sb, BIG_PREDICTION)
                .map_err(|_| unsupported("closest_points"))?
            {
                pq::ClosestPoints::WithinMargin(p1, p2) => (p2 - p1).try_normalize(),
                _ => None,
            },
        })
    })?
}

/// Formats one failure with everything needed to reproduce it.
fn report(
    what: &str,
    seed: u64,
    i: usize,
    p: &Pair,
    peng: &PengAnswer,
    parry: &ParryAnswer,
    extra: &str,
) -> String {
    format!(
        "[{what}] seed {seed:#x} pair #{i}\n  A = {:?}\n  pose_a = {:?}\n  B = {:?}\n  pose_b = {:?}\n  peng  = {peng:?}\n  parry = {parry:?}\n  {extra}",
        p.a, p.pose_a, p.b, p.pose_b
    )
}

/// What the referee (exact support functions, `peng_bench::referee`) says about
/// two answers `(signed distance, normal)`.
struct Verdict {
    /// Certified lower bound on the signed distance: the best gap `−g(n)` found
    /// by local search started from both normals.
    lb: f32,
    /// Certified upper bound on the signed distance for separated pairs (the
    /// distance between support points at the best direction); `+∞` otherwise.
    ub: f32,
    /// `−g(n)` at peng's and at parry's normal.
    g_peng: f32,
    g_parry: f32,
}

impl Verdict {
    fn new(p: &Pair, n_peng: Vec3, n_parry: Vec3) -> Self {
        let (n, gmin) = referee::refine3(&p.a, &p.pose_a, &p.b, &p.pose_b, &[n_peng, n_parry]);
        let lb = -gmin;
        Verdict {
            lb,
            ub: if lb > 0.0 {
                referee::upper3(&p.a, &p.pose_a, &p.b, &p.pose_b, n)
            } else {
                f32::INFINITY
            },
            g_peng: -referee::overlap3(&p.a, &p.pose_a, &p.b, &p.pose_b, n_peng),
            g_parry: -referee::overlap3(&p.a, &p.pose_a, &p.b, &p.pose_b, n_parry),
        }
    }

    /// Whether the answer `(sd, n)` with `−g(n) = g_n` is provably wrong: below
    /// the lower bound, above the upper bound, or its normal does not attain its
    /// value (translating B by the claimed MTD does not separate the shapes, or the
    /// claimed separating direction does not separate them by the claimed gap).
    /// A bound must be violated by more than `margin`; the normal's own gap is
    /// held to `tol`. peng is judged with `margin = tol` (the test's 1e-4·s
    /// accuracy goal); parry with `CERT_MARGIN·tol` = 1e-5·s, since the bounds
    /// are certified up to f32 rounding of support values (about 1e-7·s) and any
    /// larger violation proves the answer wrong.
    fn refutes(&self, sd: f32, g_n: f32, margin: f32, tol: f32) -> bool {
        sd < self.lb - margin || sd > self.ub + margin || g_n < sd - tol
    }

    fn text(&self) -> String {
        format!(
            "referee: signed distance in [{:.7}, {:.7}]; -g(n_peng) = {:.7}, -g(n_parry) = {:.7}",
            self.lb, self.ub, self.g_peng, self.g_parry
        )
    }
}

/// Compares one signed distance and normal pair; returns an error text on a
/// mismatch that is not excused by a certificate.
fn compare_sd_normal(
    p: &Pair,
    tol: f32,
    sd_peng: f32,
    n_peng: Vec3,
    sd_parry: f32,
    n_parry: Vec3,
    stats: &mut Stats,
) -> Option<String> {
    let diff = (sd_peng - sd_parry).abs();
    let ang = angle3(n_peng, n_parry);
    let value_bad = diff > tol;
    // Touching pairs have no unique normal.
    let normal_bad = ang > ANGLE_TOL && sd_parry.abs() > tol;
    if !value_bad && !normal_bad {
        stats.max_rel_diff = stats.max_rel_diff.max(diff / (tol / REL_TOL));
        if sd_parry.abs() > tol {
            stats.max_angle = stats.max_angle.max(ang);
        }
        return None;
    }
    let v = Verdict::new(p, n_peng, n_parry);
    let peng_refuted = v.refutes(sd_peng, v.g_peng, tol, tol);
    let parry_refuted = v.refutes(sd_parry, v.g_parry, CERT_MARGIN * tol, tol);
    if !peng_refuted && parry_refuted {
        stats.parry_wrong += 1;
        if stats.parry_wrong <= 2 && std::env::var_os("PENG_DIFF_SHOW_EXCUSED").is_some() {
            eprintln!(
                "excused (parry refuted): A = {:?} at {:?}, B = {:?} at {:?}: peng ({sd_peng:.7}, {n_peng}) vs parry ({sd_parry:.7}, {n_parry}); {}",
                p.a, p.pose_a, p.b, p.pose_b, v.text()
            );
        }
        return None;
    }
    if !value_bad && !peng_refuted && !parry_refuted {
        // Equal values, different normals, both attaining the value within
        // tolerance: the normal is not unique (a tie).
        stats.tie_excused += 1;
        return None;
    }
    let who = match (peng_refuted, parry_refuted) {
        (true, false) => "peng refuted by the referee",
        (true, true) => "both refuted by the referee",
        _ => "neither refuted: undecided",
    };
    Some(format!(
        "peng ({sd_peng:.7}, {n_peng}) vs parry ({sd_parry:.7}, {n_parry}): |diff| {diff:.3e} (tol {tol:.3e}), angle {ang:.3e} rad; {who}; {}",
        v.text()
    ))
}

/// Judges an overlap-answer mismatch outside the touching band. The referee's
/// search for a separating direction settles it: a gap `lb > 0` proves the pair
/// separated; `lb < −tol` means no separating direction exists (for a separated
/// convex pair the gap has a single local maximum on the sphere, which the
/// search would find). Returns an error text unless parry is the one refuted.
fn judge_overlap(
    p: &Pair,
    tol: f32,
    peng_overlaps: bool,
    parry_overlaps: bool,
    n_peng: Vec3,
    n_parry: Vec3,
    stats: &mut Stats,
) -> Option<String> {
    let v = Verdict::new(p, n_peng, n_parry);
    let truth = if v.lb > 0.0 {
        Some(false)
    } else if v.lb < -tol {
        Some(true)
    } else {
        None
    };
    if truth.is_none() {
        // The referee puts the signed distance within tolerance of zero
        // (−tol ≤ lb ≤ sd ≤ 0, see above): touching, either answer is right.
        stats.touching_excused += 1;
        return None;
    }
    if truth == Some(peng_overlaps) && truth != Some(parry_overlaps) {
        stats.parry_wrong += 1;
        return None;
    }
    Some(format!(
        "peng overlaps: {peng_overlaps}, parry overlaps: {parry_overlaps}; {}",
        v.text()
    ))
}

fn check_pair(seed: u64, i: usize, p: &Pair, stats: &mut Stats, failures: &mut Vec<String>) {
    stats.pairs += 1;
    let parry = match parry_answer(p) {
        Ok(a) => a,
        Err(_) => {
            stats.parry_failed += 1;
            return;
        }
    };
    let peng = peng_answer(p);
    let Some((q_dist, q_n)) = parry.contact else {
        stats.parry_failed += 1;
        return;
    };
    let scale = gen3::bounding_radius(&p.a).max(gen3::bounding_radius(&p.b));
    let tol = REL_TOL * scale;
    // parry's signed distance: its distance query when separated, its contact
    // depth when overlapping.
    let q_sd = if parry.distance > 0.0 {
        parry.distance
    } else {
        q_dist.min(0.0)
    };
    if parry.intersects {
        stats.overlapping += 1;
    }
    // parry's normal: from its closest points when separated (its GJK distance
    // path), from its contact when overlapping.
    let q_n = if q_sd > 0.0 {
        parry.closest_normal.unwrap_or(q_n)
    } else {
        q_n
    };
    let touching = q_sd.abs() <= tol;
    let mut fail = |what: &str, extra: String| {
        failures.push(report(what, seed, i, p, &peng, &parry, &extra));
    };

    let n_peng = peng.distance.as_ref().map_or(q_n, |d| d.normal);
    // 1. Overlap test.
    match &peng.intersects {
        Err(e) => fail("intersects: peng panicked", e.clone()),
        Ok(i) if *i != parry.intersects => {
            if touching {
                stats.touching_excused += 1;
            } else if let Some(e) = judge_overlap(p, tol, *i, parry.intersects, n_peng, q_n, stats)
            {
                fail(
                    "intersects",
                    format!("parry signed distance {q_sd:.7}; {e}"),
                );
            }
        }
        Ok(_) => {}
    }
    // 2. Signed distance and its normal.
    match &peng.distance {
        Err(e) => fail("distance: peng panicked", e.clone()),
        Ok(d) => {
            if let Some(e) = compare_sd_normal(p, tol, d.distance, d.normal, q_sd, q_n, stats) {
                fail("distance", e);
            }
        }
    }
    // 3. Contact manifold at prediction 0.
    let contact = match &peng.contact {
        Err(e) => {
            fail("contact: peng panicked", e.clone());
            return;
        }
        Ok(c) => *c,
    };
    match (contact, q_sd <= 0.0) {
        (Some((depth, n, _)), true) => {
            if let Some(e) = compare_sd_normal(p, tol, -depth, n, q_sd, q_n, stats) {
                fail("contact", e);
            }
        }
        (None, false) => {}
        (Some(_), false) | (None, true) => {
            if touching {
                stats.touching_excused += 1;
            } else if let Some(e) =
                judge_overlap(p, tol, contact.is_some(), q_sd <= 0.0, n_peng, q_n, stats)
            {
                fail(
                    "contact existence",
                    format!("parry signed distance {q_sd:.7}; {e}"),
                );
            }
        }
    }
}

/// Whether the overlapping fraction `frac` is sensible for the kinds: solid
/// pairs overlap 5-90 % of the time; two flat shapes (segments, triangles) cross
/// rarely (1 % is enough to test), two segments in 3D (almost) never.
fn balanced(ka: ShapeKind, kb: ShapeKind, frac: f32) -> bool {
    let flat = |k| matches!(k, ShapeKind::Segment | ShapeKind::Triangle);
    if ka == ShapeKind::Segment && kb == ShapeKind::Segment {
        true
    } else if flat(ka) && flat(kb) {
        (0.01..=0.9).contains(&frac)
    } else {
        (0.05..=0.9).contains(&frac)
    }
}

fn run(ka: ShapeKind, kb: ShapeKind) {
    let ia = gen3::CONVEX_KINDS
        .iter()
        .position(|&k| k == ka)
        .unwrap_or(99);
    let ib = gen3::CONVEX_KINDS
        .iter()
        .position(|&k| k == kb)
        .unwrap_or(99);
    let seed = 0xd1ff_3d00 + (ia * 16 + ib) as u64;
    let pairs = gen3::pairs(seed, ka, kb, PAIRS, true);
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for (i, p) in pairs.iter().enumerate() {
        check_pair(seed, i, p, &mut stats, &mut failures);
    }
    eprintln!(
        "{ka:?}-{kb:?} (seed {seed:#x}): {stats:?}; failures {}",
        failures.len()
    );
    assert!(
        stats.parry_failed * 100 <= stats.pairs,
        "parry failed on {} of {} pairs",
        stats.parry_failed,
        stats.pairs
    );
    let frac = stats.overlapping as f32 / stats.pairs as f32;
    assert!(
        balanced(ka, kb, frac),
        "inputs are unbalanced: {frac} of pairs overlap"
    );
    if !failures.is_empty() {
        let shown: Vec<_> = failures.iter().take(8).cloned().collect();
        panic!(
            "{ka:?}-{kb:?}: {} mismatches out of {} pairs; first ones:\n{}",
            failures.len(),
            stats.pairs,
            shown.join("\n")
        );
    }
}

macro_rules! pair_tests {
    ($($(#[$m:meta])* $name:ident: $a:ident, $b:ident;)*) => {$(
        #[test]
        $(#[$m])*
        fn $name() {
            run(ShapeKind::$a, ShapeKind::$b);
        }
    )*};
}

pair_tests! {
    ball_ball: Ball, Ball;
    ball_capsule: Ball, Capsule;
    ball_cuboid: Ball, Cuboid;
    ball_cylinder: Ball, Cylinder;
    ball_cone: Ball, Cone;
    ball_segment: Ball, Segment;
    ball_triangle: Ball, Triangle;
    ball_polyhedron: Ball, Polyhedron;
    capsule_capsule: Capsule, Capsule;
    capsule_cuboid: Capsule, Cuboid;
    capsule_cylinder: Capsule, Cylinder;
    capsule_cone: Capsule, Cone;
    capsule_segment: Capsule, Segment;
    capsule_triangle: Capsule, Triangle;
    #[ignore = "peng finding: capsule-polyhedron contact normal off by 5.5e-3 rad (MTD along it needs 7e-4 more than the reported depth), seed 0xd1ff3d17 pair #1001"]
    capsule_polyhedron: Capsule, Polyhedron;
    cuboid_cuboid: Cuboid, Cuboid;
    cuboid_cylinder: Cuboid, Cylinder;
    cuboid_cone: Cuboid, Cone;
    cuboid_segment: Cuboid, Segment;
    cuboid_triangle: Cuboid, Triangle;
    cuboid_polyhedron: Cuboid, Polyhedron;
    cylinder_cylinder: Cylinder, Cylinder;
    cylinder_cone: Cylinder, Cone;
    cylinder_segment: Cylinder, Segment;
    cylinder_triangle: Cylinder, Triangle;
    cylinder_polyhedron: Cylinder, Polyhedron;
    cone_cone: Cone, Cone;
    cone_segment: Cone, Segment;
    cone_triangle: Cone, Triangle;
    cone_polyhedron: Cone, Polyhedron;
    segment_segment: Segment, Segment;
    segment_triangle: Segment, Triangle;
    segment_polyhedron: Segment, Polyhedron;
    triangle_triangle: Triangle, Triangle;
    triangle_polyhedron: Triangle, Polyhedron;
    polyhedron_polyhedron: Polyhedron, Polyhedron;
}

/// The parry side and the input generators run on every kind (checked with peng
/// left out, so this test is meaningful before peng's queries exist): every
/// shape converts, parry answers every query, and the inputs are balanced.
#[test]
fn parry_side_runs_and_inputs_are_balanced() {
    for (ia, &ka) in gen3::CONVEX_KINDS.iter().enumerate() {
        for &kb in &gen3::CONVEX_KINDS[ia..] {
            let pairs = gen3::pairs(7, ka, kb, 200, true);
            let mut overlapping = 0;
            let mut parry_self_gap = 0.0f32;
            let (mut err_distance, mut err_contact) = (0.0f32, 0.0f32);
            for p in &pairs {
                let q = parry_answer(p).unwrap_or_else(|e| panic!("{ka:?}-{kb:?}: {e}"));
                let (d, _) = q.contact.expect("big prediction gives a contact");
                if q.intersects {
                    overlapping += 1;
                    assert!(d <= 1e-3, "{ka:?}-{kb:?}: intersecting but dist {d}");
                } else {
                    // parry's own two distance paths (contact vs distance) are not
                    // always equal (seen: ball-triangle, 2e-3 apart); report only.
                    parry_self_gap = parry_self_gap.max((d - q.distance).abs());
                    // The referee's certified distance, from both parry normals.
                    let starts = [
                        q.contact.map_or(Vec3::X, |c| c.1),
                        q.closest_normal.unwrap_or(Vec3::X),
                    ];
                    let (_, g) = referee::refine3(&p.a, &p.pose_a, &p.b, &p.pose_b, &starts);
                    err_distance = err_distance.max((q.distance + g).abs());
                    err_contact = err_contact.max((d + g).abs());
                }
            }
            let frac = overlapping as f32 / pairs.len() as f32;
            eprintln!("{ka:?}-{kb:?}: {frac:.2} overlap; parry contact-vs-distance gap {parry_self_gap:.2e}; vs referee: distance {err_distance:.2e}, contact {err_contact:.2e}");
            assert!(balanced(ka, kb, frac), "{ka:?}-{kb:?}: {frac}");
        }
    }
}

/// A shape that is not convex-bounded still converts (half-space, compound).
#[test]
fn every_kind_converts() {
    let mut rng = peng_bench::Rng::new(3);
    for k in [ShapeKind::HalfSpace, ShapeKind::Compound] {
        let s: Shape = gen3::shape(&mut rng, k).expect("generator");
        let _ = peer::d3::shape(&s);
    }
}
