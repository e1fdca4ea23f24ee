//! A 2D polyline (a set of segments sharing vertices) with its BVH.

use super::bvh::Bvh2;
use crate::bound::Aabb2;
use crate::math::policy::GeometryError;
use crate::math::{Pose2, Vec2};
use crate::query::types::{Ray2, RayHit2};

/// Which part of a segment a point lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SegmentFeature {
    /// The segment's first (0) or second (1) vertex.
    Vertex(u8),
    /// The inside of the segment.
    Edge,
}

/// A ray hit on a polyline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolylineRayHit {
    /// Parameter, point and normal (facing against the ray).
    pub hit: RayHit2,
    /// Index of the segment hit.
    pub segment: u32,
}

/// The closest point of a polyline to a query point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolylineProjection {
    /// The closest point.
    pub point: Vec2,
    /// Its distance to the query point.
    pub distance: f32,
    /// The segment it lies on.
    pub segment: u32,
    /// Where on that segment.
    pub feature: SegmentFeature,
}

/// A polyline: vertices and segments (index pairs), with a static BVH over the
/// segments. Queries named `*_local_*` work in the polyline's frame; the others
/// take its pose. Segment indices in results are positions in the segment list.
///
/// As a 2D shape ([`Shape::Polyline`](crate::shape::d2::Shape::Polyline)) it is
/// a curve, two-sided, with no inside.
#[derive(Debug, Clone)]
pub struct Polyline {
    vertices: Vec<Vec2>,
    segments: Vec<[u32; 2]>,
    bvh: Bvh2,
    /// Segment endpoints in BVH slot order.
    corners: Vec<[Vec2; 2]>,
    /// The exact box around the segments.
    aabb: Aabb2,
    /// Segments at each vertex (compressed rows): those of vertex `v` are
    /// `at_vertex[at_start[v]..at_start[v + 1]]`, increasing.
    at_start: Vec<u32>,
    at_vertex: Vec<u32>,
}

impl PartialEq for Polyline {
    /// Polylines are equal when their vertices and segments are (the tree
    /// follows from them).
    fn eq(&self, other: &Self) -> bool {
        self.vertices == other.vertices && self.segments == other.segments
    }
}

impl Polyline {
    /// A polyline from vertices and segments; with `segments = None` the
    /// vertices form one open chain `0-1, 1-2, ...`.
    ///
    /// Errors: no segments ([`GeometryError::TooFew`] for a chain of fewer than
    /// two vertices, [`GeometryError::Degenerate`] for an empty segment list),
    /// a non-finite vertex or one beyond
    /// [`MAX_MAGNITUDE`](crate::math::policy::MAX_MAGNITUDE), an index out of
    /// range. Zero-length segments are
    /// allowed (they act as points).
    pub fn new(
        vertices: Vec<Vec2>,
        segments: Option<Vec<[u32; 2]>>,
    ) -> Result<Self, GeometryError> {
        crate::math::policy::check_points("polyline vertex", &vertices)?;
        let segments = match segments {
            Some(s) if s.is_empty() => {
                return Err(GeometryError::Degenerate {
                    what: "polyline",
                    why: "it has no segments",
                })
            }
            Some(s) => s,
            None => {
                if vertices.len() < 2 {
                    return Err(GeometryError::TooFew {
                        what: "polyline",
                        needed: 2,
                        got: vertices.len(),
                    });
                }
                (0..vertices.len() as u32 - 1).map(|i| [i, i + 1]).collect()
            }
        };
        let len = vertices.len();
        if let Some(&bad) = segments.iter().flatten().find(|&&i| i as usize >= len) {
            return Err(GeometryError::IndexOutOfRange {
                what: "polyline",
                index: bad as usize,
                len,
            });
        }
        let ends = |s: &[u32; 2]| s.map(|i| vertices[i as usize]);
        let boxes: Vec<Aabb2> = segments
            .iter()
            .map(|s| Aabb2::from_points(ends(s)))
            .collect();
        let aabb = boxes.iter().fold(Aabb2::EMPTY, |a, b| a.merged(b));
        let bvh = Bvh2::build(&boxes);
        let corners = bvh
            .slot_order()
            .iter()
            .map(|&i| ends(&segments[i as usize]))
            .collect();
        let (at_start, at_vertex) = vertex_rows(len, &segments);
        Ok(Polyline {
            vertices,
            segments,
            bvh,
            corners,
            aabb,
            at_start,
            at_vertex,
        })
    }

    /// The segments that have vertex `v` as an end, in increasing order (empty
    /// when `v` is out of range). Adjacency is by index: segments meet at a
    /// vertex when they share its index, not merely its position.
    #[inline]
    pub fn segments_at_vertex(&self, v: u32) -> &[u32] {
        let v = v as usize;
        match (self.at_start.get(v), self.at_start.get(v + 1)) {
            (Some(&a), Some(&b)) => &self.at_vertex[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// The segments, as given (or the chain built by [`Polyline::new`]).
    #[inline]
    pub fn segments(&self) -> &[[u32; 2]] {
        &self.segments
    }

    /// The endpoints of segment `i` (panics when out of range).
    #[inline]
    pub fn segment(&self, i: u32) -> [Vec2; 2] {
        self.segments[i as usize].map(|k| self.vertices[k as usize])
    }

    /// The BVH over the segments.
    #[inline]
    pub fn bvh(&self) -> &Bvh2 {
        &self.bvh
    }

    /// The box around the segments in the polyline's frame.
    #[inline]
    pub fn local_aabb(&self) -> Aabb2 {
        self.aabb
    }

    /// A box around the polyline under `pose` (the local box, conservatively
    /// rotated).
    pub fn aabb(&self, pose: &Pose2) -> Aabb2 {
        self.aabb.transformed(pose)
    }

    /// Calls `f(segment, endpoints)` for every segment whose box overlaps
    /// `aabb` (polyline frame; touching counts).
    pub fn for_each_segment_in_aabb<F>(&self, aabb: &Aabb2, mut f: F)
    where
        F: FnMut(u32, &[Vec2; 2]),
    {
        self.bvh.query_aabb(aabb, |s| {
            let c = &self.corners[s as usize];
            if Aabb2::from_points(*c).overlaps(aabb) {
                f(self.bvh.primitive(s), c);
            }
        });
    }

    /// The first segment hit by the ray `origin + t·dir`, `0 <= t <= max_toi`
    /// (polyline frame). `dir` must not be zero.
    pub fn cast_local_ray(&self, origin: Vec2, dir: Vec2, max_toi: f32) -> Option<PolylineRayHit> {
        let (slot, t) = self.bvh.cast_ray(origin, dir, max_toi, |s, best| {
            let [a, b] = self.corners[s as usize];
            ray_segment(origin, dir, a, b, best)
        })?;
        let [a, b] = self.corners[slot as usize];
        let n = (b - a)
            .perp()
            .try_normalize()
            .unwrap_or(-dir.normalize_or(Vec2::X));
        Some(PolylineRayHit {
            hit: RayHit2 {
                toi: t,
                point: origin + dir * t,
                normal: if n.dot(dir) > 0.0 { -n } else { n },
            },
            segment: self.bvh.primitive(slot),
        })
    }

    /// [`Polyline::cast_local_ray`] for a world-space ray and the polyline at
    /// `pose`; the hit is in world space.
    pub fn cast_ray(&self, pose: &Pose2, ray: &Ray2, max_toi: f32) -> Option<PolylineRayHit> {
        let o = pose.inverse_transform_point(ray.origin);
        let d = pose.inverse_transform_vector(ray.dir);
        let mut h = self.cast_local_ray(o, d, max_toi)?;
        h.hit.point = ray.at(h.hit.toi);
        h.hit.normal = pose.transform_vector(h.hit.normal);
        Some(h)
    }

    /// The point of the polyline closest to `p` (polyline frame), by best-first
    /// search over the BVH.
    pub fn project_local_point(&self, p: Vec2) -> PolylineProjection {
        let mut found: Option<(f32, Vec2, SegmentFeature)> = None;
        let res = self.bvh.closest_point(p, f32::INFINITY, |s, best| {
            let [a, b] = self.corners[s as usize];
            let (q, f) = closest_on_segment(a, b, p);
            let d2 = q.distance_squared(p);
            if d2 <= best && found.is_none_or(|x| d2 < x.0) {
                found = Some((d2, q, f));
                Some(d2)
            } else {
                None
            }
        });
        match (res, found) {
            (Some((slot, _)), Some((d2, q, f))) => PolylineProjection {
                point: q,
                distance: d2.sqrt(),
                segment: self.bvh.primitive(slot),
                feature: f,
            },
            // Only for a non-finite `p`.
            _ => PolylineProjection {
                point: self.vertices[self.segments[0][0] as usize],
                distance: f32::INFINITY,
                segment: 0,
                feature: SegmentFeature::Vertex(0),
            },
        }
    }

    /// [`Polyline::project_local_point`] for a world-space point and the
    /// polyline at `pose`; the projection is in world space.
    pub fn project_point(&self, pose: &Pose2, p: Vec2) -> PolylineProjection {
        let mut r = self.project_local_point(pose.inverse_transform_point(p));
        r.point = pose.transform_point(r.point);
        r
    }
}

/// The segments at each vertex as compressed rows `(starts, list)` (a segment
/// whose two ends are the same index is listed once there).
fn vertex_rows(n: usize, segments: &[[u32; 2]]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    for s in segments {
        start[s[0] as usize + 1] += 1;
        if s[1] != s[0] {
            start[s[1] as usize + 1] += 1;
        }
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut list = vec![0u32; start[n] as usize];
    for (i, s) in segments.iter().enumerate() {
        let ends: &[u32] = if s[1] != s[0] { s } else { &s[..1] };
        for &v in ends {
            list[fill[v as usize] as usize] = i as u32;
            fill[v as usize] += 1;
        }
    }
    (start, list)
}

/// Closest point of segment `a b` to `p`, with the feature it lies on.
fn closest_on_segment(a: Vec2, b: Vec2, p: Vec2) -> (Vec2, SegmentFeature) {
    let e = b - a;
    let l = e.length_squared();
    let s = if l > 0.0 { (p - a).dot(e) / l } else { 0.0 };
    if s <= 0.0 {
        (a, SegmentFeature::Vertex(0))
    } else if s >= 1.0 {
        (b, SegmentFeature::Vertex(1))
    } else {
        (a + e * s, SegmentFeature::Edge)
    }
}

/// Parameter at which the ray `o + t·d` meets the closed segment `a b`, within
/// `[0, max_t]`.
///
/// The ray's line separates `a` and `b` (or touches one) exactly when the side
/// values `σ(v) = d × (v − o)` of the two endpoints do not share a strict sign.
/// `σ` depends on one vertex only and is evaluated in f64 (exact for f32
/// input up to one rounding), so a ray through a vertex shared by two segments
/// is judged the same way for both: it can not slip between them. The crossing
/// parameter is `t = ((a − o) × e) / (d × e)` with `e = b − a`. A ray along
/// the segment's line meets it at the nearest point of the segment ahead.
fn ray_segment(o: Vec2, d: Vec2, a: Vec2, b: Vec2, max_t: f32) -> Option<f32> {
    let (o64, d64) = (o.as_dvec2(), d.as_dvec2());
    let (a64, b64) = (a.as_dvec2(), b.as_dvec2());
    let sa = d64.perp_dot(a64 - o64);
    let sb = d64.perp_dot(b64 - o64);
    if (sa > 0.0 && sb > 0.0) || (sa < 0.0 && sb < 0.0) {
        return None;
    }
    let e = b64 - a64;
    let den = d64.perp_dot(e);
    let t = if den != 0.0 {
        (a64 - o64).perp_dot(e) / den
    } else {
        // Collinear: the nearest point of the segment at t >= 0.
        let dd = d64.length_squared();
        let (ta, tb) = ((a64 - o64).dot(d64) / dd, (b64 - o64).dot(d64) / dd);
        let (lo, hi) = (ta.min(tb), ta.max(tb));
        if hi < 0.0 {
            return None;
        }
        lo.max(0.0)
    };
    let t = t as f32;
    (t >= 0.0 && t <= max_t).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_at_vertices() {
        let v = vec![Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::ONE];
        let p = Polyline::new(v, Some(vec![[0, 1], [1, 2], [2, 0], [3, 3]])).unwrap();
        assert_eq!(p.segments_at_vertex(0), &[0, 2]);
        assert_eq!(p.segments_at_vertex(1), &[0, 1]);
        assert_eq!(p.segments_at_vertex(2), &[1, 2]);
        assert_eq!(p.segments_at_vertex(3), &[3]);
        assert!(p.segments_at_vertex(4).is_empty());
    }

    #[test]
    fn ray_segment_cases() {
        let (a, b) = (Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0));
        assert_eq!(ray_segment(Vec2::ZERO, Vec2::X, a, b, 10.0), Some(1.0));
        assert_eq!(
            ray_segment(Vec2::ZERO, Vec2::X * 2.0, a, b, 10.0),
            Some(0.5)
        );
        assert_eq!(ray_segment(Vec2::ZERO, -Vec2::X, a, b, 10.0), None);
        assert_eq!(ray_segment(Vec2::ZERO, Vec2::X, a, b, 0.5), None);
        // Through the endpoint, and along the line.
        assert_eq!(
            ray_segment(Vec2::new(0.0, 1.0), Vec2::X, a, b, 10.0),
            Some(1.0)
        );
        assert_eq!(
            ray_segment(Vec2::new(1.0, -3.0), Vec2::Y, a, b, 10.0),
            Some(2.0)
        );
        // Zero-length segment: a point.
        assert_eq!(ray_segment(Vec2::ZERO, Vec2::X, a, a, 10.0), None);
        assert_eq!(
            ray_segment(Vec2::new(1.0, -3.0), Vec2::Y, a, a, 10.0),
            Some(2.0)
        );
    }
}
