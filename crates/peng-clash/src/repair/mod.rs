//! Closing element meshes that tessellation left open.
//!
//! A solid's tessellation should be closed (every edge met by exactly two
//! triangles), which is what lets the clash check tell inside from outside.
//! Tessellators leave small defects that open it: shared corners that round
//! apart, a vertex in the middle of a neighbour's edge (a T-junction), a
//! missing triangle, closed pieces of one body touching along an edge, and
//! pieces wound inside out. Each step here mends one of these, in the order
//! that lets the next one see its defect:
//!
//! 1. `weld`: boundary vertices within the tolerance become one;
//! 2. `tjunction`: boundary edges are split at boundary vertices on them;
//! 3. `holes`: loops of three edges, and small flat convex loops, are filled;
//! 4. `separate`: shells touching along an edge get their own vertices;
//! 5. `orient`: each closed shell is wound consistently and outward.
//!
//! The first three only run on a mesh with a boundary, and are kept only
//! when together they close it; a closed mesh is only separated and
//! oriented. Positions never move: welding maps a vertex's triangles onto
//! its neighbour within the tolerance.

mod edges;
mod holes;
mod orient;
mod separate;
#[cfg(test)]
mod tests;
mod tjunction;
mod weld;

use glam::Vec3;

/// What [`close_mesh`] changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Repairs {
    /// Vertices merged into a neighbour within the tolerance.
    pub welded: usize,
    /// Triangles split at a T-junction.
    pub split: usize,
    /// Holes filled.
    pub filled: usize,
    /// Vertices copied to separate shells touching along an edge.
    pub separated: usize,
    /// Triangles turned to face out.
    pub turned: usize,
}

/// The welding and T-junction tolerance for a mesh of this extent (the
/// diagonal of its box, in its units, metres for elements): 0.01 mm, or a
/// millionth of the extent for elements over 10 m (f32 coordinates of a
/// 100 m element round at about 4e-6 m).
pub(crate) fn tolerance(extent: f32) -> f32 {
    (1e-6 * extent).max(1e-5)
}

/// Mends the mesh in place (see the module's steps) with the tolerance
/// `tol`; new vertices are appended.
pub(crate) fn close_mesh(
    vertices: &mut Vec<Vec3>,
    triangles: &mut Vec<[u32; 3]>,
    tol: f32,
) -> Repairs {
    let mut r = Repairs::default();
    if !edges::boundary(triangles).is_empty() {
        let mut mended = triangles.clone();
        let welded = weld::weld_boundary(vertices, &mut mended, tol);
        let split = tjunction::split_t_junctions(vertices, &mut mended, tol);
        let filled = holes::fill_small_holes(vertices, &mut mended, tol);
        // Kept only when they close the mesh: a mesh that stays open has no
        // inside either way, and is left as the tessellator made it.
        if edges::boundary(&mended).is_empty() {
            *triangles = mended;
            (r.welded, r.split, r.filled) = (welded, split, filled);
        }
    }
    // Kept only when every shell comes out closed (shells that meet along
    // an edge in more ways than two touching pieces would be opened).
    if let Some((v, t, made)) = separate::separate_shells(vertices, triangles) {
        if made > 0 && edges::boundary(&t).is_empty() {
            (*vertices, *triangles, r.separated) = (v, t, made);
        }
    }
    r.turned = orient::orient_closed_shells(vertices, triangles);
    r
}
