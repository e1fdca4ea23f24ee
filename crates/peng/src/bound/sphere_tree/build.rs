//! Top-down construction of a [`SphereTree`] (Ericson, Real-Time Collision
//! Detection, 6.2.1: split at the median along the axis of largest spread).

use super::{SphereNode, SphereTree, LEAF};
use crate::bound::sphere::BoundingBall;
use crate::math::Vector;

/// A leaf ball and its item.
pub(super) type Leaf<V> = (BoundingBall<V>, u32);

/// Builds the tree over `leaves` (already checked: finite, radii `>= 0`,
/// fewer than `2^31`).
pub(super) fn build<V: Vector>(mut leaves: Vec<Leaf<V>>) -> SphereTree<V> {
    let mut nodes = Vec::with_capacity((2 * leaves.len()).saturating_sub(1));
    if !leaves.is_empty() {
        build_range(&mut nodes, &mut leaves);
    }
    SphereTree { nodes }
}

/// Appends the subtree over `items` in depth-first order; returns its ball.
/// The recursion depth is `⌈log2 n⌉` (median splits halve the range).
fn build_range<V: Vector>(
    nodes: &mut Vec<SphereNode<V>>,
    items: &mut [Leaf<V>],
) -> BoundingBall<V> {
    let me = nodes.len();
    if let [(ball, item)] = *items {
        nodes.push(SphereNode {
            ball,
            link: LEAF | item,
        });
        return ball;
    }
    nodes.push(SphereNode {
        ball: BoundingBall::new(V::ZERO, 0.0),
        link: 0,
    });
    // The axis on which the centres spread most.
    let (mut lo, mut hi) = (V::MAX, V::MIN);
    for (b, _) in items.iter() {
        lo = lo.min(b.center);
        hi = hi.max(b.center);
    }
    let spread = hi - lo;
    let mut axis = 0;
    for i in 1..V::DIM {
        if spread.get(i) > spread.get(axis) {
            axis = i;
        }
    }
    // Median split; ties broken by item so the tree does not depend on the
    // selection algorithm's internal order. Coincident centres still split
    // in half, so the depth stays logarithmic.
    let mid = items.len() / 2;
    items.select_nth_unstable_by(mid, |a, b| {
        a.0.center
            .get(axis)
            .total_cmp(&b.0.center.get(axis))
            .then(a.1.cmp(&b.1))
    });
    let (left, right) = items.split_at_mut(mid);
    let bl = build_range(nodes, left);
    let second = nodes.len() as u32;
    let br = build_range(nodes, right);
    let ball = enclose(&bl, &br);
    nodes[me] = SphereNode { ball, link: second };
    ball
}

/// The smallest ball holding both (exact merge, Ericson 6.5.2), with the radius
/// raised where rounding left a child a hair outside, so that
/// [`BoundingBall::contains_ball`] holds for both children as computed.
pub(super) fn enclose<V: Vector>(a: &BoundingBall<V>, b: &BoundingBall<V>) -> BoundingBall<V> {
    let mut m = a.merged(b);
    for c in [a, b] {
        let need = (c.center - m.center).length() + c.radius;
        if need > m.radius {
            m.radius = need;
        }
    }
    m
}
