//! Rules that skip pairs of elements before they are tested.

use crate::element::{Element, Identity};
use std::collections::{HashMap, HashSet};

/// Pairs a test skips.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IgnoreRules {
    /// Skip two elements of the same assembly (same parent id), and an
    /// element against its own parent.
    pub same_parent: bool,
    /// Skip two elements of the same file.
    pub same_file: bool,
    /// Skip these pairs of element ids, in either order.
    pub pairs: HashSet<(String, String)>,
    /// Skip a door or window against the element whose opening it fills
    /// ([`Identity::fills`](crate::Identity::fills)), or against a part of
    /// it (a roof's slabs): it sits in a hole cut for it, and where the two
    /// meet is the frame's fixing, not a clash.
    pub fillers_in_hosts: bool,
    /// Skip a covering (cladding, lining, screed, insulation) against the
    /// element it covers ([`Identity::covers`](crate::Identity::covers)), or
    /// a part of it.
    pub coverings_on_hosts: bool,
    /// Skip an embedded part against the structural element it is cast
    /// into: reinforcement, tendons, fasteners and discrete accessories
    /// (anchor channels, lifting inserts) against a beam, column, slab, wall,
    /// footing, pile, member or plate whose box holds the part's box (grown
    /// by [`EMBEDDED_MARGIN`]).
    pub embedded_parts: bool,
}

/// How far an embedded part's box may stand out of its host's box and still
/// count as embedded (a cast-in channel flush with the face, rounded): 10 mm.
pub const EMBEDDED_MARGIN: f64 = 0.01;

impl IgnoreRules {
    /// The rules engineers commonly use to cut noise from a check of a whole
    /// building: fillers in their hosts, coverings on their hosts, embedded
    /// parts in their hosts. Each can be turned off on its own.
    pub fn typical() -> IgnoreRules {
        IgnoreRules {
            fillers_in_hosts: true,
            coverings_on_hosts: true,
            embedded_parts: true,
            ..IgnoreRules::default()
        }
    }

    /// Whether a rule other than the listed pairs skips the pair (those are
    /// looked up by index, see [`IgnoreRules::listed`]).
    pub(crate) fn skips(&self, a: &Element, b: &Element) -> bool {
        let (ia, ib) = (&a.identity, &b.identity);
        if self.same_file && ia.file == ib.file {
            return true;
        }
        // X names Y, or the whole Y is part of (a roof's slabs: the roof's
        // openings are cut into them).
        let names = |x: &Identity, y: &Identity, rel: fn(&Identity) -> &Option<String>| {
            rel(x)
                .as_deref()
                .is_some_and(|h| h == y.id || y.parent.as_deref() == Some(h))
        };
        let either =
            |rel: fn(&Identity) -> &Option<String>| names(ia, ib, rel) || names(ib, ia, rel);
        if self.fillers_in_hosts && either(|i| &i.fills) {
            return true;
        }
        if self.coverings_on_hosts && either(|i| &i.covers) {
            return true;
        }
        if self.embedded_parts && (embedded_in(a, b) || embedded_in(b, a)) {
            return true;
        }
        if !self.same_parent {
            return false;
        }
        let same = ia.parent.is_some() && ia.parent == ib.parent;
        let own = ia.parent.as_deref() == Some(ib.id.as_str())
            || ib.parent.as_deref() == Some(ia.id.as_str());
        same || own
    }

    /// The listed pairs as pairs of model indices (lower first), so that the
    /// candidate filter looks up numbers instead of building id strings.
    pub(crate) fn listed(&self, model: &[Element]) -> HashSet<(usize, usize)> {
        if self.pairs.is_empty() {
            return HashSet::new();
        }
        let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, e) in model.iter().enumerate() {
            by_id.entry(e.identity.id.as_str()).or_default().push(i);
        }
        let mut out = HashSet::new();
        for (a, b) in &self.pairs {
            let (Some(xs), Some(ys)) = (by_id.get(a.as_str()), by_id.get(b.as_str())) else {
                continue;
            };
            for &x in xs {
                for &y in ys {
                    out.insert((x.min(y), x.max(y)));
                }
            }
        }
        out
    }
}

/// Classes of parts cast into concrete (and their subtypes by name).
const EMBEDDED: [&str; 5] = [
    "IfcReinforcing",
    "IfcTendon",
    "IfcMechanicalFastener",
    "IfcFastener",
    "IfcDiscreteAccessory",
];

/// Classes of structural elements parts are cast into.
const HOSTS: [&str; 8] = [
    "IfcBeam",
    "IfcColumn",
    "IfcSlab",
    "IfcWall",
    "IfcFooting",
    "IfcPile",
    "IfcMember",
    "IfcPlate",
];

/// Whether `part` is an embedded part within `host`'s box.
fn embedded_in(part: &Element, host: &Element) -> bool {
    let class = |c: &str, names: &[&str]| names.iter().any(|n| c.starts_with(n));
    let host_class = &host.identity.class;
    // IfcWallStandardCase, IfcSlabElementedCase ...; not IfcWallType.
    let is_host = HOSTS.iter().any(|n| {
        host_class
            .strip_prefix(n)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with("Case"))
    });
    if !is_host || !class(&part.identity.class, &EMBEDDED) {
        return false;
    }
    let (inner, outer) = (part.bounds(), host.bounds().grown(EMBEDDED_MARGIN));
    outer.min.cmple(inner.min).all() && inner.max.cmple(outer.max).all()
}
