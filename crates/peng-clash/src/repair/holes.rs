//! Filling small holes: boundary loops of three edges (a missing triangle),
//! and of up to [`MAX_HOLE_EDGES`] edges when they are a flat convex piece
//! missing from inside a flat face.

use super::edges::boundary;
use glam::Vec3;
use std::collections::{HashMap, HashSet};

/// The longest loop filled.
pub(super) const MAX_HOLE_EDGES: usize = 8;

/// Fills each boundary loop of three edges with its triangle, and each loop
/// of four to [`MAX_HOLE_EDGES`] edges whose corners lie within `tol` of one
/// plane and turn one way in it, and whose neighbours along the loop lie in
/// that plane too, with a fan; the new triangles run opposite to their
/// neighbours along the loop. A fill that would face against a neighbour
/// (the back of a flat sheet) is not made, nor is one through a loop that
/// passes a vertex twice. Returns how many holes were filled.
pub(super) fn fill_small_holes(
    vertices: &[Vec3],
    triangles: &mut Vec<[u32; 3]>,
    tol: f32,
) -> usize {
    // A triangle's side a -> b on the boundary: the hole runs b -> a.
    let mut next: HashMap<u32, Option<u32>> = HashMap::new();
    // The triangle along the hole's step b -> a.
    let mut next_triangle: HashMap<(u32, u32), u32> = HashMap::new();
    for side in boundary(triangles) {
        let (a, b) = side.ends(triangles);
        next.entry(b).and_modify(|n| *n = None).or_insert(Some(a));
        next_triangle.insert((b, a), side.tri);
    }
    let mut used: HashSet<u32> = HashSet::new();
    let mut starts: Vec<u32> = next.keys().copied().collect();
    starts.sort_unstable();
    let mut filled = 0;
    for start in starts {
        if used.contains(&start) {
            continue;
        }
        let mut loop_ = vec![start];
        let mut ok = false;
        let mut v = start;
        while loop_.len() <= MAX_HOLE_EDGES {
            let Some(&Some(n)) = next.get(&v) else { break };
            if n == start {
                ok = true;
                break;
            }
            if loop_.contains(&n) || used.contains(&n) {
                break;
            }
            loop_.push(n);
            v = n;
        }
        used.extend(&loop_);
        if !ok || loop_.len() < 3 {
            continue;
        }
        let faces = rim_faces(vertices, triangles, &loop_, &next_triangle);
        // The fill must not be the back of the surface around the hole (the
        // "hole" of a lone flat sheet is its whole rim); a larger hole is
        // filled only inside a flat face (an open box's missing side is not
        // a missing piece: the box may be meant open).
        if faces.min < -0.99 {
            continue;
        }
        if loop_.len() > 3 && (faces.min < 0.99 || !flat_and_convex(vertices, &loop_, tol)) {
            continue;
        }
        for k in 1..loop_.len() - 1 {
            triangles.push([loop_[0], loop_[k], loop_[k + 1]]);
        }
        filled += 1;
    }
    filled
}

/// How the triangles around a hole face, against the fill's normal.
struct RimFaces {
    /// The least cosine between a rim triangle's normal and the fill's.
    min: f32,
}

/// The rim triangles' facing against the fill of `loop_` (a fan of its
/// corners, normal by the loop's order).
fn rim_faces(
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    loop_: &[u32],
    next_triangle: &HashMap<(u32, u32), u32>,
) -> RimFaces {
    let p = |v: u32| vertices[v as usize];
    let normal = |t: [u32; 3]| {
        (p(t[1]) - p(t[0]))
            .cross(p(t[2]) - p(t[0]))
            .normalize_or_zero()
    };
    let fill = (1..loop_.len() - 1)
        .map(|k| (p(loop_[k]) - p(loop_[0])).cross(p(loop_[k + 1]) - p(loop_[0])))
        .sum::<Vec3>()
        .normalize_or_zero();
    let n = loop_.len();
    let min = (0..n)
        .filter_map(|i| next_triangle.get(&(loop_[i], loop_[(i + 1) % n])))
        .map(|&t| normal(triangles[t as usize]).dot(fill))
        .fold(1.0f32, f32::min);
    RimFaces { min }
}

/// Whether the loop's corners lie within `tol` of the plane of its normal
/// (Newell's method) and each turn is the same way about it.
fn flat_and_convex(vertices: &[Vec3], loop_: &[u32], tol: f32) -> bool {
    let p: Vec<Vec3> = loop_.iter().map(|&v| vertices[v as usize]).collect();
    let n = p.len();
    let centre = p.iter().copied().sum::<Vec3>() / n as f32;
    let normal = (0..n)
        .map(|i| (p[i] - centre).cross(p[(i + 1) % n] - centre))
        .sum::<Vec3>()
        .normalize_or_zero();
    if normal == Vec3::ZERO || p.iter().any(|q| (q - centre).dot(normal).abs() > tol) {
        return false;
    }
    (0..n).all(|i| {
        let (a, b, c) = (p[i], p[(i + 1) % n], p[(i + 2) % n]);
        (b - a).cross(c - b).dot(normal) >= 0.0
    })
}
