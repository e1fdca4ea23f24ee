//! Reading IFC files (IFC2X3, IFC4, IFC4X3) into [`Element`](crate::Element)s, with ifc-lite.
//!
//! The elements are the ones IfcOpenShell's geometry iterator yields for
//! ifcclash: every `IfcElement` that is not an `IfcFeatureElement` (so no
//! openings, projections, spaces, sites, storeys, annotations or grids) and
//! that has a body representation, with its openings (`IfcRelVoidsElement`,
//! also those of the whole it is aggregated into) cut out. Coordinates are
//! world metres, whatever the file's length unit.
//!
//! The files are: `step` (is it STEP, which schema, is it cut short),
//! `schema` (class names and inheritance), `scan` (one pass over the
//! records), `relations` (identities: storey, parent) and `mesh` (meshing in
//! parallel).

mod mesh;
mod relations;
mod scan;
mod schema;
mod step;
#[cfg(test)]
mod tests;

use crate::error::ClashError;
use crate::loaded::Loaded;
use ifc_lite_core::{EntityDecoder, EntityScanner};
use ifc_lite_geometry::GeometryRouter;
use mesh::{panic_text, Job, Mesher, Outcome};
use relations::Relations;
use schema::{class_name, Schema};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

/// `IfcProduct.Representation`.
const REPRESENTATION: usize = 6;

/// Reads the IFC file at `path` (see [`parse_ifc`]); the file is named as the
/// path is written.
pub fn read_ifc(path: &Path) -> Result<Loaded, ClashError> {
    let file = path.display().to_string();
    let content = std::fs::read(path).map_err(|e| ClashError::File {
        file: file.clone(),
        what: format!("cannot read the file: {e}"),
    })?;
    parse_ifc(&file, &content)
}

/// Reads IFC content; `file_name` names it in identities and errors.
///
/// Errors ([`ClashError::File`]) when the content is empty, is not a STEP
/// file, is cut before any record, or declares an unusable length unit. A
/// truncated file gives the elements before the cut and a problem saying so.
pub fn parse_ifc(file_name: &str, content: &[u8]) -> Result<Loaded, ClashError> {
    // The last guard: a panic in ifc-lite outside one element's meshing
    // (those are caught per element) fails the file, not the caller.
    catch_unwind(AssertUnwindSafe(|| parse(file_name, content))).unwrap_or_else(|panic| {
        Err(ClashError::File {
            file: file_name.to_string(),
            what: format!("the IFC reader failed: {}", panic_text(&*panic)),
        })
    })
}

fn parse(file_name: &str, content: &[u8]) -> Result<Loaded, ClashError> {
    let envelope = step::envelope(file_name, content)?;
    let mut schema = Schema::from_label(envelope.schema);
    let mut scan = scan::scan(content, &mut schema);
    // File-level problems, then the elements' in file order.
    let (mut problems, mut left_out) = (Vec::new(), Vec::new());
    if envelope.truncated {
        let cut = step::truncated_problem(file_name, content.len(), scan.last.map(|l| l.0));
        if scan.last.is_none() {
            return Err(cut);
        }
        problems.push(cut);
    }
    problems.extend(scan.problems(file_name, &schema, envelope.truncated));

    let index = Arc::new(std::mem::take(&mut scan.index));
    let mut decoder = EntityDecoder::with_arc_index(content, index.clone());
    let units = GeometryRouter::with_units(content, &mut decoder);
    if units.length_unit_refused() {
        return Err(ClashError::File {
            file: file_name.to_string(),
            what: "the project's length unit is unusable".to_string(),
        });
    }
    let radians = decoder.plane_angle_to_radians();

    let mut relations = Relations::read(&scan, &mut decoder, file_name, &mut problems);
    let mut jobs = Vec::with_capacity(scan.elements.len());
    for &(id, start, end) in &scan.elements {
        match decoder.decode_at_with_id(id, start, end) {
            // No representation: nothing to mesh, as in IfcOpenShell.
            Ok(e) if e.get(REPRESENTATION).is_none_or(|r| r.is_null()) => {}
            Ok(entity) => {
                let identity = relations.identity(&entity, &mut decoder, &schema, file_name);
                jobs.push(Job { entity, identity });
            }
            Err(e) => {
                let keyword = EntityScanner::new_at(content, start).next_entity();
                let class = keyword.map_or(String::new(), |k| class_name(k.1));
                left_out.push(ClashError::Element {
                    file: file_name.to_string(),
                    element: format!("#{id} {class}"),
                    what: format!("unreadable record: {e}"),
                });
            }
        }
    }

    // ifc-lite's host -> openings index, through aggregates as IfcOpenShell.
    let voids = catch_unwind(AssertUnwindSafe(|| {
        ifc_lite_geometry::void_index_from_content(content, &mut decoder)
    }))
    .unwrap_or_else(|panic| {
        problems.push(ClashError::File {
            file: file_name.to_string(),
            what: format!(
                "the openings could not be read, none is cut: {}",
                panic_text(&*panic)
            ),
        });
        Default::default()
    });
    let mesher = Mesher::new(content, index, units.unit_scale(), radians, &voids);
    let mut elements = Vec::with_capacity(jobs.len());
    for outcome in mesher.run(&jobs) {
        match outcome {
            Outcome::Element(e) => elements.push(*e),
            Outcome::Skipped => {}
            Outcome::Problem(p) => left_out.push(p),
        }
    }
    problems.append(&mut left_out);
    Ok(Loaded { elements, problems })
}
