//! Edge adjacency of a triangle mesh (a half-edge map), for internal-edge
//! handling and for deciding whether a mesh is closed.
//!
//! Every triangle `[v0, v1, v2]` has three half-edges `e = (v_e, v_{e+1})`. Two
//! triangles are adjacent across an edge when they share its two vertex
//! *indices* (vertices at the same position but with different indices are not
//! welded here). The half-edges are sorted by their undirected key
//! `(min, max)`, so each edge's half-edges are consecutive: `O(n log n)` and
//! no hashing.

/// Triangle adjacency across edges, and what it says about the mesh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    adjacent: Vec<[u32; 3]>,
    boundary_edges: usize,
    non_manifold_edges: usize,
    oriented: bool,
}

/// Marks "no neighbour" in [`Topology::adjacency`].
pub const NO_NEIGHBOUR: u32 = u32::MAX;

impl Topology {
    /// Builds the map for the given triangles (indices must be `< n_vertices`).
    pub(crate) fn build(indices: &[[u32; 3]], _n_vertices: usize) -> Self {
        let mut half: Vec<(u64, u32)> = Vec::with_capacity(indices.len() * 3);
        for (t, tri) in indices.iter().enumerate() {
            for e in 0..3 {
                let (u, v) = (tri[e], tri[(e + 1) % 3]);
                if u != v {
                    let key = ((u.min(v) as u64) << 32) | u.max(v) as u64;
                    half.push((key, (t * 3 + e) as u32));
                }
            }
        }
        half.sort_unstable();
        let mut adjacent = vec![[NO_NEIGHBOUR; 3]; indices.len()];
        let (mut boundary_edges, mut non_manifold_edges, mut oriented) = (0, 0, true);
        let mut i = 0;
        while i < half.len() {
            let mut j = i + 1;
            while j < half.len() && half[j].0 == half[i].0 {
                j += 1;
            }
            match j - i {
                1 => boundary_edges += 1,
                2 => {
                    let (h0, h1) = (half[i].1 as usize, half[i + 1].1 as usize);
                    let (t0, e0, t1, e1) = (h0 / 3, h0 % 3, h1 / 3, h1 % 3);
                    adjacent[t0][e0] = t1 as u32;
                    adjacent[t1][e1] = t0 as u32;
                    // Consistent orientation: the two triangles run the edge in
                    // opposite directions.
                    if indices[t0][e0] == indices[t1][e1] {
                        oriented = false;
                    }
                }
                _ => non_manifold_edges += 1,
            }
            i = j;
        }
        Topology {
            adjacent,
            boundary_edges,
            non_manifold_edges,
            oriented,
        }
    }

    /// The triangle across edge `edge` (0, 1 or 2: from vertex `edge` to vertex
    /// `(edge + 1) % 3`) of triangle `tri`; `None` on a boundary, on a
    /// non-manifold edge (three or more triangles) and on a zero-length edge.
    #[inline]
    pub fn adjacent(&self, tri: u32, edge: usize) -> Option<u32> {
        let n = self.adjacent.get(tri as usize)?.get(edge).copied()?;
        (n != NO_NEIGHBOUR).then_some(n)
    }

    /// Per triangle, the neighbour across each edge, [`NO_NEIGHBOUR`] for none.
    #[inline]
    pub fn adjacency(&self) -> &[[u32; 3]] {
        &self.adjacent
    }

    /// Number of edges used by only one triangle.
    #[inline]
    pub fn boundary_edges(&self) -> usize {
        self.boundary_edges
    }

    /// Number of edges used by three or more triangles.
    #[inline]
    pub fn non_manifold_edges(&self) -> usize {
        self.non_manifold_edges
    }

    /// Whether every edge is shared by exactly two triangles (a closed,
    /// edge-manifold surface): then the inside test is meaningful.
    #[inline]
    pub fn is_closed(&self) -> bool {
        self.boundary_edges == 0 && self.non_manifold_edges == 0
    }

    /// Whether every pair of adjacent triangles runs their common edge in
    /// opposite directions (consistent winding).
    #[inline]
    pub fn is_consistently_oriented(&self) -> bool {
        self.oriented
    }
}
