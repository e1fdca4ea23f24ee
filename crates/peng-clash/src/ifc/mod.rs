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

mod guard;
mod mesh;
mod quiet;
mod relations;
mod scan;
mod schema;
mod step;
mod sweeps;
#[cfg(test)]
mod tests;
mod units;

use crate::error::ClashError;
use crate::loaded::Loaded;
use crate::options::LoadOptions;
use ifc_lite_core::{EntityDecoder, EntityScanner};
use mesh::{panic_text, Job, Mesher, Outcome};
use relations::Relations;
use schema::{class_name, Schema};
use std::path::Path;
use std::sync::Arc;

/// `IfcProduct.Representation`.
const REPRESENTATION: usize = 6;

/// Reads the IFC file at `path` (see [`parse_ifc`]); the file is named as the
/// path is written.
pub fn read_ifc(path: &Path) -> Result<Loaded, ClashError> {
    read_ifc_with(path, &LoadOptions::default())
}

/// [`read_ifc`] within the limits of `options`.
pub fn read_ifc_with(path: &Path, options: &LoadOptions) -> Result<Loaded, ClashError> {
    let file = path.display().to_string();
    let content = std::fs::read(path).map_err(|e| ClashError::File {
        file: file.clone(),
        what: format!("cannot read the file: {e}"),
    })?;
    parse_ifc_with(&file, &content, options)
}

/// Reads IFC content; `file_name` names it in identities and errors.
///
/// Errors ([`ClashError::File`]) when the content is empty, is not a STEP
/// file, is cut before any record, or declares an unusable length unit. A
/// truncated file gives the elements before the cut and a problem saying so.
///
/// Problems that do not stop the load: a unit whose record has wrong types
/// (the default unit is used), an element whose meshing fails in ifc-lite
/// (its panic is caught, not printed, and reported with its message), an
/// element whose boolean operations nest deeper than
/// [`LoadOptions::max_boolean_depth`] or whose geometry holds a number
/// beyond 10^10 m (left out before meshing), an element whose exact cuts
/// exceed [`LoadOptions::max_cut_work`] (kept, its remaining cuts made as
/// boxes).
pub fn parse_ifc(file_name: &str, content: &[u8]) -> Result<Loaded, ClashError> {
    parse_ifc_with(file_name, content, &LoadOptions::default())
}

/// [`parse_ifc`] within the limits of `options`.
pub fn parse_ifc_with(
    file_name: &str,
    content: &[u8],
    options: &LoadOptions,
) -> Result<Loaded, ClashError> {
    // The last guard: a panic in ifc-lite outside one element's meshing
    // (those are caught per element) fails the file, not the caller.
    quiet::catch(|| parse(file_name, content, options)).unwrap_or_else(|panic| {
        Err(ClashError::File {
            file: file_name.to_string(),
            what: format!("the IFC reader failed: {}", panic_text(&*panic)),
        })
    })
}

fn parse(file_name: &str, content: &[u8], options: &LoadOptions) -> Result<Loaded, ClashError> {
    let envelope = step::envelope(file_name, content)?;
    let patched = sweeps::whole_directrices(content);
    let content = patched.as_ref().map_or(content, |(p, _)| &p[..]);
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
    let units = units::read(file_name, content, &mut decoder, &mut problems);
    if units.length_refused {
        return Err(ClashError::File {
            file: file_name.to_string(),
            what: "the project's length unit is unusable".to_string(),
        });
    }

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
    let voids = quiet::catch(|| ifc_lite_geometry::void_index_from_content(content, &mut decoder))
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
    // Process-wide in ifc-lite (read when each element's scope opens).
    ifc_lite_geometry::kernel::budget::set_element_cap(Some(options.max_cut_work.max(1)));
    let limits = guard::Limits {
        max_boolean_depth: options.max_boolean_depth,
        max_magnitude: guard::MAX_METRES / units.length,
    };
    let mesher = Mesher::new(
        content,
        index,
        (units.length, units.radians),
        &voids,
        limits,
    );
    let mut elements = Vec::with_capacity(jobs.len());
    for outcome in mesher.run(&jobs) {
        match outcome {
            Outcome::Element(e, mut warnings) => {
                elements.push(*e);
                left_out.append(&mut warnings);
            }
            Outcome::Skipped => {}
            Outcome::Problem(p) => left_out.push(p),
        }
    }
    problems.append(&mut left_out);
    Ok(Loaded { elements, problems })
}
