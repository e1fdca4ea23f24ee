//! Mass properties of every shape against closed forms.

use std::f32::consts::PI;
use std::sync::Arc;

use glam::{Mat3, Quat, Vec2, Vec3};
use peng::math::{Pose2, Pose3};
use peng::mesh::{HeightField, Polyline, TriMesh};
use peng::shape::d2::{self, Shape as Shape2};
use peng::shape::d3::{
    Ball, Capsule, Compound, Cone, ConvexPolyhedron, Cuboid, Cylinder, HalfSpace, Segment, Shape,
    Triangle,
};
use peng_dynamics::{MassError, MassProperties2, MassProperties3};

fn close(a: f32, b: f32, rel: f32) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-6)
}

fn assert_close(a: f32, b: f32, what: &str) {
    assert!(close(a, b, 1e-5), "{what}: {a} vs {b}");
}

fn assert_vec(a: Vec3, b: Vec3, what: &str) {
    assert!(
        (a - b).length() <= 1e-5 * (1.0 + b.length()),
        "{what}: {a} vs {b}"
    );
}

fn assert_mat(a: Mat3, b: Mat3, what: &str) {
    let scale = b
        .to_cols_array()
        .iter()
        .fold(1e-6f32, |m, x| m.max(x.abs()));
    for (x, y) in a.to_cols_array().iter().zip(b.to_cols_array()) {
        assert!((x - y).abs() <= 1e-5 * scale, "{what}: {a} vs {b}");
    }
}

fn mp(s: &Shape, rho: f32) -> MassProperties3 {
    MassProperties3::from_shape(s, rho).expect("mass properties")
}

#[test]
fn ball() {
    let p = mp(&Shape::Ball(Ball::new(2.0).unwrap()), 3.0);
    let m = 3.0 * 4.0 / 3.0 * PI * 8.0;
    assert_close(p.mass, m, "mass");
    assert_vec(p.local_com, Vec3::ZERO, "com");
    assert_mat(
        p.inertia,
        Mat3::from_diagonal(Vec3::splat(0.4 * m * 4.0)),
        "inertia",
    );
    assert_close(p.inv_mass(), 1.0 / m, "inv mass");
}

#[test]
fn cuboid() {
    let p = mp(
        &Shape::Cuboid(Cuboid::new(Vec3::new(1.0, 2.0, 3.0)).unwrap()),
        0.5,
    );
    let m = 0.5 * 2.0 * 4.0 * 6.0;
    assert_close(p.mass, m, "mass");
    let d = Vec3::new(16.0 + 36.0, 4.0 + 36.0, 4.0 + 16.0) * (m / 12.0);
    assert_mat(p.inertia, Mat3::from_diagonal(d), "inertia");
}

#[test]
fn cylinder_along_y() {
    let (h, r) = (1.5f32, 0.5f32);
    let p = mp(&Shape::Cylinder(Cylinder::new(h, r).unwrap()), 2.0);
    let m = 2.0 * PI * r * r * 2.0 * h;
    assert_close(p.mass, m, "mass");
    let across = m * (3.0 * r * r + 4.0 * h * h) / 12.0;
    assert_mat(
        p.inertia,
        Mat3::from_diagonal(Vec3::new(across, 0.5 * m * r * r, across)),
        "inertia",
    );
}

#[test]
fn cone_centre_a_quarter_up() {
    let (h, r) = (2.0f32, 1.0f32);
    let p = mp(&Shape::Cone(Cone::new(h, r).unwrap()), 1.0);
    let height = 2.0 * h;
    let m = PI * r * r * height / 3.0;
    assert_close(p.mass, m, "mass");
    assert_vec(p.local_com, Vec3::new(0.0, -h + height / 4.0, 0.0), "com");
    let across = 3.0 / 20.0 * m * r * r + 3.0 / 80.0 * m * height * height;
    assert_mat(
        p.inertia,
        Mat3::from_diagonal(Vec3::new(across, 0.3 * m * r * r, across)),
        "inertia",
    );
}

/// The cone as a fine polyhedron (a pyramid over a 256-gon) approaches the
/// closed form: checks the cone's formulas independently.
#[test]
fn cone_matches_fine_pyramid() {
    let (h, r) = (1.0f32, 0.7f32);
    let n = 256;
    let mut pts: Vec<Vec3> = (0..n)
        .map(|i| {
            let t = i as f32 / n as f32 * std::f32::consts::TAU;
            Vec3::new(r * t.cos(), -h, r * t.sin())
        })
        .collect();
    pts.push(Vec3::new(0.0, h, 0.0));
    let poly = ConvexPolyhedron::from_points(&pts).unwrap();
    let a = mp(&Shape::Polyhedron(Arc::new(poly)), 1.0);
    let b = mp(&Shape::Cone(Cone::new(h, r).unwrap()), 1.0);
    assert!(close(a.mass, b.mass, 1e-3), "{} vs {}", a.mass, b.mass);
    assert!((a.local_com - b.local_com).length() < 1e-4);
    for i in 0..3 {
        assert!(
            close(a.inertia.col(i)[i], b.inertia.col(i)[i], 1e-3),
            "{a:?} vs {b:?}"
        );
    }
}

/// A capsule's mass and inertia equal cylinder + ball (the two hemispheres
/// make one ball, but each is offset from the centre).
#[test]
fn capsule_vertical_and_tilted() {
    let (h, r) = (1.0f32, 0.5f32);
    let p = mp(&Shape::Capsule(Capsule::vertical(h, r).unwrap()), 1.0);
    let len = 2.0 * h;
    let m_cyl = PI * r * r * len;
    let m_hemi = 2.0 / 3.0 * PI * r * r * r;
    assert_close(p.mass, m_cyl + 2.0 * m_hemi, "mass");
    let along = 0.5 * m_cyl * r * r + 0.4 * 2.0 * m_hemi * r * r;
    let d = h + 3.0 * r / 8.0;
    let across = m_cyl * (3.0 * r * r + len * len) / 12.0
        + 2.0 * (0.4 * m_hemi * r * r - m_hemi * (3.0 * r / 8.0).powi(2) + m_hemi * d * d);
    assert_mat(
        p.inertia,
        Mat3::from_diagonal(Vec3::new(across, along, across)),
        "inertia",
    );

    // The same capsule along a tilted axis, off the origin: the tensor is the
    // vertical one rotated.
    let rot = Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), 0.9);
    let c = Vec3::new(3.0, -1.0, 2.0);
    let a = c + rot * Vec3::new(0.0, -h, 0.0);
    let b = c + rot * Vec3::new(0.0, h, 0.0);
    let q = mp(&Shape::Capsule(Capsule::new(a, b, r).unwrap()), 1.0);
    let expect = p.transformed(&Pose3::new(c, rot));
    assert_close(q.mass, expect.mass, "tilted mass");
    assert_vec(q.local_com, c, "tilted com");
    assert_mat(q.inertia, expect.inertia, "tilted inertia");
}

#[test]
fn lower_dimensional_shapes_are_massless() {
    let s = Shape::Segment(Segment::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)).unwrap());
    let p = mp(&s, 1.0);
    assert_eq!(p.mass, 0.0);
    assert_vec(p.local_com, Vec3::new(1.0, 0.0, 0.0), "segment centre");
    let t = Triangle::new(Vec3::ZERO, Vec3::X * 3.0, Vec3::Y * 3.0).unwrap();
    let p = mp(&Shape::Triangle(t), 1.0);
    assert_eq!(p.mass, 0.0);
    assert_vec(p.local_com, Vec3::new(1.0, 1.0, 0.0), "triangle centroid");
    assert_eq!(p.inv_mass(), 0.0);
}

#[test]
fn zero_sizes_give_zero_mass_without_nan() {
    let shapes = [
        Shape::Ball(Ball::new(0.0).unwrap()),
        Shape::Cuboid(Cuboid::new(Vec3::new(1.0, 0.0, 1.0)).unwrap()),
        Shape::Cylinder(Cylinder::new(0.0, 1.0).unwrap()),
        Shape::Cone(Cone::new(1.0, 0.0).unwrap()),
        Shape::Capsule(Capsule::new(Vec3::ONE, Vec3::ONE, 0.0).unwrap()),
    ];
    for s in &shapes {
        let p = mp(s, 1.0);
        assert_eq!(p.mass, 0.0, "{s:?}");
        assert!(
            p.local_com.is_finite() && p.inertia.is_finite(),
            "{s:?}: {p:?}"
        );
        let (l, q) = p.principal_inertia();
        assert!(l.is_finite() && q.is_finite());
    }
}

fn cuboid_trimesh(h: Vec3, offset: Vec3, flip: bool) -> TriMesh {
    let poly = ConvexPolyhedron::cuboid(h).unwrap();
    let verts: Vec<Vec3> = poly.vertices().iter().map(|v| *v + offset).collect();
    let mut tris = Vec::new();
    for f in 0..poly.faces().len() {
        let l = poly.face_loop(f);
        for k in 1..l.len() - 1 {
            tris.push(if flip {
                [l[0], l[k + 1], l[k]]
            } else {
                [l[0], l[k], l[k + 1]]
            });
        }
    }
    TriMesh::new(verts, tris).unwrap()
}

#[test]
fn cuboid_as_polyhedron_and_closed_mesh() {
    let h = Vec3::new(0.5, 1.0, 2.0);
    let want = mp(&Shape::Cuboid(Cuboid::new(h).unwrap()), 2.0);
    let poly = mp(
        &Shape::Polyhedron(Arc::new(ConvexPolyhedron::cuboid(h).unwrap())),
        2.0,
    );
    assert_close(poly.mass, want.mass, "polyhedron mass");
    assert_vec(poly.local_com, want.local_com, "polyhedron com");
    assert_mat(poly.inertia, want.inertia, "polyhedron inertia");
    let off = Vec3::new(5.0, -3.0, 1.0);
    for flip in [false, true] {
        let mesh = mp(&Shape::TriMesh(Arc::new(cuboid_trimesh(h, off, flip))), 2.0);
        assert_close(mesh.mass, want.mass, "mesh mass");
        assert_vec(mesh.local_com, off, "mesh com");
        assert_mat(mesh.inertia, want.inertia, "mesh inertia");
    }
}

/// A tetrahedron with an off-diagonal inertia: the corner tetrahedron
/// (0, e1, e2, e3) has volume 1/6, centre 1/4 (1, 1, 1), and about the
/// origin ∫x² = 1/60, ∫xy = 1/120.
#[test]
fn corner_tetrahedron_products_of_inertia() {
    let pts = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let p = mp(
        &Shape::Polyhedron(Arc::new(ConvexPolyhedron::from_points(&pts).unwrap())),
        6.0,
    );
    assert_close(p.mass, 1.0, "mass");
    assert_vec(p.local_com, Vec3::splat(0.25), "com");
    // About the origin: I_xx = ρ ∫(y² + z²) = 6 · 2/60, I_xy = −ρ ∫xy = −6/120.
    let about_origin = p.inertia_about(Vec3::ZERO);
    let (d, o) = (0.2f32, -0.05f32);
    let want = Mat3::from_cols(Vec3::new(d, o, o), Vec3::new(o, d, o), Vec3::new(o, o, d));
    assert_mat(about_origin, want, "inertia about origin");
}

/// Two boxes in a compound, rotated and translated: the sum by the
/// parallel-axis theorem, computed by hand.
#[test]
fn compound_of_two_boxes() {
    let h1 = Vec3::new(1.0, 0.5, 0.25);
    let h2 = Vec3::new(0.5, 0.5, 0.5);
    let rot = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let p1 = Pose3::new(Vec3::new(2.0, 0.0, 0.0), rot);
    let p2 = Pose3::from_translation(Vec3::new(-1.0, 1.0, 0.0));
    let c = Compound::new(vec![
        (p1, Shape::Cuboid(Cuboid::new(h1).unwrap())),
        (p2, Shape::Cuboid(Cuboid::new(h2).unwrap())),
    ])
    .unwrap();
    let p = mp(&Shape::Compound(Arc::new(c)), 1.0);
    let m1 = 8.0 * h1.x * h1.y * h1.z; // 1
    let m2 = 8.0 * h2.x * h2.y * h2.z; // 1
    assert_close(p.mass, m1 + m2, "mass");
    let com = (Vec3::new(2.0, 0.0, 0.0) * m1 + Vec3::new(-1.0, 1.0, 0.0) * m2) / (m1 + m2);
    assert_vec(p.local_com, com, "com");
    // Box 1 rotated 90° about z swaps its x and y extents.
    let sq = |v: Vec3| v * v;
    let e1 = sq(Vec3::new(h1.y, h1.x, h1.z));
    let i1 = Vec3::new(e1.y + e1.z, e1.x + e1.z, e1.x + e1.y) * (m1 / 3.0);
    let e2 = sq(h2);
    let i2 = Vec3::new(e2.y + e2.z, e2.x + e2.z, e2.x + e2.y) * (m2 / 3.0);
    // Offsets from the compound centre (0.5, 0.5, 0): d1 = (1.5, −0.5, 0),
    // d2 = (−1.5, 0.5, 0).
    let shift = |m: f32, d: Vec3| {
        Mat3::from_cols(
            Vec3::new(d.y * d.y + d.z * d.z, -d.x * d.y, -d.x * d.z),
            Vec3::new(-d.x * d.y, d.x * d.x + d.z * d.z, -d.y * d.z),
            Vec3::new(-d.x * d.z, -d.y * d.z, d.x * d.x + d.y * d.y),
        ) * m
    };
    let want = Mat3::from_diagonal(i1)
        + Mat3::from_diagonal(i2)
        + shift(m1, Vec3::new(1.5, -0.5, 0.0))
        + shift(m2, Vec3::new(-1.5, 0.5, 0.0));
    assert_mat(p.inertia, want, "inertia");
    assert!(
        p.inertia.col(0)[1] != 0.0,
        "the product of inertia xy is nonzero"
    );
}

#[test]
fn principal_inertia_of_a_rotated_box() {
    let h = Vec3::new(0.5, 1.0, 2.0);
    let body = mp(&Shape::Cuboid(Cuboid::new(h).unwrap()), 1.0);
    let rot = Quat::from_axis_angle(Vec3::new(0.3, -1.0, 0.2).normalize(), 1.1);
    let t = body.transformed(&Pose3::new(Vec3::new(1.0, 2.0, 3.0), rot));
    let (l, q) = t.principal_inertia();
    let d = body.inertia;
    let mut want = [d.x_axis.x, d.y_axis.y, d.z_axis.z];
    want.sort_by(f32::total_cmp);
    assert_vec(l, Vec3::from(want), "moments");
    let r = Mat3::from_quat(q);
    assert_mat(
        r * Mat3::from_diagonal(l) * r.transpose(),
        t.inertia,
        "reconstruction",
    );
    assert!((r.determinant() - 1.0).abs() < 1e-5);
}

#[test]
fn bad_input_errors() {
    let ball = Shape::Ball(Ball::new(1.0).unwrap());
    for rho in [-1.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            MassProperties3::from_shape(&ball, rho),
            Err(MassError::InvalidDensity { .. })
        ));
    }
    assert_eq!(MassProperties3::from_shape(&ball, 0.0).unwrap().mass, 0.0);
    let hs = Shape::HalfSpace(HalfSpace::new(Vec3::Y).unwrap());
    let e = MassProperties3::from_shape(&hs, 1.0).unwrap_err();
    assert_eq!(e, MassError::Unbounded { kind: "half-space" });
    assert!(e.to_string().contains("half-space"));
    let hf = HeightField::new(2, 2, vec![0.0; 4], Vec2::ONE).unwrap();
    let e = MassProperties3::from_shape(&Shape::HeightField(Arc::new(hf)), 1.0).unwrap_err();
    assert!(matches!(
        e,
        MassError::NotClosed {
            kind: "height field",
            ..
        }
    ));
    // An open box: one triangle fewer.
    let closed = cuboid_trimesh(Vec3::ONE, Vec3::ZERO, false);
    let mut tris = closed.indices().to_vec();
    tris.pop();
    let open = TriMesh::new(closed.vertices().to_vec(), tris).unwrap();
    let e = MassProperties3::from_shape(&Shape::TriMesh(Arc::new(open)), 1.0).unwrap_err();
    assert!(
        matches!(
            e,
            MassError::NotClosed {
                kind: "triangle mesh",
                ..
            }
        ),
        "{e}"
    );
    // Closed and consistently wound but flat: a triangle and its reverse
    // enclose no volume (was accepted as a body of mass 0).
    let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
    let flat = TriMesh::new(v, vec![[0, 1, 2], [0, 2, 1]]).unwrap();
    let e = MassProperties3::from_shape(&Shape::TriMesh(Arc::new(flat)), 1.0).unwrap_err();
    assert!(e.to_string().contains("encloses no volume"), "{e}");
    // A compound containing a half-space fails.
    let c = Compound::new(vec![(Pose3::IDENTITY, ball.clone()), (Pose3::IDENTITY, hs)]).unwrap();
    let e = MassProperties3::from_shape(&Shape::Compound(Arc::new(c)), 1.0).unwrap_err();
    assert_eq!(e, MassError::Unbounded { kind: "half-space" });
}

// ---------- 2D ----------

fn mp2(s: &Shape2, rho: f32) -> MassProperties2 {
    MassProperties2::from_shape(s, rho).expect("mass properties")
}

#[test]
fn circle_rect_capsule_2d() {
    let p = mp2(&Shape2::Circle(d2::Circle::new(2.0).unwrap()), 1.5);
    let m = 1.5 * PI * 4.0;
    assert_close(p.mass, m, "circle mass");
    assert_close(p.inertia, 0.5 * m * 4.0, "circle inertia");

    let p = mp2(
        &Shape2::Rect(d2::Rect::new(Vec2::new(1.0, 2.0)).unwrap()),
        1.0,
    );
    assert_close(p.mass, 8.0, "rect mass");
    assert_close(p.inertia, 8.0 * (4.0 + 16.0) / 12.0, "rect inertia");

    let (h, r) = (1.0f32, 0.5f32);
    let p = mp2(&Shape2::Capsule(d2::Capsule::vertical(h, r).unwrap()), 1.0);
    let m_rect = 2.0 * r * 2.0 * h;
    let m_half = 0.5 * PI * r * r;
    assert_close(p.mass, m_rect + 2.0 * m_half, "capsule mass");
    let k = 4.0 * r / (3.0 * PI);
    let i = m_rect * (4.0 * h * h + 4.0 * r * r) / 12.0
        + 2.0 * (0.5 * m_half * r * r - m_half * k * k + m_half * (h + k) * (h + k));
    assert_close(p.inertia, i, "capsule inertia");
}

/// The 2D capsule against a fine polygon approximating it.
#[test]
fn capsule_2d_matches_fine_polygon() {
    let (h, r) = (0.8f32, 0.4f32);
    let n = 200;
    let mut pts = Vec::new();
    for i in 0..=n {
        let t = i as f32 / n as f32 * PI;
        pts.push(Vec2::new(r * t.cos(), h + r * t.sin()));
        pts.push(Vec2::new(r * t.cos(), -h - r * t.sin()));
    }
    let poly = d2::ConvexPolygon::from_points(&pts).unwrap();
    let a = mp2(&Shape2::Polygon(Arc::new(poly)), 1.0);
    let b = mp2(&Shape2::Capsule(d2::Capsule::vertical(h, r).unwrap()), 1.0);
    assert!(close(a.mass, b.mass, 1e-3), "{} vs {}", a.mass, b.mass);
    assert!(
        close(a.inertia, b.inertia, 1e-3),
        "{} vs {}",
        a.inertia,
        b.inertia
    );
}

#[test]
fn triangle_and_polygon_2d() {
    // Right triangle with legs 3 and 6 (either winding): area 9, centre
    // (1, 2); about the centre I = m (a² + b²) / 18 for legs a, b.
    for (a, b, c) in [
        (Vec2::ZERO, Vec2::new(3.0, 0.0), Vec2::new(0.0, 6.0)),
        (Vec2::ZERO, Vec2::new(0.0, 6.0), Vec2::new(3.0, 0.0)),
    ] {
        let t = d2::Triangle::new(a, b, c).unwrap();
        let p = mp2(&Shape2::Triangle(t), 2.0);
        assert_close(p.mass, 18.0, "triangle mass");
        assert!((p.local_com - Vec2::new(1.0, 2.0)).length() < 1e-5);
        assert_close(p.inertia, 18.0 * 45.0 / 18.0, "triangle inertia");
    }
    // A rectangle as a polygon far from the origin equals the rect.
    let off = Vec2::new(1e4, -2e4);
    let pts = [
        Vec2::new(-1.0, -2.0),
        Vec2::new(1.0, -2.0),
        Vec2::new(1.0, 2.0),
        Vec2::new(-1.0, 2.0),
    ]
    .map(|v| v + off);
    let p = mp2(
        &Shape2::Polygon(Arc::new(d2::ConvexPolygon::from_points(&pts).unwrap())),
        1.0,
    );
    assert_close(p.mass, 8.0, "polygon mass");
    assert!((p.local_com - off).length() < 1e-2);
    assert!(close(p.inertia, 8.0 * 20.0 / 12.0, 1e-4), "{}", p.inertia);
}

#[test]
fn compound_2d_and_errors() {
    let r = Shape2::Rect(d2::Rect::new(Vec2::new(1.0, 0.5)).unwrap());
    let c = d2::Compound::new(vec![
        (Pose2::new(Vec2::new(2.0, 0.0), 0.7), r.clone()),
        (Pose2::new(Vec2::new(-2.0, 0.0), -0.3), r.clone()),
    ])
    .unwrap();
    let p = mp2(&Shape2::Compound(Arc::new(c)), 1.0);
    let one = mp2(&r, 1.0);
    assert_close(p.mass, 2.0 * one.mass, "mass");
    assert!(p.local_com.length() < 1e-6);
    assert_close(
        p.inertia,
        2.0 * (one.inertia + one.mass * 4.0),
        "parallel axis",
    );
    let t = one.transformed(&Pose2::new(Vec2::new(3.0, 4.0), 1.0));
    assert_close(
        t.inertia_about(Vec2::ZERO),
        one.inertia + one.mass * 25.0,
        "about origin",
    );

    let seg = Shape2::Segment(d2::Segment::new(Vec2::ZERO, Vec2::X).unwrap());
    assert_eq!(mp2(&seg, 1.0).mass, 0.0);
    let pl = Polyline::new(vec![Vec2::ZERO, Vec2::X, Vec2::Y], None).unwrap();
    let e = MassProperties2::from_shape(&Shape2::Polyline(Arc::new(pl)), 1.0).unwrap_err();
    assert!(matches!(
        e,
        MassError::NotClosed {
            kind: "polyline",
            ..
        }
    ));
    assert!(matches!(
        MassProperties2::from_shape(&r, -2.0),
        Err(MassError::InvalidDensity { .. })
    ));
    let zero = mp2(&Shape2::Circle(d2::Circle::new(0.0).unwrap()), 1.0);
    assert_eq!(zero.mass, 0.0);
    assert_eq!(zero.inv_inertia(), 0.0);
}

/// A closed box mesh a million units from the origin (grid coordinates, so
/// exact in f32) keeps its inertia: the integrals are taken about the vertex
/// mean, not the origin (about the origin, cancellation in f64 costs about
/// `1e-16 · (1e6)²` relative, far above this tolerance).
#[test]
fn far_mesh_keeps_precision() {
    let h = Vec3::new(0.5, 1.0, 2.0);
    let want = mp(&Shape::Cuboid(Cuboid::new(h).unwrap()), 1.0);
    let off = Vec3::new(1e6, -2e6, 3e6);
    let far = mp(
        &Shape::TriMesh(Arc::new(cuboid_trimesh(h, off, false))),
        1.0,
    );
    assert_close(far.mass, want.mass, "mass");
    assert_vec(far.local_com, off, "centre");
    assert_mat(far.inertia, want.inertia, "inertia");
}
