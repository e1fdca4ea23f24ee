//! The text and JSON reports of `peng robot`.

use super::analysis::{After, Analysis, Closest, FirstContact, SegmentCheck, WaypointCheck};
use super::load::Inputs;
use peng_robot::{Checker, Other, PairReport};
use serde::Serialize;
use std::fmt::Write as _;

/// The names of a pair: the link's and the other's (a link's or an
/// object's).
pub fn pair_names<'a>(
    checker: &'a Checker,
    objects: &'a [String],
    p: &PairReport,
) -> (&'a str, &'a str) {
    let link = checker.robot.links[p.link].name.as_str();
    let other = match p.other {
        Other::Link(l) => checker.robot.links[l].name.as_str(),
        Other::Object(o) => objects[o].as_str(),
    };
    (link, other)
}

/// A length in metres with 4 decimals, without a `-0.0000`.
fn m(x: f32) -> String {
    let s = format!("{x:.4}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// A fraction of a segment, 3 decimals.
fn frac(s: f64) -> String {
    format!("{s:.3}")
}

/// The pair as `link — other`, objects marked.
fn pair_text(inputs: &Inputs, p: &PairReport) -> String {
    let (a, b) = pair_names(&inputs.checker, &inputs.objects, p);
    match p.other {
        Other::Link(_) => format!("{a} — {b}"),
        Other::Object(_) => format!("{a} — {b} (object)"),
    }
}

/// `depth d` for a penetration, `touching` for a contact within the
/// tolerance.
fn depth_text(p: &PairReport) -> String {
    if p.distance < 0.0 {
        format!("depth {}", m(-p.distance))
    } else {
        "touching".to_string()
    }
}

/// The configuration as `name value, ...`.
fn joints_text(inputs: &Inputs, q: &[f64]) -> String {
    let r = &inputs.checker.robot;
    r.active_joints()
        .iter()
        .zip(q)
        .map(|(&j, v)| format!("{} {v:.3}", r.joints[j].name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "object" or "link", as the other of a pair is.
fn other_word(p: &PairReport) -> &'static str {
    match p.other {
        Other::Link(_) => "link",
        Other::Object(_) => "object",
    }
}

/// The text report.
pub fn text(inputs: &Inputs, a: &Analysis) -> String {
    let mut s = String::new();
    let r = &inputs.checker.robot;
    let names: Vec<&str> = r
        .active_joints()
        .iter()
        .map(|&j| r.joints[j].name.as_str())
        .collect();
    let _ = writeln!(
        s,
        "robot {} ({}): {} links, {} joints ({}), {} link pairs checked{}",
        r.name,
        inputs.urdf,
        r.links.len(),
        names.len(),
        names.join(", "),
        inputs.checker.self_pairs().len(),
        match &inputs.srdf {
            Some(n) => format!(" (SRDF {n})"),
            None => String::new(),
        }
    );
    match &inputs.scene {
        Some(n) if !inputs.objects.is_empty() => {
            let _ = writeln!(s, "objects ({n}): {}", inputs.objects.join(", "));
        }
        Some(n) => {
            let _ = writeln!(s, "objects ({n}): none");
        }
        None => {
            let _ = writeln!(s, "objects: none (no --scene)");
        }
    }
    let (nw, ns) = (a.waypoints.len(), a.segments.len());
    let _ = writeln!(
        s,
        "trajectory {}: {nw} waypoint{}, {ns} segment{}",
        inputs
            .trajectory_source
            .as_deref()
            .unwrap_or("(the zero configuration; no --trajectory)"),
        plural(nw),
        plural(ns)
    );

    let _ = writeln!(s, "\nwaypoints (each checked on its own):");
    for (i, w) in a.waypoints.iter().enumerate() {
        let _ = writeln!(s, "  {}", waypoint_line(inputs, i, w));
    }

    if ns > 0 {
        let _ = writeln!(
            s,
            "\nsegments (straight in joint space, checked continuously: no contact \
             between waypoints is missed):"
        );
        for (i, seg) in a.segments.iter().enumerate() {
            let head = format!("segment {i} ({i} → {})", i + 1);
            match seg {
                SegmentCheck::Free(Some(d)) => {
                    let _ = writeln!(
                        s,
                        "  {head}  free, least distance measured along the way {} m",
                        m(*d)
                    );
                }
                SegmentCheck::Free(None) => {
                    let _ = writeln!(s, "  {head}  free (no pair to check)");
                }
                SegmentCheck::Contact(c) => contact_lines(&mut s, inputs, &head, c),
            }
        }
    }

    let _ = write!(s, "\n{}", summary(inputs, a));
    s
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// One waypoint's line.
fn waypoint_line(inputs: &Inputs, i: usize, w: &WaypointCheck) -> String {
    let line = match inputs.trajectory.lines.get(i).copied().flatten() {
        Some(l) => format!(" (line {l})"),
        None => String::new(),
    };
    if w.free() {
        match &w.closest {
            Some(c) => format!(
                "waypoint {i}{line}  free, closest {} m: {}",
                m(c.distance),
                pair_text(inputs, c)
            ),
            None => format!("waypoint {i}{line}  free (no pair to check)"),
        }
    } else {
        let pairs: Vec<String> = w
            .contacts
            .iter()
            .map(|p| format!("{}, {}", pair_text(inputs, p), depth_text(p)))
            .collect();
        format!("waypoint {i}{line}  CONTACT: {}", pairs.join("; "))
    }
}

/// The lines of a segment's first contact.
fn contact_lines(s: &mut String, inputs: &Inputs, head: &str, c: &FirstContact) {
    let (link, other) = pair_names(&inputs.checker, &inputs.objects, &c.pair);
    let _ = writeln!(
        s,
        "  {head}  CONTACT: {link} hits {} {other} at s = {} ({})",
        other_word(&c.pair),
        frac(c.s),
        if c.s == 0.0 {
            format!("at its first waypoint, {}", depth_text(&c.pair))
        } else {
            "first touch".to_string()
        }
    );
    let _ = writeln!(
        s,
        "      joints at s = {}: {}",
        frac(c.s),
        joints_text(inputs, &c.q)
    );
    let _ = writeln!(s, "      {}", after_text(inputs, &c.after));
}

/// What the samples past a first contact found.
fn after_text(inputs: &Inputs, a: &After) -> String {
    let mut t = format!(
        "sampled past it ({} points to s = 1): {} in contact",
        a.samples, a.in_contact
    );
    if let Some((s, p)) = &a.deepest {
        let _ = write!(
            t,
            ", deepest {} m at s = {} ({})",
            m(-p.distance),
            frac(*s),
            pair_text(inputs, p)
        );
    }
    if let Some(last) = a.last_contact_s {
        let _ = write!(t, ", last at s = {}", frac(last));
    }
    t
}

/// The summary: counts, the first contact along the way, the least
/// clearance.
fn summary(inputs: &Inputs, a: &Analysis) -> String {
    let (nw, ns) = (a.waypoints.len(), a.segments.len());
    let (fw, fs) = (a.waypoints_free(), a.segments_free());
    let mut t = format!("summary: {fw} of {nw} waypoint{} free", plural(nw));
    if ns > 0 {
        let _ = write!(t, ", {fs} of {ns} segment{} free", plural(ns));
    }
    t.push('\n');
    if let Some((i, c)) = a.first_contact() {
        let (_, other) = pair_names(&inputs.checker, &inputs.objects, &c.pair);
        let ends_free = a.waypoints[i].free() && a.waypoints[i + 1].free();
        let _ = writeln!(
            t,
            "  first contact: segment {i} ({i} → {}) hits {other} at s = {}{}",
            i + 1,
            frac(c.s),
            if ends_free {
                ", between two free waypoints (checking the waypoints alone misses it)"
            } else {
                ""
            }
        );
    }
    match a.min_clearance() {
        Some((d, at)) => {
            let at = match at {
                Closest::Waypoint(i) => format!("waypoint {i}"),
                Closest::Segment(i) => format!("segment {i}"),
            };
            let free = if fw == nw && fs == ns {
                ""
            } else {
                " of the free part"
            };
            let _ = writeln!(t, "  least clearance{free}: {} m ({at})", m(d));
        }
        None if fw > 0 => {
            let _ = writeln!(t, "  least clearance: none measured (no pair to check)");
        }
        None => {}
    }
    t
}

/// A pair in the JSON report.
#[derive(Serialize)]
struct PairJson<'a> {
    link: &'a str,
    other: &'a str,
    other_kind: &'static str,
    distance: f32,
    point_link: [f32; 3],
    point_other: [f32; 3],
}

#[derive(Serialize)]
struct WaypointJson<'a> {
    index: usize,
    line: Option<usize>,
    q: &'a [f64],
    free: bool,
    closest: Option<PairJson<'a>>,
    contacts: Vec<PairJson<'a>>,
}

#[derive(Serialize)]
struct DeepestJson<'a> {
    s: f64,
    pair: PairJson<'a>,
}

#[derive(Serialize)]
struct AfterJson<'a> {
    samples: usize,
    in_contact: usize,
    deepest: Option<DeepestJson<'a>>,
    last_contact_s: Option<f64>,
}

#[derive(Serialize)]
struct ContactJson<'a> {
    s: f64,
    q: &'a [f64],
    pair: PairJson<'a>,
    after: AfterJson<'a>,
}

#[derive(Serialize)]
struct SegmentJson<'a> {
    index: usize,
    from: usize,
    to: usize,
    free: bool,
    clearance: Option<f32>,
    contact: Option<ContactJson<'a>>,
}

#[derive(Serialize)]
struct FirstJson {
    segment: usize,
    s: f64,
}

#[derive(Serialize)]
struct SummaryJson {
    waypoints: usize,
    waypoints_free: usize,
    segments: usize,
    segments_free: usize,
    min_clearance: Option<f32>,
    first_contact: Option<FirstJson>,
}

#[derive(Serialize)]
struct ReportJson<'a> {
    format: &'static str,
    robot: &'a str,
    urdf: &'a str,
    srdf: Option<&'a str>,
    scene: Option<&'a str>,
    trajectory: Option<&'a str>,
    joints: Vec<&'a str>,
    links: usize,
    objects: &'a [String],
    self_pairs: usize,
    waypoints: Vec<WaypointJson<'a>>,
    segments: Vec<SegmentJson<'a>>,
    summary: SummaryJson,
}

/// The JSON report (schema in `peng robot --help`), pretty-printed.
pub fn json(inputs: &Inputs, a: &Analysis) -> String {
    let r = &inputs.checker.robot;
    let pair = |p: &PairReport| {
        let (link, other) = pair_names(&inputs.checker, &inputs.objects, p);
        PairJson {
            link,
            other,
            other_kind: other_word(p),
            distance: p.distance,
            point_link: p.point_link.to_array(),
            point_other: p.point_other.to_array(),
        }
    };
    let waypoints = a
        .waypoints
        .iter()
        .enumerate()
        .map(|(i, w)| WaypointJson {
            index: i,
            line: inputs.trajectory.lines.get(i).copied().flatten(),
            q: &w.q,
            free: w.free(),
            closest: w.closest.as_ref().map(pair),
            contacts: w.contacts.iter().map(pair).collect(),
        })
        .collect();
    let segments = a
        .segments
        .iter()
        .enumerate()
        .map(|(i, seg)| {
            let (clearance, contact) = match seg {
                SegmentCheck::Free(d) => (*d, None),
                SegmentCheck::Contact(c) => (
                    None,
                    Some(ContactJson {
                        s: c.s,
                        q: &c.q,
                        pair: pair(&c.pair),
                        after: AfterJson {
                            samples: c.after.samples,
                            in_contact: c.after.in_contact,
                            deepest: c.after.deepest.as_ref().map(|(s, p)| DeepestJson {
                                s: *s,
                                pair: pair(p),
                            }),
                            last_contact_s: c.after.last_contact_s,
                        },
                    }),
                ),
            };
            SegmentJson {
                index: i,
                from: i,
                to: i + 1,
                free: contact.is_none(),
                clearance,
                contact,
            }
        })
        .collect();
    let report = ReportJson {
        format: "peng-robot/1",
        robot: &r.name,
        urdf: &inputs.urdf,
        srdf: inputs.srdf.as_deref(),
        scene: inputs.scene.as_deref(),
        trajectory: inputs.trajectory_source.as_deref(),
        joints: r
            .active_joints()
            .iter()
            .map(|&j| r.joints[j].name.as_str())
            .collect(),
        links: r.links.len(),
        objects: &inputs.objects,
        self_pairs: inputs.checker.self_pairs().len(),
        waypoints,
        segments,
        summary: SummaryJson {
            waypoints: a.waypoints.len(),
            waypoints_free: a.waypoints_free(),
            segments: a.segments.len(),
            segments_free: a.segments_free(),
            min_clearance: a.min_clearance().map(|(d, _)| d),
            first_contact: a
                .first_contact()
                .map(|(i, c)| FirstJson { segment: i, s: c.s }),
        },
    };
    // Serializing plain structs cannot fail; fall back to an empty object anyway.
    serde_json::to_string_pretty(&report).unwrap_or_else(|_| "{}".to_string())
}
