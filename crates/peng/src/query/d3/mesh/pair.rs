//! Two triangle surfaces against each other: the triangle pairs whose boxes
//! meet (grown by the prediction) run the triangle-triangle contact, and the
//! manifolds are merged per normal. No internal-edge correction here: both
//! sides are surfaces, and a pair of crossing surfaces has no single
//! separating direction to check against.

use super::convex::relabel;
use super::internal_edges::{classify, mesh_feature};
use super::view::MeshView;
use crate::math::{Pose3, Vec3};
use crate::query::d3::contact::contact_pair;
use crate::query::types::{ContactId, Manifold3};
use crate::shape::d3::{Shape, Triangle};

/// Per-triangle-pair manifolds of `a` (at the identity) and `b` (placed by
/// `b_in_a`), in A's frame, with mesh-wide feature ids on both sides.
pub(crate) fn triangle_pair_manifolds<A: MeshView, B: MeshView>(
    a: &A,
    b: &B,
    b_in_a: &Pose3,
    prediction: f32,
    parts: &mut Vec<Manifold3>,
) {
    let grow = prediction.max(0.0);
    let a_in_b = b_in_a.inverse();
    let b_box = b.bounds().transformed(b_in_a).loosened(grow);
    a.for_each_candidate(&b_box, |ta, ca| {
        let Ok(tri_a) = Triangle::new(ca[0], ca[1], ca[2]) else {
            return;
        };
        let sa = Shape::Triangle(tri_a);
        let a_box = crate::bound::Aabb3::from_points(*ca)
            .transformed(&a_in_b)
            .loosened(grow);
        b.for_each_candidate(&a_box, |tb, cb| {
            let cb: [Vec3; 3] = cb.map(|v| b_in_a.transform_point(v));
            let Ok(tri_b) = Triangle::new(cb[0], cb[1], cb[2]) else {
                return;
            };
            let sb = Shape::Triangle(tri_b);
            let Some(m) = contact_pair(&sa, &Pose3::IDENTITY, &sb, &Pose3::IDENTITY, prediction)
            else {
                return;
            };
            let mut m = relabel(a, ta, ca, &m);
            for p in m.points_mut() {
                let fb = mesh_feature(b, tb, classify(&cb, p.point_b));
                p.id = ContactId::new(crate::query::types::Feature((p.id.0 >> 16) as u16), fb);
            }
            parts.push(m);
        });
    });
}
