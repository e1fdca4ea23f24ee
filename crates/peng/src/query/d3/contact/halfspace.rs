//! A half-space against any bounded convex shape: the points of the shape's
//! support feature below the plane (within the prediction), reduced to four.

use super::features::support_feature;
use crate::math::{Pose3, Vec3};
use crate::query::sat::reduce::reduce_to_four;
use crate::query::sat::Polygon;
use crate::query::types::{ContactId, ContactPoint3, Feature, Manifold3};
use crate::shape::d3::{HalfSpace, Shape};

/// Most candidate points examined (vertices of a polyhedron past this are
/// ignored for the manifold; the deepest one is always included).
const MAX_CANDIDATES: usize = 64;

/// Half-space A (plane through A's origin) against shape B placed by `b_in_a`.
/// Two half-spaces have no bounded overlap: `None`.
pub(super) fn halfspace_contact(
    h: &HalfSpace,
    b: &Shape,
    b_in_a: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    let n = h.normal();
    let nb = b_in_a.inverse_transform_vector(n);
    let mut cand = [ContactPoint3::default(); MAX_CANDIDATES];
    let mut len = 0usize;
    let mut add = |p: Vec3, f: Feature| {
        let pa = b_in_a.transform_point(p);
        let depth = -n.dot(pa);
        if depth >= -prediction && len < MAX_CANDIDATES {
            cand[len] = ContactPoint3 {
                point_a: pa + n * depth,
                point_b: pa,
                depth,
                id: ContactId::new(Feature::face(0), f),
            };
            len += 1;
        }
    };
    match b {
        Shape::HalfSpace(_) | Shape::Compound(_) | Shape::TriMesh(_) | Shape::HeightField(_) => {
            return None
        }
        Shape::Ball(s) => add(-nb * s.radius(), Feature::vertex(0)),
        Shape::Capsule(s) => {
            add(s.a() - nb * s.radius(), Feature::vertex(0));
            add(s.b() - nb * s.radius(), Feature::vertex(1));
        }
        Shape::Segment(s) => {
            add(s.a(), Feature::vertex(0));
            add(s.b(), Feature::vertex(1));
        }
        Shape::Triangle(t) => {
            for (i, &v) in t.vertices().iter().enumerate() {
                add(v, Feature::vertex(i));
            }
        }
        Shape::Cuboid(c) => {
            for (i, v) in c.vertices().into_iter().enumerate() {
                add(v, Feature::vertex(i));
            }
        }
        Shape::Polyhedron(p) => {
            // The deepest vertex first, so that it survives the cap.
            let s = p.support_vertex(-nb);
            add(p.vertices()[s], Feature::vertex(s));
            for (i, &v) in p.vertices().iter().enumerate() {
                if i != s {
                    add(v, Feature::vertex(i));
                }
            }
        }
        Shape::Cylinder(_) | Shape::Cone(_) => {
            // The exact support point, then the support feature's points.
            add(b.local_support(-nb), Feature::NONE);
            let mut poly = Polygon::default();
            support_feature(b, -nb, &mut poly);
            for v in poly.vertices() {
                add(v.point, v.vertex);
            }
        }
    }
    if len == 0 {
        return None;
    }
    // B lies on the outer side: the normal from A to B is the plane's normal.
    let mut m = Manifold3::new(n);
    reduce_to_four(&cand[..len], n, &mut m);
    Some(m)
}
