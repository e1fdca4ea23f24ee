//! The collision world: colliders by handle, filters, sensors, margins and
//! events, one design for 2D and 3D.
//!
//! A [`World`] owns its colliders and hands out generation-checked
//! [`ColliderHandle`]s (a stale handle is an error, never another collider).
//! Each collider is a shape at a pose with a [`CollisionFilter`], flags
//! (sensor, remove on contact), a [`Margin`], an [`EventMode`] and user data.
//! The world keeps every collider's box in a broad phase, updated as soon
//! as a pose changes, so scene queries always see the colliders as last
//! given: a [`DynamicTree`] unless [`World::with_broad_phase`] picks another
//! structure (a [`SpatialHash`](crate::broad::SpatialHash) grid suits many
//! colliders of similar size).
//!
//! [`World::update`] runs the broad phase, then the narrow phase (in
//! parallel, only on pairs with a changed collider; colliders flagged
//! [`ccd`](Collider::ccd) are swept over their motion since the last update,
//! so fast bullets do not pass through thin walls), and reports
//! [`ContactEvent`]s: began, persisted (continuous mode) and ended, in a
//! deterministic order whatever the thread count. Touching pairs keep their
//! contact manifolds ([`World::contact_manifolds`]). [`World::watch`] tags
//! the events of "these colliders against those" with a [`WatchId`].
//!
//! The dimension is a type parameter ([`Dim2`], [`Dim3`]; the aliases
//! [`World2`] and [`World3`]): the world's logic is written once, the
//! geometry comes from `query::d2` / `query::d3` through the [`Dim`] trait.
//!
//! ```
//! use peng::d2::*;
//! use peng::world::EventKind;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut world = World2::new();
//! let floor = world.insert(Collider::new(
//!     Rect::new(Vec2::new(5.0, 0.5))?,
//!     Pose2::from_translation(Vec2::new(0.0, -0.5)),
//! ))?;
//! let ball = world.insert(Collider::new(
//!     Circle::new(0.5)?,
//!     Pose2::from_translation(Vec2::new(0.0, 3.0)),
//! ))?;
//! assert!(world.update().is_empty()); // apart
//! world.set_pose(ball, Pose2::from_translation(Vec2::new(0.0, 0.4)))?;
//! let events = world.update();
//! assert_eq!(events.len(), 1);
//! assert_eq!(events[0].kind, EventKind::Began);
//! assert_eq!((events[0].a, events[0].b), (floor, ball));
//! let m = &world.contact_manifolds(floor, ball).expect("touching")[0];
//! assert!((m.depth() - 0.1).abs() < 1e-5); // normal from the floor up to the ball
//! world.set_pose(ball, Pose2::from_translation(Vec2::new(0.0, 2.0)))?;
//! assert_eq!(world.update()[0].kind, EventKind::Ended);
//! # Ok(())
//! # }
//! ```

mod apart;
mod collider;
mod dim;
mod error;
mod events;
mod filter;
mod handle;
mod merge;
mod pairs;
mod query;
mod reuse;
mod slack;
mod stretch;
mod sweep;
mod update;
mod watch;

pub use collider::{Collider, EventMode, Margin};
pub use dim::{Dim, Dim2, Dim3};
pub use error::WorldError;
pub use events::{ContactEvent, EventKind};
pub use filter::CollisionFilter;
pub(crate) use handle::Arena;
pub use handle::ColliderHandle;
pub use query::{
    ColliderCastHit, ColliderRayHit, NearestCollider, QueryFilter, QueryPredicate, SensorMode,
};
pub use update::PairFilter;
pub use watch::WatchId;

use crate::bound::Aabb;
use crate::broad::{BroadPhase, DynamicTree, ProxyId, COORD_LIMIT};
use crate::math::Vector;

/// A collision world in 2D.
pub type World2 = World<Dim2>;
/// A collision world in 3D.
pub type World3 = World<Dim3>;

/// Colliders by handle, their broad phase, and (after each update) their
/// touching pairs and events. See the module documentation.
pub struct World<D: Dim> {
    colliders: Arena<Collider<D>>,
    /// The broad-phase proxy of each arena slot (meaningful for live slots).
    proxies: Vec<ProxyId>,
    /// Each slot's pose at the last update: where continuous detection
    /// sweeps it from.
    prev_poses: Vec<D::Pose>,
    /// Scratch for manifold reuse: each slot's move since the last update
    /// (the identity outside an update).
    moves: Vec<D::Pose>,
    broad: Box<dyn BroadPhase<D::V> + Send + Sync>,
    /// Arena slots whose collider was inserted or changed (pose, shape,
    /// margin, filter, flags) since the last update, and the list of them.
    changed: Vec<bool>,
    changed_list: Vec<ColliderHandle>,
    /// The touching pairs after the last update, sorted by pair.
    touching: Vec<(pairs::PairKey, pairs::PairState<D>)>,
    /// The previous touching list's buffer, emptied, for the next update's
    /// list (a fresh allocation of a large list each update costs its page
    /// faults again).
    touching_spare: Vec<(pairs::PairKey, pairs::PairState<D>)>,
    /// The last update's transitions' buffer, emptied, for the next.
    transitions: Vec<events::Transition>,
    /// The events of the last update.
    events: Vec<ContactEvent>,
    /// The watched sets.
    watches: watch::Watches,
    /// The user's pair rule.
    pair_filter: Option<Box<PairFilter<D>>>,
    /// Every pair must be tested again (the pair rule changed).
    retest_all: bool,
    /// A collider was removed since the last update (its pairs end).
    removed_any: bool,
    /// Live colliders with a [`Margin::CenterRadius`]: while there are any,
    /// every broad-phase box holds its collider's centre (see [`broad_box`]).
    centre_radii: usize,
    /// The manifold reuse tolerance (`None`: off); see `reuse.rs`.
    reuse: Option<f32>,
    /// Arena slots whose shape (or sensor flag) may have changed since the
    /// last update, or that were inserted: their pairs are tested in full.
    reshaped: Vec<bool>,
    /// Each slot's shape reach (largest distance from its local origin).
    reach: Vec<f32>,
    /// Touching pairs the last update carried (see `reuse.rs`).
    carried: usize,
    /// Pairs found apart with a measured gap, sorted by pair (see
    /// `apart.rs`).
    apart: Vec<(pairs::PairKey, apart::Apart<D>)>,
    /// The previous apart list's buffer, emptied, for the next update's.
    apart_spare: Vec<(pairs::PairKey, apart::Apart<D>)>,
    /// Candidate pairs the last update skipped as still apart.
    skipped_apart: usize,
    /// The broad phase's slack (see `slack.rs`); 0: exact boxes.
    slack: f32,
    /// Colliders moved since the last update whose proxies kept their
    /// grown boxes (see `slack.rs`).
    unhanded: Vec<ColliderHandle>,
    /// Each slot's exact broad-phase box (the proxy's box without slack).
    tight: Vec<Aabb<D::V>>,
    /// Each slot's shape's smallest side in its own frame (the slack's
    /// unit, see `slack.rs`).
    side: Vec<f32>,
}

impl<D: Dim> Default for World<D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D: Dim> core::fmt::Debug for World<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("World")
            .field("colliders", &self.colliders.len())
            .finish_non_exhaustive()
    }
}

/// Checks a margin value: finite and non-negative.
fn check_margin(m: Margin) -> Result<(), WorldError> {
    match m {
        Margin::None => Ok(()),
        Margin::Offset(d) | Margin::CenterRadius(d) => {
            if d.is_finite() && d >= 0.0 {
                Ok(())
            } else {
                Err(WorldError::InvalidMargin(d))
            }
        }
    }
}

/// The broad-phase box of a collider: its shape's box, grown by a boundary
/// offset and the length of its displacement (or holding the ball of a centre
/// radius), so that two colliders whose margins make them touch always have
/// overlapping boxes: a pair's offset `o_a + o_b + |m_a - m_b|` is at most
/// `(o_a + |m_a|) + (o_b + |m_b|)`.
///
/// A centre-radius pair touches when the centres are close, whatever the
/// shapes, so while any collider has a centre radius (`centres`) every box
/// also holds its collider's centre. Only then: a shape far from its
/// collider's origin (a ground segment placed by its vertices, on a body at
/// the origin) would otherwise get a box reaching back to the origin, and be
/// paired with everything in between.
pub(crate) fn broad_box<D: Dim>(c: &Collider<D>, centres: bool) -> Aabb<D::V> {
    let centre = D::translation(&c.pose);
    let mut b = D::aabb(&c.shape, &c.pose);
    if centres {
        b = b.merged(&Aabb::new(centre, centre));
    }
    let reach = c.displacement.length();
    match c.margin {
        Margin::None => b = b.loosened(reach),
        Margin::Offset(d) => b = b.loosened(d + reach),
        Margin::CenterRadius(r) => {
            let ball = Aabb::new(centre, centre).loosened(r);
            b = b.merged(&ball);
        }
    }
    b
}

/// Checks a collider before it enters or changes in the world: a finite pose
/// whose translation is within [`COORD_LIMIT`], and a valid margin. The shape
/// itself may be unbounded (a half-space): the broad phase clamps infinite
/// box bounds to the coordinate limit.
fn check_collider<D: Dim>(c: &Collider<D>) -> Result<(), WorldError> {
    check_placement::<D>(&c.pose, c.margin, c.displacement)
}

/// The pose, margin and displacement part of [`check_collider`].
fn check_placement<D: Dim>(
    pose: &D::Pose,
    margin: Margin,
    displacement: D::V,
) -> Result<(), WorldError> {
    if !D::pose_is_finite(pose) {
        return Err(WorldError::NonFinitePose);
    }
    check_margin(margin)?;
    // Its length too: finite components can still overflow it, and the
    // length enters the pair offsets and broad-phase boxes.
    if !displacement.length().is_finite() {
        return Err(WorldError::NonFiniteDisplacement);
    }
    let t = D::translation(pose).abs();
    let far = (0..D::V::DIM).map(|i| t.get(i)).fold(0.0f32, f32::max);
    if far > COORD_LIMIT {
        return Err(WorldError::TooFar(far, COORD_LIMIT));
    }
    Ok(())
}

/// Whether the collider's margin is a centre radius.
fn has_centre_radius<D: Dim>(c: &Collider<D>) -> bool {
    matches!(c.margin, Margin::CenterRadius(_))
}

impl<D: Dim> World<D> {
    /// An empty world, its broad phase a [`DynamicTree`].
    pub fn new() -> Self {
        Self::with_boxed(Box::new(DynamicTree::new()))
    }

    /// An empty world whose broad phase is `broad` (any [`BroadPhase`]
    /// structure, empty): a [`SpatialHash`](crate::broad::SpatialHash) with
    /// cells of about twice the colliders' size suits many colliders of
    /// similar size moving a little each update; the default
    /// [`DynamicTree`] suits any mix. Answers are the same with any
    /// structure, only the time differs.
    pub fn with_broad_phase(
        broad: impl BroadPhase<D::V> + Send + Sync + 'static,
    ) -> Result<Self, WorldError> {
        if !broad.is_empty() {
            return Err(WorldError::BroadPhaseNotEmpty(broad.len()));
        }
        Ok(Self::with_boxed(Box::new(broad)))
    }

    /// Moves every collider's box into `broad` (empty) and keeps it as the
    /// world's broad phase from now on; the next [`update`](Self::update)
    /// retests every pair (events stay as they were: a pair touching before
    /// and after persists). On an error the world is unchanged.
    pub fn set_broad_phase(
        &mut self,
        mut broad: impl BroadPhase<D::V> + Send + Sync + 'static,
    ) -> Result<(), WorldError> {
        if !broad.is_empty() {
            return Err(WorldError::BroadPhaseNotEmpty(broad.len()));
        }
        let mut ids = self.proxies.clone();
        for (h, _) in self.colliders.iter() {
            let i = h.index() as usize;
            let info = self
                .broad
                .proxy(self.proxies[i])
                .ok_or(WorldError::StaleHandle(h))?;
            ids[i] = broad
                .insert(info.aabb, info.user_data, info.filter)
                .map_err(WorldError::BroadPhaseRefused)?;
        }
        self.proxies = ids;
        self.broad = Box::new(broad);
        self.retest_all = true;
        Ok(())
    }

    /// An empty world with this broad phase.
    fn with_boxed(broad: Box<dyn BroadPhase<D::V> + Send + Sync>) -> Self {
        World {
            colliders: Arena::default(),
            proxies: Vec::new(),
            prev_poses: Vec::new(),
            moves: Vec::new(),
            broad,
            changed: Vec::new(),
            changed_list: Vec::new(),
            touching: Vec::new(),
            touching_spare: Vec::new(),
            transitions: Vec::new(),
            events: Vec::new(),
            watches: watch::Watches::default(),
            pair_filter: None,
            retest_all: false,
            removed_any: false,
            centre_radii: 0,
            reuse: None,
            reshaped: Vec::new(),
            reach: Vec::new(),
            carried: 0,
            apart: Vec::new(),
            apart_spare: Vec::new(),
            skipped_apart: 0,
            slack: 0.0,
            unhanded: Vec::new(),
            tight: Vec::new(),
            side: Vec::new(),
        }
    }

    /// Adds a collider and returns its handle. Rejects a non-finite pose, an
    /// invalid margin or a box past [`COORD_LIMIT`].
    pub fn insert(&mut self, collider: Collider<D>) -> Result<ColliderHandle, WorldError> {
        check_collider(&collider)?;
        if has_centre_radius(&collider) {
            self.add_centre_radius();
        }
        let b = self.broad_box(&collider);
        let filter = collider.filter.broad();
        let reach = reuse::reach::<D>(&collider.shape);
        let side = slack::smallest_side::<D>(&collider.shape);
        let pose = collider.pose;
        let h = self.colliders.insert(collider);
        let proxy = match self.broad.insert(b, h.index() as u64, filter) {
            Ok(p) => p,
            Err(_) => {
                // Unreachable after `check_collider`; undo and report.
                self.colliders.remove(h);
                return Err(WorldError::NonFinitePose);
            }
        };
        let i = h.index() as usize;
        if self.proxies.len() <= i {
            self.proxies.resize(i + 1, proxy);
            self.changed.resize(i + 1, false);
            self.prev_poses.resize(i + 1, D::IDENTITY);
            self.reshaped.resize(i + 1, false);
            self.reach.resize(i + 1, f32::INFINITY);
            self.tight.resize(i + 1, b);
            self.side.resize(i + 1, 0.0);
        }
        self.tight[i] = b;
        self.reshaped[i] = true;
        self.reach[i] = reach;
        self.side[i] = side;
        self.proxies[i] = proxy;
        // A new collider starts where it is: its first update sweeps nothing.
        self.prev_poses[i] = pose;
        self.mark_changed(h);
        Ok(h)
    }

    /// Removes a collider and returns it. Its touching pairs end at the next
    /// update (their events keep its handle).
    pub fn remove(&mut self, h: ColliderHandle) -> Result<Collider<D>, WorldError> {
        let c = self.colliders.remove(h).ok_or(WorldError::StaleHandle(h))?;
        if has_centre_radius(&c) {
            // The other boxes keep their centres (still bounding) until they
            // next change.
            self.centre_radii -= 1;
        }
        let i = h.index() as usize;
        let _ = self.broad.remove(self.proxies[i]);
        self.removed_any = true;
        Ok(c)
    }

    /// The collider of a live handle.
    pub fn get(&self, h: ColliderHandle) -> Result<&Collider<D>, WorldError> {
        self.colliders.get(h).ok_or(WorldError::StaleHandle(h))
    }

    /// Whether the handle names a live collider.
    pub fn contains(&self, h: ColliderHandle) -> bool {
        self.colliders.contains(h)
    }

    /// Number of colliders.
    pub fn len(&self) -> usize {
        self.colliders.len()
    }

    /// Whether the world has no collider.
    pub fn is_empty(&self) -> bool {
        self.colliders.is_empty()
    }

    /// The colliders with their handles, in handle order.
    pub fn iter(&self) -> impl Iterator<Item = (ColliderHandle, &Collider<D>)> {
        self.colliders.iter()
    }

    /// Moves a collider.
    pub fn set_pose(&mut self, h: ColliderHandle, pose: D::Pose) -> Result<(), WorldError> {
        // As `set_placement` with the collider's own margin and
        // displacement: checked first, no copy kept to roll back.
        let c = self.colliders.get(h).ok_or(WorldError::StaleHandle(h))?;
        let (margin, displacement) = (c.margin, c.displacement);
        self.set_placements(&[(h, pose, margin, displacement)])
    }

    /// Moves a collider and sets its margin and displacement: the same as
    /// [`modify`](Self::modify) setting the three, without the copy of the
    /// collider that `modify` keeps to roll back (a simulation moves every
    /// collider at every step). Checked first: on an error nothing changes.
    pub fn set_placement(
        &mut self,
        h: ColliderHandle,
        pose: D::Pose,
        margin: Margin,
        displacement: D::V,
    ) -> Result<(), WorldError> {
        self.set_placements(&[(h, pose, margin, displacement)])
    }

    /// [`set_placement`](Self::set_placement) for many colliders at once,
    /// each `(handle, pose, margin, displacement)`: all are checked before
    /// any is placed, so that on an error (which names the first bad one)
    /// nothing changes.
    pub fn set_placements(
        &mut self,
        placements: &[(ColliderHandle, D::Pose, Margin, D::V)],
    ) -> Result<(), WorldError> {
        for &(h, pose, margin, displacement) in placements {
            check_placement::<D>(&pose, margin, displacement)?;
            if !self.colliders.contains(h) {
                return Err(WorldError::StaleHandle(h));
            }
        }
        for &(h, pose, margin, displacement) in placements {
            let Some(c) = self.colliders.get_mut(h) else {
                continue;
            };
            let moved_by = D::translation(&pose) - D::translation(&c.pose);
            let had_centre_radius = has_centre_radius(c);
            c.pose = pose;
            c.margin = margin;
            c.displacement = displacement;
            let centre_radius = (had_centre_radius, has_centre_radius(c));
            self.count_centre_radius(centre_radius);
            self.place(h, moved_by);
        }
        Ok(())
    }

    /// Changes a collider's shape.
    pub fn set_shape(&mut self, h: ColliderHandle, shape: D::Shape) -> Result<(), WorldError> {
        self.modify(h, |c| c.shape = shape)
    }

    /// Changes any part of a collider through `f` (pose, shape, filter,
    /// flags, margin, user data); the change is checked like an insertion and
    /// rolled back when rejected.
    pub fn modify(
        &mut self,
        h: ColliderHandle,
        f: impl FnOnce(&mut Collider<D>),
    ) -> Result<(), WorldError> {
        let mut f = Some(f);
        self.modify_dyn(h, &mut |c| {
            if let Some(f) = f.take() {
                f(c);
            }
        })
    }

    /// [`World::modify`] through a trait object: one copy of the checks
    /// and bookkeeping, not one per closure (the browser build has a
    /// setter for every field).
    fn modify_dyn(
        &mut self,
        h: ColliderHandle,
        f: &mut dyn FnMut(&mut Collider<D>),
    ) -> Result<(), WorldError> {
        let c = self
            .colliders
            .get_mut(h)
            .ok_or(WorldError::StaleHandle(h))?;
        let before = c.clone();
        f(c);
        if let Err(e) = check_collider(c) {
            *c = before;
            return Err(e);
        }
        if c.sensor != before.sensor || !D::same_shape(&c.shape, &before.shape) {
            let i = h.index() as usize;
            self.reshaped[i] = true;
            self.reach[i] = reuse::reach::<D>(&c.shape);
            self.side[i] = slack::smallest_side::<D>(&c.shape);
        }
        let moved_by = D::translation(&c.pose) - D::translation(&before.pose);
        let filter = (c.filter != before.filter).then(|| c.filter.broad());
        let centre_radius = (has_centre_radius(&before), has_centre_radius(c));
        self.count_centre_radius(centre_radius);
        if let Some(f) = filter {
            // A live proxy: cannot fail.
            let _ = self.broad.set_filter(self.proxies[h.index() as usize], f);
        }
        self.place(h, moved_by);
        Ok(())
    }

    /// The broad-phase box of live collider `h` (a bullet's covers its whole
    /// motion since the last update).
    fn proxy_box(&self, h: ColliderHandle, c: &Collider<D>) -> Aabb<D::V> {
        let b = self.broad_box(c);
        if sweep::is_bullet(c) {
            sweep::swept_broad_box(c, &self.prev_poses[h.index() as usize], b)
        } else {
            b
        }
    }

    /// [`broad_box`] of `c` in this world (with its centre while any
    /// collider has a centre radius).
    pub(crate) fn broad_box(&self, c: &Collider<D>) -> Aabb<D::V> {
        broad_box(c, self.centre_radii > 0)
    }

    /// Gives live collider `h`'s proxy its current box and marks it changed.
    /// With slack, a proxy whose grown box still holds the collider's box
    /// keeps it (see `slack.rs`).
    fn place(&mut self, h: ColliderHandle, moved_by: D::V) {
        if let Some(c) = self.colliders.get(h) {
            let b = self.proxy_box(h, c);
            self.tight[h.index() as usize] = b;
            match self.slackened(h, c, b, moved_by) {
                Some(b) => {
                    let _ = self
                        .broad
                        .move_proxy(self.proxies[h.index() as usize], b, moved_by);
                }
                None => self.unhanded.push(h),
            }
            self.mark_changed(h);
        }
    }

    /// Counts a collider whose margin changed to or from a centre radius
    /// (whether it had one, and has one now).
    fn count_centre_radius(&mut self, (had, has): (bool, bool)) {
        match (had, has) {
            (false, true) => self.add_centre_radius(),
            (true, false) => self.centre_radii -= 1,
            _ => {}
        }
    }

    /// Counts a new centre-radius collider; the first one puts every
    /// collider's centre into its box (see [`broad_box`]).
    fn add_centre_radius(&mut self) {
        self.centre_radii += 1;
        if self.centre_radii == 1 {
            let live: Vec<ColliderHandle> = self.colliders.iter().map(|(h, _)| h).collect();
            for h in live {
                self.place(h, D::V::ZERO);
            }
        }
    }

    fn mark_changed(&mut self, h: ColliderHandle) {
        let i = h.index() as usize;
        if !self.changed[i] {
            self.changed[i] = true;
            self.changed_list.push(h);
        }
    }

    /// The broad phase (read-only), for queries.
    pub fn broad_phase(&self) -> &dyn BroadPhase<D::V> {
        &*self.broad
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose3, Vec3};
    use crate::shape::d3::{Ball, Shape};

    fn ball(r: f32) -> Shape {
        Ball::new(r).expect("valid radius").into()
    }

    #[test]
    fn insert_move_remove_and_stale_handles() {
        let mut w = World3::new();
        let a = w.insert(Collider::new(ball(1.0), Pose3::IDENTITY)).unwrap();
        let b = w
            .insert(Collider::new(
                ball(1.0),
                Pose3::from_translation(Vec3::X * 5.0),
            ))
            .unwrap();
        assert_eq!(w.len(), 2);
        w.set_pose(b, Pose3::from_translation(Vec3::X * 1.5))
            .unwrap();
        assert_eq!(w.get(b).unwrap().pose.translation, Vec3::X * 1.5);
        w.remove(a).unwrap();
        assert_eq!(w.remove(a).unwrap_err(), WorldError::StaleHandle(a));
        assert_eq!(
            w.set_pose(a, Pose3::IDENTITY).unwrap_err(),
            WorldError::StaleHandle(a)
        );
        let c = w.insert(Collider::new(ball(0.5), Pose3::IDENTITY)).unwrap();
        assert_eq!(c.index(), a.index());
        assert!(w.get(a).is_err() && w.get(c).is_ok());
    }

    #[test]
    fn bad_input_is_rejected_with_a_clear_error_and_nothing_changes() {
        let mut w = World3::new();
        let nan = Pose3::from_translation(Vec3::new(f32::NAN, 0.0, 0.0));
        assert_eq!(
            w.insert(Collider::new(ball(1.0), nan)).unwrap_err(),
            WorldError::NonFinitePose
        );
        let far = Pose3::from_translation(Vec3::new(1e30, 0.0, 0.0));
        assert!(matches!(
            w.insert(Collider::new(ball(1.0), far)).unwrap_err(),
            WorldError::TooFar(..)
        ));
        let bad_margin =
            Collider::new(ball(1.0), Pose3::IDENTITY).with_margin(Margin::Offset(-1.0));
        assert_eq!(
            w.insert(bad_margin).unwrap_err(),
            WorldError::InvalidMargin(-1.0)
        );
        assert!(w.is_empty());
        let h = w.insert(Collider::new(ball(1.0), Pose3::IDENTITY)).unwrap();
        assert_eq!(w.set_pose(h, nan).unwrap_err(), WorldError::NonFinitePose);
        assert_eq!(w.get(h).unwrap().pose, Pose3::IDENTITY);
    }

    #[test]
    fn unbounded_shapes_are_accepted_and_touch() {
        use crate::shape::d3::HalfSpace;
        let mut w = World3::new();
        let ground: Shape = HalfSpace::new(Vec3::Y).expect("unit normal").into();
        let g = w.insert(Collider::new(ground, Pose3::IDENTITY)).unwrap();
        let b = w
            .insert(Collider::new(
                ball(1.0),
                Pose3::from_translation(Vec3::new(1e6, 0.5, -3e5)),
            ))
            .unwrap();
        let ev = w.update().to_vec();
        assert_eq!(ev.len(), 1);
        assert_eq!((ev[0].a, ev[0].b), (g, b));
        w.set_pose(b, Pose3::from_translation(Vec3::new(1e6, 1.5, 0.0)))
            .unwrap();
        assert_eq!(w.update()[0].kind, EventKind::Ended);
    }

    #[test]
    fn broad_boxes_cover_margins_and_centres() {
        let c: Collider<Dim3> = Collider::new(ball(1.0), Pose3::from_translation(Vec3::X))
            .with_margin(Margin::Offset(0.5));
        let b = broad_box(&c, true);
        assert!((b.min - Vec3::new(-0.5, -1.5, -1.5)).length() < 1e-6);
        let c = c.with_margin(Margin::CenterRadius(3.0));
        let b = broad_box(&c, true);
        assert!((b.max - Vec3::new(4.0, 3.0, 3.0)).length() < 1e-6);
    }

    /// A segment placed by its vertices 66 m above its collider's origin,
    /// and a box 27.5 m above that origin, 38 m below the segment.
    fn far_segment_and_box(w: &mut World2) -> (ColliderHandle, ColliderHandle) {
        use crate::math::{Pose2, Vec2};
        use crate::shape::d2::{Rect, Segment};
        let seg = Segment::new(Vec2::new(-110.0, 66.0), Vec2::new(110.0, 66.0)).unwrap();
        let s = w
            .insert(Collider::new(
                crate::shape::d2::Shape::from(seg),
                Pose2::IDENTITY,
            ))
            .unwrap();
        let rect = Rect::new(Vec2::splat(0.5)).unwrap();
        let at = Pose2::from_translation(Vec2::new(-91.5, 27.5));
        let b = w
            .insert(Collider::new(crate::shape::d2::Shape::from(rect), at))
            .unwrap();
        (s, b)
    }

    #[test]
    fn a_shape_far_from_its_origin_is_not_paired_with_what_lies_between() {
        // Its box used to reach back to the origin: the box below the
        // segment was a broad-phase pair and went to the narrow phase at
        // every update (Box2D's "many pyramids" ground: 20 such segments).
        let mut w = World2::new();
        far_segment_and_box(&mut w);
        w.update();
        assert!(w.broad_phase().pairs().is_empty());
    }

    #[test]
    fn a_centre_radius_still_pairs_by_centres_when_the_shape_is_far() {
        // The segment's centre (its collider's origin) lies within 1 m of a
        // ball's centre that has a centre radius of 1 m: they touch, whatever
        // the shapes, so the segment's box must hold its centre once a centre
        // radius is in the world, in either order of insertion.
        use crate::math::{Pose2, Vec2};
        use crate::shape::d2::Circle;
        for radius_first in [false, true] {
            let mut w = World2::new();
            let ball = |w: &mut World2| {
                let c = Collider::new(
                    crate::shape::d2::Shape::from(Circle::new(0.1).unwrap()),
                    Pose2::from_translation(Vec2::new(0.5, 0.0)),
                )
                .with_margin(Margin::CenterRadius(1.0));
                w.insert(c).unwrap()
            };
            let first = radius_first.then(|| ball(&mut w));
            let (s, _) = far_segment_and_box(&mut w);
            let c = first.unwrap_or_else(|| ball(&mut w));
            w.update();
            let key = if s < c { (s, c) } else { (c, s) };
            assert!(
                w.touching_pairs().any(|p| p == key),
                "radius first: {radius_first}"
            );
        }
    }
}
