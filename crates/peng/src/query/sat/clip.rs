//! Clipping an incident polygon against the side planes of a reference polygon
//! (Sutherland–Hodgman), tracking which features produced each output vertex so
//! that contact ids stay the same from frame to frame.

use super::polytope::{Polygon, MAX_POLYGON};
use crate::math::Vec3;
use crate::query::types::Feature;

/// Capacity of a clipped polygon: clipping a convex `n`-gon by `m` planes gives
/// at most `n + m` vertices.
pub(crate) const MAX_CLIPPED: usize = 2 * MAX_POLYGON;

/// What the edge leaving a clipped vertex lies on.
#[derive(Debug, Clone, Copy, PartialEq)]
enum EdgeOn {
    /// An edge of the incident polygon (its feature).
    Incident(Feature),
    /// The side plane of reference edge `k`.
    Reference(usize),
}

/// A vertex of a clipped polygon: its position and the feature pair (of the
/// reference shape and of the incident shape) that produced it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ClipVertex {
    /// Position (on the incident feature).
    pub point: Vec3,
    /// Feature of the reference shape.
    pub reference: Feature,
    /// Feature of the incident shape.
    pub incident: Feature,
    edge: EdgeOn,
}

impl Default for ClipVertex {
    fn default() -> Self {
        ClipVertex {
            point: Vec3::ZERO,
            reference: Feature::NONE,
            incident: Feature::NONE,
            edge: EdgeOn::Reference(0),
        }
    }
}

/// A list of clipped vertices of capacity `N` (vertices past it are
/// dropped). Clipping an `n`-gon against an `m`-gon's sides needs `n + m`: the
/// default covers any two polygons; pairs of known small faces (two boxes:
/// 8) use less, so that the buffers cost less to set up.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ClipBuffer<const N: usize = MAX_CLIPPED> {
    verts: [ClipVertex; N],
    len: usize,
}

impl<const N: usize> Default for ClipBuffer<N> {
    fn default() -> Self {
        ClipBuffer {
            verts: [ClipVertex::default(); N],
            len: 0,
        }
    }
}

impl<const N: usize> ClipBuffer<N> {
    /// The vertices.
    #[inline]
    pub(crate) fn vertices(&self) -> &[ClipVertex] {
        &self.verts[..self.len]
    }
    #[inline]
    fn push(&mut self, v: ClipVertex) {
        if self.len < N {
            self.verts[self.len] = v;
            self.len += 1;
        }
    }
}

/// The side plane of reference edge `k`: `m·x <= c` inside. With the loop
/// counter-clockwise around `axis`, `m = (v[k+1] - v[k]) × axis` points out of
/// the polygon. `None` for a zero-length edge.
#[inline]
fn side_plane(reference: &Polygon, axis: Vec3, k: usize) -> Option<(Vec3, f32)> {
    let v = reference.vertices();
    let p = v[k].point;
    let q = v[(k + 1) % v.len()].point;
    let m = (q - p).cross(axis);
    if m.length_squared() <= 1e-20 * (q - p).length_squared().max(1e-30) || m == Vec3::ZERO {
        return None;
    }
    Some((m, m.dot(p)))
}

/// The reference feature where the side planes of reference edges `k0` and `k`
/// meet: their shared vertex when they are neighbours, else edge `k`.
#[inline]
fn corner(reference: &Polygon, k0: usize, k: usize) -> Feature {
    let v = reference.vertices();
    let m = v.len();
    if (k0 + 1) % m == k {
        v[k].vertex
    } else if (k + 1) % m == k0 {
        v[k0].vertex
    } else {
        v[k].edge
    }
}

/// Clips `incident` (a polygon, a 2-gon for a segment, or a point) against the
/// side planes of `reference` (a polygon counter-clockwise around `axis`; the
/// planes are parallel to `axis`). Output vertices keep the incident vertex
/// (id: reference face, incident vertex) or are made by a side plane (id:
/// reference edge, incident edge; or reference vertex, incident face where two
/// side planes meet inside the incident face).
pub(crate) fn clip<const N: usize>(
    reference: &Polygon,
    axis: Vec3,
    incident: &Polygon,
    out: &mut ClipBuffer<N>,
) {
    out.len = 0;
    let ref_face = reference.feature;
    for v in incident.vertices() {
        out.push(ClipVertex {
            point: v.point,
            reference: ref_face,
            incident: v.vertex,
            edge: EdgeOn::Incident(v.edge),
        });
    }
    if reference.len() < 3 {
        return;
    }
    match incident.len() {
        0 => {}
        1 => {
            for k in 0..reference.len() {
                if let Some((m, c)) = side_plane(reference, axis, k) {
                    if m.dot(out.verts[0].point) > c {
                        out.len = 0;
                        return;
                    }
                }
            }
        }
        2 => clip_segment(reference, axis, out),
        _ => {
            // Ping-pong between `out` and `tmp` (no copies of whole buffers
            // between passes); `in_out` says which one holds the polygon.
            let mut tmp = ClipBuffer::<N>::default();
            let mut in_out = true;
            for k in 0..reference.len() {
                let Some((m, c)) = side_plane(reference, axis, k) else {
                    continue;
                };
                if in_out {
                    tmp.len = 0;
                    clip_once(out, (m, c), k, reference, incident.feature, &mut tmp);
                } else {
                    out.len = 0;
                    clip_once(&tmp, (m, c), k, reference, incident.feature, out);
                }
                in_out = !in_out;
                if (if in_out { out.len } else { tmp.len }) == 0 {
                    out.len = 0;
                    return;
                }
            }
            if !in_out {
                out.verts[..tmp.len].copy_from_slice(&tmp.verts[..tmp.len]);
                out.len = tmp.len;
            }
        }
    }
}

/// One Sutherland–Hodgman pass of a closed polygon against `m·x <= c`.
fn clip_once<const N: usize>(
    input: &ClipBuffer<N>,
    (m, c): (Vec3, f32),
    k: usize,
    reference: &Polygon,
    incident_face: Feature,
    out: &mut ClipBuffer<N>,
) {
    let n = input.len;
    let ref_edge = reference.vertices()[k].edge;
    for i in 0..n {
        let cur = input.verts[i];
        let next = input.verts[(i + 1) % n];
        let dc = m.dot(cur.point) - c;
        let dn = m.dot(next.point) - c;
        if dc <= 0.0 {
            out.push(cur);
        }
        if (dc <= 0.0) != (dn <= 0.0) {
            let t = dc / (dc - dn);
            let point = cur.point + (next.point - cur.point) * t;
            let (reference_f, incident_f) = match cur.edge {
                EdgeOn::Incident(e) => (ref_edge, e),
                // Two side planes cross inside the incident face.
                EdgeOn::Reference(k0) => (corner(reference, k0, k), incident_face),
            };
            // Leaving the half-space, the new vertex's outgoing edge runs along
            // this side plane; entering it, it continues the current edge.
            let edge = if dc <= 0.0 {
                EdgeOn::Reference(k)
            } else {
                cur.edge
            };
            out.push(ClipVertex {
                point,
                reference: reference_f,
                incident: incident_f,
                edge,
            });
        }
    }
}

/// Clips the segment in `out` (two vertices) against the side planes by its
/// parameter interval.
fn clip_segment<const N: usize>(reference: &Polygon, axis: Vec3, out: &mut ClipBuffer<N>) {
    let a = out.verts[0];
    let b = out.verts[1];
    let d = b.point - a.point;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    let (mut f0, mut f1) = (a.reference, b.reference);
    for k in 0..reference.len() {
        let Some((m, c)) = side_plane(reference, axis, k) else {
            continue;
        };
        // m·(a + t d) <= c  <=>  t·(m·d) <= c - m·a.
        let md = m.dot(d);
        let r = c - m.dot(a.point);
        if md.abs() <= f32::MIN_POSITIVE {
            if r < 0.0 {
                out.len = 0;
                return;
            }
            continue;
        }
        let t = r / md;
        let edge = reference.vertices()[k].edge;
        if md > 0.0 {
            if t < t1 {
                t1 = t;
                f1 = edge;
            }
        } else if t > t0 {
            t0 = t;
            f0 = edge;
        }
    }
    if t0 > t1 {
        out.len = 0;
        return;
    }
    let seg = a.edge;
    let end = |t: f32, f: Feature, v: &ClipVertex, at_end: bool| ClipVertex {
        point: a.point + d * t,
        reference: f,
        incident: match (at_end, seg) {
            (true, _) => v.incident,
            (false, EdgeOn::Incident(e)) => e,
            (false, EdgeOn::Reference(_)) => v.incident,
        },
        edge: seg,
    };
    let ka = end(t0, f0, &a, t0 == 0.0);
    let kb = end(t1, f1, &b, t1 == 1.0);
    out.len = 0;
    out.push(ka);
    if (t1 - t0) * d.length() > 0.0 {
        out.push(kb);
    }
}
