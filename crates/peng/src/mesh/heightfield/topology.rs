//! Triangle adjacency of a height field, by index arithmetic on the grid (the
//! field needs no half-edge map: every edge's neighbour is known from the cell
//! layout described on [`HeightField`]).

use super::HeightField;
use crate::math::Vec3;

impl HeightField {
    /// The grid vertex ids (`r·cols + c`) of triangle `t`'s corners, in the
    /// order of [`HeightField::triangle`]; `None` when `t` is out of range.
    pub fn triangle_vertex_ids(&self, t: u32) -> Option<[u32; 3]> {
        let (r, c, k) = self.cell_of(t)?;
        let id = |r: usize, c: usize| (r * self.cols + c) as u32;
        Some(if k == 0 {
            [id(r, c), id(r + 1, c), id(r + 1, c + 1)]
        } else {
            [id(r, c), id(r + 1, c + 1), id(r, c + 1)]
        })
    }

    /// The triangle across edge `edge` (from corner `edge` to corner
    /// `(edge + 1) % 3`) of triangle `t`; `None` on the field's border or for
    /// an index out of range.
    ///
    /// In cell `(r, c)`, triangle 0 is `[(r,c), (r+1,c), (r+1,c+1)]`: its edge 0
    /// lies on column line `c` (neighbour: triangle 1 of cell `(r, c-1)`), its
    /// edge 1 on row line `r+1` (triangle 1 of cell `(r+1, c)`), its edge 2 is
    /// the diagonal (triangle 1 of the same cell). Triangle 1 is
    /// `[(r,c), (r+1,c+1), (r,c+1)]`: edge 0 is the diagonal, edge 1 lies on
    /// column line `c+1` (triangle 0 of cell `(r, c+1)`), edge 2 on row line `r`
    /// (triangle 0 of cell `(r-1, c)`).
    pub fn triangle_neighbour(&self, t: u32, edge: usize) -> Option<u32> {
        let (r, c, k) = self.cell_of(t)?;
        let (nr, nc) = (self.rows - 1, self.cols - 1);
        let (r2, c2, k2) = match (k, edge) {
            (0, 0) if c > 0 => (r, c - 1, 1),
            (0, 1) if r + 1 < nr => (r + 1, c, 1),
            (0, 2) => (r, c, 1),
            (1, 0) => (r, c, 0),
            (1, 1) if c + 1 < nc => (r, c + 1, 0),
            (1, 2) if r > 0 => (r - 1, c, 0),
            _ => return None,
        };
        Some(self.triangle_index(r2, c2, k2))
    }

    /// The position of grid vertex `id` (`r·cols + c`), local frame.
    #[inline]
    pub fn vertex_by_id(&self, id: u32) -> Vec3 {
        let id = id as usize;
        self.vertex(id / self.cols, id % self.cols)
    }

    /// Cell row, column and triangle (0 or 1) of triangle `t`.
    #[inline]
    fn cell_of(&self, t: u32) -> Option<(usize, usize, usize)> {
        let t = t as usize;
        if t >= self.num_triangles() {
            return None;
        }
        let cell = t / 2;
        let nc = self.cols - 1;
        Some((cell / nc, cell % nc, t % 2))
    }
}

#[cfg(test)]
mod tests {
    use crate::math::Vec2;
    use crate::mesh::HeightField;

    #[test]
    fn neighbours_share_their_edge_and_are_symmetric() {
        let hf = HeightField::new(4, 5, vec![0.0; 20], Vec2::ONE).unwrap();
        let mut inner = 0;
        for t in 0..hf.num_triangles() as u32 {
            let ids = hf.triangle_vertex_ids(t).unwrap();
            for e in 0..3 {
                let Some(n) = hf.triangle_neighbour(t, e) else {
                    continue;
                };
                inner += 1;
                let nids = hf.triangle_vertex_ids(n).unwrap();
                let (u, v) = (ids[e], ids[(e + 1) % 3]);
                let back = (0..3)
                    .find(|&f| nids[f] == v && nids[(f + 1) % 3] == u)
                    .expect("the neighbour runs the edge the other way");
                assert_eq!(hf.triangle_neighbour(n, back), Some(t));
            }
            // Ids name the corners.
            for (i, &id) in ids.iter().enumerate() {
                assert_eq!(hf.vertex_by_id(id), hf.triangle(t as usize)[i]);
            }
        }
        // Edges: 4·4 along rows, 5·3 along columns, 12 diagonals; 2·(4 + 3)
        // of them on the border; the others are seen from both sides.
        assert_eq!(inner, 2 * (16 + 15 + 12 - 14));
    }
}
