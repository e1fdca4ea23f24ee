//! The reader on a small IFC4 model (millimetres): a wall with a door
//! opening, a column, and an assembly whose one part carries the geometry.
//! Its expected boxes are IfcOpenShell's.

use super::*;
use crate::element::Bounds;
use glam::DVec3;

const MODEL: &str = include_str!("test_model.ifc");
const WALL: &str = "3vB2YO$MX4xv5uCqZZG051";
const COLUMN: &str = "1kTvXnbbzCWw8lcMd1dR41";
const POST: &str = "0Fjc6Ow0b1ef8Mz8wBqLs2";
const FRAME: &str = "0Fjc6Ow0b1ef8Mz8wBqLs1";

fn load(content: &str) -> Loaded {
    parse_ifc("m.ifc", content.as_bytes()).unwrap()
}

fn ids(load: &Loaded) -> Vec<&str> {
    load.elements
        .iter()
        .map(|e| e.identity.id.as_str())
        .collect()
}

fn near(b: Bounds, min: [f64; 3], max: [f64; 3]) -> bool {
    let d = (b.min - DVec3::from(min))
        .abs()
        .max((b.max - DVec3::from(max)).abs());
    d.max_element() < 1e-5
}

fn problems(load: &Loaded) -> Vec<String> {
    load.problems.iter().map(|p| p.to_string()).collect()
}

#[test]
fn reads_elements_identities_and_openings() {
    let l = load(MODEL);
    assert!(l.problems.is_empty(), "{:?}", problems(&l));
    assert_eq!(ids(&l), [WALL, COLUMN, POST]);
    let [wall, column, post] = &l.elements[..] else {
        unreachable!()
    };
    assert_eq!(wall.identity.class, "IfcWall");
    assert_eq!(wall.identity.name, "Wall A");
    assert_eq!(wall.identity.file, "m.ifc");
    assert_eq!(wall.identity.storey.as_deref(), Some("Level 1"));
    assert_eq!(wall.identity.parent, None);
    assert!(near(wall.bounds(), [0.0, 0.0, 0.0], [4.0, 0.2, 3.0]));
    // The door opening is cut: more than a box's 12 triangles, and no
    // triangle centre lies inside the opening (x 1..2 m, z 0..2 m).
    assert!(wall.mesh().num_triangles() > 12);
    let v = wall.mesh().vertices();
    for t in wall.mesh().indices() {
        let c = wall.world_point((v[t[0] as usize] + v[t[1] as usize] + v[t[2] as usize]) / 3.0);
        assert!(
            !(c.x > 1.01 && c.x < 1.99 && c.z < 1.99),
            "triangle in the opening at {c}"
        );
    }
    assert_eq!(column.identity.class, "IfcColumn");
    assert!(near(column.bounds(), [5.85, -0.15, 0.0], [6.15, 0.15, 3.0]));
    assert!(column.is_closed());
    // The post takes the storey and the id of the assembly it is part of.
    assert_eq!(post.identity.class, "IfcMember");
    assert_eq!(post.identity.storey.as_deref(), Some("Level 1"));
    assert_eq!(post.identity.parent.as_deref(), Some(FRAME));
    assert!(near(post.bounds(), [9.95, -0.05, 0.0], [10.05, 0.05, 2.0]));
    // Hosts: the column is related as filling the wall's opening, the post
    // as covering the column (relationships only; the geometry is apart).
    assert_eq!(column.identity.fills.as_deref(), Some(WALL));
    assert_eq!(post.identity.covers.as_deref(), Some(COLUMN));
    assert_eq!(
        (
            wall.identity.fills.as_deref(),
            wall.identity.covers.as_deref()
        ),
        (None, None)
    );
}

#[test]
fn truncated_file_keeps_the_elements_before_the_cut() {
    // Cut in the middle of the column's shape record.
    let cut = MODEL.find("#62=IFCPRODUCTDEFINITIONSHAPE").unwrap() + 20;
    let l = load(&MODEL[..cut]);
    assert_eq!(ids(&l), [WALL]);
    let p = problems(&l);
    assert!(p[0].starts_with("m.ifc: the file is truncated"), "{p:?}");
    assert!(p[0].contains("the last complete record is #64"), "{p:?}");
    // The column's shape lay past the cut.
    assert!(
        p.iter()
            .any(|s| s.contains(&format!("#60 IfcColumn {COLUMN}"))),
        "{p:?}"
    );
    // Cut anywhere: never a panic, and what loads is a prefix of the model.
    for cut in (0..MODEL.len()).step_by(53) {
        match parse_ifc("m.ifc", &MODEL.as_bytes()[..cut]) {
            Ok(l) => {
                assert!(problems(&l)[0].contains("truncated"), "cut at {cut}");
                assert!([WALL, COLUMN, POST].starts_with(&ids(&l)), "cut at {cut}");
            }
            Err(e) => assert!(matches!(e, ClashError::File { .. }), "cut at {cut}: {e}"),
        }
    }
}

#[test]
fn unknown_entity_type_is_reported_and_skipped() {
    let with = MODEL.replace(
        "ENDSEC;\nEND-ISO",
        "#90=IFCFOOBAR('x',1.);\nENDSEC;\nEND-ISO",
    );
    let l = load(&with);
    assert_eq!(ids(&l), [WALL, COLUMN, POST]);
    assert_eq!(
        problems(&l),
        ["m.ifc: #90: IFCFOOBAR is not an entity of schema IFC4; 1 such record(s) ignored"]
    );
    // The column's body made of it: the column alone is left out.
    let with = with.replace("'SweptSolid',(#66)", "'SweptSolid',(#90)");
    let l = load(&with);
    assert_eq!(ids(&l), [WALL, POST]);
    let p = problems(&l);
    assert_eq!(p.len(), 2, "{p:?}");
    assert!(
        p[1].starts_with(&format!(
            "m.ifc: element #60 IfcColumn {COLUMN} \"Column\": "
        )),
        "{p:?}"
    );
}

#[test]
fn missing_entity_fails_only_its_element() {
    let l = load(&MODEL.replace("'SweptSolid',(#66)", "'SweptSolid',(#9999)"));
    assert_eq!(ids(&l), [WALL, POST]);
    let p = problems(&l);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with(&format!(
            "m.ifc: element #60 IfcColumn {COLUMN} \"Column\": "
        )),
        "{p:?}"
    );
    // A missing shape record is named as such.
    let l = load(&MODEL.replace(",#61,#62,$,$);", ",#61,#9998,$,$);"));
    assert_eq!(ids(&l), [WALL, POST]);
    assert!(problems(&l)[0].contains("#9998"), "{:?}", problems(&l));
}

#[test]
fn empty_and_foreign_files_are_file_errors() {
    let e = parse_ifc("e.ifc", b"").unwrap_err();
    assert_eq!(e.to_string(), "e.ifc: the file is empty");
    let e = parse_ifc("e.ifc", b" \n\t").unwrap_err();
    assert_eq!(e.to_string(), "e.ifc: the file is empty");
    let e = parse_ifc("cube.stl", b"solid cube\nfacet normal 0 0 1\nendsolid\n").unwrap_err();
    assert!(
        e.to_string().starts_with("cube.stl: not an IFC file"),
        "{e}"
    );
    let e = parse_ifc("x.ifc", &[0xff, 0xfe, 0x00, 0x01]).unwrap_err();
    assert!(e.to_string().starts_with("x.ifc: not an IFC file"), "{e}");
    let e = read_ifc(Path::new("/nonexistent/model.ifc")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("/nonexistent/model.ifc: cannot read the file"),
        "{e}"
    );
    // A header with no data: no elements, no problem.
    let l = load("ISO-10303-21;\nHEADER;\nFILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n");
    assert!(l.elements.is_empty() && l.problems.is_empty());
}

/// Random cuts, deletions, insertions and copies of the model's bytes (a
/// fixed xorshift stream): the reader returns, it never panics.
#[test]
fn corrupted_content_never_panics() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    const NOISE: &[u8] = b"#();,'$*.=0123456789E-";
    for _ in 0..400 {
        let mut m = MODEL.as_bytes().to_vec();
        for _ in 0..1 + next() % 4 {
            let at = next() % m.len();
            match next() % 4 {
                0 => drop(m.drain(at..(at + next() % 40).min(m.len()))),
                1 => m[at] = NOISE[next() % NOISE.len()],
                2 => m.insert(at, NOISE[next() % NOISE.len()]),
                _ => {
                    let from = next() % m.len();
                    let piece = m[from..(from + next() % 30).min(m.len())].to_vec();
                    m.splice(at..at, piece);
                }
            }
            if m.is_empty() {
                break;
            }
        }
        let _ = parse_ifc("f.ifc", &m);
    }
}

#[test]
fn unreadable_element_record_fails_only_itself() {
    let l = load(&MODEL.replace("#61,#62,$,$);", "#61,#62,$,@@);"));
    assert_eq!(ids(&l), [WALL, POST]);
    let p = problems(&l);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with("m.ifc: element #60 IfcColumn: unreadable record: "),
        "{p:?}"
    );
}

#[test]
fn far_from_the_origin_keeps_sub_millimetre_precision() {
    // The site 2 500 km east, 1 200 km north, 400 m up (millimetres).
    let far = MODEL.replace(
        "#31=IFCLOCALPLACEMENT($,#21);",
        "#31=IFCLOCALPLACEMENT($,#25);\n#25=IFCAXIS2PLACEMENT3D(#26,$,$);\n#26=IFCCARTESIANPOINT((2.5E9,1.2E9,4.E5));",
    );
    let l = load(&far);
    assert!(l.problems.is_empty(), "{:?}", problems(&l));
    let shift = DVec3::new(2.5e6, 1.2e6, 400.0);
    let column = &l.elements[1];
    let b = column.bounds();
    let (min, max) = (b.min - shift, b.max - shift);
    assert!(
        (min - DVec3::new(5.85, -0.15, 0.0)).abs().max_element() < 1e-6,
        "{min}"
    );
    assert!(
        (max - DVec3::new(6.15, 0.15, 3.0)).abs().max_element() < 1e-6,
        "{max}"
    );
    // The vertices are small: they are relative to the element's origin.
    assert!(column
        .mesh()
        .vertices()
        .iter()
        .all(|v| v.abs().max_element() < 2.0));
    // The wall's opening is cut there as near the origin.
    let near = load(MODEL);
    assert_eq!(
        l.elements[0].mesh().num_triangles(),
        near.elements[0].mesh().num_triangles()
    );
}
