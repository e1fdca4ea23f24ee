//! Linear casts against compounds, triangle meshes and height fields: the
//! earliest contact over the parts (triangles) whose boxes meet the box
//! swept by the other shape.

use super::common::{compound_size, earlier, size, tolerance};
use super::linear::cast_linear;
use crate::bound::Aabb3;
use crate::ccd::{tolerance_size, CastHit3, CastOptions};
use crate::math::{Pose3, Vec3};
use crate::mesh::{HeightField, TriMesh};
use crate::shape::d3::{Compound, Shape, Triangle};

/// The box swept by `a` (at `pose_a`, moving by `vel_a`) relative to B (at
/// `pose_b`, moving by `vel_b`) over `[0, max_time]`, in B's frame, loosened
/// by `margin`.
fn swept_box(
    a: &Shape,
    pose_a: &Pose3,
    vel_a: Vec3,
    pose_b: &Pose3,
    vel_b: Vec3,
    max_time: f32,
    margin: f32,
) -> Aabb3 {
    let box0 = a.aabb(&pose_b.inv_mul(pose_a));
    let shift = pose_b.inverse_transform_vector(vel_a - vel_b) * max_time.max(0.0);
    let box1 = Aabb3::new(box0.min + shift, box0.max + shift);
    let b = box0.merged(&box1).loosened(margin);
    if b.min.is_nan() || b.max.is_nan() {
        Aabb3::everything()
    } else {
        b
    }
}

/// The size of the relative coordinates of the pair at the start (the
/// contact, if any, happens at relative coordinates no larger than the sizes).
fn rel_coords(pose_a: &Pose3, pose_b: &Pose3) -> f32 {
    (pose_a.translation - pose_b.translation)
        .abs()
        .max_element()
}

/// The options every part is cast with: one tolerance for the whole pair (so
/// that the parts agree) and the time limit shrunk to the best hit so far.
fn part_options(options: &CastOptions, tol: f32, best: &Option<CastHit3>) -> CastOptions {
    CastOptions {
        max_time: best.map_or(options.max_time, |h| h.time.min(options.max_time)),
        tolerance: tol,
        ..*options
    }
}

/// `a` against the compound `c`.
pub(super) fn cast_against_compound(
    a: &Shape,
    pose_a: &Pose3,
    vel_a: Vec3,
    c: &Compound,
    pose_b: &Pose3,
    vel_b: Vec3,
    options: &CastOptions,
) -> Option<CastHit3> {
    let coords = rel_coords(pose_a, pose_b) + size(a) + compound_size(c);
    let tol = tolerance(options, tolerance_size(size(a), compound_size(c)), coords);
    let margin = options.target_distance.max(0.0) + tol;
    let sweep = swept_box(a, pose_a, vel_a, pose_b, vel_b, options.max_time, margin);
    let mut near = Vec::new();
    c.parts_near(&sweep, &mut near);
    let mut best = None;
    for i in near {
        let Some((q, part)) = c.parts().get(i) else {
            continue;
        };
        let o = part_options(options, tol, &best);
        let hit = cast_linear(a, pose_a, vel_a, part, &pose_b.mul(q), vel_b, &o);
        best = earlier(best, hit);
    }
    best
}

/// The triangles of a mesh or height field under a box (local frame).
pub(super) trait Triangles {
    /// Calls `f(corners)` for each triangle whose box meets `aabb`.
    fn each_in_box(&self, aabb: &Aabb3, f: &mut dyn FnMut(&[Vec3; 3]));
    /// The local bounding box.
    fn bounds(&self) -> Aabb3;
}

impl Triangles for TriMesh {
    fn each_in_box(&self, aabb: &Aabb3, f: &mut dyn FnMut(&[Vec3; 3])) {
        self.for_each_triangle_in_aabb(aabb, |_, c| f(c));
    }
    fn bounds(&self) -> Aabb3 {
        self.local_aabb()
    }
}

impl Triangles for HeightField {
    fn each_in_box(&self, aabb: &Aabb3, f: &mut dyn FnMut(&[Vec3; 3])) {
        self.for_each_triangle_in_aabb(aabb, |_, c| f(c));
    }
    fn bounds(&self) -> Aabb3 {
        self.local_aabb()
    }
}

/// `a` against the triangles of a mesh: each candidate triangle is cast as a
/// [`Triangle`] shape at the mesh's pose.
#[allow(clippy::too_many_arguments)]
pub(super) fn cast_against_mesh(
    a: &Shape,
    pose_a: &Pose3,
    vel_a: Vec3,
    mesh: &dyn Triangles,
    pose_b: &Pose3,
    vel_b: Vec3,
    options: &CastOptions,
) -> Option<CastHit3> {
    let bounds = mesh.bounds();
    let mesh_size = if bounds.is_empty() {
        0.0
    } else {
        bounds.min.abs().max(bounds.max.abs()).length()
    };
    let coords = rel_coords(pose_a, pose_b) + size(a) + mesh_size;
    let tol = tolerance(options, tolerance_size(size(a), mesh_size), coords);
    let margin = options.target_distance.max(0.0) + tol;
    let sweep = swept_box(a, pose_a, vel_a, pose_b, vel_b, options.max_time, margin);
    let mut best = None;
    mesh.each_in_box(&sweep, &mut |c| {
        let Ok(tri) = Triangle::new(c[0], c[1], c[2]) else {
            return;
        };
        let o = part_options(options, tol, &best);
        let hit = cast_linear(a, pose_a, vel_a, &Shape::Triangle(tri), pose_b, vel_b, &o);
        best = earlier(best, hit);
    });
    best
}
