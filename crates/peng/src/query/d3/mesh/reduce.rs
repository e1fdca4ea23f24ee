//! Merging the per-triangle manifolds of a mesh pair: one manifold per cluster
//! of (nearly) equal normals, duplicates dropped, at most four points each.

use crate::query::cluster::cluster_by_normal;
use crate::query::sat::reduce::reduce_to_four;
use crate::query::types::{Feature, Manifold3};

/// Merges `parts` (per-triangle manifolds in one frame) into `out`, deepest
/// cluster first: clusters of nearly equal normals
/// ([`cluster_by_normal`], points with the same id when B's feature is known,
/// or at the same place, merged), each reduced to four points
/// ([`reduce_to_four`]).
pub(crate) fn merge(parts: &mut [Manifold3], tol: f32, prediction: f32, out: &mut Vec<Manifold3>) {
    let clusters = cluster_by_normal(parts, tol, prediction, |q, p| {
        q.id == p.id && (p.id.0 as u16) != Feature::NONE.0
    });
    for (n, pts) in clusters {
        if pts.is_empty() {
            continue;
        }
        let mut m = Manifold3::new(n);
        reduce_to_four(&pts, n, &mut m);
        out.push(m);
    }
}
