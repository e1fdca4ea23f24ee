use crate::math::policy::GeometryError;
use crate::math::Vec3;
use std::collections::HashMap;

/// A face of a [`ConvexPolyhedron`]: a convex polygon of vertex indices,
/// counter-clockwise seen from outside, on the plane `normal · x = offset`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Face {
    /// Outward unit normal.
    pub normal: Vec3,
    /// Plane offset: `normal · x = offset` for points on the face.
    pub offset: f32,
    /// Start of this face's vertex loop in [`ConvexPolyhedron::face_vertices`].
    pub first: u32,
    /// Number of vertices in the loop.
    pub count: u32,
}

/// An edge of a [`ConvexPolyhedron`] and the two faces that meet there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// The two end vertices (lower index first).
    pub vertices: [u32; 2],
    /// The two faces sharing the edge.
    pub faces: [u32; 2],
}

/// A convex polyhedron with face, edge and vertex adjacency (for the
/// separating-axis test, face clipping and hill-climbing support queries).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexPolyhedron {
    vertices: Vec<Vec3>,
    faces: Vec<Face>,
    face_vertices: Vec<u32>,
    edges: Vec<Edge>,
    /// `neighbors[neighbor_start[v]..neighbor_start[v+1]]` are the vertices joined to `v`.
    neighbor_start: Vec<u32>,
    neighbors: Vec<u32>,
}

impl ConvexPolyhedron {
    /// The convex hull of `points`; coplanar faces are merged into one polygon.
    /// Fails when the points span no volume (see [`crate::math::policy`]).
    pub fn from_points(points: &[Vec3]) -> Result<Self, GeometryError> {
        let (vertices, loops) = crate::shape::hull3::convex_hull(points)?;
        Self::from_faces(vertices, &loops)
    }

    /// A polyhedron from its vertices and face loops (each counter-clockwise seen
    /// from outside). The faces must close a convex surface: every edge is shared
    /// by exactly two faces.
    pub fn from_faces(vertices: Vec<Vec3>, loops: &[Vec<u32>]) -> Result<Self, GeometryError> {
        const WHAT: &str = "convex polyhedron";
        if vertices.len() < 4 {
            return Err(GeometryError::TooFew {
                what: WHAT,
                needed: 4,
                got: vertices.len(),
            });
        }
        if vertices.iter().any(|v| !v.is_finite()) {
            return Err(GeometryError::NonFinite {
                what: "convex polyhedron vertex",
            });
        }
        let mut faces = Vec::with_capacity(loops.len());
        let mut face_vertices = Vec::new();
        let mut edge_faces: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
        for (fi, lp) in loops.iter().enumerate() {
            if lp.len() < 3 {
                return Err(GeometryError::TooFew {
                    what: "convex polyhedron face",
                    needed: 3,
                    got: lp.len(),
                });
            }
            if let Some(&bad) = lp.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(GeometryError::IndexOutOfRange {
                    what: WHAT,
                    index: bad as usize,
                    len: vertices.len(),
                });
            }
            // Newell's method: a robust normal for a planar polygon loop.
            let mut n = Vec3::ZERO;
            let mut centroid = Vec3::ZERO;
            for k in 0..lp.len() {
                let p = vertices[lp[k] as usize];
                let q = vertices[lp[(k + 1) % lp.len()] as usize];
                n += Vec3::new(
                    (p.y - q.y) * (p.z + q.z),
                    (p.z - q.z) * (p.x + q.x),
                    (p.x - q.x) * (p.y + q.y),
                );
                centroid += p;
            }
            let normal = n.try_normalize().ok_or(GeometryError::Degenerate {
                what: WHAT,
                why: "a face has zero area",
            })?;
            centroid /= lp.len() as f32;
            faces.push(Face {
                normal,
                offset: normal.dot(centroid),
                first: face_vertices.len() as u32,
                count: lp.len() as u32,
            });
            face_vertices.extend_from_slice(lp);
            for k in 0..lp.len() {
                let (a, b) = (lp[k], lp[(k + 1) % lp.len()]);
                edge_faces
                    .entry((a.min(b), a.max(b)))
                    .or_default()
                    .push(fi as u32);
            }
        }
        let mut edges = Vec::with_capacity(edge_faces.len());
        let mut keys: Vec<_> = edge_faces.into_iter().collect();
        keys.sort_by_key(|(k, _)| *k);
        for ((a, b), fs) in keys {
            if fs.len() != 2 {
                return Err(GeometryError::Degenerate {
                    what: WHAT,
                    why: "faces do not close the surface (an edge is not shared by exactly two faces)",
                });
            }
            edges.push(Edge {
                vertices: [a, b],
                faces: [fs[0], fs[1]],
            });
        }
        let mut adj: Vec<Vec<u32>> = vec![Vec::new(); vertices.len()];
        for e in &edges {
            adj[e.vertices[0] as usize].push(e.vertices[1]);
            adj[e.vertices[1] as usize].push(e.vertices[0]);
        }
        let mut neighbor_start = Vec::with_capacity(vertices.len() + 1);
        let mut neighbors = Vec::with_capacity(edges.len() * 2);
        for a in &adj {
            neighbor_start.push(neighbors.len() as u32);
            neighbors.extend_from_slice(a);
        }
        neighbor_start.push(neighbors.len() as u32);
        Ok(ConvexPolyhedron {
            vertices,
            faces,
            face_vertices,
            edges,
            neighbor_start,
            neighbors,
        })
    }

    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }
    /// The faces.
    #[inline]
    pub fn faces(&self) -> &[Face] {
        &self.faces
    }
    /// All face loops, concatenated; see [`Face::first`].
    #[inline]
    pub fn face_vertices(&self) -> &[u32] {
        &self.face_vertices
    }
    /// The vertex indices of face `f`, counter-clockwise seen from outside.
    #[inline]
    pub fn face_loop(&self, f: usize) -> &[u32] {
        let face = &self.faces[f];
        &self.face_vertices[face.first as usize..(face.first + face.count) as usize]
    }
    /// The edges.
    #[inline]
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }
    /// The vertices joined to vertex `v` by an edge.
    #[inline]
    pub fn vertex_neighbors(&self, v: usize) -> &[u32] {
        &self.neighbors[self.neighbor_start[v] as usize..self.neighbor_start[v + 1] as usize]
    }

    /// Support point along `dir`, by hill climbing over the vertex graph (exact on
    /// a convex polyhedron: a vertex no neighbour improves on is the maximum).
    pub fn support(&self, dir: Vec3) -> Vec3 {
        self.vertices[self.support_vertex(dir)]
    }

    /// Index of a vertex farthest along `dir`.
    pub fn support_vertex(&self, dir: Vec3) -> usize {
        if self.vertices.len() <= 16 {
            return super::support_index(&self.vertices, dir);
        }
        let mut best = 0usize;
        let mut best_d = self.vertices[0].dot(dir);
        loop {
            let mut improved = false;
            for &n in self.vertex_neighbors(best) {
                let d = self.vertices[n as usize].dot(dir);
                if d > best_d {
                    best_d = d;
                    best = n as usize;
                    improved = true;
                }
            }
            if !improved {
                return best;
            }
        }
    }

    /// A polyhedron for a cuboid with the given half-extents (handy in tests).
    pub fn cuboid(half_extents: Vec3) -> Result<Self, GeometryError> {
        let c = super::Cuboid::new(half_extents)?;
        // Corner i has bit k set when its coordinate k is positive.
        let loops: [Vec<u32>; 6] = [
            vec![0, 4, 6, 2], // -x
            vec![1, 3, 7, 5], // +x
            vec![0, 1, 5, 4], // -y
            vec![2, 6, 7, 3], // +y
            vec![0, 2, 3, 1], // -z
            vec![4, 5, 7, 6], // +z
        ];
        Self::from_faces(c.vertices().to_vec(), &loops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuboid_adjacency() {
        let p = ConvexPolyhedron::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
        assert_eq!(p.faces().len(), 6);
        assert_eq!(p.edges().len(), 12);
        for (i, f) in p.faces().iter().enumerate() {
            // Outward: the face normal points away from the centroid.
            assert!(f.offset > 0.0, "face {i} normal points inward");
            assert!((f.normal.length() - 1.0).abs() < 1e-6);
        }
        for v in 0..8 {
            assert_eq!(p.vertex_neighbors(v).len(), 3);
        }
        assert_eq!(
            p.support(Vec3::new(1.0, -1.0, 1.0)),
            Vec3::new(1.0, -2.0, 3.0)
        );
    }

    #[test]
    fn open_surface_is_rejected() {
        let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let r = ConvexPolyhedron::from_faces(v, &[vec![0, 2, 1], vec![0, 1, 3]]);
        assert!(matches!(r, Err(GeometryError::Degenerate { .. })));
    }
}
