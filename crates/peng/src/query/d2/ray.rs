//! Ray casts against a core polygon with a radius, in its local frame.
//!
//! The boundary of a rounded convex polygon is made of its edges pushed out by
//! the radius and of circular arcs around its vertices. Every such piece lies in
//! the shape, so the first entry of a ray is the earliest hit on any piece and
//! its exit the latest. Sharp polygons use the slab clipping of Cyrus and Beck
//! (Ericson, Real-Time Collision Detection 5.3.8), which needs no tolerance at
//! corners.

use super::point;
use super::poly::Poly;
use super::segment::closest_param_on_segment;
use crate::math::quadratic::{line_ball_roots, widen};
use crate::math::tolerance::ZERO_LENGTH_SQ;
use crate::math::{Pose2, Vec2};
use crate::query::types::Ray2;
use glam::{DVec2, DVec3};

/// A local hit: `(toi, point, normal)` with the normal facing against the ray.
pub(crate) type LocalHit = (f32, Vec2, Vec2);

/// The world ray a local cast came from, and the core's pose: near a vertex
/// arc's tangent the roots are redone in f64 from them, since the f32 move of
/// the ray into the core's frame rounds its origin by about `ε` times the
/// world coordinates, and a near-tangent entry moves by the square root of
/// that (seed 860464: a ray 1.5e-7 inside a cap of radius 0.47, 4 from the
/// origin, entered 1.4e-4 late).
#[derive(Clone, Copy)]
pub(crate) struct WorldRay<'a> {
    /// The core's pose.
    pub pose: &'a Pose2,
    /// The ray in the world.
    pub ray: &'a Ray2,
}

impl WorldRay<'_> {
    /// The world ray from the local point `c` (placed in f64), and its
    /// direction, in f64 (`z = 0`).
    fn line64(&self, c: Vec2) -> (DVec3, DVec3) {
        let m = self.ray.origin.as_dvec2() - place64(self.pose, c);
        let d = self.ray.dir.as_dvec2();
        (m.extend(0.0), d.extend(0.0))
    }
}

/// A local vector turned by `pose`'s rotation, in f64 (the rotation
/// normalized in f64).
fn turn64(pose: &Pose2, q: DVec2) -> DVec2 {
    let (c, s) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
    DVec2::new(c * q.x - s * q.y, s * q.x + c * q.y) / c.hypot(s)
}

/// A local point placed by `pose`, in f64.
fn place64(pose: &Pose2, q: Vec2) -> DVec2 {
    turn64(pose, q.as_dvec2()) + pose.translation.as_dvec2()
}

/// Ray-circle roots `(t1, t2)`, `t1 <= t2`, from the line's closest approach to
/// the centre (accurate for grazing rays; see [`line_ball_roots`]), near the
/// tangent from the world ray when there is one.
fn circle_roots(o: Vec2, d: Vec2, c: Vec2, r: f32, world: Option<WorldRay>) -> Option<(f32, f32)> {
    line_ball_roots(o - c, d, r, || match world {
        Some(w) => w.line64(c),
        None => (widen(o) - widen(c), widen(d)),
    })
}

/// Cast against the core (with its radius); `exit` selects the last boundary
/// crossing instead of the first. `world`: the world ray the local one came
/// from, if any.
pub(crate) fn pieces(
    p: &Poly,
    o: Vec2,
    d: Vec2,
    exit: bool,
    world: Option<WorldRay>,
) -> Option<LocalHit> {
    let r = p.radius;
    let v = p.verts();
    let mut best: Option<LocalHit> = None;
    let mut consider = |t: f32, n: Vec2| {
        if t < 0.0 || !t.is_finite() {
            return;
        }
        let better = match best {
            None => true,
            Some((bt, _, _)) => {
                if exit {
                    t > bt
                } else {
                    t < bt
                }
            }
        };
        if better {
            best = Some((t, o + d * t, if exit { -n } else { n }));
        }
    };
    if r > 0.0 {
        for &c in v {
            if let Some((t1, t2)) = circle_roots(o, d, c, r, world) {
                let t = if exit { t2 } else { t1 };
                let x = o + d * t;
                consider(t, (x - c).normalize_or(Vec2::X));
            }
        }
    }
    if v.len() >= 2 {
        for (i, &n) in p.normals().iter().enumerate() {
            let den = n.dot(d);
            if (exit && den <= 0.0) || (!exit && den >= 0.0) {
                continue;
            }
            let a = v[i];
            let b = v[p.next(i)];
            let t = (n.dot(a - o) + r) / den;
            let x = o + d * t - n * r;
            let e = b - a;
            let s = (x - a).dot(e);
            if s >= 0.0 && s <= e.dot(e) {
                consider(t, n);
            }
        }
    }
    if r > 0.0 {
        // The earliest piece decides the time of impact, but near a junction of
        // an edge and a vertex arc their times tie within rounding and the piece
        // found first may be the one whose hidden part was hit (an arc point
        // inside the edge's band). The normal of a rounded core at a boundary
        // point is exact from the point itself: the unit vector from the core's
        // closest point to it, or the edge normal when that closest point is
        // inside an edge (the offset-surface normal).
        best = best.map(|(t, x, _)| {
            let n = rounded_normal(p, x);
            (t, x, if exit { -n } else { n })
        });
    }
    best
}

/// The outward normal of the rounded core at the boundary point `x`: the edge
/// normal when the core point closest to `x` is inside an edge, else the unit
/// vector from the closest vertex to `x` (+x when `x` is on the core:
/// degeneracy policy, rule 3).
///
/// For a segment core the projection parameter decides alone: strictly inside
/// `(0, 1)` the closest point is interior, exactly, even where rounding makes
/// its distance tie with the end's (a hit just past a side/cap junction).
fn rounded_normal(p: &Poly, x: Vec2) -> Vec2 {
    let v = p.verts();
    let facing = |n: Vec2, c: Vec2| if n.dot(x - c) >= 0.0 { n } else { -n };
    match v.len() {
        1 => (x - v[0]).normalize_or(Vec2::X),
        2 => {
            let t = super::segment::closest_param_on_segment(x, v[0], v[1]);
            if t > 0.0 && t < 1.0 {
                facing(p.normals()[0], v[0])
            } else {
                let c = if t <= 0.0 { v[0] } else { v[1] };
                (x - c).normalize_or(Vec2::X)
            }
        }
        _ => {
            // A rounded polygon: the nearest edge point; an interior point wins
            // ties with a vertex.
            let mut best = (f32::INFINITY, v[0], None);
            for i in 0..v.len() {
                let (a, b) = (v[i], v[p.next(i)]);
                let t = super::segment::closest_param_on_segment(x, a, b);
                let c = a + (b - a) * t;
                let d2 = (x - c).length_squared();
                let interior = t > 0.0 && t < 1.0;
                if d2 < best.0 || (interior && d2 <= best.0) {
                    best = (d2, c, interior.then_some(i));
                }
            }
            match best {
                (_, c, Some(i)) => facing(p.normals()[i], c),
                (_, c, None) => (x - c).normalize_or(Vec2::X),
            }
        }
    }
}

/// Cyrus-Beck clipping of the ray against a sharp polygon: entry hit, or exit hit
/// when `exit`.
fn cyrus_beck(p: &Poly, o: Vec2, d: Vec2, exit: bool) -> Option<LocalHit> {
    let (mut tl, mut tu) = (0.0f32, f32::INFINITY);
    let (mut fl, mut fu) = (None, None);
    for (i, (&n, &a)) in p.normals().iter().zip(p.verts()).enumerate() {
        let num = n.dot(a - o);
        let den = n.dot(d);
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
            continue;
        }
        let t = num / den;
        if den < 0.0 {
            if t > tl {
                tl = t;
                fl = Some(i);
            }
        } else if t < tu {
            tu = t;
            fu = Some(i);
        }
        if tu < tl {
            return None;
        }
    }
    if exit {
        let i = fu?;
        Some((tu, o + d * tu, -p.normals()[i]))
    } else {
        let i = fl?;
        let x = o + d * tl;
        on_boundary(p, i, x).then_some((tl, x, p.normals()[i]))
    }
}

/// Whether the entry point `x`, on the line of edge `i`, lies on the
/// polygon's boundary. In exact arithmetic Cyrus-Beck's entry always does;
/// but at the tip of a sliver (nearly collinear vertices) the lines of the
/// two edges meet at a tiny angle, and a ray passing beyond the tip leaves
/// one half-plane only a rounding error before it enters the other, so the
/// `tu < tl` test cannot see the miss (seen: a ray 4.3e-3 past the tip of a
/// triangle 9e-6 wide reported as a hit). The entry must lie on its edge, or
/// on a neighbour where the edges tie, within the rounding of `x`.
fn on_boundary(p: &Poly, i: usize, x: Vec2) -> bool {
    let v = p.verts();
    let near = |k: usize| {
        let (a, b) = (v[k], v[p.next(k)]);
        let c = a + (b - a) * closest_param_on_segment(x, a, b);
        let tol = 1e-5 * (x.abs().max_element() + (b - a).abs().max_element());
        (x - c).length_squared() <= tol * tol
    };
    near(i) || (0..v.len()).any(near)
}

/// Below this `|sin|` of the angle between a ray and the edge (or offset
/// edge) it crosses, the crossing is redone in f64 from the world ray
/// ([`shallow_crossing`]).
const SHALLOW_SIN: f32 = 2e-2;

/// What [`shallow_crossing`] decided.
pub(crate) enum Shallow {
    /// Not a shallow crossing of an edge: the local hit stands.
    Keep,
    /// The time of the crossing, from the world ray.
    Time(f32),
    /// The world ray passes beyond the ends of a bare segment.
    Miss,
}

/// A hit `(t, x, n)` on an edge of a core placed by `pose` (on the edge
/// pushed out by the radius, for a rounded core) where `ray` crosses it at a
/// shallow angle (`local_dir`: the ray's direction in the core's frame, as
/// the local cast had it), redone in f64 from the world ray. The hit slides
/// along the edge by the ray's sideways error over `sin θ`, and the f32
/// change to the local frame alone moves the ray sideways by about 1e-7 of
/// the coordinates: at `sin θ = 1.9e-3` a segment's hit was 3.4e-4 late,
/// and at `sin θ = 1.4e-3` a capsule's side was hit 1.3e-4 early. (Near a
/// vertex arc's tangent the error is second order instead, see
/// [`line_ball_roots`].)
pub(crate) fn shallow_crossing(
    p: &Poly,
    pose: &Pose2,
    ray: &Ray2,
    local_dir: Vec2,
    hit: &LocalHit,
) -> Shallow {
    let n = hit.2;
    if p.count() < 2 || n == Vec2::ZERO {
        return Shallow::Keep;
    }
    if n.dot(local_dir).abs() >= SHALLOW_SIN * local_dir.length() {
        return Shallow::Keep;
    }
    let Some(i) = p.normals().iter().position(|&m| m == n || m == -n) else {
        return Shallow::Keep;
    };
    let v = p.verts();
    let (mut a, mut b) = (place64(pose, v[i]), place64(pose, v[p.next(i)]));
    let e = b - a;
    if p.radius > 0.0 {
        // The offset edge, on the side of the edge the hit point is on.
        let m = p.normals()[i];
        let side = if m.dot(hit.1 - v[i]) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        let mut out = e.perp().normalize_or_zero();
        if out.dot(turn64(pose, m.as_dvec2())) * side < 0.0 {
            out = -out;
        }
        a += out * p.radius as f64;
        b += out * p.radius as f64;
    }
    let (o, d) = (ray.origin.as_dvec2(), ray.dir.as_dvec2());
    // o + t d = a + u e  ⇒  t = (a − o)×e / (d×e), u = (a − o)×d / (d×e).
    let den = d.perp_dot(e);
    if den == 0.0 {
        return Shallow::Keep;
    }
    let (t, u) = ((a - o).perp_dot(e) / den, (a - o).perp_dot(d) / den);
    if (0.0..=1.0).contains(&u) && t >= 0.0 {
        Shallow::Time(t as f32)
    } else if p.count() == 2 && p.radius == 0.0 {
        Shallow::Miss
    } else {
        Shallow::Keep
    }
}

/// The first hit of the ray `o + t d` on the rounded core with `t <= max_toi`
/// (`world`: the world ray it came from, if any).
pub(crate) fn cast(
    p: &Poly,
    o: Vec2,
    d: Vec2,
    max_toi: f32,
    solid: bool,
    world: Option<WorldRay>,
) -> Option<LocalHit> {
    let inside = point::contains(p, o);
    let sharp_area = p.radius == 0.0 && p.has_area();
    let hit = if inside {
        if solid {
            Some((0.0, o, Vec2::ZERO))
        } else if sharp_area {
            cyrus_beck(p, o, d, true)
        } else if p.radius == 0.0 {
            // On a segment or point (no interior): the hit is where it starts.
            let n = if p.count() == 2 {
                let n = p.normals()[0];
                if n.dot(d) > 0.0 {
                    -n
                } else {
                    n
                }
            } else {
                -d.normalize_or_zero()
            };
            Some((0.0, o, n))
        } else {
            pieces(p, o, d, true, world)
        }
    } else if sharp_area {
        cyrus_beck(p, o, d, false)
    } else if p.radius == 0.0 {
        sharp_degenerate(p, o, d)
    } else {
        pieces(p, o, d, false, world)
    };
    hit.filter(|h| h.0 <= max_toi)
}

/// A ray against a bare segment or point (no radius, no area), origin not on it.
fn sharp_degenerate(p: &Poly, o: Vec2, d: Vec2) -> Option<LocalHit> {
    let v = p.verts();
    let a = v[0];
    if p.count() == 1 {
        // Hit only when the point lies on the ray.
        let m = a - o;
        if d.perp_dot(m) == 0.0 && d.dot(m) >= 0.0 {
            return Some((d.dot(m) / d.dot(d), a, -d.normalize_or_zero()));
        }
        return None;
    }
    let b = v[1];
    let e = b - a;
    let den = d.perp_dot(e);
    if den.abs() <= ZERO_LENGTH_SQ.sqrt() * d.length() * e.length() {
        // Parallel: a hit only when collinear, at the nearer end ahead.
        if d.perp_dot(a - o) != 0.0 {
            return None;
        }
        let dd = d.dot(d);
        let (ta, tb) = (d.dot(a - o) / dd, d.dot(b - o) / dd);
        let t = ta.min(tb);
        if t < 0.0 {
            return None;
        }
        return Some((t, o + d * t, -d.normalize_or_zero()));
    }
    // o + t d = a + s e  ⇒  t = (a - o)×e / (d×e), s = (a - o)×d / (d×e).
    let t = (a - o).perp_dot(e) / den;
    let s = (a - o).perp_dot(d) / den;
    if t < 0.0 || !(0.0..=1.0).contains(&s) {
        return None;
    }
    let n = p.normals()[0];
    Some((t, o + d * t, if n.dot(d) > 0.0 { -n } else { n }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::d2::poly::{test_buf, test_core};
    use crate::shape::d2::Rect;

    #[test]
    fn box_and_capsule_hits() {
        let b = test_core(Rect::new(Vec2::new(2.0, 1.0)).unwrap().into());
        let h = cast(&b, Vec2::new(-5.0, 0.0), Vec2::X, 10.0, true, None).unwrap();
        assert!((h.0 - 3.0).abs() < 1e-6 && h.2 == Vec2::NEG_X);
        let h = cast(&b, Vec2::ZERO, Vec2::X, 10.0, false, None).unwrap();
        assert!((h.0 - 2.0).abs() < 1e-6 && h.2 == Vec2::NEG_X);
        assert_eq!(
            cast(&b, Vec2::ZERO, Vec2::X, 10.0, true, None).unwrap().0,
            0.0
        );
        assert!(cast(&b, Vec2::new(-5.0, 0.0), Vec2::X, 2.9, true, None).is_none());
        let c = Poly::segment(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.5, test_buf());
        let h = cast(&c, Vec2::new(-5.0, 1.2), Vec2::X, 10.0, true, None).unwrap();
        let want = 5.0 - (0.25f32 - 0.04).sqrt();
        assert!((h.0 - want).abs() < 1e-5);
        let h = cast(&c, Vec2::new(-5.0, 0.3), Vec2::X, 10.0, true, None).unwrap();
        assert!((h.0 - 4.5).abs() < 1e-6 && h.2 == Vec2::NEG_X);
        let s = Poly::segment(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.0, test_buf());
        let h = cast(&s, Vec2::new(-5.0, 0.3), Vec2::X, 10.0, true, None).unwrap();
        assert!((h.0 - 5.0).abs() < 1e-6 && h.2 == Vec2::NEG_X);
    }
}
