//! [`PhysicsWorld::step`]: collide, build the contact constraints, solve,
//! write back.

use peng::math::Vector;
use peng::world::Margin;

use super::profile::Laps;
use super::{PhysicsWorld, StepProfile};
use crate::body::BodyKind;
use crate::dim::{Angular, DynDim};
use crate::solver::body::SolverBody;
use crate::solver::contact::ContactParams;
use crate::solver::contact::{
    effective_mass, impact_velocity, ContactC, ContactPointC, MAX_POINTS,
};
use crate::solver::run_step;
use crate::DynamicsError;

impl<D: DynDim> PhysicsWorld<D> {
    /// Advances the world by one step of `settings().dt` seconds.
    ///
    /// Fails, changing nothing, when a setting is out of range or a body's
    /// pose or velocity is not finite (set through
    /// [`body_mut`](Self::body_mut)).
    pub fn step(&mut self) -> Result<(), DynamicsError> {
        self.settings.validate()?;
        if self
            .bodies
            .iter()
            .any(|s| s.body.as_ref().is_some_and(|b| !b.is_finite()))
        {
            return Err(DynamicsError::NonFiniteBody);
        }
        let mut laps = Laps::start();
        self.sync_colliders()?;
        let tol = self.settings.manifold_reuse;
        let reuse = (tol > 0.0).then_some(tol);
        if self.collision.manifold_reuse() != reuse {
            self.collision.set_manifold_reuse(reuse)?;
        }
        self.collision.update();
        self.wake_linked();
        let collide = laps.lap();
        let h = self.settings.dt / self.settings.substeps as f32;
        self.solver_bodies.clear();
        let gravity = self.settings.gravity;
        self.solver_bodies
            .extend(self.bodies.iter().map(|s| match &s.body {
                Some(b) => SolverBody::from_body(b, gravity, h),
                None => SolverBody::fixed(),
            }));
        let params = ContactParams::for_step(&self.settings);
        self.build_contacts(h, &params);
        self.prepare_joints(h);
        let prepare = laps.lap();
        run_step(
            &mut self.solver_bodies,
            &mut self.lanes,
            &params,
            &mut self.joints.constraints,
            &self.settings,
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

    /// Places every collider at its body's pose with its speculative margin.
    fn sync_colliders(&mut self) -> Result<(), DynamicsError> {
        let dt = self.settings.dt;
        let base = 0.5 * self.settings.speculative_distance;
        for slot in &self.bodies {
            let Some(body) = &slot.body else { continue };
            let (speed, spin) = match body.kind {
                BodyKind::Static => (0.0, 0.0),
                _ => (body.linvel.length(), body.angvel.dot(body.angvel).sqrt()),
            };
            let com_offset = D::mass_com(body.mass_properties()).length();
            for &c in &slot.colliders {
                let Some(info) = self.colliders[c.index() as usize].as_ref() else {
                    continue;
                };
                let pose = D::pose_mul(&body.pose, &info.local_pose);
                let reach = info.reach + com_offset;
                let margin = Margin::Offset(base + dt * (speed + spin * reach));
                let current = self.collision.get(c)?;
                if current.pose != pose || current.margin != margin {
                    self.collision.modify(c, |k| {
                        k.pose = pose;
                        k.margin = margin;
                    })?;
                }
            }
        }
        Ok(())
    }

    /// One contact constraint per manifold of every touching pair with a
    /// dynamic body, warm-started from the cache.
    fn build_contacts(&mut self, h: f32, params: &ContactParams) {
        self.lanes.clear();
        self.contact_pairs.clear();
        self.contact_keys.clear();
        self.contact_points.clear();
        let mut points = 0u32;
        let mut coms = core::mem::take(&mut self.coms);
        coms.clear();
        coms.extend(
            self.bodies
                .iter()
                .map(|s| s.body.as_ref().map_or(D::V::ZERO, |b| b.world_com())),
        );
        // The cache and the touching pairs are both sorted by pair: one
        // cursor walks the cache alongside, and each pair's entries (a few)
        // are searched in place.
        let mut cursor = 0usize;
        for (ha, hb, manifolds) in self.collision.touching_contacts() {
            while cursor < self.cache.len()
                && (self.cache[cursor].0 .0, self.cache[cursor].0 .1) < (ha, hb)
            {
                cursor += 1;
            }
            let mut end = cursor;
            while end < self.cache.len() && (self.cache[end].0 .0, self.cache[end].0 .1) == (ha, hb)
            {
                end += 1;
            }
            let cached = &self.cache[cursor..end];
            let (Some(ia), Some(ib)) = (
                self.colliders[ha.index() as usize].as_ref(),
                self.colliders[hb.index() as usize].as_ref(),
            ) else {
                continue;
            };
            let (a, b) = (ia.body.index as usize, ib.body.index as usize);
            let (sa, sb) = (&self.solver_bodies[a], &self.solver_bodies[b]);
            // Pairs with no awake dynamic body need no solving (asleep on
            // the ground, or two static bodies).
            if a == b || !(sa.dynamic || sb.dynamic) {
                continue;
            }
            let friction = (ia.friction * ib.friction).sqrt();
            let restitution = ia.restitution.max(ib.restitution);
            for m in manifolds {
                let pts = D::points(m);
                if pts.is_empty() {
                    continue;
                }
                let n = D::normal(m);
                let (tangents, nt) = D::tangents(n);
                let mut c = ContactC {
                    a: a as u32,
                    b: b as u32,
                    normal: n,
                    tangents,
                    n_tangents: nt as u8,
                    len: 0,
                    friction,
                    restitution,
                    against_fixed: !(sa.dynamic && sb.dynamic),
                    points: [ContactPointC::<D>::EMPTY; MAX_POINTS],
                    k: [[0.0; MAX_POINTS]; MAX_POINTS],
                };
                let (pa, pb) = D::parts(m);
                let key = (ha, hb, pa, pb);
                for p in pts.iter().take(MAX_POINTS) {
                    let mid = (p.point_a + p.point_b) * 0.5;
                    let (ra, rb) = (mid - coms[a], mid - coms[b]);
                    let mut tm = [0.0; 2];
                    for (k, t) in tangents.iter().take(nt).enumerate() {
                        tm[k] = effective_mass(sa, sb, ra, rb, *t);
                    }
                    let dv = sb.velocity_at(rb) - sa.velocity_at(ra);
                    let a_n = (sb.accel - sa.accel).dot(n);
                    let want = (key.0, key.1, key.2, key.3, p.id.0);
                    let (warm_n, warm_t) = cached
                        .iter()
                        .find(|(k, _, _)| *k == want)
                        .map_or((0.0, D::V::ZERO), |e| (e.1, e.2));
                    c.points[c.len as usize] = ContactPointC {
                        ra,
                        rb,
                        base_sep: -p.depth - (rb - ra).dot(n),
                        normal_mass: effective_mass(sa, sb, ra, rb, n),
                        tangent_mass: tm,
                        normal_impulse: warm_n,
                        tangent_impulse: [warm_t.dot(tangents[0]), warm_t.dot(tangents[1])],
                        max_normal_impulse: 0.0,
                        relative_velocity: impact_velocity(-p.depth, dv.dot(n), a_n, h),
                        restitution_bias: -0.5 * a_n * h,
                        id: p.id,
                    };
                    c.len += 1;
                }
                c.compute_k(sa, sb);
                let id = self.contact_pairs.len() as u32;
                self.lanes.add(&self.solver_bodies, &c, id, points, params);
                self.contact_pairs.push((a as u32, b as u32));
                self.contact_keys.push(key);
                self.contact_points.push(points);
                points += c.len as u32;
            }
        }
        self.contact_points.push(points);
        self.coms = coms;
    }

    /// Writes the solver's velocities and motions back into the bodies.
    fn write_back(&mut self) {
        for (slot, sb) in self.bodies.iter_mut().zip(&self.solver_bodies) {
            let Some(body) = slot.body.as_mut() else {
                continue;
            };
            body.clear_forces();
            if !sb.moves {
                continue;
            }
            let local_com = D::mass_com(body.mass_properties());
            let com = body.world_com() + sb.dp;
            let rot = D::rot_mul(sb.dq, D::rotation(&body.pose));
            body.pose = D::pose_from(com - D::rotate(rot, local_com), rot);
            body.linvel = sb.v;
            body.angvel = sb.w;
        }
    }

    /// Keeps the impulses of this step's contact points for warm starting.
    fn store_impulses(&mut self) {
        let total = self.contact_points.last().copied().unwrap_or(0) as usize;
        self.impulses.clear();
        self.impulses.resize(total, (0, 0.0, D::V::ZERO));
        self.lanes.impulses::<D>(&mut self.impulses);
        self.cache.clear();
        // In pair order (the contacts were built in the touching pairs'
        // order), which is all the lookup needs.
        for (k, span) in self.contact_keys.iter().zip(self.contact_points.windows(2)) {
            for &(id, normal, tangent) in &self.impulses[span[0] as usize..span[1] as usize] {
                self.cache.push(((k.0, k.1, k.2, k.3, id), normal, tangent));
            }
        }
    }
}
