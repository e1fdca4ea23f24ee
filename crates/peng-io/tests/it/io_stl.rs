//! STL reader: ASCII and binary tetrahedra, the `solid` header ambiguity, and
//! every error case.

use crate::io_support;

use glam::Vec3;
use io_support::*;
use peng_io::{parse_mesh, parse_stl, read_mesh, read_stl, ErrorKind, GroupKind, Location};

fn check_tetra(m: &peng_io::MeshData) {
    assert_eq!(m.positions.len(), 4, "12 corners weld into 4 vertices");
    assert_eq!(m.triangles.len(), 4);
    assert!(is_closed_manifold(m));
    assert!((signed_volume(m) - 1.0 / 6.0).abs() < 1e-12);
    assert_eq!(
        sorted_positions(m),
        vec![
            [0.0, 0.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0],
            [1.0, 0.0, 0.0]
        ]
    );
}

#[test]
fn ascii_tetrahedron() {
    let m = read_stl(data("tetra_ascii.stl")).unwrap();
    check_tetra(&m);
    assert_eq!(m.name.as_deref(), Some("tetra"));
    assert_eq!(m.groups.len(), 1);
    assert_eq!(m.groups[0].kind, GroupKind::Solid);
    assert_eq!(m.groups[0].triangles, 0..4);
    // Welding in order of first appearance: (0,0,0), (0,1,0), (1,0,0), (0,0,1).
    assert_eq!(m.triangles[0], [0, 1, 2]);
    assert_eq!(m.positions[3], Vec3::Z);
    assert_eq!(read_mesh(data("tetra_ascii.stl")).unwrap(), m);
}

#[test]
fn binary_tetrahedron_plain_header() {
    let bytes = binary_stl("exported by a test", &tetra());
    assert_eq!(bytes.len(), 84 + 4 * 50);
    let m = parse_stl(&bytes, "tetra.stl").unwrap();
    check_tetra(&m);
    assert_eq!(m.name, None);
    // From a file, and picked by read_mesh without the extension (size sniffing).
    let path = scratch("tetra_binary.stl");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(read_stl(&path).unwrap(), m);
    assert_eq!(parse_mesh(&bytes, "no_extension").unwrap(), m);
}

#[test]
fn binary_with_solid_header_is_read_as_binary() {
    let bytes = binary_stl("solid tetra from a careless exporter", &tetra());
    let m = parse_stl(&bytes, "solid_header.stl").unwrap();
    check_tetra(&m);
    // Even with a newline after the name, so the ASCII parser gets further.
    let bytes = binary_stl("solid tetra\n  facet normal", &tetra());
    check_tetra(&parse_stl(&bytes, "solid_header2.stl").unwrap());
    assert!(read_mesh({
        let p = scratch("solid_header.stl");
        std::fs::write(&p, &bytes).unwrap();
        p
    })
    .is_ok());
}

#[test]
fn negative_zero_welds_with_zero() {
    let mut tris = tetra();
    tris[1][0] = Vec3::new(-0.0, 0.0, -0.0);
    let m = parse_stl(&binary_stl("x", &tris), "z.stl").unwrap();
    assert_eq!(m.positions.len(), 4);
}

#[test]
fn ascii_quad_loop_and_two_solids() {
    let text = "solid a\nfacet normal nan nan nan\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n\
                vertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid a\n\
                SOLID b\nFACET NORMAL 0 0 1\nOUTER LOOP\nVERTEX 0 0 1\nVERTEX 1 0 1\nVERTEX 0 1 1\n\
                ENDLOOP\nENDFACET\nENDSOLID\n";
    let m = parse_stl(text.as_bytes(), "two.stl").unwrap();
    assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3], [4, 5, 6]]);
    let names: Vec<_> = m
        .groups
        .iter()
        .map(|g| (g.name.as_str(), g.triangles.clone()))
        .collect();
    assert_eq!(names, vec![("a", 0..2), ("b", 2..3)]);
}

fn ascii_err(text: &str) -> peng_io::ReadError {
    parse_stl(text.as_bytes(), "bad.stl").expect_err("should fail")
}

#[test]
fn ascii_errors_name_file_line_and_problem() {
    let head = "solid t\nfacet normal 0 0 1\nouter loop\n";
    let e = ascii_err(&format!(
        "{head}vertex 0 0 0\nvertex 1 x 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n"
    ));
    assert_eq!(e.kind, ErrorKind::NotANumber);
    assert_eq!(
        e.to_string(),
        "bad.stl: line 5: vertex y coordinate \"x\" is not a number"
    );
    let e = ascii_err(&format!(
        "{head}vertex 0 0 0\nvertex 1 0 inf\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n"
    ));
    assert_eq!(e.kind, ErrorKind::NonFinite);
    assert!(e
        .to_string()
        .starts_with("bad.stl: line 5: vertex z coordinate \"inf\" is not finite"));
    let e = ascii_err(&format!(
        "{head}vertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\nendsolid\n"
    ));
    assert_eq!(e.kind, ErrorKind::TooFewVertices);
    assert_eq!(
        e.to_string(),
        "bad.stl: line 3: facet loop has 2 vertices, needs at least 3"
    );
    let e = ascii_err(&format!(
        "{head}vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\n"
    ));
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert!(e
        .to_string()
        .contains("file ends where `endfacet` was expected"));
    let e = ascii_err(&format!(
        "{head}vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfaket\n"
    ));
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.location, Location::Line(8));
    assert!(e
        .to_string()
        .contains("expected `endfacet`, found \"endfaket\""));
    let e = ascii_err("solid empty\nendsolid empty\n");
    assert_eq!(e.kind, ErrorKind::Empty);
    assert_eq!(
        e.to_string(),
        "bad.stl: no facets: the mesh has no triangles"
    );
}

#[test]
fn binary_errors_name_file_offset_and_problem() {
    let full = binary_stl("bin", &tetra());
    // Cut in the middle of triangle 2.
    let e = parse_stl(&full[..84 + 2 * 50 + 20], "cut.stl").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert_eq!(e.location, Location::Byte(184));
    assert_eq!(
        e.to_string(),
        "cut.stl: byte 184: binary STL truncated: the header says 4 triangles (284 bytes), \
         the file has 204 bytes (2 complete triangles)"
    );
    let e = parse_stl(&full[..50], "short.stl").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert!(e
        .to_string()
        .contains("the header needs 84 bytes, the file has 50"));

    let mut nan = tetra();
    nan[3][2].y = f32::NAN;
    let e = parse_stl(&binary_stl("bin", &nan), "nan.stl").unwrap_err();
    assert_eq!(e.kind, ErrorKind::NonFinite);
    // Triangle 3 at 84 + 150, its vertex 2 at +12 + 24.
    assert_eq!(e.location, Location::Byte(84 + 150 + 36));
    assert!(e
        .to_string()
        .contains("triangle 3 vertex 2 has a non-finite coordinate"));

    let e = parse_stl(&binary_stl("bin", &[]), "zero.stl").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Empty);

    // A truncated binary file whose header starts with "solid": not ASCII, and
    // its control bytes show it is binary, so the binary error is reported.
    let solid = binary_stl("solid x", &tetra());
    let e = parse_stl(&solid[..200], "both.stl").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated, "{e}");
    assert!(
        e.to_string()
            .starts_with("both.stl: byte 184: binary STL truncated"),
        "{e}"
    );
    // A broken text file starting with "solid" gets the ASCII error.
    let e = parse_stl(
        b"solid x
facet normal 0 0 1
outer lop
",
        "text.stl",
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "text.stl: line 3: expected `loop`, found \"lop\""
    );
}
