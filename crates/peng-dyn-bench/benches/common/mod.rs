//! rapier2d / rapier3d worlds built from the neutral scenes of
//! `peng_dyn_bench`, shared by the `dynamics` and `dyn_steps` benches.
//!
//! Settings (rapier 0.36's defaults, default features including
//! `block-solver`, unless said): dt = 1/60 s,
//! `num_solver_iterations` = 4 (rapier's sub-steps of its soft-constraint
//! TGS solver, the analogue of Box2D's 4 sub-steps), one internal PGS
//! iteration and one stabilisation iteration per sub-step, contact
//! prediction 0.02 m (normalised), CCD off on every body (rapier's default),
//! friction and restitution combined by rapier's default rule (average: the
//! scenes use one friction everywhere, so it equals Box2D's geometric mean).
//! Joints: impulse joints with contacts between the linked bodies off.
//! Sleeping follows the scene's `allow_sleep`.

#![allow(dead_code)] // Each bench target uses part of this module.

mod peng_side;
pub use peng_side::{Peng2, Peng3};

use glam::{Quat, Vec2, Vec3};
use peng_dyn_bench::{Filter, Geometry2, Geometry3, JointSpec2, JointSpec3, Kind, Scene2, Scene3};
pub use peng_dynamics::StepProfile;

fn groups2(f: Filter) -> rapier2d::prelude::InteractionGroups {
    use rapier2d::prelude::{Group, InteractionGroups, InteractionTestMode};
    InteractionGroups::new(
        Group::from_bits_retain(f.category),
        Group::from_bits_retain(f.mask),
        InteractionTestMode::And,
    )
}

fn groups3(f: Filter) -> rapier3d::prelude::InteractionGroups {
    use rapier3d::prelude::{Group, InteractionGroups, InteractionTestMode};
    InteractionGroups::new(
        Group::from_bits_retain(f.category),
        Group::from_bits_retain(f.mask),
        InteractionTestMode::And,
    )
}

/// A rapier2d world holding one scene, bodies in the scene's order.
pub struct Rapier2 {
    /// The world (all of rapier's sets and pipelines).
    pub world: rapier2d::prelude::PhysicsWorld,
    /// Handle of the scene's body `i`.
    pub handles: Vec<rapier2d::prelude::RigidBodyHandle>,
}

impl Rapier2 {
    /// rapier's phases are not compared.
    pub fn phases(&self) -> Option<StepProfile> {
        None
    }

    /// Builds `scene` in a new rapier2d world.
    pub fn build(scene: &Scene2) -> Self {
        use rapier2d::prelude as r;
        let mut world = r::PhysicsWorld::new();
        world.gravity = scene.gravity;
        world.integration_parameters = r::IntegrationParameters::default();
        let mut handles = Vec::with_capacity(scene.bodies.len());
        for b in &scene.bodies {
            let builder = match b.kind {
                Kind::Dynamic => r::RigidBodyBuilder::dynamic(),
                Kind::Kinematic => r::RigidBodyBuilder::kinematic_velocity_based(),
                Kind::Static => r::RigidBodyBuilder::fixed(),
            };
            let body = builder
                .pose(r::Pose::new(b.position, b.angle))
                .linvel(b.linvel)
                .angvel(b.angvel)
                .can_sleep(scene.allow_sleep)
                .build();
            let h = world.bodies.insert(body);
            for s in &b.shapes {
                let cb = match &s.geometry {
                    Geometry2::Circle { radius } => r::ColliderBuilder::ball(*radius),
                    Geometry2::Box { half_extents } => {
                        r::ColliderBuilder::cuboid(half_extents.x, half_extents.y)
                    }
                    Geometry2::Polygon { points, radius } => {
                        let cb = if *radius > 0.0 {
                            r::ColliderBuilder::round_convex_polyline(points.clone(), *radius)
                        } else {
                            r::ColliderBuilder::convex_polyline(points.clone())
                        };
                        cb.expect("scene polygons are convex and not degenerate")
                    }
                    Geometry2::Segment { a, b } => r::ColliderBuilder::segment(*a, *b),
                };
                let collider = cb
                    .position(r::Pose::new(s.offset, s.angle))
                    .density(s.material.density)
                    .friction(s.material.friction)
                    .restitution(s.material.restitution)
                    .collision_groups(groups2(s.filter))
                    .build();
                world
                    .colliders
                    .insert_with_parent(collider, h, &mut world.bodies);
            }
            handles.push(h);
        }
        for j in &scene.joints {
            let JointSpec2::Revolute {
                body_a,
                body_b,
                anchor,
            } = *j;
            let local = |i: usize| {
                let b = &scene.bodies[i];
                Vec2::from_angle(-b.angle).rotate(anchor - b.position)
            };
            let joint = r::RevoluteJointBuilder::new()
                .local_anchor1(local(body_a))
                .local_anchor2(local(body_b))
                .contacts_enabled(false);
            world
                .impulse_joints
                .insert(handles[body_a], handles[body_b], joint, true);
        }
        Rapier2 { world, handles }
    }

    /// One step of 1/60 s.
    pub fn step(&mut self) {
        self.world.step();
    }

    /// World position of the scene's body `i`'s origin.
    pub fn position(&self, i: usize) -> Vec2 {
        self.world.bodies[self.handles[i]].translation()
    }

    /// Rotation angle of the scene's body `i`.
    pub fn angle(&self, i: usize) -> f32 {
        self.world.bodies[self.handles[i]].rotation().angle()
    }

    /// Contact pairs with at least one contact point, after the last step.
    pub fn contact_pairs(&self) -> usize {
        self.world
            .narrow_phase
            .contact_pairs()
            .filter(|p| p.has_any_active_contact())
            .count()
    }
}

/// A rapier3d world holding one scene, bodies in the scene's order.
pub struct Rapier3 {
    /// The world (all of rapier's sets and pipelines).
    pub world: rapier3d::prelude::PhysicsWorld,
    /// Handle of the scene's body `i`.
    pub handles: Vec<rapier3d::prelude::RigidBodyHandle>,
}

impl Rapier3 {
    /// rapier's phases are not compared.
    pub fn phases(&self) -> Option<StepProfile> {
        None
    }

    /// Builds `scene` in a new rapier3d world.
    pub fn build(scene: &Scene3) -> Self {
        use rapier3d::prelude as r;
        let mut world = r::PhysicsWorld::new();
        world.gravity = scene.gravity;
        world.integration_parameters = r::IntegrationParameters::default();
        let mut handles = Vec::with_capacity(scene.bodies.len());
        for b in &scene.bodies {
            let builder = match b.kind {
                Kind::Dynamic => r::RigidBodyBuilder::dynamic(),
                Kind::Kinematic => r::RigidBodyBuilder::kinematic_velocity_based(),
                Kind::Static => r::RigidBodyBuilder::fixed(),
            };
            let body = builder
                .pose(r::Pose::from_parts(b.position, b.rotation))
                .linvel(b.linvel)
                .angvel(b.angvel)
                .can_sleep(scene.allow_sleep)
                .build();
            let h = world.bodies.insert(body);
            for s in &b.shapes {
                let cb = match &s.geometry {
                    Geometry3::Ball { radius } => r::ColliderBuilder::ball(*radius),
                    Geometry3::Cuboid { half_extents } => {
                        r::ColliderBuilder::cuboid(half_extents.x, half_extents.y, half_extents.z)
                    }
                    Geometry3::ConvexHull { points } => r::ColliderBuilder::convex_hull(points)
                        .expect("scene hulls are not degenerate"),
                    Geometry3::TriMesh { vertices, indices } => {
                        r::ColliderBuilder::trimesh(vertices.clone(), indices.clone())
                            .expect("scene meshes are valid")
                    }
                };
                let collider = cb
                    .position(r::Pose::from_parts(s.offset, s.rotation))
                    .density(s.material.density)
                    .friction(s.material.friction)
                    .restitution(s.material.restitution)
                    .collision_groups(groups3(s.filter))
                    .build();
                world
                    .colliders
                    .insert_with_parent(collider, h, &mut world.bodies);
            }
            handles.push(h);
        }
        for j in &scene.joints {
            let JointSpec3::Revolute {
                body_a,
                body_b,
                anchor,
                axis,
            } = *j;
            let inv = |i: usize| -> (Quat, Vec3) {
                let b = &scene.bodies[i];
                (b.rotation.inverse(), b.position)
            };
            let ((qa, pa), (qb, pb)) = (inv(body_a), inv(body_b));
            let joint = r::GenericJointBuilder::new(r::JointAxesMask::LOCKED_REVOLUTE_AXES)
                .local_anchor1(qa * (anchor - pa))
                .local_anchor2(qb * (anchor - pb))
                .local_axis1(qa * axis)
                .local_axis2(qb * axis)
                .contacts_enabled(false);
            world
                .impulse_joints
                .insert(handles[body_a], handles[body_b], joint, true);
        }
        Rapier3 { world, handles }
    }

    /// One step of 1/60 s.
    pub fn step(&mut self) {
        self.world.step();
    }

    /// World position of the scene's body `i`'s origin.
    pub fn position(&self, i: usize) -> Vec3 {
        self.world.bodies[self.handles[i]].translation()
    }

    /// Rotation of the scene's body `i`.
    pub fn rotation(&self, i: usize) -> Quat {
        *self.world.bodies[self.handles[i]].rotation()
    }

    /// Contact pairs with at least one contact point, after the last step.
    pub fn contact_pairs(&self) -> usize {
        self.world
            .narrow_phase
            .contact_pairs()
            .filter(|p| p.has_any_active_contact())
            .count()
    }
}

/// What the table and the sanity checks read from an engine running a 2D
/// scene.
pub trait Engine2 {
    /// One step of 1/60 s.
    fn step(&mut self);
    /// Body `i`'s position (scene order).
    fn position(&self, i: usize) -> Vec2;
    /// Body `i`'s angle.
    fn angle(&self, i: usize) -> f32;
    /// Touching pairs.
    fn contact_pairs(&self) -> usize;
    /// Where the last step's time went (peng only).
    fn phases(&self) -> Option<StepProfile>;
}

/// [`Engine2`] in 3D.
pub trait Engine3 {
    /// One step of 1/60 s.
    fn step(&mut self);
    /// Body `i`'s position (scene order).
    fn position(&self, i: usize) -> Vec3;
    /// Body `i`'s rotation.
    fn rotation(&self, i: usize) -> glam::Quat;
    /// Touching pairs.
    fn contact_pairs(&self) -> usize;
    /// Where the last step's time went (peng only).
    fn phases(&self) -> Option<StepProfile>;
}

macro_rules! engine2 {
    ($t:ty) => {
        impl Engine2 for $t {
            fn step(&mut self) {
                <$t>::step(self)
            }
            fn position(&self, i: usize) -> Vec2 {
                <$t>::position(self, i)
            }
            fn angle(&self, i: usize) -> f32 {
                <$t>::angle(self, i)
            }
            fn contact_pairs(&self) -> usize {
                <$t>::contact_pairs(self)
            }
            fn phases(&self) -> Option<StepProfile> {
                <$t>::phases(self)
            }
        }
    };
}
macro_rules! engine3 {
    ($t:ty) => {
        impl Engine3 for $t {
            fn step(&mut self) {
                <$t>::step(self)
            }
            fn position(&self, i: usize) -> Vec3 {
                <$t>::position(self, i)
            }
            fn rotation(&self, i: usize) -> glam::Quat {
                <$t>::rotation(self, i)
            }
            fn contact_pairs(&self) -> usize {
                <$t>::contact_pairs(self)
            }
            fn phases(&self) -> Option<StepProfile> {
                <$t>::phases(self)
            }
        }
    };
}
engine2!(Rapier2);
engine2!(Peng2);
engine3!(Rapier3);
engine3!(Peng3);
