//! peng against IfcOpenShell's ifcclash on the generated federated model
//! (`peng_clash::federated`): three IFC files, about ELEMENTS elements, every
//! planted clash known. Per mode: time to read and tessellate, time to check,
//! the report with pictures (peng), peak memory, and how many of the planted
//! clashes each found (and what else).
//!
//! ```sh
//! cargo bench -p peng-clash --bench federated                  # 100,000 elements; needs `pip install ifcclash`
//! cargo bench -p peng-clash --bench federated -- 20000 --peng-only
//! ```
//!
//! The model is written once to `target/federated-ELEMENTS/`. Each peng run is
//! a fresh process (this program with `--child`), so its peak memory is its
//! own; peng's figures are medians of 3 runs on 2 threads. ifcclash runs once
//! per mode (`tools/ifcclash_run.py`, meshing on all cores, timed inside
//! Python).

use peng_clash::federated::{federated_model, FederatedSize, PlantedClash};
use peng_clash::report::{
    draw_pictures, group_clashes, to_bcf, to_html_with, GroupBy, PictureLinks, Report, TestReport,
    Topics,
};
use peng_clash::{parse_ifc, run, ClashKind, ClashTest, Element, Mode};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const FILES: [&str; 3] = ["architecture.ifc", "structure.ifc", "services.ifc"];
const RUNS: usize = 3;

fn modes() -> [(&'static str, Mode); 2] {
    [
        ("intersection", Mode::INTERSECTION),
        ("clearance", Mode::Clearance { distance: 0.05 }),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|a| a == "--child") {
        return child(Path::new(&args[at + 1]), &args[at + 2]);
    }
    let elements = args
        .iter()
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(100_000);
    let peng_only = args.iter().any(|a| a == "--peng-only");
    let size = FederatedSize::for_elements(elements);
    let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target");
    let dir = target
        .canonicalize()
        .unwrap_or(target)
        .join(format!("federated-{elements}"));
    let planted = write_model(&dir, size);
    println!(
        "generated: {} elements ({} × {} bays, {} storeys), {} planted, in {}",
        size.elements(),
        size.bays_x,
        size.bays_y,
        size.storeys,
        planted.len(),
        dir.display()
    );
    println!("| mode | read + tessellate, s: ifcclash / peng (ratio) | check, s (ratio) | total ratio | peng report, s | with it | peak memory ifcclash / peng | planted found ifcclash / peng | other pairs ifcclash / peng |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, mode) in modes() {
        let runs: Vec<serde_json::Value> = (0..RUNS).map(|_| peng_run(&dir, name)).collect();
        let med = |key: &str| {
            let mut v: Vec<f64> = runs.iter().map(|r| r[key].as_f64().unwrap()).collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (pl, pc, pr, pm) = (med("read"), med("check"), med("report"), med("peak_mb"));
        let pairs: Vec<(String, String)> =
            serde_json::from_value(runs[0]["pairs"].clone()).unwrap();
        let (p_found, p_other) = tally(&planted, mode, pairs.iter().cloned());
        let ic = (!peng_only).then(|| ifcclash(&dir, name)).flatten();
        match ic {
            Some((il, icheck, im, ipairs)) => {
                let (i_found, i_other) = tally(&planted, mode, ipairs.into_iter());
                println!(
                    "| {name} | {il:.1} / {pl:.2} ({:.0}x) | {icheck:.2} / {pc:.3} ({:.0}x) | {:.0}x | {pr:.2} | {:.0}x | {im:.0} / {pm:.0} MB | {i_found} / {p_found} of {} | {i_other} / {p_other} |",
                    il / pl,
                    icheck / pc,
                    (il + icheck) / (pl + pc),
                    (il + icheck) / (pl + pc + pr),
                    expected(&planted, mode).len()
                );
            }
            None => println!(
                "| {name} | - / {pl:.2} | - / {pc:.3} | - | {pr:.2} | - | - / {pm:.0} MB | - / {p_found} of {} | - / {p_other} |",
                expected(&planted, mode).len()
            ),
        }
    }
}

/// Writes the model's files into `dir` unless they are there; its planted
/// clashes either way (the generator is deterministic).
fn write_model(dir: &Path, size: FederatedSize) -> Vec<PlantedClash> {
    let model = federated_model(size);
    if !FILES.iter().all(|f| dir.join(f).exists()) {
        std::fs::create_dir_all(dir).expect("makes the model's directory");
        for f in &model.files {
            std::fs::write(dir.join(f.name), &f.text).expect("writes the model");
        }
    }
    model.planted
}

/// The planted pairs a test in `mode` should report (GlobalIds, sorted).
fn expected(planted: &[PlantedClash], mode: Mode) -> BTreeSet<(String, String)> {
    planted
        .iter()
        .filter(|p| p.expected(mode).is_some())
        .map(|p| sorted(&p.host, &p.planted))
        .collect()
}

fn sorted(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.into(), b.into())
    } else {
        (b.into(), a.into())
    }
}

/// (planted pairs found, other pairs reported).
fn tally(
    planted: &[PlantedClash],
    mode: Mode,
    pairs: impl Iterator<Item = (String, String)>,
) -> (usize, usize) {
    let want = expected(planted, mode);
    let got: BTreeSet<(String, String)> = pairs.map(|(a, b)| sorted(&a, &b)).collect();
    let found = got.intersection(&want).count();
    (found, got.len() - found)
}

/// One peng run in a fresh process: its figures as JSON.
fn peng_run(dir: &Path, mode: &str) -> serde_json::Value {
    let out = Command::new(std::env::current_exe().expect("knows itself"))
        .args(["--child", &dir.display().to_string(), mode])
        .output()
        .expect("runs itself");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("reads its own JSON")
}

/// The child: read the three files, run the test, make the report with
/// pictures in memory; print the times, the peak memory and the pairs.
fn child(dir: &Path, mode_name: &str) {
    let (_, mode) = modes()
        .into_iter()
        .find(|(n, _)| *n == mode_name)
        .expect("a known mode");
    let t = Instant::now();
    let mut model: Vec<Element> = Vec::new();
    for f in FILES {
        let bytes = std::fs::read(dir.join(f)).expect("reads the model");
        model.extend(parse_ifc(f, &bytes).expect("parses").elements);
    }
    let read = t.elapsed().as_secs_f64();
    let test = ClashTest::whole_model(&model, mode);
    let t = Instant::now();
    let clashes = run(&model, &test);
    let check = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut report = Report::new(vec![], vec![]);
    let mut tr = TestReport::new("test", mode, model.len(), None, 0, &model, &clashes);
    group_clashes(&mut tr, GroupBy::Proximity(1.0));
    report.tests.push(tr);
    let pictures = draw_pictures(&report, &model, 480, 360);
    let html = to_html_with(&report, &pictures, PictureLinks::Folder("pictures"));
    let bcf = to_bcf(&report, &pictures, Topics::PerClash, "2026-01-01T00:00:00Z").expect("zip");
    std::hint::black_box((html, bcf));
    let report_s = t.elapsed().as_secs_f64();
    let pairs: Vec<(&str, &str)> = clashes
        .iter()
        .filter(|c| c.finding.kind != ClashKind::Duplicate)
        .map(|c| {
            (
                model[c.a].identity.id.as_str(),
                model[c.b].identity.id.as_str(),
            )
        })
        .collect();
    println!(
        "{}",
        serde_json::json!({
            "read": read, "check": check, "report": report_s,
            "peak_mb": peak_mb(), "pairs": pairs,
        })
    );
}

/// This process's peak resident memory, MB (Linux; 0 elsewhere).
fn peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Pairs of GlobalIds.
type Pairs = Vec<(String, String)>;

/// ifcclash once: (seconds to load and tessellate, seconds to check, peak
/// memory MB, pairs).
fn ifcclash(dir: &Path, mode: &str) -> Option<(f64, f64, f64, Pairs)> {
    let tool = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/ifcclash_run.py");
    let mut cmd = Command::new("/usr/bin/time");
    cmd.args(["-f", "peak_kb %M", "python3"])
        .arg(&tool)
        .current_dir(dir)
        .arg("--a")
        .args(FILES)
        .args(["--mode", mode]);
    match mode {
        "intersection" => cmd.args(["--tolerance", "0.002", "--check-all"]),
        _ => cmd.args(["--clearance", "0.05", "--check-all"]),
    };
    let out = cmd.output().ok()?;
    if !out.status.success() {
        eprintln!("ifcclash failed: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let peak = err
        .lines()
        .find_map(|l| l.strip_prefix("peak_kb "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let s = &v["seconds"];
    let pairs = v["pairs"]
        .as_array()?
        .iter()
        .filter_map(|p| Some((p[0].as_str()?.to_string(), p[1].as_str()?.to_string())))
        .collect();
    Some((
        s["load"].as_f64()? + s["tessellate"].as_f64()?,
        s["check"].as_f64()?,
        peak,
        pairs,
    ))
}
