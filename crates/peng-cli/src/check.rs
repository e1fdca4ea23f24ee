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
        Shapes::D2(v) => check2(v, distance, &mut r),
        Shapes::D3(v) => check3(v, distance, &mut r),
    }
    r
}

/// A manifold as (normal, part of A, part of B, points as (on A, on B, depth)).
type ManifoldOut = (Vec<f32>, u32, u32, Vec<(Vec<f32>, Vec<f32>, f32)>);

/// The overlap of `a` and `b` from their manifolds, or `None` when there are
/// no contact points.
fn overlap<S, P>(
    a: &Named<S, P>,
    b: &Named<S, P>,
    manifolds: impl Iterator<Item = ManifoldOut>,
    compound: bool,
) -> Option<Overlap> {
    let mut points = Vec::new();
    let mut best: Option<(f32, Vec<f32>)> = None;
    for (normal, part_a, part_b, pts) in manifolds {
        for (point_a, point_b, depth) in pts {
            if best.as_ref().is_none_or(|(d, _)| depth > *d) {
                best = Some((depth, normal.clone()));
            }
            points.push(ContactOut {
                point_a,
                point_b,
                depth,
                normal: normal.clone(),
                part_a,
                part_b,
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

fn check2(v: &[Named<peng::d2::Shape, peng::d2::Pose2>], dist: f32, r: &mut Report) {
    use peng::d2;
    let boxes: Vec<_> = v
        .iter()
        .map(|n| n.shape.aabb(&n.pose).loosened(dist))
        .collect();
    let mut manifolds = Vec::new();
    let v2 = |p: d2::Vec2| vec![p.x, p.y];
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            if !boxes[i].overlaps(&boxes[j]) {
                continue;
            }
            r.pairs_tested += 1;
            let (a, b) = (&v[i], &v[j]);
            manifolds.clear();
            d2::contacts(&a.shape, &a.pose, &b.shape, &b.pose, 0.0, &mut manifolds);
            if let Some(o) = overlap(
                a,
                b,
                manifolds.iter().map(|m| {
                    let pts = m
                        .points()
                        .iter()
                        .map(|p| (v2(p.point_a), v2(p.point_b), p.depth));
                    (v2(m.normal), m.part_a, m.part_b, pts.collect::<Vec<_>>())
                }),
                matches!(a.shape, d2::Shape::Compound(_))
                    || matches!(b.shape, d2::Shape::Compound(_)),
            ) {
                r.overlaps.push(o);
                continue;
            }
            if dist > 0.0 {
                let d = d2::distance(&a.shape, &a.pose, &b.shape, &b.pose);
                if d.distance <= dist {
                    r.near.push(Near {
                        a: a.name.clone(),
                        b: b.name.clone(),
                        distance: d.distance,
                        normal: v2(d.normal),
                        point_a: v2(d.point_a),
                        point_b: v2(d.point_b),
                    });
                }
            }
        }
    }
}

fn check3(v: &[Named<peng::d3::Shape, peng::d3::Pose3>], dist: f32, r: &mut Report) {
    use peng::d3;
    let boxes: Vec<_> = v
        .iter()
        .map(|n| n.shape.aabb(&n.pose).loosened(dist))
        .collect();
    let mut manifolds = Vec::new();
    let v3 = |p: d3::Vec3| vec![p.x, p.y, p.z];
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            if !boxes[i].overlaps(&boxes[j]) {
                continue;
            }
            r.pairs_tested += 1;
            let (a, b) = (&v[i], &v[j]);
            manifolds.clear();
            d3::contacts(&a.shape, &a.pose, &b.shape, &b.pose, 0.0, &mut manifolds);
            if let Some(o) = overlap(
                a,
                b,
                manifolds.iter().map(|m| {
                    let pts = m
                        .points()
                        .iter()
                        .map(|p| (v3(p.point_a), v3(p.point_b), p.depth));
                    (v3(m.normal), m.part_a, m.part_b, pts.collect::<Vec<_>>())
                }),
                matches!(a.shape, d3::Shape::Compound(_))
                    || matches!(b.shape, d3::Shape::Compound(_)),
            ) {
                r.overlaps.push(o);
                continue;
            }
            if dist > 0.0 {
                let d = d3::distance(&a.shape, &a.pose, &b.shape, &b.pose);
                if d.distance <= dist {
                    r.near.push(Near {
                        a: a.name.clone(),
                        b: b.name.clone(),
                        distance: d.distance,
                        normal: v3(d.normal),
                        point_a: v3(d.point_a),
                        point_b: v3(d.point_b),
                    });
                }
            }
        }
    }
}
