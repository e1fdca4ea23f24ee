//! Contact manifolds of two polytopes from their separating axis: face contact
//! by clipping, edge contact by the closest points of the two edges.

use super::clip::{clip, ClipBuffer, MAX_CLIPPED};
use super::closest::segment_segment;
use super::polytope::{Polygon, Polytope};
use super::reduce::reduce_to_four;
use super::separation::{sat_within_or_gap, SatAxis, SatResult};
use crate::math::{Pose3, Vec3};
use crate::query::gjk::{gjk, GjkStatus, SupportMap};
use crate::query::types::{ContactId, ContactPoint3, Feature, Manifold3};

/// The contact manifold of two polytopes, in A's frame (B placed by `b_in_a`),
/// when their separation is at most `prediction`.
pub fn polytope_manifold<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    polytope_manifold_or_gap(a, b, b_in_a, prediction).ok()
}

/// [`polytope_manifold`], or when there is none, a lower bound on the
/// distance between the shapes: the separation of the first axis found to
/// separate them by more than `prediction` (the projections of two shapes
/// on a unit axis are at least their distance apart), `prediction` when the
/// features turned out farther apart than it, or `-∞` when no bound is
/// known (no axis, NaN).
pub fn polytope_manifold_or_gap<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    prediction: f32,
) -> Result<Manifold3, f32> {
    let r = match sat_within_or_gap(a, b, b_in_a, prediction) {
        Ok(r) => r,
        Err(gap) => return Err(gap.unwrap_or(f32::NEG_INFINITY)),
    };
    if r.separation > prediction {
        return Err(r.separation);
    }
    if r.separation.is_nan() {
        return Err(f32::NEG_INFINITY);
    }
    let m = manifold_from_axis(a, b, b_in_a, &r, prediction);
    // Empty: the features turned out farther apart than `prediction`.
    if m.is_empty() {
        Err(prediction)
    } else {
        Ok(m)
    }
}

/// Builds the manifold for the axis `r` found by [`sat`](super::sat); empty when the
/// shapes turn out farther apart than `prediction`.
pub fn manifold_from_axis<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    r: &SatResult,
    prediction: f32,
) -> Manifold3 {
    manifold_from_axis_in::<MAX_CLIPPED, A, B>(a, b, b_in_a, r, prediction)
}

/// [`manifold_from_axis`] with clipping buffers of capacity `N`: enough for
/// any pair when `N` is at least the sum of the two largest face polygons
/// (points past it are dropped).
pub(crate) fn manifold_from_axis_in<const N: usize, A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    r: &SatResult,
    prediction: f32,
) -> Manifold3 {
    let mut m = Manifold3::new(r.normal);
    let mut reference = Polygon::default();
    let mut incident = Polygon::default();
    match r.axis {
        SatAxis::FaceA(f) => {
            a.face_polygon(f, &mut reference);
            let (n, d) = a.face_plane(f);
            b.incident_polygon(b_in_a.inverse_transform_vector(-n), &mut incident);
            incident.transform(b_in_a);
            face_contact_fit::<N>(
                &reference,
                (n, d),
                n,
                &incident,
                true,
                prediction,
                r.normal,
                &mut m,
            );
        }
        SatAxis::FaceB(f) => {
            b.face_polygon(f, &mut reference);
            reference.transform(b_in_a);
            let (nb, db) = b.face_plane(f);
            let n = b_in_a.transform_vector(nb);
            let d = db + n.dot(b_in_a.translation);
            a.incident_polygon(-n, &mut incident);
            face_contact_fit::<N>(
                &reference,
                (n, d),
                n,
                &incident,
                false,
                prediction,
                r.normal,
                &mut m,
            );
        }
        SatAxis::Edges(ea, eb) => {
            let (pa, qa) = a.edge(ea);
            let (pb, qb) = b.edge(eb);
            let (pb, qb) = (b_in_a.transform_point(pb), b_in_a.transform_point(qb));
            let (s, t) = segment_segment(pa, qa, pb, qb);
            let xa = pa + (qa - pa) * s;
            let xb = pb + (qb - pb) * t;
            let mut depth = -r.separation;
            // Apart, the SAT separation only bounds the distance from below;
            // when these edges' closest points are farther apart than it, they
            // give the normal and the (negative) depth instead, so that the
            // point pair lies along the normal.
            let gap = xb - xa;
            let tol = 1e-5 * a.scale().max(b.scale()).max(1e-6);
            // Both edges lie in planes normal to the axis, so the gap's part
            // along it is the separation; what is left is off the axis.
            let off_axis = gap - r.normal * r.normal.dot(gap);
            if r.separation > 0.0 && off_axis.length() > tol {
                m.normal = gap.normalize();
                depth = -gap.length();
            }
            // Farther than `prediction`, these edges give no point; the
            // shapes may still be closer elsewhere (the closest points below).
            if depth >= -prediction {
                m.push(ContactPoint3 {
                    point_a: xa,
                    point_b: xb,
                    depth,
                    id: ContactId::new(Feature::edge(ea), Feature::edge(eb)),
                });
            }
        }
    }
    // The deepest vertex along a face axis may lie outside the reference
    // face's prism (deep overlaps): clipping then misses the MTD's depth, and
    // the supporting vertex joins the points so that the manifold's depth is
    // the exact penetration. Also the fallback when clipping lost every point.
    let tol = 1e-5 * a.scale().max(b.scale()).max(1e-6);
    let is_face = !matches!(r.axis, SatAxis::Edges(..));
    if r.separation <= 0.0 && (m.is_empty() || (is_face && m.depth() < -r.separation - tol)) {
        let n = r.normal;
        let (pb, fb) = b.support_vertex(b_in_a.inverse_transform_vector(-n));
        let (pa, fa) = a.support_vertex(n);
        let pb = b_in_a.transform_point(pb);
        let depth = -r.separation;
        let (point_a, point_b, id) = match r.axis {
            SatAxis::FaceB(f) => (pa, pa - n * depth, ContactId::new(fa, Feature::face(f))),
            SatAxis::FaceA(f) => (pb + n * depth, pb, ContactId::new(Feature::face(f), fb)),
            SatAxis::Edges(..) => (pb + n * depth, pb, ContactId::new(fa, fb)),
        };
        let mut cand = [ContactPoint3 {
            point_a,
            point_b,
            depth,
            id,
        }; 5];
        cand[1..=m.len()].copy_from_slice(m.points());
        let len = m.len() + 1;
        m = Manifold3::new(n);
        reduce_to_four(&cand[..len], n, &mut m);
    }
    // Apart, the axis's separation only bounds the distance from below, and
    // clipping loses every point when the incident face lies wholly outside
    // the reference face's prism (two boxes corner to corner). The closest
    // points then give the one speculative point, if within `prediction`.
    if m.is_empty() && r.separation > 0.0 {
        closest_point(a, b, b_in_a, prediction, &mut m);
    }
    m
}

/// A polytope seen by GJK through its support function.
struct Support<'a, P>(&'a P);

impl<P: Polytope> SupportMap for Support<'_, P> {
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.0.support(dir)
    }
}

/// Sets `m` to the single point pair of the closest points of `a` and `b`
/// (GJK), with the normal along their gap, when they are apart by at most
/// `prediction`; leaves `m` as it is otherwise. The point's id names the two
/// vertices that support the shapes along the normal.
fn closest_point<A: Polytope, B: Polytope>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    prediction: f32,
    m: &mut Manifold3,
) {
    let g = gjk(&Support(a), &Support(b), b_in_a, None);
    if g.status != GjkStatus::Separated || !(g.distance > 0.0 && g.distance <= prediction) {
        return;
    }
    let normal = (g.point_b - g.point_a) / g.distance;
    if !normal.is_finite() {
        return;
    }
    let (_, fa) = a.support_vertex(normal);
    let (_, fb) = b.support_vertex(b_in_a.inverse_transform_vector(-normal));
    *m = Manifold3::new(normal);
    m.push(ContactPoint3 {
        point_a: g.point_a,
        point_b: g.point_b,
        depth: -g.distance,
        id: ContactId::new(fa, fb),
    });
}

/// Face contact: clips `incident` against the side planes of `reference` (a
/// face with plane `(n_r, d_r)`, counter-clockwise around `n_r`), measures each
/// clipped point's depth below the reference plane along `w` (the direction
/// from the reference shape to the incident one; `w = n_r` for a SAT face
/// axis), keeps those deeper than `-prediction` and reduces them to 4 into `m`.
/// `normal` is the manifold normal (A to B).
#[allow(clippy::too_many_arguments)]
pub(crate) fn face_contact(
    reference: &Polygon,
    plane: (Vec3, f32),
    w: Vec3,
    incident: &Polygon,
    ref_is_a: bool,
    prediction: f32,
    normal: Vec3,
    m: &mut Manifold3,
) {
    face_contact_fit::<MAX_CLIPPED>(
        reference, plane, w, incident, ref_is_a, prediction, normal, m,
    );
}

/// [`face_contact_in`] with the smallest of the buffer sizes 8 and `N` that
/// holds the clipped polygon: clipping an `n`-gon by the sides of an `m`-gon
/// gives at most `n + m` vertices, and small buffers cost less to set up
/// (two triangles, two quadrilaterals).
#[allow(clippy::too_many_arguments)]
#[inline]
fn face_contact_fit<const N: usize>(
    reference: &Polygon,
    plane: (Vec3, f32),
    w: Vec3,
    incident: &Polygon,
    ref_is_a: bool,
    prediction: f32,
    normal: Vec3,
    m: &mut Manifold3,
) {
    if reference.len() + incident.len() <= 8 {
        face_contact_in::<8>(
            reference, plane, w, incident, ref_is_a, prediction, normal, m,
        );
    } else {
        face_contact_in::<N>(
            reference, plane, w, incident, ref_is_a, prediction, normal, m,
        );
    }
}

/// [`face_contact`] with a clipping buffer of capacity `N` (see
/// [`manifold_from_axis_in`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn face_contact_in<const N: usize>(
    reference: &Polygon,
    (n_r, d_r): (Vec3, f32),
    w: Vec3,
    incident: &Polygon,
    ref_is_a: bool,
    prediction: f32,
    normal: Vec3,
    m: &mut Manifold3,
) {
    let mut clipped = ClipBuffer::<N>::default();
    // The side planes are parallel to `w`; orient the loop test by `n_r`, which
    // the loop winds around. Using `w` keeps the prism along the contact normal.
    let axis = if n_r.dot(w) >= 0.0 { w } else { -w };
    clip(reference, axis, incident, &mut clipped);
    let nw = n_r.dot(w);
    if nw.abs() <= 1e-6 {
        return;
    }
    let mut pts = [ContactPoint3::default(); N];
    let mut len = 0;
    for v in clipped.vertices() {
        let p = v.point;
        // Depth s: p + s·w lies on the reference plane.
        let s = (d_r - n_r.dot(p)) / nw;
        if s < -prediction || s.is_nan() {
            continue;
        }
        let q = p + w * s;
        let (point_a, point_b, id) = if ref_is_a {
            (q, p, ContactId::new(v.reference, v.incident))
        } else {
            (p, q, ContactId::new(v.incident, v.reference))
        };
        pts[len] = ContactPoint3 {
            point_a,
            point_b,
            depth: s,
            id,
        };
        len += 1;
    }
    reduce_to_four(&pts[..len], normal, m);
}
