//! glTF / GLB reader: the embedded and external fixtures, a GLB built from
//! bytes exercising strides, offsets, sparse data, strips, fans, mirrors and
//! the node hierarchy, and every error case.

use crate::io_support;

use glam::Vec3;
use io_support::*;
use peng_io::{parse_gltf, parse_mesh, read_gltf, read_mesh, ErrorKind, GroupKind, Location};
use serde_json::json;

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-5
}

#[test]
fn embedded_buffer_with_node_hierarchy() {
    let m = read_gltf(data("tetra_embedded.gltf")).unwrap();
    assert_eq!(m.positions.len(), 4);
    assert_eq!(m.triangles.len(), 4);
    // world = T(10,0,0) · Rz(90°) · S(2): x -> 2y, y -> -2x, then +10 in x.
    let want = [
        Vec3::new(10.0, 0.0, 0.0),
        Vec3::new(10.0, 2.0, 0.0),
        Vec3::new(8.0, 0.0, 0.0),
        Vec3::new(10.0, 0.0, 2.0),
    ];
    for (p, w) in m.positions.iter().zip(want) {
        assert!(close(*p, w), "{p} != {w}");
    }
    assert_eq!(
        m.triangles,
        vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
    );
    assert!((signed_volume(&m) - 8.0 / 6.0).abs() < 1e-5);
    assert_eq!(m.name.as_deref(), Some("tetra scene"));
    assert_eq!(m.groups.len(), 1);
    assert_eq!(m.groups[0].name, "child");
    assert_eq!(m.groups[0].kind, GroupKind::Mesh);
    assert_eq!(read_mesh(data("tetra_embedded.gltf")).unwrap(), m);
    // From memory: embedded buffers need no base directory.
    let bytes = std::fs::read(data("tetra_embedded.gltf")).unwrap();
    assert_eq!(parse_mesh(&bytes, "memory").unwrap(), m);
}

#[test]
fn external_buffer_and_matrix() {
    let m = read_mesh(data("tetra_external.gltf")).unwrap();
    assert_eq!(m.positions.len(), 12, "unindexed: one vertex per corner");
    assert_eq!(m.triangles.len(), 4);
    assert_eq!(m.triangles[3], [9, 10, 11]);
    assert_eq!(m.positions[11], Vec3::new(0.0, 0.0, 6.0)); // (0,0,1) + (0,0,5)
    assert!((signed_volume(&m) - 1.0 / 6.0).abs() < 1e-5);
    assert_eq!(m.groups[0].name, "moved");

    let bytes = std::fs::read(data("tetra_external.gltf")).unwrap();
    let e = expect_err(
        parse_gltf(&bytes, "mem.gltf", None),
        &[
            "mem.gltf: buffers[0]: external buffer \"tetra data.bin\"",
            "no base directory",
        ],
    );
    assert_eq!(e.kind, ErrorKind::Io);
}

#[test]
fn missing_external_buffer() {
    let e = expect_err(
        read_gltf(data("missing_bin.gltf")),
        &[
            "missing_bin.gltf: buffers[0]: external buffer",
            "missing.bin",
            "is missing or unreadable",
        ],
    );
    assert_eq!(e.kind, ErrorKind::Io);
    assert_eq!(e.location, Location::Element("buffers[0]".into()));
}

/// The BIN chunk of the GLB test: see `glb_document`.
fn glb_bin() -> Vec<u8> {
    let mut bin = Vec::new();
    // bufferView 0, stride 16: four positions, each followed by NaN padding
    // that a reader ignoring the stride would pick up.
    for p in [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ] {
        bin.extend(f32_bytes(&p));
        bin.extend(f32::NAN.to_le_bytes());
    }
    bin.extend([0u8, 1, 2, 3]); // bufferView 1 at 64: u8 strip indices
    bin.extend([2u8, 0, 0, 0]); // bufferView 2 at 68: u16 sparse index 2, padded
    bin.extend(f32_bytes(&[0.0, 2.0, 0.0])); // bufferView 3 at 72: sparse value
    bin
}

fn glb_document() -> serde_json::Value {
    json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": 84}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 64, "byteStride": 16},
            {"buffer": 0, "byteOffset": 64, "byteLength": 4},
            {"buffer": 0, "byteOffset": 68, "byteLength": 2},
            {"buffer": 0, "byteOffset": 72, "byteLength": 12}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5121, "count": 4, "type": "SCALAR"},
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
             "sparse": {"count": 1,
                        "indices": {"bufferView": 2, "componentType": 5123},
                        "values": {"bufferView": 3}}},
            {"bufferView": 0, "byteOffset": 16, "componentType": 5126, "count": 3, "type": "VEC3"}
        ],
        "meshes": [
            {"name": "strip", "primitives": [
                {"attributes": {"POSITION": 0}, "indices": 1, "mode": 5},
                {"attributes": {"POSITION": 0}, "mode": 0}
            ]},
            {"name": "fan", "primitives": [{"attributes": {"POSITION": 2}, "mode": 6}]},
            {"primitives": [{"attributes": {"POSITION": 3}}]}
        ],
        "nodes": [
            {"name": "root", "translation": [0, 0, 1], "children": [1]},
            {"name": "strip node", "mesh": 0, "children": [2]},
            {"name": "mirror", "mesh": 1,
             "matrix": [-1, 0, 0, 0,  0, 1, 0, 0,  0, 0, 1, 0,  5, 0, 0, 1]},
            {"mesh": 2, "translation": [0, 0, -3]}
        ]
    })
}

#[test]
fn glb_strides_sparse_strips_fans_mirrors() {
    let bytes = glb(&glb_document().to_string(), Some(&glb_bin()));
    let m = parse_gltf(&bytes, "built.glb", None).unwrap();
    let v = |x, y, z| Vec3::new(x, y, z);
    let want = vec![
        // strip node: T(0,0,1)
        v(0.0, 0.0, 1.0),
        v(1.0, 0.0, 1.0),
        v(0.0, 1.0, 1.0),
        v(1.0, 1.0, 1.0),
        // mirror: T(0,0,1) · (x -> 5 - x), vertex 2 replaced by (0,2,0)
        v(5.0, 0.0, 1.0),
        v(4.0, 0.0, 1.0),
        v(5.0, 2.0, 1.0),
        v(4.0, 1.0, 1.0),
        // unnamed root node 3: byteOffset 16 skips vertex 0; T(0,0,-3)
        v(1.0, 0.0, -3.0),
        v(0.0, 1.0, -3.0),
        v(1.0, 1.0, -3.0),
    ];
    assert_eq!(m.positions, want);
    assert_eq!(
        m.triangles,
        vec![
            [0, 1, 2], // strip i = 0
            [1, 3, 2], // strip i = 1, order swapped to keep the winding
            [5, 4, 6], // fan (1,2,0) reversed by the mirror
            [6, 4, 7], // fan (2,3,0) reversed by the mirror
            [8, 9, 10],
        ]
    );
    let groups: Vec<_> = m
        .groups
        .iter()
        .map(|g| (g.name.as_str(), g.triangles.clone()))
        .collect();
    assert_eq!(
        groups,
        vec![("strip node", 0..2), ("mirror", 2..4), ("nodes[3]", 4..5)]
    );
    // The mirrored fan triangle (1,2,0) faced +z locally and still does.
    let [a, b, c] = m.triangles[2].map(|i| m.positions[i as usize]);
    assert!((b - a).cross(c - a).z > 0.0);
    // read_mesh on a file sniffs GLB by its magic, whatever the extension.
    let path = scratch("built.bin.whatever");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(read_mesh(&path).unwrap().positions, want);
}

#[test]
fn default_scene_selects_roots() {
    let mut doc = glb_document();
    doc["scenes"] = json!([{"nodes": [3]}, {"nodes": [0]}]);
    doc["scene"] = json!(1);
    let m = parse_gltf(&glb(&doc.to_string(), Some(&glb_bin())), "s.glb", None).unwrap();
    assert_eq!(m.triangles.len(), 4);
    assert_eq!(m.positions.len(), 8);
}

#[test]
fn file_without_nodes_gives_every_mesh_untransformed() {
    let mut doc = glb_document();
    doc.as_object_mut().unwrap().remove("nodes");
    let m = parse_gltf(&glb(&doc.to_string(), Some(&glb_bin())), "n.glb", None).unwrap();
    assert_eq!(m.triangles.len(), 5);
    assert_eq!(m.positions[0], Vec3::ZERO);
    let names: Vec<_> = m.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, vec!["strip", "fan", "meshes[2]"]);
}

// ----- errors -----------------------------------------------------------

/// A one-triangle document with an embedded buffer: 3 positions, then u16
/// indices 0 1 2 (padded).
fn tri_doc() -> serde_json::Value {
    let mut bin = f32_bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    bin.extend([0u8, 0, 1, 0, 2, 0, 0, 0]);
    json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": 44, "uri": data_uri(&bin)}],
        "bufferViews": [
            {"buffer": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 6}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "nodes": [{"mesh": 0}]
    })
}

fn gltf_err(doc: &serde_json::Value, parts: &[&str]) -> peng_io::ReadError {
    expect_err(
        parse_gltf(doc.to_string().as_bytes(), "t.gltf", None),
        parts,
    )
}

#[test]
fn the_error_fixture_itself_is_valid() {
    let m = parse_gltf(tri_doc().to_string().as_bytes(), "t.gltf", None).unwrap();
    assert_eq!(m.triangles, vec![[0, 1, 2]]);
}

/// Data URIs decode with or without their `=` padding; bad base64 is a
/// syntax error naming the character where it goes wrong.
#[test]
fn base64_data_uris() {
    let mut d = tri_doc();
    let uri = d["buffers"][0]["uri"].as_str().unwrap().to_string();
    assert!(uri.ends_with('='), "{uri}");
    d["buffers"][0]["uri"] = json!(uri.trim_end_matches('='));
    let m = parse_gltf(d.to_string().as_bytes(), "t.gltf", None).unwrap();
    assert_eq!(m.triangles, vec![[0, 1, 2]]);

    let cases = [
        (
            "Zm=v",
            "invalid base64 at character 2 of the data: '=' before the end",
        ),
        (
            "Zm9vY",
            "invalid base64: the data ends with a lone character (at character 4)",
        ),
        (
            "Zm9=",
            "invalid base64 at character 2 of the data: '9' has bits beyond the end",
        ),
    ];
    for (data, want) in cases {
        let mut d = tri_doc();
        d["buffers"][0]["uri"] = json!(format!("data:application/octet-stream;base64,{data}"));
        let e = gltf_err(&d, &["t.gltf: buffers[0].uri: ", want]);
        assert_eq!(e.kind, ErrorKind::Syntax, "{data}");
    }
}

#[test]
fn gltf_errors_name_file_element_and_problem() {
    let mut d = tri_doc();
    d["accessors"][0]["count"] = json!(4);
    let e = gltf_err(
        &d,
        &[
            "t.gltf: accessors[0]: buffer too short",
            "need 48 bytes, bufferViews[0] has 36",
        ],
    );
    assert_eq!(e.kind, ErrorKind::OutOfBounds);

    let mut d = tri_doc();
    d["accessors"][1]["componentType"] = json!(5126);
    d["accessors"][1]["count"] = json!(1);
    let e = gltf_err(
        &d,
        &["t.gltf: accessors[1]: unsupported componentType 5126 (FLOAT) for indices"],
    );
    assert_eq!(e.kind, ErrorKind::Unsupported);

    let mut d = tri_doc();
    d["accessors"][0]["count"] = json!(2);
    let e = gltf_err(&d, &["t.gltf: meshes[0].primitives[0]: index 2 (entry 2 of accessors[1]) is out of range: POSITION has 2 vertices"]);
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);

    let mut d = tri_doc();
    d["bufferViews"][0]["byteOffset"] = json!(20);
    let e = gltf_err(
        &d,
        &["t.gltf: bufferViews[0]: byteOffset 20 + byteLength 36 exceeds buffers[0] (44 bytes)"],
    );
    assert_eq!(e.kind, ErrorKind::OutOfBounds);

    let mut d = tri_doc();
    d["buffers"][0]["byteLength"] = json!(100);
    gltf_err(
        &d,
        &["t.gltf: buffers[0]: byteLength is 100, but the data has only 44 bytes"],
    );

    let mut d = tri_doc();
    d["buffers"][0]["uri"] = json!("data:application/octet-stream;base64,AAA*");
    let e = gltf_err(
        &d,
        &["t.gltf: buffers[0].uri: invalid base64 at character 3 of the data: '*' is not a base64 character"],
    );
    assert_eq!(e.kind, ErrorKind::Syntax);

    let mut d = tri_doc();
    d["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(7);
    let e = gltf_err(&d, &["t.gltf: meshes[0].primitives[0].attributes.POSITION: refers to accessors[7], but the file has 2 accessors"]);
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);

    let mut d = tri_doc();
    d["meshes"][0]["primitives"][0]["attributes"] = json!({"NORMAL": 0});
    gltf_err(
        &d,
        &["t.gltf: meshes[0].primitives[0]: has no POSITION attribute"],
    );

    let mut d = tri_doc();
    d["meshes"][0]["primitives"][0]["mode"] = json!(9);
    gltf_err(
        &d,
        &["t.gltf: meshes[0].primitives[0].mode: unknown primitive mode 9"],
    );

    let mut d = tri_doc();
    d["meshes"][0]["primitives"][0]["mode"] = json!(1);
    let e = gltf_err(
        &d,
        &["t.gltf: no triangles", "1 point/line primitives skipped"],
    );
    assert_eq!(e.kind, ErrorKind::Empty);

    let mut d = tri_doc();
    d["accessors"][1]["count"] = json!(2);
    gltf_err(&d, &["t.gltf: meshes[0].primitives[0]: TRIANGLES primitive has 2 vertices, not a multiple of 3"]);

    let mut d = tri_doc();
    d["accessors"][0]["type"] = json!("VEC2");
    gltf_err(
        &d,
        &["t.gltf: accessors[0]: type is \"VEC2\", expected \"VEC3\""],
    );

    let mut d = tri_doc();
    d["accessors"][0]["componentType"] = json!(1234);
    let e = gltf_err(&d, &["t.gltf: accessors[0]: unknown componentType 1234"]);
    assert_eq!(e.kind, ErrorKind::Unsupported);

    let mut d = tri_doc();
    d["accessors"][0]["count"] = json!("three");
    gltf_err(
        &d,
        &["t.gltf: accessors[0].count: expected a non-negative integer, found \"three\""],
    );

    let mut d = tri_doc();
    d["nodes"] = json!([{"mesh": 0, "children": [1]}, {"children": [0]}]);
    d["scene"] = json!(0);
    d["scenes"] = json!([{"nodes": [0]}]);
    let e = gltf_err(
        &d,
        &[
            "t.gltf: nodes[0]: reached twice (from nodes[1].children)",
            "tree without cycles",
        ],
    );
    assert_eq!(e.kind, ErrorKind::Invalid);

    let mut d = tri_doc();
    d["nodes"][0]["rotation"] = json!([0, 0, 0, 0]);
    gltf_err(
        &d,
        &["t.gltf: nodes[0].rotation: rotation [0.0, 0.0, 0.0, 0.0] is not a unit quaternion"],
    );

    let mut d = tri_doc();
    d["nodes"][0]["translation"] = json!([0, 1e39, 0]);
    let e = gltf_err(&d, &["t.gltf: nodes[0].translation[1]:", "is not finite"]);
    assert_eq!(e.kind, ErrorKind::NonFinite);

    let mut d = tri_doc();
    d["extensionsRequired"] = json!(["KHR_draco_mesh_compression"]);
    gltf_err(
        &d,
        &["t.gltf: extensionsRequired[0]: required extension KHR_draco_mesh_compression"],
    );

    let mut d = tri_doc();
    d["asset"]["version"] = json!("1.0");
    gltf_err(
        &d,
        &["t.gltf: asset.version: glTF version \"1.0\" is not supported"],
    );

    let e = expect_err(
        parse_gltf(
            b"{\n  \"asset\": {\n  \"version\": 2.0,,\n}",
            "broken.gltf",
            None,
        ),
        &["broken.gltf: line 3: invalid JSON at column"],
    );
    assert_eq!(e.kind, ErrorKind::Syntax);
}

#[test]
fn nan_position_is_reported_with_its_element() {
    let mut bin = f32_bytes(&[0.0, 0.0, 0.0, 1.0, f32::INFINITY, 0.0, 0.0, 1.0, 0.0]);
    bin.extend([0u8; 8]);
    let mut d = tri_doc();
    d["buffers"][0]["uri"] = json!(data_uri(&bin));
    let e = gltf_err(&d, &["t.gltf: accessors[0]: element 1 is not finite"]);
    assert_eq!(e.kind, ErrorKind::NonFinite);
}

#[test]
fn glb_header_errors_name_byte_offsets() {
    let good = glb(&glb_document().to_string(), Some(&glb_bin()));

    let mut b = good.clone();
    b[0] = b'x';
    let e = expect_err(
        parse_gltf(&b, "m.glb", None),
        &["m.glb: byte 0: bad GLB magic"],
    );
    assert_eq!(e.kind, ErrorKind::BadHeader);

    let mut b = good.clone();
    b[4] = 1;
    expect_err(
        parse_gltf(&b, "m.glb", None),
        &["m.glb: byte 4: unsupported GLB version 1 (only version 2 is read)"],
    );

    let e = expect_err(
        parse_gltf(&good[..good.len() - 8], "m.glb", None),
        &["m.glb: byte 8: GLB truncated: the header says"],
    );
    assert_eq!(e.kind, ErrorKind::Truncated);

    // JSON chunk length larger than the file.
    let mut b = good.clone();
    b[12..16].copy_from_slice(&100_000u32.to_le_bytes());
    expect_err(
        parse_gltf(&b, "m.glb", None),
        &["m.glb: byte 12: chunk 0 length 100000 exceeds the"],
    );

    // First chunk of type BIN.
    let mut b = good.clone();
    b[16..20].copy_from_slice(&0x004E_4942u32.to_le_bytes());
    expect_err(
        parse_gltf(&b, "m.glb", None),
        &["m.glb: byte 16: first chunk has type 0x004e4942, expected JSON"],
    );

    // A GLB whose buffer expects a BIN chunk that is not there.
    let b = glb(&glb_document().to_string(), None);
    expect_err(
        parse_gltf(&b, "m.glb", None),
        &["m.glb: buffers[0]: has no uri and the file has no GLB BIN chunk"],
    );

    // Broken JSON inside a GLB.
    let b = glb("{\"asset\": ", Some(&glb_bin()));
    expect_err(
        parse_gltf(&b, "m.glb", None),
        &["m.glb: JSON chunk: invalid JSON at line 1"],
    );

    // A BIN chunk shorter than the buffer's byteLength.
    let b = glb(&glb_document().to_string(), Some(&glb_bin()[..40]));
    let e = expect_err(
        parse_gltf(&b, "m.glb", None),
        &["m.glb: buffers[0]: byteLength is 84, but the data has only 40 bytes"],
    );
    assert_eq!(e.kind, ErrorKind::OutOfBounds);
}

#[test]
fn unknown_format_is_reported() {
    let e = expect_err(
        parse_mesh(b"hello world", "x.dat"),
        &["x.dat: unknown mesh format"],
    );
    assert_eq!(e.kind, ErrorKind::UnknownFormat);
}

#[test]
fn quantized_normalized_short_positions() {
    // KHR_mesh_quantization: SHORT normalized VEC3, stride 8 (4-byte aligned).
    let mut bin = Vec::new();
    for p in [[0i16, 0, 0], [32767, 0, 0], [0, -32767, 0], [0, 0, -32768]] {
        for c in p {
            bin.extend(c.to_le_bytes());
        }
        bin.extend([0u8, 0]);
    }
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_mesh_quantization"],
        "extensionsRequired": ["KHR_mesh_quantization"],
        "buffers": [{"byteLength": 32, "uri": data_uri(&bin)}],
        "bufferViews": [{"buffer": 0, "byteLength": 32, "byteStride": 8}],
        "accessors": [{"bufferView": 0, "componentType": 5122, "normalized": true,
                       "count": 4, "type": "VEC3"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "mode": 6}]}]
    });
    let m = parse_gltf(doc.to_string().as_bytes(), "q.gltf", None).unwrap();
    // -32768 maps to -1 like -32767 (section 3.11: max(c / 32767, -1)).
    assert_eq!(m.positions, vec![Vec3::ZERO, Vec3::X, -Vec3::Y, -Vec3::Z]);
    assert_eq!(m.triangles, vec![[1, 2, 0], [2, 3, 0]]);
}
