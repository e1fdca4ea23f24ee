//! Box scenes for the broad-phase benches: a scene of moving boxes of mixed
//! sizes at constant density, and the MSVC `rand()` test vector.

use crate::rng::Rng;
use glam::Vec3;
use peng::bound::Aabb3;

/// The MSVC `rand()` sequence: `s = s·214013 + 2531011`, output bits 16..30.
#[derive(Debug, Clone)]
pub struct MsvcRand(pub u32);

impl MsvcRand {
    /// The next output, in `0..=0x7fff`.
    pub fn next_u15(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(214013).wrapping_add(2531011);
        (self.0 >> 16) & 0x7fff
    }
}

/// The third-party box test vector: for each box, centre x, y, z drawn as
/// `(r() & 4095) - 2048`, then half-extents x, y, z as `r() & 127`. With seed 42,
/// 10,000 boxes have exactly 11,811 pairs of closed boxes overlapping.
pub fn msvc_boxes(n: usize, seed: u32) -> Vec<Aabb3> {
    let mut r = MsvcRand(seed);
    (0..n)
        .map(|_| {
            let c = [0; 3].map(|_| ((r.next_u15() & 4095) as i32 - 2048) as f32);
            let h = [0; 3].map(|_| (r.next_u15() & 127) as f32);
            Aabb3::from_center_half_extents(Vec3::from(c), Vec3::from(h))
        })
        .collect()
}

/// A scene of `n` moving boxes in a cube whose side grows as `n^(1/3)`, so the
/// density (and the number of pairs per box, about 1.5) stays the same at every
/// size. Half-extents are mixed: most between 0.25 and 1, one in twenty up to 4.
/// Each [`step`](MovingBoxes::step) moves a fixed 10 % of the boxes, a
/// different tenth each frame, by their velocity (bouncing off the walls).
#[derive(Debug, Clone)]
pub struct MovingBoxes {
    /// The boxes as of the last step.
    pub boxes: Vec<Aabb3>,
    centres: Vec<Vec3>,
    halves: Vec<Vec3>,
    vel: Vec<Vec3>,
    side: f32,
    frame: usize,
}

/// Volume of world per box; with the sizes above this gives about 1.5 pairs
/// per box.
const CELL_VOLUME: f32 = 40.0;

impl MovingBoxes {
    /// `n` boxes from `seed`.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let side = (n as f32 * CELL_VOLUME).cbrt();
        let mut centres = Vec::with_capacity(n);
        let mut halves = Vec::with_capacity(n);
        let mut vel = Vec::with_capacity(n);
        for _ in 0..n {
            let big = rng.below(20) == 0;
            let hmax = if big { 4.0 } else { 1.0 };
            let h = Vec3::new(
                rng.range(0.25, hmax),
                rng.range(0.25, hmax),
                rng.range(0.25, hmax),
            );
            let c = Vec3::new(
                rng.range(0.0, side),
                rng.range(0.0, side),
                rng.range(0.0, side),
            );
            // Speeds up to 0.2 per frame: a fifth of a small box's half-size.
            let v = rng.unit_vec3() * rng.range(0.02, 0.2);
            centres.push(c);
            halves.push(h);
            vel.push(v);
        }
        let boxes = centres
            .iter()
            .zip(&halves)
            .map(|(&c, &h)| Aabb3::from_center_half_extents(c, h))
            .collect();
        MovingBoxes {
            boxes,
            centres,
            halves,
            vel,
            side,
            frame: 0,
        }
    }

    /// The side of the world cube.
    pub fn side(&self) -> f32 {
        self.side
    }

    /// Number of boxes.
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// Whether there are no boxes.
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// Moves the next tenth of the boxes (indices `k ≡ frame (mod 10)`) and
    /// returns their indices; `boxes` holds the new boxes and `displacement`
    /// gives each box's velocity (the motion hint of the broad phases).
    pub fn step(&mut self) -> Vec<usize> {
        let phase = self.frame % 10;
        self.frame += 1;
        let moved: Vec<usize> = (phase..self.len()).step_by(10).collect();
        for &i in &moved {
            let c = bounce_step(&mut self.centres[i], &mut self.vel[i], self.side);
            self.boxes[i] = Aabb3::from_center_half_extents(c, self.halves[i]);
        }
        moved
    }

    /// The velocity of box `i` (its displacement per frame).
    pub fn velocity(&self, i: usize) -> Vec3 {
        self.vel[i]
    }
}

/// Moves `centre` by `vel` inside the cube `[0, side]^3`, reflecting the
/// velocity off the walls; returns the new centre.
pub fn bounce_step(centre: &mut Vec3, vel: &mut Vec3, side: f32) -> Vec3 {
    let mut c = *centre + *vel;
    for k in 0..3 {
        if c[k] < 0.0 || c[k] > side {
            vel[k] = -vel[k];
            c[k] = c[k].clamp(0.0, side);
        }
    }
    *centre = c;
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msvc_vector_has_the_published_pair_count() {
        // Sort-and-sweep on x, counting closed overlaps on all axes.
        let b = msvc_boxes(10_000, 42);
        let mut order: Vec<usize> = (0..b.len()).collect();
        order.sort_by(|&i, &j| b[i].min.x.total_cmp(&b[j].min.x));
        let mut pairs = 0;
        for (k, &i) in order.iter().enumerate() {
            for &j in &order[k + 1..] {
                if b[j].min.x > b[i].max.x {
                    break;
                }
                if (0..3).all(|a| b[i].min[a] <= b[j].max[a] && b[j].min[a] <= b[i].max[a]) {
                    pairs += 1;
                }
            }
        }
        assert_eq!(pairs, 11_811);
    }

    #[test]
    fn a_step_moves_one_tenth_and_keeps_boxes_in_the_world() {
        let mut s = MovingBoxes::new(1000, 7);
        let before = s.boxes.clone();
        let moved = s.step();
        assert_eq!(moved.len(), 100);
        let changed = (0..1000).filter(|&i| s.boxes[i] != before[i]).count();
        assert_eq!(changed, 100);
        for _ in 0..200 {
            s.step();
        }
        let side = s.side();
        assert!(s.boxes.iter().all(|b| {
            let c = (b.min + b.max) * 0.5;
            c.min_element() >= 0.0 && c.max_element() <= side
        }));
    }
}
