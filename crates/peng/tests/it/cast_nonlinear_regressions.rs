//! Nonlinear casts that reported hits that were not there, found on fresh
//! seeds of the 2D differential distribution (`peng_bench::cast_cases::cast2`
//! with turning shapes, tolerance `1e-5`), each with an independent truth in
//! `f64`: the distance of the shapes' cores (points, segments, polygons)
//! placed by the motion in `f64`, less the radii, stepped finely along the
//! motion.
//!
//! Two causes: the 2D advancement stopped at its old cap of 256 steps and
//! reported a hit at the time reached (shapes up to 3.9e-2 apart, no contact
//! at all in one case), and GJK stopping early on nearly parallel edges with
//! a lower bound inside the tolerance while the shapes were 3 to 10 times the
//! tolerance apart. A rotating half-space over an unbounded time (3D) also
//! reported a hit at a time it had not decided.

use peng::d2::{CastHit2, CastOptions, CastStatus, Motion2, Pose2, Rect, Rot2, Shape, Vec2};

/// The f64 truth of 2D convex pairs.
pub(crate) mod truth {
    use glam::DVec2;
    use peng::d2::{Motion2, Pose2, Shape, Vec2};

    /// A shape as convex cores (each a point list, placed in the shape's
    /// frame) with a radius: one core for convex shapes, one per part or
    /// segment for compounds and polylines.
    pub(crate) fn cores(s: &Shape) -> Vec<(Vec<DVec2>, f64)> {
        let d = |v: Vec2| v.as_dvec2();
        match s {
            Shape::Circle(c) => vec![(vec![DVec2::ZERO], c.radius() as f64)],
            Shape::Capsule(c) => vec![(vec![d(c.a()), d(c.b())], c.radius() as f64)],
            Shape::Rect(r) => vec![(r.vertices().iter().map(|v| d(*v)).collect(), 0.0)],
            Shape::Segment(g) => vec![(vec![d(g.a()), d(g.b())], 0.0)],
            Shape::Triangle(t) => vec![(t.vertices().iter().map(|v| d(*v)).collect(), 0.0)],
            Shape::Polygon(p) => vec![(p.vertices().iter().map(|v| d(*v)).collect(), 0.0)],
            Shape::Compound(c) => c
                .parts()
                .iter()
                .flat_map(|(pose, part)| {
                    cores(part).into_iter().map(move |(pts, r)| {
                        let pts = pts.iter().map(|p| place_pose(pose, *p)).collect();
                        (pts, r)
                    })
                })
                .collect(),
            Shape::Polyline(l) => (0..l.segments().len() as u32)
                .map(|i| {
                    let [a, b] = l.segment(i);
                    (vec![d(a), d(b)], 0.0)
                })
                .collect(),
        }
    }

    fn angle(p: &Pose2) -> f64 {
        (p.rotation.sin as f64).atan2(p.rotation.cos as f64)
    }

    fn place_pose(p: &Pose2, x: DVec2) -> DVec2 {
        p.translation.as_dvec2() + DVec2::from_angle(angle(p)).rotate(x)
    }

    /// Local points placed by the motion at time `t`, in `f64`: the centre
    /// moves at constant velocity, the body turns about it.
    pub(crate) fn place(m: &Motion2, t: f64, pts: &[DVec2]) -> Vec<DVec2> {
        let lc = m.local_center.as_dvec2();
        let c0 = place_pose(&m.start, lc);
        let c = c0 + m.linvel.as_dvec2() * t;
        let r = DVec2::from_angle(angle(&m.start) + m.angvel as f64 * t);
        pts.iter().map(|p| c + r.rotate(*p - lc)).collect()
    }

    fn seg_point(p: DVec2, a: DVec2, b: DVec2) -> f64 {
        let ab = b - a;
        let l = ab.length_squared();
        let s = if l > 0.0 {
            ((p - a).dot(ab) / l).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a + ab * s - p).length()
    }

    fn edges(v: &[DVec2]) -> Vec<(DVec2, DVec2)> {
        match v.len() {
            1 => vec![(v[0], v[0])],
            2 => vec![(v[0], v[1])],
            n => (0..n).map(|i| (v[i], v[(i + 1) % n])).collect(),
        }
    }

    /// The distance of two convex point sets' hulls; when they overlap, the
    /// separating-axis overlap negated (some negative number).
    pub(crate) fn hull_distance(a: &[DVec2], b: &[DVec2]) -> f64 {
        let mut sep = f64::MIN;
        for (p, q) in edges(a).into_iter().chain(edges(b)) {
            let e = q - p;
            if e.length_squared() == 0.0 {
                continue;
            }
            for n in [e.perp().normalize(), e.normalize()] {
                let span = |v: &[DVec2]| {
                    v.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                        (lo.min(n.dot(*p)), hi.max(n.dot(*p)))
                    })
                };
                let ((a0, a1), (b0, b1)) = (span(a), span(b));
                sep = sep.max((b0 - a1).max(a0 - b1));
            }
        }
        let points = a.len() == 1 && b.len() == 1;
        if sep <= 0.0 && !points {
            return sep;
        }
        let mut d = f64::MAX;
        for (x, y) in [(a, b), (b, a)] {
            for p in x {
                for (u, w) in edges(y) {
                    d = d.min(seg_point(*p, u, w));
                }
            }
        }
        d
    }

    /// The distance of the two shapes at time `t` of their motions.
    pub(crate) fn distance(a: &Shape, ma: &Motion2, b: &Shape, mb: &Motion2, t: f64) -> f64 {
        let mut d = f64::MAX;
        for (ca, ra) in cores(a) {
            let pa = place(ma, t, &ca);
            for (cb, rb) in cores(b) {
                d = d.min(hull_distance(&pa, &place(mb, t, &cb)) - ra - rb);
            }
        }
        d
    }

    /// The first time in `[0, end]` at which the distance reaches `target`
    /// (fine steps of `end / steps`, then bisection), or `None`.
    pub(crate) fn first_contact(
        a: &Shape,
        ma: &Motion2,
        b: &Shape,
        mb: &Motion2,
        end: f64,
        target: f64,
        steps: usize,
    ) -> Option<f64> {
        let d = |t: f64| distance(a, ma, b, mb, t) - target;
        let mut prev = 0.0;
        for k in 0..=steps {
            let t = end * k as f64 / steps as f64;
            if d(t) <= 0.0 {
                if k == 0 {
                    return Some(0.0);
                }
                let (mut lo, mut hi) = (prev, t);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    if d(mid) <= 0.0 {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return Some(lo);
            }
            prev = t;
        }
        None
    }

    /// The smallest distance over fine steps of `[0, end]`.
    pub(crate) fn closest(
        a: &Shape,
        ma: &Motion2,
        b: &Shape,
        mb: &Motion2,
        end: f64,
        steps: usize,
    ) -> f64 {
        (0..=steps)
            .map(|k| distance(a, ma, b, mb, end * k as f64 / steps as f64))
            .fold(f64::MAX, f64::min)
    }
}

/// The tolerance the cases were found with.
const TOL: f32 = 1e-5;
/// Rounding allowed on top of it (f32 coordinates up to ~8).
const ROUND: f64 = 2e-6;

fn opts() -> CastOptions {
    CastOptions {
        tolerance: TOL,
        ..CastOptions::default()
    }
}

fn pose(x: f32, y: f32, cos: f32, sin: f32) -> Pose2 {
    Pose2 {
        translation: Vec2::new(x, y),
        rotation: Rot2 { cos, sin },
    }
}

fn motion(start: Pose2, c: [f32; 2], v: [f32; 2], w: f32) -> Motion2 {
    Motion2 {
        start,
        local_center: Vec2::from(c),
        linvel: Vec2::from(v),
        angvel: w,
    }
}

fn polygon(v: &[[f32; 2]]) -> Shape {
    let pts: Vec<Vec2> = v.iter().map(|p| Vec2::from(*p)).collect();
    peng::d2::ConvexPolygon::from_points(&pts).unwrap().into()
}

fn capsule(a: [f32; 2], b: [f32; 2], r: f32) -> Shape {
    peng::d2::Capsule::new(Vec2::from(a), Vec2::from(b), r)
        .unwrap()
        .into()
}

fn rect(x: f32, y: f32) -> Shape {
    Rect::new(Vec2::new(x, y)).unwrap().into()
}

/// The cast agrees with the f64 truth: a hit within the tolerance of
/// contact, never after the first contact; no hit where there is no contact.
/// Returns the cast's answer.
fn check(a: &Shape, ma: &Motion2, b: &Shape, mb: &Motion2) -> Option<CastHit2> {
    let h = peng::d2::cast_nonlinear(a, ma, b, mb, &opts());
    // The first overlap deeper than f32 rounding of the coordinates.
    let first = truth::first_contact(a, ma, b, mb, 1.0, -ROUND, 20_000);
    match (h, first) {
        (Some(h), _) if h.status == CastStatus::Undecided => {
            assert!(
                first.is_none_or(|s| h.time as f64 <= s),
                "undecided past the contact at {first:?}: {h:?}"
            );
        }
        (Some(h), _) => {
            let d = truth::distance(a, ma, b, mb, h.time as f64);
            assert!(
                d >= -ROUND && d <= TOL as f64 + ROUND,
                "hit at distance {d:e} (tolerance {TOL:e}), first contact {first:?}: {h:?}"
            );
            assert!(
                first.is_some_and(|s| h.time as f64 <= s + 1e-9),
                "hit after the first contact {first:?}: {h:?}"
            );
        }
        (None, Some(s)) => panic!("missed the contact at {s}"),
        (None, None) => {}
    }
    h
}

/// No contact at all (the closest approach is 1.5e-3, 150 times the
/// tolerance); the old cast ran out of its 256 steps at 0.996 and reported a
/// hit there, with the shapes 3.9e-2 apart.
#[test]
fn no_hit_for_a_pair_that_never_touches() {
    let a = capsule(
        [0.40205204, 1.2403709],
        [-0.71076715, -1.3366948],
        0.5332782,
    );
    let ma = motion(
        pose(0.4097734, 0.09267129, -0.474539, -0.8802345),
        [0.11466494, -0.1997669],
        [-0.34655288, -0.17944747],
        0.3942461,
    );
    let b = polygon(&[
        [-0.2743722, 0.100852676],
        [-0.11651848, -0.8812901],
        [0.15265995, -1.1373062],
        [0.39205357, -0.49092585],
        [0.3146467, 0.7977779],
        [0.20107614, 0.7979296],
        [-0.14160942, 0.52102107],
    ]);
    let mb = motion(
        pose(2.0599475, -3.4481177, -0.9653529, -0.26094782),
        [-0.058202006, -0.2537432],
        [-1.919886, 1.8799711],
        -1.7762808,
    );
    let closest = truth::closest(&a, &ma, &b, &mb, 1.0, 20_000);
    assert!(closest > 1e-3, "the truth: no contact ({closest})");
    // Decided, not merely undecided: the slab bound carries it through.
    assert!(check(&a, &ma, &b, &mb).is_none());
}

/// Early hits from the old step cap: capsule against rect (8.0e-5 apart at
/// the reported time) and capsule against capsule (2.3e-5).
#[test]
fn near_grazing_turns_hit_within_the_tolerance() {
    let a = capsule(
        [-0.52277243, 1.0099742],
        [0.8231087, -0.94265264],
        0.1605742,
    );
    let ma = motion(
        pose(0.38670978, 0.26726493, 0.99938715, -0.03500533),
        [0.07680572, -0.10140194],
        [0.07538657, 0.895473],
        2.5688343,
    );
    let b = rect(0.2941847, 1.0854844);
    let mb = motion(
        pose(2.564973, 2.4078553, 0.8698157, -0.49337673),
        [-0.12589337, 0.047896944],
        [-0.7345548, -1.3690844],
        -2.970756,
    );
    let h = check(&a, &ma, &b, &mb).expect("they touch");
    assert_eq!(h.status, CastStatus::Hit, "{h:?}");

    let a = capsule([0.7547126, -0.9333529], [-0.8543345, 1.2618747], 0.99270326);
    let ma = motion(
        pose(0.09617373, -0.14233264, -0.9995641, -0.029522095),
        [-0.08889845, -0.046440605],
        [0.10686265, -0.29173654],
        -2.885936,
    );
    let b = capsule(
        [0.28435957, -0.8708527],
        [-0.039039545, 0.9392623],
        0.78383565,
    );
    let mb = motion(
        pose(2.5138814, -3.1832871, -0.7739625, 0.63323146),
        [-0.08393378, 0.071905605],
        [-1.132604, 1.759816],
        2.4280725,
    );
    let h = check(&a, &ma, &b, &mb).expect("they touch");
    assert_eq!(h.status, CastStatus::Hit, "{h:?}");
}

/// Early hits from GJK stopping on nearly parallel edges with a lower bound
/// within the tolerance: the shapes were 5.1e-5, 8.2e-5 and 8.4e-5 apart at
/// the reported times.
#[test]
fn parallel_edges_hit_within_the_tolerance() {
    let b = rect(1.398113, 1.709508);
    let a = polygon(&[
        [-0.7354224, 0.18455353],
        [-0.64414084, -0.22040068],
        [-0.063035764, -0.40976632],
        [0.46457735, -0.45055947],
        [0.5449587, -0.12705804],
        [0.5127245, 0.26860726],
        [0.48554423, 0.45012257],
        [0.17957734, 0.5577268],
    ]);
    let ma = motion(
        pose(0.4599718, -0.10112219, 0.7159983, -0.698102),
        [-0.004075598, -0.20549464],
        [0.59475935, -0.19927168],
        2.8165293,
    );
    let mb = motion(
        pose(-1.8184973, -3.3101952, -0.97235256, 0.2335177),
        [-0.028875493, -0.20475811],
        [0.3832226, 1.9594625],
        2.3342638,
    );
    let h = check(&a, &ma, &b, &mb).expect("they touch");
    assert_eq!(h.status, CastStatus::Hit, "{h:?}");

    let a = rect(1.6949097, 1.4487797);
    let ma = motion(
        pose(0.35812694, 0.15021008, 0.6351487, 0.7723899),
        [0.05297556, 0.24195662],
        [0.06438262, -0.74319875],
        -2.0241156,
    );
    let b = polygon(&[
        [-0.9918428, 0.799381],
        [-0.7858651, -0.8159838],
        [-0.61773175, -0.8246853],
        [0.8563669, -0.6848923],
        [1.2006408, 0.4473276],
        [1.2277342, 0.5495062],
        [-0.5300762, 1.0882694],
    ]);
    let mb = motion(
        pose(2.25443, 2.5471592, -0.46590403, -0.88483524),
        [0.25831604, -0.11702547],
        [-4.119109, -1.8645658],
        -1.3413817,
    );
    let h = check(&a, &ma, &b, &mb).expect("they touch");
    assert_eq!(h.status, CastStatus::Hit, "{h:?}");

    let a = polygon(&[
        [-1.192669, -0.04313756],
        [-1.0479801, -0.2810342],
        [0.06093259, -0.43346557],
        [1.084982, -0.014459773],
        [0.12976593, 0.45458996],
        [-0.014693122, 0.51592225],
        [-0.4094884, 0.44779205],
        [-1.1872774, 0.05989939],
    ]);
    let ma = motion(
        pose(0.35723054, 0.06397946, -0.010288697, -0.9999471),
        [-0.16298202, 0.15701108],
        [0.46882477, 0.87476015],
        -1.8026218,
    );
    let b = rect(1.1852621, 0.33822614);
    let mb = motion(
        pose(2.1987867, 4.601256, 0.8024841, -0.59667355),
        [0.18593809, 0.00037025378],
        [-0.6447614, -5.6732516],
        -2.7267685,
    );
    let h = check(&a, &ma, &b, &mb).expect("they touch");
    assert_eq!(h.status, CastStatus::Hit, "{h:?}");
}

/// A half-space turning over an unbounded time has no bound on how fast its
/// plane sweeps the other shape: the 3D cast cannot decide, and used to
/// report a hit at once for a ball 2.5 from the plane (the truth, in f64: the
/// ball's centre is 3 above the plane through the origin and its radius is
/// 0.5). It now says so with `Undecided`; with a finite time it decides.
#[test]
fn turning_half_space_over_unbounded_time_is_undecided() {
    use peng::d3::{Ball, CastOptions as O3, HalfSpace, Motion3, Pose3, Shape as S3, Vec3};
    let plane: S3 = HalfSpace::new(Vec3::Y).unwrap().into();
    let ball: S3 = Ball::new(0.5).unwrap().into();
    let ma = Motion3 {
        angvel: Vec3::new(0.0, 0.0, 1.0),
        ..Motion3::fixed(Pose3::IDENTITY)
    };
    let mb = Motion3::linear(
        Pose3::from_translation(Vec3::new(5.0, 3.0, 0.0)),
        Vec3::new(0.1, 0.0, 0.0),
    );
    let unbounded = O3 {
        max_time: f32::INFINITY,
        ..O3::default()
    };
    let h = peng::d3::cast_nonlinear(&plane, &ma, &ball, &mb, &unbounded).expect("an answer");
    let (c, r) = (glam::DVec3::new(5.0, 3.0, 0.0), 0.5);
    let t = h.time as f64;
    // The plane's normal turned by t about z, the ball moved by 0.1·t.
    let n = glam::DVec3::new(-t.sin(), t.cos(), 0.0);
    let gap = n.dot(c + glam::DVec3::new(0.1 * t, 0.0, 0.0)) - r;
    assert!(gap > 1.0, "the truth: far apart at {t} ({gap})");
    assert_eq!(h.status, CastStatus::Undecided, "{h:?}");
    assert!(!h.status.is_contact());
    // Within a finite time the cast decides: the normal (−sin t, cos t, 0)
    // tilts towards the ball, the gap 3·cos t − (5 + 0.1·t)·sin t − 0.5
    // closes near t = 0.45.
    let finite = O3 {
        max_time: 2.0,
        ..O3::default()
    };
    let h = peng::d3::cast_nonlinear(&plane, &ma, &ball, &mb, &finite).expect("they touch");
    assert_eq!(h.status, CastStatus::Hit, "{h:?}");
    let t = h.time as f64;
    let n = glam::DVec3::new(-t.sin(), t.cos(), 0.0);
    let gap = n.dot(c + glam::DVec3::new(0.1 * t, 0.0, 0.0)) - r;
    assert!((0.0..1e-3).contains(&gap), "{gap} {h:?}");
}

/// A half-space turning towards a ball that does not move, over an unbounded
/// time: the ball's offset from the turning centre never grows, so the cast
/// has a bound and decides. It used to form `0 · ∞` (NaN) for that offset and
/// report no contact. Truth: the gap `3·cos t − 5·sin t − 0.5` (normal
/// `(−sin t, cos t, 0)`, centre `(5, 3, 0)`, radius 0.5) first vanishes at
/// `t = acos(0.5/√34) − atan2(5, 3)`.
#[test]
fn turning_half_space_meets_a_resting_ball_over_unbounded_time() {
    use peng::d3::{Ball, CastOptions as O3, HalfSpace, Motion3, Pose3, Shape as S3, Vec3};
    let plane: S3 = HalfSpace::new(Vec3::Y).unwrap().into();
    let ball: S3 = Ball::new(0.5).unwrap().into();
    let ma = Motion3 {
        angvel: Vec3::new(0.0, 0.0, 1.0),
        ..Motion3::fixed(Pose3::IDENTITY)
    };
    let mb = Motion3::fixed(Pose3::from_translation(Vec3::new(5.0, 3.0, 0.0)));
    let unbounded = O3 {
        max_time: f32::INFINITY,
        ..O3::default()
    };
    let h = peng::d3::cast_nonlinear(&plane, &ma, &ball, &mb, &unbounded).expect("they touch");
    let truth = (0.5 / 34f64.sqrt()).acos() - 5f64.atan2(3.0);
    assert_eq!(h.status, CastStatus::Hit, "{h:?}");
    assert!(
        h.time as f64 <= truth + 1e-6 && h.time as f64 > truth - 1e-3,
        "{h:?} vs {truth}"
    );
}
