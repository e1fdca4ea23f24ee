//! Runs the differential and property tests on many fresh seed sets.
//!
//! ```text
//! cargo run --release -p peng-bench --example soak -- --seeds 100
//! ```
//!
//! Builds the test binaries of `peng`, `peng-dynamics` and `peng-bench` once in
//! release (`cargo build --release --tests --message-format=json`), then
//! for each seed set `S` runs the seed-dependent tests with
//! `PROPTEST_RNG_SEED=S`, `PENG_TEST_SEED=S` and `PENG_TEST_SCALE=<scale>`, one
//! process per test, `--jobs` at a time. Seed sets are consecutive numbers from
//! `--first` (default: from the clock). Progress goes to standard error; at the
//! end a summary lists the failures per test with the seeds that reproduce them,
//! and the exit code is 1 if any test failed. The full output of every failing
//! run is saved under `target/soak/`.
//!
//! Which tests run (see `docs/testing.md`):
//! - in the `it` test binaries of `peng` and `peng-dynamics`, the property tests:
//!   the functions inside `proptest! { … }` blocks of `tests/it/*.rs` (found by
//!   reading the sources), so closed-form and timing tests are left out;
//! - in `peng-bench`, the differential test files ([`DIFF_TARGETS`]) except the
//!   tests that use no seed ([`SEEDLESS`]).
//!
//! Options: `--seeds N` (default 10), `--scale K` (default 4), `--first S`,
//! `--jobs J` (default: the number of cores), `--filter TEXT` (repeatable: only
//! tests whose `target::name` contains one of them), `--timeout SECS` (per test,
//! default 900), `--list` (print the selected tests and stop).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The differential test files of `peng-bench` (test target names).
const DIFF_TARGETS: [&str; 8] = [
    "diff2d",
    "diff3d",
    "diff_rays",
    "diff_mesh",
    "cast2d_diff",
    "cast3d_diff",
    "poly2_diff",
    "mass_diff",
];

/// Tests of the differential files whose inputs do not depend on the seed
/// (fixed shapes, or a fixed small sample checking the generators).
const SEEDLESS: [&str; 3] = [
    "parry_side_runs_and_inputs_are_balanced",
    "every_kind_converts",
    "closed_polyline_converts",
];

/// Packages whose `it` test binary holds property tests.
const PROPERTY_PACKAGES: [&str; 2] = ["peng", "peng-dynamics"];

struct Options {
    seeds: u64,
    scale: u32,
    first: Option<u64>,
    jobs: usize,
    filters: Vec<String>,
    timeout: Duration,
    list: bool,
}

fn usage() -> &'static str {
    "usage: cargo run --release -p peng-bench --example soak -- [--seeds N] [--scale K] \
     [--first SEED] [--jobs J] [--filter TEXT]... [--timeout SECS] [--list]"
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        seeds: 10,
        scale: 4,
        first: None,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        filters: Vec::new(),
        timeout: Duration::from_secs(900),
        list: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value\n{}", usage()))
        };
        let bad = |name: &str, v: &str| format!("{name}: {v:?} is not valid\n{}", usage());
        match a.as_str() {
            "--seeds" => {
                let v = value("--seeds")?;
                o.seeds = v.parse().map_err(|_| bad("--seeds", &v))?;
            }
            "--scale" => {
                let v = value("--scale")?;
                o.scale = v
                    .parse()
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or_else(|| bad("--scale", &v))?;
            }
            "--first" => {
                let v = value("--first")?;
                o.first = Some(v.parse().map_err(|_| bad("--first", &v))?);
            }
            "--jobs" => {
                let v = value("--jobs")?;
                o.jobs = v
                    .parse()
                    .ok()
                    .filter(|&j| j >= 1)
                    .ok_or_else(|| bad("--jobs", &v))?;
            }
            "--filter" => o.filters.push(value("--filter")?),
            "--timeout" => {
                let v = value("--timeout")?;
                let s: u64 = v.parse().map_err(|_| bad("--timeout", &v))?;
                o.timeout = Duration::from_secs(s);
            }
            "--list" => o.list = true,
            "-h" | "--help" => return Err(usage().to_string()),
            _ => return Err(format!("unknown argument {a:?}\n{}", usage())),
        }
    }
    Ok(o)
}

/// One test binary built by cargo.
#[derive(Debug, Clone)]
struct Binary {
    package: String,
    target: String,
    exe: PathBuf,
    /// The package's folder (tests run there, as under `cargo test`).
    dir: PathBuf,
}

/// The string value of `"key":"…"` in one line of cargo's JSON output (cargo
/// escapes only `"` and `\` in paths and names here).
fn json_str(line: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\":\"");
    let start = line.find(&pat)? + pat.len();
    let mut out = String::new();
    let mut chars = line[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    None
}

/// Builds the test binaries in release (`cargo build --release --tests`, the
/// binaries `cargo test --release` runs) and returns those that hold tests to
/// run, and whether the whole build succeeded (with `--keep-going` cargo builds
/// the other targets when one fails to compile; those that built are run, and
/// the soak then fails).
fn build(root: &Path) -> Result<(Vec<Binary>, bool), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("soak: building the test binaries (release) ...");
    let out = Command::new(cargo)
        .current_dir(root)
        .args([
            "build",
            "--release",
            "--tests",
            "--keep-going",
            "--message-format=json-render-diagnostics",
            "-p",
            "peng",
            "-p",
            "peng-dynamics",
            "-p",
            "peng-bench",
        ])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let mut bins = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        if !line.contains("\"reason\":\"compiler-artifact\"") || !line.contains("\"test\":true") {
            continue;
        }
        let (Some(exe), Some(manifest)) = (
            json_str(line, "executable"),
            json_str(line, "manifest_path"),
        ) else {
            continue;
        };
        // The target's name is the first "name" after "target".
        let target = line
            .find("\"target\":")
            .and_then(|i| json_str(&line[i..], "name"))
            .unwrap_or_default();
        let dir = Path::new(&manifest)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let package = dir
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let wanted = (target == "it" && PROPERTY_PACKAGES.contains(&package.as_str()))
            || (package == "peng-bench" && DIFF_TARGETS.contains(&target.as_str()));
        if wanted {
            bins.push(Binary {
                package,
                target,
                exe: PathBuf::from(exe),
                dir,
            });
        }
    }
    bins.sort_by(|a, b| (&a.package, &a.target).cmp(&(&b.package, &b.target)));
    if bins.is_empty() && !out.status.success() {
        return Err("the build failed".into());
    }
    Ok((bins, out.status.success()))
}

/// The test names of a binary (`--list --format terse`), ignored ones left out.
fn list_tests(b: &Binary) -> Result<Vec<String>, String> {
    let all = Command::new(&b.exe)
        .current_dir(&b.dir)
        .args(["--list", "--format", "terse"])
        .output()
        .map_err(|e| format!("{}: {e}", b.exe.display()))?;
    let ignored = Command::new(&b.exe)
        .current_dir(&b.dir)
        .args(["--list", "--format", "terse", "--ignored"])
        .output()
        .map_err(|e| format!("{}: {e}", b.exe.display()))?;
    let names = |o: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(o)
            .lines()
            .filter_map(|l| l.strip_suffix(": test").map(str::to_string))
            .collect()
    };
    let skip = names(&ignored.stdout);
    Ok(names(&all.stdout)
        .into_iter()
        .filter(|n| !skip.contains(n))
        .collect())
}

/// The property tests of a `tests/it` folder: `(module, function)` for each
/// function inside a `proptest! { … }` block.
fn property_tests(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let module = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let src = fs::read_to_string(&p).unwrap_or_default();
        let mut rest = src.as_str();
        while let Some(i) = rest.find("proptest!") {
            rest = &rest[i + "proptest!".len()..];
            let Some(open) = rest.find('{') else { break };
            if !rest[..open].trim().is_empty() {
                continue;
            }
            // The block up to the matching brace (braces inside format strings
            // come in pairs, so counting them is enough).
            let mut depth = 0usize;
            let mut end = rest.len();
            for (k, c) in rest.char_indices().skip(open) {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = k;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let block = &rest[open..end];
            for (k, _) in block.match_indices("fn ") {
                let boundary = k == 0 || !block[..k].ends_with(|c: char| c.is_alphanumeric());
                let name: String = block[k + 3..]
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if boundary && !name.is_empty() {
                    out.push((module.clone(), name));
                }
            }
            rest = &rest[end..];
        }
    }
    out
}

/// One test to run in every seed set.
#[derive(Debug, Clone)]
struct Test {
    bin: usize,
    /// The name as the binary lists it.
    name: String,
    /// `target::name`, as shown in the summary.
    label: String,
}

/// The tests of every binary that depend on the seed, after `filters`.
fn select(bins: &[Binary], filters: &[String]) -> Result<Vec<Test>, String> {
    let mut tests = Vec::new();
    for (bi, b) in bins.iter().enumerate() {
        let names = list_tests(b)?;
        let keep: Vec<String> = if b.target == "it" {
            let props = property_tests(&b.dir.join("tests/it"));
            names
                .into_iter()
                .filter(|n| {
                    props.iter().any(|(m, f)| {
                        n.starts_with(&format!("{m}::")) && n.ends_with(&format!("::{f}"))
                    })
                })
                .collect()
        } else {
            names
                .into_iter()
                .filter(|n| !SEEDLESS.iter().any(|s| n.rsplit("::").next() == Some(*s)))
                .collect()
        };
        for name in keep {
            let label = if b.target == "it" {
                format!("{}::{name}", b.package)
            } else {
                format!("{}::{name}", b.target)
            };
            if filters.is_empty() || filters.iter().any(|f| label.contains(f.as_str())) {
                tests.push(Test {
                    bin: bi,
                    name,
                    label,
                });
            }
        }
    }
    Ok(tests)
}

/// The outcome of one test in one seed set.
struct Outcome {
    seed: u64,
    test: usize,
    ok: bool,
    timed_out: bool,
    secs: f64,
    log: Option<PathBuf>,
    /// The panic message's first lines, for the summary.
    key_lines: Vec<String>,
}

/// The first lines of the first panic message in a test's output, without
/// the seed and command lines (the summary prints its own).
fn key_lines(output: &str) -> Vec<String> {
    let mut lines = output.lines().skip_while(|l| !l.contains("panicked at"));
    lines.next();
    lines
        .take_while(|l| {
            !l.starts_with("note:") && !l.starts_with("test ") && !l.starts_with("stack backtrace")
        })
        .filter(|l| !l.contains("reproduce:") && l.trim() != "first ones:")
        .take(3)
        .map(|s| s.chars().take(400).collect())
        .collect()
}

/// Runs `t` with seed set `seed`; its output goes to a file in `tmp`, kept in
/// `keep` (renamed by seed and test) when the test fails.
fn run_one(
    bin: &Binary,
    t: &Test,
    ti: usize,
    seed: u64,
    scale: u32,
    timeout: Duration,
    dirs: (&Path, &Path),
) -> Outcome {
    let (tmp, keep) = dirs;
    let base = format!("{seed}-{}", t.label.replace("::", "-"));
    let path = tmp.join(format!("{base}.log"));
    let start = Instant::now();
    let mut outcome = Outcome {
        seed,
        test: ti,
        ok: false,
        timed_out: false,
        secs: 0.0,
        log: None,
        key_lines: Vec::new(),
    };
    let spawned = fs::File::create(&path).and_then(|f| {
        let f2 = f.try_clone()?;
        Command::new(&bin.exe)
            .current_dir(&bin.dir)
            .args(["--exact", &t.name, "--test-threads", "1"])
            .env("PROPTEST_RNG_SEED", seed.to_string())
            .env("PENG_TEST_SEED", seed.to_string())
            .env("PENG_TEST_SCALE", scale.to_string())
            .env("PROPTEST_DISABLE_FAILURE_PERSISTENCE", "1")
            .stdin(Stdio::null())
            .stdout(f)
            .stderr(f2)
            .spawn()
    });
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            outcome.key_lines = vec![format!("cannot run {}: {e}", bin.exe.display())];
            return outcome;
        }
    };
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    outcome.secs = start.elapsed().as_secs_f64();
    outcome.timed_out = status.is_none();
    // libtest exits 0 also when the filter matched nothing; require the test
    // to have run.
    let text = fs::read_to_string(&path).unwrap_or_default();
    outcome.ok = status.is_some_and(|s| s.success()) && text.contains("1 passed");
    if outcome.ok {
        let _ = fs::remove_file(&path);
    } else {
        outcome.key_lines = key_lines(&text);
        if outcome.timed_out {
            outcome
                .key_lines
                .insert(0, format!("timed out after {} s", timeout.as_secs()));
        }
        let kept = keep.join(format!("{base}.log"));
        let _ = fs::rename(&path, &kept);
        outcome.log = Some(kept);
    }
    outcome
}

fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // A 9-digit number, easy to type back with --first.
    let mut z = nanos.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) % 1_000_000_000
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap_or(root);
    let t0 = Instant::now();
    let (bins, built) = match build(&root) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("soak: {e}");
            return ExitCode::from(2);
        }
    };
    let tests = match select(&bins, &o.filters) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("soak: {e}");
            return ExitCode::from(2);
        }
    };
    if o.list {
        for t in &tests {
            println!("{}", t.label);
        }
        return ExitCode::SUCCESS;
    }
    if tests.is_empty() {
        eprintln!("soak: no test selected");
        return ExitCode::from(2);
    }
    let build_secs = t0.elapsed().as_secs_f64();
    if !built {
        eprintln!(
            "soak: the build failed in part; running the {} test binaries that built ({}), the soak will fail",
            bins.len(),
            bins.iter()
                .map(|b| format!("{}::{}", b.package, b.target))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let first = o.first.unwrap_or_else(clock_seed);
    let seeds: Vec<u64> = (0..o.seeds).map(|k| first.wrapping_add(k)).collect();
    eprintln!(
        "soak: {} tests x {} seed sets (first {first}, scale {}), {} jobs; seeds: {}",
        tests.len(),
        seeds.len(),
        o.scale,
        o.jobs,
        seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let keep = target_dir.join("soak");
    let tmp = keep.join("running");
    if let Err(e) = fs::create_dir_all(&tmp) {
        eprintln!("soak: cannot create {}: {e}", tmp.display());
        return ExitCode::from(2);
    }

    // The work queue: seed set after seed set, the slowest tests first within
    // each (the differential files, then the property tests).
    let mut order: Vec<usize> = (0..tests.len()).collect();
    order.sort_by_key(|&i| (bins[tests[i].bin].target == "it", i));
    let items: Vec<(usize, usize)> = (0..seeds.len())
        .flat_map(|s| order.iter().map(move |&t| (s, t)))
        .collect();
    let next = AtomicUsize::new(0);
    let left: Vec<AtomicUsize> = seeds
        .iter()
        .map(|_| AtomicUsize::new(tests.len()))
        .collect();
    let seed_start: Vec<Mutex<Option<Instant>>> = seeds.iter().map(|_| Mutex::new(None)).collect();
    let results = Mutex::new(Vec::<Outcome>::new());
    let failed = AtomicUsize::new(0);
    let sets_done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..o.jobs.min(items.len()) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(si, ti)) = items.get(k) else {
                    break;
                };
                if let Ok(mut s) = seed_start[si].lock() {
                    s.get_or_insert_with(Instant::now);
                }
                let t = &tests[ti];
                let r = run_one(
                    &bins[t.bin],
                    t,
                    ti,
                    seeds[si],
                    o.scale,
                    o.timeout,
                    (&tmp, &keep),
                );
                if !r.ok {
                    let f = failed.fetch_add(1, Ordering::SeqCst) + 1;
                    eprintln!(
                        "soak: FAILED {} with seed {} ({} failures so far); output in {}",
                        t.label,
                        seeds[si],
                        f,
                        r.log.as_deref().map_or("?".into(), |p| p.display().to_string())
                    );
                    for l in r.key_lines.iter().take(2) {
                        eprintln!("    {l}");
                    }
                }
                if let Ok(mut v) = results.lock() {
                    v.push(r);
                }
                if left[si].fetch_sub(1, Ordering::SeqCst) == 1 {
                    let d = sets_done.fetch_add(1, Ordering::SeqCst) + 1;
                    let took = seed_start[si]
                        .lock()
                        .ok()
                        .and_then(|s| s.map(|i| i.elapsed().as_secs_f64()))
                        .unwrap_or(0.0);
                    eprintln!(
                        "soak: seed set {d} of {} done (seed {}, {took:.0} s); {} failures so far; {:.0} s elapsed",
                        seeds.len(),
                        seeds[si],
                        failed.load(Ordering::SeqCst),
                        t0.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let _ = fs::remove_dir(&tmp);

    // Summary.
    let results = results.into_inner().unwrap_or_default();
    let mut per_test: BTreeMap<&str, Vec<&Outcome>> = BTreeMap::new();
    let mut time_per_test = vec![0.0f64; tests.len()];
    for r in &results {
        time_per_test[r.test] += r.secs;
        if !r.ok {
            per_test
                .entry(tests[r.test].label.as_str())
                .or_default()
                .push(r);
        }
    }
    let total = t0.elapsed().as_secs_f64();
    let cpu: f64 = time_per_test.iter().sum();
    println!("\nsoak summary");
    println!(
        "  seed sets run: {} (first {first}, scale {}), {} tests each; {} runs, {} failed",
        seeds.len(),
        o.scale,
        tests.len(),
        results.len(),
        results.iter().filter(|r| !r.ok).count()
    );
    println!(
        "  time: {total:.0} s in all ({build_secs:.0} s building); {:.1} s of test time per seed set ({} jobs)",
        cpu / seeds.len().max(1) as f64,
        o.jobs
    );
    let mut slow: Vec<usize> = (0..tests.len()).collect();
    slow.sort_by(|&a, &b| time_per_test[b].total_cmp(&time_per_test[a]));
    println!("  slowest tests (mean seconds per seed set):");
    for &i in slow.iter().take(8) {
        println!(
            "    {:7.2}  {}",
            time_per_test[i] / seeds.len().max(1) as f64,
            tests[i].label
        );
    }
    if !built {
        println!("  the build failed in part: only the test binaries that built ran");
    }
    if per_test.is_empty() {
        println!("  failures: none");
        return if built {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    println!("  failures ({} tests):", per_test.len());
    for (label, rs) in &per_test {
        let mut seeds: Vec<u64> = rs.iter().map(|r| r.seed).collect();
        seeds.sort_unstable();
        println!(
            "    {label}: seeds {}",
            seeds
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
        if let Some(r) = rs.first() {
            for l in r.key_lines.iter().take(3) {
                println!("        {l}");
            }
            println!(
                "        reproduce: cargo run --release -p peng-bench --example soak -- --first {} --seeds 1 --scale {} --filter {label}",
                r.seed, o.scale
            );
            if let Some(p) = &r.log {
                println!("        output: {}", p.display());
            }
        }
    }
    ExitCode::FAILURE
}
