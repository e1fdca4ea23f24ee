//! Sphere trees: hierarchies of bounding balls; see [`SphereTree`].

mod build;
mod mesh;
mod overlap;

use super::sphere::BoundingBall;
use crate::math::policy::GeometryError;
use crate::math::{Vec2, Vec3, Vector};

/// Bit marking a leaf's `link`.
const LEAF: u32 = 1 << 31;

/// One node of a [`SphereTree`]: its ball and either its second child or, for
/// a leaf, its item.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereNode<V> {
    /// The ball: for a leaf the ball given for its item, for an internal node
    /// a ball holding both children.
    pub ball: BoundingBall<V>,
    /// `LEAF | item` for a leaf, the second child's index otherwise.
    link: u32,
}

impl<V: Vector> SphereNode<V> {
    /// The item of a leaf (`None` for an internal node).
    #[inline]
    pub fn leaf_item(&self) -> Option<u32> {
        (self.link & LEAF != 0).then_some(self.link & !LEAF)
    }

    /// Whether the node is a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.link & LEAF != 0
    }

    /// The index of the second child of an internal node (`None` for a leaf);
    /// the first child is the node right after this one in
    /// [`SphereTree::nodes`].
    #[inline]
    pub fn second_child(&self) -> Option<u32> {
        (self.link & LEAF == 0).then_some(self.link)
    }
}

/// A binary tree of bounding balls (circles in 2D, spheres in 3D) over the
/// parts of a shape or mesh, and the tree-vs-tree test that reports which leaf
/// balls overlap.
///
/// Hubbard, "Approximating Polyhedra with Spheres for Time-Critical Collision
/// Detection" (ACM TOG 1996) and Ericson, Real-Time Collision Detection, 6.2
/// (top-down construction) and 6.3.2 (simultaneous descent, "descend the larger
/// volume"). Written anew here:
///
/// - **Build** top-down: the leaf balls are split at the median of their centres
///   along the axis on which the centres spread most, recursively; each internal
///   ball is the exact smallest ball holding its two children
///   ([`BoundingBall::merged`], Ericson 6.5.2), its radius raised by rounding
///   where needed so that the containment test holds exactly in `f32`.
/// - **Layout**: one array in depth-first order. An internal node's first child
///   is the next node; the node stores the index of its second child. A leaf
///   stores its item (the index of the triangle, point or ball it bounds).
/// - **Overlap**: both trees are walked at once from their roots; a pair of
///   nodes whose balls overlap is refined by splitting the node with the larger
///   radius (a leaf is never split). Work happens in the first tree's frame: the
///   second tree's centres are mapped by `pose_a⁻¹ · pose_b`. Leaf pairs use the
///   exact closed test of [`BoundingBall::overlaps`] (touching counts); internal
///   pairs are tested with a small scale-relative slack so that rounding in the
///   transformed centres can only keep a pair, never drop one.
///
/// ```
/// use peng::bound::{BoundingSphere, SphereTree3};
/// use peng::math::{Pose3, Vec3};
///
/// let balls: Vec<BoundingSphere> = (0..8)
///     .map(|i| BoundingSphere::new(Vec3::new(i as f32, 0.0, 0.0), 0.5))
///     .collect();
/// let a = SphereTree3::from_balls(&balls).unwrap();
/// // The same row moved up by 1: ball i of B touches ball i of A only.
/// let pose_b = Pose3::from_translation(Vec3::Y);
/// let mut pairs = Vec::new();
/// a.overlap_pairs(&Pose3::IDENTITY, &a, &pose_b, &mut pairs);
/// pairs.sort();
/// assert_eq!(pairs, (0..8).map(|i| (i, i)).collect::<Vec<_>>());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SphereTree<V> {
    /// Depth-first order; the root is node 0.
    nodes: Vec<SphereNode<V>>,
}

/// A tree of bounding circles.
pub type SphereTree2 = SphereTree<Vec2>;
/// A tree of bounding spheres.
pub type SphereTree3 = SphereTree<Vec3>;

impl<V: Vector> Default for SphereTree<V> {
    fn default() -> Self {
        SphereTree { nodes: Vec::new() }
    }
}

impl<V: Vector> SphereTree<V> {
    /// The tree over the given leaf balls; leaf `i` has item `i`.
    ///
    /// Errors: a non-finite centre or radius ([`GeometryError::NonFinite`]), a
    /// negative radius ([`GeometryError::Negative`]), `2^31` balls or more
    /// ([`GeometryError::Degenerate`]). No balls gives the empty tree; zero
    /// radii and coincident balls are fine.
    pub fn from_balls(balls: &[BoundingBall<V>]) -> Result<Self, GeometryError> {
        if balls.len() >= LEAF as usize {
            return Err(GeometryError::Degenerate {
                what: "sphere tree",
                why: "it has 2^31 leaves or more",
            });
        }
        for b in balls {
            if !b.center.is_finite() || !b.radius.is_finite() {
                return Err(GeometryError::NonFinite {
                    what: "sphere tree leaf ball",
                });
            }
            if b.radius < 0.0 {
                return Err(GeometryError::Negative {
                    what: "sphere tree leaf radius",
                    value: b.radius,
                });
            }
        }
        let leaves = balls
            .iter()
            .enumerate()
            .map(|(i, b)| (*b, i as u32))
            .collect();
        Ok(build::build(leaves))
    }

    /// The tree over balls of one `radius` (`>= 0`) centred on the points
    /// (radius 0: the points themselves); leaf `i` has item `i`. Errors as
    /// [`from_balls`](Self::from_balls).
    pub fn from_points(points: &[V], radius: f32) -> Result<Self, GeometryError> {
        let balls: Vec<BoundingBall<V>> = points
            .iter()
            .map(|&p| BoundingBall::new(p, radius))
            .collect();
        Self::from_balls(&balls)
    }

    /// All nodes, depth first; the root is node 0 (no nodes when empty).
    #[inline]
    pub fn nodes(&self) -> &[SphereNode<V>] {
        &self.nodes
    }

    /// The root ball (`None` for the empty tree).
    #[inline]
    pub fn root(&self) -> Option<BoundingBall<V>> {
        self.nodes.first().map(|n| n.ball)
    }

    /// Number of leaves.
    #[inline]
    pub fn num_leaves(&self) -> usize {
        // A full binary tree with `n` leaves has `2n - 1` nodes.
        self.nodes.len().div_ceil(2)
    }

    /// Whether the tree has no leaf.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}
