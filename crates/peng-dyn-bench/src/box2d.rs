//! Box2D v3's 2D benchmark scenes as plain data.
//!
//! Source of every parameter: Box2D v3 (Erin Catto, MIT), `shared/benchmarks.c`
//! (`CreateLargePyramid`, `CreateManyPyramids`, `CreateTumbler`,
//! `CreateJointGrid`) and `benchmark/main.c` (60 Hz, 4 sub-steps, the step
//! counts below, the first step left out of the timing). Only the numbers are
//! taken; the builders are written here. Box2D's defaults apply where a scene
//! sets nothing: gravity (0, -10), density 1, friction 0.6, restitution 0,
//! sharp polygons (radius 0).

use crate::scene::{
    BodySpec2, Filter, Geometry2, JointSpec2, Kind, Scene2, ShapeSpec2, DEFAULT_DENSITY,
};
use glam::Vec2;

/// Box2D's default gravity.
pub const GRAVITY: Vec2 = Vec2::new(0.0, -10.0);

/// Steps Box2D's benchmark runs for the large pyramid.
pub const LARGE_PYRAMID_STEPS: usize = 500;
/// Steps Box2D's benchmark runs for the many pyramids.
pub const MANY_PYRAMIDS_STEPS: usize = 200;
/// Steps Box2D's benchmark runs for the tumbler.
pub const TUMBLER_STEPS: usize = 750;
/// Steps Box2D's benchmark runs for the joint grid.
pub const JOINT_GRID_STEPS: usize = 500;

/// Half size of a pyramid box (Box2D: `b2MakeSquare(0.5)`, a 1 m box).
const HALF: f32 = 0.5;

/// Adds a pyramid of square boxes of half size `extent`: row `i` (from the
/// bottom) holds `base - i` boxes side by side, touching, centred over the
/// gaps of the row below; the first row's bottom is at `base_y` and its
/// first box's centre at `x0 + extent`.
fn push_pyramid(bodies: &mut Vec<BodySpec2>, base: usize, extent: f32, x0: f32, base_y: f32) {
    for i in 0..base {
        let y = (2 * i + 1) as f32 * extent + base_y;
        for j in i..base {
            // Each row starts one half box further right than the one below.
            let x = (i + 1) as f32 * extent + 2.0 * (j - i) as f32 * extent + x0;
            bodies.push(BodySpec2::new(
                Kind::Dynamic,
                Vec2::new(x, y),
                ShapeSpec2::cuboid(Vec2::splat(extent)),
            ));
        }
    }
}

/// Box2D's "large pyramid": `base` rows of 1 m boxes (base 100 gives
/// 100·101/2 = 5,050 boxes), centred on x = 0, resting on a static ground
/// box 200 m × 2 m whose top is y = 0. Sleeping off. Body 0 is the ground;
/// the last body is the top box.
pub fn large_pyramid(base: usize) -> Scene2 {
    let mut bodies = Vec::with_capacity(1 + base * (base + 1) / 2);
    bodies.push(BodySpec2::new(
        Kind::Static,
        Vec2::new(0.0, -1.0),
        ShapeSpec2::cuboid(Vec2::new(100.0, 1.0)),
    ));
    push_pyramid(&mut bodies, base, HALF, -HALF * base as f32, 0.0);
    Scene2 {
        gravity: GRAVITY,
        bodies,
        joints: Vec::new(),
        allow_sleep: false,
    }
}

/// Box2D's "many pyramids": a `rows` × `columns` grid of small pyramids of
/// `base` rows of 1 m boxes (Box2D: 20 × 20 pyramids of base 10, 22,000
/// boxes). Each row of pyramids stands on its own static segment (one ground
/// body with `rows` segments, `2·0.5·(base+1)` m apart, the lowest at y = 0,
/// spanning the whole grid); pyramids in a row are one box apart. Sleeping
/// off.
pub fn many_pyramids(rows: usize, columns: usize, base: usize) -> Scene2 {
    let extent = HALF;
    let ground_dy = 2.0 * extent * (base as f32 + 1.0);
    let ground_width = 2.0 * extent * columns as f32 * (base as f32 + 1.0);
    let segments = (0..rows)
        .map(|i| {
            let y = i as f32 * ground_dy;
            ShapeSpec2::new(Geometry2::Segment {
                a: Vec2::new(-0.5 * ground_width, y),
                b: Vec2::new(0.5 * ground_width, y),
            })
        })
        .collect();
    let mut bodies = Vec::with_capacity(1 + rows * columns * base * (base + 1) / 2);
    bodies.push(BodySpec2::with_shapes(Kind::Static, Vec2::ZERO, segments));
    let base_width = 2.0 * extent * base as f32;
    for i in 0..rows {
        let base_y = i as f32 * ground_dy;
        for j in 0..columns {
            let centre_x =
                -0.5 * ground_width + j as f32 * (base_width + 2.0 * extent) + 2.0 * extent;
            push_pyramid(&mut bodies, base, extent, centre_x - 0.5, base_y);
        }
    }
    Scene2 {
        gravity: GRAVITY,
        bodies,
        joints: Vec::new(),
        allow_sleep: false,
    }
}

/// Box2D's many pyramids at its benchmark size: 20 × 20 pyramids of base 10.
pub fn many_pyramids_default() -> Scene2 {
    many_pyramids(20, 20, 10)
}

/// Box2D's "tumbler" at its benchmark size: [`tumbler_grid`] with 45 × 45 =
/// 2,025 boxes.
pub fn tumbler() -> Scene2 {
    tumbler_grid(45)
}

/// Box2D's "tumbler": a closed 20 m square box (four walls 1 m thick,
/// density 50) centred at (0, 10), turning at 25°/s about its centre, with a
/// `grid` × `grid` block of 0.25 m boxes inside (0.4 m apart, starting at
/// (-0.2·grid, 10 - 0.2·grid)).
///
/// Box2D drives a dynamic box with a revolute motor to ground (max torque
/// 1e8, so it turns at the motor speed whatever the load). Here the box is a
/// kinematic body with that angular velocity: the same motion without the
/// motor joint, which keeps the scene within what every engine's kinematic
/// bodies do. Body 0 is the tumbler; sleeping allowed, as in Box2D (nothing
/// rests in a turning drum).
pub fn tumbler_grid(grid: usize) -> Scene2 {
    let wall_density = 50.0;
    let walls = [
        (Vec2::new(0.5, 10.0), Vec2::new(10.0, 0.0)),
        (Vec2::new(0.5, 10.0), Vec2::new(-10.0, 0.0)),
        (Vec2::new(10.0, 0.5), Vec2::new(0.0, 10.0)),
        (Vec2::new(10.0, 0.5), Vec2::new(0.0, -10.0)),
    ]
    .into_iter()
    .map(|(h, off)| {
        ShapeSpec2::cuboid(h)
            .with_offset(off)
            .with_density(wall_density)
    })
    .collect();
    let mut bodies = Vec::with_capacity(1 + grid * grid);
    bodies.push(BodySpec2 {
        angvel: 25f32.to_radians(),
        ..BodySpec2::with_shapes(Kind::Kinematic, Vec2::new(0.0, 10.0), walls)
    });
    let start = -0.2 * grid as f32;
    for i in 0..grid {
        let y = start + 10.0 + 0.4 * i as f32;
        for j in 0..grid {
            let x = start + 0.4 * j as f32;
            bodies.push(BodySpec2::new(
                Kind::Dynamic,
                Vec2::new(x, y),
                ShapeSpec2::cuboid(Vec2::splat(0.125)),
            ));
        }
    }
    Scene2 {
        gravity: GRAVITY,
        bodies,
        joints: Vec::new(),
        allow_sleep: true,
    }
}

/// Box2D's "joint grid": `n` × `n` circles of radius 0.4 (density 1) on a
/// 1 m grid, body `k·n + i` at (k, -i), each linked to its neighbour above
/// (anchor half-way between them) and to its left by revolute joints:
/// 2·n·(n - 1) joints (19,800 for n = 100). The seven bodies of the top row
/// nearest the middle (k in n/2 - 3 ..= n/2 + 3, i = 0) are static, so the
/// net hangs from them under gravity. The circles are filtered so they never
/// touch one another (category 2, mask !2): the scene measures joints only.
/// Sleeping off.
///
/// Box2D's current `CreateJointGrid` keeps the default gravity; its older
/// stand-alone `benchmark/joint_grid.c` turned gravity off. This follows the
/// current one.
pub fn joint_grid(n: usize) -> Scene2 {
    let filter = Filter {
        category: 2,
        mask: !2,
    };
    let shape = ShapeSpec2::circle(0.4)
        .with_density(DEFAULT_DENSITY)
        .with_filter(filter);
    let mut bodies = Vec::with_capacity(n * n);
    let mut joints = Vec::with_capacity(2 * n * n.saturating_sub(1));
    let middle = n / 2;
    for k in 0..n {
        for i in 0..n {
            let fixed = i == 0 && k + 3 >= middle && k <= middle + 3;
            let kind = if fixed { Kind::Static } else { Kind::Dynamic };
            let index = bodies.len();
            let position = Vec2::new(k as f32, -(i as f32));
            bodies.push(BodySpec2::new(kind, position, shape.clone()));
            if i > 0 {
                joints.push(JointSpec2::Revolute {
                    body_a: index - 1,
                    body_b: index,
                    anchor: position + Vec2::new(0.0, 0.5),
                });
            }
            if k > 0 {
                joints.push(JointSpec2::Revolute {
                    body_a: index - n,
                    body_b: index,
                    anchor: position - Vec2::new(0.5, 0.0),
                });
            }
        }
    }
    Scene2 {
        gravity: GRAVITY,
        bodies,
        joints,
        allow_sleep: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// World-space axis-aligned bounds of an unrotated body's box shapes.
    fn box_bounds(b: &BodySpec2) -> Vec<(Vec2, Vec2)> {
        b.shapes
            .iter()
            .filter_map(|s| match s.geometry {
                Geometry2::Box { half_extents } if b.angle == 0.0 && s.angle == 0.0 => {
                    let c = b.position + s.offset;
                    Some((c - half_extents, c + half_extents))
                }
                _ => None,
            })
            .collect()
    }

    /// The largest overlap (the smaller of the x and y overlap lengths) of
    /// any two dynamic boxes, found by sweeping the boxes sorted on min x.
    fn max_box_overlap(scene: &Scene2) -> f32 {
        let mut boxes: Vec<(Vec2, Vec2)> = scene
            .bodies
            .iter()
            .filter(|b| b.kind == Kind::Dynamic)
            .flat_map(box_bounds)
            .collect();
        boxes.sort_by(|a, b| a.0.x.total_cmp(&b.0.x));
        let mut worst = 0.0f32;
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                if b.0.x >= a.1.x {
                    break;
                }
                let ox = a.1.x.min(b.1.x) - a.0.x.max(b.0.x);
                let oy = a.1.y.min(b.1.y) - a.0.y.max(b.0.y);
                worst = worst.max(ox.min(oy));
            }
        }
        worst
    }

    #[test]
    fn large_pyramid_has_5050_touching_boxes_on_the_ground() {
        let s = large_pyramid(100);
        assert_eq!(s.count(Kind::Dynamic), 5050);
        assert_eq!(s.count(Kind::Static), 1);
        assert!(max_box_overlap(&s) <= 1e-4, "{}", max_box_overlap(&s));
        // The bottom row rests on the ground's top (y = 0), the top box is
        // the last body, 99 rows up, centred on x = 0.
        let lowest = s.bodies[1..]
            .iter()
            .map(|b| b.position.y)
            .fold(f32::MAX, f32::min);
        assert_eq!(lowest, 0.5);
        let top = s.bodies.last().map(|b| b.position).unwrap_or_default();
        assert_eq!(top, Vec2::new(0.0, 99.5));
    }

    #[test]
    fn many_pyramids_has_22000_boxes_on_20_segments() {
        let s = many_pyramids_default();
        assert_eq!(s.count(Kind::Dynamic), 22_000);
        assert_eq!(s.bodies[0].shapes.len(), 20);
        assert!(max_box_overlap(&s) <= 1e-4, "{}", max_box_overlap(&s));
        // Every box lies within the span of its ground segment and under the
        // segment above.
        for b in &s.bodies[1..] {
            assert!(b.position.x.abs() + 0.5 <= 110.0);
            let level = (b.position.y / 11.0).floor();
            assert!(b.position.y - 0.5 >= level * 11.0 - 1e-4);
            assert!(b.position.y + 0.5 <= (level + 1.0) * 11.0);
        }
    }

    #[test]
    fn tumbler_has_2025_boxes_inside_its_walls() {
        let s = tumbler();
        assert_eq!(s.count(Kind::Dynamic), 2025);
        assert_eq!(s.count(Kind::Kinematic), 1);
        assert_eq!(s.bodies[0].shapes.len(), 4);
        assert!(max_box_overlap(&s) <= 1e-4);
        // Inside the walls' inner faces (|x| < 9.5, |y - 10| < 9.5).
        for b in &s.bodies[1..] {
            let p = b.position - Vec2::new(0.0, 10.0);
            assert!(p.x.abs() + 0.125 < 9.5 && p.y.abs() + 0.125 < 9.5, "{p}");
        }
    }

    #[test]
    fn joint_grid_links_neighbours_half_way() {
        let n = 100;
        let s = joint_grid(n);
        assert_eq!(s.bodies.len(), n * n);
        assert_eq!(s.joints.len(), 2 * n * (n - 1));
        assert_eq!(s.count(Kind::Static), 7);
        for j in &s.joints {
            let JointSpec2::Revolute {
                body_a,
                body_b,
                anchor,
            } = *j;
            let (a, b) = (s.bodies[body_a].position, s.bodies[body_b].position);
            assert!((a.distance(b) - 1.0).abs() < 1e-6);
            assert!(anchor.distance((a + b) * 0.5) < 1e-6);
        }
        // The circles never touch each other.
        let f = s.bodies[0].shapes[0].filter;
        assert!(!f.allows(&f));
        assert!(f.allows(&Filter::default()));
    }
}
