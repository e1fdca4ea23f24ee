//! The general convex route (pairs with a cylinder or a cone): the normal and
//! depth come from the signed distance (GJK, with EPA's MTD when overlapping),
//! then the manifold is built from the support features of each shape along
//! the normal, the flatter one clipping the other.

use super::features::{support_feature, FEATURE_SIN};
use crate::math::{Pose3, Vec3};
use crate::query::sat::closest::{point_segment, segment_segment};
use crate::query::sat::reduce::reduce_to_four;
use crate::query::sat::{face_contact, Polygon};
use crate::query::types::{ContactId, ContactPoint3, Manifold3};
use crate::shape::d3::Shape;

/// Contact of two bounded convex shapes, in A's frame (B placed by `b_in_a`).
pub(super) fn general_contact(
    a: &Shape,
    b: &Shape,
    b_in_a: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    let d = crate::query::d3::distance(a, &Pose3::IDENTITY, b, b_in_a);
    if d.distance > prediction || d.distance.is_nan() {
        return None;
    }
    let n = d.normal;
    let mut fa = Polygon::default();
    let mut fb = Polygon::default();
    support_feature(a, n, &mut fa);
    support_feature(b, b_in_a.inverse_transform_vector(-n), &mut fb);
    fb.transform(b_in_a);
    // When overlapping, the depth is the overlap of the two shapes along the
    // normal, from their exact support points: then moving B by the depth
    // along the normal separates them whatever the accuracy of the expanding
    // polytope. The deepest pair is placed on the support features: at a
    // point feature when one side has one, at the closest points of two edge
    // features, else at the deepest vertex of the smaller feature.
    let (depth0, exact_a, exact_b) = if d.distance < 0.0 {
        let sa = a.local_support(n);
        let sb = b_in_a.transform_point(b.local_support(b_in_a.inverse_transform_vector(-n)));
        let depth = (sa - sb).dot(n);
        let (va, vb) = (fa.vertices(), fb.vertices());
        if va.len() == 1 {
            (depth, va[0].point, va[0].point - n * depth)
        } else if vb.len() == 1 {
            (depth, vb[0].point + n * depth, vb[0].point)
        } else if va.len() == 2 && vb.len() == 2 {
            let (p, q) = (va[0].point, va[1].point);
            let (s, t) = segment_segment(p, q, vb[0].point, vb[1].point);
            let xa = p + (q - p) * s;
            let xb = vb[0].point + (vb[1].point - vb[0].point) * t;
            let mid = (xa + xb) * 0.5;
            (depth, mid + n * (depth * 0.5), mid - n * (depth * 0.5))
        } else if va.len() <= vb.len() {
            // A's feature is the smaller one: its deepest vertex along n.
            let p =
                va.iter()
                    .map(|v| v.point)
                    .fold(sa, |best, q| if q.dot(n) > best.dot(n) { q } else { best });
            (depth, p, p - n * depth)
        } else {
            let p =
                vb.iter()
                    .map(|v| v.point)
                    .fold(sb, |best, q| if q.dot(n) < best.dot(n) { q } else { best });
            (depth, p + n * depth, p)
        }
    } else {
        (-d.distance, d.point_a, d.point_b)
    };

    let mut m = Manifold3::new(n);
    let align_a = if fa.len() >= 3 {
        fa.normal.dot(n)
    } else {
        -1.0
    };
    let align_b = if fb.len() >= 3 {
        -fb.normal.dot(n)
    } else {
        -1.0
    };
    if align_a > 0.0 && align_a >= align_b && fb.len() >= 2 {
        let plane = (fa.normal, fa.normal.dot(fa.vertices()[0].point));
        face_contact(&fa, plane, n, &fb, true, prediction, n, &mut m);
    } else if align_b > 0.0 && fa.len() >= 2 {
        let plane = (fb.normal, fb.normal.dot(fb.vertices()[0].point));
        face_contact(&fb, plane, -n, &fa, false, prediction, n, &mut m);
    } else if fa.len() == 2 && fb.len() == 2 {
        segment_pair(&fa, &fb, n, prediction, &mut m);
    }

    // Depths of the approximate features never exceed the exact one; the
    // exact deepest pair joins when no clipped point reaches it.
    let scale_tol = 1e-6 * (exact_a.length() + exact_b.length()).max(1.0);
    let mut cand = [ContactPoint3::default(); 5];
    let mut len = 0;
    let mut reached = f32::NEG_INFINITY;
    for p in m.points() {
        let mut p = *p;
        if p.depth > depth0 + 100.0 * scale_tol {
            // Measured against a tilted approximate feature: farther than the
            // shapes overlap along the normal, so not a real pair. Dropped.
            continue;
        }
        if p.depth > depth0 {
            p.depth = depth0;
            p.point_a = p.point_b + n * depth0;
        }
        reached = reached.max(p.depth);
        cand[len] = p;
        len += 1;
    }
    if len == 0 || reached < depth0 - scale_tol {
        // The exact pair goes first so that it is kept.
        cand.copy_within(0..len, 1);
        cand[0] = ContactPoint3 {
            point_a: exact_a,
            point_b: exact_b,
            depth: depth0,
            id: ContactId::new(fa.feature, fb.feature),
        };
        len += 1;
    }
    let mut out = Manifold3::new(n);
    reduce_to_four(&cand[..len], n, &mut out);
    Some(out)
}

/// Two nearly parallel edges (both nearly perpendicular to `n`): the ends of
/// their overlap along A's edge.
fn segment_pair(fa: &Polygon, fb: &Polygon, n: Vec3, prediction: f32, m: &mut Manifold3) {
    let (a0, a1) = (fa.vertices()[0], fa.vertices()[1]);
    let (b0, b1) = (fb.vertices()[0], fb.vertices()[1]);
    let da = a1.point - a0.point;
    let db = b1.point - b0.point;
    let (la, lb) = (da.length(), db.length());
    if la <= 0.0 || lb <= 0.0 || da.cross(db).length() > FEATURE_SIN * la * lb {
        return;
    }
    let la2 = la * la;
    let ta = (b0.point - a0.point).dot(da) / la2;
    let tb = (b1.point - a0.point).dot(da) / la2;
    let lo = ta.min(tb).max(0.0);
    let hi = ta.max(tb).min(1.0);
    if hi <= lo {
        return;
    }
    for t in [lo, hi] {
        let xa = a0.point + da * t;
        let u = point_segment(b0.point, b1.point, xa);
        let xb = b0.point + db * u;
        let depth = (xa - xb).dot(n);
        if depth >= -prediction {
            let f_a = if t <= 0.0 {
                a0.vertex
            } else if t >= 1.0 {
                a1.vertex
            } else {
                fa.feature
            };
            let f_b = if u <= 0.0 {
                b0.vertex
            } else if u >= 1.0 {
                b1.vertex
            } else {
                fb.feature
            };
            m.push(ContactPoint3 {
                point_a: xb + n * depth,
                point_b: xb,
                depth,
                id: ContactId::new(f_a, f_b),
            });
        }
    }
}
