//! [`PhysicsWorld::step`]: collide, build the contact constraints, solve,
//! write back.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use peng::math::Vector;
use peng::world::Margin;

use super::profile::Laps;
use super::{BodySlot, PhysicsWorld, Placement, StepProfile};
use crate::body::BodyKind;
use crate::dim::{Angular, DynDim};
use crate::solver::body::SolverBody;
use crate::solver::contact::ContactParams;
use crate::solver::run_step;
use crate::DynamicsError;

/// Fewest bodies for which the per-body passes of a step (the check of
/// their poses and velocities, placing the colliders, the solver bodies,
/// the write-back) run on rayon's threads.
const THREADED_BODIES: usize = 1024;

/// Whether a per-body pass over `bodies` bodies runs on rayon's threads:
/// the passes give the same results either way.
fn threaded(bodies: usize) -> bool {
    bodies >= THREADED_BODIES && rayon::current_num_threads() > 1
}

impl<D: DynDim> PhysicsWorld<D> {
    /// Advances the world by one step of `settings().dt` seconds.
    ///
    /// Fails, changing nothing, when a setting is out of range or a body's
    /// pose or velocity is not finite (set through
    /// [`body_mut`](Self::body_mut)).
    pub fn step(&mut self) -> Result<(), DynamicsError> {
        self.settings.validate()?;
        super::awake::with_pool_awake(|| {
            if self.any_body_not_finite() {
                return Err(DynamicsError::NonFiniteBody);
            }
            self.run_step()
        })
    }

    /// Whether a body's pose or velocity is not finite.
    fn any_body_not_finite(&self) -> bool {
        let bad = |s: &BodySlot<D>| s.body.as_ref().is_some_and(|b| !b.is_finite());
        if threaded(self.bodies.len()) {
            self.bodies.par_iter().any(bad)
        } else {
            self.bodies.iter().any(bad)
        }
    }

    /// [`step`](Self::step) once its inputs are checked.
    fn run_step(&mut self) -> Result<(), DynamicsError> {
        let mut laps = Laps::start();
        self.sync_colliders()?;
        let tol = self.settings.manifold_reuse;
        let reuse = (tol > 0.0).then_some(tol);
        if self.collision.manifold_reuse() != reuse {
            self.collision.set_manifold_reuse(reuse)?;
        }
        if self.collision.broad_slack() != self.settings.broad_slack {
            self.collision.set_broad_slack(self.settings.broad_slack)?;
        }
        self.collision.update();
        self.wake_linked();
        let collide = laps.lap();
        let h = self.settings.dt / self.settings.substeps as f32;
        self.solver_bodies.clear();
        let gravity = self.settings.gravity;
        let solver_body = |s: &BodySlot<D>| match &s.body {
            Some(b) => SolverBody::from_body(b, gravity, h),
            None => SolverBody::fixed(),
        };
        if threaded(self.bodies.len()) {
            self.solver_bodies
                .par_extend(self.bodies.par_iter().map(solver_body));
        } else {
            self.solver_bodies
                .extend(self.bodies.iter().map(solver_body));
        }
        let params = ContactParams::for_step(&self.settings);
        self.build_contacts(h, &params);
        self.prepare_joints(h);
        let prepare = laps.lap();
        let kernels = self.kernels();
        run_step(
            &mut self.solver_bodies,
            &mut self.lanes,
            &params,
            &mut self.joints.constraints,
            &self.settings,
            kernels,
        );
        let solve = laps.lap();
        self.write_back();
        self.store_impulses();
        self.store_joints();
        self.update_sleep();
        self.profile = StepProfile {
            collide,
            prepare,
            solve,
            finish: laps.lap(),
        };
        self.steps += 1;
        Ok(())
    }

    /// Places every collider at its body's pose with its speculative margin
    /// (half the speculative distance, plus how far its body's turn moves
    /// any of its points in a step) and its displacement (the body's move in
    /// a step): a pair's offset then holds how far the two bodies can close in.
    /// All are placed at once, so that a placement the collision world
    /// refuses (a move overflowing `f32`, a pose too far out) changes none.
    fn sync_colliders(&mut self) -> Result<(), DynamicsError> {
        let mut placements = core::mem::take(&mut self.placements);
        placements.clear();
        // A stale collider (which would be a bug) is reported by the serial
        // pass; the threaded one only notes it.
        let stale = AtomicBool::new(false);
        let threaded = threaded(self.bodies.len());
        if threaded {
            placements.par_extend(self.bodies.par_iter().flat_map_iter(|slot| {
                self.changed_placements(slot)
                    .filter_map(|p| p.map_err(|_| stale.store(true, Ordering::Relaxed)).ok())
            }));
        }
        if !threaded || stale.load(Ordering::Relaxed) {
            placements.clear();
            for slot in &self.bodies {
                for p in self.changed_placements(slot) {
                    placements.push(p?);
                }
            }
        }
        let placed = self.collision.set_placements(&placements);
        self.placements = placements;
        Ok(placed?)
    }

    /// The placements of `slot`'s colliders that differ from the collision
    /// world's, in the order of its colliders (see
    /// [`sync_colliders`](Self::sync_colliders)); an error for a collider
    /// the collision world no longer has.
    fn changed_placements<'a>(
        &'a self,
        slot: &'a BodySlot<D>,
    ) -> impl Iterator<Item = Result<Placement<D>, DynamicsError>> + 'a {
        let dt = self.settings.dt;
        let base = 0.5 * self.settings.speculative_distance;
        let body = slot.body.as_ref();
        let (displacement, spin, com_offset) = body.map_or((D::V::ZERO, 0.0, 0.0), |body| {
            let (displacement, spin) = match body.kind {
                BodyKind::Static => (D::V::ZERO, 0.0),
                _ => (body.linvel * dt, body.angvel.dot(body.angvel).sqrt()),
            };
            let com_offset = D::mass_com(body.mass_properties()).length();
            (displacement, spin, com_offset)
        });
        slot.colliders.iter().filter_map(move |&c| {
            let body = body?;
            let info = self.colliders[c.index() as usize].as_ref()?;
            let pose = D::pose_mul(&body.pose, &info.local_pose);
            let reach = info.reach + com_offset;
            let margin = Margin::Offset(base + dt * spin * reach);
            let current = match self.collision.get(c) {
                Ok(current) => current,
                Err(e) => return Some(Err(e.into())),
            };
            let same = current.pose == pose
                && current.margin == margin
                && current.displacement == displacement;
            (!same).then_some(Ok((c, pose, margin, displacement)))
        })
    }

    /// Writes the solver's velocities and motions back into the bodies.
    fn write_back(&mut self) {
        let write = |(slot, sb): (&mut BodySlot<D>, &SolverBody<D>)| {
            let Some(body) = slot.body.as_mut() else {
                return;
            };
            body.clear_forces();
            if !sb.moves {
                return;
            }
            let local_com = D::mass_com(body.mass_properties());
            let com = body.world_com() + sb.dp;
            let rot = D::rot_mul(sb.dq, D::rotation(&body.pose));
            body.pose = D::pose_from(com - D::rotate(rot, local_com), rot);
            body.linvel = sb.v;
            body.angvel = sb.w;
        };
        if threaded(self.bodies.len()) {
            self.bodies
                .par_iter_mut()
                .zip(self.solver_bodies.par_iter())
                .for_each(write);
        } else {
            self.bodies
                .iter_mut()
                .zip(&self.solver_bodies)
                .for_each(write);
        }
    }

    /// Keeps this step's contacts and their points' impulses for warm
    /// starting: the impulse list is filled from the lanes, and the three
    /// lists change places with the last step's (whose buffers the next
    /// step fills).
    fn store_impulses(&mut self) {
        let total = self.contact_points.last().copied().unwrap_or(0) as usize;
        self.impulses.clear();
        self.impulses.resize(total, (0, 0.0, D::V::ZERO));
        self.lanes.impulses(&mut self.impulses);
        let warm = &mut self.warm;
        core::mem::swap(&mut warm.keys, &mut self.contact_keys);
        core::mem::swap(&mut warm.points, &mut self.contact_points);
        core::mem::swap(&mut warm.impulses, &mut self.impulses);
    }
}
