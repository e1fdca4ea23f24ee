//! One clash between two elements, as a report lists it.

use glam::DVec3;
use serde::{Deserialize, Serialize};

/// What kind of clash a pair has (in reports, the lower-case word).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClashKind {
    /// The surfaces cross and a corner (vertex) of one element lies inside the other.
    Protrusion,
    /// The surfaces cross with no corner of either inside the other: one element
    /// runs through the other (a pipe through a slab).
    Pierce,
    /// One element lies wholly inside the other, closed, element.
    Containment,
    /// The surfaces meet but neither reaches deeper into the other than the
    /// touching tolerance (reported only when touching is asked for).
    Touch,
    /// Separated, but closer than the clearance distance.
    Clearance,
    /// The same geometry within the duplicate tolerance.
    Duplicate,
}

impl ClashKind {
    /// The lower-case word used in reports (`protrusion`, `pierce`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ClashKind::Protrusion => "protrusion",
            ClashKind::Pierce => "pierce",
            ClashKind::Containment => "containment",
            ClashKind::Touch => "touch",
            ClashKind::Clearance => "clearance",
            ClashKind::Duplicate => "duplicate",
        }
    }
}

/// The geometric finding of a pair test, in world coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Finding {
    /// The kind of clash.
    pub kind: ClashKind,
    /// The point on (or of) element A that shows the clash: the deepest point
    /// of one element inside the other, or the nearest point for clearance.
    pub point_a: DVec3,
    /// The matching point on element B.
    pub point_b: DVec3,
    /// Signed distance in metres. Hard clashes: minus the penetration depth
    /// (how far the deepest surface point of one element lies inside the
    /// other); clearance: the gap; duplicates: the largest deviation between
    /// the two geometries (0 for identical ones).
    pub distance: f64,
}

/// A clash between element `a` of set A and element `b` of set B.
#[derive(Debug, Clone, PartialEq)]
pub struct Clash {
    /// A stable id from the two elements' ids, taken in sorted order so that
    /// it does not depend on which set each element came from (see
    /// [`clash_id`]).
    pub id: String,
    /// Index of element A in the model.
    pub a: usize,
    /// Index of element B in the model.
    pub b: usize,
    /// What was found.
    pub finding: Finding,
}

/// The stable id of the clash between elements with ids `a` and `b`: 16 hex
/// digits of the 64-bit FNV-1a hash of `a`, a zero byte and `b`. The same pair
/// gets the same id in every run and on every machine, so reports can be
/// compared across runs.
pub fn clash_id(a: &str, b: &str) -> String {
    let h = fnv1a64(a.bytes().chain([0u8]).chain(b.bytes()));
    format!("{h:016x}")
}

/// FNV-1a (Fowler, Noll, Vo), 64-bit offset basis and prime.
pub(crate) fn fnv1a64(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        h ^= u64::from(byte);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_ordered() {
        assert_eq!(clash_id("", "").len(), 16);
        let ab = clash_id("2O2Fr$t4X7Zf8NOew3FLOH", "1hOSvn6df7F8_7GcBWlRGQ");
        assert_eq!(
            ab,
            clash_id("2O2Fr$t4X7Zf8NOew3FLOH", "1hOSvn6df7F8_7GcBWlRGQ")
        );
        assert_ne!(
            ab,
            clash_id("1hOSvn6df7F8_7GcBWlRGQ", "2O2Fr$t4X7Zf8NOew3FLOH")
        );
        // The separator keeps ("ab", "c") and ("a", "bc") apart.
        assert_ne!(clash_id("ab", "c"), clash_id("a", "bc"));
    }

    #[test]
    fn fnv1a_matches_published_vectors() {
        // Test vectors from the FNV reference page (Noll).
        assert_eq!(fnv1a64(*b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(*b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(*b"foobar"), 0x85944171f73967e8);
    }
}
