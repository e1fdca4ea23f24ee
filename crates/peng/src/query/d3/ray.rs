//! 3D ray casts.
//!
//! Every convex shape reports the interval `[t_in, t_out]` where the ray's full
//! line crosses it, with the outward normals at both ends; one driver turns
//! that into the hit (entry hit, `toi = 0` for a solid cast from inside, or the
//! exit hit with the normal turned against the ray for a hollow cast from
//! inside). Flat shapes (segments, triangles, zero-size boxes) give `t_in =
//! t_out`. Compounds take the nearest hit over their parts. Triangle meshes
//! and height fields are surfaces: their own ray casts (BVH, grid walk),
//! `solid` does not apply.
//!
//! Balls, capsules and tubes are crossed from the line's closest approach to
//! the centre or axis (`math::quadratic`). Near tangency, and where a line
//! crosses a cylinder's cap at a shallow angle, the rounding of the f32 move
//! into the shape's frame would be amplified, so those steps recompute the
//! local ray in f64 from the world ray ([`Frame`]).

use super::ray_faces::{cuboid_interval, polyhedron_interval};
use crate::math::quadratic::line_ball_roots;
use crate::math::tolerance::REL_EPS;
use crate::math::{Pose3, Vec3};
use crate::query::types::{Ray3, RayHit3};
use crate::shape::d3::{Cone, Cylinder, Shape};
use glam::{DQuat, DVec3};

/// The first hit of `ray` on the shape with `toi <= max_toi`. With `solid`, a ray
/// starting inside hits at `toi = 0`; without, it hits the boundary from inside.
///
/// A limit `max_toi` below 0 or NaN admits no time: the ray hits nothing
/// (`None`), so every hit returned has `0 <= toi <= max_toi`.
pub fn ray_cast(
    shape: &Shape,
    pose: &Pose3,
    ray: &Ray3,
    max_toi: f32,
    solid: bool,
) -> Option<RayHit3> {
    if max_toi.is_nan() || max_toi < 0.0 {
        return None;
    }
    debug_assert!(pose.is_finite(), "non-finite pose");
    let o = pose.inverse_transform_point(ray.origin);
    let d = pose.inverse_transform_vector(ray.dir);
    let world = Frame::World(ray);
    let frame = Frame::Local(pose, &world);
    let (toi, n) = local_ray_cast(shape, o, d, &frame, max_toi, solid)?;
    Some(RayHit3 {
        toi,
        point: ray.at(toi),
        normal: pose.transform_vector(n),
    })
}

/// The frames a ray passes through on its way to a shape's local frame, kept
/// so that a near-tangent crossing can recompute the local ray in f64 from the
/// world ray (`math::quadratic`); nothing is computed unless asked.
#[derive(Clone, Copy)]
pub(super) enum Frame<'a> {
    /// The world frame: the ray as given.
    World(&'a Ray3),
    /// The frame placed by the pose inside the outer frame.
    Local(&'a Pose3, &'a Frame<'a>),
}

impl Frame<'_> {
    /// The ray's origin and direction in this frame, in f64 (the poses'
    /// rotations normalized in f64).
    pub(super) fn ray64(&self) -> (DVec3, DVec3) {
        match *self {
            Frame::World(ray) => (ray.origin.as_dvec3(), ray.dir.as_dvec3()),
            Frame::Local(pose, outer) => {
                let (o, d) = outer.ray64();
                let q = pose.rotation;
                let inv = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64)
                    .normalize()
                    .conjugate();
                (inv * (o - pose.translation.as_dvec3()), inv * d)
            }
        }
    }

    /// A bound on the size of the coordinates the local ray was computed
    /// from (the world origin and every translation on the way), which
    /// scales the rounding it carries.
    pub(super) fn magnitude(&self) -> f32 {
        match *self {
            Frame::World(ray) => ray.origin.abs().max_element(),
            Frame::Local(pose, outer) => outer.magnitude() + pose.translation.abs().max_element(),
        }
    }

    /// `(o - c, d)` in f64 for a point `c` of this frame.
    fn line64(&self, c: Vec3) -> (DVec3, DVec3) {
        let (o, d) = self.ray64();
        (o - c.as_dvec3(), d)
    }
}

/// Ray cast in the shape's local frame (the ray `o + t d`, which is `frame`'s
/// ray): `(toi, normal)` with the normal local.
pub(super) fn local_ray_cast(
    shape: &Shape,
    o: Vec3,
    d: Vec3,
    frame: &Frame,
    max_toi: f32,
    solid: bool,
) -> Option<(f32, Vec3)> {
    if let Shape::Compound(c) = shape {
        let part_hit = |i: usize, limit: f32| {
            let (p, part) = &c.parts()[i];
            let lo = p.inverse_transform_point(o);
            let ld = p.inverse_transform_vector(d);
            let inner = Frame::Local(p, frame);
            local_ray_cast(part, lo, ld, &inner, limit, solid)
                .map(|(t, n)| (t, p.transform_vector(n)))
        };
        // Bounded parts through the BVH (front to back, the ray shrinking at
        // each hit); the normal of the accepted hit is kept alongside.
        let mut best: Option<(f32, Vec3)> = None;
        c.bvh().cast_ray(o, d, max_toi, |slot, limit| {
            let (t, n) = part_hit(c.part_of(slot), limit)?;
            if t <= limit && best.is_none_or(|(bt, _)| t <= bt) {
                best = Some((t, n));
            }
            Some(t)
        });
        for &i in c.unbounded_parts() {
            let limit = best.map_or(max_toi, |(t, _)| t);
            if let Some((t, n)) = part_hit(i as usize, limit) {
                if best.is_none_or(|(bt, _)| t < bt) {
                    best = Some((t, n));
                }
            }
        }
        return best;
    }
    match shape {
        Shape::TriMesh(m) => {
            return m
                .cast_local_ray(o, d, max_toi)
                .map(|h| (h.hit.toi, h.hit.normal))
        }
        Shape::HeightField(h) => {
            return h
                .cast_local_ray(o, d, max_toi)
                .map(|h| (h.hit.toi, h.hit.normal))
        }
        _ => {}
    }
    let iv = line_interval(shape, o, d, frame)?;
    resolve(iv, max_toi, solid)
}

/// Where a line `o + t d` (all real `t`) crosses a convex shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct LineInterval {
    /// Entry parameter (may be `-inf`).
    pub t_in: f32,
    /// Outward normal at the entry.
    pub n_in: Vec3,
    /// Exit parameter (may be `+inf`).
    pub t_out: f32,
    /// Outward normal at the exit.
    pub n_out: Vec3,
}

pub(super) const EVERYWHERE: LineInterval = LineInterval {
    t_in: f32::NEG_INFINITY,
    n_in: Vec3::ZERO,
    t_out: f32::INFINITY,
    n_out: Vec3::ZERO,
};

impl LineInterval {
    /// The intersection with another interval (of a convex piece's constraint).
    pub(super) fn clip(self, o: LineInterval) -> Option<LineInterval> {
        let (t_in, n_in) = if o.t_in > self.t_in {
            (o.t_in, o.n_in)
        } else {
            (self.t_in, self.n_in)
        };
        let (t_out, n_out) = if o.t_out < self.t_out {
            (o.t_out, o.n_out)
        } else {
            (self.t_out, self.n_out)
        };
        (t_in <= t_out).then_some(LineInterval {
            t_in,
            n_in,
            t_out,
            n_out,
        })
    }
    /// The union with an overlapping interval (for unions that are convex).
    fn hull(self, o: LineInterval) -> LineInterval {
        let (t_in, n_in) = if o.t_in < self.t_in {
            (o.t_in, o.n_in)
        } else {
            (self.t_in, self.n_in)
        };
        let (t_out, n_out) = if o.t_out > self.t_out {
            (o.t_out, o.n_out)
        } else {
            (self.t_out, self.n_out)
        };
        LineInterval {
            t_in,
            n_in,
            t_out,
            n_out,
        }
    }
    /// The line entering (`entering`) or leaving a half-space at `t`
    /// through its plane of outward normal `n`.
    pub(super) fn half(t: f32, n: Vec3, entering: bool) -> LineInterval {
        if entering {
            LineInterval {
                t_in: t,
                n_in: n,
                ..EVERYWHERE
            }
        } else {
            LineInterval {
                t_out: t,
                n_out: n,
                ..EVERYWHERE
            }
        }
    }
    fn point(t: f32, n: Vec3) -> LineInterval {
        LineInterval {
            t_in: t,
            n_in: n,
            t_out: t,
            n_out: n,
        }
    }
}

/// The hit from a line interval.
fn resolve(iv: LineInterval, max_toi: f32, solid: bool) -> Option<(f32, Vec3)> {
    if iv.t_out < 0.0 {
        return None;
    }
    if iv.t_in >= 0.0 {
        return (iv.t_in <= max_toi).then_some((iv.t_in, iv.n_in));
    }
    // The origin is inside.
    if solid {
        return Some((0.0, Vec3::ZERO));
    }
    (iv.t_out <= max_toi && iv.t_out.is_finite()).then_some((iv.t_out, -iv.n_out))
}

/// The line interval of any non-compound shape (local frame; `frame` holds the
/// line `o + t d` for an f64 recomputation).
pub(super) fn line_interval(
    shape: &Shape,
    o: Vec3,
    d: Vec3,
    frame: &Frame,
) -> Option<LineInterval> {
    match shape {
        Shape::Ball(b) if b.radius() <= 0.0 => segment_interval(Vec3::ZERO, Vec3::ZERO, o, d),
        Shape::Ball(b) => sphere_interval(Vec3::ZERO, b.radius(), o, d, frame),
        Shape::Capsule(c) => capsule_interval(c.a(), c.b(), c.radius(), o, d, frame),
        Shape::Cuboid(c) => cuboid_interval(c, o, d, frame),
        Shape::Cylinder(c) => cylinder_interval(c, o, d, frame),
        Shape::Cone(c) => cone_interval(c, o, d, frame),
        Shape::Segment(s) => segment_interval(s.a(), s.b(), o, d),
        Shape::Triangle(t) => {
            let [a, b, c] = *t.vertices();
            triangle_interval(a, b, c, o, d, frame)
        }
        Shape::Polyhedron(p) => polyhedron_interval(p, o, d, frame),
        Shape::HalfSpace(h) => {
            let n = h.normal();
            plane_interval(n, 0.0, o, d)
        }
        Shape::Compound(_) | Shape::TriMesh(_) | Shape::HeightField(_) => None,
    }
}

/// The line against the half-space `n·x <= offset`.
pub(super) fn plane_interval(n: Vec3, offset: f32, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let s0 = n.dot(o) - offset;
    let sd = n.dot(d);
    if sd == 0.0 {
        return (s0 <= 0.0).then_some(EVERYWHERE);
    }
    Some(LineInterval::half(-s0 / sd, n, sd < 0.0))
}

fn sphere_interval(c: Vec3, r: f32, o: Vec3, d: Vec3, f: &Frame) -> Option<LineInterval> {
    let (t0, t1) = line_ball_roots(o - c, d, r, || f.line64(c))?;
    let nrm = |t: f32| (o + d * t - c).normalize_or(-d.normalize_or(Vec3::X));
    Some(LineInterval {
        t_in: t0,
        n_in: nrm(t0),
        t_out: t1,
        n_out: nrm(t1),
    })
}

/// Where the line crosses the solid infinite cylinder of radius `r` around the
/// line through `c` with unit direction `u`: `(-inf, inf)` for a line parallel
/// to the axis inside it.
fn tube_times(c: Vec3, u: Vec3, r: f32, o: Vec3, d: Vec3, f: &Frame) -> Option<(f32, f32)> {
    let m = o - c;
    let mp = m - u * m.dot(u);
    let dp = d - u * d.dot(u);
    if dp.dot(dp) <= REL_EPS * REL_EPS * d.dot(d) {
        // Parallel to the axis.
        return (mp.dot(mp) <= r * r).then_some((f32::NEG_INFINITY, f32::INFINITY));
    }
    // Near tangency the projections too are redone in f64: in f32 each adds
    // its own rounding to the line's offset from the axis.
    line_ball_roots(mp, dp, r, || {
        let (m, d) = f.line64(c);
        let u = u.as_dvec3();
        (m - u * m.dot(u), d - u * d.dot(u))
    })
}

/// The line against a solid infinite cylinder of radius `r` around the line
/// through `c` with unit direction `u`; normals radial.
fn tube_interval(c: Vec3, u: Vec3, r: f32, o: Vec3, d: Vec3, f: &Frame) -> Option<LineInterval> {
    let (t0, t1) = tube_times(c, u, r, o, d, f)?;
    if t0 == f32::NEG_INFINITY {
        return Some(EVERYWHERE);
    }
    let m = o - c;
    let nrm = |t: f32| {
        let q = m + d * t;
        (q - u * q.dot(u)).normalize_or(Vec3::X)
    };
    Some(LineInterval {
        t_in: t0,
        n_in: nrm(t0),
        t_out: t1,
        n_out: nrm(t1),
    })
}

fn capsule_interval(a: Vec3, b: Vec3, r: f32, o: Vec3, d: Vec3, f: &Frame) -> Option<LineInterval> {
    if r <= 0.0 {
        return segment_interval(a, b, o, d);
    }
    // A capsule is the union of its two end balls and the finite cylinder
    // between them; being convex, its line interval is the hull of theirs.
    let mut iv: Option<(f32, f32)> = None;
    let mut add = |(t0, t1): (f32, f32)| {
        iv = Some(iv.map_or((t0, t1), |(s0, s1)| (s0.min(t0), s1.max(t1))));
    };
    if let Some(ts) = line_ball_roots(o - a, d, r, || f.line64(a)) {
        add(ts);
    }
    if let Some(ts) = line_ball_roots(o - b, d, r, || f.line64(b)) {
        add(ts);
    }
    let axis = b - a;
    let len2 = axis.dot(axis);
    if len2 > 0.0 {
        let len = len2.sqrt();
        let u = axis / len;
        if let Some((t0, t1)) = tube_times(a, u, r, o, d, f) {
            // Clipped to the slab 0 <= (x - a)·u <= len.
            let (s0, sd) = ((o - a).dot(u), d.dot(u));
            let slab = if sd == 0.0 {
                (0.0..=len)
                    .contains(&s0)
                    .then_some((f32::NEG_INFINITY, f32::INFINITY))
            } else {
                let (ta, tb) = (-s0 / sd, (len - s0) / sd);
                Some((ta.min(tb), ta.max(tb)))
            };
            if let Some((lo, hi)) = slab {
                let (lo, hi) = (t0.max(lo), t1.min(hi));
                if lo <= hi {
                    add((lo, hi));
                }
            }
        }
    }
    let (t_in, t_out) = iv?;
    // The normal from the point reached, not from the piece whose root came out
    // first: at a cap's rim the roots of the tube and of the end ball tie within
    // their rounding, and the ball's normal at a point on the tube is off by the
    // point's axial distance from the rim over r. The closest point of the core
    // segment decides: inside the segment the normal is radial (the tube), past
    // an end it points from that end (its ball).
    let nrm = |t: f32| {
        let x = o + d * t - a;
        let s = x.dot(axis);
        let c = if s <= 0.0 {
            Vec3::ZERO
        } else if s >= len2 {
            axis
        } else {
            axis * (s / len2)
        };
        (x - c).normalize_or(-d.normalize_or(Vec3::X))
    };
    Some(LineInterval {
        t_in,
        n_in: nrm(t_in),
        t_out,
        n_out: nrm(t_out),
    })
}

fn cylinder_interval(c: &Cylinder, o: Vec3, d: Vec3, f: &Frame) -> Option<LineInterval> {
    let h = c.half_height();
    if c.radius() <= 0.0 {
        return segment_interval(Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0), o, d);
    }
    let tube = tube_interval(Vec3::ZERO, Vec3::Y, c.radius(), o, d, f)?;
    // The caps. A line crossing them at a shallow angle moves its crossing by
    // the rounding of `o.y` (from the f32 move into this frame) times
    // `|d| / |d.y|`; below a slope of 1/16 the caps are crossed in f64.
    if 256.0 * d.y * d.y >= d.dot(d) {
        return tube
            .clip(plane_interval(Vec3::Y, h, o, d)?)?
            .clip(plane_interval(-Vec3::Y, h, o, d)?);
    }
    let (o64, d64) = f.ray64();
    let (oy, dy, h) = (o64.y, d64.y, h as f64);
    let caps = if dy == 0.0 {
        if oy.abs() > h {
            return None;
        }
        EVERYWHERE
    } else {
        // Where the line crosses y = -h and y = h; going up it enters at the
        // bottom.
        let (t_bottom, t_top) = ((-h - oy) / dy, (h - oy) / dy);
        let (bottom, top) = ((t_bottom as f32, -Vec3::Y), (t_top as f32, Vec3::Y));
        let ((t_in, n_in), (t_out, n_out)) = if dy > 0.0 {
            (bottom, top)
        } else {
            (top, bottom)
        };
        LineInterval {
            t_in,
            n_in,
            t_out,
            n_out,
        }
    };
    tube.clip(caps)
}

fn cone_interval(c: &Cone, o: Vec3, d: Vec3, f: &Frame) -> Option<LineInterval> {
    let (h, r) = (c.half_height(), c.radius());
    if r <= 0.0 {
        return segment_interval(Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0), o, d);
    }
    if h <= 0.0 {
        // A disk: the base plane crossing, if within the rim.
        let base = plane_interval(-Vec3::Y, h, o, d)?;
        let top = plane_interval(Vec3::Y, 0.0, o, d)?;
        let iv = base.clip(top)?;
        let t = if iv.t_in.is_finite() { iv.t_in } else { 0.0 };
        let p = o + d * t;
        return (p.x * p.x + p.z * p.z <= r * r * (1.0 + 4.0 * REL_EPS)).then_some(iv);
    }
    let slant = Vec3::new(2.0 * h, r, 0.0).normalize();
    let slant_normal = |t: f32| {
        let p = o + d * t;
        let rho = (p.x * p.x + p.z * p.z).sqrt();
        if rho <= REL_EPS * (h + r) {
            // At the apex the normal is undefined: take the axis.
            return Vec3::Y;
        }
        Vec3::new(p.x / rho, 0.0, p.z / rho) * slant.x + Vec3::Y * slant.y
    };
    // Near tangency the square root amplifies the rounding of the f32 move
    // into this frame: then the nappe is redone from the f64 line. That
    // rounding is a few ulps of the coordinates the move came through.
    let rounding =
        4.0 * f64::from(f32::EPSILON) * f64::from(f.magnitude() + o.abs().max_element() + h + r);
    let (t_in, t_out) = match cone_nappe(h, r, o.as_dvec3(), d.as_dvec3(), Some(rounding)) {
        Some(roots) => roots,
        None => {
            let (o64, d64) = f.ray64();
            cone_nappe(h, r, o64, d64, None)?
        }
    }?;
    let (t_in, t_out) = (t_in as f32, t_out as f32);
    let n = |t: f32| {
        if t.is_finite() {
            slant_normal(t)
        } else {
            Vec3::ZERO
        }
    };
    let nappe = LineInterval {
        t_in,
        n_in: n(t_in),
        t_out,
        n_out: n(t_out),
    };
    // The base, crossed at a shallow angle, moves its crossing by the rounding
    // of `o.y` times `|d| / |d.y|`: below a slope of 1/16 it is crossed in f64
    // (as the cylinder's caps).
    let base = if 256.0 * d.y * d.y >= d.dot(d) {
        plane_interval(-Vec3::Y, h, o, d)?
    } else {
        let (o64, d64) = f.ray64();
        let (oy, dy) = (o64.y, d64.y);
        let h = h as f64;
        if dy == 0.0 {
            if oy < -h {
                return None;
            }
            EVERYWHERE
        } else {
            let t = ((-h - oy) / dy) as f32;
            if dy < 0.0 {
                LineInterval {
                    t_out: t,
                    n_out: -Vec3::Y,
                    ..EVERYWHERE
                }
            } else {
                LineInterval {
                    t_in: t,
                    n_in: -Vec3::Y,
                    ..EVERYWHERE
                }
            }
        }
    };
    nappe.clip(base)
}

/// The line `o + t d` (cone frame, f64) against the solid nappe below the
/// apex: `x² + z² <= k² (h - y)²`, `y <= h`, with `k = r / 2h`. Rays passing
/// near the apex give two nearly equal roots, an ill-conditioned quadratic;
/// it is parametrized from the line's point nearest the apex (`t = t0 + τ`),
/// which keeps the coefficients small. With `m` that point relative to the
/// apex, along the line `f(τ) = A τ² + 2 B τ + C <= 0`.
///
/// The line's stretch `(t_in, t_out)` in the nappe (infinite ends where it is
/// unbounded), `Some(None)` if it misses; `None` (only with `rounding`, the
/// absolute rounding the line's origin carries) when the line is near
/// tangent and should be given again in f64.
///
/// A root moves by the change of `f` there over its slope: the origin's
/// rounding `δ` changes `f(τ)` by up to `|∇F(p)| δ` at the root's point `p`
/// (`F` the cone's function `x² + z² - k² (y - h)²`, `|∇F| <= 2 (ρ + k² |y - h|)`),
/// and the slope is `|f'(τ)| = 2 √disc`: the line is given again when that
/// moves the crossing by more than 1e-6 of the cone's size along it.
fn cone_nappe(
    h: f32,
    r: f32,
    o: DVec3,
    dd: DVec3,
    rounding: Option<f64>,
) -> Option<Option<(f64, f64)>> {
    let ask_f64 = rounding.is_some();
    let k2 = (r as f64 / (2.0 * h as f64)).powi(2);
    let od = o - DVec3::new(0.0, h as f64, 0.0);
    let scale = dd.dot(dd);
    let t0 = -od.dot(dd) / scale;
    let m = od + dd * t0;
    let a = dd.x * dd.x + dd.z * dd.z - k2 * dd.y * dd.y;
    let b = m.x * dd.x + m.z * dd.z - k2 * m.y * dd.y;
    let cc = m.x * m.x + m.z * m.z - k2 * m.y * m.y;
    // Below the apex: y - h = m.y + τ d.y <= 0.
    let below_apex = |tau: f64| m.y + dd.y * tau <= 0.0;
    let (inf, ninf) = (f64::INFINITY, f64::NEG_INFINITY);
    let eps = REL_EPS as f64 * 1e-3;
    if a.abs() <= eps * scale {
        // Parallel to a generator: one crossing where 2 B τ + C = 0.
        if b == 0.0 {
            return Some(None);
        }
        let t = t0 - cc / (2.0 * b);
        // The inside is the side where f < 0, i.e. the sign of -B.
        return Some(Some(if b > 0.0 { (ninf, t) } else { (t, inf) }));
    }
    let disc = b * b - a * cc;
    // An f32 line carries a relative rounding of about 1e-7 into the terms;
    // the discriminant's square root amplifies it when the discriminant is
    // this small against them (a near-tangent graze of the side).
    if ask_f64 && disc.abs() <= 1e-2 * (b * b + (a * cc).abs()) {
        return None;
    }
    // With a < 0 the line is steeper than the generators and always crosses
    // the double cone (a negative discriminant is rounding).
    if a > 0.0 && disc < 0.0 {
        return Some(None);
    }
    let sq = disc.max(0.0).sqrt();
    let q = -(b + sq.copysign(b));
    let (r1, r2) = if q != 0.0 {
        (q / a, cc / q)
    } else {
        (0.0, 0.0)
    };
    let (tau0, tau1) = (r1.min(r2), r1.max(r2));
    if let Some(delta) = rounding {
        let moved = |tau: f64| {
            let p = m + dd * tau;
            let grad = 2.0 * (p.x.hypot(p.z) + k2 * p.y.abs());
            grad * delta / (2.0 * sq) * scale.sqrt()
        };
        let size = 1e-6 * f64::from(h + r);
        if sq > 0.0 && (moved(tau0) > size || moved(tau1) > size) {
            return None;
        }
    }
    Some(Some(if a > 0.0 {
        // Shallower than the generators: f <= 0 between the roots, on one
        // nappe; keep it if that is the lower one.
        if !below_apex(0.5 * (tau0 + tau1)) {
            return Some(None);
        }
        (t0 + tau0, t0 + tau1)
    } else if dd.y > 0.0 {
        // Steeper: f <= 0 outside the roots; going up, the lower nappe is the
        // part before the first root.
        (ninf, t0 + tau0)
    } else {
        (t0 + tau1, inf)
    }))
}

/// The stretch of the line within a scale-relative tolerance of segment `a b`.
///
/// Seen along the line's direction `u`, the segment projects to a 2D segment
/// `a' b'` in the plane through `o` perpendicular to `u`; the line passes
/// within `eps` of the points `a + τ (b - a)` for which `|a' + τ (b' - a')| <= eps`,
/// a quadratic inequality in `τ`. This stays well conditioned when the line
/// runs nearly parallel to the segment (then a whole range of `τ` qualifies and
/// the line interval covers it), unlike a closest-points computation.
fn segment_interval(a: Vec3, b: Vec3, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let dl = d.length();
    if dl == 0.0 {
        return None;
    }
    let u = d / dl;
    let scale = a.abs().max(b.abs()).max(o.abs()).max_element().max(1.0);
    let eps = 10.0 * REL_EPS * scale;
    let (ra, rb) = (a - o, b - o);
    let pa = ra - u * ra.dot(u);
    let e = (rb - u * rb.dot(u)) - pa;
    let qa = e.dot(e);
    let (lo, hi) = if qa <= eps * eps * 1e-6 {
        if pa.length_squared() > eps * eps {
            return None;
        }
        (0.0, 1.0)
    } else {
        // Nearest approach at τ* (the miss vector m computed directly, not as
        // a difference of squares), then the half-width of the band.
        let tau = -pa.dot(e) / qa;
        let m = pa + e * tau;
        let slack = eps * eps - m.length_squared();
        if slack < 0.0 {
            return None;
        }
        let half = (slack / qa).sqrt();
        let (lo, hi) = ((tau - half).max(0.0), (tau + half).min(1.0));
        if lo > hi {
            return None;
        }
        // The tube of radius `eps` decides hit or miss; where the line enters
        // it, though, is `eps / sin θ` before its closest approach, far more
        // than the input rounding moves that approach (`δ / sin θ`, `δ` a
        // few ulps). So the reported stretch is the closest approach widened
        // only by a rounding-sized tube, kept within the band: a single point
        // for a line crossing the segment, the band's start and end for one
        // running along it.
        let round = 4.0 * f32::EPSILON * scale;
        let thin = ((round * round - m.length_squared()).max(0.0) / qa).sqrt();
        ((tau - thin).clamp(lo, hi), (tau + thin).clamp(lo, hi))
    };
    let along = |tau: f32| (ra + (rb - ra) * tau).dot(u) / dl;
    let (ta, tb) = (along(lo), along(hi));
    let ab = b - a;
    let perp = d - ab * (d.dot(ab) / ab.length_squared().max(f32::MIN_POSITIVE));
    let n = (-perp).normalize_or(-u);
    Some(LineInterval {
        t_in: ta.min(tb),
        n_in: n,
        t_out: ta.max(tb),
        n_out: n,
    })
}

/// Möller–Trumbore ("Fast, minimum storage ray/triangle intersection", 1997),
/// two-sided; a line in the triangle's plane is tested against its edges.
fn triangle_interval(
    a: Vec3,
    b: Vec3,
    c: Vec3,
    o: Vec3,
    d: Vec3,
    frame: &Frame,
) -> Option<LineInterval> {
    let e1 = b - a;
    let e2 = c - a;
    let nrm = e1.cross(e2);
    let pvec = d.cross(e2);
    let det = e1.dot(pvec);
    let scale = d.length() * nrm.length();
    let n = nrm.normalize_or(Vec3::ZERO);
    let size = a.abs().max(b.abs()).max(c.abs()).max_element().max(1.0);
    let in_plane = n == Vec3::ZERO || n.dot(o - a).abs() <= 10.0 * REL_EPS * size;
    if (det.abs() <= REL_EPS * scale && in_plane) || nrm.length_squared() == 0.0 {
        // Along the plane (or a zero-area triangle): only edge hits.
        return edge_hull(a, b, c, o, d);
    }
    let n = if n.dot(d) > 0.0 { -n } else { n };
    // A ray at a slope below 1/32 (as for a polyhedron's faces) crosses the
    // plane where rounding over the slope puts it: a sliver 0.01 wide,
    // crossed at 1.8e-5 through its centroid, was missed. Such a ray hits if
    // it passes within the edges' tolerance tube (it then lies that close to
    // the triangle), entering where it first does.
    let shallow = det.abs() < scale / 32.0;
    let graze = || {
        edge_hull(a, b, c, o, d).map(|iv| LineInterval {
            n_in: n,
            n_out: n,
            ..iv
        })
    };
    // The barycentric solve runs in f64: for a grazing ray the crossing time is
    // the rounding error over sin α, which f32 would turn into a hit visibly
    // off the triangle. A shallow ray is taken from the world ray in f64 too:
    // the f32 move into the local frame rounds its origin by about ε times the
    // world coordinates, which at slope 1.6e-6 moved the crossing 0.2 along
    // the ray (soak seed 860508).
    let (o64, d64) = if shallow {
        frame.ray64()
    } else {
        (o.as_dvec3(), d.as_dvec3())
    };
    let a64 = a.as_dvec3();
    let (e1, e2) = (b.as_dvec3() - a64, c.as_dvec3() - a64);
    let pvec = d64.cross(e2);
    let det = e1.dot(pvec);
    let inv = 1.0 / det;
    if !inv.is_finite() {
        return if shallow { graze() } else { None };
    }
    let tvec = o64 - a64;
    let u = tvec.dot(pvec) * inv;
    let tol = 4.0 * REL_EPS as f64;
    let qvec = tvec.cross(e1);
    let v = d64.dot(qvec) * inv;
    if u < -tol || u > 1.0 + tol || v < -tol || u + v > 1.0 + tol {
        return if shallow { graze() } else { None };
    }
    let t = (e2.dot(qvec) * inv) as f32;
    Some(LineInterval::point(t, n))
}

/// The hull of the stretches of the line within the tolerance tube of each
/// edge of triangle `a b c` (see [`segment_interval`]).
fn edge_hull(a: Vec3, b: Vec3, c: Vec3, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let mut out: Option<LineInterval> = None;
    for (p, q) in [(a, b), (b, c), (c, a)] {
        if let Some(iv) = segment_interval(p, q, o, d) {
            out = Some(match out {
                Some(x) => x.hull(iv),
                None => iv,
            });
        }
    }
    out
}
