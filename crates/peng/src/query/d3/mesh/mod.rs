//! Pair queries with a triangle mesh or a height field on one side.
//!
//! - Against a convex shape (and a half-space): the triangles under the
//!   shape's box (grown by the prediction) run the triangle-versus-shape
//!   contact of [`crate::query::d3::contact`]; contacts on interior edges and
//!   vertices whose normal the surface does not have there are corrected
//!   ([`internal_edges`]); the per-triangle manifolds are merged into one
//!   manifold per normal cluster of at most four points ([`reduce`]). Ids
//!   name mesh-wide features on the mesh's side (triangle index for a face,
//!   lower half-edge index `3·triangle + edge` for an edge, vertex index for a
//!   vertex; 14 bits, so they wrap past 16383) and the other shape's own
//!   feature.
//! - Mesh against mesh: the triangle pairs whose boxes meet, merged the same
//!   way (no internal-edge correction).
//! - Distance: the minimum over the triangles near the shape (a growing box
//!   search), or the surface distance of two meshes (zero when they cross).
//!
//! Triangles are two-sided: a shape is pushed out of the side its centre is
//! on, so a shape sunk through a thin surface is pushed on through it.

pub(crate) mod convex;
pub(crate) mod distance;
mod hull_bound;
pub(crate) mod internal_edges;
pub(crate) mod pair;
pub(crate) mod reduce;
pub(crate) mod view;

use crate::math::Pose3;
use crate::query::gjk::SignedDistance;
use crate::query::types::Manifold3;
use crate::shape::d3::Shape;
use hull_bound::HullBound;
use view::{with_mesh, AnyMesh};

/// Options of the contact queries that involve meshes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContactOptions {
    /// Correct contacts on a mesh's interior edges and vertices whose normal
    /// points into the neighbouring triangles ("ghost collisions": a box
    /// sliding over a flat triangulated floor snagging on the edges between
    /// its triangles). Such a triangle's contact is replaced by its face
    /// contact (the other shape's support feature clipped to the triangle);
    /// face normals, border edges and lone triangles are left alone. On by
    /// default.
    pub fix_internal_edges: bool,
}

impl Default for ContactOptions {
    fn default() -> Self {
        ContactOptions {
            fix_internal_edges: true,
        }
    }
}

/// Maps a manifold from the frame `pose` to world space.
fn to_world(m: &Manifold3, pose: &Pose3) -> Manifold3 {
    let mut w = *m;
    w.normal = pose.transform_vector(m.normal);
    for p in w.points_mut() {
        p.point_a = pose.transform_point(p.point_a);
        p.point_b = pose.transform_point(p.point_b);
    }
    w
}

/// A size for merge tolerances: the largest coordinate of the mesh's box.
fn scale_of(s: &Shape) -> f32 {
    let b = match AnyMesh::of(s) {
        Some(m) => with_mesh!(m, m => view::MeshView::bounds(m)),
        None => return 1.0,
    };
    b.min.abs().max(b.max.abs()).max_element().max(1.0)
}

std::thread_local! {
    /// Per-triangle and merged manifolds of [`contacts`], kept per thread so
    /// that a call allocates neither once they have grown (0.3 % of the
    /// convex pile's instructions went to allocating them).
    static SCRATCH: core::cell::RefCell<(Vec<Manifold3>, Vec<Manifold3>)> =
        const { core::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Runs `f` on this thread's two empty scratch lists (fresh ones if they
/// are already in use further up the stack).
fn with_scratch<R>(f: impl FnOnce(&mut Vec<Manifold3>, &mut Vec<Manifold3>) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut lists) => {
            let (parts, local) = &mut *lists;
            parts.clear();
            local.clear();
            f(parts, local)
        }
        Err(_) => f(&mut Vec::new(), &mut Vec::new()),
    })
}

/// Appends the manifolds (world space, deepest first, one per normal cluster)
/// of a pair in which `a` or `b` is a mesh; returns `false` (appending
/// nothing) when neither is. Compounds are handled by the caller.
pub(crate) fn contacts(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
    options: &ContactOptions,
    out: &mut Vec<Manifold3>,
) -> bool {
    match (AnyMesh::of(a), AnyMesh::of(b)) {
        (None, None) => return false,
        (Some(ma), Some(mb)) => with_scratch(|parts, local| {
            let b_in_a = pose_a.inv_mul(pose_b);
            with_mesh!(ma, ma => with_mesh!(mb, mb =>
                pair::triangle_pair_manifolds(ma, mb, &b_in_a, prediction, parts)));
            let tol = 1e-5 * scale_of(a).max(scale_of(b));
            reduce::merge(parts, tol, prediction, local);
            out.extend(local.iter().map(|m| to_world(m, pose_a)));
        }),
        (Some(ma), None) => with_scratch(|parts, local| {
            let b_in_a = pose_a.inv_mul(pose_b);
            let fix = options.fix_internal_edges && b.is_bounded_convex();
            with_mesh!(ma, ma =>
                convex::triangle_manifolds(ma, b, &b_in_a, prediction, fix, parts));
            reduce::merge(parts, 1e-5 * scale_of(a), prediction, local);
            out.extend(local.iter().map(|m| to_world(m, pose_a)));
        }),
        (None, Some(_)) => {
            let start = out.len();
            contacts(b, pose_b, a, pose_a, prediction, options, out);
            for m in &mut out[start..] {
                *m = m.swapped();
            }
        }
    }
    true
}

/// The deepest manifold of a pair in which `a` or `b` is a mesh (see
/// [`contacts`]); `None` inside when there is none, `None` outside when
/// neither shape is a mesh.
pub(crate) fn deepest(
    a: &Shape,
    pose_a: &Pose3,
    b: &Shape,
    pose_b: &Pose3,
    prediction: f32,
) -> Option<Option<Manifold3>> {
    let mut all = Vec::new();
    if !contacts(
        a,
        pose_a,
        b,
        pose_b,
        prediction,
        &ContactOptions::default(),
        &mut all,
    ) {
        return None;
    }
    Some(
        all.into_iter()
            .reduce(|x, y| if y.depth() > x.depth() { y } else { x }),
    )
}

/// Whether the shapes touch or overlap (B placed by `pose_ab` in A's frame),
/// when `a` or `b` is a mesh and neither is a compound or a half-space:
/// `local_distance(..).distance <= 0`, stopping at the first triangle (pair)
/// that touches; `None` otherwise.
pub(crate) fn local_intersects(a: &Shape, b: &Shape, pose_ab: &Pose3) -> Option<bool> {
    match (AnyMesh::of(a), AnyMesh::of(b)) {
        (None, None) => None,
        (Some(_), Some(_)) => Some(distance::mesh_mesh_intersects(a, b, pose_ab)),
        (Some(ma), None) => {
            Some(with_mesh!(ma, ma => distance::mesh_convex_intersects(ma, b, pose_ab)))
        }
        (None, Some(mb)) => {
            let pose_ba = pose_ab.inverse();
            Some(with_mesh!(mb, mb => distance::mesh_convex_intersects(mb, a, &pose_ba)))
        }
    }
}

/// Signed distance in A's frame (B placed by `pose_ab`) when `a` or `b` is a
/// mesh and neither is a compound or a half-space; `None` otherwise.
pub(crate) fn local_distance(a: &Shape, b: &Shape, pose_ab: &Pose3) -> Option<SignedDistance> {
    let (mesh_a, mesh_b) = (AnyMesh::of(a), AnyMesh::of(b));
    if mesh_a.is_none() && mesh_b.is_none() {
        return None;
    }
    // A mesh that keeps its hull: the hulls settle most apart pairs, and
    // bound the search of the others.
    let limit = match hull_bound::through_hulls(a, b, pose_ab) {
        HullBound::Exact(d) => return Some(d),
        HullBound::Upper(u) => hull_bound::search_limit(u, scale_of(a).max(scale_of(b))),
        HullBound::Unknown => f32::INFINITY,
    };
    match (mesh_a, mesh_b) {
        (None, None) => None,
        (Some(_), Some(_)) => Some(distance::mesh_mesh(a, b, pose_ab, limit)),
        (Some(ma), None) => {
            Some(with_mesh!(ma, ma => distance::mesh_convex(ma, b, pose_ab, limit)))
        }
        (None, Some(mb)) => {
            let pose_ba = pose_ab.inverse();
            let d = with_mesh!(mb, mb => distance::mesh_convex(mb, a, &pose_ba, limit));
            // Seen from A: swap the points, flip the normal, map to A's frame.
            Some(SignedDistance {
                distance: d.distance,
                point_a: pose_ab.transform_point(d.point_b),
                point_b: pose_ab.transform_point(d.point_a),
                normal: -pose_ab.transform_vector(d.normal),
                status: d.status,
            })
        }
    }
}
