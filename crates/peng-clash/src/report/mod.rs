//! The clash report: what a run found, in a form people and tools can read,
//! with grouping and the status of each clash against an earlier report.
//!
//! JSON schema (`"schema": "peng-clash-report/1"`), all lengths in metres and
//! points in world coordinates:
//!
//! ```text
//! { "schema": "peng-clash-report/1",
//!   "generator": "peng 0.1.0",
//!   "files": [ { "file": str, "elements": int } ],
//!   "problems": [ str ],                       // elements that could not be used
//!   "tests": [ {
//!       "name": str,
//!       "mode": { "mode": "hard", "tolerance": f, "report_touching": bool }
//!             | { "mode": "clearance", "distance": f }
//!             | { "mode": "duplicate", "tolerance": f },
//!       "set_a": int, "set_b": int | null,     // element counts; null: A against itself
//!       "pairs_tested": int,
//!       "clashes": [ {
//!           "id": str,                          // stable: from the two element ids
//!           "kind": "protrusion" | "pierce" | "containment" | "touch"
//!                 | "clearance" | "duplicate",
//!           "distance": f,                      // < 0: penetration depth
//!           "point_a": [x, y, z], "point_b": [x, y, z],
//!           "a": element, "b": element,         // A from set A, B from set B
//!           "group": int | null,                // index into "groups"
//!           "status": "new" | "active" } ],
//!       "groups": [ { "name": str, "clashes": [ str ], "center": [x, y, z] } ],
//!       "resolved": [ clash ] } ] }            // in the earlier report, not found now
//! element: { "id": str, "class": str, "name": str, "storey": str | null,
//!            "file": str, "parent": str | null }
//! ```

mod bcf;
mod csv;
mod group;
mod html;
mod pictures;
mod status;

pub use bcf::{to_bcf, BcfError, Topics};
pub use csv::to_csv;
pub use group::{group_clashes, GroupBy};
pub use html::{picture_file, to_html, to_html_with, PictureLinks};
pub use pictures::{draw_pictures, Picture, Pictures};
pub use status::mark_status;

use crate::check::Mode;
use crate::clash::{Clash, ClashKind};
use crate::element::{Element, Identity};
use serde::{Deserialize, Serialize};

/// The schema tag written into every report.
pub const SCHEMA: &str = "peng-clash-report/1";

/// A whole report: several clash tests over one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// The program that wrote it.
    pub generator: String,
    /// The input files and how many elements each gave.
    pub files: Vec<FileEntry>,
    /// Elements or files that could not be used, one message each.
    pub problems: Vec<String>,
    /// The clash tests, in the order they ran.
    pub tests: Vec<TestReport>,
}

/// One input file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileEntry {
    /// The file as the user named it.
    pub file: String,
    /// How many elements it gave.
    pub elements: usize,
}

/// One clash test's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestReport {
    /// The test's name.
    pub name: String,
    /// What it looked for.
    pub mode: Mode,
    /// How many elements set A had.
    pub set_a: usize,
    /// How many set B had; `None` when A was tested against itself.
    pub set_b: Option<usize>,
    /// How many candidate pairs were tested.
    pub pairs_tested: usize,
    /// The clashes, sorted by id.
    pub clashes: Vec<ClashEntry>,
    /// Groups of clashes to work through together.
    pub groups: Vec<GroupEntry>,
    /// Clashes of the earlier report that this run no longer finds.
    pub resolved: Vec<ClashEntry>,
}

/// Whether a clash was already in the earlier report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Not in the earlier report (or there was none).
    New,
    /// In the earlier report too.
    Active,
    /// In the earlier report, not found now (listed under `resolved`).
    Resolved,
}

/// One clash, with both elements' identities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClashEntry {
    /// Stable id ([`crate::clash_id`]).
    pub id: String,
    /// What kind of clash.
    pub kind: ClashKind,
    /// Signed distance, metres (negative: penetration depth).
    pub distance: f64,
    /// The point on element A.
    pub point_a: [f64; 3],
    /// The point on element B.
    pub point_b: [f64; 3],
    /// Element A (from set A).
    pub a: Identity,
    /// Element B (from set B).
    pub b: Identity,
    /// Index into the test's groups.
    pub group: Option<usize>,
    /// New or active (resolved ones are listed apart).
    pub status: Status,
}

/// A group of clashes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupEntry {
    /// A name saying what the group has in common.
    pub name: String,
    /// The ids of its clashes.
    pub clashes: Vec<String>,
    /// The mean of its clashes' points.
    pub center: [f64; 3],
}

impl Status {
    /// "new", "active" or "resolved".
    pub fn as_str(self) -> &'static str {
        match self {
            Status::New => "new",
            Status::Active => "active",
            Status::Resolved => "resolved",
        }
    }
}

impl ClashEntry {
    /// The entry for `clash` of `model`, status new, no group.
    pub fn new(model: &[Element], clash: &Clash) -> ClashEntry {
        let f = &clash.finding;
        ClashEntry {
            id: clash.id.clone(),
            kind: f.kind,
            distance: f.distance,
            point_a: f.point_a.to_array(),
            point_b: f.point_b.to_array(),
            a: model[clash.a].identity.clone(),
            b: model[clash.b].identity.clone(),
            group: None,
            status: Status::New,
        }
    }

    /// The midpoint of the two points.
    pub fn center(&self) -> [f64; 3] {
        std::array::from_fn(|k| 0.5 * (self.point_a[k] + self.point_b[k]))
    }
}

impl TestReport {
    /// The report of one test's clashes (status new, no groups yet), sorted by id.
    pub fn new(
        name: &str,
        mode: Mode,
        set_a: usize,
        set_b: Option<usize>,
        pairs_tested: usize,
        model: &[Element],
        clashes: &[Clash],
    ) -> TestReport {
        let mut entries: Vec<ClashEntry> =
            clashes.iter().map(|c| ClashEntry::new(model, c)).collect();
        entries.sort_by(|x, y| x.id.cmp(&y.id));
        TestReport {
            name: name.to_string(),
            mode,
            set_a,
            set_b,
            pairs_tested,
            clashes: entries,
            groups: Vec::new(),
            resolved: Vec::new(),
        }
    }
}

impl Report {
    /// An empty report for these files.
    pub fn new(files: Vec<FileEntry>, problems: Vec<String>) -> Report {
        Report {
            schema: SCHEMA.to_string(),
            generator: format!("peng {}", env!("CARGO_PKG_VERSION")),
            files,
            problems,
            tests: Vec::new(),
        }
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes")
    }

    /// A report read back from JSON; the error says what is wrong and where.
    pub fn from_json(text: &str) -> Result<Report, String> {
        let r: Report = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if r.schema != SCHEMA {
            return Err(format!("schema is \"{}\", expected \"{SCHEMA}\"", r.schema));
        }
        Ok(r)
    }
}
