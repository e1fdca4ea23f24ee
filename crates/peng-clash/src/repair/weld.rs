//! Welding the boundary's vertices that lie within a tolerance of each other.

use super::edges::{boundary, drop_degenerate};
use glam::Vec3;
use std::collections::HashMap;

/// Merges each vertex on the boundary into an earlier boundary vertex within
/// `tol` of it (a grid of cells `tol` wide finds the candidates), so that
/// faces meshed separately, whose shared corners rounded apart, meet again.
/// Triangles left with a repeated corner are dropped. Returns how many
/// vertices were merged.
pub(super) fn weld_boundary(vertices: &[Vec3], triangles: &mut Vec<[u32; 3]>, tol: f32) -> usize {
    let mut on_boundary: Vec<u32> = boundary(triangles)
        .iter()
        .flat_map(|s| {
            let (a, b) = s.ends(triangles);
            [a, b]
        })
        .collect();
    on_boundary.sort_unstable();
    on_boundary.dedup();
    let cell = |p: Vec3| (p / tol).floor().as_ivec3();
    let mut grid: HashMap<glam::IVec3, Vec<u32>> = HashMap::new();
    let mut into: HashMap<u32, u32> = HashMap::new();
    for &v in &on_boundary {
        let p = vertices[v as usize];
        if !p.is_finite() {
            continue;
        }
        let c = cell(p);
        let mut found = None;
        'search: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    // Saturating: a vertex far out in cell units sits in the last cell.
                    let key = c.saturating_add(glam::IVec3::new(dx, dy, dz));
                    for &w in grid.get(&key).into_iter().flatten() {
                        if vertices[w as usize].distance(p) <= tol {
                            found = Some(w);
                            break 'search;
                        }
                    }
                }
            }
        }
        match found {
            Some(w) => {
                into.insert(v, w);
            }
            None => grid.entry(c).or_default().push(v),
        }
    }
    if into.is_empty() {
        return 0;
    }
    for t in triangles.iter_mut() {
        for i in t.iter_mut() {
            if let Some(&w) = into.get(i) {
                *i = w;
            }
        }
    }
    drop_degenerate(triangles);
    into.len()
}
