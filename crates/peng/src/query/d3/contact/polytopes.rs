//! The polyhedral shapes (cuboid, convex polyhedron, triangle, segment) seen as
//! [`Polytope`]s by the separating-axis test. None of these allocates.

use crate::math::{Pose3, Vec3};
use crate::query::sat::prepared::{
    Mapper, Prepared, PreparedEdge, VertexGraph, MAX_EDGES, MAX_FACES, MAX_VERTS,
};
use crate::query::sat::{Polygon, Polytope};
use crate::query::types::Feature;
use crate::shape::d3::{ConvexPolyhedron, Cuboid, Shape, Triangle};

/// Face loops of a cuboid, counter-clockwise from outside; face `2k` is `-axis
/// k`, face `2k + 1` is `+axis k`; corner `i` has bit `k` set when its
/// coordinate `k` is positive (as [`Cuboid::vertices`]).
const BOX_LOOPS: [[usize; 4]; 6] = [
    [0, 4, 6, 2],
    [1, 3, 7, 5],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 2, 3, 1],
    [4, 5, 7, 6],
];

/// The vertex graph of a cuboid: corner `i` neighbours `i ^ 1`, `i ^ 2`,
/// `i ^ 4` (the corners across the edges along x, y, z).
const BOX_START: [u32; 9] = [0, 3, 6, 9, 12, 15, 18, 21, 24];
const BOX_NEIGHBOURS: [u32; 24] = box_graph().0;
const BOX_EDGES: [u32; 24] = box_graph().1;

/// The neighbour and edge rows of [`BOX_START`], with the edge numbering of
/// [`BoxPoly`].
const fn box_graph() -> ([u32; 24], [u32; 24]) {
    let mut n = [0u32; 24];
    let mut e = [0u32; 24];
    let mut v = 0;
    while v < 8 {
        let mut k = 0;
        while k < 3 {
            let (u, x) = ((k + 1) % 3, (k + 2) % 3);
            n[3 * v + k] = (v ^ (1 << k)) as u32;
            e[3 * v + k] = (4 * k + ((v >> u) & 1) + (((v >> x) & 1) << 1)) as u32;
            k += 1;
        }
        v += 1;
    }
    (n, e)
}

/// A cuboid as a polytope. Edge `4k + j` runs along axis `k`; bit 0 of `j` is
/// the side on axis `k + 1`, bit 1 the side on axis `k + 2` (mod 3).
#[derive(Debug, Clone, Copy)]
pub(super) struct BoxPoly {
    h: Vec3,
}

impl BoxPoly {
    /// The polytope of a cuboid.
    pub(super) fn new(c: &Cuboid) -> Self {
        BoxPoly {
            h: c.half_extents(),
        }
    }
    #[inline]
    fn corner(&self, i: usize) -> Vec3 {
        let h = self.h;
        Vec3::new(
            if i & 1 != 0 { h.x } else { -h.x },
            if i & 2 != 0 { h.y } else { -h.y },
            if i & 4 != 0 { h.z } else { -h.z },
        )
    }
    /// The edge joining corners `v` and `w` (which differ in one bit).
    #[inline]
    fn edge_between(v: usize, w: usize) -> usize {
        let k = (v ^ w).trailing_zeros() as usize % 3;
        let (u, x) = ((k + 1) % 3, (k + 2) % 3);
        4 * k + ((v >> u) & 1) + (((v >> x) & 1) << 1)
    }
    #[inline]
    fn edge_corner(e: usize) -> (usize, usize) {
        let (k, j) = (e / 4, e % 4);
        let (u, x) = ((k + 1) % 3, (k + 2) % 3);
        let base = ((j & 1) << u) | (((j >> 1) & 1) << x);
        (base, base | (1 << k))
    }
}

#[inline]
fn axis(k: usize, positive: bool) -> Vec3 {
    let mut v = Vec3::ZERO;
    v[k] = if positive { 1.0 } else { -1.0 };
    v
}

impl Polytope for BoxPoly {
    fn face_count(&self) -> usize {
        6
    }
    fn face_plane(&self, f: usize) -> (Vec3, f32) {
        (axis(f / 2, f % 2 == 1), self.h[f / 2])
    }
    fn face_polygon(&self, f: usize, out: &mut Polygon) {
        out.clear();
        let lp = BOX_LOOPS[f];
        for i in 0..4 {
            let (v, w) = (lp[i], lp[(i + 1) % 4]);
            out.push(
                self.corner(v),
                Feature::vertex(v),
                Feature::edge(Self::edge_between(v, w)),
            );
        }
        out.normal = axis(f / 2, f % 2 == 1);
        out.feature = Feature::face(f);
    }
    fn edge_count(&self) -> usize {
        12
    }
    fn edge(&self, e: usize) -> (Vec3, Vec3) {
        let (v, w) = Self::edge_corner(e);
        (self.corner(v), self.corner(w))
    }
    fn edge_normals(&self, e: usize) -> Option<(Vec3, Vec3)> {
        let (k, j) = (e / 4, e % 4);
        Some((axis((k + 1) % 3, j & 1 != 0), axis((k + 2) % 3, j & 2 != 0)))
    }
    fn support(&self, dir: Vec3) -> Vec3 {
        self.support_vertex(dir).0
    }
    fn support_vertex(&self, dir: Vec3) -> (Vec3, Feature) {
        let i = (dir.x >= 0.0) as usize
            | ((dir.y >= 0.0) as usize) << 1
            | ((dir.z >= 0.0) as usize) << 2;
        (self.corner(i), Feature::vertex(i))
    }
    fn interior_point(&self) -> Vec3 {
        Vec3::ZERO
    }
    fn scale(&self) -> f32 {
        self.h.length()
    }
    fn incident_polygon(&self, dir: Vec3, out: &mut Polygon) {
        let a = dir.abs();
        let k = if a.x >= a.y && a.x >= a.z {
            0
        } else if a.y >= a.z {
            1
        } else {
            2
        };
        self.face_polygon(2 * k + (dir[k] >= 0.0) as usize, out);
    }
    fn is_solid(&self) -> bool {
        // A cuboid without thickness is flat: its faces on either side
        // coincide, so its Gauss map has no arcs to walk.
        self.h.min_element() > 0.0
    }
    fn vertex_count(&self) -> usize {
        8
    }
    fn vertex(&self, i: usize) -> Vec3 {
        self.corner(i)
    }
    fn edge_topology(&self, e: usize) -> [usize; 4] {
        let (v, w) = Self::edge_corner(e);
        let (k, j) = (e / 4, e % 4);
        [
            v,
            w,
            2 * ((k + 1) % 3) + (j & 1),
            2 * ((k + 2) % 3) + ((j >> 1) & 1),
        ]
    }
    fn vertex_adjacency(&self, v: usize) -> (&[u32], &[u32]) {
        let r = 3 * (v % 8)..3 * (v % 8) + 3;
        (&BOX_NEIGHBOURS[r.clone()], &BOX_EDGES[r])
    }
    fn support_index(&self, dir: Vec3) -> usize {
        (dir.x >= 0.0) as usize | ((dir.y >= 0.0) as usize) << 1 | ((dir.z >= 0.0) as usize) << 2
    }
    fn prepare<'s>(&'s self, pose: Option<&Pose3>, out: &mut Prepared<'s>) -> bool {
        let map = Mapper::new(pose);
        for i in 0..8 {
            out.set_vertex(i, map.point(self.corner(i)));
        }
        out.set_vertex_count(8);
        for f in 0..6 {
            let (n, d) = self.face_plane(f);
            let (n, d) = map.plane(n, d);
            out.normals[f] = n;
            out.offsets[f] = d;
        }
        out.nf = 6;
        for e in 0..12 {
            let [v0, v1, f0, f1] = self.edge_topology(e);
            out.edges[e] = PreparedEdge {
                v0: v0 as u8,
                v1: v1 as u8,
                f0: f0 as u8,
                f1: f1 as u8,
            };
        }
        out.ne = 12;
        out.graph = VertexGraph {
            start: &BOX_START,
            neighbours: &BOX_NEIGHBOURS,
            edges: &BOX_EDGES,
        };
        true
    }
}

/// A triangle as a flat polytope: faces `0` (`+normal`) and `1` (`-normal`);
/// edge `k` joins vertices `k` and `k + 1`. Callers turn zero-area triangles
/// into segments first.
#[derive(Debug, Clone, Copy)]
pub(super) struct TriPoly {
    v: [Vec3; 3],
    n: Vec3,
}

impl TriPoly {
    /// The polytope of a triangle with a normal.
    pub(super) fn new(t: &Triangle, n: Vec3) -> Self {
        TriPoly {
            v: *t.vertices(),
            n,
        }
    }
}

impl Polytope for TriPoly {
    fn face_count(&self) -> usize {
        2
    }
    fn face_plane(&self, f: usize) -> (Vec3, f32) {
        let n = if f == 0 { self.n } else { -self.n };
        (n, n.dot(self.v[0]))
    }
    fn face_polygon(&self, f: usize, out: &mut Polygon) {
        out.clear();
        if f == 0 {
            for k in 0..3 {
                out.push(self.v[k], Feature::vertex(k), Feature::edge(k));
            }
            out.normal = self.n;
        } else {
            // Reversed loop 0, 2, 1: edges 2, 1, 0.
            for (k, e) in [(0, 2), (2, 1), (1, 0)] {
                out.push(self.v[k], Feature::vertex(k), Feature::edge(e));
            }
            out.normal = -self.n;
        }
        out.feature = Feature::face(f);
    }
    fn edge_count(&self) -> usize {
        3
    }
    fn edge(&self, e: usize) -> (Vec3, Vec3) {
        (self.v[e], self.v[(e + 1) % 3])
    }
    fn edge_normals(&self, _e: usize) -> Option<(Vec3, Vec3)> {
        None
    }
    fn triangle(&self) -> Option<([Vec3; 3], Vec3)> {
        Some((self.v, self.n))
    }
    fn support(&self, dir: Vec3) -> Vec3 {
        self.support_vertex(dir).0
    }
    fn support_vertex(&self, dir: Vec3) -> (Vec3, Feature) {
        let i = crate::shape::d3::support_index(&self.v, dir);
        (self.v[i], Feature::vertex(i))
    }
    fn interior_point(&self) -> Vec3 {
        (self.v[0] + self.v[1] + self.v[2]) / 3.0
    }
    fn scale(&self) -> f32 {
        (self.v[1] - self.v[0])
            .length()
            .max((self.v[2] - self.v[1]).length())
            .max((self.v[0] - self.v[2]).length())
    }
}

/// A segment as a flat polytope with no face and one edge.
#[derive(Debug, Clone, Copy)]
pub(super) struct SegPoly {
    a: Vec3,
    b: Vec3,
}

impl SegPoly {
    /// The polytope of the segment `a b`.
    pub(super) fn new(a: Vec3, b: Vec3) -> Self {
        SegPoly { a, b }
    }
}

impl Polytope for SegPoly {
    fn face_count(&self) -> usize {
        0
    }
    fn face_plane(&self, _f: usize) -> (Vec3, f32) {
        (Vec3::X, 0.0)
    }
    fn face_polygon(&self, _f: usize, out: &mut Polygon) {
        self.incident_polygon(Vec3::X, out);
    }
    fn edge_count(&self) -> usize {
        1
    }
    fn edge(&self, _e: usize) -> (Vec3, Vec3) {
        (self.a, self.b)
    }
    fn edge_normals(&self, _e: usize) -> Option<(Vec3, Vec3)> {
        None
    }
    fn support(&self, dir: Vec3) -> Vec3 {
        self.support_vertex(dir).0
    }
    fn support_vertex(&self, dir: Vec3) -> (Vec3, Feature) {
        if dir.dot(self.b - self.a) > 0.0 {
            (self.b, Feature::vertex(1))
        } else {
            (self.a, Feature::vertex(0))
        }
    }
    fn interior_point(&self) -> Vec3 {
        (self.a + self.b) * 0.5
    }
    fn scale(&self) -> f32 {
        (self.b - self.a).length()
    }
    fn incident_polygon(&self, dir: Vec3, out: &mut Polygon) {
        out.clear();
        out.push(self.a, Feature::vertex(0), Feature::edge(0));
        out.push(self.b, Feature::vertex(1), Feature::edge(0));
        out.normal = dir;
        out.feature = Feature::edge(0);
    }
}

/// A convex polyhedron as a polytope (its interior point and scale are the
/// polyhedron's cached vertex mean and radius).
#[derive(Debug, Clone, Copy)]
pub(super) struct HedronPoly<'a> {
    p: &'a ConvexPolyhedron,
}

impl<'a> HedronPoly<'a> {
    /// The polytope of a convex polyhedron.
    pub(super) fn new(p: &'a ConvexPolyhedron) -> Self {
        HedronPoly { p }
    }
}

impl Polytope for HedronPoly<'_> {
    fn face_count(&self) -> usize {
        self.p.faces().len()
    }
    fn face_plane(&self, f: usize) -> (Vec3, f32) {
        let face = &self.p.faces()[f];
        (face.normal, face.offset)
    }
    fn face_polygon(&self, f: usize, out: &mut Polygon) {
        out.clear();
        let verts = self.p.vertices();
        for (&v, &e) in self.p.face_loop(f).iter().zip(self.p.face_loop_edges(f)) {
            out.push(
                verts[v as usize],
                Feature::vertex(v as usize),
                Feature::edge(e as usize),
            );
        }
        out.normal = self.p.faces()[f].normal;
        out.feature = Feature::face(f);
    }
    fn edge_count(&self) -> usize {
        self.p.edges().len()
    }
    fn edge(&self, e: usize) -> (Vec3, Vec3) {
        let ed = &self.p.edges()[e];
        let v = self.p.vertices();
        (v[ed.vertices[0] as usize], v[ed.vertices[1] as usize])
    }
    fn edge_normals(&self, e: usize) -> Option<(Vec3, Vec3)> {
        let ed = &self.p.edges()[e];
        let f = self.p.faces();
        Some((
            f[ed.faces[0] as usize].normal,
            f[ed.faces[1] as usize].normal,
        ))
    }
    fn support(&self, dir: Vec3) -> Vec3 {
        self.p.support(dir)
    }
    fn support_vertex(&self, dir: Vec3) -> (Vec3, Feature) {
        let i = self.p.support_vertex(dir);
        (self.p.vertices()[i], Feature::vertex(i))
    }
    fn interior_point(&self) -> Vec3 {
        self.p.vertex_mean()
    }
    fn scale(&self) -> f32 {
        self.p.vertex_radius()
    }
    fn is_solid(&self) -> bool {
        true
    }
    fn vertex_count(&self) -> usize {
        self.p.vertices().len()
    }
    fn vertex(&self, i: usize) -> Vec3 {
        self.p.vertices()[i]
    }
    fn edge_topology(&self, e: usize) -> [usize; 4] {
        let ed = &self.p.edges()[e];
        [
            ed.vertices[0] as usize,
            ed.vertices[1] as usize,
            ed.faces[0] as usize,
            ed.faces[1] as usize,
        ]
    }
    fn vertex_adjacency(&self, v: usize) -> (&[u32], &[u32]) {
        (self.p.vertex_neighbors(v), self.p.vertex_edges(v))
    }
    fn support_index(&self, dir: Vec3) -> usize {
        self.p.support_vertex(dir)
    }
    fn hull(&self) -> Option<&ConvexPolyhedron> {
        Some(self.p)
    }
    fn prepare<'s>(&'s self, pose: Option<&Pose3>, out: &mut Prepared<'s>) -> bool {
        let (v, f, e) = (self.p.vertices(), self.p.faces(), self.p.edges());
        if v.len() > MAX_VERTS || f.len() > MAX_FACES || e.len() > MAX_EDGES {
            return false;
        }
        let map = Mapper::new(pose);
        for (i, &p) in v.iter().enumerate() {
            out.set_vertex(i, map.point(p));
        }
        out.set_vertex_count(v.len());
        for (i, face) in f.iter().enumerate() {
            let (n, d) = map.plane(face.normal, face.offset);
            out.normals[i] = n;
            out.offsets[i] = d;
        }
        out.nf = f.len();
        for (i, ed) in e.iter().enumerate() {
            out.edges[i] = PreparedEdge {
                v0: ed.vertices[0] as u8,
                v1: ed.vertices[1] as u8,
                f0: ed.faces[0] as u8,
                f1: ed.faces[1] as u8,
            };
        }
        out.ne = e.len();
        let (start, neighbours, edges) = self.p.vertex_graph();
        out.graph = VertexGraph {
            start,
            neighbours,
            edges,
        };
        true
    }
}

/// Any polyhedral shape, for dispatch without monomorphising every pair.
#[derive(Debug, Clone, Copy)]
pub(super) enum AnyPoly<'a> {
    /// A cuboid.
    Box(BoxPoly),
    /// A triangle with a normal.
    Tri(TriPoly),
    /// A segment (or a zero-area triangle's longest edge).
    Seg(SegPoly),
    /// A convex polyhedron.
    Hedron(HedronPoly<'a>),
}

/// The longest edge of a triangle (its extent when it has zero area).
pub(super) fn longest_edge(t: &Triangle) -> (Vec3, Vec3) {
    let v = t.vertices();
    let mut best = (v[0], v[1]);
    for k in 1..3 {
        let e = (v[k], v[(k + 1) % 3]);
        if (e.1 - e.0).length_squared() > (best.1 - best.0).length_squared() {
            best = e;
        }
    }
    best
}

impl<'a> AnyPoly<'a> {
    /// The polytope view of a polyhedral shape, `None` for the others.
    pub(super) fn of(s: &'a Shape) -> Option<Self> {
        Some(match s {
            Shape::Cuboid(c) => AnyPoly::Box(BoxPoly::new(c)),
            Shape::Triangle(t) => match t.normal() {
                Some(n) => AnyPoly::Tri(TriPoly::new(t, n)),
                None => {
                    let (a, b) = longest_edge(t);
                    AnyPoly::Seg(SegPoly::new(a, b))
                }
            },
            Shape::Segment(s) => AnyPoly::Seg(SegPoly::new(s.a(), s.b())),
            Shape::Polyhedron(p) => AnyPoly::Hedron(HedronPoly::new(p)),
            _ => return None,
        })
    }
}

macro_rules! each {
    ($self:ident, $p:ident => $e:expr) => {
        match $self {
            AnyPoly::Box($p) => $e,
            AnyPoly::Tri($p) => $e,
            AnyPoly::Seg($p) => $e,
            AnyPoly::Hedron($p) => $e,
        }
    };
}

impl Polytope for AnyPoly<'_> {
    fn face_count(&self) -> usize {
        each!(self, p => p.face_count())
    }
    fn face_plane(&self, f: usize) -> (Vec3, f32) {
        each!(self, p => p.face_plane(f))
    }
    fn face_polygon(&self, f: usize, out: &mut Polygon) {
        each!(self, p => p.face_polygon(f, out))
    }
    fn edge_count(&self) -> usize {
        each!(self, p => p.edge_count())
    }
    fn edge(&self, e: usize) -> (Vec3, Vec3) {
        each!(self, p => p.edge(e))
    }
    fn edge_normals(&self, e: usize) -> Option<(Vec3, Vec3)> {
        each!(self, p => p.edge_normals(e))
    }
    fn support(&self, dir: Vec3) -> Vec3 {
        each!(self, p => p.support(dir))
    }
    fn support_vertex(&self, dir: Vec3) -> (Vec3, Feature) {
        each!(self, p => p.support_vertex(dir))
    }
    fn interior_point(&self) -> Vec3 {
        each!(self, p => p.interior_point())
    }
    fn scale(&self) -> f32 {
        each!(self, p => p.scale())
    }
    fn incident_polygon(&self, dir: Vec3, out: &mut Polygon) {
        each!(self, p => p.incident_polygon(dir, out))
    }
    fn is_solid(&self) -> bool {
        each!(self, p => p.is_solid())
    }
    fn vertex_count(&self) -> usize {
        each!(self, p => p.vertex_count())
    }
    fn vertex(&self, i: usize) -> Vec3 {
        each!(self, p => p.vertex(i))
    }
    fn edge_topology(&self, e: usize) -> [usize; 4] {
        each!(self, p => p.edge_topology(e))
    }
    fn vertex_adjacency(&self, v: usize) -> (&[u32], &[u32]) {
        each!(self, p => p.vertex_adjacency(v))
    }
    fn support_index(&self, dir: Vec3) -> usize {
        each!(self, p => p.support_index(dir))
    }
    fn prepare<'s>(&'s self, pose: Option<&Pose3>, out: &mut Prepared<'s>) -> bool {
        each!(self, p => p.prepare(pose, out))
    }
    fn triangle(&self) -> Option<([Vec3; 3], Vec3)> {
        each!(self, p => p.triangle())
    }
    fn hull(&self) -> Option<&ConvexPolyhedron> {
        match self {
            AnyPoly::Hedron(p) => p.hull(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_edges_and_loops_agree() {
        let b = BoxPoly::new(&Cuboid::new(Vec3::new(1.0, 2.0, 3.0)).unwrap());
        for e in 0..12 {
            let (v, w) = BoxPoly::edge_corner(e);
            assert_eq!(BoxPoly::edge_between(v, w), e);
            assert_eq!(BoxPoly::edge_between(w, v), e);
            // The edge lies on both of its faces.
            let (p, q) = b.edge(e);
            let (n0, n1) = b.edge_normals(e).unwrap();
            for n in [n0, n1] {
                let f = (0..6).find(|&f| b.face_plane(f).0 == n).unwrap();
                let d = b.face_plane(f).1;
                assert!((n.dot(p) - d).abs() < 1e-6 && (n.dot(q) - d).abs() < 1e-6);
            }
        }
        let mut poly = Polygon::default();
        for f in 0..6 {
            b.face_polygon(f, &mut poly);
            let (n, d) = b.face_plane(f);
            let v = poly.vertices();
            for i in 0..4 {
                assert!((n.dot(v[i].point) - d).abs() < 1e-6);
                // Counter-clockwise around the outward normal.
                let e0 = v[(i + 1) % 4].point - v[i].point;
                let e1 = v[(i + 2) % 4].point - v[(i + 1) % 4].point;
                assert!(e0.cross(e1).dot(n) > 0.0);
            }
        }
    }
}
