//! Differential tests of peng's 2D pair queries against parry2d: for every pair
//! of convex kinds (circle, capsule, rect, segment, triangle, convex polygon)
//! 10,000 random pairs, checked by `common::pairs` (see there for the checks,
//! the tolerances and when a mismatch is excused). The counts scale with
//! `PENG_TEST_SCALE` and the written seeds combine with `PENG_TEST_SEED`
//! (`peng_bench::seeds`, `docs/testing.md`).

mod common;

use common::pairs;
use common::peer::Peer;
use peng::d2::{Shape, ShapeKind};
use peng_bench::dim::{Dim, D2};
use peng_bench::Rng;

/// Whether the overlapping fraction `frac` is sensible for the kinds: two flat
/// shapes (segments, triangles) cross less often than solid ones, two segments
/// cross in about 15 % of pairs.
fn balanced(ka: ShapeKind, kb: ShapeKind, frac: f32) -> bool {
    let flat = |k| matches!(k, ShapeKind::Segment | ShapeKind::Triangle);
    pairs::overlap_fraction_ok(flat(ka) && flat(kb), frac)
}

fn run(ka: ShapeKind, kb: ShapeKind) {
    pairs::run::<D2>(ka, kb, 0xd1ff_2d00, balanced);
}

common::pair_tests! {
    circle_circle: Circle, Circle;
    circle_capsule: Circle, Capsule;
    circle_rect: Circle, Rect;
    circle_segment: Circle, Segment;
    circle_triangle: Circle, Triangle;
    circle_polygon: Circle, Polygon;
    capsule_capsule: Capsule, Capsule;
    capsule_rect: Capsule, Rect;
    capsule_segment: Capsule, Segment;
    capsule_triangle: Capsule, Triangle;
    capsule_polygon: Capsule, Polygon;
    rect_rect: Rect, Rect;
    rect_segment: Rect, Segment;
    rect_triangle: Rect, Triangle;
    rect_polygon: Rect, Polygon;
    segment_segment: Segment, Segment;
    segment_triangle: Segment, Triangle;
    segment_polygon: Segment, Polygon;
    triangle_triangle: Triangle, Triangle;
    triangle_polygon: Triangle, Polygon;
    polygon_polygon: Polygon, Polygon;
}

/// The parry side and the input generators run on every kind (checked with peng
/// left out): every shape converts, parry answers every query, and the inputs
/// are balanced.
#[test]
fn parry_side_runs_and_inputs_are_balanced() {
    pairs::parry_side_runs_and_inputs_are_balanced::<D2>(balanced);
}

/// A compound converts too.
#[test]
fn every_kind_converts() {
    let mut rng = Rng::new(3);
    let s: Shape = D2::random_shape(&mut rng, ShapeKind::Compound).expect("generator");
    let _ = <D2 as Peer>::parry_shape(&s);
}
