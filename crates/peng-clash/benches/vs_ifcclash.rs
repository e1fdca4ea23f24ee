//! peng against IfcOpenShell's ifcclash on the reference models, side by side:
//! the same files, clash sets and modes, with reading-and-tessellating and
//! checking timed apart.
//!
//! ```sh
//! cargo bench -p peng-clash --bench vs_ifcclash            # needs `pip install ifcclash`
//! cargo bench -p peng-clash --bench vs_ifcclash -- --peng-only
//! ```
//!
//! Each figure is the median of several runs. ifcclash runs in its own Python
//! process (`tools/ifcclash_run.py`), timed inside it, so Python's start-up is
//! not counted. It meshes on all cores, as peng does. peng's report with
//! pictures (480 × 360, one a clash, and the HTML page and BCF archive made
//! in memory) is timed apart, for the end to end ratio with pictures
//! (ifcclash makes none).

use peng_clash::report::{
    draw_pictures, group_clashes, to_bcf, to_html_with, GroupBy, PictureLinks, Report, TestReport,
    Topics,
};
use peng_clash::{read_ifc, run, ClashTest, Element, Mode};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const RUNS: usize = 15;
const PY_RUNS: usize = 5;

struct Case {
    name: &'static str,
    a: &'static [&'static str],
    b: &'static [&'static str],
}

const CASES: [Case; 3] = [
    Case {
        name: "IfcOpenHouse against itself",
        a: &["IfcOpenHouse_IFC4.ifc"],
        b: &[],
    },
    Case {
        name: "MEP against Architectural",
        a: &["MEP.ifc"],
        b: &["Architectural.ifc"],
    },
    Case {
        name: "duplex against itself",
        a: &["duplex.ifc"],
        b: &[],
    },
];

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/ifc")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// peng: (seconds to read and tessellate, seconds to check, clashes,
/// seconds to make the report with pictures), medians.
fn peng(case: &Case, mode: Mode) -> (f64, f64, usize, f64) {
    let mut load_t = Vec::new();
    let mut check_t = Vec::new();
    let mut report_t = Vec::new();
    let mut found = 0;
    for _ in 0..RUNS {
        let t = Instant::now();
        let mut model: Vec<Element> = Vec::new();
        for f in case.a {
            model.extend(read_ifc(&data_dir().join(f)).expect("reads").elements);
        }
        let n = model.len();
        for f in case.b {
            model.extend(read_ifc(&data_dir().join(f)).expect("reads").elements);
        }
        load_t.push(t.elapsed().as_secs_f64());
        let test = ClashTest {
            a: (0..n).collect(),
            b: (!case.b.is_empty()).then(|| (n..model.len()).collect()),
            mode,
            ignore: Default::default(),
            region: None,
        };
        let t = Instant::now();
        let clashes = run(&model, &test);
        check_t.push(t.elapsed().as_secs_f64());
        found = clashes.len();
        if report_t.len() < PY_RUNS {
            let t = Instant::now();
            report_with_pictures(&model, &test, &clashes);
            report_t.push(t.elapsed().as_secs_f64());
        }
    }
    (median(load_t), median(check_t), found, median(report_t))
}

/// The report of `clashes` as `peng clash` makes it: pictures drawn, the
/// HTML page (pictures as files beyond 200) and the BCF archive, in memory.
fn report_with_pictures(model: &[Element], test: &ClashTest, clashes: &[peng_clash::Clash]) {
    let mut report = Report::new(vec![], vec![]);
    let b = test.b.as_ref().map(Vec::len);
    let mut t = TestReport::new("test", test.mode, test.a.len(), b, 0, model, clashes);
    group_clashes(&mut t, GroupBy::Proximity(1.0));
    report.tests.push(t);
    let pictures = draw_pictures(&report, model, 480, 360);
    let links = if pictures.len() > 200 {
        PictureLinks::Folder("pictures")
    } else {
        PictureLinks::Inline
    };
    let html = to_html_with(&report, &pictures, links);
    let bcf = to_bcf(&report, &pictures, Topics::PerClash, "2026-01-01T00:00:00Z").expect("zip");
    std::hint::black_box((html, bcf));
}

/// ifcclash: (seconds to load and tessellate, seconds to check, pairs), medians.
fn ifcclash(case: &Case, mode: &str) -> Option<(f64, f64, usize)> {
    let tool = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/ifcclash_run.py");
    let mut load_t = Vec::new();
    let mut check_t = Vec::new();
    let mut found = 0;
    for _ in 0..PY_RUNS {
        let mut cmd = Command::new("python3");
        cmd.arg(&tool)
            .current_dir(data_dir())
            .arg("--a")
            .args(case.a);
        if !case.b.is_empty() {
            cmd.arg("--b").args(case.b);
        }
        cmd.args(["--mode", mode]);
        match mode {
            "intersection" => cmd.args(["--tolerance", "0.002", "--check-all"]),
            "clearance" => cmd.args(["--clearance", "0.05", "--check-all"]),
            _ => &mut cmd,
        };
        let out = cmd.output().ok()?;
        if !out.status.success() {
            eprintln!("ifcclash failed: {}", String::from_utf8_lossy(&out.stderr));
            return None;
        }
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
        let s = &v["seconds"];
        load_t.push(s["load"].as_f64()? + s["tessellate"].as_f64()?);
        check_t.push(s["check"].as_f64()?);
        found = v["pairs"].as_array()?.len();
    }
    Some((median(load_t), median(check_t), found))
}

fn main() {
    let peng_only = std::env::args().any(|a| a == "--peng-only");
    println!("| models | mode | read + tessellate: ifcclash / peng = ratio | check: ifcclash / peng = ratio | total ratio | peng report with pictures | total ratio with pictures | pairs ifcclash / peng |");
    println!("|---|---|---|---|---|---|---|---|");
    let modes = [
        ("intersection", Mode::INTERSECTION),
        ("collision", Mode::COLLISION),
        ("clearance", Mode::Clearance { distance: 0.05 }),
    ];
    for case in &CASES {
        for (name, mode) in modes {
            let (pl, pc, pn, pr) = peng(case, mode);
            let ms = |s: f64| s * 1e3;
            match (!peng_only).then(|| ifcclash(case, name)).flatten() {
                Some((il, ic, inn)) => println!(
                    "| {} | {name} | {:.1} / {:.2} ms = {:.0}x | {:.2} / {:.3} ms = {:.0}x | {:.0}x | {:.1} ms | {:.0}x | {inn} / {pn} |",
                    case.name,
                    ms(il),
                    ms(pl),
                    il / pl,
                    ms(ic),
                    ms(pc),
                    ic / pc,
                    (il + ic) / (pl + pc),
                    ms(pr),
                    (il + ic) / (pl + pc + pr)
                ),
                None => println!(
                    "| {} | {name} | - / {:.2} ms | - / {:.3} ms | - | {:.1} ms | - | - / {pn} |",
                    case.name,
                    ms(pl),
                    ms(pc),
                    ms(pr)
                ),
            }
        }
    }
}
