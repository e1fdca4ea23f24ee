//! Bounded memory and work in the readers, each test holding the input that
//! once cost gigabytes or seconds: a glTF accessor without a buffer view that
//! declares 2^24 zero vertices instanced on many nodes, a single OBJ or STL
//! face of 32,000 vertices, and counts past the [`ReadOptions`] limits.

use crate::io_support::*;
use peng_io::{
    parse_gltf, parse_gltf_with, parse_mesh_with, parse_obj, parse_obj_with, parse_stl,
    parse_stl_with, ErrorKind, ReadOptions,
};
use serde_json::json;
use std::time::{Duration, Instant};

/// Generous for a debug build on a loaded machine; the quadratic code took
/// 12 s (debug) on the 32,000-vertex face, the near-linear one takes tens of
/// milliseconds.
const QUICK: Duration = Duration::from_secs(2);

/// A glTF document whose mesh 0 reads POSITION from accessor 0 (no buffer
/// view: zeros), instanced by `nodes` nodes: the fuzzing find, under 400
/// bytes with 16 nodes.
fn zero_accessor_gltf(count: u64, nodes: usize, sparse: Option<serde_json::Value>) -> Vec<u8> {
    let mut acc = json!({"componentType": 5126, "type": "VEC3", "count": count});
    if let Some(s) = sparse {
        acc["sparse"] = s;
    }
    let doc = json!({
        "asset": {"version": "2.0"},
        "accessors": [acc],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": (0..nodes).map(|_| json!({"mesh": 0})).collect::<Vec<_>>(),
    });
    serde_json::to_vec(&doc).unwrap()
}

#[test]
fn gltf_zero_accessor_on_many_nodes_is_not_materialised() {
    // 2^24 - 1 vertices (a multiple of 3) × 16 instances was 3.2 GB of
    // positions alone, and 1 GB of triangles.
    let file = zero_accessor_gltf((1 << 24) - 1, 16, None);
    assert!(file.len() < 400, "{}", file.len());
    let t = Instant::now();
    let e = expect_err(
        parse_gltf(&file, "zeros.gltf", None),
        &[
            "zeros.gltf",
            "no triangles",
            "16 primitives of degenerate triangles left out",
        ],
    );
    assert_eq!(e.kind, ErrorKind::Empty);
    assert!(
        e.to_string().contains("accessors[0] has no bufferView"),
        "{e}"
    );
    assert!(t.elapsed() < QUICK, "{:?}", t.elapsed());
}

#[test]
fn gltf_zero_accessor_with_sparse_keeps_only_real_triangles() {
    // 3 · 349,525 zero vertices, of which vertex 1 is moved to (1, 2, 3) by sparse
    // data: triangle 0 = (0, 1, 2) = (origin, (1,2,3), origin) is the only one
    // whose corners do not all coincide. Sparse data: one u8 index (1) then
    // one VEC3 of f32, in one base64 buffer.
    let mut bin = vec![1u8, 0, 0, 0];
    bin.extend(f32_bytes(&[1.0, 2.0, 3.0]));
    let sparse = json!({
        "count": 1,
        "indices": {"bufferView": 0, "componentType": 5121},
        "values": {"bufferView": 0, "byteOffset": 4},
    });
    let mut doc: serde_json::Value =
        serde_json::from_slice(&zero_accessor_gltf(3 * 349_525, 8, Some(sparse))).unwrap();
    doc["buffers"] = json!([{"byteLength": bin.len(), "uri": data_uri(&bin)}]);
    doc["bufferViews"] = json!([{"buffer": 0, "byteLength": bin.len()}]);
    let t = Instant::now();
    let m = parse_gltf(&serde_json::to_vec(&doc).unwrap(), "sparse.gltf", None).unwrap();
    assert!(t.elapsed() < QUICK, "{:?}", t.elapsed());
    // One triangle and its three vertices per instance, not a million.
    assert_eq!(m.triangles.len(), 8);
    assert_eq!(m.positions.len(), 8 * 3);
    assert_eq!(m.groups.len(), 8);
    let [a, b, c] = m.triangles[0].map(|i| m.positions[i as usize].to_array());
    assert_eq!([a, b, c], [[0.0; 3], [1.0, 2.0, 3.0], [0.0; 3]]);
    // All triangles but one are left out.
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert!(
        m.warnings[0].contains("349524 of 349525 triangles"),
        "{:?}",
        m.warnings
    );
}

#[test]
fn gltf_declared_count_past_the_limit_is_an_error() {
    let sparse = json!({
        "count": 1,
        "indices": {"bufferView": 0, "componentType": 5121},
        "values": {"bufferView": 0, "byteOffset": 4},
    });
    let mut doc: serde_json::Value =
        serde_json::from_slice(&zero_accessor_gltf(1 << 40, 1, Some(sparse))).unwrap();
    let mut bin = vec![1u8, 0, 0, 0];
    bin.extend(f32_bytes(&[1.0, 2.0, 3.0]));
    doc["buffers"] = json!([{"byteLength": bin.len(), "uri": data_uri(&bin)}]);
    doc["bufferViews"] = json!([{"buffer": 0, "byteLength": bin.len()}]);
    let e = expect_err(
        parse_gltf(&serde_json::to_vec(&doc).unwrap(), "huge.gltf", None),
        &[
            "huge.gltf: accessors[0]: count 1099511627776",
            "16777216 vertices",
            "max_vertices",
        ],
    );
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
}

#[test]
fn gltf_instances_past_the_triangle_limit_name_the_node() {
    // One real triangle instanced on 10 nodes: 10 triangles, 30 vertices.
    let bin = f32_bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    let doc = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": bin.len(), "uri": data_uri(&bin)}],
        "bufferViews": [{"buffer": 0, "byteLength": bin.len()}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 3}],
        "meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": (0..10).map(|k| json!({"mesh": 0, "translation": [k as f32, 0.0, 0.0]}))
            .collect::<Vec<_>>(),
    });
    let bytes = serde_json::to_vec(&doc).unwrap();
    let all = parse_gltf(&bytes, "ten.gltf", None).unwrap();
    assert_eq!((all.triangles.len(), all.positions.len()), (10, 30));
    let tight = ReadOptions {
        max_triangles: 5,
        ..ReadOptions::default()
    };
    let e = expect_err(
        parse_gltf_with(&bytes, "ten.gltf", None, &tight),
        &[
            "ten.gltf: meshes[0].primitives[0]: ",
            "instance of nodes[5]",
            "limit of 5 triangles",
            "--max-triangles",
        ],
    );
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    let few = ReadOptions {
        max_vertices: 29,
        ..ReadOptions::default()
    };
    expect_err(
        parse_mesh_with(&bytes, "ten.gltf", &few),
        &["instance of nodes[9]", "limit of 29 vertices"],
    );
}

/// A star of `n` (even) vertices, alternately at radius 1 and 0.9, counter-
/// clockwise: simple, not convex (every second vertex is reflex). Its area,
/// by the shoelace formula in f64, is `n/2 · sin(2π/n) · 0.9` (n triangles
/// from the centre, each `½ · 1 · 0.9 · sin(2π/n)`).
fn star(n: usize) -> (Vec<[f64; 2]>, f64) {
    let step = std::f64::consts::TAU / n as f64;
    let pts = (0..n)
        .map(|k| {
            let r = if k % 2 == 0 { 1.0 } else { 0.9 };
            let a = k as f64 * step;
            [r * a.cos(), r * a.sin()]
        })
        .collect();
    (pts, n as f64 / 2.0 * step.sin() * 0.9)
}

/// The triangles' signed area about +z (the face normal), in f64.
fn signed_area_z(m: &peng_io::MeshData) -> f64 {
    m.triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| m.positions[i as usize].as_dvec3());
            (b - a).cross(c - a).z / 2.0
        })
        .sum()
}

#[test]
fn obj_face_of_32000_vertices_is_triangulated_quickly_and_right() {
    let n = 32_000;
    let (pts, area) = star(n);
    let mut text = String::new();
    for p in &pts {
        text += &format!("v {} {} 0\n", p[0], p[1]);
    }
    text += "f";
    for k in 1..=n {
        text += &format!(" {k}");
    }
    text += "\n";
    let t = Instant::now();
    let m = parse_obj(&text, "star.obj").unwrap();
    let took = t.elapsed();
    assert!(took < QUICK, "{took:?}");
    assert_eq!(m.triangles.len(), n - 2);
    // Every triangle keeps the face's winding and they tile the star: no
    // triangle outside it (a fan from vertex 0 would cover the notches).
    for t in &m.triangles {
        let [a, b, c] = t.map(|i| m.positions[i as usize].as_dvec3());
        assert!((b - a).cross(c - a).z > 0.0, "{t:?}");
    }
    let got = signed_area_z(&m);
    assert!((got - area).abs() < 1e-4 * area, "{got} vs {area}");
}

#[test]
fn stl_loop_of_32000_vertices_is_triangulated_quickly_and_right() {
    let n = 32_000;
    let (pts, area) = star(n);
    let mut text = String::from("solid star\nfacet normal 0 0 1\nouter loop\n");
    for p in &pts {
        text += &format!("vertex {} {} 0\n", p[0], p[1]);
    }
    text += "endloop\nendfacet\nendsolid star\n";
    let t = Instant::now();
    let m = parse_stl(text.as_bytes(), "star.stl").unwrap();
    assert!(t.elapsed() < QUICK, "{:?}", t.elapsed());
    assert_eq!(m.triangles.len(), n - 2);
    let got = signed_area_z(&m);
    assert!((got - area).abs() < 1e-4 * area, "{got} vs {area}");
}

#[test]
fn faces_past_the_face_vertex_limit_are_errors() {
    let opts = ReadOptions {
        max_face_vertices: 100,
        ..ReadOptions::default()
    };
    let mut text = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\nf");
    for k in 0..101 {
        text += &format!(" {}", k % 3 + 1);
    }
    let e = expect_err(
        parse_obj_with(&text, "big.obj", &opts),
        &[
            "big.obj: line 4: ",
            "limit of 100 vertices",
            "max_face_vertices",
        ],
    );
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    // The default limit (65,536) on a 70,000-vertex face.
    let mut text = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\nf");
    for k in 0..70_000 {
        text += &format!(" {}", k % 3 + 1);
    }
    expect_err(parse_obj(&text, "big.obj"), &["limit of 65536 vertices"]);
    let mut stl = String::from("solid s\nfacet normal 0 0 1\nouter loop\n");
    for k in 0..101 {
        stl += &format!("vertex {k} {} 0\n", k * k);
    }
    stl += "endloop\nendfacet\nendsolid s\n";
    let e = expect_err(
        parse_stl_with(stl.as_bytes(), "big.stl", &opts),
        &["big.stl: line 104: ", "limit of 100 vertices"],
    );
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
}

#[test]
fn vertex_and_triangle_limits_of_obj_and_stl() {
    let cube = std::fs::read_to_string(data("cube.obj")).unwrap();
    let m = parse_obj(&cube, "cube.obj").unwrap();
    let opts = ReadOptions {
        max_vertices: m.positions.len() - 1,
        ..ReadOptions::default()
    };
    expect_err(
        parse_obj_with(&cube, "cube.obj", &opts),
        &["cube.obj: line ", "limit of 7 vertices", "max_vertices"],
    );
    let opts = ReadOptions {
        max_triangles: m.triangles.len() - 1,
        ..ReadOptions::default()
    };
    expect_err(
        parse_obj_with(&cube, "cube.obj", &opts),
        &["cube.obj: line ", "limit of 11 triangles", "max_triangles"],
    );
    // Binary STL: the header's count is checked against the limit before
    // anything is allocated.
    let stl = binary_stl("tetra", &tetra());
    let opts = ReadOptions {
        max_triangles: 3,
        ..ReadOptions::default()
    };
    let e = expect_err(
        parse_stl_with(&stl, "t.stl", &opts),
        &["t.stl: byte 80: 4 triangles: ", "limit of 3 triangles"],
    );
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    let opts = ReadOptions {
        max_vertices: 3,
        ..ReadOptions::default()
    };
    expect_err(
        parse_stl_with(&stl, "t.stl", &opts),
        &["limit of 3 vertices"],
    );
}

#[test]
fn binary_stl_count_disagreeing_with_the_size_is_an_error_not_an_allocation() {
    // The header claims 2^32 - 1 triangles (200 GB); the file holds one.
    let mut stl = binary_stl("x", &tetra()[..1]);
    stl[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = expect_err(
        parse_stl(&stl, "liar.stl"),
        &["liar.stl: ", "4294967295 triangles", "1 complete triangles"],
    );
    assert_eq!(e.kind, ErrorKind::Truncated);
}
