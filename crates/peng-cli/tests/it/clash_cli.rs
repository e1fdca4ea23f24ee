//! `peng clash`: the bundled example's report (JSON and CSV, the planted
//! clashes; HTML with pictures and BCF topics), the summary, statuses against
//! an earlier report, and clean errors for bad arguments and files.

use crate::common::{fails, fresh_dir, ok, peng};
use peng_clash::report::{Report, Status};
use std::path::Path;
use std::process::{Command, Output};

/// The (kind, A name, B name) of each clash of the test named `name`, sorted.
fn clashes(report: &Report, name: &str) -> Vec<(String, String, String)> {
    let t = report
        .tests
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no test {name}"));
    let mut v: Vec<_> = t
        .clashes
        .iter()
        .map(|c| {
            (
                c.kind.as_str().to_string(),
                c.a.name.clone(),
                c.b.name.clone(),
            )
        })
        .collect();
    v.sort();
    v
}

fn triples(v: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = v
        .iter()
        .map(|(k, a, b)| (k.to_string(), a.to_string(), b.to_string()))
        .collect();
    v.sort();
    v
}

#[test]
fn bundled_example_writes_the_report() {
    let d = fresh_dir("clash_example");
    let stdout = ok(&run_clash(&d, &[]));
    let text = std::fs::read_to_string(d.join("peng-report/report.json")).unwrap();
    let report = Report::from_json(&text).unwrap();
    assert_eq!(report.files.len(), 1);
    assert_eq!(report.files[0].elements, 20);
    assert!(report.problems.is_empty());
    let names: Vec<&str> = report.tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["hard", "clearance", "duplicate"]);
    let hard = triples(&[
        ("pierce", "Beam B1", "Pipe P1"),
        ("protrusion", "Wall E", "Duct D1"),
        ("containment", "Pipe P3", "Duct D1"),
        ("protrusion", "Column C3", "Column C3 (copy)"),
    ]);
    assert_eq!(clashes(&report, "hard"), hard);
    let mut clearance = hard.clone();
    clearance.extend(triples(&[
        ("clearance", "Beam B2", "Pipe P2"),
        ("touch", "Floor slab", "Wall S"),
    ]));
    clearance.sort();
    assert_eq!(clashes(&report, "clearance"), clearance);
    assert_eq!(
        clashes(&report, "duplicate"),
        triples(&[("duplicate", "Column C3", "Column C3 (copy)")])
    );
    for t in &report.tests {
        assert!(t.clashes.iter().all(|c| c.status == Status::New));
        assert!(t.clashes.iter().all(|c| c.group.is_some()));
        assert_eq!(t.set_b, None);
    }
    // The CSV: a header and one row per clash (4 + 6 + 1).
    let csv = std::fs::read_to_string(d.join("peng-report/clashes.csv")).unwrap();
    let rows: Vec<&str> = csv.split_terminator("\r\n").collect();
    assert_eq!(rows.len(), 12, "{csv}");
    assert!(
        rows[0].starts_with("test,id,kind,status,distance,"),
        "{csv}"
    );
    assert!(csv.contains(",Pipe P2,Level 1,example-storey\r\n"), "{csv}");
    // The summary: per test, the kinds, the worst clashes in mm, the files.
    assert!(
        stdout
            .starts_with("peng clash: the bundled example storey (example-storey): 20 elements\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nhard (tolerance 2 mm): 4 clashes ("),
        "{stdout}"
    );
    assert!(
        stdout.contains("gap 20.0 mm       IfcBeam \"Beam B2\" — IfcPipeSegment \"Pipe P2\""),
        "{stdout}"
    );
    assert!(
        stdout.contains("depth 100.0 mm    IfcWall \"Wall E\" — IfcDuctSegment \"Duct D1\""),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(
            "report: peng-report/report.json, peng-report/clashes.csv, \
             peng-report/report.html, peng-report/clashes.bcf\n"
        ),
        "{stdout}"
    );
}

/// Reads a BCF zip with Python's zipfile (an independent reader): the
/// bcf.version text, and per topic folder its files, its markup and viewpoint
/// text and its snapshot's PNG size (from the IHDR chunk), as JSON.
fn read_bcf(path: &Path) -> serde_json::Value {
    const SCRIPT: &str = r#"
import json, struct, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None, "bad CRC"
out = {"names": z.namelist(), "version": None, "topics": {}}
for n in z.namelist():
    data = z.read(n)
    if n == "bcf.version":
        out["version"] = data.decode()
        continue
    folder, name = n.split("/", 1)
    t = out["topics"].setdefault(folder, {"files": [], "png": None})
    t["files"].append(name)
    if name == "markup.bcf":
        t["markup"] = data.decode()
    elif name == "viewpoint.bcfv":
        t["viewpoint"] = data.decode()
    elif name == "snapshot.png":
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
        t["png"] = list(struct.unpack(">II", data[16:24]))
print(json.dumps(out))
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(path)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The topics of a BCF read by [`read_bcf`].
fn bcf_topics(bcf: &serde_json::Value) -> &serde_json::Map<String, serde_json::Value> {
    bcf["topics"].as_object().unwrap()
}

/// The files of a topic, sorted.
fn topic_files(topic: &serde_json::Value) -> Vec<&str> {
    let mut v: Vec<&str> = topic["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    v.sort_unstable();
    v
}

/// The report written into `dir`.
fn report_in(dir: &Path) -> Report {
    Report::from_json(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap()
}

/// Whether `s` is `YYYY-MM-DDTHH:MM:SSZ`.
fn is_iso8601_utc(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 20
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            10 => c == b'T',
            13 | 16 => c == b':',
            19 => c == b'Z',
            _ => c.is_ascii_digit(),
        })
}

/// The text between `<tag>` and `</tag>` in `xml`.
fn element_text<'a>(xml: &'a str, tag: &str) -> &'a str {
    let open = format!("<{tag}>");
    let start = xml
        .find(&open)
        .unwrap_or_else(|| panic!("no {open} in {xml}"))
        + open.len();
    let end = xml[start..].find(&format!("</{tag}>")).unwrap() + start;
    &xml[start..end]
}

#[test]
fn bundled_example_writes_html_and_bcf_with_pictures() {
    let d = fresh_dir("clash_html_bcf");
    ok(&run_clash(&d, &[]));
    let out = d.join("peng-report");
    let report = report_in(&out);
    let n: usize = report.tests.iter().map(|t| t.clashes.len()).sum();
    assert_eq!(n, 11);
    // The page: self-contained, one inline picture per clash.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..80]);
    assert_eq!(html.matches("data:image/png;base64,").count(), n);
    assert_eq!(html.matches("<img ").count(), n);
    assert!(
        !html.contains("src=\"http"),
        "nothing fetched from elsewhere"
    );
    for t in &report.tests {
        for c in &t.clashes {
            assert!(
                html.contains(&format!("alt=\"clash {}\"", c.id)),
                "{}",
                c.id
            );
        }
    }
    // The BCF: the version file, and a folder per clash with its markup,
    // viewpoint and a 480x360 snapshot.
    let bcf = read_bcf(&out.join("clashes.bcf"));
    let version = bcf["version"].as_str().expect("bcf.version");
    assert!(version.contains("VersionId=\"2.1\""), "{version}");
    let topics = bcf_topics(&bcf);
    assert_eq!(topics.len(), n, "{:?}", bcf["names"]);
    for (guid, t) in topics {
        assert_eq!(
            topic_files(t),
            ["markup.bcf", "snapshot.png", "viewpoint.bcfv"],
            "{guid}"
        );
        assert_eq!(t["png"], serde_json::json!([480, 360]), "{guid}");
        let markup = t["markup"].as_str().unwrap();
        assert!(markup.contains(&format!("Guid=\"{guid}\"")), "{markup}");
        assert!(
            markup.contains("<Snapshot>snapshot.png</Snapshot>"),
            "{markup}"
        );
        let created = element_text(markup, "CreationDate");
        assert!(is_iso8601_utc(created), "{created}");
        assert!(created >= "2025", "{created}");
    }
    // Each clash of each test is a topic whose viewpoint selects both elements.
    let viewpoints: Vec<&str> = topics
        .values()
        .map(|t| t["viewpoint"].as_str().unwrap())
        .collect();
    let titles: Vec<&str> = topics
        .values()
        .map(|t| element_text(t["markup"].as_str().unwrap(), "Title"))
        .collect();
    for t in &report.tests {
        let mine = titles
            .iter()
            .filter(|x| x.starts_with(&format!("{}: ", t.name)))
            .count();
        assert_eq!(mine, t.clashes.len(), "{}: {titles:?}", t.name);
        for c in &t.clashes {
            let both = |v: &&&str| {
                v.contains(&format!("IfcGuid=\"{}\"", c.a.id))
                    && v.contains(&format!("IfcGuid=\"{}\"", c.b.id))
            };
            assert!(viewpoints.iter().any(|v| both(&v)), "{}", c.id);
        }
    }
    // Another size.
    ok(&run_clash(
        &d,
        &["--picture-size", "320x240", "--out", "small"],
    ));
    let bcf = read_bcf(&d.join("small/clashes.bcf"));
    assert_eq!(bcf_topics(&bcf).len(), n);
    for t in bcf_topics(&bcf).values() {
        assert_eq!(t["png"], serde_json::json!([320, 240]));
    }
}

#[test]
fn no_pictures_writes_html_and_bcf_without_them() {
    let d = fresh_dir("clash_no_pictures");
    let stdout = ok(&run_clash(&d, &["--no-pictures"]));
    assert!(stdout.contains("peng-report/report.html"), "{stdout}");
    assert!(stdout.contains("peng-report/clashes.bcf"), "{stdout}");
    let out = d.join("peng-report");
    let report = report_in(&out);
    let n: usize = report.tests.iter().map(|t| t.clashes.len()).sum();
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("data:image/png"), "pictures in the page");
    assert!(!html.contains("<img"), "pictures in the page");
    // Every clash is still listed (the same one under several tests too).
    for t in &report.tests {
        for c in &t.clashes {
            assert!(html.contains(&format!("<code>{}</code>", c.id)), "{}", c.id);
        }
    }
    // Each clash row: an empty picture cell, then the clash.
    assert_eq!(html.matches("><td></td><td><b>").count(), n, "{html}");
    let bcf = read_bcf(&out.join("clashes.bcf"));
    assert!(bcf["version"].is_string());
    assert_eq!(bcf_topics(&bcf).len(), n);
    for t in bcf_topics(&bcf).values() {
        assert_eq!(topic_files(t), ["markup.bcf", "viewpoint.bcfv"]);
        assert!(!t["markup"].as_str().unwrap().contains("<Snapshot>"));
    }
}

/// Beyond 200 pictures the page links them as files in `pictures/`, loaded
/// as they scroll into view, and stays small; a later run with fewer
/// clashes puts them inline again and clears the folder.
#[test]
fn many_pictures_are_files_beside_a_light_page() {
    let d = fresh_dir("clash_many_pictures");
    // 230 pairs of cubes, each pair overlapping by 0.1 m, the pairs 3 m apart.
    let mut obj = String::new();
    let mut base = 1;
    for i in 0..460 {
        let (x, y) = (f64::from(i / 2) * 3.0, if i % 2 == 0 { 0.0 } else { 0.9 });
        obj += &format!("o cube{i}\n");
        for k in 0..8 {
            let (dx, dy, dz) = (f64::from(k & 1), f64::from((k >> 1) & 1), f64::from(k >> 2));
            obj += &format!("v {} {} {}\n", x + dx, y + dy, dz);
        }
        for f in [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ] {
            obj += &format!(
                "f {} {} {} {}\n",
                base + f[0],
                base + f[1],
                base + f[2],
                base + f[3]
            );
        }
        base += 8;
    }
    std::fs::write(d.join("cubes.obj"), obj).unwrap();
    let args = ["cubes.obj", "--mode", "hard", "--picture-size", "64x64"];
    ok(&run_clash(&d, &args));
    let out = d.join("peng-report");
    let report = report_in(&out);
    assert_eq!(report.tests[0].clashes.len(), 230);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(!html.contains("data:image/png"), "pictures inline");
    assert_eq!(html.matches("loading=\"lazy\"").count(), 230);
    assert!(html.len() < 400_000, "{} bytes", html.len());
    for c in &report.tests[0].clashes {
        let file = format!("pictures/t0-{}.png", c.id);
        assert!(html.contains(&format!("src=\"{file}\"")), "{file}");
        let png = std::fs::read(out.join(&file)).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{file}");
    }
    // Run again over a stale picture and a truncated one: the stale one goes,
    // the truncated one is written whole, the others are overwritten.
    let stale = out.join("pictures/t0-stale.png");
    std::fs::write(&stale, b"old").unwrap();
    let first = format!("pictures/t0-{}.png", report.tests[0].clashes[0].id);
    std::fs::write(out.join(&first), b"cut").unwrap();
    ok(&run_clash(&d, &args));
    assert!(!stale.exists());
    assert!(std::fs::read(out.join(&first))
        .unwrap()
        .starts_with(b"\x89PNG"));
    let count = std::fs::read_dir(out.join("pictures")).unwrap().count();
    assert_eq!(count, 230);
    // Fewer clashes: inline again, the old pictures removed.
    ok(&run_clash(
        &d,
        &[
            "cubes.obj",
            "--mode",
            "hard",
            "--picture-size",
            "64x64",
            "--a",
            "name=cube1",
            "--b",
            "name=cube0",
        ],
    ));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("data:image/png"), "pictures not inline");
    let left = std::fs::read_dir(out.join("pictures")).map_or(0, |d| d.count());
    assert_eq!(left, 0);
}

#[test]
fn bcf_topics_group_gives_one_topic_per_group() {
    let d = fresh_dir("clash_bcf_groups");
    // By storey: the example's one storey makes one group per test.
    ok(&run_clash(
        &d,
        &[
            "--bcf-topics",
            "group",
            "--group",
            "storey",
            "--out",
            "storey",
        ],
    ));
    let report = report_in(&d.join("storey"));
    let groups: Vec<usize> = report.tests.iter().map(|t| t.groups.len()).collect();
    assert_eq!(groups, [1, 1, 1]);
    let bcf = read_bcf(&d.join("storey/clashes.bcf"));
    let topics = bcf_topics(&bcf);
    assert_eq!(topics.len(), 3, "{:?}", bcf["names"]);
    let mut per_topic: Vec<usize> = Vec::new();
    for t in topics.values() {
        // One snapshot (the group's first clash), and every clash described.
        assert_eq!(
            topic_files(t),
            ["markup.bcf", "snapshot.png", "viewpoint.bcfv"]
        );
        let description = element_text(t["markup"].as_str().unwrap(), "Description");
        per_topic.push(description.lines().count());
    }
    per_topic.sort_unstable();
    assert_eq!(per_topic, [1, 4, 6]);
    // By the pair of classes: one topic per group, fewer than the clashes.
    ok(&run_clash(
        &d,
        &["--bcf-topics", "group", "--group", "type", "--out", "type"],
    ));
    let report = report_in(&d.join("type"));
    let groups: usize = report.tests.iter().map(|t| t.groups.len()).sum();
    let clashes: usize = report.tests.iter().map(|t| t.clashes.len()).sum();
    assert!(groups < clashes, "{groups} groups, {clashes} clashes");
    assert_eq!(
        bcf_topics(&read_bcf(&d.join("type/clashes.bcf"))).len(),
        groups
    );
    // The same grouping with the default: one topic per clash.
    ok(&run_clash(&d, &["--group", "type", "--out", "per-clash"]));
    assert_eq!(
        bcf_topics(&read_bcf(&d.join("per-clash/clashes.bcf"))).len(),
        clashes
    );
}

#[test]
fn picture_size_out_of_range_fails_naming_the_option() {
    let d = fresh_dir("clash_picture_size");
    for (size, message) in [
        (
            "10x10",
            "--picture-size \"10x10\": width and height must each be 64 to 4096 pixels, got 10x10",
        ),
        (
            "480x5000",
            "--picture-size \"480x5000\": width and height must each be 64 to 4096",
        ),
        ("480", "--picture-size \"480\": expected WxH in pixels"),
        ("wide", "--picture-size \"wide\": expected WxH in pixels"),
    ] {
        // Checked even when no pictures are drawn.
        for extra in [&[][..], &["--no-pictures"][..]] {
            let mut args = vec!["--picture-size", size];
            args.extend_from_slice(extra);
            let err = fails(&run_clash(&d, &args));
            assert!(err.starts_with("error: "), "{args:?}: {err}");
            assert!(err.contains(message), "{args:?}: {message:?} not in {err}");
        }
    }
    assert!(!d.join("peng-report").exists());
}

#[test]
fn options_shape_the_tests_and_previous_gives_statuses() {
    let d = fresh_dir("clash_options");
    // Pipes against beams, clearance only, into another directory, as JSON.
    let out = run_clash(
        &d,
        &[
            "--mode",
            "clearance",
            "--a",
            "class=IfcPipe*",
            "--b",
            "class=IfcBeam",
            "--out",
            "first",
            "--json",
        ],
    );
    let report = Report::from_json(&ok(&out)).unwrap();
    assert_eq!(report.tests.len(), 1);
    let t = &report.tests[0];
    assert_eq!((t.set_a, t.set_b), (3, Some(2)));
    assert_eq!(
        clashes(&report, "clearance"),
        triples(&[
            ("clearance", "Pipe P2", "Beam B2"),
            ("pierce", "Pipe P1", "Beam B1"),
        ])
    );
    assert!(d.join("first/report.json").exists());
    // Again, without pipe P1 and with --previous: P2's clash is active, P1's
    // resolved.
    let out = run_clash(
        &d,
        &[
            "--mode",
            "clearance",
            "--a",
            "class=IfcPipe",
            "--a-not",
            "name=*P1",
            "--b",
            "class=IfcBeam",
            "--previous",
            "first/report.json",
            "--out",
            "second",
        ],
    );
    let stdout = ok(&out);
    assert!(stdout.contains("0 new, 1 active, 1 resolved"), "{stdout}");
    let text = std::fs::read_to_string(d.join("second/report.json")).unwrap();
    let t = &Report::from_json(&text).unwrap().tests[0];
    assert_eq!(t.clashes.len(), 1);
    assert_eq!(t.clashes[0].status, Status::Active);
    assert_eq!(t.resolved.len(), 1);
    assert_eq!(t.resolved[0].a.name, "Pipe P1");
    let csv = std::fs::read_to_string(d.join("second/clashes.csv")).unwrap();
    assert!(csv.contains(",pierce,resolved,"), "{csv}");
    // An ignored pair and a region: the duplicate column's pair and the
    // east wall's are gone.
    let first =
        Report::from_json(&std::fs::read_to_string(d.join("first/report.json")).unwrap()).unwrap();
    let id = |name: &str| -> String {
        first.tests[0]
            .clashes
            .iter()
            .flat_map(|c| [&c.a, &c.b])
            .find(|e| e.name == name)
            .map(|e| e.id.clone())
            .unwrap()
    };
    let (p2, b2) = (id("Pipe P2"), id("Beam B2"));
    std::fs::write(d.join("ignore.txt"), format!("# agreed\n{b2} {p2}\n")).unwrap();
    let out = run_clash(
        &d,
        &[
            "--mode",
            "clearance",
            "--ignore-pairs",
            "ignore.txt",
            "--region",
            "0,0,-1,6,8,4",
            "--group",
            "type",
            "--out",
            "third",
        ],
    );
    ok(&out);
    let text = std::fs::read_to_string(d.join("third/report.json")).unwrap();
    let report = Report::from_json(&text).unwrap();
    assert_eq!(
        clashes(&report, "clearance"),
        triples(&[
            ("pierce", "Beam B1", "Pipe P1"),
            ("touch", "Floor slab", "Wall S"),
        ])
    );
}

#[test]
fn collision_and_touching_modes() {
    let d = fresh_dir("clash_touching");
    let out = run_clash(
        &d,
        &[
            "--mode",
            "collision",
            "--mode",
            "touching",
            "--mode",
            "collision",
        ],
    );
    let stdout = ok(&out);
    assert!(
        stdout.contains("\ncollision (tolerance 0.01 mm): 4 clashes ("),
        "{stdout}"
    );
    assert!(
        stdout.contains("\ntouching (tolerance 0.01 mm, touches too): 5 clashes ("),
        "{stdout}"
    );
    let text = std::fs::read_to_string(d.join("peng-report/report.json")).unwrap();
    let report = Report::from_json(&text).unwrap();
    // Each mode once, in the order first given.
    let names: Vec<&str> = report.tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["collision", "touching"]);
    let touching = clashes(&report, "touching");
    assert!(touching.contains(&("touch".into(), "Floor slab".into(), "Wall S".into())));
    assert!(!clashes(&report, "collision").iter().any(|c| c.0 == "touch"));
}

#[test]
fn bad_arguments_fail_naming_them() {
    let d = fresh_dir("clash_bad_args");
    for (args, message) in [
        (
            &["--tolerance", "-1"][..],
            "--tolerance must be a finite number of metres >= 0, got -1",
        ),
        (&["--clearance", "0"][..], "--clearance must be"),
        (
            &["--region", "1,2,3"][..],
            "--region \"1,2,3\": expected 6 numbers",
        ),
        (
            &["--region", "0,0,0,-1,1,1"][..],
            "minx 0 is greater than maxx -1",
        ),
        (
            &["--a", "colour=red"][..],
            "--a \"colour=red\": unknown selector key \"colour\"",
        ),
        (
            &["--b-not", "IfcWall"][..],
            "--b-not \"IfcWall\": expected KEY=VALUE",
        ),
        (&["--group", "room"][..], "--group \"room\""),
        (&["--ignore-pairs", "none.txt"][..], "none.txt"),
        (&["--previous", "none.json"][..], "none.json"),
        (&["plan.dwg"][..], "plan.dwg: unknown kind of file"),
    ] {
        let err = fails(&run_clash(&d, args));
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {message:?} not in {err}");
    }
    // Nothing was written.
    assert!(!d.join("peng-report").exists());
}

#[test]
fn missing_file_is_named() {
    let d = fresh_dir("clash_missing");
    let err = fails(&run_clash(&d, &["no-such-model.ifc"]));
    assert!(err.contains("no-such-model.ifc"), "{err}");
    let err = fails(&run_clash(&d, &["no-such-part.stl"]));
    assert!(err.contains("no-such-part.stl"), "{err}");
    assert!(!d.join("peng-report").exists());
}

#[test]
fn unreadable_file_beside_a_good_one_is_a_warning() {
    let d = fresh_dir("clash_partial");
    // One unit cube in an OBJ file.
    std::fs::write(
        d.join("cube.obj"),
        "o cube\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n\
         f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\n\
         f 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n",
    )
    .unwrap();
    let out = run_clash(&d, &["cube.obj", "gone.ifc"]);
    let stdout = ok(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("warning: gone.ifc: "), "{stderr}");
    assert!(
        stdout.starts_with("peng clash: cube.obj: 1 element\n"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(d.join("peng-report/report.json")).unwrap();
    let report = Report::from_json(&text).unwrap();
    assert_eq!(report.files.len(), 1);
    assert_eq!(report.problems.len(), 1);
    assert!(report.problems[0].contains("gone.ifc"));
}

/// Runs `peng clash ARGS` in `cwd`.
fn run_clash(cwd: &Path, args: &[&str]) -> Output {
    peng(cwd, "clash", args)
}
