//! One pass over a file's records: where each record lies, which are elements
//! or relationships, and which could not be read.

use super::schema::{Role, Schema};
use crate::error::ClashError;
use ifc_lite_core::{EntityIndex, EntityScanner};

/// A record: its instance number and byte span.
pub(crate) type Span = (u32, usize, usize);

/// What the pass found, in file order.
#[derive(Default)]
pub(crate) struct Scan {
    /// Every record's span by instance number (the first one wins).
    pub index: EntityIndex,
    /// Elements that may carry body geometry (see [`Role::Element`]).
    pub elements: Vec<Span>,
    /// `IfcRelContainedInSpatialStructure` records.
    pub containments: Vec<Span>,
    /// `IfcRelAggregates` and `IfcRelNests` records.
    pub decompositions: Vec<Span>,
    /// `IfcRelFillsElement` records.
    pub fills: Vec<Span>,
    /// `IfcRelVoidsElement` records.
    pub voids: Vec<Span>,
    /// `IfcRelCoversBldgElements` records.
    pub covers: Vec<Span>,
    /// Keywords the schema does not declare: keyword, first record, count.
    pub unknown: Vec<(String, u32, usize)>,
    /// Instance numbers declared more than once.
    pub duplicates: Vec<u32>,
    /// Byte offsets of records the scanner dropped as malformed.
    pub malformed: Vec<usize>,
    /// The last complete record and where it ends.
    pub last: Option<(u32, usize)>,
}

/// Scans every record of `content`.
pub(crate) fn scan(content: &[u8], schema: &mut Schema) -> Scan {
    let mut out = Scan::default();
    let mut scanner = EntityScanner::new(content);
    while let Some((id, keyword, start, end)) = scanner.next_entity() {
        out.last = Some((id, end));
        if out.index.contains_key(&id) {
            out.duplicates.push(id);
            continue;
        }
        out.index.insert(id, (start, end));
        let span = (id, start, end);
        match schema.role(keyword) {
            Role::Element => out.elements.push(span),
            Role::Containment => out.containments.push(span),
            Role::Decomposition => out.decompositions.push(span),
            Role::Fills => out.fills.push(span),
            Role::Voids => out.voids.push(span),
            Role::Covers => out.covers.push(span),
            Role::Other => {}
            Role::Unknown => match out.unknown.iter_mut().find(|u| u.0 == keyword) {
                Some(u) => u.2 += 1,
                None => out.unknown.push((keyword.to_string(), id, 1)),
            },
        }
    }
    out.malformed = scanner.malformed_record_starts().to_vec();
    out
}

impl Scan {
    /// File-level problems: unknown keywords, duplicates, malformed records.
    /// A malformed record after the last complete one is the cut of a
    /// truncated file, reported as such elsewhere, so it is left out here.
    pub(crate) fn problems(&self, file: &str, schema: &Schema, truncated: bool) -> Vec<ClashError> {
        let problem = |what: String| ClashError::File {
            file: file.to_string(),
            what,
        };
        let mut out = Vec::new();
        for (keyword, id, count) in &self.unknown {
            let schema = match schema.label() {
                "" => "any IFC schema".to_string(),
                label => format!("schema {label}"),
            };
            out.push(problem(format!(
                "#{id}: {keyword} is not an entity of {schema}; {count} such record(s) ignored"
            )));
        }
        if let Some(&id) = self.duplicates.first() {
            out.push(problem(format!(
                "{} instance number(s) declared twice, the first #{id}; the first declaration is used",
                self.duplicates.len()
            )));
        }
        let cut = self.last.map_or(0, |(_, end)| end);
        let malformed: Vec<usize> = self
            .malformed
            .iter()
            .copied()
            .filter(|&at| !(truncated && at >= cut))
            .collect();
        if let Some(at) = malformed.first() {
            out.push(problem(format!(
                "{} malformed record(s) skipped, the first at byte {at}",
                malformed.len()
            )));
        }
        out
    }
}
