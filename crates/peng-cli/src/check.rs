//! The pair checks: an AABB prefilter over all pairs, then peng's narrow phase.
//!
//! Every pair `(i, j)` with `i < j` in scene order is tested; A is the earlier
//! shape, so normals point from the earlier to the later shape. Pairs whose
//! bounding boxes, grown by the distance threshold, do not meet are skipped. The
//! rest go to `contacts` (prediction 0): any manifold means overlap or touch (a
//! compound gives one manifold per touching part pair; all their points are
//! listed, and the deepest manifold gives the pair's depth and normal). Pairs
//! without contact go to `distance` when the threshold is positive, and are
//! reported when they are at most that far apart.

use crate::scene::{Named, Scene, Shapes};
use peng::bound::Aabb;
use peng::math::Vector;
use peng::query::types::{Distance, Manifold};
use peng::{d2, d3};
use serde::Serialize;

/// One contact point of an overlapping pair.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ContactOut {
    /// Point on A's surface.
    pub point_a: Vec<f32>,
    /// Point on B's surface.
    pub point_b: Vec<f32>,
    /// Penetration depth of this point along its normal.
    pub depth: f32,
    /// Unit normal from A to B of this point's manifold (`point_a - point_b =
    /// normal * depth`); the pair's normal unless compounds touch at several parts.
    pub normal: Vec<f32>,
    /// Index of A's part (compounds; 0 otherwise).
    pub part_a: u32,
    /// Index of B's part (compounds; 0 otherwise).
    pub part_b: u32,
}

/// An overlapping (or touching) pair.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Overlap {
    /// Name of shape A (earlier in the scene).
    pub a: String,
    /// Name of shape B.
    pub b: String,
    /// Penetration depth (largest over the points; 0 when touching).
    pub depth: f32,
    /// Unit normal from A to B: moving B by `normal * depth` separates them.
    pub normal: Vec<f32>,
    /// The contact points.
    pub points: Vec<ContactOut>,
    /// Whether A or B is a compound (the text report then names the parts).
    #[serde(skip)]
    pub compound: bool,
}

/// A separated pair within the distance threshold.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Near {
    /// Name of shape A.
    pub a: String,
    /// Name of shape B.
    pub b: String,
    /// Distance between the shapes.
    pub distance: f32,
    /// Unit direction from A to B.
    pub normal: Vec<f32>,
    /// Closest point on A.
    pub point_a: Vec<f32>,
    /// Closest point on B.
    pub point_b: Vec<f32>,
}

/// The result of checking a scene; serialized as the `--json` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    /// Output format tag, `peng-check/1`.
    pub format: &'static str,
    /// The scene's source.
    pub scene: String,
    /// 2 or 3.
    pub dimension: u8,
    /// Number of shapes.
    pub shapes: usize,
    /// The distance threshold used.
    pub distance: f32,
    /// Number of pairs `n (n - 1) / 2`.
    pub pairs: usize,
    /// Pairs that passed the AABB prefilter and went to the narrow phase.
    pub pairs_tested: usize,
    /// Overlapping pairs, in scene order.
    pub overlaps: Vec<Overlap>,
    /// Near pairs, in scene order.
    pub near: Vec<Near>,
}

/// Checks every pair of the scene.
pub fn check(scene: &Scene, distance: f32) -> Report {
    let mut r = Report {
        format: "peng-check/1",
        scene: scene.source.clone(),
        dimension: scene.dimension(),
        shapes: scene.len(),
        distance,
        pairs: scene.len() * scene.len().saturating_sub(1) / 2,
        pairs_tested: 0,
        overlaps: Vec::new(),
        near: Vec::new(),
    };
    match &scene.shapes {
        Shapes::D2(v) => check_pairs(v, distance, &mut r),
        Shapes::D3(v) => check_pairs(v, distance, &mut r),
    }
    r
}

/// What the pair checks need from one dimension's shapes; `N` is the point
/// capacity of that dimension's manifolds (2 in 2D, 4 in 3D).
trait PairShape<const N: usize> {
    /// The dimension's vector.
    type V: Vector;
    /// The dimension's pose.
    type Pose;
    /// World box of the shape at `pose`.
    fn world_aabb(&self, pose: &Self::Pose) -> Aabb<Self::V>;
    /// Whether the shape is a compound.
    fn is_compound(&self) -> bool;
    /// peng's `contacts` with prediction 0, appended to `out`.
    fn contacts(
        a: &Self,
        pose_a: &Self::Pose,
        b: &Self,
        pose_b: &Self::Pose,
        out: &mut Vec<Manifold<Self::V, N>>,
    );
    /// peng's `distance`.
    fn distance(a: &Self, pose_a: &Self::Pose, b: &Self, pose_b: &Self::Pose) -> Distance<Self::V>;
}

impl PairShape<2> for d2::Shape {
    type V = d2::Vec2;
    type Pose = d2::Pose2;
    fn world_aabb(&self, pose: &d2::Pose2) -> d2::Aabb2 {
        self.aabb(pose)
    }
    fn is_compound(&self) -> bool {
        matches!(self, d2::Shape::Compound(_))
    }
    fn contacts(
        a: &Self,
        pose_a: &d2::Pose2,
        b: &Self,
        pose_b: &d2::Pose2,
        out: &mut Vec<d2::Manifold2>,
    ) {
        d2::contacts(a, pose_a, b, pose_b, 0.0, out)
    }
    fn distance(a: &Self, pose_a: &d2::Pose2, b: &Self, pose_b: &d2::Pose2) -> d2::Distance2 {
        d2::distance(a, pose_a, b, pose_b)
    }
}

impl PairShape<4> for d3::Shape {
    type V = d3::Vec3;
    type Pose = d3::Pose3;
    fn world_aabb(&self, pose: &d3::Pose3) -> d3::Aabb3 {
        self.aabb(pose)
    }
    fn is_compound(&self) -> bool {
        matches!(self, d3::Shape::Compound(_))
    }
    fn contacts(
        a: &Self,
        pose_a: &d3::Pose3,
        b: &Self,
        pose_b: &d3::Pose3,
        out: &mut Vec<d3::Manifold3>,
    ) {
        d3::contacts(a, pose_a, b, pose_b, 0.0, out)
    }
    fn distance(a: &Self, pose_a: &d3::Pose3, b: &Self, pose_b: &d3::Pose3) -> d3::Distance3 {
        d3::distance(a, pose_a, b, pose_b)
    }
}

/// A vector's components, for the report.
fn components<V: Vector>(v: V) -> Vec<f32> {
    (0..V::DIM).map(|i| v.get(i)).collect()
}

/// The overlap of `a` and `b` from their manifolds, or `None` when there are
/// no contact points.
fn overlap<S, P, V: Vector, const N: usize>(
    a: &Named<S, P>,
    b: &Named<S, P>,
    manifolds: &[Manifold<V, N>],
    compound: bool,
) -> Option<Overlap> {
    let mut points = Vec::new();
    let mut best: Option<(f32, Vec<f32>)> = None;
    for m in manifolds {
        let normal = components(m.normal);
        for p in m.points() {
            let depth = p.depth;
            if best.as_ref().is_none_or(|(d, _)| depth > *d) {
                best = Some((depth, normal.clone()));
            }
            points.push(ContactOut {
                point_a: components(p.point_a),
                point_b: components(p.point_b),
                depth,
                normal: normal.clone(),
                part_a: m.part_a,
                part_b: m.part_b,
            });
        }
    }
    let (depth, normal) = best?;
    Some(Overlap {
        a: a.name.clone(),
        b: b.name.clone(),
        depth: depth.max(0.0),
        normal,
        points,
        compound,
    })
}

/// Checks every pair of one dimension's shapes (see the module documentation).
fn check_pairs<S: PairShape<N>, const N: usize>(
    v: &[Named<S, S::Pose>],
    dist: f32,
    r: &mut Report,
) {
    let boxes: Vec<_> = v
        .iter()
        .map(|n| n.shape.world_aabb(&n.pose).loosened(dist))
        .collect();
    let mut manifolds = Vec::new();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            if !boxes[i].overlaps(&boxes[j]) {
                continue;
            }
            r.pairs_tested += 1;
            let (a, b) = (&v[i], &v[j]);
            manifolds.clear();
            S::contacts(&a.shape, &a.pose, &b.shape, &b.pose, &mut manifolds);
            let compound = a.shape.is_compound() || b.shape.is_compound();
            if let Some(o) = overlap(a, b, &manifolds, compound) {
                r.overlaps.push(o);
                continue;
            }
            if dist > 0.0 {
                let d = S::distance(&a.shape, &a.pose, &b.shape, &b.pose);
                if d.distance <= dist {
                    r.near.push(Near {
                        a: a.name.clone(),
                        b: b.name.clone(),
                        distance: d.distance,
                        normal: components(d.normal),
                        point_a: components(d.point_a),
                        point_b: components(d.point_b),
                    });
                }
            }
        }
    }
}
