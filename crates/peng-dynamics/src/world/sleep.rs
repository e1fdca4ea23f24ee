//! Sleeping: bodies at rest cost nothing until touched.
//!
//! After each step, a dynamic body slower than the settings' thresholds
//! accumulates rest time. The awake dynamic bodies joined by contacts form
//! islands (union-find over this step's contact constraints; Box2D's
//! `b2SolverSet` idea, here rebuilt each time one may sleep). An island
//! whose bodies have all rested for `time_to_sleep`, with no moving
//! kinematic body and no body that may not sleep in it, falls asleep: its
//! velocities are zeroed and it leaves the solver and the collision
//! world's updates (its colliders stop moving, so their pairs are not
//! tested again). A sleeping island wakes as a whole when an awake dynamic
//! body or a moving kinematic body touches one of its bodies, when one of
//! its bodies is changed through `body_mut`, or when a body is removed.

use peng::math::Vector;

use super::PhysicsWorld;
use crate::body::BodyKind;
use crate::dim::{Angular, DynDim};

/// Union-find with path halving.
fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let p = parent[parent[i as usize] as usize];
        parent[i as usize] = p;
        i = p;
    }
    i
}

impl<D: DynDim> PhysicsWorld<D> {
    /// Joins the islands of bodies `a` and `b` (union-find `parent`; the
    /// smaller root wins, so islands are named the same way whatever the
    /// order), or, when one is not dynamic, marks the dynamic one as
    /// `blocked` (it may not sleep) if the other moves by itself.
    fn link(&self, parent: &mut [u32], blocked: &mut [bool], a: usize, b: usize) {
        if self.is_dynamic(a) && self.is_dynamic(b) {
            let (ra, rb) = (find(parent, a as u32), find(parent, b as u32));
            if ra != rb {
                parent[ra.max(rb) as usize] = ra.min(rb);
            }
        } else {
            for (d, other) in [(a, b), (b, a)] {
                if self.is_dynamic(d) && self.is_active(other) {
                    blocked[d] = true;
                }
            }
        }
    }

    /// Whether body slot `i` moves by itself: awake and dynamic, or
    /// kinematic with a velocity.
    pub(super) fn is_active(&self, i: usize) -> bool {
        self.bodies[i].body.as_ref().is_some_and(|b| match b.kind {
            BodyKind::Dynamic => !b.sleeping,
            BodyKind::Kinematic => b.linvel != D::V::ZERO || b.angvel != D::Ang::ZERO,
            BodyKind::Static => false,
        })
    }

    /// Wakes every body of island `island`.
    pub(crate) fn wake_island(&mut self, island: u32) {
        for s in &mut self.bodies {
            if let Some(b) = s.body.as_mut().filter(|b| b.sleeping && b.island == island) {
                b.sleeping = false;
                b.sleep_time = 0.0;
            }
        }
    }

    /// Wakes every body.
    pub(crate) fn wake_all(&mut self) {
        for b in self.bodies.iter_mut().filter_map(|s| s.body.as_mut()) {
            b.sleeping = false;
            b.sleep_time = 0.0;
        }
    }

    /// Wakes the sleeping islands linked to an active body by a contact or
    /// a joint (repeated while a woken island links to another sleeping
    /// one). Nothing to do, and no pass over the pairs, when nothing sleeps.
    pub(crate) fn wake_linked(&mut self) {
        loop {
            if !self
                .bodies
                .iter()
                .any(|s| s.body.as_ref().is_some_and(|b| b.sleeping))
            {
                return;
            }
            let contacts = self
                .collision
                .touching_contacts()
                .filter_map(|(ha, hb, _)| {
                    let ia = self.colliders[ha.index() as usize].as_ref()?;
                    let ib = self.colliders[hb.index() as usize].as_ref()?;
                    Some((ia.body.index() as usize, ib.body.index() as usize))
                });
            let joints = self
                .joints
                .iter()
                .map(|(_, j)| (j.body_a.index() as usize, j.body_b.index() as usize));
            let mut to_wake = Vec::new();
            for (a, b) in contacts.chain(joints) {
                for (sleeper, other) in [(a, b), (b, a)] {
                    if let Some(s) = self.bodies[sleeper].body.as_ref() {
                        if s.sleeping && self.is_active(other) {
                            to_wake.push(s.island);
                        }
                    }
                }
            }
            if to_wake.is_empty() {
                return;
            }
            to_wake.sort_unstable();
            to_wake.dedup();
            for i in to_wake {
                self.wake_island(i);
            }
        }
    }

    /// Rest timers, then islands that have rested long enough fall asleep.
    pub(crate) fn update_sleep(&mut self) {
        let st = &self.settings;
        if !st.sleep {
            return;
        }
        let (lin2, ang2) = (
            st.sleep_linear_speed * st.sleep_linear_speed,
            st.sleep_angular_speed * st.sleep_angular_speed,
        );
        let (dt, time_to_sleep) = (st.dt, st.time_to_sleep);
        let mut any_ready = false;
        for b in self.bodies.iter_mut().filter_map(|s| s.body.as_mut()) {
            if b.kind != BodyKind::Dynamic || b.sleeping {
                continue;
            }
            let resting =
                b.can_sleep && b.linvel.length_squared() <= lin2 && b.angvel.dot(b.angvel) <= ang2;
            b.sleep_time = if resting { b.sleep_time + dt } else { 0.0 };
            any_ready |= b.sleep_time >= time_to_sleep;
        }
        if !any_ready {
            return;
        }
        let n = self.bodies.len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        // Islands that may not sleep: touching a moving kinematic body.
        let mut blocked = vec![false; n];
        // Bodies in contact, or jointed, share an island.
        let joined = self.contact_pairs.iter().copied().chain(
            self.joints
                .iter()
                .map(|(_, j)| (j.body_a.index(), j.body_b.index())),
        );
        for (a, b) in joined {
            self.link(&mut parent, &mut blocked, a as usize, b as usize);
        }
        // An island sleeps when every body in it is ready.
        let mut ready = vec![true; n];
        for (i, (slot, &stuck)) in self.bodies.iter().zip(&blocked).enumerate() {
            let Some(b) = slot.body.as_ref() else {
                continue;
            };
            if b.kind != BodyKind::Dynamic || b.sleeping {
                continue;
            }
            let r = find(&mut parent, i as u32) as usize;
            if b.sleep_time < time_to_sleep || stuck {
                ready[r] = false;
            }
        }
        for i in 0..n {
            let r = find(&mut parent, i as u32);
            let Some(b) = self.bodies[i].body.as_mut() else {
                continue;
            };
            if b.kind == BodyKind::Dynamic && !b.sleeping && ready[r as usize] {
                b.sleeping = true;
                b.island = r;
                b.linvel = D::V::ZERO;
                b.angvel = D::Ang::ZERO;
            }
        }
    }

    /// Number of bodies that are awake (dynamic or kinematic, not asleep).
    pub fn awake_body_count(&self) -> usize {
        self.bodies
            .iter()
            .filter_map(|s| s.body.as_ref())
            .filter(|b| b.kind != BodyKind::Static && !b.sleeping)
            .count()
    }

    /// Number of contact constraints the last step solved.
    pub fn solved_contact_count(&self) -> usize {
        self.contact_pairs.len()
    }
}
