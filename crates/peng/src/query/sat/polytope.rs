//! The view of a convex polytope that the separating-axis test and the face
//! clipper need: face planes, face polygons, edges with their Gauss-map arcs and
//! a support function. Shapes implement it in the query layer; this module
//! knows nothing of the shape enum.

use super::prepared::Prepared;
use crate::math::{Pose3, Vec3};
use crate::query::types::Feature;
use crate::shape::d3::ConvexPolyhedron;

/// Most vertices a face polygon (and a clipped polygon) may have. Larger faces
/// are truncated to their first vertices (a smaller convex polygon: contacts
/// stay valid, only coverage shrinks). Fixed so that no query allocates.
pub const MAX_POLYGON: usize = 32;

/// One vertex of a [`Polygon`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PolygonVertex {
    /// Position.
    pub point: Vec3,
    /// The feature of the shape at this vertex (usually a vertex).
    pub vertex: Feature,
    /// The feature of the edge from this vertex to the next one.
    pub edge: Feature,
}

/// A convex polygon (a face, an edge as a 2-gon, or a single point) of a
/// shape, counter-clockwise around `normal`, with feature ids. Fixed capacity.
#[derive(Debug, Clone, Copy)]
pub struct Polygon {
    verts: [PolygonVertex; MAX_POLYGON],
    len: usize,
    /// The outward normal of the face (for a segment or point: the direction the
    /// feature was asked for).
    pub normal: Vec3,
    /// The feature of the whole polygon (a face; an edge for a 2-gon).
    pub feature: Feature,
}

impl Default for Polygon {
    fn default() -> Self {
        Polygon {
            verts: [PolygonVertex::default(); MAX_POLYGON],
            len: 0,
            normal: Vec3::ZERO,
            feature: Feature::NONE,
        }
    }
}

impl Polygon {
    /// Removes every vertex.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Appends a vertex; dropped when full (see [`MAX_POLYGON`]).
    #[inline]
    pub fn push(&mut self, point: Vec3, vertex: Feature, edge: Feature) {
        if self.len < MAX_POLYGON {
            self.verts[self.len] = PolygonVertex {
                point,
                vertex,
                edge,
            };
            self.len += 1;
        }
    }
    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[PolygonVertex] {
        &self.verts[..self.len]
    }
    /// Number of vertices.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether there is no vertex.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Maps every point and the normal by `pose`.
    pub fn transform(&mut self, pose: &Pose3) {
        for v in &mut self.verts[..self.len] {
            v.point = pose.transform_point(v.point);
        }
        self.normal = pose.transform_vector(self.normal);
    }
}

/// A convex polytope in its local frame, as seen by the separating-axis test.
///
/// Flat polytopes (a triangle, a segment) have no interior: their edges have no
/// proper Gauss-map arc, so [`Polytope::edge_normals`] returns `None` and the
/// edge-edge axes are tested with projection intervals instead of the
/// Gauss-map pruning.
pub trait Polytope {
    /// Number of faces.
    fn face_count(&self) -> usize;
    /// Plane of face `f`: outward unit normal `n` and offset `d` (`n·x = d`).
    fn face_plane(&self, f: usize) -> (Vec3, f32);
    /// The polygon of face `f`, counter-clockwise seen from outside.
    fn face_polygon(&self, f: usize, out: &mut Polygon);
    /// Number of edges.
    fn edge_count(&self) -> usize;
    /// The ends of edge `e`.
    fn edge(&self, e: usize) -> (Vec3, Vec3);
    /// The outward normals of the two faces meeting at edge `e` (the ends of
    /// its Gauss-map arc), or `None` for a flat polytope.
    fn edge_normals(&self, e: usize) -> Option<(Vec3, Vec3)>;
    /// A point farthest along `dir`.
    fn support(&self, dir: Vec3) -> Vec3;
    /// A point farthest along `dir` and its feature (a vertex).
    fn support_vertex(&self, dir: Vec3) -> (Vec3, Feature);
    /// A point of the polytope's interior (its centroid for a solid).
    fn interior_point(&self) -> Vec3;
    /// A length scale of the polytope (for tolerances).
    fn scale(&self) -> f32;
    /// Whether the polytope is a solid with a vertex graph (then the
    /// vertex, edge-topology and adjacency methods below are meaningful).
    /// `false` for flat polytopes, which have no Gauss-map arcs.
    fn is_solid(&self) -> bool {
        false
    }
    /// Number of vertices of a solid (0 otherwise).
    fn vertex_count(&self) -> usize {
        0
    }
    /// Vertex `i` of a solid.
    fn vertex(&self, i: usize) -> Vec3 {
        let _ = i;
        Vec3::ZERO
    }
    /// Edge `e` of a solid as `[v0, v1, f0, f1]`: its ends (as in
    /// [`Polytope::edge`]) and its faces (as in [`Polytope::edge_normals`]).
    fn edge_topology(&self, e: usize) -> [usize; 4] {
        let _ = e;
        [0; 4]
    }
    /// The neighbours of vertex `v` of a solid and the joining edges
    /// (parallel slices).
    fn vertex_adjacency(&self, v: usize) -> (&[u32], &[u32]) {
        let _ = v;
        (&[], &[])
    }
    /// The index of a vertex of a solid farthest along `dir`.
    fn support_index(&self, dir: Vec3) -> usize {
        let _ = dir;
        0
    }
    /// Copies a solid, mapped by `pose` (`None`: as it is), into `out` for
    /// the array-based separating-axis test. `false` (and `out` unusable) for
    /// flat polytopes and those too large for [`Prepared`]'s buffers.
    // Hidden with `prepared`: a crate-internal fast path (the default, `false`,
    // suits other implementors).
    #[doc(hidden)]
    fn prepare<'s>(&'s self, pose: Option<&Pose3>, out: &mut Prepared<'s>) -> bool {
        let _ = (pose, out);
        false
    }
    /// The vertices and unit normal of a triangle (a flat polytope whose
    /// faces `0` and `1` are `±normal` and whose edge `k` joins vertices `k`
    /// and `k + 1`); `None` for every other polytope. The separating-axis test
    /// then picks a triangle's edge pairs against a solid on the Gauss map.
    fn triangle(&self) -> Option<([Vec3; 3], Vec3)> {
        None
    }
    /// The convex polyhedron behind this polytope, if it is one: the
    /// separating-axis test then reads its cached data (vertex blocks, face
    /// planes, edges) directly instead of copying them.
    fn hull(&self) -> Option<&ConvexPolyhedron> {
        None
    }
    /// The feature most aligned with `dir`, as a polygon: the face whose normal
    /// is closest to `dir` (a flat polytope without faces gives an edge).
    fn incident_polygon(&self, dir: Vec3, out: &mut Polygon) {
        let mut best = 0;
        let mut best_d = f32::NEG_INFINITY;
        for f in 0..self.face_count() {
            let d = self.face_plane(f).0.dot(dir);
            if d > best_d {
                best_d = d;
                best = f;
            }
        }
        self.face_polygon(best, out);
    }
}
