//! A static bounding-volume hierarchy over axis-aligned boxes, generic over 2D and
//! 3D, built once by the binned surface area heuristic.
//!
//! # Layout
//! Nodes live in one array in depth-first (pre-order) order: the left child of an
//! interior node is the next node, so descending left walks forward in memory,
//! and only the right child's index is stored. A node is its box plus two `u32`
//! (32 bytes in 3D): for a leaf the first *slot* and the primitive count, for an
//! interior node the right child's index and a count of zero.
//!
//! # Slots
//! The builder reorders the primitives so that every leaf holds a contiguous
//! range of them. A primitive's position in that order is its *slot*; traversals
//! report slots, so a user that stores its primitive data in slot order reads a
//! leaf's primitives from consecutive memory. [`Bvh::primitive`] maps a slot back
//! to the index of the box given to [`Bvh::build`].
//!
//! # Conservative boxes
//! Stored node boxes are padded outward by a few ulps (relative to their
//! coordinates) plus `1e-20` (absolute). The slab test then never misses a box through rounding at its
//! faces, and a flat box (an axis-aligned triangle) is never met edge-on by a
//! ray with a zero direction component, whose `0 · ∞` would be NaN. Every query
//! that reports candidates by box (box queries, overlapping leaves) is therefore
//! conservative: the caller tests the primitives exactly.

mod build;
mod nearest;
mod pair;
pub(crate) use pair::box_box_dist2;
mod stack;
mod traverse;

use crate::bound::Aabb;
use crate::math::{Vec2, Vec3, Vector};

/// A node of a [`Bvh`]: its box, and either two children or a range of slots.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct BvhNode<V> {
    /// The (padded) box holding every primitive below this node.
    pub aabb: Aabb<V>,
    /// Leaf: the first slot. Interior: the index of the right child.
    index: u32,
    /// Leaf: the number of primitives (`>= 1`). Interior: zero.
    count: u32,
}

impl<V> BvhNode<V> {
    /// Whether the node is a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }

    /// For a leaf, the range of slots it holds; empty for an interior node.
    #[inline]
    pub fn slots(&self) -> core::ops::Range<u32> {
        if self.count > 0 {
            self.index..self.index + self.count
        } else {
            0..0
        }
    }

    /// For an interior node at index `at`, the indices of its left and right
    /// children (`None` for a leaf). The left child is always `at + 1`.
    #[inline]
    pub fn children(&self, at: u32) -> Option<(u32, u32)> {
        if self.count == 0 {
            Some((at + 1, self.index))
        } else {
            None
        }
    }
}

/// A static BVH over boxes in 2D or 3D. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
pub struct Bvh<V> {
    nodes: Vec<BvhNode<V>>,
    /// `slots[s]` is the index (into the builder's input) of the primitive at slot `s`.
    slots: Vec<u32>,
}

/// A 2D BVH.
pub type Bvh2 = Bvh<Vec2>;
/// A 3D BVH.
pub type Bvh3 = Bvh<Vec3>;

impl<V: Vector> Bvh<V> {
    /// The nodes, root first (empty for a BVH over no boxes).
    #[inline]
    pub fn nodes(&self) -> &[BvhNode<V>] {
        &self.nodes
    }

    /// The primitive index (position in the builder's input) at slot `slot`.
    #[inline]
    pub fn primitive(&self, slot: u32) -> u32 {
        self.slots[slot as usize]
    }

    /// The primitive indices in slot order.
    #[inline]
    pub fn slot_order(&self) -> &[u32] {
        &self.slots
    }

    /// Number of primitives.
    #[inline]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the BVH holds no primitive.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The box around everything (the root's box), empty for an empty BVH.
    #[inline]
    pub fn root_aabb(&self) -> Aabb<V> {
        self.nodes.first().map_or(Aabb::EMPTY, |n| n.aabb)
    }

    /// The number of levels (1 for a single leaf, 0 when empty).
    pub fn depth(&self) -> usize {
        let mut best = 0;
        let mut stack = vec![(0u32, 1usize)];
        while let Some((i, d)) = stack.pop() {
            let Some(n) = self.nodes.get(i as usize) else {
                continue;
            };
            best = best.max(d);
            if let Some((l, r)) = n.children(i) {
                stack.push((l, d + 1));
                stack.push((r, d + 1));
            }
        }
        best
    }
}
