//! Solid polytopes as the separating-axis test sees them: vertices, face
//! planes, edges and the vertex graph, all in the query frame (A's).
//!
//! [`SolidView`] is that view. Two implementations:
//! - [`Prepared`]: a small solid copied into fixed stack buffers (B's vertices
//!   and planes mapped once per query), with vertex coordinates as arrays so
//!   that the scans vectorise;
//! - [`Mapped`]: any solid polytope, mapped on access (for those too large
//!   for the buffers);
//! - [`HullView`] and [`PlacedHull`]: a convex polyhedron read from its
//!   cached data, in its own frame (A) or with only its vertices mapped (B):
//!   no buffer is filled but B's vertex blocks.
//!
//! The vertex graph (which is frame independent) is borrowed, never copied.

use super::polytope::Polytope;
use crate::math::{Pose3, Vec3};
use crate::shape::d3::ConvexPolyhedron;
use glam::Vec4;

/// Most vertices of a prepared polytope.
pub const MAX_VERTS: usize = 32;
/// Most faces: a convex polyhedron with `V` vertices has at most `2V - 4`.
pub const MAX_FACES: usize = 2 * MAX_VERTS - 4;
/// Most edges: at most `3V - 6`.
pub const MAX_EDGES: usize = 3 * MAX_VERTS - 6;
/// Blocks of four vertices.
pub const MAX_BLOCKS: usize = MAX_VERTS / 4;

/// One edge: its end vertices and the two faces meeting at it (the ends of
/// its Gauss-map arc, in the order of [`super::Polytope::edge_normals`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
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

/// The vertex graph of a solid in compressed rows: the neighbours of vertex
/// `v` are `neighbours[start[v]..start[v + 1]]`, and `edges[k]` is the edge
/// joining `v` to `neighbours[k]`.
#[derive(Debug, Clone, Copy, Default)]
pub struct VertexGraph<'a> {
    /// Row starts (one more than the vertices).
    pub start: &'a [u32],
    /// Neighbouring vertices.
    pub neighbours: &'a [u32],
    /// Joining edges, parallel to `neighbours`.
    pub edges: &'a [u32],
}

impl<'a> VertexGraph<'a> {
    /// The neighbours of `v` and the joining edges (empty for a vertex out of
    /// range).
    #[inline]
    pub fn at(&self, v: usize) -> (&'a [u32], &'a [u32]) {
        let (Some(&s), Some(&e)) = (self.start.get(v), self.start.get(v + 1)) else {
            return (&[], &[]);
        };
        let r = s as usize..e as usize;
        match (self.neighbours.get(r.clone()), self.edges.get(r)) {
            (Some(n), Some(e)) => (n, e),
            _ => (&[], &[]),
        }
    }
}

/// A solid convex polytope in the query frame, as the separating-axis test
/// reads it.
pub trait SolidView {
    /// Number of faces.
    fn face_count(&self) -> usize;
    /// Plane of face `f`: outward unit normal `n` and offset `d` (`n·x = d`).
    fn plane(&self, f: usize) -> (Vec3, f32);
    /// Number of vertices.
    fn vertex_count(&self) -> usize;
    /// Vertex `i`.
    fn vertex(&self, i: usize) -> Vec3;
    /// A vertex minimising `n · v` (the lowest index on ties for the array
    /// scan) and that minimum: the polytope's extent along `-n`.
    fn min_vertex(&self, n: Vec3) -> (usize, f32);
    /// [`SolidView::min_vertex`], also writing every `n · v_i` to `row`
    /// when it has room for them (it is left alone otherwise).
    fn dots_into(&self, n: Vec3, row: &mut [f32]) -> (usize, f32) {
        if row.len() >= self.vertex_count() {
            for (i, x) in row.iter_mut().take(self.vertex_count()).enumerate() {
                *x = n.dot(self.vertex(i));
            }
        }
        self.min_vertex(n)
    }
    /// `min_i n · v_i`: the second part of [`SolidView::min_vertex`].
    fn min_dot(&self, n: Vec3) -> f32 {
        self.min_vertex(n).1
    }
    /// Number of edges.
    fn edge_count(&self) -> usize;
    /// Edge `e`: `[v0, v1, f0, f1]`, its ends and its two faces.
    fn edge(&self, e: usize) -> [usize; 4];
    /// The neighbours of vertex `v` and the joining edges.
    fn neighbours(&self, v: usize) -> (&[u32], &[u32]);
    /// Plane of face `f` in the solid's own frame, where
    /// [`SolidView::to_local`] maps points (the query frame's plane when
    /// the view maps nothing).
    fn local_plane(&self, f: usize) -> (Vec3, f32) {
        self.plane(f)
    }
    /// A point of the query frame in the frame of
    /// [`SolidView::local_plane`].
    fn to_local(&self, p: Vec3) -> Vec3 {
        p
    }
    /// A direction of the query frame in the frame of
    /// [`SolidView::local_plane`].
    fn to_local_vector(&self, v: Vec3) -> Vec3 {
        v
    }
    /// Whether the point `w` (query frame) lies above face `f` and projects
    /// onto the face inside its polygon by more than `inset`, on a face
    /// whose vertices lie within `flat` of its plane. Then the foot of `w`
    /// on the plane is within `flat` of a point of the solid (see
    /// `face_holds_foot`). `false` when the view cannot tell.
    fn face_holds(&self, _f: usize, _w: Vec3, _inset: f32, _flat: f32) -> bool {
        false
    }
}

/// [`SolidView::face_holds`] for a convex polyhedron in its own frame.
///
/// The foot `p = w - (n·w - d) n` lies in the face's plane. Inside the
/// polygon of the vertices' projections it is a convex combination
/// `Σ λ_k proj(v_k)`, and the point `Σ λ_k v_k` of the solid lies within
/// `max_k |n·v_k - d|` of it along `n`. The polygon is convex and
/// counter-clockwise seen from outside, so `p` is inside by more than
/// `inset` when `(v_{k+1} - v_k) × (p - v_k) · n > inset |v_{k+1} - v_k|` for
/// every edge.
#[inline]
pub(super) fn face_holds_foot(
    p: &ConvexPolyhedron,
    f: usize,
    w: Vec3,
    inset: f32,
    flat: f32,
) -> bool {
    let face = &p.faces()[f];
    let (n, d) = (face.normal, face.offset);
    let h = n.dot(w) - d;
    if h.is_nan() || h <= 0.0 {
        return false;
    }
    let foot = w - h * n;
    let verts = p.vertices();
    let lp = p.face_loop(f);
    let Some(&last) = lp.last() else {
        return false;
    };
    let mut prev = verts[last as usize];
    for &k in lp {
        let v = verts[k as usize];
        if (n.dot(v) - d).abs() > flat {
            return false;
        }
        let e = v - prev;
        let c = e.cross(foot - prev).dot(n);
        // `c > inset |e|`, squared (both sides positive); NaN fails.
        if !(c > 0.0 && c * c > inset * inset * e.length_squared()) {
            return false;
        }
        prev = v;
    }
    true
}

/// A small solid polytope copied into fixed buffers in the query frame:
/// vertex coordinates in blocks of four (so that scans run four vertices at a
/// time), face planes, edges with their faces, and its (borrowed) vertex
/// graph.
#[derive(Debug, Clone)]
pub struct Prepared<'a> {
    /// Vertex x coordinates, four per block; the last block is padded with
    /// copies of vertex 0 (see [`Prepared::set_vertex_count`]).
    pub xs: [Vec4; MAX_BLOCKS],
    /// Vertex y coordinates.
    pub ys: [Vec4; MAX_BLOCKS],
    /// Vertex z coordinates.
    pub zs: [Vec4; MAX_BLOCKS],
    /// The same vertices as points, for access one at a time.
    pts: [Vec3; MAX_VERTS],
    nv: usize,
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
    /// The vertex graph.
    pub graph: VertexGraph<'a>,
}

impl Default for Prepared<'_> {
    fn default() -> Self {
        Prepared {
            xs: [Vec4::ZERO; MAX_BLOCKS],
            ys: [Vec4::ZERO; MAX_BLOCKS],
            zs: [Vec4::ZERO; MAX_BLOCKS],
            pts: [Vec3::ZERO; MAX_VERTS],
            nv: 0,
            normals: [Vec3::ZERO; MAX_FACES],
            offsets: [0.0; MAX_FACES],
            nf: 0,
            edges: [PreparedEdge::default(); MAX_EDGES],
            ne: 0,
            graph: VertexGraph::default(),
        }
    }
}

impl Prepared<'_> {
    /// Vertex `i`.
    #[inline]
    pub fn vertex(&self, i: usize) -> Vec3 {
        self.pts[i]
    }

    /// Sets vertex `i` (below [`MAX_VERTS`]).
    #[inline]
    pub fn set_vertex(&mut self, i: usize, p: Vec3) {
        self.pts[i] = p;
        let (b, l) = (i / 4, i % 4);
        self.xs[b][l] = p.x;
        self.ys[b][l] = p.y;
        self.zs[b][l] = p.z;
    }

    /// Sets the number of vertices (at most [`MAX_VERTS`]) once they are all
    /// set, padding the last block with copies of vertex 0 (which changes
    /// no minimum, and no first index of one).
    #[inline]
    pub fn set_vertex_count(&mut self, n: usize) {
        let n = n.min(MAX_VERTS);
        self.nv = n;
        if n == 0 {
            return;
        }
        let p = self.vertex(0);
        for i in n..n.next_multiple_of(4) {
            self.set_vertex(i, p);
        }
    }

    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.nv
    }

    /// Number of blocks of four vertices in use.
    #[inline]
    fn blocks(&self) -> usize {
        self.nv.div_ceil(4).min(MAX_BLOCKS)
    }

    /// `n · v` for the vertices of block `b`.
    #[inline]
    fn block_dots(&self, n: Vec3, b: usize) -> Vec4 {
        Vec4::splat(n.x) * self.xs[b]
            + Vec4::splat(n.y) * self.ys[b]
            + Vec4::splat(n.z) * self.zs[b]
    }

    /// `min_i n · v_i` over the vertices (`+∞` when there is none): the
    /// polytope's extent along `-n`.
    #[inline]
    pub fn min_dot(&self, n: Vec3) -> f32 {
        let mut m = Vec4::INFINITY;
        for b in 0..self.blocks() {
            m = m.min(self.block_dots(n, b));
        }
        m.min_element()
    }
}

impl SolidView for Prepared<'_> {
    #[inline]
    fn face_count(&self) -> usize {
        self.nf
    }
    #[inline]
    fn plane(&self, f: usize) -> (Vec3, f32) {
        (self.normals[f], self.offsets[f])
    }
    #[inline]
    fn vertex_count(&self) -> usize {
        self.nv
    }
    #[inline]
    fn vertex(&self, i: usize) -> Vec3 {
        Prepared::vertex(self, i)
    }
    #[inline]
    fn min_vertex(&self, n: Vec3) -> (usize, f32) {
        let mut row = [0.0; MAX_VERTS];
        self.dots_into(n, &mut row)
    }
    #[inline]
    fn dots_into(&self, n: Vec3, row: &mut [f32]) -> (usize, f32) {
        let nb = self.blocks();
        let mut dots = [Vec4::ZERO; MAX_BLOCKS];
        let mut m = Vec4::INFINITY;
        for (b, d) in dots.iter_mut().enumerate().take(nb) {
            *d = self.block_dots(n, b);
            m = m.min(*d);
        }
        if let Some(out) = row.get_mut(..4 * nb) {
            for (chunk, d) in out.chunks_exact_mut(4).zip(&dots) {
                d.write_to_slice(chunk);
            }
        }
        let m = m.min_element();
        // The first vertex attaining the minimum.
        let target = Vec4::splat(m);
        for (b, d) in dots.iter().enumerate().take(nb) {
            let mask = d.cmpeq(target).bitmask();
            if mask != 0 {
                return (4 * b + mask.trailing_zeros() as usize, m);
            }
        }
        (0, m)
    }
    #[inline]
    fn min_dot(&self, n: Vec3) -> f32 {
        Prepared::min_dot(self, n)
    }
    #[inline]
    fn edge_count(&self) -> usize {
        self.ne
    }
    #[inline]
    fn edge(&self, e: usize) -> [usize; 4] {
        let g = self.edges[e];
        [g.v0 as usize, g.v1 as usize, g.f0 as usize, g.f1 as usize]
    }
    #[inline]
    fn neighbours(&self, v: usize) -> (&[u32], &[u32]) {
        self.graph.at(v)
    }
}

/// Maps points and planes by an optional pose (the rotation as a matrix,
/// computed once).
#[derive(Debug, Clone, Copy)]
pub struct Mapper {
    m: Option<(glam::Mat3, Vec3)>,
}

impl Mapper {
    /// The mapping by `pose` (`None`: the identity).
    #[inline]
    pub fn new(pose: Option<&Pose3>) -> Self {
        Mapper {
            m: pose.map(|p| (p.rotation_matrix(), p.translation)),
        }
    }
    /// A point mapped.
    #[inline]
    pub fn point(&self, p: Vec3) -> Vec3 {
        match self.m {
            Some((r, t)) => r * p + t,
            None => p,
        }
    }
    /// A point mapped back (by the inverse pose).
    #[inline]
    pub fn inverse_point(&self, p: Vec3) -> Vec3 {
        match self.m {
            Some((r, t)) => r.transpose() * (p - t),
            None => p,
        }
    }
    /// A direction mapped back (by the inverse rotation).
    #[inline]
    pub fn inverse_vector(&self, v: Vec3) -> Vec3 {
        match self.m {
            Some((r, _)) => r.transpose() * v,
            None => v,
        }
    }
    /// The plane `n·x = d` mapped: `n' = R n`, `d' = d + n'·t`.
    #[inline]
    pub fn plane(&self, n: Vec3, d: f32) -> (Vec3, f32) {
        match self.m {
            Some((r, t)) => {
                let n = r * n;
                (n, d + n.dot(t))
            }
            None => (n, d),
        }
    }
}

/// Any solid polytope seen in the query frame through a pose, mapped on
/// access (no buffers, so no size limit).
#[derive(Debug, Clone, Copy)]
pub struct Mapped<'a, P> {
    p: &'a P,
    map: Mapper,
}

impl<'a, P: Polytope> Mapped<'a, P> {
    /// `p` placed by `pose` (`None`: as it is).
    pub fn new(p: &'a P, pose: Option<&Pose3>) -> Self {
        Mapped {
            p,
            map: Mapper::new(pose),
        }
    }
}

impl<P: Polytope> SolidView for Mapped<'_, P> {
    #[inline]
    fn face_count(&self) -> usize {
        self.p.face_count()
    }
    #[inline]
    fn plane(&self, f: usize) -> (Vec3, f32) {
        let (n, d) = self.p.face_plane(f);
        self.map.plane(n, d)
    }
    #[inline]
    fn vertex_count(&self) -> usize {
        self.p.vertex_count()
    }
    #[inline]
    fn vertex(&self, i: usize) -> Vec3 {
        self.map.point(self.p.vertex(i))
    }
    #[inline]
    fn min_vertex(&self, n: Vec3) -> (usize, f32) {
        let i = self.p.support_index(-self.map.inverse_vector(n));
        (i, n.dot(self.vertex(i)))
    }
    #[inline]
    fn edge_count(&self) -> usize {
        self.p.edge_count()
    }
    #[inline]
    fn edge(&self, e: usize) -> [usize; 4] {
        self.p.edge_topology(e)
    }
    #[inline]
    fn neighbours(&self, v: usize) -> (&[u32], &[u32]) {
        self.p.vertex_adjacency(v)
    }
}

/// The first index and value of the least lane over blocks of products
/// `dots[..nb]` (lanes past the vertex count hold copies of vertex 0, which
/// change neither).
#[inline]
fn first_min(dots: &[Vec4]) -> (usize, f32) {
    let m = dots
        .iter()
        .fold(Vec4::INFINITY, |m, d| m.min(*d))
        .min_element();
    let target = Vec4::splat(m);
    for (b, d) in dots.iter().enumerate() {
        let mask = d.cmpeq(target).bitmask();
        if mask != 0 {
            return (4 * b + mask.trailing_zeros() as usize, m);
        }
    }
    (0, m)
}

/// The least of `n·v` over vertices stored in blocks of four.
#[inline]
fn min_dot_blocks(blocks: &[[Vec4; 3]], n: Vec3) -> f32 {
    blocks
        .iter()
        .fold(Vec4::INFINITY, |m, &b| m.min(dots4(n, b)))
        .min_element()
}

/// Edge `e` of a hull as `[vertex, vertex, face, face]` indices.
#[inline]
fn hull_edge(p: &ConvexPolyhedron, e: usize) -> [usize; 4] {
    let g = &p.edges()[e];
    [
        g.vertices[0] as usize,
        g.vertices[1] as usize,
        g.faces[0] as usize,
        g.faces[1] as usize,
    ]
}

/// `n · v` for a block of four vertices given by their coordinates.
#[inline]
fn dots4(n: Vec3, [x, y, z]: [Vec4; 3]) -> Vec4 {
    Vec4::splat(n.x) * x + Vec4::splat(n.y) * y + Vec4::splat(n.z) * z
}

/// A convex polyhedron in its own frame (the query frame of shape A), read
/// straight from its cached data: vertices and their blocks of four, face
/// planes, edges and vertex graph. Nothing is copied.
#[derive(Debug, Clone, Copy)]
pub struct HullView<'a> {
    p: &'a ConvexPolyhedron,
}

impl<'a> HullView<'a> {
    /// The view of `p`.
    #[inline]
    pub fn new(p: &'a ConvexPolyhedron) -> Self {
        HullView { p }
    }
}

impl SolidView for HullView<'_> {
    #[inline]
    fn face_count(&self) -> usize {
        self.p.faces().len()
    }
    #[inline]
    fn plane(&self, f: usize) -> (Vec3, f32) {
        let face = &self.p.faces()[f];
        (face.normal, face.offset)
    }
    #[inline]
    fn vertex_count(&self) -> usize {
        self.p.vertices().len()
    }
    #[inline]
    fn vertex(&self, i: usize) -> Vec3 {
        self.p.vertices()[i]
    }
    #[inline]
    fn min_vertex(&self, n: Vec3) -> (usize, f32) {
        let blocks = self.p.vertex_blocks();
        if blocks.len() > MAX_BLOCKS {
            let i = self.p.support_vertex(-n);
            return (i, n.dot(self.vertex(i)));
        }
        let mut dots = [Vec4::ZERO; MAX_BLOCKS];
        for (d, &b) in dots.iter_mut().zip(blocks) {
            *d = dots4(n, b);
        }
        first_min(&dots[..blocks.len()])
    }
    #[inline]
    fn min_dot(&self, n: Vec3) -> f32 {
        min_dot_blocks(self.p.vertex_blocks(), n)
    }
    #[inline]
    fn edge_count(&self) -> usize {
        self.p.edges().len()
    }
    #[inline]
    fn edge(&self, e: usize) -> [usize; 4] {
        hull_edge(self.p, e)
    }
    #[inline]
    fn neighbours(&self, v: usize) -> (&[u32], &[u32]) {
        (self.p.vertex_neighbors(v), self.p.vertex_edges(v))
    }
    #[inline]
    fn face_holds(&self, f: usize, w: Vec3, inset: f32, flat: f32) -> bool {
        face_holds_foot(self.p, f, w, inset, flat)
    }
}

/// A convex polyhedron of at most [`MAX_VERTS`] vertices placed in the query
/// frame: only its vertex coordinates are mapped (from its cached blocks of
/// four, a block at a time, into fixed arrays); face planes are
/// mapped on access and edges and the vertex graph are borrowed.
#[derive(Debug, Clone)]
pub struct PlacedHull<'a> {
    p: &'a ConvexPolyhedron,
    map: Mapper,
    /// Mapped coordinates: lane `l` of block `b` is vertex `4b + l`.
    blocks: [[Vec4; 3]; MAX_BLOCKS],
    nb: usize,
}

impl<'a> PlacedHull<'a> {
    /// `p` placed by `pose`; `None` when it has more than [`MAX_VERTS`]
    /// vertices.
    #[inline]
    pub fn new(p: &'a ConvexPolyhedron, pose: &Pose3) -> Option<Self> {
        let src = p.vertex_blocks();
        if src.len() > MAX_BLOCKS {
            return None;
        }
        let r = pose.rotation_matrix();
        let t = pose.translation;
        let mut blocks = [[Vec4::ZERO; 3]; MAX_BLOCKS];
        // x' = R x + t, four vertices at a time (the columns of R scale the
        // coordinate blocks).
        for (out, &[x, y, z]) in blocks.iter_mut().zip(src) {
            for k in 0..3 {
                out[k] = Vec4::splat(r.x_axis[k]) * x
                    + Vec4::splat(r.y_axis[k]) * y
                    + Vec4::splat(r.z_axis[k]) * z
                    + Vec4::splat(t[k]);
            }
        }
        Some(PlacedHull {
            p,
            map: Mapper::new(Some(pose)),
            blocks,
            nb: src.len(),
        })
    }
}

impl SolidView for PlacedHull<'_> {
    #[inline]
    fn face_count(&self) -> usize {
        self.p.faces().len()
    }
    #[inline]
    fn plane(&self, f: usize) -> (Vec3, f32) {
        let face = &self.p.faces()[f];
        self.map.plane(face.normal, face.offset)
    }
    #[inline]
    fn vertex_count(&self) -> usize {
        self.p.vertices().len()
    }
    #[inline]
    fn vertex(&self, i: usize) -> Vec3 {
        // Read the lane from memory: indexing a SIMD `Vec4` by a runtime
        // lane goes through a four-way match.
        let [x, y, z] = &self.blocks[(i / 4) % MAX_BLOCKS];
        let l = i % 4;
        let lane = |v: &Vec4| AsRef::<[f32; 4]>::as_ref(v)[l];
        Vec3::new(lane(x), lane(y), lane(z))
    }
    #[inline]
    fn min_vertex(&self, n: Vec3) -> (usize, f32) {
        let mut dots = [Vec4::ZERO; MAX_BLOCKS];
        for (d, &b) in dots.iter_mut().zip(&self.blocks[..self.nb]) {
            *d = dots4(n, b);
        }
        first_min(&dots[..self.nb])
    }
    #[inline]
    fn dots_into(&self, n: Vec3, row: &mut [f32]) -> (usize, f32) {
        let mut dots = [Vec4::ZERO; MAX_BLOCKS];
        for (d, &b) in dots.iter_mut().zip(&self.blocks[..self.nb]) {
            *d = dots4(n, b);
        }
        if let Some(out) = row.get_mut(..4 * self.nb) {
            for (chunk, d) in out.chunks_exact_mut(4).zip(&dots) {
                d.write_to_slice(chunk);
            }
        }
        first_min(&dots[..self.nb])
    }
    #[inline]
    fn min_dot(&self, n: Vec3) -> f32 {
        min_dot_blocks(&self.blocks[..self.nb], n)
    }
    #[inline]
    fn edge_count(&self) -> usize {
        self.p.edges().len()
    }
    #[inline]
    fn edge(&self, e: usize) -> [usize; 4] {
        hull_edge(self.p, e)
    }
    #[inline]
    fn neighbours(&self, v: usize) -> (&[u32], &[u32]) {
        (self.p.vertex_neighbors(v), self.p.vertex_edges(v))
    }
    #[inline]
    fn local_plane(&self, f: usize) -> (Vec3, f32) {
        let face = &self.p.faces()[f];
        (face.normal, face.offset)
    }
    #[inline]
    fn to_local(&self, p: Vec3) -> Vec3 {
        self.map.inverse_point(p)
    }
    #[inline]
    fn to_local_vector(&self, v: Vec3) -> Vec3 {
        self.map.inverse_vector(v)
    }
    #[inline]
    fn face_holds(&self, f: usize, w: Vec3, inset: f32, flat: f32) -> bool {
        face_holds_foot(self.p, f, self.map.inverse_point(w), inset, flat)
    }
}
