//! The human summary `peng clash` prints: per test, the clashes by kind and
//! the worst ones, and where the report went.

use super::options::describe;
use super::progress::thousands;
use peng_clash::report::{ClashEntry, Report, Status, TestReport};
use peng_clash::Mode;
use peng_clash::{ClashKind, Identity};
use std::collections::BTreeMap;
use std::fmt::Write;

/// How many clashes each test lists.
pub const TOP: usize = 10;

/// The summary of `report`, whose tests ran in `modes` (same order), read
/// from `source`; `written` lists the files the report went to.
pub fn text(report: &Report, modes: &[Mode], source: &str, written: &[String]) -> String {
    let mut s = String::new();
    let elements: usize = report.files.iter().map(|f| f.elements).sum();
    let _ = writeln!(
        s,
        "peng clash: {source}: {} element{}",
        thousands(elements),
        plural(elements)
    );
    if !report.problems.is_empty() {
        let n = report.problems.len();
        let _ = writeln!(s, "{n} problem{} (warnings above)", plural(n));
    }
    for (t, &mode) in report.tests.iter().zip(modes) {
        test(&mut s, t, mode);
    }
    if !written.is_empty() {
        let _ = writeln!(s, "report: {}", written.join(", "));
    }
    s
}

fn test(s: &mut String, t: &TestReport, mode: Mode) {
    let n = t.clashes.len();
    let sets = match t.set_b {
        None => format!("{} elements against each other", thousands(t.set_a)),
        Some(b) => format!("{} against {} elements", thousands(t.set_a), thousands(b)),
    };
    let _ = write!(
        s,
        "\n{}: {} clash{} ({sets}, {} pair{} tested)",
        describe(&t.name, mode),
        thousands(n),
        if n == 1 { "" } else { "es" },
        thousands(t.pairs_tested),
        plural(t.pairs_tested)
    );
    let mut kinds: BTreeMap<ClashKind, usize> = BTreeMap::new();
    for c in &t.clashes {
        *kinds.entry(c.kind).or_default() += 1;
    }
    let kinds: Vec<String> = kinds
        .iter()
        .map(|(k, n)| format!("{} {}", thousands(*n), k.as_str()))
        .collect();
    if !kinds.is_empty() {
        let _ = write!(s, ": {}", kinds.join(", "));
    }
    let _ = writeln!(s);
    let mut extra = Vec::new();
    if !t.groups.is_empty() {
        let g = t.groups.len();
        extra.push(format!("{g} group{}", plural(g)));
    }
    let new = t.clashes.iter().filter(|c| c.status == Status::New).count();
    let active = t
        .clashes
        .iter()
        .filter(|c| c.status == Status::Active)
        .count();
    if active > 0 || !t.resolved.is_empty() {
        extra.push(format!(
            "{new} new, {active} active, {} resolved",
            t.resolved.len()
        ));
    }
    if !extra.is_empty() {
        let _ = writeln!(s, "  {}", extra.join("; "));
    }
    let mut worst: Vec<&ClashEntry> = t.clashes.iter().collect();
    worst.sort_by(|x, y| x.distance.total_cmp(&y.distance).then(x.id.cmp(&y.id)));
    for c in worst.iter().take(TOP) {
        let _ = writeln!(
            s,
            "  {:<11}  {:<16}  {} — {}{}",
            c.kind.as_str(),
            how_far(c),
            element(&c.a),
            element(&c.b),
            if active > 0 || !t.resolved.is_empty() {
                format!("  ({})", c.status.as_str())
            } else {
                String::new()
            }
        );
    }
    if n > TOP {
        let _ = writeln!(s, "  … and {} more", thousands(n - TOP));
    }
}

/// The clash's distance in words: depth of a hard clash, gap of a clearance,
/// deviation of a duplicate.
fn how_far(c: &ClashEntry) -> String {
    let d = c.distance;
    match c.kind {
        ClashKind::Clearance => format!("gap {}", mm1(d)),
        ClashKind::Duplicate => format!("off by {}", mm1(d)),
        ClashKind::Touch => "touching".to_string(),
        _ => format!("depth {}", mm1(-d)),
    }
}

/// Metres in millimetres to 0.1 mm (never `-0.0`).
fn mm1(m: f64) -> String {
    let v = m * 1000.0;
    let v = if v.abs() < 0.05 { 0.0 } else { v };
    format!("{v:.1} mm")
}

/// `IfcPipeSegment "Pipe P1"`, or the id when the element has no name.
fn element(e: &Identity) -> String {
    if e.name.is_empty() {
        format!("{} {}", e.class, e.id)
    } else {
        format!("{} \"{}\"", e.class, e.name)
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millimetres_never_negative_zero() {
        assert_eq!(mm1(-0.0), "0.0 mm");
        assert_eq!(mm1(-0.00001), "0.0 mm");
        assert_eq!(mm1(0.02), "20.0 mm");
        assert_eq!(mm1(-0.15), "-150.0 mm");
    }
}
