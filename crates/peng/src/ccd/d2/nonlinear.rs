//! Nonlinear casts of convex pairs (translation plus rotation) by
//! conservative advancement.
//!
//! Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems" (PhD
//! thesis, 1996), ch. 5; Zhang, Redon, Lee, Kim, "Continuous Collision
//! Detection for Articulated Models using Taylor Models and Temporal
//! Culling" (2007) for the bound. At time `t` the shapes are `d` apart with
//! unit normal `n` (A to B). Along the fixed direction `n`, a point of B
//! moves at `v_b + ω_b × r`, `|r| <= r_b` (its distance from B's rotation
//! centre), and likewise for A, so the gap along `n` shrinks at most at
//! `μ = -n·(v_b - v_a) + |ω_a| r_a + |ω_b| r_b`. The shapes cannot come within
//! `target` before `t + (d - target) / μ`, so advancing by that step is safe
//! (never past the contact); `μ <= 0` means the gap along `n` never shrinks,
//! so there is no contact at all. (The usual `|n·(v_b - v_a)|` is this
//! bound with the sign dropped; the signed form is tighter and as safe.)
//!
//! Near a graze that bound converges slowly: the gap bottoms out at some
//! `d_min` while `μ` stays near the full spin speed, so the steps `d / μ`
//! stay tiny across the whole near-miss, about `μ·π / √(d_min·a)` of them
//! for a gap `d_min + a·s²`. Past [`CAREFUL_AFTER`] steps the cast also
//! bounds the slab of the fixed `n` point by point: a core point at `r`
//! from its body's centre moves along `n` as `n·x(s) = n·x + (n·ẋ)·s +
//! ½·(n·ẍ)·s²` with `|ẍ| = ω²·|r|` (the centripetal acceleration; the centre
//! moves at constant velocity), so the slab's width is at least
//! `G(s) = min_b (n·x_b + n·ẋ_b·s) − max_a (n·x_a + n·ẋ_a·s) − r_a − r_b
//! − ½·(ω_a²·ρ_a + ω_b²·ρ_b)·s²` (`ρ` the core's reach from its centre,
//! radii added exactly along a fixed `n`). `G` uses each point's true
//! velocity, so at the bottom of a graze it barely shrinks; it is concave,
//! and bisection finds where it reaches the target. Steps then grow like
//! `√d` instead of `d`, and a near-miss takes a few dozen steps instead of
//! thousands. The longer of the two certified steps is taken.
//!
//! When [`MAX_ADVANCE_STEPS`] pass without a decision the cast returns
//! [`CastStatus::Undecided`] at the time reached (certified free of contact
//! before it), never a hit it has not found.

use super::convex::{tolerance, Convex};
use super::gjk;
use super::start::{classify, Start};
use crate::ccd::{CastHit2, CastOptions, CastStatus, Motion2, MAX_ADVANCE_STEPS};
use crate::math::{Pose2, Vec2};
use crate::query::d2::distance;
use crate::shape::d2::Shape;

/// Advancement steps taken with Mirtich's bound alone (typical casts need 5
/// to 15); later steps also try the point-by-point slab bound of the module
/// docs, which converges across near-grazing approaches.
const CAREFUL_AFTER: usize = 16;

/// Bisection steps for the root of the slab bound `G` (the step need not be
/// the longest: within `2⁻¹²` of it is plenty).
const SLAB_BISECTIONS: usize = 12;

/// Cap on the small steps taken to leave a separating start contact.
const MAX_LEAVE_STEPS: usize = 1024;

/// The velocity of the world point `p` of a body in motion `m` at `pose`.
#[inline]
fn point_velocity(m: &Motion2, pose: &Pose2, p: Vec2) -> Vec2 {
    let c = pose.transform_point(m.local_center);
    m.linvel + (p - c).perp() * m.angvel
}

/// Signed distance, world points and world normal of the pair at `t`.
struct Gap {
    d: f32,
    point_a: Vec2,
    point_b: Vec2,
    normal: Vec2,
}

/// The gap of the two cores at the given poses (radii subtracted).
/// `hint`: a guess of the world normal (the previous step's), or zero.
///
/// The gap is GJK's lower bound (safe to step by). Where it falls within
/// `band` (the target plus the tolerance) a contact must be certified: the
/// distance of GJK's witness points (points of the shapes, so an upper bound)
/// must be within the band too. When it is not (GJK stopped early, e.g. on
/// nearly parallel edges) the full distance query decides, so that a hit is
/// never reported for shapes still farther apart than the band.
#[allow(clippy::too_many_arguments)]
fn gap(
    a: &Shape,
    ca: &Convex,
    pa: &Pose2,
    b: &Shape,
    cb: &Convex,
    pb: &Pose2,
    hint: Vec2,
    band: f32,
) -> Gap {
    let full = || {
        let d = distance(a, pa, b, pb);
        Gap {
            d: d.distance,
            point_a: d.point_a,
            point_b: d.point_b,
            normal: d.normal,
        }
    };
    let g = gjk::distance(ca, cb, &pa.inv_mul(pb), pa.inverse_transform_vector(hint));
    if g.overlap {
        // The cores overlap or touch (no direction): at the start, or at a
        // contact of the cores themselves. The full query gives the minimum
        // translation or the touching normal.
        return full();
    }
    let radii = ca.radius + cb.radius;
    let d = g.distance - radii;
    if d <= band && (g.b - g.a).length() - radii > band {
        return full();
    }
    Gap {
        d,
        point_a: pa.transform_point(g.a + g.normal * ca.radius),
        point_b: pa.transform_point(g.b - g.normal * cb.radius),
        normal: pa.transform_vector(g.normal),
    }
}

/// The nonlinear cast of two convex shapes (`None` for composite ones).
pub(crate) fn cast_convex(
    a: &Shape,
    motion_a: &Motion2,
    b: &Shape,
    motion_b: &Motion2,
    options: &CastOptions,
) -> Option<CastHit2> {
    let ca = Convex::from_shape(a)?;
    let cb = Convex::from_shape(b)?;
    let gap0 = motion_b.start.translation - motion_a.start.translation;
    let tol = tolerance(options.tolerance, &ca, &cb, gap0.length());
    let target = options.target_distance;
    let spin = motion_a.angvel.abs() * ca.reach(motion_a.local_center)
        + motion_b.angvel.abs() * cb.reach(motion_b.local_center);
    let vrel = motion_b.linvel - motion_a.linvel;
    let hit = |t: f32, g: &Gap| CastHit2 {
        time: t,
        point_a: g.point_a,
        point_b: g.point_b,
        normal: g.normal,
        depth: 0.0,
        status: CastStatus::Hit,
    };
    let mut t = 0.0f32;
    let (pa, pb) = (motion_a.start, motion_b.start);
    let band = target + tol;
    let mut g = gap(a, &ca, &pa, b, &cb, &pb, Vec2::ZERO, band);
    if g.d - target <= tol {
        let closing = |xa: Vec2, xb: Vec2, n: Vec2| {
            n.dot(point_velocity(motion_b, &pb, xb) - point_velocity(motion_a, &pa, xa))
        };
        match classify(0.0, a, &pa, b, &pb, tol, closing) {
            Start::Hit(h) => return Some(h),
            Start::Separating => {
                // Moving apart from a start contact: small safe steps (the
                // gap shrinks by at most `tol` per step) until the gap
                // exceeds the tolerance band, or the contact closes again.
                let bound = vrel.length() + spin;
                if !(bound > 0.0) {
                    return None;
                }
                let step = tol / bound;
                let mut left = false;
                // Turning back (or running out of steps) before getting out
                // of the band: the contact is where they turn if they stayed
                // at least the target apart, else the start's (later would
                // be late).
                let start = Gap { ..g };
                let mut low = g.d;
                let back = |t: f32, g: &Gap, low: f32| {
                    if low < target {
                        CastHit2 {
                            status: CastStatus::Touching,
                            ..hit(0.0, &start)
                        }
                    } else {
                        hit(t, g)
                    }
                };
                for _ in 0..MAX_LEAVE_STEPS {
                    t += step;
                    if !(t <= options.max_time) {
                        return None;
                    }
                    let (pa, pb) = (motion_a.pose_at(t), motion_b.pose_at(t));
                    g = gap(a, &ca, &pa, b, &cb, &pb, g.normal, band);
                    if g.d - target > tol {
                        left = true;
                        break;
                    }
                    low = low.min(g.d);
                    let v = point_velocity(motion_b, &pb, g.point_b)
                        - point_velocity(motion_a, &pa, g.point_a);
                    if g.normal.dot(v) <= 0.0 {
                        return Some(back(t, &g, low));
                    }
                }
                if !left {
                    return Some(back(t, &g, low));
                }
            }
        }
    }
    // The slab bound's curvature: `ω²·ρ` per body (see the module docs).
    let bend = |c: &Convex, m: &Motion2| m.angvel * m.angvel * (c.reach(m.local_center) - c.radius);
    let curve = bend(&ca, motion_a) + bend(&cb, motion_b);
    for step in 0..MAX_ADVANCE_STEPS {
        if g.d - target <= tol {
            return Some(hit(t, &g));
        }
        let mu = -g.normal.dot(vrel) + spin;
        if !(mu > 0.0) {
            return None;
        }
        let mut dt = (g.d - target) / mu;
        if step >= CAREFUL_AFTER {
            let (pa, pb) = (motion_a.pose_at(t), motion_b.pose_at(t));
            // Half the tolerance short of the target: a margin for
            // rounding, and the next distance then ends the cast.
            let level = target + 0.5 * tol;
            let slab = Slab::new(
                (&ca, motion_a, &pa),
                (&cb, motion_b, &pb),
                g.normal,
                curve,
                level,
            );
            match slab.map(|s| s.free_until(options.max_time - t)) {
                Some(SlabFree::Beyond) => return None,
                Some(SlabFree::Until(s)) => dt = dt.max(s),
                None => {}
            }
        }
        t += dt;
        if !(t <= options.max_time) {
            return None;
        }
        g = gap(
            a,
            &ca,
            &motion_a.pose_at(t),
            b,
            &cb,
            &motion_b.pose_at(t),
            g.normal,
            band,
        );
    }
    if g.d - target <= tol {
        return Some(hit(t, &g));
    }
    // Out of steps: no contact before `t` (each step was certified), and
    // nothing decided after it.
    Some(CastHit2 {
        status: CastStatus::Undecided,
        ..hit(t, &g)
    })
}

/// The most core points per shape the slab bound handles (larger polygons
/// advance by Mirtich's bound alone).
const SLAB_POINTS: usize = 32;

/// The slab between the two cores along a fixed world normal `n` (A to B),
/// bounded point by point over a step (module docs): each core point's
/// height along `n` (from A's centre, small numbers whatever the
/// coordinates) and its rate at the step's start, a line in time.
struct Slab {
    /// A's lines `(height, rate)` and their count.
    a: ([Vec2; SLAB_POINTS], usize),
    /// B's lines.
    b: ([Vec2; SLAB_POINTS], usize),
    /// The radii, added along `n` exactly.
    radii: f32,
    /// `ω_a²·ρ_a + ω_b²·ρ_b`.
    curve: f32,
    /// The width the step may shrink the slab to.
    level: f32,
}

/// How long the slab stays wider than its level.
enum SlabFree {
    /// At least until the end of the time searched.
    Beyond,
    /// At least this long (possibly `0`).
    Until(f32),
}

/// The lines `(n·(x − origin), n·ẋ)` of a core's points placed at `pose`;
/// `None` past [`SLAB_POINTS`].
fn slab_lines(
    c: &Convex,
    m: &Motion2,
    pose: &Pose2,
    origin: Vec2,
    n: Vec2,
) -> Option<([Vec2; SLAB_POINTS], usize)> {
    let pts = c.points();
    if pts.len() > SLAB_POINTS {
        return None;
    }
    let centre = pose.transform_point(m.local_center);
    let mut out = [Vec2::ZERO; SLAB_POINTS];
    for (o, &p) in out.iter_mut().zip(pts) {
        let x = pose.transform_point(p);
        let v = m.linvel + (x - centre).perp() * m.angvel;
        *o = Vec2::new(n.dot(x - origin), n.dot(v));
    }
    Some((out, pts.len()))
}

impl Slab {
    /// The slab of world normal `n` for the cores at poses `pa`, `pb`.
    #[allow(clippy::too_many_arguments)]
    fn new(
        (ca, ma, pa): (&Convex, &Motion2, &Pose2),
        (cb, mb, pb): (&Convex, &Motion2, &Pose2),
        n: Vec2,
        curve: f32,
        level: f32,
    ) -> Option<Slab> {
        let origin = pa.transform_point(ma.local_center);
        Some(Slab {
            a: slab_lines(ca, ma, pa, origin, n)?,
            b: slab_lines(cb, mb, pb, origin, n)?,
            radii: ca.radius + cb.radius,
            curve,
            level,
        })
    }

    /// The lower bound `G(s)` of the slab's width after `s`.
    fn width(&self, s: f32) -> f32 {
        let top_a = self.a.0[..self.a.1]
            .iter()
            .fold(f32::NEG_INFINITY, |m, l| m.max(l.x + l.y * s));
        let low_b = self.b.0[..self.b.1]
            .iter()
            .fold(f32::INFINITY, |m, l| m.min(l.x + l.y * s));
        low_b - top_a - self.radii - 0.5 * self.curve * s * s
    }

    /// How long `G` stays above the level, within `rest`. `G` is concave
    /// (a minimum of lines, less a maximum of lines, less a parabola), so
    /// the times it stays above form one interval from `0`, which bisection
    /// keeps a time of. It is searched below the root of one pair's
    /// quadratic, the lines of B's lowest and A's highest point at `0`
    /// (above `G`, as any pair is).
    fn free_until(&self, rest: f32) -> SlabFree {
        let g0 = self.width(0.0);
        if !(rest > 0.0) || !(g0 > self.level) {
            return SlabFree::Until(0.0);
        }
        let pick = |lines: &[Vec2], low: bool| {
            lines.iter().copied().reduce(|p, q| {
                let better = if low { q.x < p.x } else { q.x > p.x };
                if better {
                    q
                } else {
                    p
                }
            })
        };
        let (Some(la), Some(lb)) = (
            pick(&self.a.0[..self.a.1], false),
            pick(&self.b.0[..self.b.1], true),
        ) else {
            return SlabFree::Until(0.0);
        };
        // g0 − level + σ·s − ½·K·s² = 0, its positive root (or none).
        let (room, sigma, k) = (g0 - self.level, lb.y - la.y, self.curve);
        let disc = sigma * sigma + 2.0 * k * room;
        let upper = if k > 0.0 {
            (sigma + disc.sqrt()) / k
        } else if sigma < 0.0 {
            room / -sigma
        } else {
            f32::INFINITY
        };
        // (An unbounded `max_time` gives an infinite `rest`.)
        let mut hi = rest.min(f32::MAX);
        if !(upper < hi) {
            if self.width(hi) > self.level {
                return SlabFree::Beyond;
            }
        } else {
            hi = upper;
        }
        let mut lo = 0.0f32;
        for _ in 0..SLAB_BISECTIONS {
            let mid = 0.5 * (lo + hi);
            if self.width(mid) > self.level {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        SlabFree::Until(lo)
    }
}
