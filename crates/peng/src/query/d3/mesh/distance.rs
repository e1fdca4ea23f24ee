//! Distance between a triangle surface and a convex shape, or two surfaces.

use super::view::MeshView;
use crate::bound::Aabb3;
use crate::math::{Pose3, Vec3};
use crate::mesh::TriMesh;
use crate::query::d3::distance::{local_distance, local_intersects};
use crate::query::gjk::{GjkStatus, SignedDistance};
use crate::shape::d3::{Shape, Triangle};
use std::borrow::Cow;

/// Most rounds of the growing search (the radius at least doubles per round
/// without a candidate).
const MAX_ROUNDS: usize = 64;

/// The gap between two boxes (0 when they meet).
fn box_gap(a: &Aabb3, b: &Aabb3) -> f32 {
    let d = (a.min - b.max).max(b.min - a.max).max(Vec3::ZERO);
    d.length()
}

/// Signed distance from the surface `mesh` (A, at the identity) to the convex
/// `shape` placed by `b_in_m`: the minimum over the triangles of the
/// triangle-shape signed distance (negative: minus the deepest penetration
/// of the shape through a triangle).
///
/// A triangle whose box is farther than `r` from the shape's box is farther
/// than `r` from the shape, so the search takes the triangles within `r` of
/// the shape's box, starting from the gap between the two boxes: when the best
/// of them is within `r` it is the answer; else `r` grows to it (or doubles
/// when none was found) and one more round settles it. A finite `limit`, an
/// upper bound on the distance, starts `r` there: one round then.
pub(crate) fn mesh_convex<M: MeshView>(
    mesh: &M,
    shape: &Shape,
    b_in_m: &Pose3,
    limit: f32,
) -> SignedDistance {
    let sbox = shape.aabb(b_in_m);
    let bounds = mesh.bounds();
    let scale = bounds
        .min
        .abs()
        .max(bounds.max.abs())
        .max(sbox.min.abs().max(sbox.max.abs()))
        .max_element()
        .max(1.0);
    let tiny = 1e-4 * scale;
    let mut r = box_gap(&bounds, &sbox).max(tiny);
    if limit.is_finite() {
        r = r.max(limit);
    }
    let mut best: Option<SignedDistance> = None;
    for _ in 0..MAX_ROUNDS {
        best = None;
        mesh.for_each_candidate(&sbox.loosened(r), |_, c| {
            let Ok(t) = Triangle::new(c[0], c[1], c[2]) else {
                return;
            };
            let d = local_distance(&Shape::Triangle(t), shape, b_in_m);
            if best.is_none_or(|b| d.distance < b.distance) {
                best = Some(d);
            }
        });
        match best {
            Some(d) if d.distance <= r => return d,
            Some(d) if d.distance.is_finite() => r = d.distance + tiny,
            _ => r = (2.0 * r).max(tiny),
        }
        if !r.is_finite() {
            break;
        }
    }
    best.unwrap_or(SignedDistance {
        distance: f32::INFINITY,
        point_a: Vec3::ZERO,
        point_b: b_in_m.translation,
        normal: Vec3::X,
        status: GjkStatus::Indeterminate,
    })
}

/// A shape as a triangle mesh: borrowed, or built from a height field.
fn as_mesh(s: &Shape) -> Option<Cow<'_, TriMesh>> {
    match s {
        Shape::TriMesh(m) => Some(Cow::Borrowed(&**m)),
        Shape::HeightField(h) => Some(Cow::Owned(h.to_trimesh())),
        _ => None,
    }
}

/// The distance between two surfaces (B placed by `b_in_a`), zero when they
/// cross: meshes are surfaces, with no penetration depth. A height field is
/// turned into a triangle mesh first (`O(n)`); two triangle meshes use their
/// BVHs together ([`TriMesh::distance_to_mesh`]), within `limit` when it is
/// finite (an upper bound on the distance). When the surfaces touch the
/// normal is the face normal of A's closest triangle, turned towards B's
/// centre.
pub(crate) fn mesh_mesh(a: &Shape, b: &Shape, b_in_a: &Pose3, limit: f32) -> SignedDistance {
    let (Some(ma), Some(mb)) = (as_mesh(a), as_mesh(b)) else {
        return local_distance(a, b, b_in_a);
    };
    let d = ma
        .distance_to_mesh_within(&Pose3::IDENTITY, &mb, b_in_a, limit)
        .unwrap_or_else(|| ma.distance_to_mesh(&Pose3::IDENTITY, &mb, b_in_a));
    let v = d.point_b - d.point_a;
    let normal = match v.try_normalize() {
        Some(n) if d.distance > 0.0 => n,
        _ => {
            let [p, q, r] = ma.triangle(d.triangle_a);
            let n = (q - p).cross(r - p).normalize_or(Vec3::X);
            if n.dot(b_in_a.translation - d.point_a) < 0.0 {
                -n
            } else {
                n
            }
        }
    };
    SignedDistance {
        distance: d.distance,
        point_a: d.point_a,
        point_b: d.point_b,
        normal,
        status: if d.distance > 0.0 {
            GjkStatus::Separated
        } else {
            GjkStatus::Overlapping
        },
    }
}

/// Whether the surface `mesh` (at the identity) and the convex `shape` placed
/// by `b_in_m` touch or overlap: some triangle under the shape's box does
/// (a triangle that touches the shape has a box that meets the shape's).
/// Stops testing at the first such triangle.
pub(crate) fn mesh_convex_intersects<M: MeshView>(mesh: &M, shape: &Shape, b_in_m: &Pose3) -> bool {
    let sbox = shape.aabb(b_in_m);
    let mut found = false;
    mesh.for_each_candidate(&sbox, |_, c| {
        if found {
            return;
        }
        if let Ok(t) = Triangle::new(c[0], c[1], c[2]) {
            found = local_intersects(&Shape::Triangle(t), shape, b_in_m);
        }
    });
    found
}

/// Whether two surfaces (B placed by `b_in_a`) touch or cross: the BVHs
/// walked together, stopping at the first pair of triangles that do
/// ([`TriMesh::intersects_mesh`]).
pub(crate) fn mesh_mesh_intersects(a: &Shape, b: &Shape, b_in_a: &Pose3) -> bool {
    let (Some(ma), Some(mb)) = (as_mesh(a), as_mesh(b)) else {
        return local_intersects(a, b, b_in_a);
    };
    ma.intersects_mesh(&Pose3::IDENTITY, &mb, b_in_a)
}
