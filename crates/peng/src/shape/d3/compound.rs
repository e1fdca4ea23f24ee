use super::Shape;
use crate::bound::Aabb3;
use crate::math::policy::{check_part_box, check_vec, GeometryError};
use crate::math::Pose3;
use crate::mesh::Bvh;

/// Several shapes, each placed by a pose relative to the compound's frame.
///
/// The parts' boxes (in the compound's frame) are kept in the same static
/// [`Bvh`] that triangle meshes use, so queries against a compound of many
/// parts visit only the parts near the other shape. Unbounded parts
/// (half-spaces) stay out of the tree and are always visited.
#[derive(Debug, Clone)]
pub struct Compound {
    parts: Vec<(Pose3, Shape)>,
    bvh: Bvh<glam::Vec3>,
    /// `tree_parts[i]` is the part index of the BVH's primitive `i`.
    tree_parts: Vec<u32>,
    unbounded: Vec<u32>,
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
    pub fn new(parts: Vec<(Pose3, Shape)>) -> Result<Self, GeometryError> {
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
        let mut boxes = Vec::with_capacity(parts.len());
        let mut tree_parts = Vec::with_capacity(parts.len());
        let mut unbounded = Vec::new();
        for (i, (p, s)) in parts.iter().enumerate() {
            let b = s.aabb(p);
            if b.is_finite() {
                check_part_box(b.min.abs().max(b.max.abs()).max_element())?;
                boxes.push(b);
                tree_parts.push(i as u32);
            } else {
                unbounded.push(i as u32);
            }
        }
        Ok(Compound {
            bvh: Bvh::build(&boxes),
            parts,
            tree_parts,
            unbounded,
        })
    }

    /// The parts and their poses relative to the compound.
    #[inline]
    pub fn parts(&self) -> &[(Pose3, Shape)] {
        &self.parts
    }

    /// The BVH over the bounded parts' boxes (compound frame); map its
    /// primitives to parts with [`Compound::part_of`].
    #[inline]
    pub fn bvh(&self) -> &Bvh<glam::Vec3> {
        &self.bvh
    }

    /// The part index of the BVH slot `slot`.
    #[inline]
    pub fn part_of(&self, slot: u32) -> usize {
        self.tree_parts[self.bvh.primitive(slot) as usize] as usize
    }

    /// The parts without a finite box (half-spaces), always to be visited.
    #[inline]
    pub fn unbounded_parts(&self) -> &[u32] {
        &self.unbounded
    }

    /// The indices of the parts whose boxes meet `aabb` (compound frame), in
    /// increasing order, unbounded parts included; written to `out` (cleared
    /// first).
    pub fn parts_near(&self, aabb: &Aabb3, out: &mut Vec<usize>) {
        out.clear();
        self.bvh
            .query_aabb(aabb, |slot| out.push(self.part_of(slot)));
        out.extend(self.unbounded.iter().map(|&i| i as usize));
        out.sort_unstable();
    }
}
