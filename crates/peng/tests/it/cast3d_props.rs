//! Property tests of the 3D casts: on random convex pairs (and compound and
//! half-space targets) with random linear and rotating motions, a fine-stepped
//! discrete check must find the shapes no closer than the target distance
//! (within the tolerance) at every sampled time before the reported time, or
//! over the whole interval when no hit is reported (never late, never
//! missed), and the distance at a reported hit must be the target within the
//! tolerance. A start within the target that separates is no hit (the start
//! rule of the casts); the pair must then come no closer than it started. These motions are bounded and short: the casts must decide
//! (no `Undecided` answer).

use crate::dist3_common;

use dist3_common::*;
use peng::d3::*;
use proptest::prelude::*;

/// Discrete steps of the check.
const STEPS: usize = 2000;
/// The cast tolerance used (explicit, so the check knows it).
const TOL: f32 = 1e-3;

/// Errors of the discrete distance queries themselves (GJK in f32 on curved
/// shapes; see dist3_properties).
fn query_eps(scale: f32) -> f32 {
    3e-4 * scale
}

fn scale_of(a: &Shape, b: &Shape, pa: &Pose3, pb: &Pose3) -> f32 {
    size(a).max(size(b)) + pa.translation.distance(pb.translation).max(1.0)
}

/// Checks a cast's answer against the discrete distance along the motion.
fn check(
    a: &Shape,
    ma: &Motion3,
    b: &Shape,
    mb: &Motion3,
    o: &CastOptions,
    hit: Option<CastHit3>,
) -> Result<(), TestCaseError> {
    let scale = scale_of(a, b, &ma.start, &mb.start);
    let eps = query_eps(scale);
    let dist = |t: f32| distance(a, &ma.pose_at(t), b, &mb.pose_at(t)).distance;
    let end = hit.map_or(o.max_time, |h| h.time);
    // The start rule: a start within the target whose witness points
    // separate is no hit at 0, and the search goes on. Until the reported
    // time the pair must then come no closer than it started (the check is
    // the same where the motion carries it away).
    let start = dist(0.0);
    let leaving = end > 0.0 && start >= -TOL - eps && start <= o.target_distance + TOL + eps;
    let floor = if leaving {
        (o.target_distance - TOL).min(start) - eps
    } else {
        o.target_distance - TOL - eps
    };
    for i in 0..STEPS {
        let s = o.max_time * i as f32 / STEPS as f32;
        if s >= end {
            break;
        }
        let d = dist(s);
        prop_assert!(
            d >= floor,
            "closer than the target at {s} (distance {d}, start {start}) before the reported {hit:?}"
        );
    }
    if let Some(h) = hit {
        let d = dist(h.time);
        prop_assert!(h.time >= 0.0 && h.time <= o.max_time, "{h:?}");
        prop_assert!((h.normal.length() - 1.0).abs() < 1e-3, "{h:?}");
        match h.status {
            CastStatus::Hit => {
                prop_assert!(
                    d >= o.target_distance - eps && d <= o.target_distance + TOL + eps,
                    "distance {d} at the hit {h:?}"
                );
                // The normal separates the shapes at the hit: along it, B's
                // nearest point is no nearer than A's farthest, up to the
                // tolerances (a tilted normal would show a large overlap).
                if a.is_bounded_convex() && b.is_bounded_convex() {
                    let (pa, pb) = (ma.pose_at(h.time), mb.pose_at(h.time));
                    let far_a = h.normal.dot(
                        pa.transform_point(a.local_support(pa.inverse_transform_vector(h.normal))),
                    );
                    let near_b = h.normal.dot(
                        pb.transform_point(b.local_support(pb.inverse_transform_vector(-h.normal))),
                    );
                    prop_assert!(
                        near_b - far_a >= -(TOL + eps),
                        "normal {} does not separate at the hit (gap {}) {h:?}",
                        h.normal,
                        near_b - far_a
                    );
                }
            }
            CastStatus::Touching => {
                prop_assert!(
                    h.time == 0.0 && d <= o.target_distance + TOL + eps,
                    "{d} {h:?}"
                )
            }
            CastStatus::Penetrating => {
                prop_assert!(h.time == 0.0 && d < 0.0, "{d} {h:?}");
                prop_assert!((h.depth + d).abs() <= eps, "{d} {h:?}");
            }
            CastStatus::Undecided => {
                // No contact claimed; none before its time (checked above).
                // Bounded motions over a unit time decide well within the
                // step budget.
                prop_assert!(false, "undecided on a bounded motion: {h:?}");
            }
        }
    }
    Ok(())
}

/// A start offset and velocity aimed roughly at B.
fn aim(dir: [f32; 3], noise: [f32; 3], speed: f32) -> (Vec3, Vec3) {
    let u = v3(dir).try_normalize().unwrap_or(Vec3::X);
    (u * 5.0, -u * speed + v3(noise) * 3.0)
}

proptest! {
    #![proptest_config(crate::seeds::scaled(ProptestConfig { cases: 96, .. ProptestConfig::default() }))]

    #[test]
    fn linear_casts_are_never_late_nor_missed(
        ka in 0usize..CONVEX_KINDS, kb in 0usize..10, pa in params(), sa in sizes(),
        pb in params(), sb in sizes(), xa in pose(), xb in pose(),
        dir in vec3_strategy(), noise in vec3_strategy(), vb in vec3_strategy(),
        speed in float(0.0, 12.0), target in 0usize..3,
    ) {
        let a = make_convex(ka, &pa, &sa);
        let b = make_shape(kb, &pb, &sb);
        let (off, va) = aim(dir, noise, speed);
        let xa = Pose3::new(xb.translation + off, xa.rotation);
        let vb = v3(vb);
        let o = CastOptions {
            max_time: 1.0,
            target_distance: [0.0, 0.0, 0.1][target],
            tolerance: TOL,
        };
        let (ma, mb) = (Motion3::linear(xa, va), Motion3::linear(xb, vb));
        let hit = cast_linear(&a, &xa, va, &b, &xb, vb, &o);
        check(&a, &ma, &b, &mb, &o, hit)?;
        // Swapping the roles gives an answer as good (checked as above), and
        // the same answer unless the motion only grazes the target: with a
        // closest approach within the tolerance of it, hit or no hit and the
        // time within the band are all right.
        let swapped = cast_linear(&b, &xb, vb, &a, &xa, va, &o);
        check(&b, &mb, &a, &ma, &o, swapped)?;
        let agree = match (hit, swapped) {
            (Some(h), Some(s)) => (h.time - s.time).abs() <= 2e-3 * o.max_time,
            (h, s) => h.is_none() && s.is_none(),
        };
        if !agree {
            let eps = query_eps(scale_of(&a, &b, &xa, &xb));
            let closest = (0..=STEPS)
                .map(|i| o.max_time * i as f32 / STEPS as f32)
                .map(|t| distance(&a, &ma.pose_at(t), &b, &mb.pose_at(t)).distance)
                .fold(f32::INFINITY, f32::min);
            prop_assert!(
                (closest - o.target_distance).abs() <= TOL + eps,
                "the two ways round differ without a graze (closest approach {closest}): \
                 {hit:?} {swapped:?}"
            );
        }
    }

    #[test]
    fn nonlinear_casts_are_never_late_nor_missed(
        ka in 0usize..CONVEX_KINDS, kb in 0usize..9, pa in params(), sa in sizes(),
        pb in params(), sb in sizes(), xa in pose(), xb in pose(),
        dir in vec3_strategy(), noise in vec3_strategy(), wa in vec3_strategy(),
        wb in vec3_strategy(), ca in vec3_strategy(), speed in float(0.0, 10.0),
        spin_b in proptest::bool::ANY, target in 0usize..3,
    ) {
        let a = make_convex(ka, &pa, &sa);
        let b = make_shape(kb, &pb, &sb);
        let (off, va) = aim(dir, noise, speed);
        let ma = Motion3 {
            start: Pose3::new(xb.translation + off, xa.rotation),
            local_center: v3(ca) * 0.5,
            linvel: va,
            angvel: v3(wa) * 4.0,
        };
        let mb = Motion3 {
            angvel: if spin_b { v3(wb) * 2.0 } else { Vec3::ZERO },
            ..Motion3::fixed(xb)
        };
        let o = CastOptions {
            max_time: 1.0,
            target_distance: [0.0, 0.0, 0.1][target],
            tolerance: TOL,
        };
        let hit = cast_nonlinear(&a, &ma, &b, &mb, &o);
        check(&a, &ma, &b, &mb, &o, hit)?;
    }

    #[test]
    fn casts_against_meshes_are_never_late_nor_missed(
        ka in 0usize..CONVEX_KINDS, pa in params(), sa in sizes(), xa in pose(),
        heights in proptest::array::uniform16(float(-1.0, 1.0)), field in proptest::bool::ANY,
        dir in vec3_strategy(), noise in vec3_strategy(), wa in vec3_strategy(),
        speed in float(0.0, 12.0), rotate in proptest::bool::ANY,
    ) {
        let a = make_convex(ka, &pa, &sa);
        // A bumpy 4 × 4 patch of side 6 around the origin, as a height field
        // or as the same triangles in a mesh.
        let hf = HeightField::new(4, 4, heights.to_vec(), glam::Vec2::splat(2.0)).unwrap();
        let b: Shape = if field { hf.into() } else { hf.to_trimesh().into() };
        let (off, va) = aim([dir[0], dir[1].abs() + 0.2, dir[2]], noise, speed);
        let ma = Motion3 {
            start: Pose3::new(off, xa.rotation),
            local_center: Vec3::ZERO,
            linvel: va,
            angvel: if rotate { v3(wa) * 3.0 } else { Vec3::ZERO },
        };
        let mb = Motion3::fixed(Pose3::IDENTITY);
        let o = CastOptions { max_time: 1.0, target_distance: 0.0, tolerance: TOL };
        let hit = if rotate {
            cast_nonlinear(&a, &ma, &b, &mb, &o)
        } else {
            cast_linear(&a, &ma.start, va, &b, &mb.start, Vec3::ZERO, &o)
        };
        check(&a, &ma, &b, &mb, &o, hit)?;
    }
}
