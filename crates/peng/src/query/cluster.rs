//! Grouping the per-primitive manifolds of a mesh or polyline query by normal,
//! shared by 3D triangle meshes (`d3/mesh/reduce.rs`) and 2D polylines
//! (`d2/polyline.rs`); each then reduces a cluster to its own point budget.

use crate::math::Vector;
use crate::query::types::{ContactPoint, Manifold};

/// Manifolds whose normals are within this cosine (about 1.8°) of a cluster's
/// normal join it: a flat or gently curved patch gives one manifold, a ridge
/// or a groove one per side.
pub(crate) const CLUSTER_COS: f32 = 0.9995;

/// Groups `parts` (per-primitive manifolds in one frame), deepest first, into
/// clusters of nearly equal normals. A cluster takes the normal of its deepest
/// manifold; the other members' depths are measured again along it
/// (`depth = (point_a - point_b)·n`, points below `-prediction` dropped).
/// Points that `same_id` matches, or at the same place (both ends within
/// `tol`), are merged keeping the deeper. Deterministic: `parts` are taken
/// deepest first, ties in the given order. Clusters come deepest first and
/// may be empty (every point dropped).
pub(crate) fn cluster_by_normal<V: Vector, const N: usize>(
    parts: &mut [Manifold<V, N>],
    tol: f32,
    prediction: f32,
    same_id: impl Fn(&ContactPoint<V>, &ContactPoint<V>) -> bool,
) -> Vec<(V, Vec<ContactPoint<V>>)> {
    crate::sort::stable_by(parts, |a, b| b.depth().total_cmp(&a.depth()));
    let near = |a: V, b: V| (a - b).dot(a - b) <= tol * tol;
    let mut clusters: Vec<(V, Vec<ContactPoint<V>>)> = Vec::new();
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
                same_id(q, &p) || (near(q.point_a, p.point_a) && near(q.point_b, p.point_b))
            }) {
                Some(q) if q.depth < p.depth => *q = p,
                Some(_) => {}
                None => pts.push(p),
            }
        }
    }
    clusters
}
