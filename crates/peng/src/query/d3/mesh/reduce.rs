//! Merging the per-triangle manifolds of a mesh pair: one manifold per cluster
//! of (nearly) equal normals, duplicates dropped, at most four points each.

use crate::math::Vec3;
use crate::query::sat::reduce::reduce_to_four;
use crate::query::types::{ContactPoint3, Feature, Manifold3};

/// Manifolds whose normals are within this cosine (about 1.8°) of a cluster's
/// normal join it: a flat or gently curved patch gives one manifold, a ridge
/// or a groove one per side.
pub(crate) const CLUSTER_COS: f32 = 0.9995;

/// Merges `parts` (per-triangle manifolds in one frame) into `out`, deepest
/// cluster first. A cluster takes the normal of its deepest manifold; the
/// depths of the other members' points are measured again along it
/// (`depth = (point_a - point_b)·n`). Points with the same id (when B's
/// feature is known), or at the same
/// place (within `tol`), are merged keeping the deeper; then the cluster is
/// reduced to four points ([`reduce_to_four`]). Deterministic: `parts` are
/// taken deepest first, ties in the given order.
pub(crate) fn merge(parts: &mut [Manifold3], tol: f32, prediction: f32, out: &mut Vec<Manifold3>) {
    parts.sort_by(|a, b| b.depth().total_cmp(&a.depth()));
    let mut clusters: Vec<(Vec3, Vec<ContactPoint3>)> = Vec::new();
    for m in parts.iter() {
        let k = match clusters
            .iter()
            .position(|(n, _)| n.dot(m.normal) >= CLUSTER_COS)
        {
            Some(k) => k,
            None => {
                clusters.push((m.normal, Vec::new()));
                clusters.len() - 1
            }
        };
        let (n, pts) = &mut clusters[k];
        for p in m.points() {
            let mut p = *p;
            if *n != m.normal {
                p.depth = (p.point_a - p.point_b).dot(*n);
                if p.depth < -prediction {
                    continue;
                }
            }
            match pts.iter_mut().find(|q| {
                (q.id == p.id && (p.id.0 as u16) != Feature::NONE.0)
                    || (q.point_a.distance_squared(p.point_a) <= tol * tol
                        && q.point_b.distance_squared(p.point_b) <= tol * tol)
            }) {
                Some(q) if q.depth < p.depth => *q = p,
                Some(_) => {}
                None => pts.push(p),
            }
        }
    }
    for (n, pts) in clusters {
        if pts.is_empty() {
            continue;
        }
        let mut m = Manifold3::new(n);
        reduce_to_four(&pts, n, &mut m);
        out.push(m);
    }
}
