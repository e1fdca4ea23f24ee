//! Tests of `ConvexPolyhedron`: construction from points and faces (with its
//! validation), hill-climbing support, support face, volume and centroid.

use glam::{Quat, Vec3};
use peng::math::policy::GeometryError;
use peng::shape::d3::ConvexPolyhedron;
use proptest::prelude::*;

struct Rng(u64);
impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
    fn unit(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
}

/// Index of the largest dot product, lowest index on ties (the reference).
fn brute_support(v: &[Vec3], dir: Vec3) -> usize {
    let mut best = 0;
    for i in 1..v.len() {
        if v[i].dot(dir) > v[best].dot(dir) {
            best = i;
        }
    }
    best
}

fn degenerate<T: std::fmt::Debug>(r: Result<T, GeometryError>) -> bool {
    matches!(r, Err(GeometryError::Degenerate { .. }))
}

fn grid_cube() -> ConvexPolyhedron {
    let mut pts = Vec::new();
    for x in 0..10 {
        for y in 0..10 {
            for z in 0..10 {
                pts.push(Vec3::new(x as f32, y as f32, z as f32));
            }
        }
    }
    ConvexPolyhedron::from_points(&pts).unwrap()
}

/// A rotated prism over a regular n-gon: two caps with n coplanar vertices each
/// (plateaus for directions along the axis).
fn prism(n: usize, q: Quat) -> ConvexPolyhedron {
    let mut pts = Vec::new();
    for i in 0..n {
        let a = i as f32 / n as f32 * std::f32::consts::TAU;
        pts.push(q * Vec3::new(a.cos(), -0.5, a.sin()));
        pts.push(q * Vec3::new(a.cos(), 0.5, a.sin()));
    }
    ConvexPolyhedron::from_points(&pts).unwrap()
}

/// Directions that hit plateaus: face normals, edge directions, axes, and
/// their perturbations; plus random ones.
fn test_dirs(p: &ConvexPolyhedron, rng: &mut Rng) -> Vec<Vec3> {
    let mut dirs: Vec<Vec3> = p.faces().iter().map(|f| f.normal).collect();
    for e in p.edges() {
        let [a, b] = e.faces.map(|f| p.faces()[f as usize].normal);
        dirs.push(a + b);
    }
    for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
        dirs.push(axis);
        dirs.push(-axis);
    }
    let n = dirs.len();
    for i in 0..n {
        dirs.push(dirs[i] + rng.unit() * 1e-6);
    }
    for _ in 0..200 {
        dirs.push(rng.unit() * rng.range(0.1, 10.0));
    }
    dirs
}

fn assert_support_exact(p: &ConvexPolyhedron, rng: &mut Rng) {
    for dir in test_dirs(p, rng) {
        let hill = p.support_vertex(dir);
        let brute = brute_support(p.vertices(), dir);
        assert_eq!(
            hill,
            brute,
            "dir {dir}: hill climbing {} ({}) vs scan {} ({})",
            hill,
            p.vertices()[hill].dot(dir),
            brute,
            p.vertices()[brute].dot(dir)
        );
        assert_eq!(p.support(dir), p.vertices()[brute]);
    }
}

#[test]
fn grid_cube_properties() {
    let p = grid_cube();
    assert_eq!(p.vertices().len(), 8);
    assert_eq!(p.faces().len(), 6);
    assert_eq!(p.edges().len(), 12);
    assert!((p.volume() - 729.0).abs() < 1e-3);
    assert!((p.centroid() - Vec3::splat(4.5)).length() < 1e-4);
    let b = p.local_aabb();
    assert_eq!((b.min, b.max), (Vec3::ZERO, Vec3::splat(9.0)));
    // The most aligned face.
    let f = p.support_face(Vec3::new(0.2, -1.0, 0.3));
    assert!((p.faces()[f].normal - Vec3::NEG_Y).length() < 1e-6);
    for (i, face) in p.faces().iter().enumerate() {
        assert_eq!(p.support_face(face.normal * 3.0), i);
    }
    let mut rng = Rng(1);
    // 8 vertices only: brute force path; still checked.
    assert_support_exact(&p, &mut rng);
}

#[test]
fn tetrahedron_volume_and_centroid() {
    let p = ConvexPolyhedron::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).unwrap();
    assert!((p.volume() - 1.0 / 6.0).abs() < 1e-7);
    assert!((p.centroid() - Vec3::splat(0.25)).length() < 1e-6);
    // Far from the origin: volume and centroid keep their precision.
    let off = Vec3::new(1e4, -2e4, 3e4);
    let q =
        ConvexPolyhedron::from_points(&[off, off + Vec3::X, off + Vec3::Y, off + Vec3::Z]).unwrap();
    assert!((q.volume() - 1.0 / 6.0).abs() < 1e-4);
    assert!((q.centroid() - (off + Vec3::splat(0.25))).length() < 1e-2);
}

#[test]
fn cuboid_volume_centroid_faces() {
    let p = ConvexPolyhedron::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
    assert!((p.volume() - 48.0).abs() < 1e-4);
    assert!(p.centroid().length() < 1e-6);
    assert_eq!(p.support_face(Vec3::new(0.1, 0.1, -5.0)), 4); // the -z face
}

#[test]
fn support_on_large_plateaus() {
    let mut rng = Rng(2);
    for n in [16, 64, 200] {
        let q = Quat::from_axis_angle(rng.unit(), rng.range(0.0, 6.0));
        let p = prism(n, q);
        assert_eq!(p.vertices().len(), 2 * n);
        assert_eq!(p.faces().len(), n + 2);
        assert_support_exact(&p, &mut rng);
        // Volume of a prism over a regular n-gon of circumradius 1, height 1.
        let area = 0.5 * n as f32 * (std::f32::consts::TAU / n as f32).sin();
        assert!(
            (p.volume() - area).abs() < 1e-4 * area,
            "volume {} vs {area}",
            p.volume()
        );
        assert!(p.centroid().length() < 1e-5);
    }
}

#[test]
fn support_on_many_vertices() {
    let mut rng = Rng(3);
    let pts: Vec<Vec3> = (0..3000)
        .map(|_| rng.unit() * 2.0 + Vec3::new(5.0, 0.0, -1.0))
        .collect();
    let p = ConvexPolyhedron::from_points(&pts).unwrap();
    assert!(p.vertices().len() > 2000);
    assert_support_exact(&p, &mut rng);
}

/// Hulls on both sides of the sizes where the support query changes method
/// (a scalar scan up to 16 vertices, a scan four at a time up to 256, hill
/// climbing above): every vertex of a Fibonacci sphere is on the hull, so
/// the sizes are exact. The zero direction ties every vertex (the lowest
/// index wins); a NaN direction gives some vertex, without a panic.
#[test]
fn support_across_the_scan_and_climb_sizes() {
    let mut rng = Rng(4);
    for n in [16, 17, 19, 20, 21, 255, 256, 257, 300] {
        let golden = std::f32::consts::PI * (3.0 - 5.0f32.sqrt());
        let pts: Vec<Vec3> = (0..n)
            .map(|i| {
                let y = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
                let r = (1.0 - y * y).sqrt();
                let a = golden * i as f32;
                Vec3::new(r * a.cos(), y, r * a.sin()) * 3.0 + Vec3::new(-7.0, 2.0, 0.5)
            })
            .collect();
        let p = ConvexPolyhedron::from_points(&pts).unwrap();
        assert_eq!(p.vertices().len(), n);
        assert_support_exact(&p, &mut rng);
        assert_eq!(p.support_vertex(Vec3::ZERO), 0, "{n} vertices");
        assert!(p.support_vertex(Vec3::NAN) < n);
        assert!(p.support_vertex(Vec3::new(f32::NAN, 1.0, 0.0)) < n);
    }
}

#[test]
fn from_faces_validates() {
    let v = |a: [f32; 3]| Vec3::from_array(a);
    let tet = vec![
        v([0., 0., 0.]),
        v([1., 0., 0.]),
        v([0., 1., 0.]),
        v([0., 0., 1.]),
    ];
    let good: Vec<Vec<u32>> = vec![vec![0, 2, 1], vec![0, 1, 3], vec![0, 3, 2], vec![1, 2, 3]];
    let p = ConvexPolyhedron::from_faces(tet.clone(), &good).unwrap();
    assert_eq!(p.edges().len(), 6);
    for f in p.faces() {
        assert!(
            f.normal.dot(Vec3::splat(0.25)) < f.offset,
            "normal points inward"
        );
    }
    // One face flipped: inconsistent orientation.
    let mut flipped = good.clone();
    flipped[3] = vec![3, 2, 1];
    assert!(degenerate(ConvexPolyhedron::from_faces(
        tet.clone(),
        &flipped
    )));
    // All faces flipped: consistent but inside out (not convex from outside).
    let inside_out: Vec<Vec<u32>> = good
        .iter()
        .map(|f| f.iter().rev().copied().collect())
        .collect();
    assert!(degenerate(ConvexPolyhedron::from_faces(
        tet.clone(),
        &inside_out
    )));
    // A face missing.
    assert!(degenerate(ConvexPolyhedron::from_faces(
        tet.clone(),
        &good[..3]
    )));
    // An unused vertex.
    let mut extra = tet.clone();
    extra.push(v([5., 5., 5.]));
    assert!(degenerate(ConvexPolyhedron::from_faces(extra, &good)));
    // A repeated vertex in a loop.
    let mut rep = good.clone();
    rep[0] = vec![0, 2, 2, 1];
    assert!(ConvexPolyhedron::from_faces(tet.clone(), &rep).is_err());
    // Out of range, NaN, too few.
    let mut oob = good.clone();
    oob[0][0] = 9;
    assert!(matches!(
        ConvexPolyhedron::from_faces(tet.clone(), &oob),
        Err(GeometryError::IndexOutOfRange { index: 9, .. })
    ));
    let mut nan = tet.clone();
    nan[1].x = f32::NAN;
    assert!(matches!(
        ConvexPolyhedron::from_faces(nan, &good),
        Err(GeometryError::NonFinite { .. })
    ));
    assert!(matches!(
        ConvexPolyhedron::from_faces(tet[..3].to_vec(), &good),
        Err(GeometryError::TooFew { .. })
    ));

    // A cube with a corner pushed in: faces no longer planar.
    let c = ConvexPolyhedron::cuboid(Vec3::ONE).unwrap();
    let loops: Vec<Vec<u32>> = (0..6).map(|f| c.face_loop(f).to_vec()).collect();
    let mut dented = c.vertices().to_vec();
    dented[7] *= 0.9;
    assert!(degenerate(ConvexPolyhedron::from_faces(dented, &loops)));
    // An octahedron with one apex pushed inside: planar triangles, not convex.
    let mut oct = vec![
        v([1., 0., 0.]),
        v([-1., 0., 0.]),
        v([0., 1., 0.]),
        v([0., -1., 0.]),
        v([0., 0., 1.]),
        v([0., 0., -1.]),
    ];
    let oct_faces: Vec<Vec<u32>> = vec![
        vec![0, 2, 4],
        vec![2, 1, 4],
        vec![1, 3, 4],
        vec![3, 0, 4],
        vec![2, 0, 5],
        vec![1, 2, 5],
        vec![3, 1, 5],
        vec![0, 3, 5],
    ];
    assert!(ConvexPolyhedron::from_faces(oct.clone(), &oct_faces).is_ok());
    oct[4] = v([0., 0., -0.5]);
    assert!(degenerate(ConvexPolyhedron::from_faces(oct, &oct_faces)));
    // A flat "polyhedron": a square covered on both sides.
    let sq = vec![
        v([0., 0., 0.]),
        v([1., 0., 0.]),
        v([1., 1., 0.]),
        v([0., 1., 0.]),
    ];
    assert!(degenerate(ConvexPolyhedron::from_faces(
        sq,
        &[vec![0, 1, 2, 3], vec![3, 2, 1, 0]]
    )));
    // Two tetrahedra glued at a vertex would break V - E + F = 2 (genus or
    // components): two disjoint tetrahedra.
    let mut two = tet.clone();
    two.extend(tet.iter().map(|p| *p + Vec3::splat(3.0)));
    let mut two_faces = good.clone();
    two_faces.extend(
        good.iter()
            .map(|f| f.iter().map(|i| i + 4).collect::<Vec<u32>>()),
    );
    assert!(degenerate(ConvexPolyhedron::from_faces(two, &two_faces)));
}

#[test]
fn from_points_errors() {
    assert!(degenerate(ConvexPolyhedron::from_points(&[Vec3::ONE; 6])));
    assert!(matches!(
        ConvexPolyhedron::from_points(&[Vec3::ZERO, Vec3::X]),
        Err(GeometryError::TooFew { .. })
    ));
}

proptest! {
    #![proptest_config(crate::seeds::cases(64))]

    /// Hill climbing equals the full scan on hulls of random clouds, including
    /// clouds with many points on a few planes.
    #[test]
    fn prop_support_matches_scan(seed in any::<u64>(), n in 20usize..600, boxy in any::<bool>()) {
        let mut rng = Rng(seed);
        let pts: Vec<Vec3> = (0..n)
            .map(|_| {
                let mut p = rng.unit() * rng.range(0.5, 1.0);
                if boxy {
                    // Snap a coordinate to a face of [-0.6, 0.6]^3 now and then.
                    let k = (rng.next_u64() % 4) as usize;
                    if k < 3 {
                        p[k] = if p[k] > 0.0 { 0.6 } else { -0.6 };
                    }
                }
                p
            })
            .collect();
        let p = ConvexPolyhedron::from_points(&pts).unwrap();
        assert_support_exact(&p, &mut rng);
        // Volume and centroid against a Monte Carlo-free check: the divergence
        // theorem sum is independent of the reference point, so compare with
        // the volume of the same polyhedron translated.
        let shift = Vec3::new(3.0, -2.0, 1.0);
        let moved: Vec<Vec3> = p.vertices().iter().map(|v| *v + shift).collect();
        let loops: Vec<Vec<u32>> = (0..p.faces().len()).map(|f| p.face_loop(f).to_vec()).collect();
        let q = ConvexPolyhedron::from_faces(moved, &loops).unwrap();
        prop_assert!((q.volume() - p.volume()).abs() <= 1e-4 * p.volume());
        prop_assert!((q.centroid() - p.centroid() - shift).length() <= 1e-4);
        // The centroid is inside.
        for f in p.faces() {
            prop_assert!(f.normal.dot(p.centroid()) < f.offset);
        }
        // support_face is the most aligned face.
        let d = rng.unit();
        let sf = p.support_face(d);
        prop_assert!(p.faces().iter().all(|f| f.normal.dot(d) <= p.faces()[sf].normal.dot(d)));
    }
}

/// The world box of a placed hull (`aabb_at`, four vertices at a time by
/// the rotation matrix) is the box of its vertices placed one by one:
/// each bound within rounding of the placed vertices' extreme, on hulls of
/// 5 to 40 points (the last block padded) away from their local origin
/// (which a wrong padding would add to the box), at any rotation, near the
/// world origin and far from it; `Shape::aabb` gives the same box.
#[test]
fn placed_box_is_the_box_of_the_placed_vertices() {
    use peng::bound::Aabb3;
    use peng::math::Pose3;
    let mut rng = Rng(41);
    for n in [5usize, 8, 13, 16, 40] {
        let off = Vec3::new(3.0, -1.0, 0.5);
        let pts: Vec<Vec3> = (0..n)
            .map(|_| off + rng.unit() * rng.range(0.2, 1.5))
            .collect();
        let p = ConvexPolyhedron::from_points(&pts).expect("a solid hull");
        for far in [0.0f32, 1.0e4] {
            let q = Quat::from_axis_angle(rng.unit(), rng.range(0.0, 6.2));
            let t = rng.unit() * far + Vec3::new(0.3, -0.7, 0.1);
            let pose = Pose3::new(t, q);
            let want = Aabb3::from_points(p.vertices().iter().map(|&v| pose.transform_point(v)));
            let got = p.aabb_at(&pose);
            let shape = peng::shape::d3::Shape::Polyhedron(p.clone().into());
            assert_eq!(shape.aabb(&pose), got);
            // A vertex placed by the quaternion and by the matrix differ by
            // a few ulps of the coordinates.
            let tol = 8.0 * f32::EPSILON * (t.length() + 2.0);
            for k in 0..3 {
                assert!(
                    (got.min[k] - want.min[k]).abs() <= tol
                        && (got.max[k] - want.max[k]).abs() <= tol,
                    "{n} points at {far}: axis {k}, {got:?} against {want:?}"
                );
            }
        }
    }
}
