//! The bundled example model: a small generated storey with clashes
//! planted on purpose, what `peng clash` runs when it is given no files, and
//! a fixture for tests.

use crate::element::{Element, Identity};
use crate::solid::Solid;
use glam::{DQuat, DVec3};

/// The storey every example element is on.
const EXAMPLE_STOREY: &str = "Level 1";

/// The file name every example element names.
const EXAMPLE_FILE: &str = "example-storey";

/// The example storey: 20 elements, the same every call, generated (no
/// files).
///
/// One storey ("Level 1") of 12 m × 8 m, 3 m floor to ceiling, built from
/// boxes and bars in metres (the floor slab's top at z = 0):
///
/// - floor and ceiling slabs, four outer walls (0.2 m) and two inner walls
///   (0.15 m), five columns (0.3 m square), two beams (0.3 × 0.4 m) under the
///   ceiling, three round pipes (12-sided bars) and two square ducts;
/// - every element that is not meant to clash keeps at least 0.1 m from every
///   other (walls and columns stand 0.1 m above the floor and below the
///   beams and the ceiling, walls stop 0.1 m short of each other), so a
///   clearance test at 5 cm finds only the planted cases;
/// - identities as an IFC file would give them: classes `IfcSlab`, `IfcWall`,
///   `IfcColumn`, `IfcBeam`, `IfcPipeSegment`, `IfcDuctSegment`, names as
///   below, storey "Level 1", file "example-storey", and made-up 22-character
///   GlobalIds hashed from the names (the same in every run).
///
/// The planted cases, pairs as a test of the model against itself lists
/// them (A: the element earlier in the model):
///
/// | pair | what | hard (2 mm), collision | touching | clearance 5 cm | duplicate 1 mm |
/// |---|---|---|---|---|---|
/// | Floor slab – Wall S | the wall stands on the slab | – | touch | touch | – |
/// | Wall E – Duct D1 | the duct's end is 0.1 m into the wall | protrusion | protrusion | protrusion | – |
/// | Column C3 – Column C3 (copy) | the column is modelled twice | protrusion | protrusion | protrusion | duplicate |
/// | Beam B1 – Pipe P1 | the pipe runs through the beam | pierce | pierce | pierce | – |
/// | Beam B2 – Pipe P2 | the pipe passes 2 cm under the beam | – | – | clearance | – |
/// | Pipe P3 – Duct D1 | the pipe runs inside the duct | containment | containment | containment | – |
///
/// (Modes: [`crate::Mode::INTERSECTION`], [`crate::Mode::COLLISION`],
/// [`crate::Mode::TOUCHING`], `Clearance { distance: 0.05 }`,
/// `Duplicate { tolerance: 0.001 }`.)
pub fn example_model() -> Vec<Element> {
    let mut m = Model::default();
    let p = DVec3::new;

    // Slabs: the floor's top at 0, the ceiling's underside at 3.
    m.add(
        "IfcSlab",
        "Floor slab",
        cuboid(p(0.0, 0.0, -0.25), p(12.0, 8.0, 0.0)),
    );
    m.add(
        "IfcSlab",
        "Ceiling slab",
        cuboid(p(0.0, 0.0, 3.0), p(12.0, 8.0, 3.25)),
    );

    // Outer walls, 0.1 m clear of the slabs and of each other, except the
    // south wall, which stands on the floor slab (a touch, no clash). Its
    // height, 2.875 m, is exact in binary, like the slab's coordinates, so
    // the two f32 meshes meet exactly (with 2.9 m, rounding sinks the wall
    // 0.1 µm into the slab: a clearance test, which measures touches at zero
    // tolerance, then calls it a protrusion).
    m.add(
        "IfcWall",
        "Wall S",
        cuboid(p(0.0, 0.0, 0.0), p(12.0, 0.2, 2.875)),
    );
    m.add(
        "IfcWall",
        "Wall N",
        cuboid(p(0.0, 7.8, 0.1), p(12.0, 8.0, 2.9)),
    );
    m.add(
        "IfcWall",
        "Wall W",
        cuboid(p(0.0, 0.3, 0.1), p(0.2, 7.7, 2.9)),
    );
    m.add(
        "IfcWall",
        "Wall E",
        cuboid(p(11.8, 0.3, 0.1), p(12.0, 7.7, 2.9)),
    );
    m.add(
        "IfcWall",
        "Wall inner 1",
        cuboid(p(6.0, 0.3, 0.1), p(6.15, 4.0, 2.9)),
    );
    m.add(
        "IfcWall",
        "Wall inner 2",
        cuboid(p(6.25, 4.0, 0.1), p(11.7, 4.15, 2.9)),
    );

    // Columns up to 0.1 m under the beams; C3 is modelled twice.
    let column = |x: f64, y: f64| cuboid(p(x - 0.15, y - 0.15, 0.1), p(x + 0.15, y + 0.15, 2.4));
    m.add("IfcColumn", "Column C1", column(3.0, 2.5));
    m.add("IfcColumn", "Column C2", column(3.0, 5.5));
    m.add("IfcColumn", "Column C3", column(9.0, 6.0));
    m.add("IfcColumn", "Column C3 (copy)", column(9.0, 6.0));
    m.add("IfcColumn", "Column C4", column(9.0, 3.0));

    // Beams 0.1 m under the ceiling: B1 over C1 and C2, B2 over C3.
    m.add(
        "IfcBeam",
        "Beam B1",
        cuboid(p(2.85, 1.0, 2.5), p(3.15, 7.0, 2.9)),
    );
    m.add(
        "IfcBeam",
        "Beam B2",
        cuboid(p(7.0, 5.85, 2.5), p(11.0, 6.15, 2.9)),
    );

    // P1 runs through beam B1; P2 passes with its top 2 cm under beam B2;
    // P3 runs inside duct D1.
    let pipe = |from: DVec3, to: DVec3| Solid::bar(from, to, 0.05, 12);
    m.add(
        "IfcPipeSegment",
        "Pipe P1",
        pipe(p(1.0, 2.0, 2.7), p(5.0, 2.0, 2.7)),
    );
    let p2 = pipe(p(9.5, 5.0, 0.0), p(9.5, 7.0, 0.0));
    m.add("IfcPipeSegment", "Pipe P2", top_at(p2, 2.5 - 0.02));
    m.add(
        "IfcPipeSegment",
        "Pipe P3",
        pipe(p(7.5, 2.0, 2.0), p(11.0, 2.0, 2.0)),
    );

    // D1 ends 0.1 m into the east wall (0.2 m thick); D2 keeps clear.
    m.add(
        "IfcDuctSegment",
        "Duct D1",
        duct(p(7.0, 2.0, 2.0), p(11.9, 2.0, 2.0), 0.4),
    );
    m.add(
        "IfcDuctSegment",
        "Duct D2",
        duct(p(1.0, 1.0, 1.5), p(1.0, 6.5, 1.5), 0.3),
    );

    m.elements
}

#[derive(Default)]
struct Model {
    elements: Vec<Element>,
}

impl Model {
    fn add(&mut self, class: &str, name: &str, solid: Solid) {
        let identity = Identity {
            id: guid(name),
            class: class.to_string(),
            name: name.to_string(),
            storey: Some(EXAMPLE_STOREY.to_string()),
            file: EXAMPLE_FILE.to_string(),
            parent: None,
            ..Identity::default()
        };
        let e = Element::from_world(identity, &solid.vertices, solid.triangles)
            .expect("the example's solids are valid meshes");
        self.elements.push(e);
    }
}

fn cuboid(min: DVec3, max: DVec3) -> Solid {
    Solid::cuboid(min, max)
}

/// A square duct of side `width` from `from` to `to` (an axis-parallel run):
/// a 4-sided bar turned a quarter of a right angle about its axis, so that
/// its faces, not its corners, point along the other axes.
fn duct(from: DVec3, to: DVec3, width: f64) -> Solid {
    let mut s = Solid::bar(from, to, width / std::f64::consts::SQRT_2, 4);
    let turn = DQuat::from_axis_angle((to - from).normalize(), std::f64::consts::FRAC_PI_4);
    for v in &mut s.vertices {
        *v = from + turn * (*v - from);
    }
    s
}

/// `s` moved up or down so that its highest point is at height `z`.
fn top_at(mut s: Solid, z: f64) -> Solid {
    let top = s
        .vertices
        .iter()
        .map(|v| v.z)
        .fold(f64::NEG_INFINITY, f64::max);
    for v in &mut s.vertices {
        v.z += z - top;
    }
    s
}

/// A made-up IFC GlobalId for the element named `name`: 22 characters of the
/// IFC base-64 alphabet encoding a 128-bit hash of the name (the first
/// character carries the top 2 bits, as in real GlobalIds). The same name
/// always gets the same id.
fn guid(name: &str) -> String {
    const ALPHABET: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$";
    let key = format!("peng example storey/{name}");
    let mut v: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d; // FNV-1a 128 offset basis
    for b in key.bytes() {
        v ^= u128::from(b);
        v = v.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013B); // FNV-1a 128 prime
    }
    (0..22)
        .map(|k| {
            let shift = 6 * (21 - k);
            let digit = if k == 0 { v >> 126 } else { (v >> shift) & 63 };
            char::from(ALPHABET[digit as usize])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{run, ClashKind, ClashTest, Mode};
    use std::collections::HashSet;

    /// The planted clashes of [`example_model`], by element name, as a test of
    /// the model against itself lists them: sorted by the elements' places in
    /// the model, the earlier one as A.
    const PLANTED: [(&str, &str); 6] = [
        ("Floor slab", "Wall S"),
        ("Wall E", "Duct D1"),
        ("Column C3", "Column C3 (copy)"),
        ("Beam B1", "Pipe P1"),
        ("Beam B2", "Pipe P2"),
        ("Pipe P3", "Duct D1"),
    ];

    /// The clashes of `mode` over the whole example: (A name, B name, kind,
    /// distance), in model order.
    fn found(mode: Mode) -> Vec<(String, String, ClashKind, f64)> {
        let model = example_model();
        run(&model, &ClashTest::whole_model(&model, mode))
            .into_iter()
            .map(|c| {
                (
                    model[c.a].identity.name.clone(),
                    model[c.b].identity.name.clone(),
                    c.finding.kind,
                    c.finding.distance,
                )
            })
            .collect()
    }

    fn pairs(found: &[(String, String, ClashKind, f64)]) -> Vec<(&str, &str, ClashKind)> {
        found
            .iter()
            .map(|(a, b, k, _)| (a.as_str(), b.as_str(), *k))
            .collect()
    }

    fn distance(found: &[(String, String, ClashKind, f64)], a: &str) -> f64 {
        found.iter().find(|f| f.0 == a).unwrap().3
    }

    #[test]
    fn hard_finds_the_pierce_the_protrusions_and_the_containment() {
        let f = found(Mode::INTERSECTION);
        assert_eq!(
            pairs(&f),
            vec![
                ("Wall E", "Duct D1", ClashKind::Protrusion),
                ("Column C3", "Column C3 (copy)", ClashKind::Protrusion),
                ("Beam B1", "Pipe P1", ClashKind::Pierce),
                ("Pipe P3", "Duct D1", ClashKind::Containment),
            ],
            "{f:?}"
        );
        // The duct reaches 0.1 m into the wall.
        assert!((distance(&f, "Wall E") + 0.1).abs() < 1e-5, "{f:?}");
    }

    #[test]
    fn collision_finds_what_hard_finds() {
        let f = found(Mode::COLLISION);
        assert_eq!(
            pairs(&f),
            vec![
                ("Wall E", "Duct D1", ClashKind::Protrusion),
                ("Column C3", "Column C3 (copy)", ClashKind::Protrusion),
                ("Beam B1", "Pipe P1", ClashKind::Pierce),
                ("Pipe P3", "Duct D1", ClashKind::Containment),
            ],
            "{f:?}"
        );
    }

    #[test]
    fn touching_adds_the_wall_standing_on_the_slab() {
        let f = found(Mode::TOUCHING);
        assert_eq!(
            pairs(&f),
            vec![
                ("Floor slab", "Wall S", ClashKind::Touch),
                ("Wall E", "Duct D1", ClashKind::Protrusion),
                ("Column C3", "Column C3 (copy)", ClashKind::Protrusion),
                ("Beam B1", "Pipe P1", ClashKind::Pierce),
                ("Pipe P3", "Duct D1", ClashKind::Containment),
            ],
            "{f:?}"
        );
    }

    #[test]
    fn clearance_adds_the_pipe_two_centimetres_under_the_beam() {
        let f = found(Mode::Clearance { distance: 0.05 });
        assert_eq!(
            pairs(&f),
            vec![
                ("Floor slab", "Wall S", ClashKind::Touch),
                ("Wall E", "Duct D1", ClashKind::Protrusion),
                ("Column C3", "Column C3 (copy)", ClashKind::Protrusion),
                ("Beam B1", "Pipe P1", ClashKind::Pierce),
                ("Beam B2", "Pipe P2", ClashKind::Clearance),
                ("Pipe P3", "Duct D1", ClashKind::Containment),
            ],
            "{f:?}"
        );
        assert!((distance(&f, "Beam B2") - 0.02).abs() < 1e-5, "{f:?}");
        // Everything else keeps at least 0.1 m: a clearance just under it
        // finds nothing more.
        assert_eq!(found(Mode::Clearance { distance: 0.099 }).len(), 6);
    }

    #[test]
    fn duplicate_finds_the_column_modelled_twice() {
        let f = found(Mode::Duplicate { tolerance: 0.001 });
        assert_eq!(
            pairs(&f),
            vec![("Column C3", "Column C3 (copy)", ClashKind::Duplicate)]
        );
        assert_eq!(distance(&f, "Column C3"), 0.0);
    }

    #[test]
    fn planted_lists_the_pairs_of_the_clearance_test() {
        let f = found(Mode::Clearance { distance: 0.05 });
        let got: Vec<(&str, &str)> = f.iter().map(|x| (x.0.as_str(), x.1.as_str())).collect();
        assert_eq!(got, PLANTED);
    }

    #[test]
    fn identities_are_ifc_like_and_stable() {
        let model = example_model();
        assert_eq!(model.len(), 20);
        let mut ids = HashSet::new();
        for e in &model {
            let i = &e.identity;
            assert_eq!(i.id.len(), 22, "{i:?}");
            assert!(
                i.id.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$'),
                "{i:?}"
            );
            assert!("0123".contains(&i.id[..1]), "{i:?}");
            assert!(ids.insert(i.id.clone()), "id {} twice", i.id);
            assert!(i.class.starts_with("Ifc"));
            assert_eq!(i.storey.as_deref(), Some(EXAMPLE_STOREY));
            assert_eq!(i.file, EXAMPLE_FILE);
            assert!(e.is_closed(), "{i:?}");
        }
        let again = example_model();
        assert!(model
            .iter()
            .zip(&again)
            .all(|(x, y)| x.identity == y.identity && x.bounds() == y.bounds()));
        assert_eq!(guid("Wall S"), model[2].identity.id);
    }

    #[test]
    fn ducts_are_square_with_flat_faces() {
        let model = example_model();
        let d1 = model.iter().find(|e| e.identity.name == "Duct D1").unwrap();
        let b = d1.bounds();
        assert!((b.max.y - b.min.y - 0.4).abs() < 1e-6, "{b:?}");
        assert!((b.max.z - b.min.z - 0.4).abs() < 1e-6, "{b:?}");
        assert!((b.max.x - 11.9).abs() < 1e-6, "{b:?}");
    }
}
