//! The separating-axis test of two solids (`peng::query::sat::sat`, which walks
//! Gauss-map arcs to find the crossing edge pairs) against a brute-force test
//! of every candidate axis (all face normals and all edge-pair cross
//! products, each by projection intervals over all vertices), on random hulls,
//! through both views of a solid: stack buffers (`Prepared`) and mapped on
//! access (`Mapped`).

use crate::sat_common;
use peng::math::{Pose3, Vec3};
use peng::query::sat::prepared::{Prepared, PreparedEdge, VertexGraph};
use peng::query::sat::{sat, Polygon, Polytope, SatAxis};
use peng::query::types::Feature;
use peng::shape::d3::ConvexPolyhedron;
use sat_common::{brute, hull, interval, place, Rng};

/// A convex polyhedron as a polytope, with the stack-buffer copy switched on
/// or off (off: the test reads it through the mapped view).
struct Hull<'a> {
    p: &'a ConvexPolyhedron,
    buffered: bool,
}

impl Polytope for Hull<'_> {
    fn face_count(&self) -> usize {
        self.p.faces().len()
    }
    fn face_plane(&self, f: usize) -> (Vec3, f32) {
        (self.p.faces()[f].normal, self.p.faces()[f].offset)
    }
    fn face_polygon(&self, f: usize, out: &mut Polygon) {
        out.clear();
        for &v in self.p.face_loop(f) {
            let x = self.p.vertices()[v as usize];
            out.push(x, Feature::vertex(v as usize), Feature::NONE);
        }
        out.normal = self.p.faces()[f].normal;
        out.feature = Feature::face(f);
    }
    fn edge_count(&self) -> usize {
        self.p.edges().len()
    }
    fn edge(&self, e: usize) -> (Vec3, Vec3) {
        let [v, w] = self.p.edges()[e].vertices;
        (self.p.vertices()[v as usize], self.p.vertices()[w as usize])
    }
    fn edge_normals(&self, e: usize) -> Option<(Vec3, Vec3)> {
        let [f, g] = self.p.edges()[e].faces;
        Some((
            self.p.faces()[f as usize].normal,
            self.p.faces()[g as usize].normal,
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
        let ed = self.p.edges()[e];
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
    fn prepare<'s>(&'s self, pose: Option<&Pose3>, out: &mut Prepared<'s>) -> bool {
        let (v, f, e) = (self.p.vertices(), self.p.faces(), self.p.edges());
        if !self.buffered || v.len() > 32 || f.len() > 60 || e.len() > 90 {
            return false;
        }
        let id = Pose3::IDENTITY;
        let pose = pose.unwrap_or(&id);
        for (i, &x) in v.iter().enumerate() {
            out.set_vertex(i, pose.transform_point(x));
        }
        out.set_vertex_count(v.len());
        for (i, face) in f.iter().enumerate() {
            let n = pose.transform_vector(face.normal);
            out.normals[i] = n;
            out.offsets[i] = face.offset + n.dot(pose.translation);
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

/// Checks one pair through both views against brute force.
fn check(a: &ConvexPolyhedron, b: &ConvexPolyhedron, pose: &Pose3, what: &str) {
    let scale = a.vertex_radius().max(b.vertex_radius());
    let exact = brute(a, b, pose);
    for buffered in [true, false] {
        let (ha, hb) = (Hull { p: a, buffered }, Hull { p: b, buffered });
        let r = sat(&ha, &hb, pose, f32::INFINITY).expect("solids always give an axis");
        let vb: Vec<Vec3> = b
            .vertices()
            .iter()
            .map(|&p| pose.transform_point(p))
            .collect();
        // The reported normal realises the reported separation.
        let along = interval(a.vertices(), &vb, r.normal);
        assert!(
            (along - r.separation).abs() <= 1e-5 * scale,
            "{what} buffered={buffered}: {r:?} but {along} along its normal"
        );
        assert!((r.normal.length() - 1.0).abs() < 1e-5);
        if exact < 0.0 || r.separation < 0.0 {
            // Overlapping: both are minus the penetration depth.
            assert!(
                (r.separation - exact).abs() <= 1e-5 * scale,
                "{what} buffered={buffered}: sat {r:?}, brute force {exact}"
            );
        } else {
            // Apart: both find a separating axis (each only bounds the distance).
            assert!(
                r.separation > 0.0 || exact <= 1e-5 * scale,
                "{what}: {r:?} {exact}"
            );
        }
    }
}

#[test]
fn random_hulls_agree_with_brute_force() {
    let mut rng = Rng(0x5a73_d001);
    for i in 0..300 {
        let n = [4, 6, 8, 12, 16, 24, 40][i % 7];
        let m = [16, 5, 12, 40, 16, 8, 20][i % 7];
        let a = hull(&mut rng, n);
        let b = hull(&mut rng, m);
        let pose = place(&mut rng, &a, &b, 0.3, 1.2);
        check(&a, &b, &pose, &format!("pair {i} ({n}, {m} points)"));
    }
}

#[test]
fn boxes_with_exact_ties_agree_with_brute_force() {
    // Cuboids as polyhedra: parallel faces and edges (ties in the walk).
    let mut rng = Rng(0xb0c5_0002);
    for i in 0..200 {
        let a = ConvexPolyhedron::cuboid(Vec3::new(
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
        ))
        .unwrap();
        let b = ConvexPolyhedron::cuboid(Vec3::new(
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
        ))
        .unwrap();
        // Every third pair axis-aligned (all faces parallel), the others a
        // rotation about one axis (four edges of each parallel).
        let angle = if i % 3 == 0 {
            0.0
        } else {
            rng.range(-1.5, 1.5)
        };
        let axis = [Vec3::X, Vec3::Y, Vec3::Z][i % 3];
        let t = (Vec3::new(rng.next(), rng.next(), rng.next()) - 0.5) * 4.0;
        let pose = Pose3::from_axis_angle(t, axis * angle);
        check(&a, &b, &pose, &format!("boxes {i}"));
    }
}

#[test]
fn edge_contact_is_found() {
    // Two unit cubes, B turned 45° about z then about x, pushed along the
    // diagonal so that edges cross: the deepest axis is an edge pair.
    let a = ConvexPolyhedron::cuboid(Vec3::ONE).unwrap();
    let b = ConvexPolyhedron::cuboid(Vec3::ONE).unwrap();
    let rot = glam::Quat::from_rotation_x(core::f32::consts::FRAC_PI_4)
        * glam::Quat::from_rotation_z(core::f32::consts::FRAC_PI_4);
    let dir = Vec3::new(1.0, 1.0, 0.0).normalize();
    let pose = Pose3::new(dir * 2.3, rot);
    check(&a, &b, &pose, "crossed cubes");
    let r = sat(
        &Hull {
            p: &a,
            buffered: true,
        },
        &Hull {
            p: &b,
            buffered: true,
        },
        &pose,
        f32::INFINITY,
    )
    .unwrap();
    assert!(matches!(r.axis, SatAxis::Edges(..)), "{r:?}");
}

/// A triangle as a flat polytope (faces `±n`, edge `k` from vertex `k` to
/// `k + 1`), announcing itself so that the test picks its edge pairs on the
/// Gauss map.
struct Tri {
    v: [Vec3; 3],
    n: Vec3,
}

impl Polytope for Tri {
    fn face_count(&self) -> usize {
        2
    }
    fn face_plane(&self, f: usize) -> (Vec3, f32) {
        let n = if f == 0 { self.n } else { -self.n };
        (n, n.dot(self.v[0]))
    }
    fn face_polygon(&self, _f: usize, out: &mut Polygon) {
        out.clear();
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
    fn support(&self, dir: Vec3) -> Vec3 {
        self.support_vertex(dir).0
    }
    fn support_vertex(&self, dir: Vec3) -> (Vec3, Feature) {
        let i = (0..3)
            .max_by(|&i, &j| self.v[i].dot(dir).total_cmp(&self.v[j].dot(dir)))
            .unwrap();
        (self.v[i], Feature::vertex(i))
    }
    fn interior_point(&self) -> Vec3 {
        (self.v[0] + self.v[1] + self.v[2]) / 3.0
    }
    fn scale(&self) -> f32 {
        self.v.iter().map(|p| p.length()).fold(0.0, f32::max)
    }
    fn triangle(&self) -> Option<([Vec3; 3], Vec3)> {
        Some((self.v, self.n))
    }
}

/// The largest interval separation of a triangle and a hull (both in the
/// triangle's frame) over every candidate axis.
fn brute_triangle(t: &Tri, hull: &[Vec3], hull_faces: &[Vec3], hull_edges: &[(Vec3, Vec3)]) -> f32 {
    let mut best = interval(&t.v, hull, t.n);
    for &n in hull_faces {
        best = best.max(interval(&t.v, hull, n));
    }
    for k in 0..3 {
        let da = t.v[(k + 1) % 3] - t.v[k];
        for &(p, q) in hull_edges {
            let db = q - p;
            let axis = da.cross(db);
            let len2 = axis.length_squared();
            if len2 <= 1e-6 * da.length_squared() * db.length_squared() || len2 == 0.0 {
                continue;
            }
            best = best.max(interval(&t.v, hull, axis / len2.sqrt()));
        }
    }
    best
}

#[test]
fn triangles_against_hulls_agree_with_brute_force() {
    // A triangle (A) and a hull (B) placed around touching, and the same pair
    // in the other order: the Gauss-map choice of edge pairs finds the
    // brute-force separation when they overlap, and a separating axis when
    // they are apart; the normal realises the separation either way.
    let mut rng = Rng(0x7a1a_0003);
    let mut edge_axes = 0;
    for i in 0..400 {
        let h = hull(&mut rng, [5, 8, 12, 16, 30, 80][i % 6]);
        let size = rng.range(0.2, 3.0);
        let v = [rng.unit() * size, rng.unit() * size, rng.unit() * size];
        let Some(n) = (v[1] - v[0]).cross(v[2] - v[0]).try_normalize() else {
            continue;
        };
        let t = Tri { v, n };
        let rot = Pose3::from_axis_angle(Vec3::ZERO, rng.unit() * rng.range(0.0, 3.1));
        let u = rng.unit();
        let reach = t.support(u).dot(u)
            + rot
                .transform_point(h.support(rot.inverse_transform_vector(-u)))
                .dot(-u);
        let pose = Pose3::new(u * reach * rng.range(0.5, 1.1), rot.rotation);
        let vb: Vec<Vec3> = h
            .vertices()
            .iter()
            .map(|&p| pose.transform_point(p))
            .collect();
        let faces: Vec<Vec3> = h
            .faces()
            .iter()
            .map(|f| pose.transform_vector(f.normal))
            .collect();
        let edges: Vec<(Vec3, Vec3)> = h
            .edges()
            .iter()
            .map(|e| (vb[e.vertices[0] as usize], vb[e.vertices[1] as usize]))
            .collect();
        let exact = brute_triangle(&t, &vb, &faces, &edges);
        let scale = 1e-5 * size.max(h.vertex_radius()).max(pose.translation.length());
        let inverse = pose.inverse();
        for (tri_first, buffered) in [(true, true), (false, true), (true, false), (false, false)] {
            // Results in the triangle's frame, normal from triangle to hull;
            // the hull read from a stack copy or mapped on access.
            let hb = Hull { p: &h, buffered };
            let (r, normal) = if tri_first {
                let r = sat(&t, &hb, &pose, f32::INFINITY).expect("an axis");
                (r, r.normal)
            } else {
                let r = sat(&hb, &t, &inverse, f32::INFINITY).expect("an axis");
                (r, -pose.transform_vector(r.normal))
            };
            edge_axes += matches!(r.axis, SatAxis::Edges(..)) as usize;
            let along = interval(&t.v, &vb, normal);
            assert!(
                (along - r.separation).abs() <= 10.0 * scale,
                "pair {i} tri_first={tri_first}: {r:?} but {along} along its normal"
            );
            if exact < 0.0 || r.separation < 0.0 {
                assert!(
                    (r.separation - exact).abs() <= 10.0 * scale,
                    "pair {i} tri_first={tri_first}: sat {r:?}, brute force {exact}"
                );
            } else {
                assert!(
                    r.separation > 0.0 || exact <= 10.0 * scale,
                    "pair {i}: {r:?} {exact}"
                );
            }
        }
    }
    assert!(
        edge_axes > 40,
        "only {edge_axes} edge-pair axes: the test misses the edge walk"
    );
}
