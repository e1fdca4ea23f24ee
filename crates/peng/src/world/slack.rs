//! Slack in the broad phase's boxes, so that colliders that move a little
//! leave the broad phase alone.
//!
//! With slack `f` (a fraction, [`World::set_broad_slack`]), a collider that
//! moves is given to the broad phase with its box grown by `f` times its
//! shape's smallest side (in the shape's own frame: a long thin wall turned
//! 45° has a large square box but gets its thickness's share), and given
//! again only once its box leaves the grown one (or shrinks well inside
//! it). A collider moving fast for its slack gets its exact box.
//!
//! This is the "fat AABB" of Box2D's dynamic tree (Catto, *Dynamic AABB
//! Tree*, GDC 2019; `b2_aabbMargin` in Box2D v3), moved up to the world:
//! the broad phase then keeps the pairs of grown boxes, which change only
//! when some box is given again, and a stack of resting bodies that all
//! move a little every step costs it no pair search and no pair-list merge
//! at all.
//!
//! The pairs to test again are then not the broad phase's changed pairs but
//! every broad pair with an end that moved. When many colliders moved inside
//! their grown boxes they are found by one pass over the broad phase's pair
//! list; when few did, their proxies are marked changed (their boxes kept)
//! so that the broad phase finds their pairs, as without slack.
//!
//! The world keeps each collider's exact box beside it, and tests only the
//! pairs whose exact boxes overlap: the same pairs as without slack, so the
//! touching pairs and the events do not depend on it. (Testing every pair of
//! grown boxes instead made the tumbler's dense pile of small boxes half as
//! many pairs again, each through the narrow phase.)

use crate::bound::Aabb;
use crate::math::Vector;

use super::sweep::is_bullet;
use super::{Collider, ColliderHandle, Dim, World, WorldError};

/// The pass over every broad pair is chosen once at least one proxy in
/// this many moved inside its grown box, and these are at least half the
/// colliders that moved; otherwise marking them changed costs less than the
/// pass (the broad phase searches the pairs of the others anyway, and
/// walks its pair list when any proxy changed).
const SCAN_ONE_IN: usize = 32;

/// A collider that moved more than this share of its slack since the last
/// placement would leave a grown box within a step or two: it gets its
/// exact box (a grown one only adds pairs to the broad phase's search).
const FAST: f32 = 0.5;

impl<D: Dim> World<D> {
    /// Sets the broad phase's slack: a moving collider's box is grown on
    /// every side by `fraction` times its shape's smallest side, measured
    /// in the shape's own frame (0, the default: exact boxes). The touching
    /// pairs and events are the same at any slack; only
    /// [`broad_phase`](Self::broad_phase)'s pairs and the cost change.
    /// Rejects a negative, NaN or infinite fraction.
    pub fn set_broad_slack(&mut self, fraction: f32) -> Result<(), WorldError> {
        if !(fraction.is_finite() && fraction >= 0.0) {
            return Err(WorldError::InvalidBroadSlack(fraction));
        }
        self.slack = fraction;
        Ok(())
    }

    /// The broad phase's slack (see [`set_broad_slack`](Self::set_broad_slack)).
    pub fn broad_slack(&self) -> f32 {
        self.slack
    }

    /// The box to give the broad phase for collider `c`, whose exact broad
    /// box is `b`, now that it moved by `moved_by`; `None` when its proxy's
    /// box still holds `b` with no more than twice the slack to spare on
    /// any side. Bullets (swept boxes), unbounded shapes and fast movers
    /// get no slack.
    pub(super) fn slackened(
        &self,
        h: ColliderHandle,
        c: &Collider<D>,
        b: Aabb<D::V>,
        moved_by: D::V,
    ) -> Option<Aabb<D::V>> {
        let s = self.slack * self.side[h.index() as usize];
        if !(s.is_finite() && s > 0.0) || is_bullet(c) {
            return Some(b);
        }
        let Some(given) = self.broad.proxy(self.proxies[h.index() as usize]) else {
            return Some(b);
        };
        let given = given.aabb;
        if given.contains(&b) && b.loosened(2.0 * s).contains(&given) {
            return None;
        }
        if moved_by.length() > FAST * s {
            return Some(b);
        }
        Some(b.loosened(s))
    }

    /// Before the broad phase's pair update: whether the pairs to test are
    /// to be found by a pass over every broad pair (many colliders moved
    /// inside their grown boxes). When not, each such collider's proxy is
    /// marked changed (its box kept), so that its pairs are among the
    /// broad phase's changed pairs.
    pub(super) fn settle_unhanded(&mut self) -> bool {
        let n = self.unhanded.len();
        let scan = n > 0 && n * SCAN_ONE_IN >= self.broad.len() && 2 * n >= self.changed_list.len();
        if !scan {
            for &h in &self.unhanded {
                if !self.colliders.contains(h) {
                    continue;
                }
                let id = self.proxies[h.index() as usize];
                if let Some(info) = self.broad.proxy(id) {
                    let b = info.aabb;
                    // A live proxy with a valid box: cannot fail.
                    let _ = self.broad.move_proxy(id, b, D::V::ZERO);
                }
            }
        }
        self.unhanded.clear();
        scan
    }

    /// Whether the exact boxes of slots `i` and `j` overlap; taken as true
    /// without slack, where the broad phase's boxes are the exact ones (or
    /// grown ones left from an earlier slack until their colliders move
    /// again: pairs the narrow phase then turns down, at some cost only).
    #[inline]
    pub(super) fn tight_overlap(&self, i: u32, j: u32) -> bool {
        self.slack <= 0.0 || self.tight[i as usize].overlaps(&self.tight[j as usize])
    }
}

/// The smallest side of `shape`'s box in its own frame; 0 for an unbounded
/// shape (no slack).
pub(super) fn smallest_side<D: Dim>(shape: &D::Shape) -> f32 {
    let side = D::aabb(shape, &D::IDENTITY).size().min_element();
    if side.is_finite() {
        side
    } else {
        0.0
    }
}
