use super::Shape;
use crate::bound::Aabb2;
use crate::math::policy::{check_part_box, check_vec, GeometryError};
use crate::math::Pose2;
use crate::mesh::Bvh;

/// Several shapes, each placed by a pose relative to the compound's frame.
///
/// The parts' boxes (in the compound's frame) are kept in the same static
/// [`Bvh`] that meshes and polylines use, so queries against a compound of
/// many parts visit only the parts near the other shape.
#[derive(Debug, Clone)]
pub struct Compound {
    parts: Vec<(Pose2, Shape)>,
    bvh: Bvh<glam::Vec2>,
}

impl PartialEq for Compound {
    /// Compounds are equal when their parts are (the tree follows from them).
    fn eq(&self, other: &Self) -> bool {
        self.parts == other.parts
    }
}

impl Compound {
    /// A compound of at least one part; poses must be finite with translations
    /// within [`MAX_MAGNITUDE`](crate::math::policy::MAX_MAGNITUDE), and each bounded part's box (in the compound's
    /// frame) within `4·MAX_MAGNITUDE` ([`GeometryError::TooLarge`], the bound
    /// the [policy](crate::math::policy)'s rule 7 assumes; only nested compounds
    /// can reach it).
    pub fn new(parts: Vec<(Pose2, Shape)>) -> Result<Self, GeometryError> {
        if parts.is_empty() {
            return Err(GeometryError::TooFew {
                what: "compound",
                needed: 1,
                got: 0,
            });
        }
        if parts.iter().any(|(p, _)| !p.is_finite()) {
            return Err(GeometryError::NonFinite {
                what: "compound part pose",
            });
        }
        for (p, _) in &parts {
            check_vec("compound part translation", p.translation)?;
        }
        let boxes: Vec<Aabb2> = parts.iter().map(|(p, s)| s.aabb(p)).collect();
        for b in &boxes {
            check_part_box(b.min.abs().max(b.max.abs()).max_element())?;
        }
        Ok(Compound {
            bvh: Bvh::build(&boxes),
            parts,
        })
    }

    /// The parts and their poses relative to the compound.
    #[inline]
    pub fn parts(&self) -> &[(Pose2, Shape)] {
        &self.parts
    }

    /// The BVH over the parts' boxes (compound frame); map its primitives to
    /// parts with [`Compound::part_of`].
    #[inline]
    pub fn bvh(&self) -> &Bvh<glam::Vec2> {
        &self.bvh
    }

    /// The part index of the BVH slot `slot`.
    #[inline]
    pub fn part_of(&self, slot: u32) -> usize {
        self.bvh.primitive(slot) as usize
    }

    /// The indices of the parts whose boxes meet `aabb` (compound frame), in
    /// increasing order; written to `out` (cleared first).
    pub fn parts_near(&self, aabb: &Aabb2, out: &mut Vec<usize>) {
        out.clear();
        self.bvh
            .query_aabb(aabb, |slot| out.push(self.part_of(slot)));
        crate::sort::unstable(out);
    }
}
