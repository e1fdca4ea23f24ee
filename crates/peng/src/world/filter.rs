//! Which pairs of colliders may touch: category and mask bits plus a group.
//!
//! The rule is Box2D's (`b2ShouldShapesCollide`): two colliders of the same
//! non-zero group always collide when the group is positive and never when it
//! is negative; otherwise each one's mask must include the other's category.

use crate::broad::Filter;

/// 64 category bits, 64 mask bits and a group index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CollisionFilter {
    /// The categories this collider belongs to (usually one bit).
    pub category: u64,
    /// The categories it collides with.
    pub mask: u64,
    /// Colliders sharing a non-zero group always (positive) or never
    /// (negative) collide, whatever their bits; 0 is no group.
    pub group: i32,
}

impl CollisionFilter {
    /// In every category, colliding with every category, no group.
    pub const ALL: CollisionFilter = CollisionFilter {
        category: u64::MAX,
        mask: u64::MAX,
        group: 0,
    };

    /// A filter with the given bits and no group.
    pub const fn new(category: u64, mask: u64) -> Self {
        CollisionFilter {
            category,
            mask,
            group: 0,
        }
    }

    /// The same filter in group `group`.
    pub const fn with_group(self, group: i32) -> Self {
        CollisionFilter { group, ..self }
    }

    /// Whether colliders with these filters may touch (symmetric).
    #[inline]
    pub fn allows(&self, other: &CollisionFilter) -> bool {
        if self.group != 0 && self.group == other.group {
            return self.group > 0;
        }
        self.mask & other.category != 0 && other.mask & self.category != 0
    }
}

impl CollisionFilter {
    /// The bits the broad phase tests, which must let through every pair
    /// this filter allows: the collider's own bits when it has no group
    /// (the broad phase's rule is the bit rule of [`allows`](Self::allows)),
    /// and every bit when it has one (a group may override the bits).
    pub(crate) fn broad(&self) -> Filter {
        if self.group == 0 {
            Filter::new(self.category, self.mask)
        } else {
            Filter::ALL
        }
    }
}

impl Default for CollisionFilter {
    fn default() -> Self {
        Self::ALL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_both_ways_and_groups_override() {
        let player = CollisionFilter::new(0b01, 0b10);
        let wall = CollisionFilter::new(0b10, 0b01);
        let ghost = CollisionFilter::new(0b100, 0);
        assert!(player.allows(&wall) && wall.allows(&player));
        assert!(!player.allows(&player));
        assert!(!ghost.allows(&wall) && !wall.allows(&ghost));
        // One-way mask is not enough.
        let half = CollisionFilter::new(0b10, 0b00);
        assert!(!player.allows(&half) && !half.allows(&player));
        // A positive group collides whatever the bits; a negative never.
        assert!(player.with_group(3).allows(&player.with_group(3)));
        assert!(!wall.with_group(-2).allows(&player.with_group(-2)));
        // Different groups fall back to the bits.
        assert!(player.with_group(-1).allows(&wall.with_group(-2)));
        assert!(CollisionFilter::ALL.allows(&CollisionFilter::ALL));
    }
}
