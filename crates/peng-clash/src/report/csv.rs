//! The report as CSV: one row per clash, for spreadsheets and issue trackers.

use super::{ClashEntry, Identity, Report, TestReport};

/// The CSV header: the columns of [`to_csv`], in order.
pub(crate) const CSV_COLUMNS: [&str; 22] = [
    "test",
    "id",
    "kind",
    "status",
    "distance",
    "point_a_x",
    "point_a_y",
    "point_a_z",
    "point_b_x",
    "point_b_y",
    "point_b_z",
    "group",
    "a_id",
    "a_class",
    "a_name",
    "a_storey",
    "a_file",
    "b_id",
    "b_class",
    "b_name",
    "b_storey",
    "b_file",
];

/// The report as CSV (RFC 4180: comma-separated, CRLF line ends, fields with
/// a comma, a double quote or a line break in double quotes, quotes doubled).
///
/// A header row (`test`, `id`, `kind`, `status`, `distance`, `point_a_x` ..
/// `point_b_z`, `group`, then `id`, `class`, `name`, `storey`, `file` of each
/// element prefixed `a_` and `b_`), then one row per clash, test by test: the
/// clashes found (status `new` or `active`), then those of the earlier report
/// no longer found (status `resolved`). Distances and points are in metres
/// (shortest round-trip decimal form); `group` is the group's name, empty
/// when the clash has none; a missing storey is empty.
pub fn to_csv(report: &Report) -> String {
    let mut out = String::new();
    row(&mut out, CSV_COLUMNS.iter().map(|c| c.to_string()));
    for test in &report.tests {
        for c in &test.clashes {
            row(&mut out, fields(test, c, c.status.as_str()));
        }
        for c in &test.resolved {
            row(&mut out, fields(test, c, "resolved"));
        }
    }
    out
}

fn fields(test: &TestReport, c: &ClashEntry, status: &str) -> Vec<String> {
    let group = c
        .group
        .and_then(|g| test.groups.get(g))
        .map_or(String::new(), |g| g.name.clone());
    let mut f = vec![
        test.name.clone(),
        c.id.clone(),
        c.kind.as_str().to_string(),
        status.to_string(),
        c.distance.to_string(),
    ];
    f.extend(c.point_a.iter().chain(&c.point_b).map(|x| x.to_string()));
    f.push(group);
    element(&mut f, &c.a);
    element(&mut f, &c.b);
    f
}

fn element(f: &mut Vec<String>, e: &Identity) {
    f.push(e.id.clone());
    f.push(e.class.clone());
    f.push(e.name.clone());
    f.push(e.storey.clone().unwrap_or_default());
    f.push(e.file.clone());
}

fn row(out: &mut String, fields: impl IntoIterator<Item = String>) {
    for (i, f) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        quote(out, &f);
    }
    out.push_str("\r\n");
}

/// One field, quoted when it must be.
fn quote(out: &mut String, field: &str) {
    if field.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&field.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(field);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ClashKind, FileEntry, GroupEntry, Mode, Status};
    use super::*;

    fn element(id: &str, name: &str, storey: Option<&str>) -> Identity {
        Identity {
            id: id.into(),
            class: "IfcWall".into(),
            name: name.into(),
            storey: storey.map(Into::into),
            file: "a.ifc".into(),
            parent: None,
            ..Identity::default()
        }
    }

    fn clash(id: &str, a: Identity, group: Option<usize>, status: Status) -> ClashEntry {
        ClashEntry {
            id: id.into(),
            kind: ClashKind::Protrusion,
            distance: -0.125,
            point_a: [1.0, 2.5, -3.0],
            point_b: [1.0, 2.5, -2.875],
            a,
            b: element("B1", "Duct 200", None),
            group,
            status,
        }
    }

    /// Splits RFC 4180 text into rows of fields (the reading side, for the
    /// round trip).
    fn parse(text: &str) -> Vec<Vec<String>> {
        let mut rows = Vec::new();
        let (mut row, mut field) = (Vec::new(), String::new());
        let mut chars = text.chars().peekable();
        let mut quoted = false;
        while let Some(c) = chars.next() {
            match (quoted, c) {
                (true, '"') if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                (true, '"') => quoted = false,
                (true, c) => field.push(c),
                (false, '"') if field.is_empty() => quoted = true,
                (false, ',') => row.push(std::mem::take(&mut field)),
                (false, '\r') => {
                    assert_eq!(chars.next(), Some('\n'), "CR without LF");
                    row.push(std::mem::take(&mut field));
                    rows.push(std::mem::take(&mut row));
                }
                (false, c) => field.push(c),
            }
        }
        assert!(row.is_empty() && field.is_empty(), "no CRLF at the end");
        rows
    }

    #[test]
    fn quotes_commas_quotes_and_line_breaks() {
        let name = "Wall, \"fire\" 2h";
        let mut test = TestReport {
            name: "walls, \"rated\"".into(),
            mode: Mode::Clearance { distance: 0.05 },
            set_a: 2,
            set_b: None,
            pairs_tested: 1,
            clashes: vec![clash(
                "00ff",
                element("A1", name, Some("Level 1")),
                Some(0),
                Status::New,
            )],
            groups: vec![GroupEntry {
                name: "line\nbreak".into(),
                clashes: vec!["00ff".into()],
                center: [0.0; 3],
            }],
            resolved: vec![clash(
                "11aa",
                element("A2", "plain", None),
                None,
                Status::Resolved,
            )],
        };
        test.clashes[0].status = Status::Active;
        let mut report = Report::new(
            vec![FileEntry {
                file: "a.ifc".into(),
                elements: 2,
            }],
            vec![],
        );
        report.tests.push(test);
        let text = to_csv(&report);
        let first = text.lines().nth(1).unwrap();
        assert!(
            first.starts_with("\"walls, \"\"rated\"\"\",00ff,protrusion,active,-0.125,1,2.5,-3,1,2.5,-2.875,\"line"),
            "{text}"
        );
        assert!(
            text.contains(",\"Wall, \"\"fire\"\" 2h\",Level 1,a.ifc,"),
            "{text}"
        );
        let rows = parse(&text);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0], CSV_COLUMNS.map(String::from).to_vec());
        assert!(rows.iter().all(|r| r.len() == CSV_COLUMNS.len()));
        let r = &rows[1];
        assert_eq!(r[0], "walls, \"rated\"");
        assert_eq!(r[11], "line\nbreak");
        assert_eq!(r[14], name);
        assert_eq!(r[15], "Level 1");
        assert_eq!(r[20], "");
        assert_eq!(r[17..19], ["B1", "IfcWall"]);
        let resolved = &rows[2];
        assert_eq!(resolved[1..4], ["11aa", "protrusion", "resolved"]);
        assert_eq!(resolved[11], "");
    }

    #[test]
    fn empty_report_is_the_header() {
        let text = to_csv(&Report::new(vec![], vec![]));
        assert_eq!(text, format!("{}\r\n", CSV_COLUMNS.join(",")));
    }
}
