//! Splitting boundary edges at the vertices that lie on them (T-junctions).

use super::edges::boundary;
use glam::Vec3;

/// Rounds of splitting: a triangle with T-junctions on two of its edges is
/// split at one edge per round.
const ROUNDS: usize = 4;

/// Vertex-against-edge checks one round may make: a real element's boundary
/// is small, but a soup of long slivers would make the search quadratic, so
/// past this the round stops (the mesh then stays open, and is named so).
const CHECKS: usize = 4_000_000;

/// Where a face was meshed with a vertex in the middle of its neighbour's
/// edge, the long edge and the two short ones are each met by one triangle:
/// splits the triangle of the long edge at every boundary vertex within
/// `tol` of that edge's interior, so that the three edges become two shared
/// ones. Returns how many splits were made.
pub(super) fn split_t_junctions(
    vertices: &[Vec3],
    triangles: &mut Vec<[u32; 3]>,
    tol: f32,
) -> usize {
    let mut count = 0;
    for _ in 0..ROUNDS {
        let made = split_round(vertices, triangles, tol);
        count += made;
        if made == 0 {
            break;
        }
    }
    count
}

/// One round: each triangle split along at most one of its edges.
fn split_round(vertices: &[Vec3], triangles: &mut Vec<[u32; 3]>, tol: f32) -> usize {
    let open = boundary(triangles);
    // The boundary's vertices, sorted by x for a range search.
    let mut ends: Vec<u32> = open
        .iter()
        .flat_map(|s| {
            let (a, b) = s.ends(triangles);
            [a, b]
        })
        .filter(|&v| vertices[v as usize].is_finite())
        .collect();
    ends.sort_unstable();
    ends.dedup();
    ends.sort_by(|&u, &v| vertices[u as usize].x.total_cmp(&vertices[v as usize].x));
    let xs: Vec<f32> = ends.iter().map(|&v| vertices[v as usize].x).collect();
    let mut done = vec![false; triangles.len()];
    let mut added = Vec::new();
    let (mut count, mut checks) = (0, 0usize);
    for side in &open {
        let t = side.tri as usize;
        if done[t] {
            continue;
        }
        let (a, b) = side.ends(triangles);
        let (pa, pb) = (vertices[a as usize], vertices[b as usize]);
        let d = pb - pa;
        let len2 = d.length_squared();
        // Too short to hold a vertex apart from its ends (or not finite).
        if len2.is_nan() || len2 <= 4.0 * tol * tol {
            continue;
        }
        let (lo, hi) = (pa.x.min(pb.x) - tol, pa.x.max(pb.x) + tol);
        let first = xs.partition_point(|&x| x < lo);
        let last = xs.partition_point(|&x| x <= hi);
        checks += last.saturating_sub(first);
        if checks > CHECKS {
            break;
        }
        let mut on: Vec<(f32, u32)> = ends[first..last.max(first)]
            .iter()
            .filter(|&&v| v != a && v != b)
            .filter_map(|&v| {
                let p = vertices[v as usize];
                let s = (p - pa).dot(d) / len2;
                let inside = s * s * len2 > tol * tol && (1.0 - s) * (1.0 - s) * len2 > tol * tol;
                (inside && s > 0.0 && s < 1.0 && (pa + d * s).distance(p) <= tol).then_some((s, v))
            })
            .collect();
        if on.is_empty() {
            continue;
        }
        on.sort_by(|x, y| x.0.total_cmp(&y.0));
        on.dedup_by_key(|x| x.1);
        let c = triangles[t][(side.k as usize + 2) % 3];
        // The fan a, v1, ..., vn, b around the opposite corner c.
        let chain: Vec<u32> = std::iter::once(a)
            .chain(on.iter().map(|x| x.1))
            .chain(std::iter::once(b))
            .collect();
        triangles[t] = [chain[0], chain[1], c];
        for w in chain[1..].windows(2) {
            added.push([w[0], w[1], c]);
        }
        done[t] = true;
        count += on.len();
    }
    triangles.extend(added);
    count
}
