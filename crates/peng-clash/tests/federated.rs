//! The generated federated model read back as IFC and checked: every
//! element closed and of the volume laid out, and each clash test finds
//! exactly the planted cases (the regular elements keep 0.1 m apart).

use peng_clash::federated::{federated_model, FederatedModel, FederatedSize};
use peng_clash::{parse_ifc, run, ClashKind, ClashTest, Element, Mode};
use std::collections::BTreeSet;

/// 48 bay-storeys: each of the six kinds planted once.
const SIZE: FederatedSize = FederatedSize {
    bays_x: 6,
    bays_y: 4,
    storeys: 2,
};

fn read(model: &FederatedModel) -> Vec<Element> {
    let mut all = Vec::new();
    for f in &model.files {
        let loaded = parse_ifc(f.name, f.text.as_bytes()).unwrap();
        assert!(
            loaded.problems.is_empty(),
            "{}: {:?}",
            f.name,
            loaded.problems
        );
        assert_eq!(loaded.elements.len(), f.elements, "{}", f.name);
        all.extend(loaded.elements);
    }
    all
}

/// The volume of a closed mesh (divergence theorem over its triangles).
fn volume(e: &Element) -> f64 {
    let m = e.mesh();
    (0..m.num_triangles() as u32)
        .map(|i| {
            let [a, b, c] = m.triangle(i).map(|v| v.as_dvec3());
            a.dot(b.cross(c)) / 6.0
        })
        .sum()
}

#[test]
fn every_element_is_read_closed_with_its_volume() {
    let model = federated_model(SIZE);
    let elements = read(&model);
    assert_eq!(elements.len(), SIZE.elements());
    let pipe = |r: f64, l: f64| std::f64::consts::PI * r * r * l;
    for e in &elements {
        assert!(
            e.is_closed(),
            "{} {} is open",
            e.identity.class,
            e.identity.name
        );
        let name = &e.identity.name;
        let kind = name.split(' ').next().unwrap();
        // Laid-out volumes; round sections are polygons inside the circle
        // (at least 12 sides: within 4.6 % of the circle's area).
        let (want, round) = match kind {
            "Slab" => (5.9 * 5.9 * 0.3, false),
            "Column" => (0.4 * 0.4 * 3.5, false),
            "Beam" => (0.3 * 0.5 * 5.4, false),
            "Wall" => (5.0 * 0.15 * 2.3 - 1.0 * 0.15 * 2.0, false),
            "Door" => (0.8 * 0.05 * 1.9, false),
            "Pipe" => (pipe(0.05, 5.9), true),
            "Duct" => (0.4 * 0.3 * 5.9, false),
            "Riser" | "Branch" => (pipe(0.05, 1.0), true),
            "Drain" => (pipe(0.05, 4.0), true),
            "Anchor" => (0.001, false),
            "Board" => (0.6 * 0.25 * 0.8, false),
            _ => panic!("unexpected element {name}"),
        };
        let v = volume(e);
        let ok = if round {
            v <= want * (1.0 + 1e-6) && v >= want * 0.954
        } else {
            (v - want).abs() <= want * 1e-5
        };
        assert!(ok, "{name}: volume {v}, laid out {want}");
    }
}

/// (the pair's two GlobalIds in order, kind).
type Found = BTreeSet<(String, String, ClashKind)>;

fn pair(a: &str, b: &str, kind: ClashKind) -> (String, String, ClashKind) {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    (a.to_string(), b.to_string(), kind)
}

#[test]
fn each_test_finds_exactly_the_planted_clashes() {
    let model = federated_model(SIZE);
    assert_eq!(model.planted.len(), 6);
    let elements = read(&model);
    let modes = [
        ("intersection", Mode::INTERSECTION),
        ("collision", Mode::COLLISION),
        ("touching", Mode::TOUCHING),
        ("clearance 5 cm", Mode::Clearance { distance: 0.05 }),
        ("clearance 9 cm", Mode::Clearance { distance: 0.09 }),
        ("duplicate", Mode::Duplicate { tolerance: 0.001 }),
    ];
    for (name, mode) in modes {
        let found: Found = run(&elements, &ClashTest::whole_model(&elements, mode))
            .iter()
            .map(|c| {
                let (a, b) = (&elements[c.a].identity, &elements[c.b].identity);
                pair(&a.id, &b.id, c.finding.kind)
            })
            .collect();
        let want: Found = model
            .planted
            .iter()
            .filter_map(|p| Some(pair(&p.host, &p.planted, p.expected(mode)?)))
            .collect();
        assert_eq!(found, want, "{name}");
        assert!(!want.is_empty(), "{name}");
    }
}
