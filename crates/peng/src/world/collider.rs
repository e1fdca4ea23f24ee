//! A collider: a shape at a pose, with a filter, flags and user data.

use super::dim::Dim;
use super::filter::CollisionFilter;
use crate::math::Vector;

/// When a pair counts as touching, beyond the shapes overlapping.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Margin {
    /// Touching when the shapes overlap (closed: contact counts).
    #[default]
    None,
    /// A boundary offset: touching when the surfaces are within this
    /// distance (non-negative, finite). A pair's offset is the sum of both
    /// colliders' offsets.
    Offset(f32),
    /// A centre radius: touching when the colliders' centres (their poses'
    /// translations) are within this distance, whatever the shapes
    /// (non-negative, finite). When either collider of a pair has one, the
    /// pair uses the larger radius.
    CenterRadius(f32),
}

/// Which events a pair reports while it touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EventMode {
    /// An event when touching begins and one when it stops, none while it
    /// lasts.
    #[default]
    Once,
    /// As [`Once`](Self::Once), plus a persist event every update while
    /// touching. A pair is continuous when either collider is.
    Continuous,
}

/// A shape at a pose, with a collision filter, flags and user data.
pub struct Collider<D: Dim> {
    /// The shape, in the collider's local frame.
    pub shape: D::Shape,
    /// Where the collider is.
    pub pose: D::Pose,
    /// Which pairs may touch.
    pub filter: CollisionFilter,
    /// A sensor (trigger) reports overlap only: no contact manifold.
    pub sensor: bool,
    /// When touching counts.
    pub margin: Margin,
    /// How far the collider is about to move (zero by default), for
    /// speculative contact: when a pair has an offset (either margin is
    /// [`Margin::Offset`]), the offset grows by the length of the difference
    /// of the two displacements, the most the pair's gap can close by those
    /// moves; and each broad-phase box grows by the length of its
    /// collider's displacement, so that the broad phase finds every such
    /// pair. Two colliders moving together (a stack carried along, boxes
    /// falling side by side) keep the offsets of their margins, where one
    /// margin per collider would have to hold its whole move.
    pub displacement: D::V,
    /// Which events its pairs report.
    pub events: EventMode,
    /// Removed from the world when its first contact begins (the begin event
    /// says so).
    pub remove_on_contact: bool,
    /// Continuous detection (a "bullet"): at each update the collider is
    /// swept from its pose at the previous update to its current one, and a
    /// pair it touched on the way counts as touching even when the two end
    /// poses do not (the event carries the time of impact). Ignored for
    /// unbounded shapes and for pairs with a centre-radius margin.
    pub ccd: bool,
    /// The caller's data.
    pub user_data: u64,
}

impl<D: Dim> Collider<D> {
    /// A solid collider with the default filter, no margin and once events.
    pub fn new(shape: impl Into<D::Shape>, pose: D::Pose) -> Self {
        Collider {
            shape: shape.into(),
            pose,
            filter: CollisionFilter::ALL,
            sensor: false,
            margin: Margin::None,
            displacement: D::V::ZERO,
            events: EventMode::Once,
            remove_on_contact: false,
            ccd: false,
            user_data: 0,
        }
    }

    /// With this filter.
    pub fn with_filter(mut self, filter: CollisionFilter) -> Self {
        self.filter = filter;
        self
    }

    /// As a sensor (overlap events only) or not.
    pub fn with_sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }

    /// With this margin.
    pub fn with_margin(mut self, margin: Margin) -> Self {
        self.margin = margin;
        self
    }

    /// With this displacement (see [`Collider::displacement`]).
    pub fn with_displacement(mut self, displacement: D::V) -> Self {
        self.displacement = displacement;
        self
    }

    /// With this event mode.
    pub fn with_events(mut self, events: EventMode) -> Self {
        self.events = events;
        self
    }

    /// Removed when its first contact begins, or not.
    pub fn with_remove_on_contact(mut self, remove: bool) -> Self {
        self.remove_on_contact = remove;
        self
    }

    /// With continuous detection (swept each update) or not.
    pub fn with_ccd(mut self, ccd: bool) -> Self {
        self.ccd = ccd;
        self
    }

    /// With this user data.
    pub fn with_user_data(mut self, user_data: u64) -> Self {
        self.user_data = user_data;
        self
    }
}

// By hand: a derive would ask `D: Clone` / `D: Debug` of the marker type.
impl<D: Dim> Clone for Collider<D> {
    fn clone(&self) -> Self {
        Collider {
            shape: self.shape.clone(),
            pose: self.pose,
            filter: self.filter,
            sensor: self.sensor,
            margin: self.margin,
            displacement: self.displacement,
            events: self.events,
            remove_on_contact: self.remove_on_contact,
            ccd: self.ccd,
            user_data: self.user_data,
        }
    }
}

impl<D: Dim> core::fmt::Debug for Collider<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Collider")
            .field("shape", &self.shape)
            .field("pose", &self.pose)
            .field("filter", &self.filter)
            .field("sensor", &self.sensor)
            .field("margin", &self.margin)
            .field("displacement", &self.displacement)
            .field("events", &self.events)
            .field("remove_on_contact", &self.remove_on_contact)
            .field("ccd", &self.ccd)
            .field("user_data", &self.user_data)
            .finish()
    }
}
