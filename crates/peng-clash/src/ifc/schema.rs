//! IFC classes: their proper-case names and their inheritance, read in the
//! file's own schema (IFC2X3, IFC4, IFC4X3 differ in places).

use ifc_lite_core::{IfcType, SchemaVersion};
use std::collections::HashMap;

/// What the reader does with records of one STEP keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// An element that can carry body geometry: an `IfcElement` that is not an
    /// `IfcFeatureElement` (openings, projections), which is what ifcclash
    /// hands IfcOpenShell's geometry iterator.
    Element,
    /// Spatial containment (`IfcRelContainedInSpatialStructure`).
    Containment,
    /// Decomposition: `IfcRelAggregates` or `IfcRelNests`.
    Decomposition,
    /// An opening filled by an element (`IfcRelFillsElement`).
    Fills,
    /// An opening cut into an element (`IfcRelVoidsElement`).
    Voids,
    /// Coverings on an element (`IfcRelCoversBldgElements`).
    Covers,
    /// Anything else the schema declares.
    Other,
    /// A keyword the file's schema does not declare.
    Unknown,
}

/// The file's schema, with a memo of each keyword's role.
pub(crate) struct Schema {
    version: Option<SchemaVersion>,
    label: String,
    roles: HashMap<String, Role>,
}

impl Schema {
    /// The schema named by the file header's `FILE_SCHEMA`; an unknown or
    /// missing label falls back to ifc-lite's union of all schemas.
    pub(crate) fn from_label(label: Option<String>) -> Schema {
        let version = label.as_deref().and_then(SchemaVersion::from_file_schema);
        Schema {
            version,
            label: label.unwrap_or_default(),
            roles: HashMap::new(),
        }
    }

    /// The `FILE_SCHEMA` label as written ("" when absent).
    pub(crate) fn label(&self) -> &str {
        &self.label
    }

    /// The role of records with this keyword (any case).
    pub(crate) fn role(&mut self, keyword: &str) -> Role {
        if let Some(&role) = self.roles.get(keyword) {
            return role;
        }
        let role = if !self.declares(keyword) {
            Role::Unknown
        } else if self.is_a(keyword, "IFCRELCONTAINEDINSPATIALSTRUCTURE") {
            Role::Containment
        } else if self.is_a(keyword, "IFCRELAGGREGATES") || self.is_a(keyword, "IFCRELNESTS") {
            Role::Decomposition
        } else if self.is_a(keyword, "IFCRELFILLSELEMENT") {
            Role::Fills
        } else if self.is_a(keyword, "IFCRELVOIDSELEMENT") {
            Role::Voids
        } else if self.is_a(keyword, "IFCRELCOVERSBLDGELEMENTS") {
            Role::Covers
        } else if self.is_a(keyword, "IFCELEMENT") && !self.is_a(keyword, "IFCFEATUREELEMENT") {
            Role::Element
        } else {
            Role::Other
        };
        self.roles.insert(keyword.to_string(), role);
        role
    }

    /// Whether the schema declares this keyword.
    fn declares(&self, keyword: &str) -> bool {
        match self.version {
            Some(v) => v.entity_info(keyword).is_some(),
            None => !matches!(IfcType::from_str(keyword), IfcType::Unknown(_)),
        }
    }

    /// Whether `keyword` is `class` or one of its subtypes (both any case).
    pub(crate) fn is_a(&self, keyword: &str, class: &str) -> bool {
        match self.version {
            Some(v) => v.is_subtype_of(keyword, class),
            None => IfcType::from_str(keyword).is_subtype_of(IfcType::from_str(class)),
        }
    }
}

/// The class as IfcOpenShell's `is_a()` spells it (`IfcWallStandardCase`):
/// ifc-lite's proper-case name of the keyword. A keyword no schema declares
/// keeps its spelling in the file.
pub(crate) fn class_name(keyword: &str) -> String {
    match IfcType::from_str(keyword) {
        IfcType::Unknown(_) => keyword.to_string(),
        known => known.name().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_roles_follow_the_files_schema() {
        assert_eq!(class_name("IFCWALLSTANDARDCASE"), "IfcWallStandardCase");
        assert_eq!(class_name("IfcFlowSegment"), "IfcFlowSegment");
        assert_eq!(
            class_name("IFCBUILDINGELEMENTPROXY"),
            "IfcBuildingElementProxy"
        );
        assert_eq!(class_name("IFCFOO"), "IFCFOO");
        let mut s = Schema::from_label(Some("IFC2X3".into()));
        assert_eq!(s.role("IFCFLOWSEGMENT"), Role::Element);
        assert_eq!(s.role("IFCOPENINGELEMENT"), Role::Other);
        assert_eq!(s.role("IFCSPACE"), Role::Other);
        assert_eq!(s.role("IFCANNOTATION"), Role::Other);
        assert_eq!(s.role("IFCRELNESTS"), Role::Decomposition);
        assert_eq!(s.role("IFCRELFILLSELEMENT"), Role::Fills);
        assert_eq!(s.role("IFCRELVOIDSELEMENT"), Role::Voids);
        assert_eq!(s.role("IFCRELCOVERSBLDGELEMENTS"), Role::Covers);
        assert_eq!(
            s.role("IFCRELCONTAINEDINSPATIALSTRUCTURE"),
            Role::Containment
        );
        // IfcPipeSegment is IFC4 only.
        assert_eq!(s.role("IFCPIPESEGMENT"), Role::Unknown);
        let mut s4 = Schema::from_label(Some("IFC4".into()));
        assert_eq!(s4.role("IFCPIPESEGMENT"), Role::Element);
        assert_eq!(s4.role("IfcWall"), Role::Element);
        assert_eq!(s4.role("IFCPROJECTIONELEMENT"), Role::Other);
    }
}
