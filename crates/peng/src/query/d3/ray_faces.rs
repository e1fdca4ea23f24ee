//! Rays against shapes bounded by planes: cuboids and convex polyhedra
//! (Cyrus–Beck clipping of the line against every face plane).
//!
//! A plane crossed at a shallow slope `s = |n·d| / |d|` moves its crossing by
//! the rounding of the f32 move into the local frame (about `ε` times the
//! world coordinates) divided by `s`: at `s = 4e-4` that is 2e-4 of a unit
//! shape, visibly off the face. So when the plain f32 clip enters or leaves
//! through a shallow plane, or a shallow plane takes part in finding the line
//! empty, the interval is clipped again: the steep planes in
//! f32, and each shallow plane whose f32 crossing could bound the interval
//! within its rounding in f64, from the world ray ([`Frame::ray64`]) and, for
//! a polyhedron, from the face's own vertices. A cuboid's shallow planes are
//! known from the direction, so every line with one is clipped that way.
//! (Not covered for polyhedra: a steep entry plane that wins over a shallow
//! one only by the shallow one's rounding, at an edge between them, where the
//! answer stays within what a rounding of the ray's origin would move it by.)

use super::ray::{Frame, LineInterval, EVERYWHERE};
use crate::math::Vec3;
use crate::shape::d3::{ConvexPolyhedron, Cuboid};
use glam::DVec3;

/// Slopes below `1/32` are shallow (`s² < 1/1024`): there the rounding of the
/// local ray is amplified more than 32 times.
const SHALLOW_SLOPE_SQ: f32 = 1.0 / 1024.0;

/// How far an f32 plane offset `n·o − offset` can be off, in units of
/// `ε · magnitude` (the local ray carries a few roundings of the world
/// coordinates from each pose it passed; the stored face plane one more).
const OFFSET_ROUNDINGS: f32 = 16.0;

/// One face plane `n·x <= offset` in the local frame, with a way to get it
/// exactly in f64.
trait Planes {
    fn count(&self) -> usize;
    /// The f32 plane: unit outward normal and offset.
    fn plane(&self, k: usize) -> (Vec3, f32);
    /// The same plane in f64 (normal of any length, offset to match).
    fn plane64(&self, k: usize) -> (DVec3, f64);
}

impl Planes for Cuboid {
    fn count(&self) -> usize {
        6
    }
    fn plane(&self, k: usize) -> (Vec3, f32) {
        let mut n = Vec3::ZERO;
        n[k / 2] = if k & 1 == 0 { 1.0 } else { -1.0 };
        (n, self.half_extents()[k / 2])
    }
    fn plane64(&self, k: usize) -> (DVec3, f64) {
        let (n, h) = self.plane(k);
        (n.as_dvec3(), h as f64)
    }
}

impl Planes for ConvexPolyhedron {
    fn count(&self) -> usize {
        self.faces().len()
    }
    fn plane(&self, k: usize) -> (Vec3, f32) {
        let f = &self.faces()[k];
        (f.normal, f.offset)
    }
    /// Newell's normal of the face loop (exact direction for a triangle, the
    /// least-squares one for a polygon), turned outward like the stored normal;
    /// the offset is the largest over the loop, so the plane supports the face.
    fn plane64(&self, k: usize) -> (DVec3, f64) {
        let v = |i: u32| self.vertices()[i as usize].as_dvec3();
        let ring = self.face_loop(k);
        let mut n = DVec3::ZERO;
        for (j, &i) in ring.iter().enumerate() {
            let (p, q) = (v(i), v(ring[(j + 1) % ring.len()]));
            n += DVec3::new(
                (p.y - q.y) * (p.z + q.z),
                (p.z - q.z) * (p.x + q.x),
                (p.x - q.x) * (p.y + q.y),
            );
        }
        if n.dot(self.faces()[k].normal.as_dvec3()) < 0.0 {
            n = -n;
        }
        let offset = ring.iter().map(|&i| n.dot(v(i))).fold(f64::MIN, f64::max);
        (n, offset)
    }
}

/// The line `o + t d` against a cuboid. Its shallow planes are known from
/// the direction alone (a small component of `d`), so any of them, entry or
/// not, sends the line to the careful clip.
pub(super) fn cuboid_interval(c: &Cuboid, o: Vec3, d: Vec3, f: &Frame) -> Option<LineInterval> {
    let d2 = d * d;
    if d2.min_element() < SHALLOW_SLOPE_SQ * (d2.x + d2.y + d2.z) {
        return careful_interval(c, o, d, f);
    }
    planes_interval(c, o, d, f)
}

/// The line `o + t d` against a convex polyhedron.
pub(super) fn polyhedron_interval(
    p: &ConvexPolyhedron,
    o: Vec3,
    d: Vec3,
    f: &Frame,
) -> Option<LineInterval> {
    planes_interval(p, o, d, f)
}

/// Plain f32 clipping; when a shallow plane could bound the interval within
/// its rounding (it is the entry or exit plane, or its crossing is within its
/// rounding of them: seed 870011, a plane at slope 2e-5 crossed 0.1 early in
/// f32 that in f64 leaves the line empty), or takes part in finding the line
/// empty (seed 860467: a line entering through a face at slope 1.1e-3 near a
/// vertex, inside for less than that face's rounding), again with those
/// planes crossed in f64.
fn planes_interval(s: &impl Planes, o: Vec3, d: Vec3, f: &Frame) -> Option<LineInterval> {
    let limit = SHALLOW_SLOPE_SQ * d.dot(d);
    let shallow = |k: usize| {
        let sd = s.plane(k).0.dot(d);
        sd * sd < limit
    };
    // The interval and the planes bounding it; the first few shallow planes
    // and how many there are.
    let (mut t_in, mut t_out) = (f32::NEG_INFINITY, f32::INFINITY);
    let (mut k_in, mut k_out) = (usize::MAX, usize::MAX);
    let mut shallow_planes = [0u32; 4];
    let mut shallow_count = 0;
    for k in 0..s.count() {
        let (n, offset) = s.plane(k);
        let (s0, sd) = (n.dot(o) - offset, n.dot(d));
        if sd * sd < limit {
            if shallow_count < shallow_planes.len() {
                shallow_planes[shallow_count] = k as u32;
            }
            shallow_count += 1;
        }
        if sd == 0.0 {
            if s0 > 0.0 {
                return careful_interval(s, o, d, f);
            }
            continue;
        }
        let t = -s0 / sd;
        if sd < 0.0 {
            if t > t_in {
                (t_in, k_in) = (t, k);
            }
        } else if t < t_out {
            (t_out, k_out) = (t, k);
        }
        if t_in > t_out {
            // Certain only between steep planes.
            return if shallow(k_in) || shallow(k_out) {
                careful_interval(s, o, d, f)
            } else {
                None
            };
        }
    }
    let normal = |k: usize| {
        if k == usize::MAX {
            Vec3::ZERO
        } else {
            s.plane(k).0
        }
    };
    let iv = LineInterval {
        t_in,
        n_in: normal(k_in),
        t_out,
        n_out: normal(k_out),
    };
    let recheck = match shallow_count {
        0 => false,
        c if c <= shallow_planes.len() => shallow_may_bound(
            s,
            shallow_planes[..c].iter().map(|&k| k as usize),
            o,
            d,
            f,
            &iv,
        ),
        _ => shallow_may_bound(s, (0..s.count()).filter(|&k| shallow(k)), o, d, f, &iv),
    };
    if recheck {
        return careful_interval(s, o, d, f);
    }
    Some(iv)
}

/// Whether one of the shallow `planes`' crossings could bound `iv` within its
/// rounding: the crossing `t` of an entry plane is off by at most
/// `err = (slack + 16·ε·|offset|) / |n·d|` (see [`crossing_with_error`]), and
/// `t + err >= t_in` is `n·p_in − offset >= −(slack + 16·ε·|offset|)` at the
/// interval's entry point `p_in` (the same at the exit, mirrored).
fn shallow_may_bound(
    s: &impl Planes,
    mut planes: impl Iterator<Item = usize>,
    o: Vec3,
    d: Vec3,
    f: &Frame,
    iv: &LineInterval,
) -> bool {
    let slack = offset_slack(o, f);
    let (p_in, p_out) = (o + d * iv.t_in, o + d * iv.t_out);
    planes.any(|k| {
        let (n, offset) = s.plane(k);
        let sd = n.dot(d);
        let room = slack + OFFSET_ROUNDINGS * f32::EPSILON * offset.abs();
        if sd < 0.0 {
            n.dot(p_in) - offset >= -room
        } else if sd > 0.0 {
            n.dot(p_out) - offset >= -room
        } else {
            true
        }
    })
}

/// The steep planes clipped in f32, the shallow ones that can bound the
/// interval within their rounding in f64.
fn careful_interval(s: &impl Planes, o: Vec3, d: Vec3, f: &Frame) -> Option<LineInterval> {
    let dd = d.dot(d);
    let mut slack = None;
    // The interval of the steep planes, and the latest entry and earliest
    // exit any shallow plane could have within its rounding.
    let mut iv = EVERYWHERE;
    let (mut shallow_in, mut shallow_out) = (f32::NEG_INFINITY, f32::INFINITY);
    for k in 0..s.count() {
        let (n, offset) = s.plane(k);
        let (s0, sd) = (n.dot(o) - offset, n.dot(d));
        if sd * sd >= SHALLOW_SLOPE_SQ * dd {
            let t = -s0 / sd;
            if sd < 0.0 {
                if t > iv.t_in {
                    (iv.t_in, iv.n_in) = (t, n);
                }
            } else if t < iv.t_out {
                (iv.t_out, iv.n_out) = (t, n);
            }
            if iv.t_in > iv.t_out {
                return None;
            }
            continue;
        }
        let slack = *slack.get_or_insert_with(|| offset_slack(o, f));
        let (t, err) = crossing_with_error(s0, sd, offset, slack);
        if sd < 0.0 {
            shallow_in = shallow_in.max(t + err);
        } else {
            shallow_out = shallow_out.min(t - err);
        }
    }
    if shallow_in < iv.t_in && shallow_out > iv.t_out {
        return Some(iv);
    }
    // Some shallow plane may bound the interval: those that can are crossed
    // in f64.
    let slack = slack.unwrap_or_else(|| offset_slack(o, f));
    let (o64, d64) = f.ray64();
    for k in 0..s.count() {
        let (n, offset) = s.plane(k);
        let (s0, sd) = (n.dot(o) - offset, n.dot(d));
        if sd * sd >= SHALLOW_SLOPE_SQ * dd {
            continue;
        }
        let (t, err) = crossing_with_error(s0, sd, offset, slack);
        let matters = if sd < 0.0 {
            t + err >= iv.t_in
        } else {
            t - err <= iv.t_out
        };
        if matters {
            let (n64, offset64) = s.plane64(k);
            iv = iv.clip(plane_interval64(n, n64, offset64, o64, d64)?)?;
        }
    }
    Some(iv)
}

/// A bound on the error of an f32 plane offset `n·o − offset` before the
/// plane's own offset: the rounding the local origin carries.
fn offset_slack(o: Vec3, f: &Frame) -> f32 {
    OFFSET_ROUNDINGS * f32::EPSILON * f.magnitude().max(o.abs().max_element())
}

/// The f32 crossing `t = −s0/sd` of a plane (`s0 = n·o − offset`,
/// `sd = n·d`) and a bound on its error, `(slack + rounding of offset)/|sd|`.
/// A line parallel to the plane gets an infinite error: it always counts as
/// possibly bounding.
fn crossing_with_error(s0: f32, sd: f32, offset: f32, slack: f32) -> (f32, f32) {
    if sd == 0.0 {
        return (0.0, f32::INFINITY);
    }
    let err = (slack + OFFSET_ROUNDINGS * f32::EPSILON * offset.abs()) / sd.abs();
    (-s0 / sd, err)
}

/// The line against the half-space `n64·x <= offset64` in f64; `n` is the
/// plane's unit normal reported at the crossing.
fn plane_interval64(
    n: Vec3,
    n64: DVec3,
    offset64: f64,
    o: DVec3,
    d: DVec3,
) -> Option<LineInterval> {
    let (s0, sd) = (n64.dot(o) - offset64, n64.dot(d));
    if sd == 0.0 {
        return (s0 <= 0.0).then_some(EVERYWHERE);
    }
    Some(LineInterval::half((-s0 / sd) as f32, n, sd < 0.0))
}
