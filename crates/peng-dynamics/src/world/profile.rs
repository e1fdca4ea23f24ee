//! [`StepProfile`]: where the last step's time went (after Box2D v3's
//! `b2Profile` and rapier's counters), for users tuning a scene and for the
//! benchmarks.

use crate::clock::Instant;
use std::time::Duration;

/// The wall-clock time of each phase of the last
/// [`step`](super::PhysicsWorld::step). The phases run one after another, so
/// their sum is (within a few microseconds) the step's time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StepProfile {
    /// Placing the colliders at their bodies' poses and updating the
    /// collision world (broad phase, narrow phase, events).
    pub collide: Duration,
    /// Turning the manifolds and joints into solver constraints, warm
    /// started.
    pub prepare: Duration,
    /// The solver's substeps.
    pub solve: Duration,
    /// Writing the bodies back, storing the impulses, islands and sleep.
    pub finish: Duration,
}

impl StepProfile {
    /// The whole step.
    pub fn total(&self) -> Duration {
        self.collide + self.prepare + self.solve + self.finish
    }
}

/// Times consecutive phases: each `lap` returns the time since the last.
pub(crate) struct Laps(Instant);

impl Laps {
    pub fn start() -> Self {
        Laps(Instant::now())
    }

    pub fn lap(&mut self) -> Duration {
        let now = Instant::now();
        let d = now - self.0;
        self.0 = now;
        d
    }
}
