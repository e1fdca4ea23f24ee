//! The pair checks: an AABB prefilter over all pairs, then peng's narrow phase.
//!
//! Every pair `(i, j)` with `i < j` in scene order is tested; A is the earlier
//! shape, so normals point from the earlier to the later shape. Pairs whose
//! bounding boxes, grown by the distance threshold, do not meet are skipped. The
//! rest go to `contact` (prediction 0): a manifold means overlap or touch. Pairs
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
    /// Penetration depth of this point along the normal.
    pub depth: f32,
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

fn check2(v: &[Named<peng::d2::Shape, peng::d2::Pose2>], dist: f32, r: &mut Report) {
    use peng::d2;
    let boxes: Vec<_> = v
        .iter()
        .map(|n| n.shape.aabb(&n.pose).loosened(dist))
        .collect();
    let v2 = |p: d2::Vec2| vec![p.x, p.y];
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            if !boxes[i].overlaps(&boxes[j]) {
                continue;
            }
            r.pairs_tested += 1;
            let (a, b) = (&v[i], &v[j]);
            if let Some(m) = d2::contact(&a.shape, &a.pose, &b.shape, &b.pose, 0.0) {
                if !m.is_empty() {
                    r.overlaps.push(Overlap {
                        a: a.name.clone(),
                        b: b.name.clone(),
                        depth: m.depth().max(0.0),
                        normal: v2(m.normal),
                        points: m
                            .points()
                            .iter()
                            .map(|p| ContactOut {
                                point_a: v2(p.point_a),
                                point_b: v2(p.point_b),
                                depth: p.depth,
                            })
                            .collect(),
                    });
                    continue;
                }
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
    let v3 = |p: d3::Vec3| vec![p.x, p.y, p.z];
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            if !boxes[i].overlaps(&boxes[j]) {
                continue;
            }
            r.pairs_tested += 1;
            let (a, b) = (&v[i], &v[j]);
            if let Some(m) = d3::contact(&a.shape, &a.pose, &b.shape, &b.pose, 0.0) {
                if !m.is_empty() {
                    r.overlaps.push(Overlap {
                        a: a.name.clone(),
                        b: b.name.clone(),
                        depth: m.depth().max(0.0),
                        normal: v3(m.normal),
                        points: m
                            .points()
                            .iter()
                            .map(|p| ContactOut {
                                point_a: v3(p.point_a),
                                point_b: v3(p.point_b),
                                depth: p.depth,
                            })
                            .collect(),
                    });
                    continue;
                }
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
