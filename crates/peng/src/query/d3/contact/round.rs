//! Pairs of round shapes built on a point or a segment core: balls, capsules
//! and segments (a ball is a capsule whose core is a point; a segment is a
//! capsule of radius zero).

use super::project::Proj;
use crate::math::tolerance::{ANGULAR_SLOP, ZERO_LENGTH_SQ};
use crate::math::{Pose3, Vec3};
use crate::query::sat::closest::{point_segment, segment_segment};
use crate::query::types::{ContactId, ContactPoint3, Feature, Manifold3};

/// A core segment (a point when both ends coincide) and a radius.
#[derive(Debug, Clone, Copy)]
pub struct Core {
    /// First end.
    pub a: Vec3,
    /// Second end.
    pub b: Vec3,
    /// Radius around the core.
    pub r: f32,
}

/// The feature of a core at parameter `t`: vertex 0, vertex 1, or edge 0
/// (a point core is vertex 0).
#[inline]
fn core_feature(c: &Core, t: f32) -> Feature {
    if (c.b - c.a).length_squared() <= ZERO_LENGTH_SQ || t <= 0.0 {
        Feature::vertex(0)
    } else if t >= 1.0 {
        Feature::vertex(1)
    } else {
        Feature::edge(0)
    }
}

/// The contact of two cores (both in A's frame): one point from the closest
/// points, or two when the cores are parallel and overlap along their length.
pub fn cores_contact(ca: &Core, cb: &Core, prediction: f32) -> Option<Manifold3> {
    let (s, t) = segment_segment(ca.a, ca.b, cb.a, cb.b);
    let da = ca.b - ca.a;
    let db = cb.b - cb.a;
    let pa = ca.a + da * s;
    let pb = cb.a + db * t;
    let gap = pb - pa;
    let dist = gap.length();
    let rr = ca.r + cb.r;
    if dist - rr > prediction || dist.is_nan() {
        return None;
    }
    let cross = da.cross(db);
    // Below a few ulps of the coordinates the gap's direction is rounding noise.
    let eps = crate::math::tolerance::REL_EPS * (pa.abs().max_element() + pb.abs().max_element());
    let crossing = cross.length_squared() > 1e-8 * da.length_squared() * db.length_squared()
        && s > 0.0
        && s < 1.0
        && t > 0.0
        && t < 1.0;
    let normal = if crossing && dist > eps {
        // Closest points inside both cores: the gap is along the common
        // perpendicular, which the cross product gives to full precision even
        // when the gap is tiny.
        let n = cross.normalize();
        if n.dot(gap) < 0.0 {
            -n
        } else {
            n
        }
    } else if dist > eps && dist * dist > ZERO_LENGTH_SQ {
        gap / dist
    } else if cross.length_squared() > ZERO_LENGTH_SQ * da.length_squared().max(1.0) {
        // Crossing cores: the MTD is normal to both (the Minkowski difference
        // of the cores is flat there). Orient it from A's middle to B's.
        let n = cross.normalize();
        let mid = (cb.a + cb.b - ca.a - ca.b) * 0.5;
        if n.dot(mid) < 0.0 {
            -n
        } else {
            n
        }
    } else if da.length_squared() > ZERO_LENGTH_SQ {
        da.normalize().any_orthonormal_vector()
    } else if db.length_squared() > ZERO_LENGTH_SQ {
        db.normalize().any_orthonormal_vector()
    } else {
        Vec3::X
    };
    let mut m = Manifold3::new(normal);
    let push = |m: &mut Manifold3, xa: Vec3, xb: Vec3, fa: Feature, fb: Feature| {
        let depth = rr - (xb - xa).dot(normal);
        if depth >= -prediction {
            m.push(ContactPoint3 {
                point_a: xa + normal * ca.r,
                point_b: xb - normal * cb.r,
                depth,
                id: ContactId::new(fa, fb),
            });
        }
    };
    // Parallel cores overlapping along A: two points at the overlap's ends.
    let la2 = da.length_squared();
    let lb2 = db.length_squared();
    let parallel = la2 > ZERO_LENGTH_SQ
        && lb2 > ZERO_LENGTH_SQ
        && cross.length_squared() <= (ANGULAR_SLOP * ANGULAR_SLOP) * la2 * lb2;
    if parallel {
        let ta = (cb.a - ca.a).dot(da) / la2;
        let tb = (cb.b - ca.a).dot(da) / la2;
        let lo = ta.min(tb).max(0.0);
        let hi = ta.max(tb).min(1.0);
        if (hi - lo) * la2.sqrt() > 1e-5 * la2.sqrt().max(1.0) {
            for t0 in [lo, hi] {
                let xa = ca.a + da * t0;
                let u = point_segment(cb.a, cb.b, xa);
                let xb = cb.a + db * u;
                push(&mut m, xa, xb, core_feature(ca, t0), core_feature(cb, u));
            }
            if m.len() == 2 {
                return Some(m);
            }
            m = Manifold3::new(normal);
        }
    }
    push(&mut m, pa, pb, core_feature(ca, s), core_feature(cb, t));
    if m.is_empty() {
        None
    } else {
        Some(m)
    }
}

/// The contact of a ball (radius `r`, centred on A's origin) with a shape B
/// whose surface projection of the centre is `proj` (B's frame).
pub fn ball_contact(r: f32, proj: &Proj, b_in_a: &Pose3, prediction: f32) -> Option<Manifold3> {
    let depth = r - proj.dist;
    if depth < -prediction || depth.is_nan() {
        return None;
    }
    // B's normal points to the centre (or out of B when the centre is inside);
    // the contact normal runs from A (the ball) to B.
    let n = -b_in_a.transform_vector(proj.normal);
    let mut m = Manifold3::new(n);
    m.push(ContactPoint3 {
        point_a: n * r,
        point_b: b_in_a.transform_point(proj.point),
        depth,
        id: ContactId::new(Feature::vertex(0), proj.feature),
    });
    Some(m)
}
