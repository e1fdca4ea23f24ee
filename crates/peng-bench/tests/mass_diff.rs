//! Differential test of peng-dynamics' mass properties against parry3d and
//! parry2d 0.31 (`MassProperties::from_*`, `Shape::mass_properties`) on
//! random shapes of every kind both libraries have: 3D ball, capsule,
//! cuboid, cylinder, cone and convex hull; 2D ball, cuboid, capsule and
//! convex polygon.
//!
//! Mass and centre must agree within 1e-4 (relative to the mass and to the
//! shape's size), the sorted principal moments within 1e-3 of the largest.

use std::sync::Arc;

use glam::{Vec2, Vec3};
use parry2d::mass_properties::MassProperties as P2;
use parry3d::mass_properties::MassProperties as P3;
use parry3d::shape::Shape as _;
use peng::shape::d2::{self, Shape as Shape2};
use peng::shape::d3::{Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, Shape};
use peng_bench::seeds::Run;
use peng_bench::Rng;
use peng_dynamics::{MassProperties2, MassProperties3};

/// Random shapes per kind (times `PENG_TEST_SCALE`; the written seeds combine
/// with `PENG_TEST_SEED`, see `peng_bench::seeds`).
const CASES: usize = 200;

fn sorted3(v: Vec3) -> Vec3 {
    let mut a = v.to_array();
    a.sort_by(f32::total_cmp);
    Vec3::from(a)
}

/// Compares peng's and parry's properties of one shape of size `size`.
fn check3(what: &str, ours: &MassProperties3, theirs: &P3, size: f32) {
    let m = theirs.mass();
    assert!(
        (ours.mass - m).abs() <= 1e-4 * m,
        "{what}: mass {} vs parry {m}",
        ours.mass
    );
    let dc = (ours.local_com - theirs.local_com).length();
    assert!(
        dc <= 1e-4 * size.max(theirs.local_com.length()),
        "{what}: centre {} vs parry {}",
        ours.local_com,
        theirs.local_com
    );
    let (l, _) = ours.principal_inertia();
    let pl = sorted3(theirs.principal_inertia());
    assert!(
        (l - pl).abs().max_element() <= 1e-3 * pl.z,
        "{what}: principal inertia {l} vs parry {pl}"
    );
}

fn check2(what: &str, ours: &MassProperties2, theirs: &P2, size: f32) {
    let m = theirs.mass();
    assert!(
        (ours.mass - m).abs() <= 1e-4 * m,
        "{what}: mass {} vs parry {m}",
        ours.mass
    );
    let dc = (ours.local_com - theirs.local_com).length();
    assert!(
        dc <= 1e-4 * size.max(theirs.local_com.length()),
        "{what}: centre {} vs parry {}",
        ours.local_com,
        theirs.local_com
    );
    let pi = theirs.principal_inertia();
    assert!(
        (ours.inertia - pi).abs() <= 1e-3 * pi,
        "{what}: inertia {} vs parry {pi}",
        ours.inertia
    );
}

fn mp3(s: &Shape, rho: f32) -> MassProperties3 {
    MassProperties3::from_shape(s, rho).expect("mass properties")
}

fn mp2(s: &Shape2, rho: f32) -> MassProperties2 {
    MassProperties2::from_shape(s, rho).expect("mass properties")
}

#[test]
fn primitives_3d_agree_with_parry() {
    let run = Run::new(env!("CARGO_CRATE_NAME"), 0x6d61_7373);
    let (mut rng, cases) = (Rng::new(run.seed()), run.count(CASES));
    for i in 0..cases {
        run.case(i);
        let rho = rng.range(0.2, 5.0);
        let r = rng.range(0.05, 3.0);
        let h = rng.range(0.05, 3.0);

        let ours = mp3(&Shape::Ball(Ball::new(r).unwrap()), rho);
        check3("ball", &ours, &P3::from_ball(rho, r), r);

        let he = rng.in_box3(Vec3::splat(3.0)).abs() + Vec3::splat(0.05);
        let ours = mp3(&Shape::Cuboid(Cuboid::new(he).unwrap()), rho);
        check3("cuboid", &ours, &P3::from_cuboid(rho, he), he.length());

        let ours = mp3(&Shape::Cylinder(Cylinder::new(h, r).unwrap()), rho);
        check3("cylinder", &ours, &P3::from_cylinder(rho, h, r), h + r);

        let ours = mp3(&Shape::Cone(Cone::new(h, r).unwrap()), rho);
        check3("cone", &ours, &P3::from_cone(rho, h, r), h + r);

        let c = rng.in_ball(5.0);
        let a = c + rng.in_ball(2.0);
        let b = c + rng.in_ball(2.0);
        let ours = mp3(&Shape::Capsule(Capsule::new(a, b, r).unwrap()), rho);
        check3(
            "capsule",
            &ours,
            &P3::from_capsule(rho, a, b, r),
            (b - a).length() + r,
        );
    }
}

/// Whether no vertex is more than `tol` outside the plane of a triangle.
fn is_convex(vertices: &[Vec3], tris: &[[u32; 3]], tol: f32) -> bool {
    tris.iter().all(|t| {
        let [a, b, c] = t.map(|i| vertices[i as usize]);
        let n = (b - a).cross(c - a).normalize_or_zero();
        vertices.iter().all(|v| n.dot(*v - a) <= tol)
    })
}

#[test]
fn convex_hulls_3d_agree_with_parry() {
    let run = Run::new(env!("CARGO_CRATE_NAME"), 0x6875_6c6c);
    let (mut rng, cases) = (Rng::new(run.seed()), run.count(CASES));
    let (mut checked, mut parry_not_convex, mut meshes) = (0, 0, 0);
    for i in 0..cases {
        run.case(i);
        let rho = rng.range(0.2, 5.0);
        let centre = rng.in_ball(10.0);
        let scale = Vec3::new(
            rng.range(0.2, 3.0),
            rng.range(0.2, 3.0),
            rng.range(0.2, 3.0),
        );
        let n = 4 + rng.below(40);
        let pts: Vec<Vec3> = (0..n)
            .map(|_| centre + rng.in_box3(Vec3::ONE) * scale)
            .collect();
        let Ok(hull) = ConvexPolyhedron::from_points(&pts) else {
            continue;
        };
        // parry hulls peng's hull vertices: the same solid whichever hull
        // builder merges nearly coplanar points.
        let Some(theirs) = parry3d::shape::ConvexPolyhedron::from_convex_hull(hull.vertices())
        else {
            continue;
        };
        // The integrator alone: peng's closed-mesh path on parry's own
        // triangles (the very same solid) against parry's properties.
        let (pv, pi) = theirs.to_trimesh();
        let props = theirs.mass_properties(rho);
        // (Some of parry's hulls are not even closed manifolds: peng refuses
        // those with a `MassError`, and they are not compared.)
        let mesh = peng::mesh::TriMesh::new(pv.clone(), pi.clone()).map(Arc::new);
        if let Some(Ok(ours)) = mesh
            .ok()
            .map(|m| MassProperties3::from_shape(&Shape::TriMesh(m), rho))
        {
            check3("parry's hull as a mesh", &ours, &props, scale.length());
            meshes += 1;
        }
        // parry's hull is often not convex (a vertex up to ~1e-2 outside
        // one of its triangles: a smaller solid on the same vertices, up to
        // 5% less volume here): those cases are counted and skipped for
        // the comparison of peng's hull.
        if !is_convex(&pv, &pi, 1e-4 * scale.length()) {
            parry_not_convex += 1;
            continue;
        }
        let ours = mp3(&Shape::Polyhedron(Arc::new(hull)), rho);
        check3("convex hull", &ours, &props, scale.length());
        checked += 1;
    }
    eprintln!(
        "{checked} hulls compared, {parry_not_convex} skipped (parry's hull not convex), \
         {meshes} of parry's hulls compared as meshes"
    );
    run.cases_done();
    assert!(checked > cases / 2, "only {checked} hulls compared");
    assert!(meshes > cases / 2, "only {meshes} meshes compared");
}

/// parry2d 0.31's capsule, with its inertia corrected: it moves each
/// half-disk by the 3D hemisphere's centre offset `3r/8` instead of the
/// half-disk's `4r/(3π)`. The parallel-axis term of the two half-disks
/// (together a disk of mass `m_d`) is `m_d (L²/4 + L k)` for offset `k`, so
/// the correction is `m_d L (4r/(3π) − 3r/8)` (about 1% of the inertia for
/// long capsules; peng's value also matches a 400-gon, see
/// peng-dynamics' `capsule_2d_matches_fine_polygon`).
fn parry2d_capsule_corrected(rho: f32, a: Vec2, b: Vec2, r: f32) -> P2 {
    let p = P2::from_capsule(rho, a, b, r);
    let len = (b - a).length();
    let m_disk = rho * std::f32::consts::PI * r * r;
    let fix = m_disk * len * (4.0 * r / (3.0 * std::f32::consts::PI) - 3.0 * r / 8.0);
    P2::new(p.local_com, p.mass(), p.principal_inertia() + fix)
}

#[test]
fn shapes_2d_agree_with_parry() {
    let run = Run::new(env!("CARGO_CRATE_NAME"), 0x3264);
    let (mut rng, cases) = (Rng::new(run.seed()), run.count(CASES));
    let mut polygons = 0;
    for i in 0..cases {
        run.case(i);
        let rho = rng.range(0.2, 5.0);
        let r = rng.range(0.05, 3.0);

        let ours = mp2(&Shape2::Circle(d2::Circle::new(r).unwrap()), rho);
        check2("circle", &ours, &P2::from_ball(rho, r), r);

        let he = Vec2::new(rng.range(0.05, 3.0), rng.range(0.05, 3.0));
        let ours = mp2(&Shape2::Rect(d2::Rect::new(he).unwrap()), rho);
        check2("rect", &ours, &P2::from_cuboid(rho, he), he.length());

        let c = rng.in_disk(5.0);
        let a = c + rng.in_disk(2.0);
        let b = c + rng.in_disk(2.0);
        let ours = mp2(&Shape2::Capsule(d2::Capsule::new(a, b, r).unwrap()), rho);
        check2(
            "capsule",
            &ours,
            &parry2d_capsule_corrected(rho, a, b, r),
            (b - a).length() + r,
        );

        let n = 3 + rng.below(30);
        let scale = Vec2::new(rng.range(0.2, 3.0), rng.range(0.2, 3.0));
        let pts: Vec<Vec2> = (0..n).map(|_| c + (rng.in_disk(1.0)) * scale).collect();
        if let Ok(poly) = d2::ConvexPolygon::from_points(&pts) {
            let theirs = P2::from_convex_polygon(rho, poly.vertices());
            let ours = mp2(&Shape2::Polygon(Arc::new(poly)), rho);
            check2("polygon", &ours, &theirs, scale.length());
            polygons += 1;
        }
    }
    run.cases_done();
    assert!(polygons > cases / 2, "only {polygons} polygons compared");
}
