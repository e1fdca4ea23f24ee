//! Random casts shared by the cast benches (`benches/cast2d.rs`,
//! `benches/cast3d.rs`) and the differential tests against parry
//! (`tests/cast2d_diff.rs`, `tests/cast3d_diff.rs`), so that the speed and
//! the agreement are measured on one distribution.

use crate::rng::Rng;
use crate::{gen2, gen3};
use glam::{Vec2, Vec3};
use peng::ccd::{Motion2, Motion3};
use peng::math::{Pose2, Pose3};
use peng::shape::{d2, d3};

/// The 2D shape kinds cast: rects, circles, capsules, convex polygons.
pub const KINDS2: [d2::ShapeKind; 4] = [
    d2::ShapeKind::Rect,
    d2::ShapeKind::Circle,
    d2::ShapeKind::Capsule,
    d2::ShapeKind::Polygon,
];

/// The 3D shape kinds cast: balls, capsules, cuboids, cylinders, cones,
/// 16-vertex hulls.
pub const KINDS3: [d3::ShapeKind; 6] = [
    d3::ShapeKind::Ball,
    d3::ShapeKind::Capsule,
    d3::ShapeKind::Cuboid,
    d3::ShapeKind::Cylinder,
    d3::ShapeKind::Cone,
    d3::ShapeKind::Polyhedron,
];

/// One random 2D cast: two shapes and their motions over the unit time.
#[derive(Debug)]
pub struct Cast2 {
    /// Shape A.
    pub a: d2::Shape,
    /// Shape B.
    pub b: d2::Shape,
    /// A's motion.
    pub ma: Motion2,
    /// B's motion.
    pub mb: Motion2,
}

/// One random 3D cast.
pub struct Cast3 {
    /// Shape A.
    pub a: d3::Shape,
    /// Shape B.
    pub b: d3::Shape,
    /// A's motion.
    pub ma: Motion3,
    /// B's motion.
    pub mb: Motion3,
}

/// A random 2D pair: A near the origin, B 3 to 7 away and thrown roughly at
/// A at 0.5–1.5 per unit time (A drifts by up to 1); with `spin`, both turn
/// at up to 3 rad per unit time about a centre within 0.3 of their origin.
/// `None` when a random shape was degenerate.
pub fn cast2(rng: &mut Rng, spin: bool) -> Option<Cast2> {
    let ka = KINDS2[rng.below(4)];
    let a = gen2::shape(rng, ka)?;
    let kb = KINDS2[rng.below(4)];
    let b = gen2::shape(rng, kb)?;
    let pa = Pose2::new(rng.in_disk(0.5), rng.range(-3.2, 3.2));
    let off = rng.unit_vec2() * rng.range(3.0, 7.0);
    let pb = Pose2::new(pa.translation + off, rng.range(-3.2, 3.2));
    let aim = Vec2::from_angle(rng.range(-0.5, 0.5)).rotate(-off);
    let vb = aim * rng.range(0.5, 1.5);
    let va = rng.in_disk(1.0);
    let (wa, wb) = if spin {
        (rng.range(-3.0, 3.0), rng.range(-3.0, 3.0))
    } else {
        (0.0, 0.0)
    };
    Some(Cast2 {
        a,
        b,
        ma: Motion2 {
            start: pa,
            local_center: rng.in_disk(0.3),
            linvel: va,
            angvel: wa,
        },
        mb: Motion2 {
            start: pb,
            local_center: rng.in_disk(0.3),
            linvel: vb,
            angvel: wb,
        },
    })
}

/// `n` random 2D casts (see [`cast2`]) from `seed`.
pub fn casts2(seed: u64, n: usize, spin: bool) -> Vec<Cast2> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        out.extend(cast2(&mut rng, spin));
    }
    out
}

/// `n` random 3D casts from `seed`: B at a random pose, A 3 to 7 away from it
/// and thrown at it at 2–12 per unit time with up to 3 of spread, B drifting
/// by up to 1; with `rotating`, A turns at up to 4 rad per unit time and B
/// (half the time) at up to 1, about centres within 0.3 of their origins.
pub fn casts3(seed: u64, n: usize, rotating: bool) -> Vec<Cast3> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let ka = KINDS3[rng.below(KINDS3.len())];
        let kb = KINDS3[rng.below(KINDS3.len())];
        let (Some(a), Some(b)) = (gen3::shape(&mut rng, ka), gen3::shape(&mut rng, kb)) else {
            continue;
        };
        let pb = gen3::pose(&mut rng);
        let dir = rng.unit_vec3();
        let pa = Pose3::new(pb.translation + dir * rng.range(3.0, 7.0), rng.rotation3());
        let va = -dir * rng.range(2.0, 12.0) + rng.in_ball(3.0);
        let vb = rng.in_ball(1.0);
        let (wa, wb, ca, cb) = if rotating {
            let wa = rng.in_ball(4.0);
            let wb = if rng.coin() {
                rng.in_ball(1.0)
            } else {
                Vec3::ZERO
            };
            (wa, wb, rng.in_ball(0.3), rng.in_ball(0.3))
        } else {
            (Vec3::ZERO, Vec3::ZERO, Vec3::ZERO, Vec3::ZERO)
        };
        out.push(Cast3 {
            a,
            b,
            ma: Motion3 {
                start: pa,
                local_center: ca,
                linvel: va,
                angvel: wa,
            },
            mb: Motion3 {
                start: pb,
                local_center: cb,
                linvel: vb,
                angvel: wb,
            },
        });
    }
    out
}
