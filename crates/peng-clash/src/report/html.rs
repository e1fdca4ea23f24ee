//! The HTML report: one page that opens in any browser, offline, with its
//! styles inline and its pictures inline or (for many clashes, so that the
//! page stays light) as files in a folder beside it, loaded as they scroll
//! into view. Each test opens with a summary and its groups, linked to their
//! clashes; the clashes are listed as a worklist, group by group and the most
//! severe first, each linked back to its group.

use super::pictures::Pictures;
use super::{ClashEntry, Identity, Report, TestReport};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use std::fmt::Write;

/// Where the page finds its pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PictureLinks<'a> {
    /// In the page itself (data URLs): one self-contained file.
    Inline,
    /// As PNG files in this folder, relative to the page, named by
    /// [`picture_file`], each loaded when it scrolls into view.
    Folder(&'a str),
}

/// The file name of a clash's picture in a picture folder: the test's index
/// and the clash id.
pub fn picture_file(test: usize, clash_id: &str) -> String {
    format!("t{test}-{clash_id}.png")
}

/// The report as one self-contained HTML page, each clash with its picture
/// from `pictures` inline.
pub fn to_html(report: &Report, pictures: &Pictures) -> String {
    to_html_with(report, pictures, PictureLinks::Inline)
}

/// The report as one HTML page, its pictures where `links` says.
pub fn to_html_with(report: &Report, pictures: &Pictures, links: PictureLinks) -> String {
    let mut h = String::new();
    h.push_str(concat!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<title>peng clash report</title><style>",
        "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}",
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}",
        "th{background:#f3f3f0}.a{color:#c4600f}.b{color:#2a64b0}.new{color:#b00}.active{color:#a60}.resolved{color:#080}",
        "img{display:block;border:1px solid #ddd}code{font-size:12px}",
        "</style></head><body>\n<h1>peng clash report</h1>\n"
    ));
    let _ = writeln!(h, "<p>{}</p>", esc(&report.generator));
    h.push_str("<h2>Files</h2><table><tr><th>file</th><th>elements</th></tr>");
    for f in &report.files {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td></tr>",
            esc(&f.file),
            f.elements
        );
    }
    h.push_str("</table>\n");
    if !report.problems.is_empty() {
        let _ = write!(h, "<h2>Problems ({})</h2><ul>", report.problems.len());
        for p in &report.problems {
            let _ = write!(h, "<li>{}</li>", esc(p));
        }
        h.push_str("</ul>\n");
    }
    for (t, test) in report.tests.iter().enumerate() {
        test_section(&mut h, t, test, pictures, links);
    }
    h.push_str("</body></html>\n");
    h
}

/// The clashes as a worklist: group by group (in the groups' order, the
/// ungrouped last), and within a group the most severe first (the deepest
/// penetration, then the smallest gap), then by id.
fn worklist(test: &TestReport) -> Vec<&ClashEntry> {
    let mut list: Vec<&ClashEntry> = test.clashes.iter().collect();
    list.sort_by(|x, y| {
        let group = |c: &ClashEntry| c.group.unwrap_or(usize::MAX);
        group(x)
            .cmp(&group(y))
            .then(x.distance.total_cmp(&y.distance))
            .then(x.id.cmp(&y.id))
    });
    list
}

/// A test's counts by kind and by status, before the details.
fn summary(h: &mut String, test: &TestReport) {
    if test.clashes.is_empty() {
        return;
    }
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    let mut statuses: Vec<(&str, usize)> = Vec::new();
    for c in &test.clashes {
        for (list, key) in [
            (&mut kinds, c.kind.as_str()),
            (&mut statuses, c.status.as_str()),
        ] {
            match list.iter_mut().find(|(k, _)| *k == key) {
                Some(e) => e.1 += 1,
                None => list.push((key, 1)),
            }
        }
    }
    let join = |list: &[(&str, usize)]| {
        list.iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let deepest = test
        .clashes
        .iter()
        .map(|c| c.distance)
        .fold(f64::INFINITY, f64::min);
    let _ = writeln!(
        h,
        "<p>Summary: {}; {}; the most severe at {:.1} mm.</p>",
        join(&kinds),
        join(&statuses),
        deepest * 1000.0
    );
}

fn test_section(
    h: &mut String,
    t: usize,
    test: &TestReport,
    pictures: &Pictures,
    links: PictureLinks,
) {
    let _ = writeln!(
        h,
        "<h2 id=\"t{t}\">{}: {} clash{}</h2><p>mode <code>{}</code>; set A {} elements, set B {}; {} pairs tested.</p>",
        esc(&test.name),
        test.clashes.len(),
        if test.clashes.len() == 1 { "" } else { "es" },
        esc(&serde_json::to_string(&test.mode).unwrap_or_default()),
        test.set_a,
        test.set_b.map_or("= set A".to_string(), |n| format!("{n} elements")),
        test.pairs_tested
    );
    summary(h, test);
    if !test.groups.is_empty() {
        h.push_str("<h3>Groups</h3><ol start=\"0\">");
        for (g, group) in test.groups.iter().enumerate() {
            let _ = write!(
                h,
                "<li><a href=\"#t{t}-g{g}\">{}</a></li>",
                esc(&group.name)
            );
        }
        h.push_str("</ol>\n");
    }
    if !test.clashes.is_empty() {
        h.push_str("<table><tr><th>picture</th><th>clash</th><th class=\"a\">A</th><th class=\"b\">B</th></tr>\n");
        // Each group's rows under a header row its list entry links to.
        let mut current: Option<Option<usize>> = None;
        for c in worklist(test) {
            if !test.groups.is_empty() && current != Some(c.group) {
                current = Some(c.group);
                let title = c
                    .group
                    .and_then(|g| test.groups.get(g))
                    .map_or_else(|| "Not grouped".to_string(), |g| esc(&g.name));
                let anchor = c
                    .group
                    .map_or(format!("t{t}-ungrouped"), |g| format!("t{t}-g{g}"));
                let _ = writeln!(
                    h,
                    "<tr id=\"{anchor}\"><th colspan=\"4\">{}{title} <a href=\"#t{t}\">(back to the groups)</a></th></tr>",
                    c.group.map_or(String::new(), |g| format!("Group {g}: "))
                );
            }
            let img = pictures
                .get(&(t, c.id.clone()))
                .map_or(String::new(), |pic| image(t, &c.id, &pic.png, links));
            let _ = writeln!(
                h,
                "<tr id=\"t{t}-c{}\"><td>{img}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&c.id),
                clash_cell(t, c),
                element_cell(&c.a),
                element_cell(&c.b)
            );
        }
        h.push_str("</table>\n");
    }
    if !test.resolved.is_empty() {
        let _ = write!(h, "<h3>Resolved since the earlier report ({})</h3><table><tr><th>clash</th><th>A</th><th>B</th></tr>", test.resolved.len());
        for c in &test.resolved {
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                clash_cell(t, c),
                element_cell(&c.a),
                element_cell(&c.b)
            );
        }
        h.push_str("</table>\n");
    }
}

/// The `img` element of a clash's picture.
fn image(t: usize, id: &str, png: &[u8], links: PictureLinks) -> String {
    let alt = esc(id);
    match links {
        PictureLinks::Inline => format!(
            "<img alt=\"clash {alt}\" src=\"data:image/png;base64,{}\">",
            BASE64.encode(png)
        ),
        PictureLinks::Folder(dir) => {
            // The size from the PNG's header (IHDR: width, height at bytes
            // 16 and 20), so that the page lays out before pictures load.
            let size = |at: usize| {
                png.get(at..at + 4)
                    .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            };
            format!(
                "<img alt=\"clash {alt}\" loading=\"lazy\" decoding=\"async\" width=\"{}\" height=\"{}\" src=\"{}/{}\">",
                size(16),
                size(20),
                esc(dir),
                esc(&picture_file(t, id))
            )
        }
    }
}

/// A clash's kind, status, distance, group (linked to its header row), id
/// and points; `t` is the test's index.
fn clash_cell(t: usize, c: &ClashEntry) -> String {
    let status = c.status.as_str();
    let p = |x: [f64; 3]| format!("({:.3}, {:.3}, {:.3})", x[0], x[1], x[2]);
    format!(
        "<b>{}</b> <span class=\"{status}\">{status}</span><br>distance {:.1} mm<br>group {}<br><code>{}</code><br>A {}<br>B {}",
        c.kind.as_str(),
        c.distance * 1000.0,
        c.group.map_or("-".to_string(), |g| format!("<a href=\"#t{t}-g{g}\">{g}</a>")),
        esc(&c.id),
        p(c.point_a),
        p(c.point_b)
    )
}

fn element_cell(e: &Identity) -> String {
    format!(
        "{}<br><b>{}</b><br><code>{}</code><br>{}{}",
        esc(&e.class),
        esc(&e.name),
        esc(&e.id),
        e.storey
            .as_deref()
            .map_or(String::new(), |s| format!("storey {}<br>", esc(s))),
        esc(&e.file)
    )
}

/// Escapes text for HTML content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}
