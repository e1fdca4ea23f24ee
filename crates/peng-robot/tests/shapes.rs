//! Link geometry as peng shapes: the Panda's meshes as convex hulls that
//! hold every mesh vertex, URDF cylinders along z, and the errors for
//! meshes that cannot be found.

use glam::Vec3;
use peng::d3::{distance, Ball, Pose3, Shape};
use peng_robot::{link_shapes, urdf, MeshMode, MeshSource};
use std::path::PathBuf;

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/robots")
}

fn panda_source(mode: MeshMode) -> MeshSource {
    MeshSource {
        search_paths: vec![data()],
        base: None,
        mode,
    }
}

#[test]
fn panda_meshes_become_hulls_holding_every_vertex() {
    let dir = data().join("example-robot-data/robots/panda_description");
    let r = urdf::read_file(dir.join("urdf/panda.urdf")).unwrap();
    let shapes = link_shapes(&r, &panda_source(MeshMode::ConvexHull)).unwrap();
    let hulls = shapes
        .iter()
        .flatten()
        .filter(|s| matches!(s.shape, Shape::Polyhedron(_)))
        .count();
    let boxes = shapes
        .iter()
        .flatten()
        .filter(|s| matches!(s.shape, Shape::Cuboid(_)))
        .count();
    assert_eq!((hulls, boxes), (9, 8));
    // Every vertex of link 4's mesh lies in its hull (within 1e-5 m).
    let link4 = &shapes[r.link("panda_link4").unwrap()][0];
    let mesh = peng_io::read_mesh(dir.join("meshes/collision/link4.stl")).unwrap();
    let point: Shape = Ball::new(0.0).unwrap().into();
    let hull_pose = link4.pose.to_pose();
    for p in &mesh.positions {
        let d = distance(
            &link4.shape,
            &hull_pose,
            &point,
            &Pose3::from_translation(*p),
        )
        .distance;
        assert!(d <= 1e-5, "vertex {p} is {d} outside the hull");
    }
    // The triangle meshes read too.
    let meshes = link_shapes(&r, &panda_source(MeshMode::TriMesh)).unwrap();
    let tri = meshes
        .iter()
        .flatten()
        .filter(|s| matches!(s.shape, Shape::TriMesh(_)))
        .count();
    assert_eq!(tri, 9);
}

#[test]
fn urdf_cylinders_stand_along_z_and_boxes_keep_their_sides() {
    let r = urdf::parse(
        "<robot name=\"r\"><link name=\"a\"><collision><origin xyz=\"1 0 0\"/><geometry><cylinder radius=\"0.5\" length=\"2\"/></geometry></collision>\
         <collision><geometry><box size=\"0.2 0.4 0.6\"/></geometry></collision>\
         <collision><geometry><capsule radius=\"0.1\" length=\"1\"/></geometry></collision></link></robot>",
    )
    .unwrap();
    let s = link_shapes(&r, &MeshSource::default()).unwrap();
    let reach = |k: usize, dir: Vec3| {
        let ls = &s[0][k];
        let pose = ls.pose.to_pose();
        // Support in the link frame: the farthest point along `dir`.
        let local = pose.rotation.inverse() * dir;
        let p = pose.transform_point(ls.shape.local_support(local));
        p.dot(dir)
    };
    assert!((reach(0, Vec3::Z) - 1.0).abs() < 1e-6);
    assert!((reach(0, Vec3::X) - 1.5).abs() < 1e-6);
    assert!((reach(0, Vec3::Y) - 0.5).abs() < 1e-6);
    assert!((reach(1, Vec3::X) - 0.1).abs() < 1e-6 && (reach(1, Vec3::Z) - 0.3).abs() < 1e-6);
    assert!((reach(2, Vec3::Z) - 0.6).abs() < 1e-6 && (reach(2, Vec3::X) - 0.1).abs() < 1e-6);
}

#[test]
fn meshes_that_cannot_be_found_name_the_link_and_the_file() {
    let text = |f: &str| {
        format!("<robot name=\"r\"><link name=\"base\"><collision><geometry><mesh filename=\"{f}\"/></geometry></collision></link></robot>")
    };
    let r = urdf::parse(&text("package://nowhere/meshes/a.stl")).unwrap();
    let e = link_shapes(&r, &panda_source(MeshMode::ConvexHull))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("link \"base\": mesh \"package://nowhere/meshes/a.stl\": package \"nowhere\" is not found in the search paths"), "{e}");
    let r = urdf::parse(&text("meshes/missing.stl")).unwrap();
    let source = MeshSource {
        base: Some(PathBuf::from("/tmp/robot")),
        ..MeshSource::default()
    };
    let e = link_shapes(&r, &source).unwrap_err().to_string();
    assert_eq!(
        e,
        "link \"base\": mesh \"meshes/missing.stl\": /tmp/robot/meshes/missing.stl is not a file"
    );
}
