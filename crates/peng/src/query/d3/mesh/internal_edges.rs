//! Internal-edge handling ("ghost collisions").
//!
//! A convex shape sliding over a flat triangulated floor can touch a triangle
//! only at an edge or corner that is *inside* the floor. Tested against that
//! triangle alone, the pair may find an edge or side-face normal (a box barely
//! over a triangle's edge separates fastest sideways) that the surface as a
//! whole does not have there: the shape snags on an edge that does not exist.
//!
//! The fix used here follows the idea shared by Bullet's
//! `btAdjustInternalEdgeContacts` (Coumans), Box2D's chain shapes and smooth
//! segments with ghost vertices (Catto, "Ghost Collisions", box2d.org, 2020)
//! and parry's `TriMeshFlags::FIX_INTERNAL_EDGES` (adjacent triangle normals
//! taken into account per triangle contact). The triangle-versus-shape
//! query already accounts for the triangle itself; what it cannot know is
//! that the surface goes on past the edge or vertex it touched. So a contact
//! normal `n` on a feature is rejected when the *neighbouring* surface leaves
//! the feature in a direction `r` with `n·r > 0` (the shape would be pushed
//! into the neighbours):
//!
//! - the face normal itself (either side: triangles are two-sided) and
//!   contacts in the face interior are always kept;
//! - edge: `r` is the direction (perpendicular to the edge) from the edge
//!   into the neighbour across it. With the triangle's own direction this
//!   leaves only the face normal at a flat edge, the wedge between the face
//!   normals at a convex edge, and nothing at a concave one; a border edge
//!   constrains nothing;
//! - vertex: `r = w - v` for every vertex `w` that the triangles around `v`
//!   add to the one-ring (found by walking the fan around `v` through the
//!   edge adjacency).
//!
//! A triangle's manifold with a rejected point is replaced by the face contact
//! of that triangle: the shape's support feature along minus the face normal
//! clipped to the triangle's prism, depths measured along the face normal (so
//! a ghost becomes the true floor contact, and a triangle the shape does not
//! really lie over gives nothing). The correction never turns an overlap into
//! no contact: when no penetrating contact is left but a rejected manifold was
//! penetrating (a long shape piercing the surface), the rejected manifolds
//! stand.

use super::view::MeshView;
use crate::math::Vec3;
use crate::query::types::Feature;

/// How far (as a sine) a normal may point along a surface direction and still
/// count as inside a normal cone: rounding of the pair queries' normals only.
pub(crate) const CONE_TOL: f32 = 1e-5;

/// Most triangles walked around one vertex in each direction.
const MAX_FAN: usize = 64;

/// Where on a triangle a contact point lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Local {
    /// The interior of the face.
    Face,
    /// Edge `e`, from corner `e` to corner `e + 1`.
    Edge(usize),
    /// Corner `i`.
    Vertex(usize),
}

/// Classifies a point on (or near) a triangle by its barycentric coordinates
/// in the triangle's plane (f64): a coordinate below `1e-4` puts the point on
/// the opposite edge. Zero-area triangles give the nearest corner.
pub(crate) fn classify(t: &[Vec3; 3], p: Vec3) -> Local {
    let [a, b, c] = t.map(|v| v.as_dvec3());
    let p = p.as_dvec3();
    let n = (b - a).cross(c - a);
    let n2 = n.length_squared();
    if n2
        <= 1e-30
            * (b - a)
                .length_squared()
                .max((c - a).length_squared())
                .max(1e-30)
    {
        let d = [a, b, c].map(|v| v.distance_squared(p));
        let i = if d[0] <= d[1] && d[0] <= d[2] {
            0
        } else if d[1] <= d[2] {
            1
        } else {
            2
        };
        return Local::Vertex(i);
    }
    // Barycentric weight of corner i: the signed area opposite it.
    let w = [
        (c - b).cross(p - b).dot(n) / n2,
        (a - c).cross(p - c).dot(n) / n2,
        (b - a).cross(p - a).dot(n) / n2,
    ];
    const EPS: f64 = 1e-4;
    let small = w.map(|x| x < EPS);
    match small {
        [false, false, false] => Local::Face,
        // Weight of corner i vanishes: the edge opposite i, from corner i+1.
        [true, false, false] => Local::Edge(1),
        [false, true, false] => Local::Edge(2),
        [false, false, true] => Local::Edge(0),
        // Two vanish: the third corner.
        [true, true, false] => Local::Vertex(2),
        [true, false, true] => Local::Vertex(1),
        [false, true, true] => Local::Vertex(0),
        [true, true, true] => {
            let i = if w[0] >= w[1] && w[0] >= w[2] {
                0
            } else if w[1] >= w[2] {
                1
            } else {
                2
            };
            Local::Vertex(i)
        }
    }
}

/// The unit face normal `(b - a) × (c - a)`, `None` for a zero-area triangle.
#[inline]
pub(crate) fn face_normal(t: &[Vec3; 3]) -> Option<Vec3> {
    (t[1] - t[0]).cross(t[2] - t[0]).try_normalize()
}

/// The unit direction from the line through `p`, `q` towards `w`,
/// perpendicular to the line; `None` when `w` is on the line.
#[inline]
fn off_line(p: Vec3, q: Vec3, w: Vec3) -> Option<Vec3> {
    let d = (q - p).normalize_or_zero();
    let v = w - p;
    (v - d * d.dot(v)).try_normalize()
}

/// The edge of `n_ids` joining vertex ids `u` and `v`.
#[inline]
fn edge_with(n_ids: &[u32; 3], u: u32, v: u32) -> Option<usize> {
    (0..3).find(|&f| {
        let (x, y) = (n_ids[f], n_ids[(f + 1) % 3]);
        (x == u && y == v) || (x == v && y == u)
    })
}

/// Whether normal `n` (from the triangle towards the other shape) lies in the
/// surface's normal cone at feature `f` of triangle `t` with corners `c`.
pub(crate) fn admits<M: MeshView>(mesh: &M, t: u32, c: &[Vec3; 3], f: Local, n: Vec3) -> bool {
    if face_normal(c).is_none_or(|nf| (n - nf * n.dot(nf)).length() <= CONE_TOL) {
        return true;
    }
    match f {
        Local::Face => true,
        Local::Edge(e) => {
            let (p, q) = (c[e], c[(e + 1) % 3]);
            let Some(nb) = mesh.neighbour(t, e) else {
                return true;
            };
            let ids = mesh.vertex_ids(t);
            let nids = mesh.vertex_ids(nb);
            let (u, v) = (ids[e], ids[(e + 1) % 3]);
            let Some(g) = edge_with(&nids, u, v) else {
                return true;
            };
            let w = mesh.position(nids[(g + 2) % 3]);
            !off_line(p, q, w).is_some_and(|r| n.dot(r) > CONE_TOL)
        }
        Local::Vertex(i) => {
            let v = c[i];
            let mut ok = true;
            for_each_neighbour_ring_vertex(mesh, t, i, |w| {
                if let Some(r) = (w - v).try_normalize() {
                    ok &= n.dot(r) <= CONE_TOL;
                }
            });
            ok
        }
    }
}

/// Calls `f` with the position of every vertex that the other triangles of
/// the fan around corner `i` of triangle `t` join to it (a closed fan is
/// walked once, an open one from both sides; the last triangle of a closed
/// fan reports a corner of `t` again).
pub(crate) fn for_each_neighbour_ring_vertex<M: MeshView>(
    mesh: &M,
    t: u32,
    i: usize,
    mut f: impl FnMut(Vec3),
) {
    let ids = mesh.vertex_ids(t);
    let v = ids[i];
    // Walk across edge `first` of `t`, then on through each next triangle's
    // other edge at `v`. Returns whether the fan closed back on `t`.
    let walk = |first: usize, f: &mut dyn FnMut(Vec3)| -> bool {
        let (mut cur, mut e) = (t, first);
        for _ in 0..MAX_FAN {
            let cids = mesh.vertex_ids(cur);
            let o = if cids[e] == v {
                cids[(e + 1) % 3]
            } else {
                cids[e]
            };
            let Some(nb) = mesh.neighbour(cur, e) else {
                return false;
            };
            if nb == t {
                return true;
            }
            let nids = mesh.vertex_ids(nb);
            let Some(j) = (0..3).find(|&j| nids[j] == v) else {
                return false;
            };
            // The two edges of `nb` at `v`: j (to nids[j+1]) and j+2 (from
            // nids[j+2]); we came through the one reaching `o`.
            let (next, other) = if nids[(j + 1) % 3] == o {
                ((j + 2) % 3, nids[(j + 2) % 3])
            } else {
                (j, nids[(j + 1) % 3])
            };
            f(mesh.position(other));
            cur = nb;
            e = next;
        }
        false
    };
    if !walk(i, &mut f) {
        walk((i + 2) % 3, &mut f);
    }
}

/// The mesh-wide feature of a point on feature `f` of triangle `t`: the face
/// is the triangle's index, an edge the lower of its two half-edge indices
/// (`3·triangle + edge`), a vertex its vertex id. Stable while the same mesh
/// feature is touched, whichever triangle reports it.
pub(crate) fn mesh_feature<M: MeshView>(mesh: &M, t: u32, f: Local) -> Feature {
    match f {
        Local::Face => Feature::face(t as usize),
        Local::Vertex(i) => Feature::vertex(mesh.vertex_ids(t)[i] as usize),
        Local::Edge(e) => {
            let own = 3 * t as usize + e;
            let key = mesh
                .neighbour(t, e)
                .and_then(|nb| {
                    let ids = mesh.vertex_ids(t);
                    let g = edge_with(&mesh.vertex_ids(nb), ids[e], ids[(e + 1) % 3])?;
                    Some(3 * nb as usize + g)
                })
                .map_or(own, |other| own.min(other));
            Feature::edge(key)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::TriMesh;

    /// A flat 3x3-vertex grid (8 triangles) in the x-z plane, normal +y.
    fn grid() -> TriMesh {
        let mut v = Vec::new();
        for r in 0..3 {
            for c in 0..3 {
                v.push(Vec3::new(c as f32, 0.0, r as f32));
            }
        }
        let mut t = Vec::new();
        for r in 0..2u32 {
            for c in 0..2u32 {
                let id = |r: u32, c: u32| r * 3 + c;
                t.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
                t.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
            }
        }
        TriMesh::new(v, t).unwrap()
    }

    #[test]
    fn classify_regions() {
        let t = [Vec3::ZERO, Vec3::X, Vec3::Z];
        assert_eq!(classify(&t, Vec3::new(0.2, 0.0, 0.2)), Local::Face);
        assert_eq!(classify(&t, Vec3::new(0.5, 0.0, 0.0)), Local::Edge(0));
        assert_eq!(classify(&t, Vec3::new(0.5, 0.0, 0.5)), Local::Edge(1));
        assert_eq!(classify(&t, Vec3::new(0.0, 0.0, 0.5)), Local::Edge(2));
        assert_eq!(classify(&t, Vec3::new(1.0, 0.0, 0.0)), Local::Vertex(1));
        assert_eq!(classify(&t, Vec3::ZERO), Local::Vertex(0));
    }

    #[test]
    fn flat_interior_features_admit_only_the_face_normal() {
        let m = grid();
        let tilted = Vec3::new(0.1, 1.0, 0.0).normalize();
        // The centre vertex (id 4) is interior: its closed fan has 6 triangles.
        let (t, i) = (0..8u32)
            .find_map(|t| (0..3).find(|&i| m.vertex_ids(t)[i] == 4).map(|i| (t, i)))
            .unwrap();
        let mut ring = Vec::new();
        for_each_neighbour_ring_vertex(&m, t, i, |w| ring.push(w));
        assert_eq!(ring.len(), 5, "{ring:?}");
        assert!(admits(&m, t, &m.triangle(t), Local::Vertex(i), Vec3::Y));
        assert!(admits(&m, t, &m.triangle(t), Local::Vertex(i), -Vec3::Y));
        assert!(!admits(&m, t, &m.triangle(t), Local::Vertex(i), tilted));
        assert!(!admits(&m, t, &m.triangle(t), Local::Vertex(i), Vec3::X));
        // The diagonal of cell (0,0) is interior, its left edge a border.
        assert!(!admits(&m, 0, &m.triangle(0), Local::Edge(2), Vec3::X));
        assert!(admits(&m, 0, &m.triangle(0), Local::Edge(2), Vec3::Y));
        // A border edge constrains nothing (the triangle itself is the
        // pair query's business).
        assert!(admits(&m, 0, &m.triangle(0), Local::Edge(0), -Vec3::X));
        assert!(admits(&m, 0, &m.triangle(0), Local::Edge(0), Vec3::X));
        // Face-interior points and the face normal always pass.
        assert!(admits(&m, 0, &m.triangle(0), Local::Face, Vec3::X));
        assert!(admits(&m, 0, &m.triangle(0), Local::Edge(2), -Vec3::Y));
        // Both triangles name their shared edge alike.
        let f0 = mesh_feature(&m, 0, Local::Edge(2));
        let f1 = mesh_feature(&m, 1, Local::Edge(0));
        assert_eq!(f0, f1);
    }
}
