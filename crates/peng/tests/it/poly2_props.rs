//! Property tests of the 2D polyline pair queries: swap symmetry, agreement
//! with the single-segment queries, distance sign against overlap.

use peng::d2::*;
use proptest::prelude::*;

const TOL: f32 = 2e-4;

/// A convex shape of kind `k` (0..6) from 8 parameters in [-1, 1].
fn convex(k: u8, p: &[f32; 8]) -> Shape {
    let s = |x: f32| 0.1 + x.abs();
    let v = |i: usize| Vec2::new(p[i], p[i + 1]);
    match k {
        0 => Circle::new(s(p[0])).unwrap().into(),
        1 => Capsule::new(v(0), v(2), 0.05 + p[4].abs() * 0.5)
            .unwrap()
            .into(),
        2 => Rect::new(Vec2::new(s(p[0]), s(p[1]))).unwrap().into(),
        3 => Segment::new(v(0), v(2) + Vec2::new(0.3, 0.1))
            .unwrap()
            .into(),
        4 => {
            let (a, b, mut c) = (v(0), v(2), v(4));
            if (b - a).perp_dot(c - a).abs() < 0.05 {
                c = a + (b - a).perp() + Vec2::new(0.3, 0.2);
            }
            Triangle::new(a, b, c).unwrap().into()
        }
        _ => {
            let pts: Vec<Vec2> = (0..4).map(|i| v(2 * i)).collect();
            ConvexPolygon::from_points(&pts)
                .unwrap_or_else(|_| {
                    ConvexPolygon::from_points(&[Vec2::ZERO, Vec2::X, Vec2::Y]).unwrap()
                })
                .into()
        }
    }
}

/// A chain of 2 to 8 segments: a random walk of steps in [-1, 1]² plus a
/// drift along x (collinear runs and sharp corners both occur).
fn chain(steps: &[(f32, f32)]) -> Polyline {
    let mut v = vec![Vec2::new(-2.0, 0.0)];
    for &(dx, dy) in steps {
        let last = v[v.len() - 1];
        v.push(last + Vec2::new(0.6 + dx, dy));
    }
    Polyline::new(v, None).unwrap()
}

fn steps() -> impl Strategy<Value = Vec<(f32, f32)>> {
    prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 2..9)
}

fn pose() -> impl Strategy<Value = Pose2> {
    (-2.5f32..2.5, -2.0f32..2.0, -3.2f32..3.2).prop_map(|(x, y, a)| Pose2::new(Vec2::new(x, y), a))
}

/// The polyline's segments as `Shape::Segment`s.
fn segments(p: &Polyline) -> Vec<Shape> {
    (0..p.segments().len() as u32)
        .map(|i| {
            let [a, b] = p.segment(i);
            Segment::new(a, b).unwrap().into()
        })
        .collect()
}

proptest! {
    #![proptest_config(crate::seeds::cases(300))]

    /// Both argument orders give the same answers, mirrored.
    #[test]
    fn swap_symmetry(st in steps(), k in 0u8..6, p in prop::array::uniform8(-1.0f32..1.0),
                     pa in pose(), pb in pose()) {
        let l: Shape = chain(&st).into();
        let s = convex(k, &p);
        prop_assert_eq!(intersects(&l, &pa, &s, &pb), intersects(&s, &pb, &l, &pa));
        let d1 = distance(&l, &pa, &s, &pb);
        let d2 = distance(&s, &pb, &l, &pa);
        prop_assert!((d1.distance - d2.distance).abs() <= TOL, "{:?} {:?}", d1, d2);
        prop_assert!((d1.normal + d2.normal).length() <= 1e-3 || d1.distance.abs() < TOL);
        let (mut m1, mut m2) = (Vec::new(), Vec::new());
        contacts(&l, &pa, &s, &pb, 0.1, &mut m1);
        contacts(&s, &pb, &l, &pa, 0.1, &mut m2);
        prop_assert_eq!(m1.len(), m2.len());
        for (a, b) in m1.iter().zip(&m2) {
            prop_assert!((a.normal + b.normal).length() <= 1e-5, "{:?} {:?}", a, b);
            prop_assert_eq!(a.len(), b.len());
            for (x, y) in a.points().iter().zip(b.points()) {
                prop_assert!((x.point_a - y.point_b).length() <= TOL);
                prop_assert!((x.depth - y.depth).abs() <= TOL);
                prop_assert_eq!(x.id, y.id.swapped());
            }
        }
    }

    /// With the correction off, the polyline's contact is the best of the
    /// single-segment contacts, its distance their minimum, its overlap
    /// their union; with it on, the distance and overlap are the same and a
    /// contact exists exactly when a segment has one.
    #[test]
    fn polyline_is_the_best_of_its_segments(st in steps(), k in 0u8..6,
                                            p in prop::array::uniform8(-1.0f32..1.0),
                                            pa in pose(), pb in pose()) {
        let pl = chain(&st);
        let segs = segments(&pl);
        let l: Shape = pl.into();
        let s = convex(k, &p);
        let pred = 0.1;
        let best = segs.iter().filter_map(|g| contact(g, &pa, &s, &pb, pred))
            .map(|m| m.depth()).fold(f32::NEG_INFINITY, f32::max);
        let off = ContactOptions { fix_internal_vertices: false };
        let mut ms = Vec::new();
        contacts_with_options(&l, &pa, &s, &pb, pred, &off, &mut ms);
        let got = ms.iter().map(|m| m.depth()).fold(f32::NEG_INFINITY, f32::max);
        prop_assert_eq!(ms.is_empty(), best == f32::NEG_INFINITY);
        if !ms.is_empty() {
            prop_assert!((got - best).abs() <= TOL, "{} vs {}", got, best);
        }
        // The correction only replaces contacts (a replaced one measures its
        // depth along the segment's face normal, so it can be deeper than
        // the segment's minimum translation), and never hides an overlap.
        let on = contact(&l, &pa, &s, &pb, pred);
        if on.is_some() {
            prop_assert!(!ms.is_empty());
        }
        if best > TOL {
            prop_assert!(on.is_some_and(|m| m.depth() > 0.0), "{:?} vs {}", on, best);
        }
        let dmin = segs.iter().map(|g| distance(g, &pa, &s, &pb).distance)
            .fold(f32::INFINITY, f32::min);
        let d = distance(&l, &pa, &s, &pb);
        prop_assert!((d.distance - dmin).abs() <= 1e-5, "{} vs {}", d.distance, dmin);
        let any = segs.iter().any(|g| intersects(g, &pa, &s, &pb));
        prop_assert_eq!(intersects(&l, &pa, &s, &pb), any);
    }

    /// Distance and overlap agree; the closest points are on the shapes and
    /// `distance` apart along the normal.
    #[test]
    fn distance_sign_and_points(st in steps(), k in 0u8..6,
                                p in prop::array::uniform8(-1.0f32..1.0),
                                pa in pose(), pb in pose()) {
        let l: Shape = chain(&st).into();
        let s = convex(k, &p);
        let d = distance(&l, &pa, &s, &pb);
        let hit = intersects(&l, &pa, &s, &pb);
        if d.distance > TOL {
            prop_assert!(!hit, "{:?}", d);
        }
        if d.distance < -TOL {
            prop_assert!(hit, "{:?}", d);
        }
        if d.distance > 0.0 {
            prop_assert!(((d.point_b - d.point_a).length() - d.distance).abs() <= TOL);
            prop_assert!((d.point_b - d.point_a - d.normal * d.distance).length() <= 1e-3);
            let on_l = project_point(&l, &pa, d.point_a, false).point;
            prop_assert!((on_l - d.point_a).length() <= TOL);
        }
    }

    /// Two polylines: distance is the minimum over segment pairs, overlap
    /// the union, both orders agree.
    #[test]
    fn polyline_pairs(s1 in steps(), s2 in steps(), pa in pose(), pb in pose()) {
        let (p1, p2) = (chain(&s1), chain(&s2));
        let (g1, g2) = (segments(&p1), segments(&p2));
        let (l1, l2): (Shape, Shape) = (p1.into(), p2.into());
        let mut dmin = f32::INFINITY;
        let mut any = false;
        for a in &g1 {
            for b in &g2 {
                dmin = dmin.min(distance(a, &pa, b, &pb).distance);
                any |= intersects(a, &pa, b, &pb);
            }
        }
        let d = distance(&l1, &pa, &l2, &pb);
        prop_assert!((d.distance - dmin).abs() <= 1e-5, "{} vs {}", d.distance, dmin);
        prop_assert!((distance(&l2, &pb, &l1, &pa).distance - dmin).abs() <= 1e-5);
        prop_assert_eq!(intersects(&l1, &pa, &l2, &pb), any);
        prop_assert_eq!(intersects(&l2, &pb, &l1, &pa), any);
        let m = contact(&l1, &pa, &l2, &pb, 0.0);
        prop_assert_eq!(m.is_some(), any || dmin <= 0.0, "{:?}", m);
    }
}
