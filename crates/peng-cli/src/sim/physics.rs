//! Builds a [`peng_dynamics::PhysicsWorld`] from a loaded scene (bodies,
//! colliders, joints) and drives it for the simulation loop
//! ([`super::run::Physics`]).

use super::model::{BodyKind, JointKind, JointSpec, Timing, World};
use super::run::{Physics, RawEvent};
use super::space::Space;
use anyhow::{anyhow, Result};
use peng::math::Vector;
use peng::world::{ColliderHandle, EventKind};
use peng_dynamics::{BodyDesc, BodyHandle, ColliderDesc, JointDesc, JointType, PhysicsWorld};
use std::collections::HashMap;

/// Contact points with a gap up to this (length units) are drawn as
/// touching.
const TOUCH_GAP: f32 = 0.01;

/// A physics world built from a scene, with the scene's indices of its
/// bodies and colliders.
pub struct Dynamics<D: Space> {
    world: PhysicsWorld<D>,
    /// Body handles in scene order.
    bodies: Vec<BodyHandle>,
    /// (body, collider) scene indices of each collider.
    colliders: HashMap<ColliderHandle, (usize, usize)>,
}

impl<D: Space> Dynamics<D> {
    /// The world of `w`'s bodies and joints, stepped as `timing` says. Fails
    /// on a body or joint the world refuses, naming it.
    pub fn build(w: &World<D>, timing: &Timing) -> Result<Self> {
        let mut world = PhysicsWorld::<D>::new();
        {
            let s = world.settings_mut();
            s.gravity = w.gravity;
            s.dt = timing.dt;
            s.substeps = timing.substeps;
        }
        let mut bodies = Vec::with_capacity(w.bodies.len());
        let mut colliders = HashMap::new();
        for (i, b) in w.bodies.iter().enumerate() {
            let desc = match b.kind {
                BodyKind::Dynamic => BodyDesc::dynamic(b.pose),
                BodyKind::Kinematic => BodyDesc::kinematic(b.pose),
                BodyKind::Static => BodyDesc::fixed(b.pose),
            }
            .with_linvel(b.linvel)
            .with_angvel(b.angvel)
            .with_damping(b.linear_damping, b.angular_damping);
            let h = world.add_body(desc);
            for (k, c) in b.colliders.iter().enumerate() {
                let desc = ColliderDesc::<D>::new(c.shape.clone())
                    .with_local_pose(c.local_pose)
                    .with_density(c.density)
                    .with_friction(c.friction)
                    .with_restitution(c.restitution);
                let ch = world.add_collider(h, desc).map_err(|e| {
                    anyhow!(
                        "body {:?} (bodies[{i}]), collider {k}: the physics world refused it: {e}",
                        b.name
                    )
                })?;
                colliders.insert(ch, (i, k));
            }
            bodies.push(h);
        }
        for (i, j) in w.joints.iter().enumerate() {
            world.add_joint(joint_desc(w, j, &bodies)).map_err(|e| {
                anyhow!(
                    "joint {:?} (joints[{i}], {} between {:?} and {:?}): the physics world \
                     refused it: {e}",
                    j.name,
                    j.kind.name(),
                    w.bodies[j.body_a].name,
                    w.bodies[j.body_b].name
                )
            })?;
        }
        Ok(Dynamics {
            world,
            bodies,
            colliders,
        })
    }
}

/// The physics world's description of joint `j` of `w` (anchors and axis
/// back in world space at the bodies' start poses, where the world wants
/// them).
fn joint_desc<D: Space>(w: &World<D>, j: &JointSpec<D>, bodies: &[BodyHandle]) -> JointDesc<D> {
    let (pa, pb) = (&w.bodies[j.body_a].pose, &w.bodies[j.body_b].pose);
    let mut x = <D::V as Vector>::ZERO;
    x.set(0, 1.0);
    JointDesc {
        kind: match j.kind {
            JointKind::Revolute => JointType::Revolute,
            JointKind::Prismatic => JointType::Prismatic,
            JointKind::Distance => JointType::Distance,
            JointKind::Weld => JointType::Weld,
        },
        body_a: bodies[j.body_a],
        body_b: bodies[j.body_b],
        anchor_a: D::transform_point(pa, j.local_anchor_a),
        anchor_b: D::transform_point(pb, j.local_anchor_b),
        // Unused by the joints without an axis.
        axis: j.local_axis_a.map_or(x, |a| D::rotate(D::rotation(pa), a)),
        limits: j.limits,
        motor: j.motor.map(|m| peng_dynamics::Motor {
            speed: m.speed,
            max_force: m.max_force,
        }),
        spring: j.spring.map(|s| peng_dynamics::Spring {
            hertz: s.hertz,
            damping_ratio: s.damping_ratio,
        }),
        length: j.rest_length,
        collide_connected: j.collide_connected,
    }
}

impl<D: Space> Physics<D> for Dynamics<D> {
    fn step(&mut self) -> Result<()> {
        let n = self.world.step_count() + 1;
        self.world
            .step()
            .map_err(|e| anyhow!("step {n} of the physics world failed: {e}"))
    }

    fn poses(&self, out: &mut Vec<D::Pose>) {
        // Every scene body stays in the world; a missing one (never) is
        // drawn at the identity pose rather than shifting the others.
        out.extend(
            self.bodies
                .iter()
                .map(|&h| self.world.body(h).map_or(D::IDENTITY, |b| b.pose)),
        );
    }

    fn contact_points(&self, out: &mut Vec<D::V>) {
        for (_, _, manifolds) in self.world.collision_world().touching_contacts() {
            for m in manifolds {
                // Speculative points (a gap within the margin) are not
                // contacts yet; a hair of gap is (the solver keeps resting
                // bodies within its slop).
                out.extend(
                    D::points(m)
                        .iter()
                        .filter(|p| p.depth > -TOUCH_GAP)
                        .map(|p| (p.point_a + p.point_b) * 0.5),
                );
            }
        }
    }

    fn events(&self, out: &mut Vec<RawEvent>) {
        for e in self.world.contact_events() {
            let began = match e.kind {
                EventKind::Began => true,
                EventKind::Ended => false,
                EventKind::Persisted => continue,
            };
            if e.watch.is_some() {
                continue;
            }
            let (Some(&a), Some(&b)) = (self.colliders.get(&e.a), self.colliders.get(&e.b)) else {
                continue;
            };
            // The earlier body in the file first.
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            out.push(RawEvent { a, b, began });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::load::parse;
    use crate::sim::model::Worlds;
    use crate::sim::BUNDLED;

    /// The bundled Newton's cradle: the pulled-out first ball swings down,
    /// its momentum passes through the three resting balls, and the last
    /// ball swings out on the far side while the strings keep their length.
    #[test]
    fn the_cradle_passes_the_swing_through() {
        let s = parse("c.json", BUNDLED[1].2).unwrap();
        let Worlds::D2(w) = &s.worlds else {
            panic!("2D")
        };
        let mut d = Dynamics::build(w, &s.timing).unwrap();
        let anchors: Vec<peng::d2::Vec2> = w.joints.iter().map(|j| j.local_anchor_a).collect();
        let frame = w.bodies[0].pose;
        let mut poses = Vec::new();
        let (mut highest_last, mut highest_first_after) = (f32::MIN, f32::MIN);
        // Ball 1 falls 1.5 from 60 degrees out and reaches the others after
        // a quarter swing (about 0.9 s); follow the first second after that.
        for step in 0..120 {
            d.step().unwrap();
            poses.clear();
            d.poses(&mut poses);
            for (k, a) in anchors.iter().enumerate() {
                let len = (poses[k + 1].translation - frame.transform_point(*a)).length();
                assert!(
                    (len - 3.0).abs() < 0.03,
                    "string {} is {len} at step {step}",
                    k + 1
                );
            }
            if step > 60 {
                highest_last = highest_last.max(poses[5].translation.y);
                highest_first_after = highest_first_after.max(poses[1].translation.y);
            }
        }
        // The far ball rises most of the first ball's 1.5 drop; the first
        // ball stays low.
        assert!(highest_last > 1.0 + 0.75, "{highest_last}");
        assert!(highest_first_after < 1.0 + 0.5, "{highest_first_after}");
    }

    #[test]
    fn a_dropped_ball_lands_and_logs_its_contact() {
        let t = r#"{"dimension": 2, "seconds": 1.5, "bodies": [
            {"name": "ground", "kind": "static", "position": [0, -0.5],
             "colliders": [{"shape": {"type": "rect", "half_extents": [5, 0.5]}}]},
            {"name": "ball", "position": [0, 1.5],
             "colliders": [{"shape": {"type": "circle", "radius": 0.5}}]}]}"#;
        let s = parse("b.json", t).unwrap();
        let Worlds::D2(w) = &s.worlds else {
            panic!("2D")
        };
        let mut d = Dynamics::build(w, &s.timing).unwrap();
        let mut began = Vec::new();
        for _ in 0..s.timing.steps {
            d.step().unwrap();
            let mut ev = Vec::new();
            d.events(&mut ev);
            began.extend(ev.into_iter().filter(|e| e.began));
        }
        let mut poses = Vec::new();
        d.poses(&mut poses);
        // Fallen 1 unit in about 0.45 s; at rest on the ground by 1.5 s.
        assert!((poses[1].translation.y - 0.5).abs() < 0.02, "{poses:?}");
        // Touching at the bottom of the ball.
        let mut points = Vec::new();
        d.contact_points(&mut points);
        assert!(!points.is_empty());
        for p in points {
            assert!(p.length() < 0.02, "{p}");
        }
        assert_eq!(poses[0].translation.y, -0.5);
        assert_eq!(
            began,
            vec![RawEvent {
                a: (0, 0),
                b: (1, 0),
                began: true
            }]
        );
    }

    #[test]
    fn initial_velocities_and_kinds_reach_the_world() {
        // No gravity: the kinematic paddle moves at its velocity, the
        // dynamic wheel turns at 90 degrees per second, the static post
        // stays; all far apart.
        let t = r#"{"dimension": 2, "gravity": [0, 0], "seconds": 1, "bodies": [
            {"name": "paddle", "kind": "kinematic", "linvel": [2, 0],
             "colliders": [{"shape": {"type": "rect", "half_extents": [1, 0.1]}}]},
            {"name": "wheel", "position": [0, 5], "angvel_deg": 90,
             "colliders": [{"shape": {"type": "circle", "radius": 0.5}}]},
            {"name": "post", "kind": "static", "position": [0, -5],
             "colliders": [{"shape": {"type": "rect", "half_extents": [0.1, 1]}}]}]}"#;
        let s = parse("k.json", t).unwrap();
        let Worlds::D2(w) = &s.worlds else {
            panic!("2D")
        };
        let mut d = Dynamics::build(w, &s.timing).unwrap();
        for _ in 0..s.timing.steps {
            d.step().unwrap();
        }
        let mut p = Vec::new();
        d.poses(&mut p);
        assert!((p[0].translation.x - 2.0).abs() < 1e-3, "{:?}", p[0]);
        assert!((p[1].rotation.angle() - std::f32::consts::FRAC_PI_2).abs() < 1e-3);
        assert!((p[1].translation - peng::d2::Vec2::new(0.0, 5.0)).length() < 1e-5);
        assert_eq!(p[2].translation, peng::d2::Vec2::new(0.0, -5.0));
    }

    /// A 3D pendulum hinged about the world z axis (the default) of a
    /// turned static body: the bob swings in the x-y plane at its distance.
    #[test]
    fn hinge_in_3d() {
        let t = r#"{"dimension": 3, "seconds": 0.5, "bodies": [
            {"name": "pivot", "kind": "static", "rotation": {"axis": [1, 1, 0], "angle_deg": 40},
             "colliders": [{"shape": {"type": "ball", "radius": 0.05}}]},
            {"name": "bob", "position": [1, 0, 0],
             "colliders": [{"shape": {"type": "ball", "radius": 0.1}}]}],
          "joints": [{"type": "revolute", "body_a": "pivot", "body_b": "bob", "anchor": [0, 0, 0]}]}"#;
        let s = parse("h.json", t).unwrap();
        let Worlds::D3(w) = &s.worlds else {
            panic!("3D")
        };
        let mut d = Dynamics::build(w, &s.timing).unwrap();
        let mut p = Vec::new();
        for _ in 0..s.timing.steps {
            d.step().unwrap();
            p.clear();
            d.poses(&mut p);
            let b = p[1].translation;
            assert!((b.length() - 1.0).abs() < 0.01 && b.z.abs() < 0.01, "{b}");
        }
        // Swung down: after 0.5 s well below the hinge.
        assert!(p[1].translation.y < -0.5, "{:?}", p[1]);
    }
}
