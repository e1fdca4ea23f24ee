//! The JavaScript class `PhysicsWorld` (the build with the `physics`
//! feature): 2D rigid bodies with colliders and joints, stepped in time,
//! their poses read back in one array per step.

use crate::core::{capsule, circle, polygon, rect};
use crate::input;
use peng::d2::{Pose2, Shape, Vec2};
use peng_dynamics::world::BodyHandle;
use peng_dynamics::{BodyDesc, BodyKind, ColliderDesc, JointDesc, PhysicsWorld2};
use wasm_bindgen::prelude::*;

fn js(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// A 2D physics world: bodies are numbers in the order they were added.
#[wasm_bindgen]
#[derive(Default)]
pub struct PhysicsWorld {
    world: PhysicsWorld2,
    bodies: Vec<BodyHandle>,
    poses: Vec<f32>,
}

#[wasm_bindgen]
impl PhysicsWorld {
    /// An empty world with gravity (0, -9.81) and 60 steps a second.
    #[wasm_bindgen(constructor)]
    pub fn new() -> PhysicsWorld {
        PhysicsWorld::default()
    }

    /// Gravity (units per second squared).
    #[wasm_bindgen(js_name = setGravity)]
    pub fn set_gravity(&mut self, x: f64, y: f64) -> Result<(), JsError> {
        let g = Vec2::new(
            input::finite("gravity x", x).map_err(js)?,
            input::finite("gravity y", y).map_err(js)?,
        );
        self.world.settings_mut().gravity = g;
        Ok(())
    }

    /// The time of one step (seconds).
    #[wasm_bindgen(js_name = setTimeStep)]
    pub fn set_time_step(&mut self, dt: f64) -> Result<(), JsError> {
        self.world.settings_mut().dt = input::positive("time step", dt).map_err(js)?;
        Ok(())
    }

    /// Adds a body: `kind` is `"dynamic"`, `"fixed"` or `"kinematic"`;
    /// returns its number.
    #[wasm_bindgen(js_name = addBody)]
    pub fn add_body(&mut self, kind: &str, x: f64, y: f64, angle: f64) -> Result<u32, JsError> {
        let kind = match kind {
            "dynamic" => BodyKind::Dynamic,
            "fixed" => BodyKind::Static,
            "kinematic" => BodyKind::Kinematic,
            other => {
                return Err(js(format!(
                    "body kind must be \"dynamic\", \"fixed\" or \"kinematic\", got \"{other}\""
                )))
            }
        };
        let pose = input::pose(x, y, angle).map_err(js)?;
        let h = self.world.add_body(BodyDesc::new(kind, pose));
        self.bodies.push(h);
        Ok((self.bodies.len() - 1) as u32)
    }

    /// Sets a body's velocity (linear, and angular in radians per second).
    #[wasm_bindgen(js_name = setVelocity)]
    pub fn set_velocity(&mut self, body: u32, vx: f64, vy: f64, w: f64) -> Result<(), JsError> {
        let v = Vec2::new(
            input::finite("vx", vx).map_err(js)?,
            input::finite("vy", vy).map_err(js)?,
        );
        let w = input::finite("angular velocity", w).map_err(js)?;
        let h = self.handle(body)?;
        let b = self
            .world
            .body_mut(h)
            .ok_or_else(|| js(format!("body {body} is gone")))?;
        b.linvel = v;
        b.angvel = w;
        Ok(())
    }

    /// Whether a body may fall asleep at rest (the default); a sleeping
    /// body wakes up.
    #[wasm_bindgen(js_name = setCanSleep)]
    pub fn set_can_sleep(&mut self, body: u32, can: bool) -> Result<(), JsError> {
        let h = self.handle(body)?;
        let b = self
            .world
            .body_mut(h)
            .ok_or_else(|| js(format!("body {body} is gone")))?;
        b.can_sleep = can;
        Ok(())
    }

    /// A circle on `body` (centred on it).
    #[wasm_bindgen(js_name = addCircle)]
    pub fn add_circle(
        &mut self,
        body: u32,
        radius: f64,
        density: f64,
        friction: f64,
        restitution: f64,
    ) -> Result<(), JsError> {
        self.collider(
            body,
            circle(radius).map_err(js)?,
            density,
            friction,
            restitution,
        )
    }

    /// A box on `body` (half extents, centred on it).
    #[wasm_bindgen(js_name = addBox)]
    pub fn add_box(
        &mut self,
        body: u32,
        half_width: f64,
        half_height: f64,
        density: f64,
        friction: f64,
        restitution: f64,
    ) -> Result<(), JsError> {
        let s = rect(half_width, half_height).map_err(js)?;
        self.collider(body, s, density, friction, restitution)
    }

    /// A capsule along `body`'s x axis.
    #[wasm_bindgen(js_name = addCapsule)]
    pub fn add_capsule(
        &mut self,
        body: u32,
        half_length: f64,
        radius: f64,
        density: f64,
        friction: f64,
        restitution: f64,
    ) -> Result<(), JsError> {
        let s = capsule(half_length, radius).map_err(js)?;
        self.collider(body, s, density, friction, restitution)
    }

    /// The convex hull of `points` (x, y pairs in the body's frame) on `body`.
    #[wasm_bindgen(js_name = addPolygon)]
    pub fn add_polygon(
        &mut self,
        body: u32,
        points: &[f32],
        density: f64,
        friction: f64,
        restitution: f64,
    ) -> Result<(), JsError> {
        let s = polygon(points).map_err(js)?;
        self.collider(body, s, density, friction, restitution)
    }

    /// A revolute joint between two bodies through the world point (x, y).
    #[wasm_bindgen(js_name = addRevolute)]
    pub fn add_revolute(&mut self, a: u32, b: u32, x: f64, y: f64) -> Result<u32, JsError> {
        let anchor = Vec2::new(
            input::finite("x", x).map_err(js)?,
            input::finite("y", y).map_err(js)?,
        );
        let desc =
            JointDesc::<peng::world::Dim2>::revolute(self.handle(a)?, self.handle(b)?, anchor);
        self.world.add_joint(desc).map(|h| h.index()).map_err(js)
    }

    /// A rod between a point of `a` and a point of `b` (world points).
    #[wasm_bindgen(js_name = addDistance)]
    pub fn add_distance(
        &mut self,
        a: u32,
        b: u32,
        ax: f64,
        ay: f64,
        bx: f64,
        by: f64,
    ) -> Result<u32, JsError> {
        let pa = Vec2::new(
            input::finite("ax", ax).map_err(js)?,
            input::finite("ay", ay).map_err(js)?,
        );
        let pb = Vec2::new(
            input::finite("bx", bx).map_err(js)?,
            input::finite("by", by).map_err(js)?,
        );
        let desc = JointDesc::distance(self.handle(a)?, self.handle(b)?, pa, pb);
        self.world.add_joint(desc).map(|h| h.index()).map_err(js)
    }

    /// Advances the world by one time step.
    pub fn step(&mut self) -> Result<(), JsError> {
        self.world.step().map_err(js)
    }

    /// Every body's pose after the last step: x, y, angle per body, in the
    /// order they were added.
    pub fn poses(&mut self) -> Vec<f32> {
        self.poses.clear();
        for &h in &self.bodies {
            let p = self.world.body(h).map_or(Pose2::IDENTITY, |b| b.pose);
            self.poses
                .extend_from_slice(&[p.translation.x, p.translation.y, p.rotation.angle()]);
        }
        self.poses.clone()
    }

    /// The number of bodies.
    #[wasm_bindgen(getter, js_name = bodyCount)]
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }
}

impl PhysicsWorld {
    fn handle(&self, body: u32) -> Result<BodyHandle, JsError> {
        self.bodies
            .get(body as usize)
            .copied()
            .ok_or_else(|| js(format!("body {body} does not exist")))
    }

    fn collider(
        &mut self,
        body: u32,
        shape: Shape,
        density: f64,
        friction: f64,
        restitution: f64,
    ) -> Result<(), JsError> {
        let desc = ColliderDesc::new(shape)
            .with_density(input::non_negative("density", density).map_err(js)?)
            .with_friction(input::non_negative("friction", friction).map_err(js)?)
            .with_restitution(input::non_negative("restitution", restitution).map_err(js)?);
        let h = self.handle(body)?;
        self.world.add_collider(h, desc).map(|_| ()).map_err(js)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A box at rest on the ground; after two seconds, the gravity turns
    /// sideways (which wakes nothing): a box allowed to sleep stays put, one
    /// that may not slides off.
    fn slid(can_sleep: bool) -> f32 {
        let mut w = PhysicsWorld::new();
        let ground = w.add_body("fixed", 0.0, -0.5, 0.0).unwrap();
        w.add_box(ground, 20.0, 0.5, 1.0, 0.6, 0.0).unwrap();
        let b = w.add_body("dynamic", 0.0, 0.5, 0.0).unwrap();
        w.add_box(b, 0.5, 0.5, 1.0, 0.6, 0.0).unwrap();
        w.set_can_sleep(b, can_sleep).unwrap();
        for _ in 0..120 {
            w.step().unwrap();
        }
        w.set_gravity(9.81, -9.81).unwrap();
        for _ in 0..60 {
            w.step().unwrap();
        }
        w.poses()[3 * b as usize]
    }

    #[test]
    fn a_body_that_may_not_sleep_keeps_moving() {
        assert!(slid(true).abs() < 1e-3, "{}", slid(true));
        assert!(slid(false) > 0.5, "{}", slid(false));
    }
}
