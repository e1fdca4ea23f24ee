//! A scene of moving colliders of mixed shapes for the world benchmarks:
//! balls, boxes and capsules at constant density in a cube whose side grows
//! as `n^(1/3)`, a tenth of them moving each frame (a different tenth each
//! frame), turning as they go. Each library builds its own shapes from
//! [`ShapeSpec`], so both see the same geometry.

use crate::boxes::bounce_step;
use crate::rng::Rng;
use glam::{Quat, Vec3};

/// One collider's shape, library-neutral.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ShapeSpec {
    /// A ball of this radius.
    Ball(f32),
    /// A box of these half-extents.
    Cuboid(Vec3),
    /// A capsule along local y: half the segment length, then the radius.
    Capsule(f32, f32),
}

/// The moving scene (see the module documentation).
#[derive(Debug, Clone)]
pub struct MovingShapes {
    /// The shapes.
    pub shapes: Vec<ShapeSpec>,
    /// Centres as of the last step.
    pub centres: Vec<Vec3>,
    /// Orientations as of the last step.
    pub rotations: Vec<Quat>,
    vel: Vec<Vec3>,
    spin: Vec<Quat>,
    side: f32,
    frame: usize,
}

/// Volume of world per collider: about 1.5 touching pairs per collider with
/// the sizes below.
const VOLUME_PER_COLLIDER: f32 = 30.0;

impl MovingShapes {
    /// `n` colliders from `seed`: a third each balls (radius 0.3-1), boxes
    /// (half-extents 0.25-1) and capsules (half-length 0.2-0.8, radius
    /// 0.2-0.5); one in twenty is three times larger.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let side = (n as f32 * VOLUME_PER_COLLIDER).cbrt();
        let mut s = MovingShapes {
            shapes: Vec::with_capacity(n),
            centres: Vec::with_capacity(n),
            rotations: Vec::with_capacity(n),
            vel: Vec::with_capacity(n),
            spin: Vec::with_capacity(n),
            side,
            frame: 0,
        };
        for i in 0..n {
            let k = if rng.below(20) == 0 { 3.0 } else { 1.0 };
            let shape = match i % 3 {
                0 => ShapeSpec::Ball(k * rng.range(0.3, 1.0)),
                1 => ShapeSpec::Cuboid(
                    k * Vec3::new(
                        rng.range(0.25, 1.0),
                        rng.range(0.25, 1.0),
                        rng.range(0.25, 1.0),
                    ),
                ),
                _ => ShapeSpec::Capsule(k * rng.range(0.2, 0.8), k * rng.range(0.2, 0.5)),
            };
            s.shapes.push(shape);
            s.centres.push(Vec3::new(
                rng.range(0.0, side),
                rng.range(0.0, side),
                rng.range(0.0, side),
            ));
            s.rotations.push(rng.rotation3());
            s.vel.push(rng.unit_vec3() * rng.range(0.02, 0.2));
            s.spin
                .push(Quat::from_axis_angle(rng.unit_vec3(), rng.range(0.0, 0.05)));
        }
        s
    }

    /// Number of colliders.
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// Moves and turns the next tenth of the colliders (indices `k ≡ frame
    /// (mod 10)`, bouncing off the walls) and returns their indices.
    pub fn step(&mut self) -> Vec<usize> {
        let phase = self.frame % 10;
        self.frame += 1;
        let moved: Vec<usize> = (phase..self.len()).step_by(10).collect();
        for &i in &moved {
            bounce_step(&mut self.centres[i], &mut self.vel[i], self.side);
            self.rotations[i] = (self.spin[i] * self.rotations[i]).normalize();
        }
        moved
    }
}
