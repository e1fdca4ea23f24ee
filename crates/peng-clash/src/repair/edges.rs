//! The edges of a triangle list, grouped by their two vertices.

/// One side of a triangle: triangle `tri`, from its corner `k` to `k + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Side {
    /// The undirected edge: the smaller vertex index in the high bits.
    pub key: u64,
    /// The triangle.
    pub tri: u32,
    /// The corner the side starts at (0, 1 or 2).
    pub k: u8,
}

impl Side {
    /// The edge's two vertices, the smaller first.
    pub fn edge(&self) -> (u32, u32) {
        ((self.key >> 32) as u32, self.key as u32)
    }

    /// The side's start and end vertices, as its triangle runs it.
    pub fn ends(&self, triangles: &[[u32; 3]]) -> (u32, u32) {
        let t = &triangles[self.tri as usize];
        let k = self.k as usize;
        (t[k], t[(k + 1) % 3])
    }
}

/// Every side of every triangle, sorted so that the sides of one edge are
/// consecutive (`chunk_by` on the key gives the edges).
pub(super) fn sides(triangles: &[[u32; 3]]) -> Vec<Side> {
    let mut out = Vec::with_capacity(3 * triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            out.push(Side {
                key: (u64::from(a.min(b)) << 32) | u64::from(a.max(b)),
                tri: t as u32,
                k: k as u8,
            });
        }
    }
    out.sort_unstable();
    out
}

/// The sides met by no other triangle (the mesh's boundary).
pub(super) fn boundary(triangles: &[[u32; 3]]) -> Vec<Side> {
    sides(triangles)
        .chunk_by(|x, y| x.key == y.key)
        .filter(|g| g.len() == 1)
        .map(|g| g[0])
        .collect()
}

/// Drops triangles with a repeated corner (after vertices were merged).
pub(super) fn drop_degenerate(triangles: &mut Vec<[u32; 3]>) {
    triangles.retain(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2]);
}
