//! Checks made before an element is handed to ifc-lite, for inputs it would
//! spend unbounded time on or panic over:
//! - boolean operations (`IfcBooleanResult`, `IfcBooleanClippingResult`)
//!   nested deeper than a limit: each level costs ifc-lite milliseconds, and
//!   a file can nest thousands;
//! - numbers beyond [`MAX_METRES`] in the element's geometry, placement or
//!   openings: no building is that large, and overflowing sizes panic inside
//!   ifc-lite's opening cutting.
//!
//! The walk follows every reference from the element's placement and
//! representation (and its openings'), once per record, with an explicit
//! stack: the nesting depth is the longest chain of booleans on any path.

use ifc_lite_core::{AttributeValue, EntityDecoder, IfcType};
use std::collections::HashMap;

/// Largest coordinate or size accepted, in metres: a thousand times the
/// Earth's diameter, beyond any georeferenced model.
pub(crate) const MAX_METRES: f64 = 1e10;

/// `IfcProduct.ObjectPlacement` and `.Representation`.
const PLACEMENT: usize = 5;
const REPRESENTATION: usize = 6;

/// What the walk allows.
pub(crate) struct Limits {
    /// Deepest nesting of boolean operations.
    pub max_boolean_depth: usize,
    /// Largest magnitude of a number, in file units.
    pub max_magnitude: f64,
}

/// Checks the element `id` and its `openings`; the error says what is wrong.
pub(crate) fn check(
    decoder: &mut EntityDecoder,
    id: u32,
    openings: &[u32],
    limits: &Limits,
) -> Result<(), String> {
    let mut walk = Walk {
        decoder,
        limits,
        depth: HashMap::new(),
        children: HashMap::new(),
    };
    walk.product(id, "")?;
    for &o in openings {
        walk.product(o, &format!(" (in its opening #{o})"))?;
    }
    Ok(())
}

struct Walk<'w, 'a> {
    decoder: &'w mut EntityDecoder<'a>,
    limits: &'w Limits,
    /// Finished records: the deepest boolean nesting below and at each.
    depth: HashMap<u32, usize>,
    /// Records being walked: their references, and whether each is a boolean.
    children: HashMap<u32, (Vec<u32>, bool)>,
}

impl Walk<'_, '_> {
    /// Walks a product's placement and representation.
    fn product(&mut self, id: u32, what: &str) -> Result<(), String> {
        // Unreadable records are left for the meshing to report.
        let Ok(product) = self.decoder.decode_by_id(id) else {
            return Ok(());
        };
        for slot in [PLACEMENT, REPRESENTATION] {
            if let Some(root) = product.get_ref(slot) {
                self.from(root).map_err(|e| format!("{e}{what}"))?;
            }
        }
        Ok(())
    }

    /// Depth-first from `root`, post-order: a record's depth is known once
    /// its references' are. A reference back to a record still being walked
    /// (a cycle, which ifc-lite refuses on its own) counts as depth 0.
    fn from(&mut self, root: u32) -> Result<(), String> {
        let mut stack = vec![(root, false)];
        while let Some((id, done)) = stack.pop() {
            if done {
                let (below, boolean) = self.children.remove(&id).unwrap_or_default();
                let deepest = below
                    .iter()
                    .filter_map(|c| self.depth.get(c))
                    .max()
                    .copied()
                    .unwrap_or(0);
                let d = deepest + usize::from(boolean);
                if d > self.limits.max_boolean_depth {
                    return Err(format!(
                        "boolean operations nest more than {} deep at #{id} (IfcBooleanResult \
                         and IfcBooleanClippingResult operands that are booleans); the element \
                         is left out (raise the limit: LoadOptions::max_boolean_depth; in \
                         `peng clash`, --max-boolean-depth)",
                        self.limits.max_boolean_depth
                    ));
                }
                self.depth.insert(id, d);
                continue;
            }
            if self.depth.contains_key(&id) || self.children.contains_key(&id) {
                continue;
            }
            let Ok(entity) = self.decoder.decode_by_id(id) else {
                self.depth.insert(id, 0);
                continue;
            };
            let mut refs = Vec::new();
            for v in entity.attributes.iter() {
                self.scan(v, &mut refs).map_err(|x| {
                    format!(
                        "#{id} {} holds the number {x:e}, beyond {MAX_METRES:e} m: the \
                         element is left out",
                        entity.ifc_type.name()
                    )
                })?;
            }
            stack.push((id, true));
            for &c in &refs {
                if !self.depth.contains_key(&c) && !self.children.contains_key(&c) {
                    stack.push((c, false));
                }
            }
            let boolean = matches!(
                entity.ifc_type,
                IfcType::IfcBooleanResult | IfcType::IfcBooleanClippingResult
            );
            self.children.insert(id, (refs, boolean));
        }
        Ok(())
    }

    /// Collects the references in `v`; a number too large is the error.
    fn scan(&self, v: &AttributeValue, refs: &mut Vec<u32>) -> Result<(), f64> {
        match v {
            AttributeValue::EntityRef(r) => refs.push(*r),
            // NaN counts as too large.
            AttributeValue::Float(x) if x.abs() > self.limits.max_magnitude || x.is_nan() => {
                return Err(*x)
            }
            AttributeValue::List(items) => {
                for i in items {
                    self.scan(i, refs)?;
                }
            }
            AttributeValue::Typed { value, .. } => self.scan(value, refs)?,
            _ => {}
        }
        Ok(())
    }
}
