//! The report: JSON round trip, grouping, status across runs.

use glam::DVec3;
use peng_clash::report::{
    group_clashes, mark_status, FileEntry, GroupBy, Report, Status, TestReport,
};
use peng_clash::{run, ClashTest, Element, Identity, Mode, Solid};

/// Pipes (set A) crossing a row of beams (set B) at x = 0, 0.5, 1.0 and 5.0,
/// on two storeys.
fn model() -> Vec<Element> {
    let mut m = Vec::new();
    let mut add = |id: &str, class: &str, storey: &str, s: Solid| {
        let identity = Identity {
            id: id.into(),
            class: class.into(),
            name: format!("{class} {id}"),
            storey: Some(storey.into()),
            file: "m.ifc".into(),
            parent: None,
            ..Identity::default()
        };
        m.push(Element::from_world(identity, &s.vertices, s.triangles).unwrap());
    };
    for (i, x) in [0.0, 0.5, 1.0, 5.0].into_iter().enumerate() {
        let storey = if i < 3 { "L1" } else { "L2" };
        add(
            &format!("pipe{i}"),
            "IfcPipeSegment",
            storey,
            Solid::bar(DVec3::new(x, -1.0, 0.0), DVec3::new(x, 1.0, 0.0), 0.05, 12),
        );
        let class = if i == 1 { "IfcMember" } else { "IfcBeam" };
        add(
            &format!("beam{i}"),
            class,
            storey,
            Solid::cuboid(
                DVec3::new(x - 0.1, -0.1, -0.3),
                DVec3::new(x + 0.1, 0.1, 0.3),
            ),
        );
    }
    m
}

fn test_report(model: &[Element]) -> TestReport {
    let test = ClashTest {
        a: vec![0, 2, 4, 6],
        b: Some(vec![1, 3, 5, 7]),
        mode: Mode::INTERSECTION,
        ignore: Default::default(),
        region: None,
    };
    let clashes = run(model, &test);
    assert_eq!(clashes.len(), 4);
    TestReport::new("pipes vs beams", test.mode, 4, Some(4), 4, model, &clashes)
}

fn group_sizes(t: &TestReport) -> Vec<usize> {
    t.groups.iter().map(|g| g.clashes.len()).collect()
}

#[test]
fn proximity_groups_link_chains() {
    let m = model();
    let mut t = test_report(&m);
    group_clashes(&mut t, GroupBy::Proximity(0.6));
    assert_eq!(group_sizes(&t), vec![3, 1]);
    // Named by its commonest class pair; centred on the middle pipe (x = 0.5).
    let name = &t.groups[0].name;
    assert!(
        name.starts_with("IfcPipeSegment × IfcBeam and others: 3 clashes near (0.50, "),
        "{name}"
    );
    assert!((t.groups[0].center[0] - 0.5).abs() < 1e-9, "{name}");
    for c in &t.clashes {
        let g = c.group.unwrap();
        assert!(t.groups[g].clashes.contains(&c.id));
    }
    group_clashes(&mut t, GroupBy::Proximity(0.4));
    assert_eq!(group_sizes(&t), vec![1, 1, 1, 1]);
    group_clashes(&mut t, GroupBy::Proximity(f64::NAN));
    assert_eq!(group_sizes(&t), vec![1, 1, 1, 1]);
}

#[test]
fn type_pair_and_storey_groups() {
    let m = model();
    let mut t = test_report(&m);
    group_clashes(&mut t, GroupBy::TypePair);
    assert_eq!(group_sizes(&t), vec![3, 1]);
    assert_eq!(t.groups[0].name, "IfcPipeSegment × IfcBeam: 3 clashes");
    assert_eq!(t.groups[1].name, "IfcPipeSegment × IfcMember: 1 clash");
    group_clashes(&mut t, GroupBy::Storey);
    assert_eq!(group_sizes(&t), vec![3, 1]);
    assert!(
        t.groups[0].name.starts_with("storey L1"),
        "{}",
        t.groups[0].name
    );
}

#[test]
fn status_against_an_earlier_report() {
    let m = model();
    let mut before = Report::new(
        vec![FileEntry {
            file: "m.ifc".into(),
            elements: 8,
        }],
        vec![],
    );
    let mut old = test_report(&m);
    // The earlier run had pipe3 × beam3 fixed and a clash that no longer exists.
    let gone = old.clashes.iter().position(|c| c.a.id == "pipe3").unwrap();
    let mut vanished = old.clashes.remove(gone);
    vanished.id = "0123456789abcdef".into();
    old.clashes.push(vanished);
    before.tests.push(old);

    let mut now = test_report(&m);
    mark_status(&mut now, &before);
    for c in &now.clashes {
        let want = if c.a.id == "pipe3" {
            Status::New
        } else {
            Status::Active
        };
        assert_eq!(c.status, want, "{}", c.a.id);
    }
    assert_eq!(now.resolved.len(), 1);
    assert_eq!(now.resolved[0].id, "0123456789abcdef");
    assert_eq!(now.resolved[0].status, Status::Resolved);

    // A test the earlier report did not have: all new, nothing resolved.
    let mut other = test_report(&m);
    other.name = "something else".into();
    mark_status(&mut other, &before);
    assert!(other.clashes.iter().all(|c| c.status == Status::New));
    assert!(other.resolved.is_empty());
}

#[test]
fn json_round_trip_and_schema_check() {
    let m = model();
    let mut r = Report::new(
        vec![FileEntry {
            file: "m.ifc".into(),
            elements: 8,
        }],
        vec!["m.ifc: element #9: bad".into()],
    );
    let mut t = test_report(&m);
    group_clashes(&mut t, GroupBy::Proximity(1.0));
    r.tests.push(t);
    let text = r.to_json();
    assert!(text.contains("\"schema\": \"peng-clash-report/1\""));
    assert!(text.contains("\"kind\": \"pierce\""), "{text}");
    assert!(text.contains("\"mode\": \"hard\""));
    assert_eq!(Report::from_json(&text).unwrap(), r);
    let wrong = text.replace("peng-clash-report/1", "other/2");
    assert!(Report::from_json(&wrong).unwrap_err().contains("other/2"));
    assert!(Report::from_json("{").is_err());
}
