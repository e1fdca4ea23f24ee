//! Who each element is: GlobalId, class and name from its record; storey and
//! parent from the containment and decomposition relationships.

use super::scan::{Scan, Span};
use super::schema::{class_name, Schema};
use crate::element::Identity;
use crate::error::ClashError;
use ifc_lite_core::{DecodedEntity, EntityDecoder};
use std::collections::HashMap;

/// Attribute positions shared by IFC2X3, IFC4 and IFC4X3.
const GLOBAL_ID: usize = 0;
const NAME: usize = 2;
/// `IfcRelAggregates`/`IfcRelNests`: RelatingObject, RelatedObjects.
const WHOLE: usize = 4;
const PARTS: usize = 5;
/// `IfcRelContainedInSpatialStructure`: RelatedElements, RelatingStructure.
const CONTAINED: usize = 4;
const STRUCTURE: usize = 5;

/// `IfcRelFillsElement`: RelatingOpeningElement, RelatedBuildingElement;
/// `IfcRelVoidsElement`: RelatingBuildingElement, RelatedOpeningElement;
/// `IfcRelCoversBldgElements`: RelatingBuildingElement, RelatedCoverings.
const RELATING: usize = 4;
const RELATED: usize = 5;

/// How deep a chain of decompositions is followed (guards against cycles).
const MAX_DEPTH: usize = 64;

/// Each related object of the relationship records (attribute `from`, a
/// list) -> the relating one (attribute `to`); the first relationship wins.
fn fold(
    spans: &[Span],
    from: usize,
    to: usize,
    decoder: &mut EntityDecoder,
    file: &str,
    problems: &mut Vec<ClashError>,
) -> HashMap<u32, u32> {
    let mut map = HashMap::new();
    for &(id, start, end) in spans {
        match decoder.decode_at_with_id(id, start, end) {
            Ok(r) => {
                // `from`: a list, or a single reference (fills, voids),
                // which `get_refs` reads as a list of one.
                if let (Some(target), Some(sources)) = (r.get_ref(to), r.get_refs(from)) {
                    for s in sources {
                        map.entry(s).or_insert(target);
                    }
                }
            }
            Err(e) => problems.push(ClashError::File {
                file: file.to_string(),
                what: format!("#{id}: unreadable relationship: {e}"),
            }),
        }
    }
    map
}

/// The relationships, by the element they start from.
pub(crate) struct Relations {
    /// Element -> the spatial structure that contains it.
    contained_in: HashMap<u32, u32>,
    /// Part -> the whole it is aggregated or nested into.
    part_of: HashMap<u32, u32>,
    /// Element -> the opening it fills.
    fills: HashMap<u32, u32>,
    /// Opening -> the element it is cut into.
    voids: HashMap<u32, u32>,
    /// Covering -> the element it covers.
    covers: HashMap<u32, u32>,
    /// Spatial structure -> its storey's name (memo).
    storeys: HashMap<u32, Option<String>>,
}

impl Relations {
    /// Reads the relationships found by the scan; unreadable ones are reported.
    pub(crate) fn read(
        scan: &Scan,
        decoder: &mut EntityDecoder,
        file: &str,
        problems: &mut Vec<ClashError>,
    ) -> Relations {
        let mut fold = |spans, from, to| fold(spans, from, to, decoder, file, problems);
        Relations {
            contained_in: fold(&scan.containments, CONTAINED, STRUCTURE),
            part_of: fold(&scan.decompositions, PARTS, WHOLE),
            fills: fold(&scan.fills, RELATED, RELATING),
            voids: fold(&scan.voids, RELATED, RELATING),
            covers: fold(&scan.covers, RELATED, RELATING),
            storeys: HashMap::new(),
        }
    }

    /// The identity of an element record.
    pub(crate) fn identity(
        &mut self,
        element: &DecodedEntity,
        decoder: &mut EntityDecoder,
        schema: &Schema,
        file: &str,
    ) -> Identity {
        let id = match element.get_string(GLOBAL_ID) {
            Some(g) if !g.is_empty() => g.to_string(),
            _ => format!("#{}", element.id),
        };
        Identity {
            id,
            class: class_name(element.ifc_type.as_str()),
            name: element.get_string(NAME).unwrap_or_default().to_string(),
            storey: self.storey(element.id, decoder, schema),
            file: file.to_string(),
            parent: self.parent(element.id, decoder, schema),
            fills: self
                .fills
                .get(&element.id)
                .and_then(|opening| self.voids.get(opening))
                .and_then(|&host| global_id(host, decoder)),
            covers: self
                .covers
                .get(&element.id)
                .and_then(|&host| global_id(host, decoder)),
        }
    }

    /// The GlobalId of the element this one is a part of, if that is an
    /// element (not a spatial structure or the project).
    fn parent(&self, id: u32, decoder: &mut EntityDecoder, schema: &Schema) -> Option<String> {
        let whole = decoder.decode_by_id(*self.part_of.get(&id)?).ok()?;
        if !schema.is_a(whole.ifc_type.as_str(), "IFCELEMENT") {
            return None;
        }
        whole.get_string(GLOBAL_ID).map(str::to_string)
    }

    /// The name of the storey containing the element, or containing the
    /// whole it is part of.
    fn storey(&mut self, id: u32, decoder: &mut EntityDecoder, schema: &Schema) -> Option<String> {
        let mut at = id;
        for _ in 0..MAX_DEPTH {
            if let Some(&structure) = self.contained_in.get(&at) {
                return self.storey_of_structure(structure, decoder, schema);
            }
            at = *self.part_of.get(&at)?;
        }
        None
    }

    /// The storey a spatial structure is, or lies in (a space in a storey).
    fn storey_of_structure(
        &mut self,
        structure: u32,
        decoder: &mut EntityDecoder,
        schema: &Schema,
    ) -> Option<String> {
        if let Some(known) = self.storeys.get(&structure) {
            return known.clone();
        }
        let mut found = None;
        let mut at = structure;
        for _ in 0..MAX_DEPTH {
            let Ok(s) = decoder.decode_by_id(at) else {
                break;
            };
            if schema.is_a(s.ifc_type.as_str(), "IFCBUILDINGSTOREY") {
                found = Some(s.get_string(NAME).unwrap_or_default().to_string());
                break;
            }
            match self.part_of.get(&at) {
                Some(&up) => at = up,
                None => break,
            }
        }
        self.storeys.insert(structure, found.clone());
        found
    }
}

/// The GlobalId of record `id`, if it has one.
fn global_id(id: u32, decoder: &mut EntityDecoder) -> Option<String> {
    let record = decoder.decode_by_id(id).ok()?;
    record
        .get_string(GLOBAL_ID)
        .filter(|g| !g.is_empty())
        .map(str::to_string)
}
