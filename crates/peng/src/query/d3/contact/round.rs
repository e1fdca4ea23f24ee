//! Pairs of round shapes built on a point or a segment core: balls, capsules
//! and segments (a ball is a capsule whose core is a point; a segment is a
//! capsule of radius zero).

use super::project::Proj;
use crate::math::tolerance::{ANGULAR_SLOP, ZERO_LENGTH_SQ};
use crate::math::{Pose3, Vec3};
use crate::query::types::{ContactId, ContactPoint3, Feature, Manifold3};
use crate::shape::d3::Capsule;
use glam::Vec3A;

/// A core segment (a point when both ends coincide) and a radius.
#[derive(Debug, Clone, Copy)]
pub(super) struct Core {
    /// First end.
    pub a: Vec3,
    /// Second end.
    pub b: Vec3,
    /// Radius around the core.
    pub r: f32,
}

/// The feature of a core at parameter `t`: vertex 0, vertex 1, or edge 0
/// (a point core, `point_core`, is vertex 0).
#[inline]
pub(super) fn core_feature(point_core: bool, t: f32) -> Feature {
    if point_core || t <= 0.0 {
        Feature::vertex(0)
    } else if t >= 1.0 {
        Feature::vertex(1)
    } else {
        Feature::edge(0)
    }
}

/// The contact of two cores (both in A's frame): one point from the closest
/// points, or two when the cores are parallel and overlap along their length.
pub(super) fn cores_contact(ca: &Core, cb: &Core, prediction: f32) -> Option<Manifold3> {
    cores_contact_shifted(&CoreA::of(ca), &CoreA::of(cb), prediction, Vec3A::ZERO)
}

/// A [`Core`] in glam's SIMD vector type: the closest-point arithmetic below
/// runs in one register per vector (each operation and each dot product in
/// the same order as with [`Vec3`], so the same values).
#[derive(Clone, Copy)]
struct CoreA {
    a: Vec3A,
    b: Vec3A,
    r: f32,
}

impl CoreA {
    #[inline(always)]
    fn of(c: &Core) -> Self {
        CoreA {
            a: c.a.into(),
            b: c.b.into(),
            r: c.r,
        }
    }
}

/// Parameters `(s, t)` in `[0, 1]` of the closest points of two segments
/// `p1 + s·d1` and `p2 + t·d2` from their dot products: `a = d1·d1`,
/// `e = d2·d2`, `b = d1·d2`, `c = d1·r`, `f = d2·r` and `r2 = r·r` with
/// `r = p1 - p2` (Ericson, Real-Time Collision Detection, 5.1.9), and the
/// ends `[p1, q1, p2, q2]` for nearly parallel segments. The same code as
/// `sat::closest::segment_segment`, so the same answer; the caller computes
/// the products once and reuses them (lengths, parallelism).
#[inline(always)]
fn closest_params(a: f32, e: f32, b: f32, c: f32, f: f32, r2: f32, ends: [Vec3A; 4]) -> (f32, f32) {
    use crate::query::sat::closest::{near_parallel_s, params_from_dots};
    params_from_dots(a, e, b, c, f, r2, || {
        let [p1, q1, p2, q2] = ends.map(|v| v.to_array());
        near_parallel_s(p1, q1, p2, q2)
    })
}

/// [`cores_contact`] with `shift` added to every contact point (the manifold
/// built in place in its final frame, no copy to shift it afterwards). The
/// points are decided first and the manifold is built once at the end, so it
/// is written straight into the returned value.
#[inline(always)]
fn cores_contact_shifted(
    ca: &CoreA,
    cb: &CoreA,
    prediction: f32,
    shift: Vec3A,
) -> Option<Manifold3> {
    let da = ca.b - ca.a;
    let db = cb.b - cb.a;
    let r = ca.a - cb.a;
    let la2 = da.length_squared();
    let lb2 = db.length_squared();
    let (s, t) = closest_params(
        la2,
        lb2,
        da.dot(db),
        da.dot(r),
        db.dot(r),
        r.length_squared(),
        [ca.a, ca.b, cb.a, cb.b],
    );
    let pa = ca.a + da * s;
    let pb = cb.a + db * t;
    let gap = pb - pa;
    let dist = gap.length();
    let rr = ca.r + cb.r;
    if dist - rr > prediction || dist.is_nan() {
        return None;
    }
    let cross = da.cross(db);
    let cross2 = cross.length_squared();
    // Below a few ulps of the coordinates the gap's direction is rounding noise.
    let eps = crate::math::tolerance::REL_EPS * (pa.abs().max_element() + pb.abs().max_element());
    let crossing = cross2 > 1e-8 * la2 * lb2 && s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0;
    let normal = if crossing && dist > eps {
        // Closest points inside both cores: the gap is along the common
        // perpendicular, which the cross product gives to full precision even
        // when the gap is tiny.
        let n = cross * (1.0 / cross2.sqrt());
        if n.dot(gap) < 0.0 {
            -n
        } else {
            n
        }
    } else if dist > eps && dist * dist > ZERO_LENGTH_SQ {
        off_edge_normal(gap, dist, (da, la2, s), (db, lb2, t))
    } else if cross2 > ZERO_LENGTH_SQ * la2.max(1.0) {
        // Crossing cores: the MTD is normal to both (the Minkowski difference
        // of the cores is flat there). Orient it from A's middle to B's.
        let n = cross * (1.0 / cross2.sqrt());
        let mid = (cb.a + cb.b - ca.a - ca.b) * 0.5;
        if n.dot(mid) < 0.0 {
            -n
        } else {
            n
        }
    } else if la2 > ZERO_LENGTH_SQ {
        Vec3::from(da).normalize().any_orthonormal_vector().into()
    } else if lb2 > ZERO_LENGTH_SQ {
        Vec3::from(db).normalize().any_orthonormal_vector().into()
    } else {
        Vec3A::X
    };
    let point = |xa: Vec3A, xb: Vec3A, fa: Feature, fb: Feature| ContactPoint3 {
        point_a: (xa + normal * ca.r + shift).into(),
        point_b: (xb - normal * cb.r + shift).into(),
        depth: rr - (xb - xa).dot(normal),
        id: ContactId::new(fa, fb),
    };
    let (pta, ptb) = (la2 <= ZERO_LENGTH_SQ, lb2 <= ZERO_LENGTH_SQ);
    // Parallel cores overlapping along A: two points at the overlap's ends
    // (B's ends projected on A's line, clipped to A), when both are kept.
    let parallel = !pta && !ptb && cross2 <= (ANGULAR_SLOP * ANGULAR_SLOP) * la2 * lb2;
    if parallel {
        let ta = (cb.a - ca.a).dot(da) / la2;
        let tb = (cb.b - ca.a).dot(da) / la2;
        let lo = ta.min(tb).max(0.0);
        let hi = ta.max(tb).min(1.0);
        if (hi - lo) * la2.sqrt() > 1e-5 * la2.sqrt().max(1.0) {
            let k = da.dot(db);
            let across = s > 0.0 && s < 1.0 && k.abs() > 0.5 * (la2 * lb2).sqrt();
            let end = |t0: f32| {
                let xa = ca.a + da * t0;
                // B's point paired with `xa`. When the closest point is
                // inside A's core the normal is perpendicular to A: B's point
                // straight across A's direction (its projection on A's line
                // is `xa`; `da·db` is near `|da||db|` here). Otherwise B's
                // point closest to `xa` (as `sat::closest::point_segment`).
                // Either way the pair leaves the normal line through `xa`
                // sideways only by the cores' skew: up to the overlap's
                // length times the angle (2°). (B's closest point with the
                // normal perpendicular to A alone would add the distance
                // between the cores times the angle; soak seed 860370.)
                let u = if lb2 <= 1e-20 {
                    0.0
                } else if across {
                    ((xa - cb.a).dot(da) / k).clamp(0.0, 1.0)
                } else {
                    ((xa - cb.a).dot(db) / lb2).clamp(0.0, 1.0)
                };
                // Each point stays on its own surface (a point pulled onto
                // the normal line would leave a segment's core); its part
                // along the normal is the depth.
                let xb = cb.a + db * u;
                point(xa, xb, core_feature(pta, t0), core_feature(ptb, u))
            };
            let (p0, p1) = (end(lo), end(hi));
            if p0.depth >= -prediction && p1.depth >= -prediction {
                let mut m = Manifold3::new(normal.into());
                m.push(p0);
                m.push(p1);
                return Some(m);
            }
        }
    }
    let p = point(pa, pb, core_feature(pta, s), core_feature(ptb, t));
    if p.depth >= -prediction {
        let mut m = Manifold3::new(normal.into());
        m.push(p);
        Some(m)
    } else {
        None
    }
}

/// The unit direction of `gap` (length `dist`) between closest points at
/// parameters `s` on core A and `t` on core B, each given as `(direction,
/// squared length, parameter)`.
///
/// When one closest point is inside its core (an edge) the true gap is
/// normal to that core, and the separation of the shapes along a direction
/// tilted by `θ` towards the core falls by about `θ` times the core's length
/// (its support function has a kink there). The f32 difference of two nearly
/// equal points has an error of a few ulps of the coordinates in every
/// direction, `θ ≈ 1e-7·scale / dist`: for a gap much shorter than the cores
/// the component along the core is removed (`gap − d (gap·d) / |d|²`, exact to
/// f32 rounding of `|gap|`). What error is left is across the core, where the
/// separation is flat to first order. Longer gaps keep `gap / dist`.
#[inline(always)]
pub(in crate::query::d3) fn off_edge_normal(
    gap: Vec3A,
    dist: f32,
    (da, la2, s): (Vec3A, f32, f32),
    (db, lb2, t): (Vec3A, f32, f32),
) -> Vec3A {
    let n = gap / dist;
    if dist * dist >= 1e-2 * la2.max(lb2) {
        return n;
    }
    let (d, l2) = if s > 0.0 && s < 1.0 {
        (da, la2)
    } else if t > 0.0 && t < 1.0 {
        (db, lb2)
    } else {
        return n;
    };
    let g = gap - d * (gap.dot(d) / l2);
    let gl = g.length();
    if gl > 0.5 * dist {
        g / gl
    } else {
        n
    }
}

/// The contact of a ball (radius `r`, centred on A's origin) with a shape B
/// whose surface projection of the centre is `proj` (B's frame).
pub(super) fn ball_contact(
    r: f32,
    proj: &Proj,
    b_in_a: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    let depth = r - proj.dist;
    if depth < -prediction || depth.is_nan() {
        return None;
    }
    // B's normal points to the centre (or out of B when the centre is inside);
    // the contact normal runs from A (the ball) to B.
    let n = -b_in_a.transform_vector(proj.normal);
    let mut m = Manifold3::new(n);
    m.push(ContactPoint3 {
        point_a: n * r,
        point_b: b_in_a.transform_point(proj.point),
        depth,
        id: ContactId::new(Feature::vertex(0), proj.feature),
    });
    Some(m)
}

/// Ball (radius `r`, centre `centre` in world space) against a cuboid of
/// half-extents `h` at `pose_b`: the closed form of clamping the centre to the
/// box (Ericson, Real-Time Collision Detection, 5.1.3), in world space. The
/// same answer as projecting the centre with [`super::project::cuboid`] and
/// building the contact with [`ball_contact`], without the generic projection
/// and the manifold mapped between frames.
///
/// Outside the box the closest point is the clamped centre; its feature is the
/// face, edge or vertex of the axes that were clamped (one, two or three).
/// Inside, the ball leaves through the nearest face (ties to the lowest axis).
pub(super) fn ball_cuboid_world(
    r: f32,
    centre: Vec3,
    h: Vec3,
    pose_b: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    let c = pose_b.inverse_transform_point(centre);
    let hi = c.cmpgt(h).bitmask();
    let lo = c.cmplt(-h).bitmask();
    let clamped = hi | lo;
    let (q, n, dist, feature) = if clamped != 0 {
        let q = c.clamp(-h, h);
        // Vertex id: bit k set when q[k] >= 0.
        let vid = q.cmpge(Vec3::ZERO).bitmask() as usize;
        let (n, dist, feature) = match clamped.count_ones() {
            1 => {
                // Face region: the face normal, exact even for a tiny gap.
                let k = clamped.trailing_zeros() as usize;
                let mut n = Vec3::ZERO;
                n[k] = c[k].signum();
                let (_, l) = outward(c, q);
                (n, l, Feature::face(2 * k + (c[k] > 0.0) as usize))
            }
            2 => {
                let free = (!clamped & 0b111).trailing_zeros() as usize;
                let (u, x) = ((free + 1) % 3, (free + 2) % 3);
                let (n, l) = outward(c, q);
                let e = 4 * free + ((vid >> u) & 1) + (((vid >> x) & 1) << 1);
                (n, l, Feature::edge(e))
            }
            _ => {
                let (n, l) = outward(c, q);
                (n, l, Feature::vertex(vid))
            }
        };
        (q, n, dist, feature)
    } else {
        let pen = h - c.abs();
        let k = if pen.x <= pen.y && pen.x <= pen.z {
            0
        } else if pen.y <= pen.z {
            1
        } else {
            2
        };
        let positive = c[k] >= 0.0;
        let mut n = Vec3::ZERO;
        n[k] = if positive { 1.0 } else { -1.0 };
        let mut q = c;
        q[k] = n[k] * h[k];
        (q, n, -pen[k], Feature::face(2 * k + positive as usize))
    };
    let depth = r - dist;
    if depth < -prediction || depth.is_nan() {
        return None;
    }
    // The box's normal points to the centre; the contact normal runs from
    // the ball (A) to the box (B).
    let normal = -pose_b.transform_vector(n);
    let mut m = Manifold3::new(normal);
    m.push(ContactPoint3 {
        point_a: centre + normal * r,
        point_b: pose_b.transform_point(q),
        depth,
        id: ContactId::new(Feature::vertex(0), feature),
    });
    Some(m)
}

/// `(c - q)` normalized with its length; `+x` and 0 when `c == q` (within a
/// few ulps of the coordinates), as [`super::project`] does.
#[inline]
fn outward(c: Vec3, q: Vec3) -> (Vec3, f32) {
    let d = c - q;
    let l = d.length();
    let eps = crate::math::tolerance::REL_EPS * (c.abs().max_element() + q.abs().max_element());
    if l > eps && l * l > ZERO_LENGTH_SQ {
        (d / l, l)
    } else {
        (Vec3::X, 0.0)
    }
}

/// A unit quaternion split for rotating vectors: vector part `u`, scalar
/// part `w` in every lane.
#[derive(Clone, Copy)]
struct Rotor {
    u: Vec3A,
    w: Vec3A,
}

impl Rotor {
    #[inline(always)]
    fn of(pose: &Pose3) -> Self {
        let q = glam::Vec4::from(pose.rotation);
        Rotor {
            u: Vec3A::from_vec4(q),
            w: Vec3A::splat(q.w),
        }
    }

    /// The rotated vector. Expanding `q v q*` for a unit `q = (u, w)` gives
    /// `v + 2w (u × v) + 2 u × (u × v)`; with `t = 2 u × v` that is
    /// `v + w t + u × t`: two cross products, no dot products (the form in
    /// F. Giesen, "Rotating vectors by quaternions", 2015).
    #[inline(always)]
    fn apply(self, v: Vec3A) -> Vec3A {
        let t = self.u.cross(v);
        let t = t + t;
        v + self.w * t + self.u.cross(t)
    }
}

/// Two capsules at world poses: [`cores_contact`] on the cores expressed in a
/// frame with world axes and its origin at A's position. Only the two
/// rotations are applied to the core ends (B's shifted by the difference of
/// the translations, one rounding step as for a relative pose), and the
/// result needs only a translation back to world space: cheaper than the
/// relative pose plus mapping the manifold, with the same precision far from
/// the origin.
#[inline]
pub(super) fn capsules_world(
    ca: &Capsule,
    pose_a: &Pose3,
    cb: &Capsule,
    pose_b: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    let t = Vec3A::from(pose_b.translation - pose_a.translation);
    let (ra, rb) = (Rotor::of(pose_a), Rotor::of(pose_b));
    let a = CoreA {
        a: ra.apply(ca.a().into()),
        b: ra.apply(ca.b().into()),
        r: ca.radius(),
    };
    let b = CoreA {
        a: rb.apply(cb.a().into()) + t,
        b: rb.apply(cb.b().into()) + t,
        r: cb.radius(),
    };
    cores_contact_shifted(&a, &b, prediction, pose_a.translation.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Quat;
    use crate::shape::d3::{Cuboid, Shape};

    /// A small xorshift generator: values in `[-1, 1)`.
    struct Rng(u32);
    impl Rng {
        fn f(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            (self.0 >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        }
        fn v(&mut self, s: f32) -> Vec3 {
            Vec3::new(self.f(), self.f(), self.f()) * s
        }
        fn pose(&mut self, s: f32) -> Pose3 {
            let q = Quat::from_xyzw(self.f(), self.f(), self.f(), self.f() + 1.5);
            Pose3::new(self.v(s), q)
        }
    }

    /// The generic path: project the centre on the box in B's frame, build the
    /// contact there and map it to world space (as `ordered_world` did).
    fn generic_ball_cuboid(
        r: f32,
        pose_a: &Pose3,
        h: Vec3,
        pose_b: &Pose3,
        prediction: f32,
    ) -> Option<Manifold3> {
        let shape = Shape::Cuboid(Cuboid::new(h).expect("box"));
        let c = pose_b.inverse_transform_point(pose_a.translation);
        let p = super::super::project::project(&shape, c)?;
        let m = ball_contact(r, &p, &Pose3::IDENTITY, prediction)?;
        let mut w = m;
        let n = pose_b.transform_vector(m.normal);
        w.normal = n;
        for q in w.points_mut() {
            q.point_b = pose_b.transform_point(q.point_b);
            q.point_a = pose_a.translation + n * r;
        }
        Some(w)
    }

    #[test]
    fn closest_params_is_segment_segment_bit_for_bit() {
        use crate::query::sat::closest::segment_segment;
        let mut g = Rng(0x5eed_0001);
        for i in 0..4000 {
            let mut p = [g.v(2.0), g.v(2.0), g.v(2.0), g.v(2.0)];
            // Points, parallel and collinear pairs among them.
            match i % 8 {
                0 => p[1] = p[0],
                1 => p[3] = p[2],
                2 => p[3] = p[2] + (p[1] - p[0]) * 0.7,
                3 => {
                    p[2] = p[0] + (p[1] - p[0]) * 0.3;
                    p[3] = p[0] + (p[1] - p[0]) * 1.4;
                }
                4 => (p[1], p[3]) = (p[0], p[2]),
                _ => {}
            }
            let (d1, d2, r) = (p[1] - p[0], p[3] - p[2], p[0] - p[2]);
            let ours = closest_params(
                d1.length_squared(),
                d2.length_squared(),
                d1.dot(d2),
                d1.dot(r),
                d2.dot(r),
                r.length_squared(),
                p.map(Vec3A::from),
            );
            let theirs = segment_segment(p[0], p[1], p[2], p[3]);
            assert_eq!(ours.0.to_bits(), theirs.0.to_bits(), "case {i}");
            assert_eq!(ours.1.to_bits(), theirs.1.to_bits(), "case {i}");
        }
    }

    #[test]
    fn rotor_is_the_quaternion_rotation() {
        let mut g = Rng(0x0bad_cafe);
        for _ in 0..1000 {
            let pose = g.pose(1.0);
            let v = g.v(10.0);
            let r = Rotor::of(&pose).apply(v.into());
            let q = pose.rotation * v;
            assert!((Vec3::from(r) - q).length() <= 1e-5 * v.length().max(1.0));
        }
    }

    #[test]
    fn ball_cuboid_closed_form_is_the_generic_projection() {
        let mut g = Rng(0x9e37_79b9);
        let mut hits = 0;
        for i in 0..4000 {
            let h = g.v(1.0).abs() + Vec3::splat(0.05);
            // Some boxes flat (a zero half-extent is a rectangle).
            let h = if i % 50 == 0 {
                h * Vec3::new(1.0, 0.0, 1.0)
            } else {
                h
            };
            let r = if i % 40 == 0 { 0.0 } else { g.f().abs() * 0.8 };
            let pose_b = g.pose(3.0);
            let pose_a = Pose3::new(pose_b.transform_point(g.v(2.0)), Quat::IDENTITY);
            let fast = ball_cuboid_world(r, pose_a.translation, h, &pose_b, 0.01);
            let slow = generic_ball_cuboid(r, &pose_a, h, &pose_b, 0.01);
            assert_eq!(fast, slow, "case {i}");
            hits += fast.is_some() as usize;
        }
        assert!(hits > 300, "{hits}");
    }

    #[test]
    fn ball_cuboid_degenerate_centres() {
        let h = Vec3::new(1.0, 2.0, 3.0);
        let pose_b = Pose3::IDENTITY;
        let m = |c: Vec3| ball_cuboid_world(0.5, c, h, &pose_b, 0.0).expect("touching");
        // At the box centre: leave through the nearest face (+x, depth 1.5).
        let c0 = m(Vec3::ZERO);
        assert_eq!(c0.normal, -Vec3::X);
        assert!((c0.points()[0].depth - 1.5).abs() < 1e-6);
        assert_eq!(c0.points()[0].point_b, Vec3::new(1.0, 0.0, 0.0));
        // Exactly on a face, an edge, a corner: depth = radius, the point
        // itself on the surface, a unit normal.
        for c in [
            Vec3::new(1.0, 0.3, -0.2),
            Vec3::new(1.0, 2.0, 0.5),
            Vec3::new(-1.0, 2.0, -3.0),
        ] {
            let k = m(c);
            assert!((k.points()[0].depth - 0.5).abs() < 1e-6, "{c}");
            assert!((k.points()[0].point_b - c).length() < 1e-6, "{c}");
            assert!((k.normal.length() - 1.0).abs() < 1e-6, "{c}");
            assert_eq!(
                Some(k),
                generic_ball_cuboid(0.5, &Pose3::from_translation(c), h, &pose_b, 0.0)
            );
        }
        // Zero radius just outside a face: no contact unless predicted.
        let c = Vec3::new(1.001, 0.0, 0.0);
        assert!(ball_cuboid_world(0.0, c, h, &pose_b, 0.0).is_none());
        let k = ball_cuboid_world(0.0, c, h, &pose_b, 0.01).expect("predicted");
        assert!((k.points()[0].depth + 0.001).abs() < 1e-6);
        assert_eq!(k.normal, -Vec3::X);
    }

    /// The generic path for two capsules: cores in A's frame, then the
    /// manifold mapped to world space.
    fn generic_capsules(
        ca: &Capsule,
        pa: &Pose3,
        cb: &Capsule,
        pb: &Pose3,
        prediction: f32,
    ) -> Option<Manifold3> {
        let rel = pa.inv_mul(pb);
        let a = Core {
            a: ca.a(),
            b: ca.b(),
            r: ca.radius(),
        };
        let b = Core {
            a: rel.transform_point(cb.a()),
            b: rel.transform_point(cb.b()),
            r: cb.radius(),
        };
        let mut m = cores_contact(&a, &b, prediction)?;
        m.normal = pa.transform_vector(m.normal);
        for p in m.points_mut() {
            p.point_a = pa.transform_point(p.point_a);
            p.point_b = pa.transform_point(p.point_b);
        }
        Some(m)
    }

    fn close(x: &Manifold3, y: &Manifold3, tol: f32) -> bool {
        x.len() == y.len()
            && (x.normal - y.normal).length() <= tol
            && x.points().iter().zip(y.points()).all(|(p, q)| {
                p.id == q.id
                    && (p.depth - q.depth).abs() <= tol
                    && (p.point_a - q.point_a).length() <= tol
                    && (p.point_b - q.point_b).length() <= tol
            })
    }

    #[test]
    fn capsules_world_agrees_with_the_relative_frame() {
        let mut g = Rng(0x1234_abcd);
        let mut hits = 0;
        for i in 0..4000 {
            let cap = |g: &mut Rng| {
                let c = g.v(0.2);
                let d = g.v(1.0);
                Capsule::new(c - d, c + d, g.f().abs()).expect("capsule")
            };
            let (ca, cb) = (cap(&mut g), cap(&mut g));
            let pa = g.pose(5.0);
            let pb = Pose3::new(pa.translation + g.v(2.0), g.pose(1.0).rotation);
            let fast = capsules_world(&ca, &pa, &cb, &pb, 0.01);
            let slow = generic_capsules(&ca, &pa, &cb, &pb, 0.01);
            match (fast, slow) {
                (Some(x), Some(y)) => {
                    assert!(close(&x, &y, 2e-5), "case {i}: {x:?} vs {y:?}");
                    hits += 1;
                }
                (None, None) => {}
                // Within rounding of the prediction band.
                (x, y) => {
                    let d = x.or(y).map(|m| m.depth()).unwrap_or(0.0);
                    assert!((d + 0.01).abs() < 1e-5, "case {i}: {x:?} vs {y:?}");
                }
            }
        }
        assert!(hits > 500, "{hits}");
    }

    #[test]
    fn capsules_parallel_coincident_and_zero_radius() {
        let id = Pose3::IDENTITY;
        let cap = |a: Vec3, b: Vec3, r: f32| Capsule::new(a, b, r).expect("capsule");
        // Parallel, overlapping along their length: two points at the ends of
        // the overlap, depth 0.5 each, normal +y.
        let a = cap(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.5);
        let b = cap(Vec3::new(0.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 0.0), 0.5);
        let pb = Pose3::from_translation(Vec3::new(0.0, 0.5, 0.0));
        let m = capsules_world(&a, &id, &b, &pb, 0.0).expect("overlap");
        assert_eq!(m.len(), 2);
        assert!((m.normal - Vec3::Y).length() < 1e-6);
        for p in m.points() {
            assert!((p.depth - 0.5).abs() < 1e-6);
        }
        // Coincident cores: some unit normal, depth = r_a + r_b, no panic.
        let m = capsules_world(&a, &id, &a, &id, 0.0).expect("overlap");
        assert!((m.normal.length() - 1.0).abs() < 1e-6);
        assert!((m.depth() - 1.0).abs() < 1e-6);
        // Zero radii: segments crossing at right angles touch with depth 0.
        let s = cap(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 0.0);
        let t = cap(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 0.0);
        let m = capsules_world(&s, &id, &t, &id, 0.0).expect("touching");
        assert!(m.depth().abs() < 1e-6);
        assert!((m.normal.z.abs() - 1.0).abs() < 1e-6);
        // Far from the origin, the same answer as at the origin.
        let far = Pose3::from_translation(Vec3::splat(1.0e4));
        let pb_far = Pose3::from_translation(Vec3::splat(1.0e4) + Vec3::new(0.0, 0.5, 0.0));
        let m0 = capsules_world(&a, &id, &b, &pb, 0.0).expect("overlap");
        let m1 = capsules_world(&a, &far, &b, &pb_far, 0.0).expect("overlap");
        assert_eq!(m0.len(), m1.len());
        assert!((m0.depth() - m1.depth()).abs() < 1e-6);
    }
}
