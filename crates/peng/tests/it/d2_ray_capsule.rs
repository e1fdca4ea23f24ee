//! Ray casts against 2D capsules near the junction of a side and an end cap,
//! checked against the analytic hit and normal computed in f64.
//!
//! At the junction the side's and the cap's hit times tie within rounding;
//! the normal must still be the exact surface normal at the hit point (the
//! side normal when the core's closest point is inside the segment), not the
//! normal of an arc point hidden inside the side's band.

use peng::d2::*;

type V = (f64, f64);

fn sub(a: V, b: V) -> V {
    (a.0 - b.0, a.1 - b.1)
}
fn dot(a: V, b: V) -> f64 {
    a.0 * b.0 + a.1 * b.1
}
fn v64(v: Vec2) -> V {
    (v.x as f64, v.y as f64)
}

/// Exact (f64) entry of the ray `o + t d` into the capsule `a b r`, all in the
/// capsule's frame: `(t, normal)`.
fn reference(o: V, d: V, a: V, b: V, r: f64) -> Option<(f64, V)> {
    let mut best: Option<(f64, V)> = None;
    let mut take = |t: f64, n: V| {
        if t >= 0.0 && best.is_none_or(|(bt, _)| t < bt) {
            best = Some((t, n));
        }
    };
    // End caps (Ericson 5.3.2).
    for c in [a, b] {
        let m = sub(o, c);
        let (qa, qb, qc) = (dot(d, d), dot(m, d), dot(m, m) - r * r);
        let disc = qb * qb - qa * qc;
        if disc >= 0.0 {
            let t = (-qb - disc.sqrt()) / qa;
            let x = (o.0 + d.0 * t, o.1 + d.1 * t);
            let n = sub(x, c);
            let l = dot(n, n).sqrt();
            take(t, (n.0 / l, n.1 / l));
        }
    }
    // Sides: the offset lines, hit within the segment's extent.
    let e = sub(b, a);
    let le = dot(e, e).sqrt();
    for sgn in [1.0, -1.0] {
        let n = (sgn * e.1 / le, -sgn * e.0 / le);
        let den = dot(n, d);
        if den >= 0.0 {
            continue;
        }
        let t = (dot(n, sub(a, o)) + r) / den;
        let x = (o.0 + d.0 * t - n.0 * r, o.1 + d.1 * t - n.1 * r);
        let s = dot(sub(x, a), e);
        if (0.0..=dot(e, e)).contains(&s) {
            take(t, n);
        }
    }
    best
}

/// Uniform numbers in `[0, 1)` from a xorshift generator seeded with `seed`.
fn uniform(mut seed: u64) -> impl FnMut() -> f32 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn angle(a: Vec2, b: V) -> f64 {
    let (ax, ay) = (a.x as f64, a.y as f64);
    (ax * b.1 - ay * b.0).atan2(ax * b.0 + ay * b.1).abs()
}

/// Checks one ray: peng's hit against the f64 reference in the local frame.
fn check(cap: &Capsule, pose: &Pose2, ray: &Ray2, what: &str) {
    let shape: Shape = (*cap).into();
    let hit = ray_cast(&shape, pose, ray, 100.0, true);
    let o = v64(pose.inverse_transform_point(ray.origin));
    let d = v64(pose.inverse_transform_vector(ray.dir));
    let want = reference(o, d, v64(cap.a()), v64(cap.b()), cap.radius() as f64);
    let (Some(h), Some((t, n))) = (hit, want) else {
        panic!("{what}: hit mismatch: peng {hit:?}, reference {want:?}");
    };
    let n_local = pose.inverse_transform_vector(h.normal);
    let err = angle(n_local, n);
    assert!(
        err < 3e-4,
        "{what}: normal {n_local:?} is {err:e} rad off the analytic {n:?} (radius {}, toi {} vs {t}, |d| {})",
        cap.radius(),
        h.toi,
        dot(d, d).sqrt()
    );
    assert!(
        (h.toi as f64 - t).abs() * dot(d, d).sqrt() < 1e-4,
        "{what}: toi {} vs {t}",
        h.toi
    );
}

/// The case recorded by the differential ray test (seed 0x7a2d01, ray #2812):
/// the ray enters the side 1.3e-4 from the junction with the cap.
#[test]
fn recorded_junction_case() {
    let cap = Capsule::new(
        Vec2::new(0.036272813, 0.21733591),
        Vec2::new(-0.057442363, 0.022097975),
        0.10591647,
    )
    .unwrap();
    let pose = Pose2 {
        translation: Vec2::new(3.6809773, 2.4999113),
        rotation: Rot2 {
            cos: -0.6297712,
            sin: -0.7767807,
        },
    };
    let ray = Ray2 {
        origin: Vec2::new(4.4651356, 2.8640475),
        dir: Vec2::new(-1.0565605, -0.4795845),
    };
    check(&cap, &pose, &ray, "recorded case");
}

/// Rays aimed at points just before and just after a side/cap junction, from
/// directions at least 20 degrees off the surface (well-conditioned hits).
#[test]
fn junction_sweep() {
    let mut f = uniform(0x2d_ca95u64);
    for i in 0..4000 {
        let a = Vec2::new(f() * 2.0 - 1.0, f() * 2.0 - 1.0);
        let b = a + Vec2::from_angle(f() * 6.3) * (0.1 + f());
        let r = 0.1 + f() * 0.9;
        let cap = Capsule::new(a, b, r).unwrap();
        let pose = Pose2::new(
            Vec2::new(f() * 8.0 - 4.0, f() * 8.0 - 4.0),
            f() * 6.3 - 3.15,
        );
        let e = (b - a).normalize();
        let side = if f() < 0.5 { e.perp() } else { -e.perp() };
        let (end, out) = if f() < 0.5 { (b, e) } else { (a, -e) };
        // A point on the surface within 1e-3 of the junction, either side.
        let u = (f() * 2.0 - 1.0) * 1e-3;
        let target = if u < 0.0 {
            end + side * r + out * u
        } else {
            let th = u / r;
            end + (side * th.cos() + out * th.sin()) * r
        };
        // Incoming direction: 20 to 160 degrees from the surface tangent.
        let ang = (20.0 + f() * 140.0).to_radians();
        let dir_local = -(side * ang.sin() + out * ang.cos());
        let origin_local = target - dir_local * (1.0 + 3.0 * f());
        let ray = Ray2 {
            origin: pose.transform_point(origin_local),
            dir: pose.transform_vector(dir_local) * (0.5 + f()),
        };
        check(&cap, &pose, &ray, &format!("sweep #{i}"));
    }
}

/// A local point placed by `pose` in f64 (rotation normalized in f64).
fn place64(pose: &Pose2, p: Vec2) -> V {
    let (c, s) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
    let l = c.hypot(s);
    let (x, y) = (p.x as f64, p.y as f64);
    (
        (c * x - s * y) / l + pose.translation.x as f64,
        (s * x + c * y) / l + pose.translation.y as f64,
    )
}

/// The f64 entry of the world ray into the capsule placed in f64: the truth
/// for the ray as given, free of any rounding into the capsule's frame.
fn world_reference(cap: &Capsule, pose: &Pose2, ray: &Ray2) -> Option<f64> {
    let (a, b) = (place64(pose, cap.a()), place64(pose, cap.b()));
    reference(v64(ray.origin), v64(ray.dir), a, b, cap.radius() as f64).map(|(t, _)| t)
}

/// Soak seed 860464 (differential ray test, ray #18281): the ray passes 5e-9
/// inside a cap of radius 0.47 placed 4 from the origin. The entry
/// `t = t_c − √(2 r δ)/|d|` moves by the square root of the ray's rounding
/// into the capsule's frame; peng's root from the local f32 ray was 1.5e-4
/// early. The world ray in f64 gives it exactly.
#[test]
fn near_tangent_cap_seed_860464() {
    let cap = Capsule::new(
        Vec2::new(0.3809713, 0.20034349),
        Vec2::new(-0.077613816, -0.20100209),
        0.47192222,
    )
    .unwrap();
    let pose = Pose2 {
        translation: Vec2::new(-2.6399345, 3.8148866),
        rotation: Rot2 {
            cos: 0.43674365,
            sin: -0.899586,
        },
    };
    let ray = Ray2 {
        origin: Vec2::new(-0.6061568, 3.995376),
        dir: Vec2::new(-1.0106325, 0.12451922),
    };
    let want = world_reference(&cap, &pose, &ray).unwrap();
    let h = ray_cast(&cap.into(), &pose, &ray, 100.0, true).unwrap();
    assert!(
        (h.toi as f64 - want).abs() < 1e-6,
        "toi {} vs f64 {want}",
        h.toi
    );
}

/// Rays passing a cap of a capsule posed up to 40 from the origin at
/// `r − δ` from its centre, `δ` from −1e-2·r to 1e-2·r on a log scale (the
/// rounding of the ray's origin decides the smallest): hit or miss as the
/// world f64 truth, and near the tangent (half-chord under 0.09·r, where peng redoes the
/// roots from the world ray) the entry within 1e-6·(1 + |t|) of it; farther in,
/// within what the ray's rounding into the frame moves a root
/// (`16·ε·M·r/h`, `h` the half-chord).
#[test]
fn near_tangent_caps() {
    let mut f = uniform(0x2d_7a9e_u64);
    let (mut hits, mut misses) = (0, 0);
    for i in 0..20_000 {
        let a = Vec2::new(f() * 2.0 - 1.0, f() * 2.0 - 1.0);
        let b = a + Vec2::from_angle(f() * 6.3) * (0.01 + f());
        let r = 0.05 + f();
        let cap = Capsule::new(a, b, r).unwrap();
        let pose = Pose2::new(
            Vec2::new(f() * 80.0 - 40.0, f() * 80.0 - 40.0),
            f() * 6.3 - 3.15,
        );
        // The tangent point on the outer half of cap b, and a direction
        // along the tangent there.
        let e = (b - a).normalize();
        let n = Vec2::from_angle((f() - 0.5) * 3.0).rotate(e);
        let sign = if f() < 0.5 { 1.0 } else { -1.0 };
        let depth = sign * r * 10f32.powf(-9.0 + 7.0 * f());
        let dir_local = n.perp() * (0.5 + f());
        let origin_local = b + n * (r - depth) - dir_local * (0.5 + 10.0 * f());
        let ray = Ray2 {
            origin: pose.transform_point(origin_local),
            dir: pose.transform_vector(dir_local),
        };
        let shape: Shape = cap.into();
        let hit = ray_cast(&shape, &pose, &ray, 1e3, true);
        let want = world_reference(&cap, &pose, &ray);
        let len = ray.dir.length() as f64;
        match (hit, want) {
            (None, None) => misses += 1,
            (Some(h), Some(t)) => {
                hits += 1;
                let m = ray
                    .origin
                    .abs()
                    .max_element()
                    .max(pose.translation.abs().max_element()) as f64
                    + 2.0;
                // The half-chord of the circle the entry is on, from the
                // truth's entry point.
                let x = (
                    ray.origin.x as f64 + ray.dir.x as f64 * t,
                    ray.origin.y as f64 + ray.dir.y as f64 * t,
                );
                let rr = r as f64;
                let bw = place64(&pose, b);
                let tc = dot(sub(bw, x), v64(ray.dir)) / len;
                let half = tc.abs();
                let allowed = if half < 0.09 * rr {
                    1e-6 * (1.0 + t * len)
                } else {
                    1e-6 * (1.0 + t * len) + 16.0 * f32::EPSILON as f64 * m * rr / half
                };
                let off = (h.toi as f64 - t).abs() * len;
                assert!(
                    off <= allowed,
                    "ray #{i}: toi {} vs f64 {t}: {off:e} off (allowed {allowed:e})",
                    h.toi
                );
            }
            (h, t) => panic!("ray #{i}: peng {:?} vs f64 {t:?}", h.map(|h| h.toi)),
        }
    }
    assert!(
        hits > 5_000 && misses > 5_000,
        "{hits} hits, {misses} misses"
    );
}
