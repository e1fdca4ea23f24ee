//! peng's side of the dynamics benchmark: the same scene data built in a
//! `peng_dynamics::PhysicsWorld2` / `PhysicsWorld3` with its defaults (60 Hz,
//! 4 substeps; triangle meshes are one-sided, as floors; revolute joints as
//! `JointDesc2::revolute` / `JointDesc3::revolute`). With the variable
//! `PENG_DETERMINISM=cross-processor` the worlds run
//! `Determinism::CrossProcessor` instead of the default `Fast`.

use glam::{Quat, Vec2, Vec3};
use peng::d2::{Circle, ConvexPolygon, Pose2, Rect, Segment};
use peng::d3::{Ball, ConvexPolyhedron, Cuboid, Pose3, TriMesh};
use peng::world::CollisionFilter;
use peng_dyn_bench::{Filter, Geometry2, Geometry3, JointSpec2, JointSpec3, Kind, Scene2, Scene3};
use peng_dynamics::{
    BodyDesc, BodyHandle, BodyKind, ColliderDesc, Determinism, JointDesc2, JointDesc3,
    PhysicsWorld2, PhysicsWorld3,
};

/// The determinism mode the benches run: `PENG_DETERMINISM=cross-processor`
/// chooses the mode that gives the same bits on every x86-64 processor.
fn determinism() -> Determinism {
    match std::env::var("PENG_DETERMINISM").as_deref() {
        Ok("cross-processor") => Determinism::CrossProcessor,
        Ok("fast") | Err(_) => Determinism::Fast,
        Ok(other) => {
            eprintln!("PENG_DETERMINISM takes fast or cross-processor, not {other:?}");
            std::process::exit(2);
        }
    }
}

fn kind(k: Kind) -> BodyKind {
    match k {
        Kind::Dynamic => BodyKind::Dynamic,
        Kind::Kinematic => BodyKind::Kinematic,
        Kind::Static => BodyKind::Static,
    }
}

fn filter(f: &Filter) -> CollisionFilter {
    CollisionFilter::new(f.category as u64, f.mask as u64)
}

/// A 2D scene in peng.
pub struct Peng2 {
    /// The world.
    pub world: PhysicsWorld2,
    /// The bodies, in scene order.
    pub bodies: Vec<BodyHandle>,
}

impl Peng2 {
    /// Builds `scene`.
    pub fn build(scene: &Scene2) -> Self {
        let mut world = PhysicsWorld2::new();
        world.settings_mut().determinism = determinism();
        world.settings_mut().gravity = scene.gravity;
        world.settings_mut().sleep = scene.allow_sleep;
        let mut bodies = Vec::with_capacity(scene.bodies.len());
        for b in &scene.bodies {
            let desc = BodyDesc::new(kind(b.kind), Pose2::new(b.position, b.angle))
                .with_linvel(b.linvel)
                .with_angvel(b.angvel);
            let h = world.add_body(desc);
            for s in &b.shapes {
                let shape: peng::d2::Shape = match &s.geometry {
                    Geometry2::Circle { radius } => Circle::new(*radius).expect("radius").into(),
                    Geometry2::Box { half_extents } => {
                        Rect::new(*half_extents).expect("box").into()
                    }
                    Geometry2::Polygon { points, .. } => {
                        ConvexPolygon::from_points(points).expect("polygon").into()
                    }
                    Geometry2::Segment { a, b } => Segment::new(*a, *b).expect("segment").into(),
                };
                let c = ColliderDesc::new(shape)
                    .with_local_pose(Pose2::new(s.offset, s.angle))
                    .with_density(s.material.density)
                    .with_friction(s.material.friction)
                    .with_restitution(s.material.restitution)
                    .with_filter(filter(&s.filter));
                world.add_collider(h, c).expect("collider");
            }
            bodies.push(h);
        }
        for j in &scene.joints {
            let JointSpec2::Revolute {
                body_a,
                body_b,
                anchor,
            } = *j;
            let desc = JointDesc2::revolute(bodies[body_a], bodies[body_b], anchor);
            world.add_joint(desc).expect("joint");
        }
        Peng2 { world, bodies }
    }

    /// One step.
    pub fn step(&mut self) {
        self.world.step().expect("step");
    }

    /// Where the last step's time went.
    pub fn phases(&self) -> Option<super::StepProfile> {
        Some(self.world.profile())
    }

    /// Body `i`'s position.
    pub fn position(&self, i: usize) -> Vec2 {
        self.world
            .body(self.bodies[i])
            .map_or(Vec2::NAN, |b| b.pose.translation)
    }

    /// Body `i`'s angle.
    pub fn angle(&self, i: usize) -> f32 {
        self.world
            .body(self.bodies[i])
            .map_or(f32::NAN, |b| b.pose.rotation.angle())
    }

    /// Touching collider pairs.
    pub fn contact_pairs(&self) -> usize {
        self.world.collision_world().touching_pairs().count()
    }
}

/// A 3D scene in peng.
pub struct Peng3 {
    /// The world.
    pub world: PhysicsWorld3,
    /// The bodies, in scene order.
    pub bodies: Vec<BodyHandle>,
}

impl Peng3 {
    /// Builds `scene`.
    pub fn build(scene: &Scene3) -> Self {
        let mut world = PhysicsWorld3::new();
        world.settings_mut().determinism = determinism();
        world.settings_mut().gravity = scene.gravity;
        world.settings_mut().sleep = scene.allow_sleep;
        let mut bodies = Vec::with_capacity(scene.bodies.len());
        for b in &scene.bodies {
            let desc = BodyDesc::new(kind(b.kind), Pose3::new(b.position, b.rotation))
                .with_linvel(b.linvel)
                .with_angvel(b.angvel);
            let h = world.add_body(desc);
            for s in &b.shapes {
                let shape: peng::d3::Shape = match &s.geometry {
                    Geometry3::Ball { radius } => Ball::new(*radius).expect("radius").into(),
                    Geometry3::Cuboid { half_extents } => {
                        Cuboid::new(*half_extents).expect("box").into()
                    }
                    Geometry3::ConvexHull { points } => {
                        ConvexPolyhedron::from_points(points).expect("hull").into()
                    }
                    Geometry3::TriMesh { vertices, indices } => {
                        TriMesh::new(vertices.clone(), indices.clone())
                            .expect("mesh")
                            .with_one_sided(true)
                            .into()
                    }
                };
                let c = ColliderDesc::new(shape)
                    .with_local_pose(Pose3::new(s.offset, s.rotation))
                    .with_density(s.material.density)
                    .with_friction(s.material.friction)
                    .with_restitution(s.material.restitution)
                    .with_filter(filter(&s.filter));
                world.add_collider(h, c).expect("collider");
            }
            bodies.push(h);
        }
        for j in &scene.joints {
            let JointSpec3::Revolute {
                body_a,
                body_b,
                anchor,
                axis,
            } = *j;
            let desc = JointDesc3::revolute(bodies[body_a], bodies[body_b], anchor, axis);
            world.add_joint(desc).expect("joint");
        }
        Peng3 { world, bodies }
    }

    /// One step.
    pub fn step(&mut self) {
        self.world.step().expect("step");
    }

    /// Where the last step's time went.
    pub fn phases(&self) -> Option<super::StepProfile> {
        Some(self.world.profile())
    }

    /// Body `i`'s position.
    pub fn position(&self, i: usize) -> Vec3 {
        self.world
            .body(self.bodies[i])
            .map_or(Vec3::NAN, |b| b.pose.translation)
    }

    /// Body `i`'s rotation.
    pub fn rotation(&self, i: usize) -> Quat {
        self.world
            .body(self.bodies[i])
            .map_or(Quat::NAN, |b| b.pose.rotation)
    }

    /// Touching collider pairs.
    pub fn contact_pairs(&self) -> usize {
        self.world.collision_world().touching_pairs().count()
    }
}
