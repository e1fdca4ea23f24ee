//! The HTML page and the BCF 2.1 zip, read back.

use glam::DVec3;
use peng_clash::report::Pictures;
use peng_clash::report::{
    draw_pictures, group_clashes, picture_file, to_bcf, to_html, to_html_with, FileEntry, GroupBy,
    PictureLinks, Report, TestReport, Topics,
};
use peng_clash::{run, ClashTest, Element, Identity, Mode, Solid};
use std::collections::BTreeSet;
use std::io::{Cursor, Read};
use std::process::Command;
use zip::{CompressionMethod, ZipArchive};

/// Two pipes through one beam, and a third far away through another; the
/// names carry characters that HTML and XML must escape.
fn report() -> (Vec<Element>, Report) {
    let mut model = Vec::new();
    let mut add = |id: &str, class: &str, name: &str, s: Solid| {
        let identity = Identity {
            id: id.into(),
            class: class.into(),
            name: name.into(),
            storey: Some("Level <1>".into()),
            file: "model.ifc".into(),
            parent: None,
            ..Identity::default()
        };
        model.push(Element::from_world(identity, &s.vertices, s.triangles).unwrap());
    };
    let o = DVec3::new(500_000.0, 5_000_000.0, 12.0);
    add(
        "0pipeAAAAAAAAAAAAAAAAA",
        "IfcPipeSegment",
        "Pipe \"A\" & co",
        Solid::bar(
            o + DVec3::new(0.0, -1.0, 0.0),
            o + DVec3::new(0.0, 1.0, 0.0),
            0.05,
            12,
        ),
    );
    add(
        "0pipeBBBBBBBBBBBBBBBBB",
        "IfcPipeSegment",
        "Pipe B",
        Solid::bar(
            o + DVec3::new(0.4, -1.0, 0.0),
            o + DVec3::new(0.4, 1.0, 0.0),
            0.05,
            12,
        ),
    );
    add(
        "0pipeCCCCCCCCCCCCCCCCC",
        "IfcPipeSegment",
        "Pipe C",
        Solid::bar(
            o + DVec3::new(9.0, -1.0, 0.0),
            o + DVec3::new(9.0, 1.0, 0.0),
            0.05,
            12,
        ),
    );
    add(
        "1beamAAAAAAAAAAAAAAAAA",
        "IfcBeam",
        "Beam <1>",
        Solid::cuboid(
            o + DVec3::new(-1.0, -0.1, -0.3),
            o + DVec3::new(1.0, 0.1, 0.3),
        ),
    );
    add(
        "1beamBBBBBBBBBBBBBBBBB",
        "IfcBeam",
        "Beam 2",
        Solid::cuboid(
            o + DVec3::new(8.0, -0.1, -0.3),
            o + DVec3::new(10.0, 0.1, 0.3),
        ),
    );
    let test = ClashTest {
        a: vec![0, 1, 2],
        b: Some(vec![3, 4]),
        mode: Mode::INTERSECTION,
        ignore: Default::default(),
        region: None,
    };
    let clashes = run(&model, &test);
    assert_eq!(clashes.len(), 3);
    let mut t = TestReport::new("pipes vs beams", test.mode, 3, Some(2), 3, &model, &clashes);
    group_clashes(&mut t, GroupBy::Proximity(1.0));
    assert_eq!(t.groups.len(), 2);
    let mut r = Report::new(
        vec![FileEntry {
            file: "model.ifc".into(),
            elements: 5,
        }],
        vec![],
    );
    r.tests.push(t);
    (model, r)
}

#[test]
fn html_has_a_picture_per_clash_and_escapes_names() {
    let (model, r) = report();
    let pictures = draw_pictures(&r, &model, 200, 150);
    assert_eq!(pictures.len(), 3);
    let html = to_html(&r, &pictures);
    assert_eq!(
        html.matches("src=\"data:image/png;base64,iVBORw0KGgo")
            .count(),
        3
    );
    assert!(html.contains("Pipe &quot;A&quot; &amp; co"));
    assert!(html.contains("Beam &lt;1&gt;"));
    assert!(!html.contains("Beam <1>"));
    assert!(html.contains("pierce"));
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    // Linked as files instead: sized from the PNGs, loaded lazily, named by
    // test and clash id.
    let linked = to_html_with(&r, &pictures, PictureLinks::Folder("pics"));
    assert!(!linked.contains("data:image/png"));
    for (t, id) in pictures.keys() {
        let tag = format!(
            "loading=\"lazy\" decoding=\"async\" width=\"200\" height=\"150\" src=\"pics/{}\"",
            picture_file(*t, id)
        );
        assert!(linked.contains(&tag), "{tag}");
    }
}

/// Python's zipfile and XML parser read the BCF back: the version file, one
/// folder per topic with markup, viewpoint and snapshot; each viewpoint
/// selects the clash's two elements by GlobalId and looks at the clash.
#[test]
fn bcf_zip_reads_back() {
    let (model, r) = report();
    let pictures = draw_pictures(&r, &model, 200, 150);
    let check = |topics: Topics, want_topics: usize, want_components: &str| {
        let bytes = to_bcf(&r, &pictures, topics, "2026-11-28T23:58:00Z").unwrap();
        // Same input, same bytes.
        assert_eq!(
            bytes,
            to_bcf(&r, &pictures, topics, "2026-11-28T23:58:00Z").unwrap()
        );
        read_back_with_zip(&bytes, &pictures, want_topics);
        let path =
            std::env::temp_dir().join(format!("peng-bcf-{}-{want_topics}.bcf", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let script = r#"
import sys, zipfile, xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None
names = z.namelist()
v = ET.fromstring(z.read("bcf.version")); assert v.get("VersionId") == "2.1"
topics = sorted({n.split("/")[0] for n in names if "/" in n})
out = []
for t in topics:
    m = ET.fromstring(z.read(t + "/markup.bcf"))
    topic = m.find("Topic"); assert topic.get("Guid") == t, t
    assert topic.find("CreationDate").text == "2026-11-28T23:58:00Z"
    vp = ET.fromstring(z.read(t + "/viewpoint.bcfv"))
    comps = sorted(c.get("IfcGuid") for c in vp.iter("Component"))
    cam = vp.find("PerspectiveCamera")
    eye = [float(cam.find("CameraViewPoint/" + k).text) for k in "XYZ"]
    d = [float(cam.find("CameraDirection/" + k).text) for k in "XYZ"]
    png = z.read(t + "/snapshot.png"); assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # The camera looks towards the clash area (x near 500000, y near 5e6).
    tx = (500000 - eye[0]) * d[0] + (5000000 - eye[1]) * d[1]
    assert tx > 0, (eye, d)
    out.append(str(len(comps)))
print(len(topics), ",".join(sorted(out)))
"#;
        let out = Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(&path)
            .output()
            .expect("python3 runs");
        std::fs::remove_file(&path).ok();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert_eq!(text, format!("{want_topics} {want_components}"));
    };
    // Per clash: three topics of two elements each.
    check(Topics::PerClash, 3, "2,2,2");
    // Per group: the two pipes through beam 1 together (three elements), and pipe C.
    check(Topics::PerGroup, 2, "2,3");
}

/// The zip crate reads the archive back: `bcf.version` and per topic a folder
/// of markup, viewpoint and snapshot, with the snapshots' bytes unchanged;
/// the XML entries deflated, the snapshots (compressed already) stored.
fn read_back_with_zip(bytes: &[u8], pictures: &Pictures, want_topics: usize) {
    let mut z = ZipArchive::new(Cursor::new(bytes)).unwrap();
    let names: Vec<String> = z.file_names().map(|n| n.unwrap().into_owned()).collect();
    assert_eq!(names[0], "bcf.version");
    assert_eq!(names.len(), 1 + 3 * want_topics, "{names:?}");
    let folders: BTreeSet<&str> = names[1..]
        .iter()
        .map(|n| n.split_once('/').unwrap().0)
        .collect();
    assert_eq!(folders.len(), want_topics);
    let pngs: BTreeSet<&[u8]> = pictures.values().map(|p| p.png.as_slice()).collect();
    for folder in folders {
        for leaf in ["markup.bcf", "viewpoint.bcfv", "snapshot.png"] {
            let mut f = z.by_name(&format!("{folder}/{leaf}")).unwrap();
            let method = if leaf.ends_with(".png") {
                CompressionMethod::Stored
            } else {
                CompressionMethod::Deflated
            };
            assert_eq!(f.compression(), method, "{leaf}");
            let mut data = Vec::new();
            f.read_to_end(&mut data).unwrap();
            match leaf {
                "markup.bcf" => {
                    let text = String::from_utf8(data).unwrap();
                    assert!(text.starts_with("<?xml"), "{text}");
                    assert!(
                        text.contains(&format!("<Topic Guid=\"{folder}\"")),
                        "{text}"
                    );
                    assert!(text.contains("<Snapshot>snapshot.png</Snapshot>"));
                }
                "viewpoint.bcfv" => {
                    let text = String::from_utf8(data).unwrap();
                    assert!(text.matches("<Component IfcGuid=").count() >= 2, "{text}");
                }
                _ => assert!(
                    pngs.contains(data.as_slice()),
                    "{folder}: not a drawn picture"
                ),
            }
        }
    }
    let mut version = String::new();
    z.by_name("bcf.version")
        .unwrap()
        .read_to_string(&mut version)
        .unwrap();
    assert!(version.contains("<Version VersionId=\"2.1\""), "{version}");
}

/// Two tests of the same name with the same clashes would make topics with
/// the same GUID: an error naming the entry, not a broken archive.
#[test]
fn bcf_duplicate_topics_are_an_error() {
    let (_, mut r) = report();
    let again = r.tests[0].clone();
    r.tests.push(again);
    let e = to_bcf(
        &r,
        &Pictures::new(),
        Topics::PerClash,
        "2026-11-28T23:58:00Z",
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("BCF archive, entry "), "{msg}");
    assert!(e.entry.ends_with("/markup.bcf"), "{msg}");
}

/// The page is a worklist: a summary first, the groups linked to header rows
/// of their clashes, the clashes group by group (the two near each other
/// first, the largest group) and the deepest first within a group, each
/// linking back to its group.
#[test]
fn html_lists_clashes_group_by_group_most_severe_first() {
    let (_, mut r) = report();
    // Make the two clashes of group 0 differ in depth, the later id deeper.
    let test = &mut r.tests[0];
    let ids: Vec<String> = test.groups[0].clashes.clone();
    assert_eq!(ids.len(), 2);
    for c in &mut test.clashes {
        if c.id == ids[0] {
            c.distance = -0.01;
        } else if c.id == ids[1] {
            c.distance = -0.05;
        }
    }
    let html = to_html(&r, &Pictures::new());
    assert!(html.contains("<p>Summary: 3 pierce; 3 new;"), "{html}");
    assert!(html.contains("<a href=\"#t0-g0\">") && html.contains("<a href=\"#t0-g1\">"));
    let at = |s: &str| html.find(s).unwrap_or_else(|| panic!("{s} missing"));
    let (g0, g1) = (at("<tr id=\"t0-g0\">"), at("<tr id=\"t0-g1\">"));
    let row = |id: &str| at(&format!("<tr id=\"t0-c{id}\">"));
    let other = r.tests[0].groups[1].clashes[0].clone();
    // Group 0's header, its deeper clash, its shallower one, then group 1.
    assert!(g0 < row(&ids[1]) && row(&ids[1]) < row(&ids[0]) && row(&ids[0]) < g1);
    assert!(g1 < row(&other));
}
