//! The 2D narrow phase against an independent f64 oracle on random pairs of
//! every convex kind: brute-force vertex-edge distances when apart, the
//! least-penetration axis over all edge normals when overlapping, minus radii.

use peng::d2::*;

struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
    fn v(&mut self) -> Vec2 {
        Vec2::new(self.f(), self.f()) * 1.5
    }
}

fn make(k: u32, r: &mut Rng) -> Shape {
    match k {
        0 => Circle::new(0.1 + r.f().abs() * 1.4).unwrap().into(),
        1 => Capsule::new(r.v(), r.v(), 0.05 + r.f().abs())
            .unwrap()
            .into(),
        2 => Rect::new(Vec2::new(0.1 + r.f().abs() * 1.4, 0.1 + r.f().abs() * 1.4))
            .unwrap()
            .into(),
        3 => Segment::new(r.v(), r.v()).unwrap().into(),
        4 => loop {
            let (a, b, c) = (r.v(), r.v(), r.v());
            if (b - a).perp_dot(c - a).abs() >= 0.05 {
                break Triangle::new(a, b, c).unwrap().into();
            }
        },
        _ => loop {
            let pts: Vec<Vec2> = (0..7).map(|_| r.v()).collect();
            if let Ok(p) = ConvexPolygon::from_points(&pts) {
                break p.into();
            }
        },
    }
}

/// A point in f64.
type P = (f64, f64);
fn core_of(s: &Shape, pose: &Pose2) -> (Vec<P>, f64) {
    let (v, r): (Vec<Vec2>, f32) = match s {
        Shape::Circle(c) => (vec![Vec2::ZERO], c.radius()),
        Shape::Capsule(c) => (vec![c.a(), c.b()], c.radius()),
        Shape::Rect(x) => (x.vertices().to_vec(), 0.0),
        Shape::Segment(x) => (vec![x.a(), x.b()], 0.0),
        Shape::Triangle(t) => (t.vertices().to_vec(), 0.0),
        Shape::Polygon(p) => (p.vertices().to_vec(), 0.0),
        _ => unreachable!(),
    };
    // transform in f64
    let (c, sn) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
    let t = (pose.translation.x as f64, pose.translation.y as f64);
    (
        v.iter()
            .map(|p| {
                (
                    c * p.x as f64 - sn * p.y as f64 + t.0,
                    sn * p.x as f64 + c * p.y as f64 + t.1,
                )
            })
            .collect(),
        r as f64,
    )
}
/// Distance from `p` to segment `a b`, and the closest point.
fn seg_pt(p: P, a: P, b: P) -> (f64, P) {
    let e = (b.0 - a.0, b.1 - a.1);
    let ee = e.0 * e.0 + e.1 * e.1;
    let t = if ee > 0.0 {
        (((p.0 - a.0) * e.0 + (p.1 - a.1) * e.1) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = (a.0 + e.0 * t, a.1 + e.1 * t);
    (((q.0 - p.0).powi(2) + (q.1 - p.1).powi(2)).sqrt(), q)
}

/// Edges of a core (a point is one zero-length edge, a segment one edge).
fn edges(v: &[P]) -> Vec<(P, P)> {
    match v.len() {
        1 => vec![(v[0], v[0])],
        2 => vec![(v[0], v[1])],
        n => (0..n).map(|i| (v[i], v[(i + 1) % n])).collect(),
    }
}

/// Both unit normals of every edge of non-zero length.
fn axes(v: &[P]) -> Vec<P> {
    let mut out = vec![];
    for (a, b) in edges(v) {
        let e = (b.0 - a.0, b.1 - a.1);
        let l = (e.0 * e.0 + e.1 * e.1).sqrt();
        if l > 0.0 {
            out.push((e.1 / l, -e.0 / l));
            out.push((-e.1 / l, e.0 / l));
        }
    }
    out
}

fn unit(v: P) -> P {
    let l = (v.0 * v.0 + v.1 * v.1).sqrt();
    (v.0 / l, v.1 / l)
}

/// The oracle: signed distance and the unit normal from A to B.
fn truth(a: &Shape, pa: &Pose2, b: &Shape, pb: &Pose2) -> (f64, P) {
    let (va, ra) = core_of(a, pa);
    let (vb, rb) = core_of(b, pb);
    // Largest separation over every edge normal (both orientations for B's).
    let (mut sep, mut axis) = (f64::NEG_INFINITY, (1.0, 0.0));
    for n in axes(&va).into_iter().chain(axes(&vb)) {
        let maxa = va
            .iter()
            .map(|p| n.0 * p.0 + n.1 * p.1)
            .fold(f64::NEG_INFINITY, f64::max);
        let minb = vb
            .iter()
            .map(|p| n.0 * p.0 + n.1 * p.1)
            .fold(f64::INFINITY, f64::min);
        if minb - maxa > sep {
            (sep, axis) = (minb - maxa, n);
        }
    }
    // Closest vertex-edge pair, both ways.
    let (mut d, mut dir) = (f64::INFINITY, (1.0, 0.0));
    for &p in &va {
        for (x, y) in edges(&vb) {
            let (dd, q) = seg_pt(p, x, y);
            if dd < d {
                (d, dir) = (dd, (q.0 - p.0, q.1 - p.1));
            }
        }
    }
    for &p in &vb {
        for (x, y) in edges(&va) {
            let (dd, q) = seg_pt(p, x, y);
            if dd < d {
                (d, dir) = (dd, (p.0 - q.0, p.1 - q.1));
            }
        }
    }
    // Overlapping cores: any core with area and a non-positive separation, or
    // two segments that cross; otherwise the closest pair decides.
    let overlap = sep <= 0.0 && {
        let mut cross = va.len() >= 3 || vb.len() >= 3;
        for (p1, q1) in edges(&va) {
            for (p2, q2) in edges(&vb) {
                let o = |a: P, b: P, c: P| (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
                if p1 == q1 || p2 == q2 {
                    continue; // a point: its distance decides
                }
                if o(p1, q1, p2) * o(p1, q1, q2) <= 0.0 && o(p2, q2, p1) * o(p2, q2, q1) <= 0.0 {
                    cross = true;
                }
            }
        }
        cross
    };
    if overlap {
        (sep - ra - rb, axis)
    } else {
        (d - ra - rb, unit(dir))
    }
}

#[test]
fn distances_match_f64_oracle_for_every_convex_pair() {
    let names = [
        "circle", "capsule", "rect", "segment", "triangle", "polygon",
    ];
    let mut r = Rng(0x1234_5678_9abc_def1);
    let mut failures = Vec::new();
    for ka in 0..6 {
        for kb in 0..6 {
            for _ in 0..300 {
                let (sa, sb) = (make(ka, &mut r), make(kb, &mut r));
                let pa = Pose2::new(r.v() * 1.5, r.f() * 3.2);
                let pb = Pose2::new(r.v() * 1.5, r.f() * 3.2);
                let (t, n) = truth(&sa, &pa, &sb, &pb);
                let d = distance(&sa, &pa, &sb, &pb);
                let (c, s) = (d.normal.x as f64, d.normal.y as f64);
                let angle = (c * n.1 - s * n.0).atan2(c * n.0 + s * n.1).abs();
                // Near touching the direction is ill-conditioned in f32.
                if t.abs() > 1e-2 && angle > 1e-4 {
                    failures.push(format!(
                        "{}-{}: normal {:?} oracle {n:?} at {t}",
                        names[ka as usize], names[kb as usize], d.normal
                    ));
                }
                let tol = 1e-5 * t.abs().max(1.0);
                if (d.distance as f64 - t).abs() > tol {
                    failures.push(format!(
                        "{}-{}: peng {} oracle {t}",
                        names[ka as usize], names[kb as usize], d.distance
                    ));
                }
                // The manifold's deepest point carries the same depth.
                if let Some(m) = contact(&sa, &pa, &sb, &pb, 0.5) {
                    if (m.depth() as f64 + t).abs() > 1e-4 * t.abs().max(1.0) {
                        failures.push(format!(
                            "{}-{}: manifold depth {} oracle {t}",
                            names[ka as usize],
                            names[kb as usize],
                            m.depth()
                        ));
                    }
                } else {
                    assert!(t > 0.5 - 1e-4, "no manifold at oracle distance {t}");
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures: {:#?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}
