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

use crate::math::tolerance::REL_EPS;
use crate::math::{Pose3, Vec3};
use crate::query::types::{Ray3, RayHit3};
use crate::shape::d3::{Cone, ConvexPolyhedron, Cuboid, Cylinder, Shape};

/// The first hit of `ray` on the shape with `toi <= max_toi`. With `solid`, a ray
/// starting inside hits at `toi = 0`; without, it hits the boundary from inside.
pub fn ray_cast(
    shape: &Shape,
    pose: &Pose3,
    ray: &Ray3,
    max_toi: f32,
    solid: bool,
) -> Option<RayHit3> {
    debug_assert!(pose.is_finite(), "non-finite pose");
    let o = pose.inverse_transform_point(ray.origin);
    let d = pose.inverse_transform_vector(ray.dir);
    let (toi, n) = local_ray_cast(shape, o, d, max_toi, solid)?;
    Some(RayHit3 {
        toi,
        point: ray.at(toi),
        normal: pose.transform_vector(n),
    })
}

/// Ray cast in the shape's local frame: `(toi, normal)` with the normal local.
pub(super) fn local_ray_cast(
    shape: &Shape,
    o: Vec3,
    d: Vec3,
    max_toi: f32,
    solid: bool,
) -> Option<(f32, Vec3)> {
    if let Shape::Compound(c) = shape {
        let part_hit = |i: usize, limit: f32| {
            let (p, part) = &c.parts()[i];
            let lo = p.inverse_transform_point(o);
            let ld = p.inverse_transform_vector(d);
            local_ray_cast(part, lo, ld, limit, solid).map(|(t, n)| (t, p.transform_vector(n)))
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
    let iv = line_interval(shape, o, d)?;
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

const EVERYWHERE: LineInterval = LineInterval {
    t_in: f32::NEG_INFINITY,
    n_in: Vec3::ZERO,
    t_out: f32::INFINITY,
    n_out: Vec3::ZERO,
};

impl LineInterval {
    /// The intersection with another interval (of a convex piece's constraint).
    fn clip(self, o: LineInterval) -> Option<LineInterval> {
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

/// The line interval of any non-compound shape (local frame).
pub(super) fn line_interval(shape: &Shape, o: Vec3, d: Vec3) -> Option<LineInterval> {
    match shape {
        Shape::Ball(b) if b.radius() <= 0.0 => segment_interval(Vec3::ZERO, Vec3::ZERO, o, d),
        Shape::Ball(b) => sphere_interval(Vec3::ZERO, b.radius(), o, d),
        Shape::Capsule(c) => capsule_interval(c.a(), c.b(), c.radius(), o, d),
        Shape::Cuboid(c) => cuboid_interval(c, o, d),
        Shape::Cylinder(c) => cylinder_interval(c, o, d),
        Shape::Cone(c) => cone_interval(c, o, d),
        Shape::Segment(s) => segment_interval(s.a(), s.b(), o, d),
        Shape::Triangle(t) => {
            let [a, b, c] = *t.vertices();
            triangle_interval(a, b, c, o, d)
        }
        Shape::Polyhedron(p) => polyhedron_interval(p, o, d),
        Shape::HalfSpace(h) => {
            let n = h.normal();
            plane_interval(n, 0.0, o, d)
        }
        Shape::Compound(_) | Shape::TriMesh(_) | Shape::HeightField(_) => None,
    }
}

/// The line against the half-space `n·x <= offset`.
fn plane_interval(n: Vec3, offset: f32, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let s0 = n.dot(o) - offset;
    let sd = n.dot(d);
    if sd == 0.0 {
        return (s0 <= 0.0).then_some(EVERYWHERE);
    }
    let t = -s0 / sd;
    Some(if sd < 0.0 {
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
    })
}

/// Roots of `a t² + 2 b t + c = 0` (smaller first), `None` without real roots.
fn quadratic(a: f32, b: f32, c: f32) -> Option<(f32, f32)> {
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    quadratic_roots(a, b, c, disc)
}

/// The roots of `a t² + 2 b t + c` given its reduced discriminant `b² - a c`
/// (clamped to `>= 0` by the caller).
fn quadratic_roots(a: f32, b: f32, c: f32, disc: f32) -> Option<(f32, f32)> {
    if a == 0.0 {
        return None;
    }
    // Stable form: q = -(b + sign(b) √disc); roots q/a and c/q.
    let sq = disc.sqrt();
    let q = -(b + sq.copysign(b));
    let (r1, r2) = if q != 0.0 { (q / a, c / q) } else { (0.0, 0.0) };
    Some((r1.min(r2), r1.max(r2)))
}

fn sphere_interval(c: Vec3, r: f32, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let m = o - c;
    let (t0, t1) = quadratic(d.dot(d), m.dot(d), m.dot(m) - r * r)?;
    let nrm = |t: f32| (o + d * t - c).normalize_or(-d.normalize_or(Vec3::X));
    Some(LineInterval {
        t_in: t0,
        n_in: nrm(t0),
        t_out: t1,
        n_out: nrm(t1),
    })
}

/// The line against a solid infinite cylinder of radius `r` around the line
/// through `c` with unit direction `u`; normals radial.
fn tube_interval(c: Vec3, u: Vec3, r: f32, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let m = o - c;
    let mp = m - u * m.dot(u);
    let dp = d - u * d.dot(u);
    let a = dp.dot(dp);
    let cc = mp.dot(mp) - r * r;
    if a <= REL_EPS * REL_EPS * d.dot(d) {
        // Parallel to the axis.
        return (cc <= 0.0).then_some(EVERYWHERE);
    }
    let (t0, t1) = quadratic(a, mp.dot(dp), cc)?;
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

fn capsule_interval(a: Vec3, b: Vec3, r: f32, o: Vec3, d: Vec3) -> Option<LineInterval> {
    if r <= 0.0 {
        return segment_interval(a, b, o, d);
    }
    // A capsule is the union of its two end balls and the finite cylinder
    // between them; being convex, its line interval is the hull of theirs.
    let sa = sphere_interval(a, r, o, d);
    let sb = sphere_interval(b, r, o, d);
    let axis = b - a;
    let len = axis.length();
    let cyl = if len > 0.0 {
        let u = axis / len;
        tube_interval(a, u, r, o, d).and_then(|tube| {
            let lo = plane_interval(-u, 0.0, o - a, d)?;
            let hi = plane_interval(u, len, o - a, d)?;
            tube.clip(lo)?.clip(hi)
        })
    } else {
        None
    };
    let mut out: Option<LineInterval> = None;
    for piece in [sa, sb, cyl].into_iter().flatten() {
        out = Some(match out {
            Some(x) => x.hull(piece),
            None => piece,
        });
    }
    if let (Some(mut iv), Some(c)) = (out, cyl) {
        // At a cap rim the cylinder's entry coincides with a sphere's; the
        // cylinder's slab normals would be axial there, so use the radial
        // normal of the tube instead.
        let radial = |t: f32| {
            let q = o + d * t - a;
            let u = axis / len;
            (q - u * q.dot(u)).normalize_or(Vec3::X)
        };
        if iv.t_in == c.t_in {
            iv.n_in = radial(iv.t_in);
        }
        if iv.t_out == c.t_out {
            iv.n_out = radial(iv.t_out);
        }
        out = Some(iv);
    }
    out
}

fn cuboid_interval(c: &Cuboid, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let h = c.half_extents();
    let mut iv = EVERYWHERE;
    for i in 0..3 {
        let mut n = Vec3::ZERO;
        n[i] = 1.0;
        iv = iv.clip(plane_interval(n, h[i], o, d)?)?;
        iv = iv.clip(plane_interval(-n, h[i], o, d)?)?;
    }
    Some(iv)
}

fn cylinder_interval(c: &Cylinder, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let h = c.half_height();
    if c.radius() <= 0.0 {
        return segment_interval(Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0), o, d);
    }
    let tube = tube_interval(Vec3::ZERO, Vec3::Y, c.radius(), o, d)?;
    tube.clip(plane_interval(Vec3::Y, h, o, d)?)?
        .clip(plane_interval(-Vec3::Y, h, o, d)?)
}

fn cone_interval(c: &Cone, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let (h, r) = (c.half_height(), c.radius());
    if r <= 0.0 {
        return segment_interval(Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0), o, d);
    }
    let base = plane_interval(-Vec3::Y, h, o, d)?;
    if h <= 0.0 {
        // A disk: the base plane crossing, if within the rim.
        let top = plane_interval(Vec3::Y, 0.0, o, d)?;
        let iv = base.clip(top)?;
        let t = if iv.t_in.is_finite() { iv.t_in } else { 0.0 };
        let p = o + d * t;
        return (p.x * p.x + p.z * p.z <= r * r * (1.0 + 4.0 * REL_EPS)).then_some(iv);
    }
    // The solid nappe below the apex: x² + z² <= k² (h - y)², y <= h, with
    // k = r / 2h. Rays passing near the apex give two nearly equal roots, an
    // ill-conditioned quadratic; it is solved in f64 and parametrized from the
    // line's point nearest the apex (t = t0 + τ), which keeps the coefficients
    // small. With m that point relative to the apex, along the line
    // f(τ) = A τ² + 2 B τ + C <= 0.
    let k2 = (r as f64 / (2.0 * h as f64)).powi(2);
    let dd = d.as_dvec3();
    let od = o.as_dvec3() - glam::DVec3::new(0.0, h as f64, 0.0);
    let t0 = -od.dot(dd) / dd.dot(dd);
    let m = od + dd * t0;
    let a = dd.x * dd.x + dd.z * dd.z - k2 * dd.y * dd.y;
    let b = m.x * dd.x + m.z * dd.z - k2 * m.y * dd.y;
    let cc = m.x * m.x + m.z * m.z - k2 * m.y * m.y;
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
    // Below the apex: y - h = m.y + τ d.y <= 0.
    let below_apex = |tau: f64| m.y + dd.y * tau <= 0.0;
    let to_t = |tau: f64| (t0 + tau) as f32;
    let scale = dd.dot(dd);
    let eps = REL_EPS as f64 * 1e-3;
    let nappe = if a.abs() <= eps * scale {
        // Parallel to a generator: one crossing where 2 B τ + C = 0.
        if b == 0.0 {
            return None;
        }
        let t = to_t(-cc / (2.0 * b));
        // The inside is the side where f < 0, i.e. the sign of -B.
        if b > 0.0 {
            LineInterval {
                t_out: t,
                n_out: slant_normal(t),
                ..EVERYWHERE
            }
        } else {
            LineInterval {
                t_in: t,
                n_in: slant_normal(t),
                ..EVERYWHERE
            }
        }
    } else {
        // With a < 0 the line is steeper than the generators and always
        // crosses the double cone (a negative discriminant is rounding).
        let disc = b * b - a * cc;
        if a > 0.0 && disc < 0.0 {
            return None;
        }
        let sq = disc.max(0.0).sqrt();
        let q = -(b + sq.copysign(b));
        let (r1, r2) = if q != 0.0 {
            (q / a, cc / q)
        } else {
            (0.0, 0.0)
        };
        let (tau0, tau1) = (r1.min(r2), r1.max(r2));
        let (t_a, t_b) = (to_t(tau0), to_t(tau1));
        if a > 0.0 {
            // Shallower than the generators: f <= 0 between the roots, on one
            // nappe; keep it if that is the lower one.
            if !below_apex(0.5 * (tau0 + tau1)) {
                return None;
            }
            LineInterval {
                t_in: t_a,
                n_in: slant_normal(t_a),
                t_out: t_b,
                n_out: slant_normal(t_b),
            }
        } else if d.y > 0.0 {
            // Steeper: f <= 0 outside the roots; going up, the lower nappe is
            // the part before the first root.
            LineInterval {
                t_out: t_a,
                n_out: slant_normal(t_a),
                ..EVERYWHERE
            }
        } else {
            LineInterval {
                t_in: t_b,
                n_in: slant_normal(t_b),
                ..EVERYWHERE
            }
        }
    };
    nappe.clip(base)
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
        (lo, hi)
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
fn triangle_interval(a: Vec3, b: Vec3, c: Vec3, o: Vec3, d: Vec3) -> Option<LineInterval> {
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
        let mut out: Option<LineInterval> = None;
        for (p, q) in [(a, b), (b, c), (c, a)] {
            if let Some(iv) = segment_interval(p, q, o, d) {
                out = Some(match out {
                    Some(x) => x.hull(iv),
                    None => iv,
                });
            }
        }
        return out;
    }
    // The barycentric solve runs in f64: for a grazing ray the crossing time is
    // the rounding error over sin α, which f32 would turn into a hit visibly
    // off the triangle.
    let (a64, d64) = (a.as_dvec3(), d.as_dvec3());
    let (e1, e2) = (b.as_dvec3() - a64, c.as_dvec3() - a64);
    let pvec = d64.cross(e2);
    let det = e1.dot(pvec);
    let inv = 1.0 / det;
    if !inv.is_finite() {
        return None;
    }
    let tvec = o.as_dvec3() - a64;
    let u = tvec.dot(pvec) * inv;
    let tol = 4.0 * REL_EPS as f64;
    if u < -tol || u > 1.0 + tol {
        return None;
    }
    let qvec = tvec.cross(e1);
    let v = d64.dot(qvec) * inv;
    if v < -tol || u + v > 1.0 + tol {
        return None;
    }
    let t = (e2.dot(qvec) * inv) as f32;
    let n = if n.dot(d) > 0.0 { -n } else { n };
    Some(LineInterval::point(t, n))
}

/// Cyrus–Beck clipping of the line against every face plane.
fn polyhedron_interval(p: &ConvexPolyhedron, o: Vec3, d: Vec3) -> Option<LineInterval> {
    let mut iv = EVERYWHERE;
    for f in p.faces() {
        iv = iv.clip(plane_interval(f.normal, f.offset, o, d)?)?;
    }
    Some(iv)
}
