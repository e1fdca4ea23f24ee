//! The project's length and plane-angle units, read with ifc-lite after a
//! check of their records: a unit whose attributes have the wrong type (a
//! string or an entity reference where a number is expected, a conversion
//! factor that is not an `IfcMeasureWithUnit`) is reported by its entity and
//! replaced by the default unit (metre, radian), so the file still loads.

use super::quiet;
use crate::error::ClashError;
use ifc_lite_core::{AttributeValue, DecodedEntity, EntityDecoder};
use ifc_lite_geometry::GeometryRouter;

/// `IfcProject.UnitsInContext`, `IfcUnitAssignment.Units`,
/// `IfcNamedUnit.UnitType`, `IfcSIUnit.Prefix` and `.Name`,
/// `IfcConversionBasedUnit.ConversionFactor`,
/// `IfcMeasureWithUnit.ValueComponent` and `.UnitComponent`.
const UNITS_IN_CONTEXT: usize = 8;
const UNITS: usize = 0;
const UNIT_TYPE: usize = 1;
const SI_PREFIX: usize = 2;
const SI_NAME: usize = 3;
const FACTOR: usize = 3;
const VALUE: usize = 0;
const UNIT: usize = 1;

/// The units the meshing uses.
pub(crate) struct Units {
    /// Metres per file length unit.
    pub length: f64,
    /// Whether ifc-lite refuses the length unit (an unusable factor).
    pub length_refused: bool,
    /// Radians per file plane-angle unit.
    pub radians: f64,
}

/// Reads the units, adding a problem for each one replaced by its default;
/// the decoder is seeded with the result.
pub(crate) fn read(
    file: &str,
    content: &[u8],
    decoder: &mut EntityDecoder,
    problems: &mut Vec<ClashError>,
) -> Units {
    let bad = check(content, decoder);
    let mut problem = |family: &str, default: &str, why: String| {
        problems.push(ClashError::File {
            file: file.to_string(),
            what: format!(
                "the {family} unit cannot be read ({why}); the default, {default}, is used"
            ),
        })
    };
    let mut units = Units {
        length: 1.0,
        length_refused: false,
        radians: 1.0,
    };
    match bad.iter().find(|b| b.0 == "LENGTHUNIT") {
        Some(b) => problem("length", "the metre", b.1.clone()),
        None => match quiet::catch(|| {
            let router = GeometryRouter::with_units(content, decoder);
            (router.unit_scale(), router.length_unit_refused())
        }) {
            Ok((scale, refused)) => (units.length, units.length_refused) = (scale, refused),
            Err(panic) => problem(
                "length",
                "the metre",
                format!("ifc-lite failed: {}", super::panic_text(&*panic)),
            ),
        },
    }
    match bad.iter().find(|b| b.0 == "PLANEANGLEUNIT") {
        Some(b) => problem("plane angle", "the radian", b.1.clone()),
        None => match quiet::catch(|| decoder.plane_angle_to_radians()) {
            Ok(r) => units.radians = r,
            Err(panic) => problem(
                "plane angle",
                "the radian",
                format!("ifc-lite failed: {}", super::panic_text(&*panic)),
            ),
        },
    }
    decoder.seed_unit_scales(units.length, units.radians);
    units
}

/// The project's length and plane-angle units whose records have wrong
/// types: (unit type, what is wrong, naming the entity).
fn check(content: &[u8], decoder: &mut EntityDecoder) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some(project) = ifc_lite_core::find_project_id(content) else {
        return out;
    };
    let Ok(project) = decoder.decode_by_id(project) else {
        return out;
    };
    let Some(assignment) = project.get_ref(UNITS_IN_CONTEXT) else {
        return out;
    };
    let Ok(assignment) = decoder.decode_by_id(assignment) else {
        return out;
    };
    let Some(AttributeValue::List(units)) = assignment.get(UNITS) else {
        return out;
    };
    for u in units.iter() {
        let AttributeValue::EntityRef(id) = u else {
            continue;
        };
        let Ok(unit) = decoder.decode_by_id(*id) else {
            continue;
        };
        let Some(kind) = unit.get(UNIT_TYPE).and_then(enum_text) else {
            continue;
        };
        if kind != "LENGTHUNIT" && kind != "PLANEANGLEUNIT" {
            continue;
        }
        if let Err(why) = check_unit(decoder, &unit, 0) {
            out.push((kind, why));
        }
    }
    out
}

fn enum_text(v: &AttributeValue) -> Option<String> {
    match v {
        AttributeValue::Enum(e) => Some(e.trim_matches('.').to_ascii_uppercase()),
        _ => None,
    }
}

/// `#12 IfcSIUnit`.
fn name(e: &DecodedEntity) -> String {
    format!("#{} {}", e.id, e.ifc_type.name())
}

fn is(e: &DecodedEntity, class: &str) -> bool {
    e.ifc_type.name().eq_ignore_ascii_case(class)
}

/// Whether `v` is a number, bare or typed (`IFCREAL(0.3048)`).
fn is_number(v: &AttributeValue) -> bool {
    match v {
        AttributeValue::Float(_) | AttributeValue::Integer(_) => true,
        AttributeValue::Typed { value, .. } => is_number(value),
        _ => false,
    }
}

/// Checks one named unit (following conversion factors a few levels down).
fn check_unit(
    decoder: &mut EntityDecoder,
    unit: &DecodedEntity,
    depth: usize,
) -> Result<(), String> {
    if is(unit, "IfcSIUnit") {
        let prefix = unit.get(SI_PREFIX);
        if !matches!(
            prefix,
            None | Some(AttributeValue::Null | AttributeValue::Enum(_))
        ) {
            return Err(format!("{}: the prefix is not an enumeration", name(unit)));
        }
        if !matches!(unit.get(SI_NAME), Some(AttributeValue::Enum(_))) {
            return Err(format!("{}: the name is not an enumeration", name(unit)));
        }
        return Ok(());
    }
    if !(is(unit, "IfcConversionBasedUnit") || is(unit, "IfcConversionBasedUnitWithOffset")) {
        return Ok(());
    }
    let Some(AttributeValue::EntityRef(f)) = unit.get(FACTOR) else {
        return Err(format!(
            "{}: the conversion factor is not a reference to an IfcMeasureWithUnit",
            name(unit)
        ));
    };
    let factor = decoder.decode_by_id(*f).map_err(|e| {
        format!(
            "{}: the conversion factor #{f} is unreadable: {e}",
            name(unit)
        )
    })?;
    if !is(&factor, "IfcMeasureWithUnit") {
        return Err(format!(
            "{}: the conversion factor {} is not an IfcMeasureWithUnit",
            name(unit),
            name(&factor)
        ));
    }
    if !factor.get(VALUE).is_some_and(is_number) {
        return Err(format!(
            "{} (the conversion factor of {}): the value is not a number",
            name(&factor),
            name(unit)
        ));
    }
    let Some(AttributeValue::EntityRef(base)) = factor.get(UNIT) else {
        return Err(format!(
            "{} (the conversion factor of {}): the unit is not a reference to a unit",
            name(&factor),
            name(unit)
        ));
    };
    let base = decoder
        .decode_by_id(*base)
        .map_err(|e| format!("{}: its unit is unreadable: {e}", name(&factor)))?;
    let units = [
        "IfcSIUnit",
        "IfcConversionBasedUnit",
        "IfcConversionBasedUnitWithOffset",
        "IfcContextDependentUnit",
        "IfcDerivedUnit",
        "IfcMonetaryUnit",
    ];
    if !units.iter().any(|c| is(&base, c)) {
        return Err(format!(
            "{} (the conversion factor of {}): the unit {} is not a unit",
            name(&factor),
            name(unit),
            name(&base)
        ));
    }
    // Units defined through units: a few levels are plenty (a cycle stops here).
    if depth < 8 {
        check_unit(decoder, &base, depth + 1)?;
    }
    Ok(())
}
