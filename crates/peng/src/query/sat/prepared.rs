//! A solid polytope copied into a fixed-size buffer in the query frame (A's),
//! so that the separating-axis test maps B's vertices and face normals once per
//! query instead of once per axis or edge pair, and scans them as arrays.
//!
//! Only small solids fit (the buffers are on the stack, no query allocates);
//! larger ones and flat polytopes use the support-function path of
//! [`super::separation::sat`].

use crate::math::Vec3;

/// Most vertices of a prepared polytope.
pub const MAX_VERTS: usize = 32;
/// Most faces: a convex polyhedron with `V` vertices has at most `2V - 4`.
pub const MAX_FACES: usize = 2 * MAX_VERTS - 4;
/// Most edges: at most `3V - 6`.
pub const MAX_EDGES: usize = 3 * MAX_VERTS - 6;

/// One edge: its end vertices and the two faces meeting at it (the ends of
/// its Gauss-map arc, in the order of [`super::Polytope::edge_normals`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct PreparedEdge {
    /// First end (index into the vertices).
    pub v0: u8,
    /// Second end.
    pub v1: u8,
    /// First face.
    pub f0: u8,
    /// Second face.
    pub f1: u8,
}

/// A solid polytope in the query frame: vertices (as coordinate arrays, so
/// that scans vectorise), face planes and edges with their faces.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// Vertex x coordinates.
    pub vx: [f32; MAX_VERTS],
    /// Vertex y coordinates.
    pub vy: [f32; MAX_VERTS],
    /// Vertex z coordinates.
    pub vz: [f32; MAX_VERTS],
    /// Number of vertices.
    pub nv: usize,
    /// Outward unit face normals.
    pub normals: [Vec3; MAX_FACES],
    /// Plane offsets: `normal · x = offset` on the face.
    pub offsets: [f32; MAX_FACES],
    /// Number of faces.
    pub nf: usize,
    /// Edges.
    pub edges: [PreparedEdge; MAX_EDGES],
    /// Number of edges.
    pub ne: usize,
}

impl Default for Prepared {
    fn default() -> Self {
        Prepared {
            vx: [0.0; MAX_VERTS],
            vy: [0.0; MAX_VERTS],
            vz: [0.0; MAX_VERTS],
            nv: 0,
            normals: [Vec3::ZERO; MAX_FACES],
            offsets: [0.0; MAX_FACES],
            nf: 0,
            edges: [PreparedEdge::default(); MAX_EDGES],
            ne: 0,
        }
    }
}

impl Prepared {
    /// Vertex `i`.
    #[inline]
    pub fn vertex(&self, i: usize) -> Vec3 {
        Vec3::new(self.vx[i], self.vy[i], self.vz[i])
    }

    /// Sets vertex `i`.
    #[inline]
    pub fn set_vertex(&mut self, i: usize, p: Vec3) {
        self.vx[i] = p.x;
        self.vy[i] = p.y;
        self.vz[i] = p.z;
    }

    /// `min_i n · v_i` over the vertices (`+∞` when there is none): the
    /// polytope's extent along `-n`.
    #[inline]
    pub fn min_dot(&self, n: Vec3) -> f32 {
        let k = self.nv;
        let (xs, ys, zs) = (&self.vx[..k], &self.vy[..k], &self.vz[..k]);
        // Four running minima (a loop that vectorises); NaN coordinates
        // cannot occur in validated shapes.
        let mut m = [f32::INFINITY; 4];
        for i in 0..k {
            let d = n.x * xs[i] + n.y * ys[i] + n.z * zs[i];
            let l = i % 4;
            m[l] = if d < m[l] { d } else { m[l] };
        }
        m[0].min(m[1]).min(m[2].min(m[3]))
    }
}
