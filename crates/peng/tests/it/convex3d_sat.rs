//! The separating-axis test of two convex polyhedra read from their cached
//! data (`HullView` for A, `PlacedHull` for B: the path taken when a polytope
//! exposes its polyhedron through `Polytope::hull`), with the pruning of A's
//! edges by the bound on their Gauss-map arcs, against a brute-force test of
//! every candidate axis; and `sat_within`'s early rejection against GJK
//! distances.

use crate::sat_common;
use peng::math::{Pose3, Vec3};
use peng::query::d3::distance;
use peng::query::sat::{arcs_cross, sat, sat_within, Polygon, Polytope};
use peng::query::types::Feature;
use peng::shape::d3::{ConvexPolyhedron, Shape};
use sat_common::{brute, hull, interval, place, placed, Rng};

/// A convex polyhedron as a polytope, exposing its cached data through
/// `Polytope::hull` when the flag is set. Without it the test reads the
/// polytope methods only and runs every pass (no shortcut needs the
/// hull's data).
struct Hull<'a>(&'a ConvexPolyhedron, bool);

/// The polytope that exposes its cached data: the fast path.
fn cached(p: &ConvexPolyhedron) -> Hull<'_> {
    Hull(p, true)
}

/// The polytope without its cached data: every pass runs.
fn uncached(p: &ConvexPolyhedron) -> Hull<'_> {
    Hull(p, false)
}

impl Polytope for Hull<'_> {
    fn face_count(&self) -> usize {
        self.0.faces().len()
    }
    fn face_plane(&self, f: usize) -> (Vec3, f32) {
        (self.0.faces()[f].normal, self.0.faces()[f].offset)
    }
    fn face_polygon(&self, f: usize, out: &mut Polygon) {
        out.clear();
        for &v in self.0.face_loop(f) {
            let x = self.0.vertices()[v as usize];
            out.push(x, Feature::vertex(v as usize), Feature::NONE);
        }
        out.normal = self.0.faces()[f].normal;
        out.feature = Feature::face(f);
    }
    fn edge_count(&self) -> usize {
        self.0.edges().len()
    }
    fn edge(&self, e: usize) -> (Vec3, Vec3) {
        let [v, w] = self.0.edges()[e].vertices;
        (self.0.vertices()[v as usize], self.0.vertices()[w as usize])
    }
    fn edge_normals(&self, e: usize) -> Option<(Vec3, Vec3)> {
        let [f, g] = self.0.edges()[e].faces;
        Some((
            self.0.faces()[f as usize].normal,
            self.0.faces()[g as usize].normal,
        ))
    }
    fn support(&self, dir: Vec3) -> Vec3 {
        self.0.support(dir)
    }
    fn support_vertex(&self, dir: Vec3) -> (Vec3, Feature) {
        let i = self.0.support_vertex(dir);
        (self.0.vertices()[i], Feature::vertex(i))
    }
    fn interior_point(&self) -> Vec3 {
        self.0.vertex_mean()
    }
    fn scale(&self) -> f32 {
        self.0.vertex_radius()
    }
    fn is_solid(&self) -> bool {
        true
    }
    fn vertex_count(&self) -> usize {
        self.0.vertices().len()
    }
    fn vertex(&self, i: usize) -> Vec3 {
        self.0.vertices()[i]
    }
    fn edge_topology(&self, e: usize) -> [usize; 4] {
        let ed = self.0.edges()[e];
        [
            ed.vertices[0] as usize,
            ed.vertices[1] as usize,
            ed.faces[0] as usize,
            ed.faces[1] as usize,
        ]
    }
    fn vertex_adjacency(&self, v: usize) -> (&[u32], &[u32]) {
        (self.0.vertex_neighbors(v), self.0.vertex_edges(v))
    }
    fn support_index(&self, dir: Vec3) -> usize {
        self.0.support_vertex(dir)
    }
    fn hull(&self) -> Option<&ConvexPolyhedron> {
        self.1.then_some(self.0)
    }
}

/// The largest separation over the face normals of both and the edge pairs
/// whose Gauss-map arcs cross (A's arc against B's negated one): the faces of
/// the Minkowski difference, which the fast test must match exactly whether
/// the shapes overlap or not.
fn brute_crossing(a: &ConvexPolyhedron, b: &ConvexPolyhedron, b_in_a: &Pose3) -> f32 {
    let va = a.vertices();
    let vb = placed(b, b_in_a);
    let mut best = f32::NEG_INFINITY;
    for f in a.faces() {
        best = best.max(interval(va, &vb, f.normal));
    }
    for f in b.faces() {
        best = best.max(interval(va, &vb, b_in_a.transform_vector(f.normal)));
    }
    let na = |f: u32| a.faces()[f as usize].normal;
    let nb = |f: u32| -b_in_a.transform_vector(b.faces()[f as usize].normal);
    for ea in a.edges() {
        let da = va[ea.vertices[1] as usize] - va[ea.vertices[0] as usize];
        for eb in b.edges() {
            let [g0, g1] = eb.faces;
            if !arcs_cross(na(ea.faces[0]), na(ea.faces[1]), nb(g0), nb(g1)) {
                continue;
            }
            let db = vb[eb.vertices[1] as usize] - vb[eb.vertices[0] as usize];
            let axis = da.cross(db);
            let len2 = axis.length_squared();
            if len2 <= 1e-6 * da.length_squared() * db.length_squared() || len2 == 0.0 {
                continue;
            }
            best = best.max(interval(va, &vb, axis / len2.sqrt()));
        }
    }
    best
}

#[test]
fn cached_hulls_agree_with_brute_force() {
    let mut rng = Rng(0xc0_3d5a);
    for i in 0..400 {
        // Up to 32 vertices take the cached path; 40 falls back to `Mapped`.
        let n = [4, 6, 8, 12, 16, 24, 32, 40][i % 8];
        let m = [16, 5, 12, 32, 16, 8, 20, 16][i % 8];
        let (a, b) = (hull(&mut rng, n), hull(&mut rng, m));
        let pose = place(&mut rng, &a, &b, 0.3, 1.6);
        let scale = a.vertex_radius().max(b.vertex_radius());
        let exact = brute(&a, &b, &pose);
        let r = sat(&cached(&a), &cached(&b), &pose, f32::INFINITY).expect("solids give an axis");
        // Overlapping or not, the best axis over the Minkowski difference's
        // faces (no edge pair pruned wrongly) for pairs overlapping or
        // within a contact prediction (well apart, the walk only bounds the
        // distance from below).
        let faces = brute_crossing(&a, &b, &pose);
        assert!(
            faces.min(r.separation) > 0.02 || (r.separation - faces).abs() <= 1e-5 * scale,
            "pair {i} ({n}, {m}): sat {r:?}, crossing pairs {faces}"
        );
        // The reported normal realises the reported separation.
        let along = interval(a.vertices(), &placed(&b, &pose), r.normal);
        assert!(
            (along - r.separation).abs() <= 1e-5 * scale,
            "pair {i}: {r:?} but {along} along its normal"
        );
        assert!((r.normal.length() - 1.0).abs() < 1e-5);
        if exact < 0.0 || r.separation < 0.0 {
            // Overlapping: both are minus the penetration depth.
            assert!(
                (r.separation - exact).abs() <= 1e-5 * scale,
                "pair {i} ({n}, {m}): sat {r:?}, brute force {exact}"
            );
        } else {
            assert!(
                r.separation > 0.0 || exact <= 1e-5 * scale,
                "pair {i}: {r:?} {exact}"
            );
        }
    }
}

#[test]
fn cached_boxes_with_exact_ties_agree_with_brute_force() {
    // Parallel faces and edges: ties in the walk and in the pruning bound.
    let mut rng = Rng(0xb0c5_3d03);
    for i in 0..200 {
        let mut size = || {
            Vec3::new(
                rng.range(0.1, 2.0),
                rng.range(0.1, 2.0),
                rng.range(0.1, 2.0),
            )
        };
        let (ha, hb) = (size(), size());
        let a = ConvexPolyhedron::cuboid(ha).unwrap();
        let b = ConvexPolyhedron::cuboid(hb).unwrap();
        let angle = if i % 3 == 0 {
            0.0
        } else {
            rng.range(-1.5, 1.5)
        };
        let axis = [Vec3::X, Vec3::Y, Vec3::Z][i % 3];
        let t = (Vec3::new(rng.next(), rng.next(), rng.next()) - 0.5) * 4.0;
        let pose = Pose3::from_axis_angle(t, axis * angle);
        let scale = a.vertex_radius().max(b.vertex_radius());
        let exact = brute(&a, &b, &pose);
        let r = sat(&cached(&a), &cached(&b), &pose, f32::INFINITY).unwrap();
        if exact < 0.0 || r.separation < 0.0 {
            assert!(
                (r.separation - exact).abs() <= 1e-5 * scale,
                "boxes {i}: sat {r:?}, brute force {exact}"
            );
        }
    }
}

#[test]
fn early_rejection_only_when_farther_than_cutoff() {
    // Pairs from deep overlap to well apart: `sat_within` either gives what
    // `sat` gives (or another axis separating by more than the cutoff), or
    // `None` for a pair whose distance exceeds the cutoff.
    let mut rng = Rng(0x5e9a_7a7e);
    let (mut rejected, mut kept) = (0, 0);
    for i in 0..300 {
        let (a, b) = (hull(&mut rng, 16), hull(&mut rng, 16));
        let pose = place(&mut rng, &a, &b, 0.5, 1.6);
        let cutoff = [0.0, 0.01, 0.1][i % 3];
        let fast = sat_within(&cached(&a), &cached(&b), &pose, cutoff);
        let full = sat(&cached(&a), &cached(&b), &pose, cutoff);
        match fast {
            Some(r) => {
                kept += 1;
                let full = full.expect("solids give an axis");
                if full.separation > cutoff {
                    // Any axis separating by more than the cutoff may be
                    // returned.
                    assert!(r.separation > cutoff, "pair {i}: {r:?}, {full:?}");
                } else {
                    assert_eq!(r, full, "pair {i}");
                }
            }
            None => {
                rejected += 1;
                let (sa, sb) = (Shape::from(a.clone()), Shape::from(b.clone()));
                let d = distance(&sa, &Pose3::IDENTITY, &sb, &pose).distance;
                let scale = a.vertex_radius().max(b.vertex_radius());
                assert!(d > cutoff - 1e-5 * scale, "pair {i}: rejected at {d}");
            }
        }
    }
    // Both outcomes occur (the test covers both branches).
    assert!(
        rejected > 30 && kept > 30,
        "{rejected} rejected, {kept} kept"
    );
}

#[test]
fn skipping_faces_on_bounds_changes_no_answer() {
    // `sat_within` scans the faces turned towards the other hull first and
    // skips faces on a bound; `sat` scans them all in order. Near contact
    // (overlapping or within the cutoff) the answers must be the same to
    // the bit: axis, separation and normal. Hulls of many sizes, boxes with
    // parallel faces and exact ties, and a hull against itself turned a
    // little (faces nearly parallel, separations nearly tied).
    let mut rng = Rng(0x5ee_d5a7);
    let mut compared = 0;
    for i in 0..1500 {
        let (a, b) = match i % 3 {
            0 => {
                let (n, m) = ([4, 8, 12, 16, 24, 32][i % 6], [16, 6, 32, 10][i % 4]);
                (hull(&mut rng, n), hull(&mut rng, m))
            }
            1 => {
                let mut size = || {
                    Vec3::new(
                        rng.range(0.1, 1.0),
                        rng.range(0.1, 1.0),
                        rng.range(0.1, 1.0),
                    )
                };
                let (ha, hb) = (size(), size());
                (
                    ConvexPolyhedron::cuboid(ha).unwrap(),
                    ConvexPolyhedron::cuboid(hb).unwrap(),
                )
            }
            _ => {
                let a = hull(&mut rng, 16);
                (a.clone(), a)
            }
        };
        let pose = if i % 3 == 1 && i % 2 == 0 {
            // Axis-aligned boxes resting on each other: exact ties.
            let t = Vec3::new(rng.range(-0.5, 0.5), 0.0, rng.range(-0.5, 0.5));
            let up = a.support(Vec3::Y).y - b.support(-Vec3::Y).y;
            Pose3::from_axis_angle(t + Vec3::Y * (up + rng.range(-0.02, 0.02)), Vec3::ZERO)
        } else {
            place(&mut rng, &a, &b, 0.7, 1.05)
        };
        let cutoff = [0.0, 0.02, 0.1][i % 3];
        let full = sat(&cached(&a), &cached(&b), &pose, cutoff).expect("solids give an axis");
        let fast = sat_within(&cached(&a), &cached(&b), &pose, cutoff);
        if full.separation <= cutoff {
            compared += 1;
            assert_eq!(fast, Some(full), "pair {i}");
        } else {
            assert!(
                fast.is_none_or(|r| r.separation > cutoff),
                "pair {i}: {fast:?}"
            );
        }
    }
    assert!(compared > 700, "only {compared} pairs near contact");
}

#[test]
fn a_vertex_over_a_face_ends_the_test_with_the_face_and_no_better_edge_is_missed() {
    // B's lowest vertex (along -n) is put `gap` above a point `q` of face
    // `f` of A. With `q` inside the face the distance is `gap` and no axis
    // separates by more, so the face is the answer and the cached hulls'
    // test skips its edge pass; with `q` outside the face (beyond a corner)
    // an edge pair or another face may separate by more. Either way the
    // answer must be the one of the test that runs every pass (a skip taken
    // wrongly returns the face, short of the better edge pair).
    let mut rng = Rng(0x0fac_e0ff);
    let (mut inside, mut beaten) = (0, 0);
    for i in 0..600 {
        let a = hull(&mut rng, [8, 12, 16, 24][i % 4]);
        let b = hull(&mut rng, [16, 8, 12, 6][i % 4]);
        let f = i % a.faces().len();
        let (n, lp) = (a.faces()[f].normal, a.face_loop(f));
        let corners: Vec<Vec3> = lp.iter().map(|&v| a.vertices()[v as usize]).collect();
        let centre = corners.iter().copied().sum::<Vec3>() / corners.len() as f32;
        let corner = corners[i % corners.len()];
        // Inside: towards a corner from the centre; outside: past it.
        let out = i % 2 == 1;
        let reach = if out {
            rng.range(1.1, 1.6)
        } else {
            rng.range(0.0, 0.9)
        };
        let q = centre + (corner - centre) * reach;
        let rot = Pose3::from_axis_angle(Vec3::ZERO, rng.unit() * rng.range(0.0, 3.1));
        let low = rot.transform_point(b.support(rot.inverse_transform_vector(-n)));
        let gap = rng.range(1e-4, 0.05);
        let pose = Pose3::new(q + n * gap - low, rot.rotation);
        let scale = a.vertex_radius().max(b.vertex_radius());
        let fast =
            sat(&cached(&a), &cached(&b), &pose, f32::INFINITY).expect("solids give an axis");
        let full =
            sat(&uncached(&a), &uncached(&b), &pose, f32::INFINITY).expect("solids give an axis");
        assert!(
            (fast.separation - full.separation).abs() <= 1e-5 * scale
                && fast.normal.dot(full.normal) > 1.0 - 1e-5,
            "pair {i} (outside {out}): cached {fast:?}, every pass {full:?}"
        );
        if !out {
            inside += 1;
            assert!(
                (fast.separation - gap).abs() <= 1e-5 * scale,
                "pair {i}: {fast:?}, gap {gap}"
            );
        } else if full.separation > gap + 1e-4 * scale {
            beaten += 1;
        }
    }
    // Both kinds occur: the face's own answer, and others beating it.
    assert!(
        inside >= 300 && beaten > 50,
        "{inside} inside, {beaten} beaten"
    );
}
