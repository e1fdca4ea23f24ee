//! Convex polyhedra with adjacency.

use super::support_table::{cube_cell, SupportTable};
use crate::bound::Aabb3;
use crate::math::policy::GeometryError;
use crate::math::tolerance::REL_EPS;
use crate::math::{Pose3, Vec3};
use glam::DVec3;
use std::collections::HashMap;

const WHAT: &str = "convex polyhedron";

/// Above this many vertex-face pairs, [`ConvexPolyhedron::from_faces`] checks
/// convexity at the edges only (see there).
const FULL_CONVEXITY_CHECK: usize = 1 << 22;

fn degenerate(why: &'static str) -> GeometryError {
    GeometryError::Degenerate { what: WHAT, why }
}

/// The tolerance of [`ConvexPolyhedron::from_faces`]' planarity and convexity
/// checks: 8 `REL_EPS` times the sum over the axes of the largest absolute
/// coordinate (the hull builder merges faces within 2 `REL_EPS` of that scale
/// of one plane, and f32 face planes add a few ulps).
fn validation_tolerance(vertices: &[Vec3]) -> f32 {
    let m = vertices.iter().fold(Vec3::ZERO, |m, v| m.max(v.abs()));
    8.0 * REL_EPS * (m.x + m.y + m.z)
}

/// The outward unit normal (Newell's method, in f64 relative to the first vertex
/// so that shapes far from the origin keep their precision) and the offset
/// through the loop's mean, or `None` for a loop with no area.
fn face_plane(vertices: &[Vec3], lp: &[u32]) -> Option<(Vec3, f32)> {
    let p0 = vertices[lp[0] as usize].as_dvec3();
    let mut n = DVec3::ZERO;
    let mut mean = DVec3::ZERO;
    for k in 0..lp.len() {
        let p = vertices[lp[k] as usize].as_dvec3() - p0;
        let q = vertices[lp[(k + 1) % lp.len()] as usize].as_dvec3() - p0;
        n += p.cross(q);
        mean += p;
    }
    let n = n.try_normalize()?;
    let mean = p0 + mean / lp.len() as f64;
    Some((n.as_vec3(), n.dot(mean) as f32))
}

/// The coordinates of `vertices` in blocks of four (`[xs, ys, zs]` per
/// block), the last block padded with copies of vertex 0: padding changes no
/// minimum or maximum over the vertices, nor the first index attaining one.
fn vertex_blocks(vertices: &[Vec3]) -> Vec<[glam::Vec4; 3]> {
    let pad = vertices.first().copied().unwrap_or(Vec3::ZERO);
    (0..vertices.len().div_ceil(4))
        .map(|b| {
            let at = |l: usize| vertices.get(4 * b + l).copied().unwrap_or(pad);
            let (p, q, r, s) = (at(0), at(1), at(2), at(3));
            [
                glam::Vec4::new(p.x, q.x, r.x, s.x),
                glam::Vec4::new(p.y, q.y, r.y, s.y),
                glam::Vec4::new(p.z, q.z, r.z, s.z),
            ]
        })
        .collect()
}

/// The face planes in blocks of four (`[nxs, nys, nzs, offsets]` per block),
/// the last block padded with copies of face 0: a repeated plane changes no
/// clip of a line against the planes.
fn plane_blocks(faces: &[Face]) -> Vec<[glam::Vec4; 4]> {
    let pad = faces
        .first()
        .map_or((Vec3::ZERO, 0.0), |f| (f.normal, f.offset));
    (0..faces.len().div_ceil(4))
        .map(|b| {
            let at = |l: usize| faces.get(4 * b + l).map_or(pad, |f| (f.normal, f.offset));
            let (p, q, r, s) = (at(0), at(1), at(2), at(3));
            [
                glam::Vec4::new(p.0.x, q.0.x, r.0.x, s.0.x),
                glam::Vec4::new(p.0.y, q.0.y, r.0.y, s.0.y),
                glam::Vec4::new(p.0.z, q.0.z, r.0.z, s.0.z),
                glam::Vec4::new(p.1, q.1, r.1, s.1),
            ]
        })
        .collect()
}

/// Hulls with at most this many vertices are scanned, not hill-climbed.
const SCAN_MAX: usize = 16;

/// Hulls with at most this many vertices are scanned four at a time (see
/// `ConvexPolyhedron::scan_blocks`) rather than hill-climbed.
const BLOCK_SCAN_MAX: usize = 256;

/// Cells per edge of a cube face in [`start_table`].
const START_CELLS: usize = 4;

/// The cell of the direction cube map of [`start_table`] that `dir` falls
/// in (see `support_table::cube_cell`). A zero or NaN direction falls in
/// some cell, which is all a start point needs.
#[inline]
fn start_cell(dir: Vec3) -> usize {
    cube_cell(dir, START_CELLS).0
}

/// For each cell of the direction cube map ([`start_cell`]), the support
/// vertex of the cell's central direction: a climb from there to the support
/// vertex of any direction in the cell takes a step or two, where a climb
/// from a fixed vertex crosses the hull. Empty for hulls of at most
/// [`SCAN_MAX`] vertices.
fn start_table(vertices: &[Vec3]) -> Vec<u32> {
    if vertices.len() <= SCAN_MAX {
        return Vec::new();
    }
    let n = START_CELLS;
    let centre = |i: usize| (i as f32 + 0.5) / n as f32 * 2.0 - 1.0;
    let mut table = vec![0u32; 6 * n * n];
    for side in 0..6 {
        let k = side / 2;
        let sign = if side % 2 == 0 { 1.0 } else { -1.0 };
        for i in 0..n {
            for j in 0..n {
                let mut dir = Vec3::ZERO;
                dir[k] = sign;
                dir[(k + 1) % 3] = centre(i);
                dir[(k + 2) % 3] = centre(j);
                let cell = start_cell(dir);
                table[cell] = super::support_index(vertices, dir) as u32;
            }
        }
    }
    table
}

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
    /// Parallel to `face_vertices`: the index into `edges` of the edge from
    /// each loop vertex to the next one in its loop.
    face_edges: Vec<u32>,
    edges: Vec<Edge>,
    /// `neighbors[neighbor_start[v]..neighbor_start[v+1]]` are the vertices joined to `v`.
    neighbor_start: Vec<u32>,
    neighbors: Vec<u32>,
    /// `neighbor_edges[k]` is the index into `edges` of the edge joining a
    /// vertex to `neighbors[k]` (parallel to `neighbors`).
    neighbor_edges: Vec<u32>,
    /// The mean of the vertices (an interior point) and the largest distance
    /// of a vertex from it, cached for the queries' tolerances.
    vertex_mean: Vec3,
    vertex_radius: f32,
    /// Start vertices for hill climbing by direction (see [`start_table`];
    /// empty for hulls small enough to scan).
    starts: Vec<u32>,
    /// The candidate support vertices by direction (see [`SupportTable`];
    /// for hulls of more than [`SCAN_MAX`] and at most [`BLOCK_SCAN_MAX`]
    /// vertices).
    support_table: Option<SupportTable>,
    /// The vertices' coordinates in blocks of four, `[xs, ys, zs]` per block,
    /// the last block padded with copies of vertex 0 (see
    /// [`ConvexPolyhedron::vertex_blocks`]).
    blocks: Vec<[glam::Vec4; 3]>,
    /// The face planes in blocks of four, `[nxs, nys, nzs, offsets]`, the
    /// last block padded with copies of face 0 (see
    /// [`ConvexPolyhedron::plane_blocks`]).
    planes: Vec<[glam::Vec4; 4]>,
    /// Planarity and convexity tolerance (see [`validation_tolerance`]).
    tolerance: f32,
    aabb: Aabb3,
}

impl ConvexPolyhedron {
    /// The convex hull of `points`; coplanar faces are merged into one polygon.
    /// Fails when the points span no volume (see [`crate::math::policy`]).
    pub fn from_points(points: &[Vec3]) -> Result<Self, GeometryError> {
        let (vertices, loops) = crate::shape::hull3::convex_hull(points)?;
        Self::from_faces(vertices, &loops)
    }

    /// A polyhedron from its vertices and face loops (each counter-clockwise seen
    /// from outside).
    ///
    /// The input is validated: every vertex finite and on some face; every loop
    /// at least 3 distinct vertices with non-zero area; every edge used once in
    /// each direction (a closed, consistently oriented surface) with
    /// V - E + F = 2; every face planar and every vertex behind every face plane
    /// (convex), both within a tolerance relative to the coordinates' size; and a
    /// positive volume. The check of every vertex against every face is
    /// skipped above 2^22 vertex-face pairs; then convexity is checked at every
    /// edge (both faces' vertices behind the other's plane).
    pub fn from_faces(vertices: Vec<Vec3>, loops: &[Vec<u32>]) -> Result<Self, GeometryError> {
        if vertices.len() < 4 {
            return Err(GeometryError::TooFew {
                what: WHAT,
                needed: 4,
                got: vertices.len(),
            });
        }
        crate::math::policy::check_points("convex polyhedron vertex", &vertices)?;
        let tol = validation_tolerance(&vertices);
        let mut faces = Vec::with_capacity(loops.len());
        let mut face_vertices = Vec::new();
        // Directed edge -> face using it.
        let mut directed: HashMap<(u32, u32), u32> = HashMap::new();
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
            let mut sorted = lp.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[0] == w[1]) {
                return Err(degenerate("a face repeats a vertex"));
            }
            let (normal, offset) =
                face_plane(&vertices, lp).ok_or(degenerate("a face has zero area"))?;
            faces.push(Face {
                normal,
                offset,
                first: face_vertices.len() as u32,
                count: lp.len() as u32,
            });
            face_vertices.extend_from_slice(lp);
            for k in 0..lp.len() {
                let (a, b) = (lp[k], lp[(k + 1) % lp.len()]);
                if directed.insert((a, b), fi as u32).is_some() {
                    return Err(degenerate(
                        "an edge is used twice in the same direction (faces are inconsistently oriented or overlap)",
                    ));
                }
            }
        }
        let mut edges = Vec::with_capacity(directed.len() / 2);
        for (&(a, b), &fa) in &directed {
            let Some(&fb) = directed.get(&(b, a)) else {
                return Err(degenerate(
                    "faces do not close the surface (an edge is not shared by exactly two faces)",
                ));
            };
            if a < b {
                edges.push(Edge {
                    vertices: [a, b],
                    faces: [fa, fb],
                });
            }
        }
        edges.sort_by_key(|e| e.vertices);
        let edge_of = |a: u32, b: u32| {
            edges
                .binary_search_by(|e| e.vertices.cmp(&[a.min(b), a.max(b)]))
                .map_or(0, |i| i as u32)
        };
        let face_edges: Vec<u32> = faces
            .iter()
            .flat_map(|f| {
                let lp = &face_vertices[f.first as usize..(f.first + f.count) as usize];
                (0..lp.len()).map(move |k| (lp[k], lp[(k + 1) % lp.len()]))
            })
            .map(|(a, b)| edge_of(a, b))
            .collect();
        // (neighbour, edge index) per vertex.
        let mut adj: Vec<Vec<(u32, u32)>> = vec![Vec::new(); vertices.len()];
        for (i, e) in edges.iter().enumerate() {
            adj[e.vertices[0] as usize].push((e.vertices[1], i as u32));
            adj[e.vertices[1] as usize].push((e.vertices[0], i as u32));
        }
        if adj.iter().any(Vec::is_empty) {
            return Err(degenerate("a vertex is on no face"));
        }
        if vertices.len() + faces.len() != edges.len() + 2 {
            return Err(degenerate(
                "the faces do not form one closed surface of genus 0 (V - E + F != 2)",
            ));
        }
        let mut neighbor_start = Vec::with_capacity(vertices.len() + 1);
        let mut neighbors = Vec::with_capacity(edges.len() * 2);
        let mut neighbor_edges = Vec::with_capacity(edges.len() * 2);
        for a in &adj {
            neighbor_start.push(neighbors.len() as u32);
            neighbors.extend(a.iter().map(|&(w, _)| w));
            neighbor_edges.extend(a.iter().map(|&(_, e)| e));
        }
        neighbor_start.push(neighbors.len() as u32);

        let starts = start_table(&vertices);
        let support_table = if (SCAN_MAX + 1..=BLOCK_SCAN_MAX).contains(&vertices.len()) {
            SupportTable::new(&vertices)
        } else {
            None
        };
        let vertex_mean = vertices.iter().copied().sum::<Vec3>() / vertices.len() as f32;
        let vertex_radius = vertices
            .iter()
            .map(|&x| (x - vertex_mean).length())
            .fold(0.0f32, f32::max);
        let blocks = vertex_blocks(&vertices);
        let planes = plane_blocks(&faces);
        let p = ConvexPolyhedron {
            vertex_mean,
            vertex_radius,
            neighbor_edges,
            aabb: Aabb3::from_points(vertices.iter().copied()),
            vertices,
            faces,
            face_vertices,
            face_edges,
            edges,
            neighbor_start,
            neighbors,
            starts,
            support_table,
            tolerance: tol,
            blocks,
            planes,
        };
        p.check_convex()?;
        Ok(p)
    }

    /// Planarity and convexity within `self.tolerance`, and positive volume.
    fn check_convex(&self) -> Result<(), GeometryError> {
        let tol = self.tolerance as f64;
        let v64: Vec<DVec3> = self.vertices.iter().map(|v| v.as_dvec3()).collect();
        let plane = |f: &Face| (f.normal.as_dvec3(), f.offset as f64);
        let in_front = |f: &Face, v: u32| {
            let (n, d) = plane(f);
            n.dot(v64[v as usize]) - d > tol
        };
        for (fi, f) in self.faces.iter().enumerate() {
            let (n, d) = plane(f);
            if self
                .face_loop(fi)
                .iter()
                .any(|&v| (n.dot(v64[v as usize]) - d).abs() > tol)
            {
                return Err(degenerate("a face is not planar"));
            }
        }
        let nonconvex = degenerate("the polyhedron is not convex");
        if self.vertices.len() * self.faces.len() <= FULL_CONVEXITY_CHECK {
            for f in &self.faces {
                if (0..self.vertices.len() as u32).any(|v| in_front(f, v)) {
                    return Err(nonconvex);
                }
            }
        } else {
            for e in &self.edges {
                let [fa, fb] = e.faces.map(|f| f as usize);
                if self
                    .face_loop(fb)
                    .iter()
                    .any(|&v| in_front(&self.faces[fa], v))
                    || self
                        .face_loop(fa)
                        .iter()
                        .any(|&v| in_front(&self.faces[fb], v))
                {
                    return Err(nonconvex);
                }
            }
        }
        // Mean thickness 3V/A (the inradius for a polyhedron with an
        // inscribed sphere) of at least a thousandth of the tolerance: rejects
        // flat shapes (faces covering a polygon from both sides, where the
        // volume is rounding noise) but not thin ones the hull builder accepts.
        let area: f64 = (0..self.faces.len()).map(|f| self.face_area(f)).sum();
        let (volume, _) = self.mass_centre();
        if 3.0 * volume <= tol * 1e-3 * area {
            return Err(degenerate("the polyhedron has no volume"));
        }
        Ok(())
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
    /// The edges of face `f`, parallel to [`Self::face_loop`]: entry `k` is
    /// the index into [`Self::edges`] of the edge from loop vertex `k` to the
    /// next.
    #[inline]
    pub fn face_loop_edges(&self, f: usize) -> &[u32] {
        let face = &self.faces[f];
        &self.face_edges[face.first as usize..(face.first + face.count) as usize]
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

    /// The edges at vertex `v`, parallel to [`Self::vertex_neighbors`]: entry
    /// `k` is the index into [`Self::edges`] of the edge joining `v` to
    /// `vertex_neighbors(v)[k]`.
    #[inline]
    pub fn vertex_edges(&self, v: usize) -> &[u32] {
        &self.neighbor_edges[self.neighbor_start[v] as usize..self.neighbor_start[v + 1] as usize]
    }
    /// The vertex graph in compressed rows: the neighbours of vertex `v` are
    /// `neighbours[start[v]..start[v + 1]]`, and `edges` (parallel to
    /// `neighbours`) holds the index into [`Self::edges`] of each joining edge.
    /// Returned as `(start, neighbours, edges)`.
    #[inline]
    pub fn vertex_graph(&self) -> (&[u32], &[u32], &[u32]) {
        (&self.neighbor_start, &self.neighbors, &self.neighbor_edges)
    }
    /// The vertices' coordinates in blocks of four, `[xs, ys, zs]` per block
    /// (lane `l` of block `b` is vertex `4b + l`), the last block padded with
    /// copies of vertex 0; cached, so that scans over the vertices run four
    /// at a time.
    #[inline]
    pub(crate) fn vertex_blocks(&self) -> &[[glam::Vec4; 3]] {
        &self.blocks
    }
    /// The face planes in blocks of four, `[nxs, nys, nzs, offsets]` per
    /// block (lane `l` of block `b` is face `4b + l`), the last block padded
    /// with copies of face 0; cached, so that a line is clipped against four
    /// planes at a time.
    #[inline]
    pub(crate) fn plane_blocks(&self) -> &[[glam::Vec4; 4]] {
        &self.planes
    }
    /// The mean of the vertices (a point inside the polyhedron), cached.
    #[inline]
    pub fn vertex_mean(&self) -> Vec3 {
        self.vertex_mean
    }
    /// The largest distance of a vertex from [`Self::vertex_mean`] (a length
    /// scale for tolerances), cached.
    #[inline]
    pub fn vertex_radius(&self) -> f32 {
        self.vertex_radius
    }

    /// Support point along `dir`: the vertex [`Self::support_vertex`] gives.
    pub fn support(&self, dir: Vec3) -> Vec3 {
        self.vertices[self.support_vertex(dir)]
    }

    /// Index of a vertex farthest along `dir`; on exact ties, the lowest index
    /// (the same answer as a scan of all vertices).
    ///
    /// Hulls of up to 256 vertices are scanned, four vertices at a time above
    /// 16. Larger ones are climbed over the vertex graph from the support
    /// vertex of a nearby direction (a table of directions kept with the
    /// hull): on a convex polyhedron a vertex that no neighbour improves on
    /// is a global maximum. Rounding (and the tolerance within which a hull is
    /// convex) can stop the climb on a near-flat plateau, e.g. a face with
    /// many vertices facing `dir`; so when a neighbour comes within tolerance
    /// of the best, the plateau of vertices within tolerance is searched for
    /// the exact maximum (by a scan of all vertices if it is large).
    pub fn support_vertex(&self, dir: Vec3) -> usize {
        self.support_vertex_from(u32::MAX, dir)
    }

    /// [`Self::support_vertex`] with the climb started at vertex `start`
    /// (an earlier answer for a nearby direction, as GJK asks): the same
    /// answer, in fewer steps when `start` is near it. An out-of-range
    /// `start` (`u32::MAX`: none) starts from the table of directions.
    pub(crate) fn support_vertex_from(&self, start: u32, dir: Vec3) -> usize {
        if self.vertices.len() <= SCAN_MAX {
            return super::support_index(&self.vertices, dir);
        }
        if let Some(i) = self
            .support_table
            .as_ref()
            .and_then(|t| t.support(&self.vertices, dir))
        {
            return i;
        }
        if self.vertices.len() <= BLOCK_SCAN_MAX {
            return self.scan_blocks(dir);
        }
        let start = if (start as usize) < self.vertices.len() {
            start
        } else {
            self.starts[start_cell(dir)]
        };
        self.climb(start, self.vertices[start as usize].dot(dir), dir)
    }

    /// The first vertex farthest along `dir`, by a scan of the vertex blocks:
    /// the largest of all dot products, four at a time and branch-free, then
    /// the first block holding it (the padding lanes copy vertex 0, so they
    /// never come before it). A NaN direction gives vertex 0.
    fn scan_blocks(&self, dir: Vec3) -> usize {
        use glam::Vec4;
        let (dx, dy, dz) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let dots = |[x, y, z]: &[Vec4; 3]| *x * dx + *y * dy + *z * dz;
        // The largest dot product, in four independent running maxima.
        let mut m = [Vec4::NEG_INFINITY; 4];
        let mut quads = self.blocks.chunks_exact(4);
        for q in &mut quads {
            for l in 0..4 {
                m[l] = m[l].max(dots(&q[l]));
            }
        }
        for (l, b) in quads.remainder().iter().enumerate() {
            m[l] = m[l].max(dots(b));
        }
        let top = Vec4::splat(m[0].max(m[1]).max(m[2].max(m[3])).max_element());
        for (k, b) in self.blocks.iter().enumerate() {
            let hit = dots(b).cmpeq(top).bitmask();
            if hit != 0 {
                return (4 * k + hit.trailing_zeros() as usize).min(self.vertices.len() - 1);
            }
        }
        0
    }

    /// Hill climbing from vertex `best` (at height `best_d` along `dir`) to
    /// the support vertex, then the plateau search (see
    /// [`Self::support_vertex`]).
    fn climb(&self, mut best: u32, mut best_d: f32, dir: Vec3) -> usize {
        let dot = |v: u32| self.vertices[v as usize].dot(dir);
        let slack = self.tolerance * dir.abs().max_element() * 3.0;
        // Steepest ascent; `top` is the highest neighbour of the last vertex.
        let top = loop {
            let mut next = best;
            let mut next_d = best_d;
            let mut top = f32::NEG_INFINITY;
            for &n in self.vertex_neighbors(best as usize) {
                let d = dot(n);
                top = top.max(d);
                if d > next_d {
                    next = n;
                    next_d = d;
                }
            }
            if next == best {
                break top;
            }
            best = next;
            best_d = next_d;
        };
        let floor = best_d - slack;
        if top < floor {
            return best as usize;
        }
        // Plateau search: breadth first over vertices within `slack` of the
        // best, in a fixed buffer; the scan of all vertices if it overflows.
        const CAP: usize = 64;
        let mut seen = [0u32; CAP];
        let mut len = 1;
        seen[0] = best;
        let mut i = 0;
        while i < len {
            let v = seen[i];
            i += 1;
            for &n in self.vertex_neighbors(v as usize) {
                let d = dot(n);
                if d < floor || seen[..len].contains(&n) {
                    continue;
                }
                if len == CAP {
                    return super::support_index(&self.vertices, dir);
                }
                seen[len] = n;
                len += 1;
                if d > best_d || (d == best_d && n < best) {
                    best = n;
                    best_d = d;
                }
            }
        }
        best as usize
    }

    /// Index of the face whose outward normal is most aligned with `dir` (the
    /// largest `normal · dir`; lowest index on ties). A scan of all faces: the
    /// most aligned face need not touch the support vertex.
    pub fn support_face(&self, dir: Vec3) -> usize {
        let mut best = 0;
        let mut best_d = f32::NEG_INFINITY;
        for (i, f) in self.faces.iter().enumerate() {
            let d = f.normal.dot(dir);
            if d > best_d {
                best_d = d;
                best = i;
            }
        }
        best
    }

    /// The bounding box in the local frame.
    #[inline]
    pub fn local_aabb(&self) -> Aabb3 {
        self.aabb
    }

    /// The bounding box of the vertices placed by `pose`: each vertex mapped
    /// by the pose's rotation matrix, four at a time from the cached blocks
    /// (the padding copies of vertex 0 change neither bound). Within a few
    /// ulps of the box of the vertices placed one by one by the quaternion.
    pub fn aabb_at(&self, pose: &Pose3) -> Aabb3 {
        use glam::Vec4;
        let r = pose.rotation_matrix();
        let (mut lo, mut hi) = ([Vec4::INFINITY; 3], [Vec4::NEG_INFINITY; 3]);
        for &[x, y, z] in &self.blocks {
            for k in 0..3 {
                let c = Vec4::splat(r.x_axis[k]) * x
                    + Vec4::splat(r.y_axis[k]) * y
                    + Vec4::splat(r.z_axis[k]) * z;
                lo[k] = lo[k].min(c);
                hi[k] = hi[k].max(c);
            }
        }
        let t = pose.translation;
        let min = Vec3::new(
            lo[0].min_element(),
            lo[1].min_element(),
            lo[2].min_element(),
        );
        let max = Vec3::new(
            hi[0].max_element(),
            hi[1].max_element(),
            hi[2].max_element(),
        );
        Aabb3::new(min + t, max + t)
    }

    /// The enclosed volume.
    pub fn volume(&self) -> f32 {
        self.mass_centre().0 as f32
    }

    /// The centroid (centre of mass at uniform density) in the local frame.
    pub fn centroid(&self) -> Vec3 {
        self.mass_centre().1.as_vec3()
    }

    /// Volume and centroid, in f64: the faces are fanned into triangles and each
    /// triangle closed into a tetrahedron with a reference point (the mean of
    /// the vertices, to keep the products small); signed volumes `det/6`, each
    /// with its centroid at the mean of its four corners (Eberly, "Polyhedral
    /// Mass Properties", or any text on the divergence theorem).
    fn mass_centre(&self) -> (f64, DVec3) {
        let v64: Vec<DVec3> = self.vertices.iter().map(|v| v.as_dvec3()).collect();
        let r = v64.iter().sum::<DVec3>() / v64.len() as f64;
        let mut vol = 0.0;
        let mut moment = DVec3::ZERO;
        for f in 0..self.faces.len() {
            let lp = self.face_loop(f);
            let a = v64[lp[0] as usize] - r;
            for k in 1..lp.len() - 1 {
                let b = v64[lp[k] as usize] - r;
                let c = v64[lp[k + 1] as usize] - r;
                let v = a.dot(b.cross(c)) / 6.0;
                vol += v;
                moment += v * (a + b + c) / 4.0;
            }
        }
        let c = if vol > 0.0 { r + moment / vol } else { r };
        (vol, c)
    }

    /// The area of face `f`.
    fn face_area(&self, f: usize) -> f64 {
        let lp = self.face_loop(f);
        let p0 = self.vertices[lp[0] as usize].as_dvec3();
        let mut n = DVec3::ZERO;
        for k in 1..lp.len() - 1 {
            let b = self.vertices[lp[k] as usize].as_dvec3() - p0;
            let c = self.vertices[lp[k + 1] as usize].as_dvec3() - p0;
            n += b.cross(c);
        }
        n.length() / 2.0
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
    fn face_loop_edges_join_consecutive_loop_vertices() {
        // A hull with faces of several sizes (triangles and a square base).
        let pts = [
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(-1.0, 0.0, 1.0),
            Vec3::new(0.2, 1.5, 0.1),
            Vec3::new(0.0, -0.7, 0.3),
        ];
        for p in [
            ConvexPolyhedron::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap(),
            ConvexPolyhedron::from_points(&pts).unwrap(),
        ] {
            for f in 0..p.faces().len() {
                let (lp, es) = (p.face_loop(f), p.face_loop_edges(f));
                assert_eq!(lp.len(), es.len());
                for k in 0..lp.len() {
                    let (a, b) = (lp[k], lp[(k + 1) % lp.len()]);
                    let e = &p.edges()[es[k] as usize];
                    assert_eq!(e.vertices, [a.min(b), a.max(b)], "face {f}, loop entry {k}");
                    assert!(e.faces.contains(&(f as u32)));
                }
            }
        }
    }

    #[test]
    fn open_surface_is_rejected() {
        let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let r = ConvexPolyhedron::from_faces(v, &[vec![0, 2, 1], vec![0, 1, 3]]);
        assert!(matches!(r, Err(GeometryError::Degenerate { .. })));
    }
}
