//! A triangle surface (mesh or height field) against a convex shape: the BVH
//! (or grid) gives the triangles under the shape's box, the ordinary
//! triangle-versus-shape contact runs on each, internal-edge contacts are
//! corrected ([`super::internal_edges`]) and the per-triangle manifolds are
//! merged per normal ([`super::reduce`]).

use super::internal_edges::{admits, classify, face_normal, mesh_feature};
use super::view::MeshView;
use crate::math::{Pose3, Vec3};
use crate::query::d3::contact::contact_pair;
use crate::query::d3::contact::features::support_feature;
use crate::query::sat::{face_contact, Polygon};
use crate::query::types::{ContactId, Feature, Manifold3};
use crate::shape::d3::{Shape, Triangle};

/// The per-triangle manifolds of `mesh` (A, at the identity) against the
/// convex `shape` placed by `b_in_m` in the mesh's frame, appended to `parts`
/// with mesh-wide feature ids on A's side. With `fix`, contacts outside the
/// surface's normal cone at their feature are replaced by face contacts.
pub(crate) fn triangle_manifolds<M: MeshView>(
    mesh: &M,
    shape: &Shape,
    b_in_m: &Pose3,
    prediction: f32,
    fix: bool,
    parts: &mut Vec<Manifold3>,
) {
    let bbox = shape.aabb(b_in_m).loosened(prediction.max(0.0));
    let one_sided = mesh.one_sided();
    let mut rejected = Vec::new();
    mesh.for_each_candidate(&bbox, |t, c| {
        let Ok(tri) = Triangle::new(c[0], c[1], c[2]) else {
            return;
        };
        let ts = Shape::Triangle(tri);
        let Some(m) = contact_pair(&ts, &Pose3::IDENTITY, shape, b_in_m, prediction) else {
            return;
        };
        let back = one_sided && face_normal(c).is_some_and(|n| n.dot(m.normal) < 0.0);
        let m = if back {
            // A one-sided surface pushes out of its front only.
            match face_manifold(c, shape, b_in_m, m.normal, prediction, true) {
                Some(f) => f,
                None => return,
            }
        } else if !fix {
            m
        } else if let Some(valid) = relabel_valid(mesh, t, c, &m) {
            // Classified once for both the check and the labels.
            parts.push(valid);
            return;
        } else {
            if m.depth() > 0.0 {
                rejected.push(relabel(mesh, t, c, &m));
            }
            match face_manifold(c, shape, b_in_m, m.normal, prediction, false) {
                Some(f) => f,
                None => return,
            }
        };
        parts.push(relabel(mesh, t, c, &m));
    });
    // The correction never turns an overlap into no contact: when nothing
    // penetrating is left but a rejected manifold was (a long shape piercing
    // the surface, whose deepest point is under no triangle it crosses), the
    // rejected manifolds stand.
    if !rejected.is_empty() && parts.iter().all(|m| m.depth() <= 0.0) {
        parts.append(&mut rejected);
    }
}

/// The triangle's manifold relabelled as by [`relabel`] when every point lies
/// on a feature whose normal cone holds the manifold's normal (always, on a
/// triangle without area), `None` otherwise: each point is classified once
/// for both.
fn relabel_valid<M: MeshView>(mesh: &M, t: u32, c: &[Vec3; 3], m: &Manifold3) -> Option<Manifold3> {
    let flat = face_normal(c).is_none();
    let mut out = *m;
    for p in out.points_mut() {
        let local = classify(c, p.point_a);
        if !(flat || admits(mesh, t, c, local, m.normal)) {
            return None;
        }
        p.id = ContactId::new(mesh_feature(mesh, t, local), Feature(p.id.0 as u16));
    }
    Some(out)
}

/// Replaces A's feature in each id by the mesh-wide feature of the point's
/// place on triangle `t` (B's feature is kept).
pub(crate) fn relabel<M: MeshView>(mesh: &M, t: u32, c: &[Vec3; 3], m: &Manifold3) -> Manifold3 {
    let mut m = *m;
    for p in m.points_mut() {
        let fa = mesh_feature(mesh, t, classify(c, p.point_a));
        p.id = ContactId::new(fa, Feature(p.id.0 as u16));
    }
    m
}

/// The face contact of triangle `c` with the shape: the side is the front
/// with `front`, else the one the shape's centre is on (else the side `hint`
/// points to); the shape's support
/// feature along minus that face normal is clipped to the triangle's prism and
/// each point's depth measured along the normal. `None` when no point is
/// within `prediction` or the triangle has no area.
fn face_manifold(
    c: &[Vec3; 3],
    shape: &Shape,
    b_in_m: &Pose3,
    hint: Vec3,
    prediction: f32,
    front: bool,
) -> Option<Manifold3> {
    let nf = face_normal(c)?;
    let h = nf.dot(b_in_m.translation - c[0]);
    let up = if front {
        true
    } else if h != 0.0 {
        h > 0.0
    } else {
        hint.dot(nf) >= 0.0
    };
    let n = if up { nf } else { -nf };
    // The reference face, counter-clockwise around `n`.
    let order = if up { [0, 1, 2] } else { [0, 2, 1] };
    let mut reference = Polygon::default();
    for (k, &i) in order.iter().enumerate() {
        let j = order[(k + 1) % 3];
        // Local feature numbers; ids are replaced by `relabel` anyway.
        let e = if (i + 1) % 3 == j { i } else { j };
        reference.push(c[i], Feature::vertex(i), Feature::edge(e));
    }
    reference.normal = n;
    reference.feature = Feature::face(0);
    let mut incident = Polygon::default();
    support_feature(shape, b_in_m.inverse_transform_vector(-n), &mut incident);
    if incident.is_empty() {
        return None;
    }
    incident.transform(b_in_m);
    let mut m = Manifold3::new(n);
    face_contact(
        &reference,
        (n, n.dot(c[0])),
        n,
        &incident,
        true,
        prediction,
        n,
        &mut m,
    );
    (!m.is_empty()).then_some(m)
}

#[cfg(test)]
mod tests {
    use crate::math::{Pose3, Vec3};
    use crate::mesh::TriMesh;
    use crate::query::d3::contacts;
    use crate::shape::d3::{Ball, Shape};

    /// A ball sunk past a floor triangle's plane: a two-sided floor pushes it
    /// on down, a one-sided one back up through its front face.
    #[test]
    fn one_sided_meshes_push_out_of_their_front_only() {
        let v = vec![
            Vec3::new(-2.0, 0.0, -2.0),
            Vec3::new(-2.0, 0.0, 2.0),
            Vec3::new(2.0, 0.0, -2.0),
        ];
        let two = TriMesh::new(v.clone(), vec![[0, 1, 2]]).unwrap();
        let one = two.clone().with_one_sided(true);
        assert!(one.is_one_sided() && !two.is_one_sided());
        let ball: Shape = Ball::new(0.5).unwrap().into();
        let at = Pose3::from_translation(Vec3::new(-0.5, -0.1, -0.5));
        let normal_of = |mesh: TriMesh| {
            let mut out = Vec::new();
            let s: Shape = mesh.into();
            contacts(&s, &Pose3::IDENTITY, &ball, &at, 0.0, &mut out);
            assert_eq!(out.len(), 1);
            (out[0].normal, out[0].depth())
        };
        let (n2, d2) = normal_of(two);
        assert!(n2.y < -0.99 && (d2 - 0.4).abs() < 1e-4, "{n2} {d2}");
        let (n1, d1) = normal_of(one);
        assert!(n1.y > 0.99 && (d1 - 0.6).abs() < 1e-4, "{n1} {d1}");
    }
}
