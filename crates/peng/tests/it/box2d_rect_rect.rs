//! The dedicated rect-rect manifold (`query/d2/rect_rect.rs`) against the
//! generic polygon route (the same boxes given as `ConvexPolygon`s with the
//! corners in the same order), and on degenerate and closed-form cases.

use peng::d2::*;
use peng::query::types::{ContactId, Feature};
use std::f32::consts::{FRAC_PI_2, PI};
use std::sync::Arc;

/// A small deterministic generator (xorshift64*), so the cases are fixed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
}

fn rect(h: Vec2) -> Shape {
    Rect::new(h).expect("valid rect").into()
}

/// The same box as a polygon, corners in [`Rect::vertices`] order (so feature
/// indices mean the same corners and edges).
fn as_polygon(h: Vec2) -> Shape {
    let r = Rect::new(h).expect("valid rect");
    Shape::Polygon(Arc::new(ConvexPolygon::from_hull_unchecked(
        r.vertices().to_vec(),
    )))
}

/// Asserts that two manifolds agree: same normal, same ids, same points and
/// depths within `tol` (a length).
fn assert_same(got: &Manifold2, want: &Manifold2, tol: f32, what: &str) {
    assert!(
        (got.normal - want.normal).length() <= 1e-5,
        "{what}: normal {:?} vs {:?}",
        got.normal,
        want.normal
    );
    assert_eq!(got.len(), want.len(), "{what}: {got:?} vs {want:?}");
    for p in want.points() {
        let q = got
            .points()
            .iter()
            .find(|q| q.id == p.id)
            .unwrap_or_else(|| panic!("{what}: id {:?} missing in {got:?} (want {want:?})", p.id));
        assert!(
            (q.point_a - p.point_a).length() <= tol
                && (q.point_b - p.point_b).length() <= tol
                && (q.depth - p.depth).abs() <= tol,
            "{what}: {q:?} vs {p:?}"
        );
    }
}

fn both(
    ha: Vec2,
    pa: &Pose2,
    hb: Vec2,
    pb: &Pose2,
    prediction: f32,
) -> (Option<Manifold2>, Option<Manifold2>) {
    let got = contact(&rect(ha), pa, &rect(hb), pb, prediction);
    let want = contact(&as_polygon(ha), pa, &as_polygon(hb), pb, prediction);
    (got, want)
}

/// Random boxes placed around touching (overlapping, touching, separated
/// within and beyond the prediction), at several scales and offsets from the
/// origin: the rect routine gives the polygon route's manifold.
#[test]
fn agrees_with_polygon_route_on_random_poses() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut counts = [0usize; 3]; // none, one point, two points
    let mut separated = 0;
    for i in 0..20_000 {
        let scale = [1.0, 1.0e-3, 1.0e3, 1.0][i % 4];
        let far = if i % 4 == 3 { 1.0e3 } else { 0.0 };
        let ha = Vec2::new(rng.range(0.05, 2.0), rng.range(0.05, 2.0)) * scale;
        let hb = Vec2::new(rng.range(0.05, 2.0), rng.range(0.05, 2.0)) * scale;
        let ca = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * scale + Vec2::splat(far);
        let pa = Pose2::new(ca, rng.range(-PI, PI));
        let dir = Rot2::from_angle(rng.range(-PI, PI)).rotate(Vec2::X);
        let reach = (ha.length() + hb.length()) * rng.range(0.0, 1.1);
        let pb = Pose2::new(ca + dir * reach, rng.range(-PI, PI));
        let prediction = [0.0, 0.01, 0.1, 0.5][(i / 4) % 4] * scale;
        let (got, want) = both(ha, &pa, hb, &pb, prediction);
        let what = format!("case {i}: {ha:?} {pa:?} {hb:?} {pb:?} pred {prediction}");
        match (&got, &want) {
            (None, None) => counts[0] += 1,
            (Some(g), Some(w)) => {
                // Rounding in the world coordinates: relative to the offset.
                let tol = 2e-5 * (scale + far);
                assert_same(g, w, tol, &what);
                counts[w.len()] += 1;
                if w.depth() < 0.0 {
                    separated += 1;
                }
            }
            _ => panic!("{what}: {got:?} vs {want:?}"),
        }
    }
    // The cases cover every outcome.
    assert!(counts.iter().all(|&c| c > 1000), "{counts:?}");
    assert!(separated > 200, "{separated}");
}

/// Depth is the penetration: moving B by `normal * depth` leaves the boxes
/// touching (depth 0 within rounding), and any less leaves them overlapping.
#[test]
fn normal_times_depth_separates() {
    let mut rng = Rng(7);
    let ha = Vec2::new(1.0, 0.4);
    let hb = Vec2::new(0.3, 0.8);
    let mut checked = 0;
    for _ in 0..2000 {
        let pa = Pose2::new(Vec2::new(rng.range(-3.0, 3.0), 0.5), rng.range(-PI, PI));
        let off = Vec2::new(rng.range(-1.2, 1.2), rng.range(-1.2, 1.2));
        let pb = Pose2::new(pa.translation + off, rng.range(-PI, PI));
        let Some(m) = contact(&rect(ha), &pa, &rect(hb), &pb, 0.0) else {
            continue;
        };
        let d = m.depth();
        if d <= 1e-3 {
            continue;
        }
        checked += 1;
        let moved = Pose2 {
            translation: pb.translation + m.normal * d,
            ..pb
        };
        let after = contact(&rect(ha), &pa, &rect(hb), &moved, 1.0).expect("within 1");
        assert!(after.depth().abs() <= 1e-4, "{m:?} -> {after:?}");
        let half = Pose2 {
            translation: pb.translation + m.normal * (0.5 * d),
            ..pb
        };
        let mid = contact(&rect(ha), &pa, &rect(hb), &half, 0.0).expect("still overlapping");
        assert!((mid.depth() - 0.5 * d).abs() <= 1e-4, "{m:?} -> {mid:?}");
    }
    assert!(checked > 500, "{checked}");
}

/// A box resting on a wider one, on A's +y face: closed-form depth, normal,
/// points and ids, and the ids stay the same while B slides and sinks.
#[test]
fn resting_box_has_stable_ids() {
    let ha = Vec2::new(2.0, 0.5);
    let hb = Vec2::new(0.5, 0.5);
    let pa = Pose2::new(Vec2::new(10.0, -3.0), 0.0);
    let mut ids: Option<Vec<ContactId>> = None;
    for k in 0..20 {
        let x = -1.0 + 0.1 * k as f32;
        let sink = 0.01 + 0.001 * k as f32;
        let pb = Pose2::from_translation(pa.translation + Vec2::new(x, 1.0 - sink));
        let m = contact(&rect(ha), &pa, &rect(hb), &pb, 0.0).expect("overlap");
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        assert_eq!(m.len(), 2);
        for p in m.points() {
            assert!((p.depth - sink).abs() < 1e-5, "{m:?}");
            assert!((p.point_a.y - (pa.translation.y + 0.5)).abs() < 1e-5);
            assert!((p.point_b.y - p.point_a.y + sink).abs() < 1e-5);
            // A's edge 2 (+y) against B's corners 0 and 1 (its -y edge).
            assert_eq!(p.id.0 >> 16, Feature::edge(2).0 as u32);
        }
        let mut now: Vec<_> = m.points().iter().map(|p| p.id).collect();
        now.sort_by_key(|id| id.0);
        assert_eq!(
            now,
            vec![
                ContactId::new(Feature::edge(2), Feature::vertex(0)),
                ContactId::new(Feature::edge(2), Feature::vertex(1)),
            ]
        );
        if let Some(prev) = &ids {
            assert_eq!(prev, &now);
        }
        ids = Some(now);
    }
}

/// Exactly touching faces: depth 0, two points, and the polygon route's ids.
#[test]
fn exactly_touching() {
    let h = Vec2::splat(1.0);
    let pa = Pose2::IDENTITY;
    let pb = Pose2::from_translation(Vec2::new(2.0, 0.5));
    let (got, want) = both(h, &pa, h, &pb, 0.0);
    let (got, want) = (got.expect("touching"), want.expect("touching"));
    assert_same(&got, &want, 1e-6, "touching");
    assert_eq!(got.len(), 2);
    assert_eq!(got.normal, Vec2::X);
    for p in got.points() {
        assert_eq!(p.depth, 0.0);
    }
    // A corner touching a corner diagonally: one point at the shared corner.
    let pb = Pose2::from_translation(Vec2::new(2.0, 2.0));
    let (got, want) = both(h, &pa, h, &pb, 0.0);
    let (got, want) = (got.expect("corner"), want.expect("corner"));
    assert_same(&got, &want, 1e-6, "corner");
    assert!(got.depth().abs() <= 1e-6);
    // Just apart: nothing without prediction, a speculative point with it.
    let pb = Pose2::from_translation(Vec2::new(2.001, 0.5));
    let (got, want) = both(h, &pa, h, &pb, 0.0);
    assert!(got.is_none() && want.is_none());
    let (got, want) = both(h, &pa, h, &pb, 0.01);
    let (got, want) = (got.expect("speculative"), want.expect("speculative"));
    assert_same(&got, &want, 1e-6, "speculative");
    assert!((got.depth() + 0.001).abs() < 1e-6);
}

/// Identical coincident boxes: the deepest axis with A's lowest face wins
/// ties (face 0, normal -y), depth is the full height, ids as the polygon
/// route's.
#[test]
fn identical_coincident_boxes() {
    for (h, angle) in [(Vec2::new(1.0, 0.5), 0.0), (Vec2::splat(0.7), 1.3)] {
        let pa = Pose2::new(Vec2::new(-4.0, 2.0), angle);
        let (got, want) = both(h, &pa, h, &pa, 0.0);
        let (got, want) = (got.expect("overlap"), want.expect("overlap"));
        assert_same(&got, &want, 1e-5, "coincident");
        assert!((got.depth() - 2.0 * h.min_element()).abs() < 1e-5);
        assert_eq!(got.len(), 2);
        let n_local = pa.rotation.inv_rotate(got.normal);
        assert!((n_local - Vec2::NEG_Y).length() < 1e-6, "{n_local:?}");
    }
}

/// Quarter turns, both as `from_angle` (cos not exactly 0) and as exact
/// rotations: closed-form depths and the polygon route's manifold.
#[test]
fn quarter_turns() {
    let ha = Vec2::new(1.0, 0.25);
    let hb = Vec2::new(0.5, 0.2);
    for rot in [
        Rot2::from_angle(FRAC_PI_2),
        Rot2 { cos: 0.0, sin: 1.0 },
        Rot2 {
            cos: -1.0,
            sin: 0.0,
        },
        Rot2 {
            cos: 0.0,
            sin: -1.0,
        },
        Rot2::from_angle(-FRAC_PI_2),
    ] {
        // B turned a quarter: its long side is vertical, its bottom 0.1 into
        // A's top face, its centre 0.3 right of A's.
        let vertical = rot.cos.abs() < 0.5;
        let hy = if vertical { hb.x } else { hb.y };
        let pb = Pose2 {
            translation: Vec2::new(0.3, 0.25 + hy - 0.1),
            rotation: rot,
        };
        let (got, want) = both(ha, &Pose2::IDENTITY, hb, &pb, 0.0);
        let (got, want) = (got.expect("overlap"), want.expect("overlap"));
        assert_same(&got, &want, 1e-5, "quarter");
        assert!((got.normal - Vec2::Y).length() < 1e-6, "{got:?}");
        assert!((got.depth() - 0.1).abs() < 1e-5, "{got:?}");
        assert_eq!(got.len(), 2);
    }
}

/// Huge and tiny boxes: depths scale with the boxes, and the rect routine
/// agrees with the polygon route.
#[test]
fn huge_and_tiny_scales() {
    for s in [1.0e-5f32, 1.0e-2, 1.0, 1.0e2, 1.0e5] {
        let ha = Vec2::new(1.0, 0.5) * s;
        let hb = Vec2::new(0.4, 0.3) * s;
        let pa = Pose2::new(Vec2::new(0.2, -0.1) * s, 0.2);
        let off = pa.rotation.rotate(Vec2::new(0.6, 0.5 + 0.3 - 0.05) * s);
        let pb = Pose2::new(pa.translation + off, 0.2);
        let (got, want) = both(ha, &pa, hb, &pb, 0.0);
        let (got, want) = (got.expect("overlap"), want.expect("overlap"));
        assert_same(&got, &want, 1e-5 * s, "scale");
        assert!((got.depth() - 0.05 * s).abs() <= 1e-5 * s, "{s}: {got:?}");
        assert_eq!(got.len(), 2);
    }
}

/// Zero-size rects (a segment, a point) keep working through the generic
/// route: a flat box lying 0.1 into a unit box's top face touches at its two
/// ends.
#[test]
fn zero_size_rects() {
    let unit = rect(Vec2::splat(1.0));
    let flat = rect(Vec2::new(0.5, 0.0));
    let pb = Pose2::from_translation(Vec2::new(0.2, 0.9));
    let m = contact(&unit, &Pose2::IDENTITY, &flat, &pb, 0.0).expect("overlap");
    assert!((m.normal - Vec2::Y).length() < 1e-6);
    assert_eq!(m.len(), 2);
    for p in m.points() {
        assert!((p.depth - 0.1).abs() < 1e-6);
    }
    let point = rect(Vec2::ZERO);
    let pb = Pose2::from_translation(Vec2::new(0.2, 0.9));
    let m = contact(&unit, &Pose2::IDENTITY, &point, &pb, 0.0).expect("inside");
    assert_eq!(m.len(), 1);
    assert!((m.depth() - 0.1).abs() < 1e-6);
    let m = contact(&point, &pb, &point, &pb, 0.0).expect("coincident points");
    assert_eq!(m.len(), 1);
    assert_eq!(m.depth(), 0.0);
}

/// The manifold seen from B is A's seen from the other side (normal flipped,
/// same depth), for boxes in general position.
#[test]
fn swapping_the_pair_flips_the_normal() {
    let mut rng = Rng(99);
    let mut checked = 0;
    for _ in 0..2000 {
        let ha = Vec2::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let hb = Vec2::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let pa = Pose2::new(Vec2::ZERO, rng.range(-PI, PI));
        let pb = Pose2::new(
            Vec2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)),
            rng.range(-PI, PI),
        );
        let ab = contact(&rect(ha), &pa, &rect(hb), &pb, 0.0);
        let ba = contact(&rect(hb), &pb, &rect(ha), &pa, 0.0);
        match (ab, ba) {
            (Some(x), Some(y)) => {
                assert!((x.depth() - y.depth()).abs() < 1e-4, "{x:?} {y:?}");
                assert!((x.normal + y.normal).length() < 1e-3, "{x:?} {y:?}");
                checked += 1;
            }
            (None, None) => {}
            (x, y) => {
                // Only exactly-touching pairs may differ by rounding.
                let d = x.or(y).map(|m| m.depth()).unwrap_or(0.0);
                assert!(d.abs() < 1e-5, "{x:?} {y:?}");
            }
        }
    }
    assert!(checked > 500);
}
