//! OBJ reader: the cube fixture and every error case.

use crate::io_support;

use glam::Vec3;
use io_support::*;
use peng_io::{parse_obj, read_mesh, read_obj, ErrorKind, GroupKind, Location};

#[test]
fn cube_with_quads_negative_indices_and_groups() {
    let m = read_obj(data("cube.obj")).unwrap();
    assert_eq!(m.positions.len(), 8);
    assert_eq!(m.triangles.len(), 12);
    assert_eq!(m.positions[1], Vec3::new(1.0, 0.0, 0.0)); // w ignored
    assert_eq!(m.positions[4], Vec3::new(0.0, 0.0, 1.0)); // colour ignored
    assert!(is_closed_manifold(&m));
    assert!((signed_volume(&m) - 1.0).abs() < 1e-12);
    // Negative indices: `f -8 -4 -1 -5` after 8 vertices is the x = 0 face.
    assert_eq!(m.triangles[4], [0, 4, 7]);
    assert_eq!(m.triangles[5], [0, 7, 3]);
    let groups: Vec<_> = m
        .groups
        .iter()
        .map(|g| (g.name.as_str(), g.kind, g.triangles.clone()))
        .collect();
    assert_eq!(
        groups,
        vec![
            ("cube", GroupKind::Object, 0..12),
            ("lower sides", GroupKind::Group, 0..6),
            ("upper", GroupKind::Group, 6..12),
        ]
    );
    // read_mesh picks OBJ by extension and gives the same mesh.
    assert_eq!(read_mesh(data("cube.obj")).unwrap(), m);
}

#[test]
fn non_convex_face_is_ear_clipped() {
    // An L-shaped face (area 3) starting at a vertex from which a fan would
    // produce a flipped triangle.
    let text = "v 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\nv 0 0 0\nv 2 0 0\nf 1 2 3 4 5 6\n";
    let m = parse_obj(text, "l.obj").unwrap();
    assert_eq!(m.triangles.len(), 4);
    let mut area = 0.0;
    for t in &m.triangles {
        let [a, b, c] = t.map(|i| m.positions[i as usize]);
        let z = (b - a).cross(c - a).z;
        assert!(z > 0.0, "triangle {t:?} is flipped");
        area += z / 2.0;
    }
    assert!((area - 3.0).abs() < 1e-6);
}

#[test]
fn relative_indices_count_from_the_latest_vertex() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 0 0 1\nf -4 -2 -1\n";
    let m = parse_obj(text, "rel.obj").unwrap();
    assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3]]);
    assert!(m.groups.is_empty());
}

#[test]
fn crlf_comments_and_blank_lines() {
    let text = "# c\r\n\r\nv 0 0 0 # origin\r\nv 1 0 0\r\nv 0 1 0\r\n\r\nf 1 2 3\r\n";
    let m = parse_obj(text, "crlf.obj").unwrap();
    assert_eq!(m.triangles, vec![[0, 1, 2]]);
}

fn err(text: &str) -> peng_io::ReadError {
    parse_obj(text, "bad.obj").expect_err("should fail")
}

#[test]
fn errors_name_file_line_and_problem() {
    let tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    let e = err(&format!("{tri}f 1 2 4\n"));
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);
    assert_eq!(e.location, Location::Line(4));
    assert!(e
        .to_string()
        .starts_with("bad.obj: line 4: face vertex index 4 out of range"));
    assert!(e.to_string().contains("3 vertices defined so far"));

    let e = err(&format!("{tri}f 1 -4 2\n"));
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);
    assert!(e.to_string().contains("index -4 out of range"));

    let e = err(&format!("{tri}f 0 1 2\n"));
    assert_eq!(e.kind, ErrorKind::IndexOutOfRange);

    let e = err(&format!("{tri}\n\nf 1 2\n"));
    assert_eq!(e.kind, ErrorKind::TooFewVertices);
    assert_eq!(
        e.to_string(),
        "bad.obj: line 6: face has 2 vertices, needs at least 3"
    );

    let e = err("v 0 0 0\nv 1 zero 0\n");
    assert_eq!(e.kind, ErrorKind::NotANumber);
    assert_eq!(
        e.to_string(),
        "bad.obj: line 2: vertex y coordinate \"zero\" is not a number"
    );

    let e = err("v 0 0 nan\n");
    assert_eq!(e.kind, ErrorKind::NonFinite);
    assert!(e
        .to_string()
        .starts_with("bad.obj: line 1: vertex z coordinate \"nan\" is not finite"));
    let e = err("v 1e39 0 0\n");
    assert_eq!(e.kind, ErrorKind::NonFinite);

    let e = err("v 0 0\n");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.to_string().contains("line 1: vertex has no z coordinate"));

    let e = err(&format!("{tri}f 1/x 2 3\n"));
    assert_eq!(e.kind, ErrorKind::NotANumber);
    assert!(e
        .to_string()
        .contains("line 4: face vertex \"1/x\": texture index"));

    let e = err(&format!("{tri}f a 2 3\n"));
    assert!(e
        .to_string()
        .contains("position index \"a\" is not an integer"));

    // A continued statement reports the line it starts on.
    let e = err(&format!("{tri}f 1 \\\n 2 \\\n 9\n"));
    assert_eq!(e.location, Location::Line(4));

    let e = err(&format!("# only vertices\n{tri}"));
    assert_eq!(e.kind, ErrorKind::Empty);
    assert_eq!(
        e.to_string(),
        "bad.obj: no faces: the mesh has no triangles (3 vertices)"
    );
}

#[test]
fn missing_file_names_it() {
    let e = expect_err(
        read_obj(data("no_such_file.obj")),
        &["no_such_file.obj", "cannot read file"],
    );
    assert_eq!(e.kind, ErrorKind::Io);
    assert!(std::error::Error::source(&e).is_some());
}

#[test]
fn byte_order_mark_is_skipped() {
    let m = parse_obj("\u{feff}v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "bom.obj").unwrap();
    assert_eq!(m.positions.len(), 3);
    let m = peng_io::parse_stl(
        b"\xEF\xBB\xBFsolid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n\
          vertex 0 1 0\nendloop\nendfacet\nendsolid s\n",
        "bom.stl",
    )
    .unwrap();
    assert_eq!(m.triangles, vec![[0, 1, 2]]);
}
