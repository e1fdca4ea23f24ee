//! Two separated convex cores: GJK in f64 on exact f64 support functions,
//! run to a tight dual gap so that the normal attains the distance.
//!
//! The distance path runs this only when the f32 answer for a pair with a
//! cylinder or a cone fails its dual check (see `distance::checked_dual`).
//! For convex `A` and `B` apart, the gap of the support planes along a unit
//! `n` (from A to B), `g(n) = −(h_A(n) + h_B(−n))`, is at most the distance
//! and equals it only at the true normal. At a flat cap or a rim, `g` falls
//! off linearly with the normal's error while the distance found along a
//! chord of the rim is off only quadratically, so an f32 GJK can stop with
//! the right distance and a normal 1e-4 rad off. Here every support point is
//! exact in f64 and GJK stops only when `|v| − g(−v/|v|)`, upper minus lower
//! bound, is below `1e-10` of the size: the normal is then certified by the
//! support functions themselves.

use crate::math::Pose3;
use crate::shape::d3::Shape;
use glam::{DQuat, DVec3, Vec3};

/// A point of `A − B` (core of A minus core of B, A's frame) with the
/// points of A and B it is the difference of.
#[derive(Clone, Copy)]
struct Vertex {
    w: DVec3,
    a: DVec3,
    b: DVec3,
}

/// The refined pair: the distance of the cores, their closest points (A's
/// frame), the unit normal from A to B and the support gap along it.
pub(super) struct Refined {
    pub len: f64,
    pub on_a: DVec3,
    pub on_b: DVec3,
    pub normal: DVec3,
    pub gap: f64,
}

/// The farther of two points along `d` (the second on ties, as
/// `Capsule::support` and `Segment::support` choose).
#[inline]
fn farther(p: Vec3, q: Vec3, d: DVec3) -> DVec3 {
    let (p, q) = (p.as_dvec3(), q.as_dvec3());
    if d.dot(q - p) > 0.0 {
        q
    } else {
        p
    }
}

/// The radial part of `d` scaled to length `r` (zero when `d` is axial).
#[inline]
fn radial(d: DVec3, r: f64) -> DVec3 {
    let rho = d.x.hypot(d.z);
    if rho > 0.0 {
        DVec3::new(d.x * r / rho, 0.0, d.z * r / rho)
    } else {
        DVec3::ZERO
    }
}

/// The vertex of `vs` farthest along `d`, in f64.
fn farthest(vs: &[Vec3], d: DVec3) -> DVec3 {
    let key = |p: &&Vec3| p.as_dvec3().dot(d);
    vs.iter()
        .max_by(|p, q| key(p).total_cmp(&key(q)))
        .map_or(DVec3::ZERO, |p| p.as_dvec3())
}

/// A support point of the core of `s` along `d`, local frame, in f64: the
/// shapes' own formulas (`SupportMap` for `Shape`) with f64 arithmetic.
fn support(s: &Shape, d: DVec3) -> DVec3 {
    match s {
        Shape::Ball(_) => DVec3::ZERO,
        Shape::Capsule(c) => farther(c.a(), c.b(), d),
        Shape::Segment(g) => farther(g.a(), g.b(), d),
        Shape::Cylinder(c) => {
            let h = c.half_height() as f64;
            radial(d, c.radius() as f64) + DVec3::Y * if d.y >= 0.0 { h } else { -h }
        }
        Shape::Cone(k) => {
            let h = k.half_height() as f64;
            let apex = DVec3::Y * h;
            let rim = radial(d, k.radius() as f64) - DVec3::Y * h;
            if apex.dot(d) >= rim.dot(d) {
                apex
            } else {
                rim
            }
        }
        Shape::Cuboid(c) => {
            let h = c.half_extents().as_dvec3();
            DVec3::new(h.x.copysign(d.x), h.y.copysign(d.y), h.z.copysign(d.z))
        }
        Shape::Triangle(t) => farthest(t.vertices(), d),
        Shape::Polyhedron(p) => farthest(p.vertices(), d),
        other => other.local_support(d.as_vec3()).as_dvec3(),
    }
}

/// `A − B` with B placed in A's frame by `x ↦ q·x + t`.
struct Difference<'s> {
    a: &'s Shape,
    b: &'s Shape,
    q: DQuat,
    t: DVec3,
}

impl Difference<'_> {
    /// The point of `A − B` farthest along `n`: A's support along `n` minus
    /// B's along `−n`. `−n·w` is then the support gap `g(n)`.
    fn support(&self, n: DVec3) -> Vertex {
        let a = support(self.a, n);
        let b = self.q * support(self.b, self.q.inverse() * -n) + self.t;
        Vertex { w: a - b, a, b }
    }
}

/// Barycentric weights of the point of the segment `p`–`q` closest to the
/// origin.
fn segment_weights(p: DVec3, q: DVec3) -> [f64; 2] {
    let e = q - p;
    let ee = e.dot(e);
    let s = if ee > 0.0 {
        (-p.dot(e) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    [1.0 - s, s]
}

/// Barycentric weights of the point of the triangle `abc` closest to the
/// origin: the projection on its plane when inside, else the best edge.
///
/// GJK near a rim works on slivers (a far point and two rim points close
/// together), where the Gram-determinant formulas lose digits to
/// cancellation (a few 1e-7 of the weights); the plane normal as the cross
/// product of the two shortest edges, and the signed areas along it, keep
/// f64 accuracy (Montanari, Bartels and Cazzato 2017 use the same idea).
fn triangle_weights(a: DVec3, b: DVec3, c: DVec3) -> [f64; 3] {
    let p = [a, b, c];
    // Edge k is opposite vertex k; the cross product of the two shortest.
    let e = [c - b, a - c, b - a];
    let long = (0..3)
        .max_by(|&i, &j| e[i].length_squared().total_cmp(&e[j].length_squared()))
        .unwrap_or(0);
    let n = e[(long + 1) % 3].cross(e[(long + 2) % 3]);
    let nn = n.length_squared();
    if nn > 0.0 && nn.is_finite() {
        let x = n * (n.dot(a) / nn);
        let u = [
            n.dot((b - x).cross(c - x)),
            n.dot((c - x).cross(a - x)),
            n.dot((a - x).cross(b - x)),
        ];
        let sum = u[0] + u[1] + u[2];
        if u.iter().all(|&ui| ui >= 0.0) && sum > 0.0 {
            return [u[0] / sum, u[1] / sum, u[2] / sum];
        }
    }
    // Outside (or degenerate): the closest point of the boundary.
    let mut best = ([1.0, 0.0, 0.0], a.length_squared());
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        let s = segment_weights(p[i], p[j]);
        let d = (p[i] * s[0] + p[j] * s[1]).length_squared();
        if d < best.1 {
            let mut w = [0.0; 3];
            (w[i], w[j]) = (s[0], s[1]);
            best = (w, d);
        }
    }
    best.0
}

/// The point of the hull of `s` (≤ 4 points) closest to the origin, as
/// weights on `s`. Four points: the best of the four faces. (The origin is
/// outside for cores apart; a rounding-thin tetrahedron can seem to hold
/// it, and a test for that would only stop the search. An overlap shows as
/// a gap that never turns positive.)
fn closest_weights(s: &[Vertex]) -> [f64; 4] {
    let w = |i: usize| s[i].w;
    let mut out = [0.0; 4];
    match s.len() {
        0 => {}
        1 => out[0] = 1.0,
        2 => out[..2].copy_from_slice(&segment_weights(w(0), w(1))),
        3 => out[..3].copy_from_slice(&triangle_weights(w(0), w(1), w(2))),
        _ => {
            let mut best = f64::INFINITY;
            for f in [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] {
                let t = triangle_weights(w(f[0]), w(f[1]), w(f[2]));
                let x = w(f[0]) * t[0] + w(f[1]) * t[1] + w(f[2]) * t[2];
                if x.length_squared() < best {
                    best = x.length_squared();
                    out = [0.0; 4];
                    for (k, &i) in f.iter().enumerate() {
                        out[i] = t[k];
                    }
                }
            }
        }
    }
    out
}

/// At most this many support queries: GJK on exact supports closes the gap
/// at a cap or a rim in a few (a new rim point per chord).
const MAX_ITERATIONS: usize = 48;
/// The stopping gap `|v| − g`, relative to the size of the points: far below
/// the f32 resolution of the answer, far above the f64 rounding.
const REL_GAP: f64 = 1e-10;

/// GJK in f64 on the cores of `a` and `b` (B placed in A's frame by
/// `pose_ab`), started from the support points along `starts` (unit normals
/// from A to B, e.g. the f32 answer's); `None` when the cores overlap or
/// touch, or on non-finite input.
///
/// Each step takes the point `v` of the simplex closest to the origin (an
/// upper bound `|v|` on the distance), then the support point along `−v`
/// (the gap `g(−v/|v|)`, a lower bound); it stops when the two meet.
pub(super) fn refine(a: &Shape, b: &Shape, pose_ab: &Pose3, starts: &[Vec3]) -> Option<Refined> {
    let m = Difference {
        a,
        b,
        q: pose_ab.rotation.as_dquat().normalize(),
        t: pose_ab.translation.as_dvec3(),
    };
    let mut s: Vec<Vertex> = Vec::with_capacity(5);
    for n in starts {
        let p = m.support(n.as_dvec3().normalize());
        if !s.iter().any(|x| x.w == p.w) && s.len() < 4 {
            s.push(p);
        }
    }
    // The shortest pair (upper bound) and the normal of largest gap (lower
    // bound) seen: the iterates are not monotone in both.
    let mut best: Option<Refined> = None;
    let mut last_len = f64::INFINITY;
    for _ in 0..MAX_ITERATIONS {
        let wts = closest_weights(&s);
        let (mut kept, mut v, mut on_a, mut on_b) =
            (Vec::with_capacity(5), DVec3::ZERO, DVec3::ZERO, DVec3::ZERO);
        for (p, &t) in s.iter().zip(&wts) {
            if t > 0.0 {
                kept.push(*p);
                (v, on_a, on_b) = (v + p.w * t, on_a + p.a * t, on_b + p.b * t);
            }
        }
        let scale = s
            .iter()
            .map(|p| p.a.abs().max(p.b.abs()).max_element())
            .fold(1e-30, f64::max);
        let len = v.length();
        if !(len > 1e-12 * scale && len.is_finite()) {
            return None;
        }
        let normal = -v / len;
        let p = m.support(normal);
        let gap = -normal.dot(p.w);
        let r = best.get_or_insert(Refined {
            len,
            on_a,
            on_b,
            normal,
            gap,
        });
        if len < r.len {
            (r.len, r.on_a, r.on_b) = (len, on_a, on_b);
        }
        if gap > r.gap {
            (r.normal, r.gap) = (normal, gap);
        }
        // Converged, or no longer making progress (f64 rounding).
        if r.len - r.gap <= REL_GAP * scale || len >= last_len || kept.iter().any(|x| x.w == p.w) {
            break;
        }
        last_len = len;
        kept.push(p);
        s = kept;
    }
    // A positive gap certifies the cores apart.
    best.filter(|r| r.gap > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::d3::{Cone, Cylinder};
    use glam::Quat;

    /// A cone's apex over a cylinder's cap near its rim: the normal is the
    /// cap normal exactly and the distance the height above the cap.
    #[test]
    fn apex_over_a_cap_near_the_rim() {
        let cyl: Shape = Cylinder::new(1.0, 1.0).unwrap().into();
        let cone: Shape = Cone::new(0.5, 0.3).unwrap().into();
        // The cone upside down (apex at −y), apex at (0.999, 1.25, 0).
        let pose = Pose3::new(
            Vec3::new(0.999, 1.75, 0.0),
            Quat::from_rotation_x(std::f32::consts::PI),
        );
        let tilted = Vec3::new(0.02, 1.0, 0.01).normalize();
        let r = refine(&cyl, &cone, &pose, &[tilted]).unwrap();
        assert!((r.len - 0.25).abs() < 1e-9, "{}", r.len);
        assert!((r.normal - DVec3::Y).length() < 1e-9, "{}", r.normal);
        assert!((r.gap - r.len).abs() < 1e-9);
        assert!((r.on_a - DVec3::new(0.999, 1.0, 0.0)).length() < 1e-6);
    }

    /// Overlapping cores: no answer.
    #[test]
    fn overlap_is_none() {
        let cyl: Shape = Cylinder::new(1.0, 1.0).unwrap().into();
        let pose = Pose3::from_translation(Vec3::new(0.5, 0.5, 0.0));
        assert!(refine(&cyl, &cyl, &pose, &[Vec3::X]).is_none());
    }
}
