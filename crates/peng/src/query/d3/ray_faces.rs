//! Rays against shapes bounded by planes: cuboids and convex polyhedra
//! (Cyrus–Beck clipping of the line against every face plane).
//!
//! A plane crossed at a shallow slope `s = |n·d| / |d|` moves its crossing by
//! the rounding of the f32 move into the local frame (about `ε` times the
//! world coordinates) divided by `s`: at `s = 4e-4` that is 2e-4 of a unit
//! shape, visibly off the face. So the steep planes are clipped in f32, and
//! when a shallow plane's f32 crossing could bound that interval within its
//! rounding, every plane is crossed again in f64, from the world ray
//! ([`Frame::ray64`]) and the faces' own vertices (a steep plane near the
//! same edge may then decide within its own rounding); when none can, the
//! steep planes' interval is the answer. Left to f32, a shallow plane's
//! crossing both emptied lines that enter a hull near a vertex (seed 860467)
//! and kept lines it should have emptied (seed 870011). A cuboid's shallow
//! planes are known from the direction, so every line with one is clipped
//! the careful way.

use super::ray::{plane_interval, Frame, LineInterval, EVERYWHERE};
use crate::math::Vec3;
use crate::shape::d3::{ConvexPolyhedron, Cuboid};
use glam::{DVec3, Vec4};

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
    planes_interval(c, o, d)
}

/// The line `o + t d` against a convex polyhedron, four planes at a time
/// from the cached plane blocks: the interval of the steep planes, and the
/// latest entry and earliest exit a shallow plane could have within its
/// rounding (as in [`careful_interval`]). When no shallow plane can bound the
/// steep interval it is the answer; otherwise, or when a plane is parallel
/// to the line (`n·d = 0`, a zero direction included), every plane is
/// crossed in f64 ([`exact_interval`]).
pub(super) fn polyhedron_interval(
    p: &ConvexPolyhedron,
    o: Vec3,
    d: Vec3,
    f: &Frame,
) -> Option<LineInterval> {
    let limit = Vec4::splat(SHALLOW_SLOPE_SQ * d.dot(d));
    let rounding = Vec4::splat(OFFSET_ROUNDINGS * f32::EPSILON);
    let (ox, oy, oz) = (Vec4::splat(o.x), Vec4::splat(o.y), Vec4::splat(o.z));
    let (dx, dy, dz) = (Vec4::splat(d.x), Vec4::splat(d.y), Vec4::splat(d.z));
    // Per lane: the steep planes' latest entry and earliest exit and the
    // faces giving them; for the shallow planes, the latest entry and
    // earliest exit within the rounding of their offsets, and the largest
    // `1/|n·d|` (their origin's rounding `slack` adds at most `slack` times
    // that: see `crossing_with_error`).
    let (mut t_in, mut t_out) = (Vec4::NEG_INFINITY, Vec4::INFINITY);
    let (mut k_in, mut k_out) = (Vec4::ZERO, Vec4::ZERO);
    let (mut shallow_in, mut shallow_out) = (Vec4::NEG_INFINITY, Vec4::INFINITY);
    let mut shallow_inv = Vec4::ZERO;
    let mut k = Vec4::new(0.0, 1.0, 2.0, 3.0);
    let mut parallel = false;
    for &[nx, ny, nz, off] in p.plane_blocks() {
        let s0 = nx * ox + ny * oy + nz * oz - off;
        let sd = nx * dx + ny * dy + nz * dz;
        let t = -s0 / sd;
        let (neg, pos) = (sd.cmplt(Vec4::ZERO), sd.cmpgt(Vec4::ZERO));
        // `<=`: a plane parallel to the line is shallow even when `d·d`
        // (and with it `limit`) is zero.
        let shallow = (sd * sd).cmple(limit);
        if shallow.any() {
            parallel |= sd.cmpeq(Vec4::ZERO).any();
            let inv = Vec4::ONE / sd.abs();
            let err = rounding * off.abs() * inv;
            shallow_in = Vec4::select(neg & shallow, shallow_in.max(t + err), shallow_in);
            shallow_out = Vec4::select(pos & shallow, shallow_out.min(t - err), shallow_out);
            shallow_inv = Vec4::select(shallow, shallow_inv.max(inv), shallow_inv);
        }
        let enters = (neg & !shallow) & t.cmpgt(t_in);
        let leaves = (pos & !shallow) & t.cmplt(t_out);
        t_in = Vec4::select(enters, t, t_in);
        k_in = Vec4::select(enters, k, k_in);
        t_out = Vec4::select(leaves, t, t_out);
        k_out = Vec4::select(leaves, k, k_out);
        k += Vec4::splat(4.0);
        // Steep planes in one lane already empty the interval.
        if t_in.cmpgt(t_out).any() {
            return None;
        }
    }
    if parallel {
        return exact_interval(p, f);
    }
    let (tin, tout) = (t_in.max_element(), t_out.min_element());
    if tin > tout {
        return None;
    }
    let inv = shallow_inv.max_element();
    if inv > 0.0 {
        let slack = offset_slack(o, f) * inv;
        if shallow_in.max_element() + slack >= tin || shallow_out.min_element() - slack <= tout {
            return exact_interval(p, f);
        }
    }
    // The face attaining each end (a padding lane is a copy of face 0).
    let faces = p.faces();
    let face = |v: Vec4, x: f32, ks: Vec4| {
        let i = ks[(0..4).find(|&l| v[l] == x).unwrap_or(0)] as usize;
        faces[if i < faces.len() { i } else { 0 }].normal
    };
    Some(LineInterval {
        t_in: tin,
        n_in: face(t_in, tin, k_in),
        t_out: tout,
        n_out: face(t_out, tout, k_out),
    })
}

/// Plain f32 clipping, for a cuboid whose line has no shallow plane (those
/// went to [`careful_interval`]).
fn planes_interval(s: &impl Planes, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let mut iv = EVERYWHERE;
    for k in 0..s.count() {
        let (n, offset) = s.plane(k);
        iv = iv.clip(plane_interval(n, offset, o, d)?)?;
    }
    Some(iv)
}

/// The line against a cuboid with a shallow plane: the steep planes clipped
/// in f32 when no shallow plane can bound their interval within its
/// rounding; otherwise every plane in f64.
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
    // Some shallow plane may bound the interval within its rounding, and then
    // so may a steep plane near the same edge within its own (seed 870412: a
    // line leaving through a plane at slope 0.09 4.5e-7 before it entered
    // through one at 3.4e-5, a miss the f32 exit made a hit): every plane is
    // crossed in f64.
    exact_interval(s, f)
}

/// The line against every plane in f64, from the world ray and the faces'
/// own vertices (compared in f64; the normals reported are the f32 ones).
fn exact_interval(s: &impl Planes, f: &Frame) -> Option<LineInterval> {
    let (o, d) = f.ray64();
    let (mut t_in, mut t_out) = (f64::NEG_INFINITY, f64::INFINITY);
    let (mut n_in, mut n_out) = (Vec3::ZERO, Vec3::ZERO);
    for k in 0..s.count() {
        let (n64, offset) = s.plane64(k);
        let (s0, sd) = (n64.dot(o) - offset, n64.dot(d));
        if sd == 0.0 {
            if s0 > 0.0 {
                return None;
            }
            continue;
        }
        let t = -s0 / sd;
        if sd < 0.0 && t > t_in {
            (t_in, n_in) = (t, s.plane(k).0);
        } else if sd > 0.0 && t < t_out {
            (t_out, n_out) = (t, s.plane(k).0);
        }
    }
    (t_in <= t_out).then_some(LineInterval {
        t_in: t_in as f32,
        n_in,
        t_out: t_out as f32,
        n_out,
    })
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
