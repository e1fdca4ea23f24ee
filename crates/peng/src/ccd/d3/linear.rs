//! Linear casts: both shapes translate with constant velocities.

use super::balls::cast_balls;
use super::common::{size, start_rule, swapped, tolerance, Start};
use super::composite::{cast_against_compound, cast_against_mesh};
use super::halfspace::cast_halfspace;
use super::nonlinear::advance;
use super::raycast::{cast_cores, CoreCast, Radii};
use crate::ccd::{tolerance_size, CastHit3, CastOptions, CastStatus, Motion3};
use crate::math::{Pose3, Vec3};
use crate::query::d3::distance;
use crate::query::gjk::SupportMap;
use crate::shape::d3::Shape;

/// The first time within `[0, options.max_time]` at which `a` (at `pose_a`,
/// moving by `vel_a` per unit time) and `b` (at `pose_b`, moving by `vel_b`)
/// come within `options.target_distance` of each other, or `None`.
///
/// - Two balls: the closed form of [`cast_balls`].
/// - Other bounded convex pairs: GJK ray casting on the Minkowski difference
///   of the cores (van den Bergen 2004), radii added (exact for capsules and
///   balls); if it fails to converge (rounding), conservative advancement
///   takes over from the time reached.
/// - Half-spaces: closed form (the support point along the normal does not
///   change under translation).
/// - Compounds: the earliest hit over the parts whose boxes meet the swept
///   box; triangle meshes and height fields: the earliest over the triangles
///   in the swept box (found with the mesh's BVH or grid).
///
/// The time is never late: the reported distance is within
/// `[target − ε, target + tolerance]` (ε the f32 rounding). The start rule of
/// the [module docs](super) applies; for a convex pair a touching start that
/// is separating is no hit at all (the distance of convex shapes under
/// translation is convex in time). The hit's points and normal are in world
/// space at the hit time.
pub fn cast_linear(
    a: &Shape,
    pose_a: &Pose3,
    vel_a: Vec3,
    b: &Shape,
    pose_b: &Pose3,
    vel_b: Vec3,
    options: &CastOptions,
) -> Option<CastHit3> {
    let swap = || cast_linear(b, pose_b, vel_b, a, pose_a, vel_a, options).map(swapped);
    match (a, b) {
        (_, Shape::Compound(c)) => {
            cast_against_compound(a, pose_a, vel_a, c, pose_b, vel_b, options)
        }
        (Shape::Compound(_), _) => swap(),
        (Shape::HalfSpace(h), _) => {
            cast_halfspace(h.normal(), pose_a, vel_a, b, pose_b, vel_b, options)
        }
        (_, Shape::HalfSpace(_)) => swap(),
        (_, Shape::TriMesh(m)) => cast_against_mesh(a, pose_a, vel_a, &**m, pose_b, vel_b, options),
        (_, Shape::HeightField(m)) => {
            cast_against_mesh(a, pose_a, vel_a, &**m, pose_b, vel_b, options)
        }
        (Shape::TriMesh(_) | Shape::HeightField(_), _) => swap(),
        (Shape::Ball(ba), Shape::Ball(bb)) => cast_balls(
            pose_a.translation,
            ba.radius(),
            vel_a,
            pose_b.translation,
            bb.radius(),
            vel_b,
            options,
        ),
        _ => cast_convex(a, pose_a, vel_a, b, pose_b, vel_b, options),
    }
}

/// Two bounded convex shapes: the core ray cast, then the start rule or the
/// fallback.
fn cast_convex(
    a: &Shape,
    pose_a: &Pose3,
    vel_a: Vec3,
    b: &Shape,
    pose_b: &Pose3,
    vel_b: Vec3,
    options: &CastOptions,
) -> Option<CastHit3> {
    let pose_ab = pose_a.inv_mul(pose_b);
    let dv = vel_b - vel_a;
    let vrel = pose_a.inverse_transform_vector(dv);
    // The cast works in A's frame, where B's position only shrinks towards
    // the contact: the start sets the scale of the coordinates.
    let coords = pose_ab.translation.abs().max_element() + size(a) + size(b);
    let tol = tolerance(options, tolerance_size(size(a), size(b)), coords);
    let radii = Radii {
        a: a.core_radius(),
        b: b.core_radius(),
        target: options.target_distance.max(0.0),
    };
    let fallback = |t0: f32| {
        let o = CastOptions {
            tolerance: tol,
            ..*options
        };
        advance(
            a,
            &Motion3::linear(*pose_a, vel_a),
            b,
            &Motion3::linear(*pose_b, vel_b),
            t0,
            &o,
        )
    };
    match cast_cores(a, b, &pose_ab, vrel, radii, options.max_time, tol) {
        CoreCast::Hit {
            time,
            point_a,
            point_b,
            normal,
        } => Some(CastHit3 {
            time,
            point_a: pose_a.transform_point(point_a) + vel_a * time,
            point_b: pose_a.transform_point(point_b) + vel_a * time,
            normal: pose_a.transform_vector(normal),
            depth: 0.0,
            status: CastStatus::Hit,
        }),
        CoreCast::Miss => None,
        CoreCast::Start => {
            let d = distance(a, pose_a, b, pose_b);
            match start_rule(&d, d.normal.dot(dv), radii.target, tol, 0.0) {
                Start::Hit(h) => Some(h),
                Start::Leaving => None,
                Start::Apart => fallback(0.0),
            }
        }
        CoreCast::Failed(t0) => fallback(t0),
    }
}
