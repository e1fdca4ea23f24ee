//! The linear cast of two convex cores: a ray cast from the origin against
//! their Minkowski difference (van den Bergen, "Ray casting against general
//! convex objects with application to continuous collision detection", 2004).
//!
//! B translates by `vrel·λ` relative to A (A's frame). With `D = A_core − B_core`
//! (B at its start pose), the cores are `R = r_a + r_b + target` apart exactly
//! when the point `x(λ) = vrel·λ` is at distance `R` from `D`. GJK runs on `D`
//! seen from `x`: its closest point `p` of the simplex gives `v = p − x`, and
//! each support point `s` along `−v` gives a plane `u·y <= u·s` (`u = −v/|v|`)
//! holding all of `D`. While that plane is more than `R` from `x`, the ray
//! jumps to where it is exactly `R` away: no earlier point of the ray can be
//! within `R` of `D`, so the advance never passes the first contact. The
//! simplex is kept across jumps (its points shifted by the jump), so the whole
//! cast costs about one GJK run. Contact is reported when `|v| <= R + tol`:
//! `|v|` bounds the distance from above, so the reported distance is within
//! the tolerance.

use crate::math::tolerance::GJK_MAX_ITERATIONS;
use crate::math::{Pose3, Vec3};
use crate::query::gjk::{Simplex, SupportMap, SupportPoint};
use glam::Mat3;

/// The outcome of [`cast_cores`].
#[derive(Debug, Clone, Copy)]
pub(super) enum CoreCast {
    /// First contact at `time > 0`; points on the shapes' surfaces (radii
    /// applied, B moved to `time`) and the normal from A to B, A's frame.
    Hit {
        time: f32,
        point_a: Vec3,
        point_b: Vec3,
        normal: Vec3,
    },
    /// Within `R + tol` at the start: the caller applies the start rule.
    Start,
    /// No contact in `[0, max_time]`.
    Miss,
    /// No convergence; no contact before `time` (a safe restart point).
    Failed(f32),
}

/// The radii of a cast: `r_a`, `r_b` and the target distance.
#[derive(Debug, Clone, Copy)]
pub(super) struct Radii {
    pub a: f32,
    pub b: f32,
    pub target: f32,
}

/// Casts B's core (placed by `pose_ab`, moving by `vrel` per unit time, A's
/// frame) against A's core; see the module docs.
pub(super) fn cast_cores<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose3,
    vrel: Vec3,
    radii: Radii,
    max_time: f32,
    tol: f32,
) -> CoreCast {
    let rot = Mat3::from_quat(pose_ab.rotation);
    let rot_t = rot.transpose();
    let t = pose_ab.translation;
    let sup = |d: Vec3| {
        let pa = a.support(d);
        let pb = rot * b.support(rot_t * -d) + t;
        SupportPoint {
            w: pa - pb,
            a: pa,
            b: pb,
            dir: d,
        }
    };
    let r = radii.a + radii.b + radii.target;
    let mut lambda = 0.0f32;
    let mut x = Vec3::ZERO;
    let mut normal = Vec3::ZERO;
    let mut simplex = Simplex::new();
    let d0 = if t.length_squared() > 0.0 { t } else { -vrel };
    let d0 = if d0.length_squared() > 0.0 {
        d0
    } else {
        Vec3::X
    };
    simplex.push(sup(d0));
    let (mut v, mut inside) = simplex.solve();
    let mut scale = simplex.max_norm_sq().sqrt().max(t.abs().max_element());
    for _ in 0..GJK_MAX_ITERATIONS * 2 {
        let vv = v.as_vec3();
        let vlen = vv.length();
        if !vlen.is_finite() {
            return CoreCast::Failed(lambda);
        }
        if inside || vlen <= r + tol {
            if lambda <= 0.0 {
                return CoreCast::Start;
            }
            // The normal. With no radius (r = 0) the last support plane
            // the ray stopped on separates D and passes within `tol` of the
            // contact: its normal is off by about tol / size at most, while
            // `v` (shorter than `tol`) may point anywhere. With a radius the
            // contact normal is the direction to D's closest point, which `v`
            // gives only once GJK has converged at `x` (`refine`).
            let mut vv = vv;
            if r > 0.0 && !inside && vlen > 1e-6 * scale {
                vv = refine(&sup, &mut simplex, x, vv, scale);
            }
            let vlen = vv.length();
            let plane = r == 0.0 && normal != Vec3::ZERO;
            let n = if vlen > 1e-6 * scale && !plane {
                -vv / vlen
            } else {
                normal
            };
            let (wa, wb) = simplex.witnesses();
            return CoreCast::Hit {
                time: lambda,
                point_a: wa + n * radii.a,
                point_b: wb + vrel * lambda - n * radii.b,
                normal: n,
            };
        }
        let s = sup(-vv);
        scale = scale.max(s.w.abs().max_element());
        let lb = vv.dot(s.w - x) / vlen;
        let mut advanced = false;
        if lb > r {
            let u = -vv / vlen;
            let approach = u.dot(vrel);
            if !(approach < 0.0) {
                // The plane holds D for every later λ too: no contact.
                return CoreCast::Miss;
            }
            lambda += (lb - r) / -approach;
            if !(lambda <= max_time) {
                return CoreCast::Miss;
            }
            let nx = vrel * lambda;
            let shift = nx - x;
            x = nx;
            normal = u;
            advanced = true;
            let mut moved = Simplex::new();
            for p in simplex.points() {
                moved.push(SupportPoint {
                    w: p.w - shift,
                    ..*p
                });
            }
            simplex = moved;
        }
        let w = s.w - x;
        let dup = 4.0 * f32::EPSILON * scale.max(x.abs().max_element());
        if simplex.contains(w, dup * dup) {
            if !advanced {
                // GJK converged at this λ farther than R + tol, yet the
                // last plane is within R: rounding. Let the caller finish.
                return CoreCast::Failed(lambda);
            }
        } else {
            simplex.push(SupportPoint { w, ..s });
        }
        (v, inside) = simplex.solve();
    }
    CoreCast::Failed(lambda)
}

/// GJK at a fixed ray point `x` until `v` (from `x` to the simplex's closest
/// point) points at the closest point of `D`: `|v| <= R + tol` already bounds
/// the distance, but the direction of `v` converges only with GJK's own
/// test `|v|² − v·w <= ε|v|²` (`w` the support along `−v`; Ericson,
/// *Real-Time Collision Detection*, 9.5.2). With `ε = 1e-6` the normal is
/// within about `sqrt(2ε)` radians. Returns the refined `v` (the simplex is
/// refined with it, so the witnesses follow).
fn refine(
    sup: &impl Fn(Vec3) -> SupportPoint,
    simplex: &mut Simplex,
    x: Vec3,
    mut v: Vec3,
    scale: f32,
) -> Vec3 {
    const EPS: f32 = 1.0e-6;
    let dup = 4.0 * f32::EPSILON * scale.max(x.abs().max_element());
    for _ in 0..GJK_MAX_ITERATIONS {
        let s = sup(-v);
        let w = s.w - x;
        let vv = v.length_squared();
        if vv - v.dot(w) <= EPS * vv || simplex.contains(w, dup * dup) {
            break;
        }
        let before = *simplex;
        simplex.push(SupportPoint { w, ..s });
        let (nv, inside) = simplex.solve();
        let nv = nv.as_vec3();
        if inside || !nv.is_finite() || nv.length_squared() >= vv {
            // Rounding: keep the last good simplex and its `v`.
            *simplex = before;
            break;
        }
        v = nv;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::gjk::BoxCore;

    #[test]
    fn boxes_meet_face_on() {
        let a = BoxCore(Vec3::ONE);
        let pose = Pose3::from_translation(Vec3::new(5.0, 0.3, 0.0));
        let radii = Radii {
            a: 0.0,
            b: 0.0,
            target: 0.0,
        };
        match cast_cores(&a, &a, &pose, Vec3::new(-2.0, 0.0, 0.0), radii, 10.0, 1e-5) {
            CoreCast::Hit { time, normal, .. } => {
                assert!((time - 1.5).abs() < 1e-5, "{time}");
                assert!((normal - Vec3::X).length() < 1e-4, "{normal}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            cast_cores(&a, &a, &pose, Vec3::new(2.0, 0.0, 0.0), radii, 10.0, 1e-5),
            CoreCast::Miss
        ));
    }

    #[test]
    fn a_small_ball_on_a_huge_face_gets_the_face_normal() {
        // A 2 mm ball (a point core) flying diagonally into a 200 m wide,
        // 1 cm thick wall: stopping within tolerance leaves GJK's simplex on
        // far corners of the wall, so the normal needs the refinement.
        struct Point;
        impl SupportMap for Point {
            fn support(&self, _: Vec3) -> Vec3 {
                Vec3::ZERO
            }
        }
        let wall = BoxCore(Vec3::new(0.005, 100.0, 100.0));
        let start = Vec3::new(-1.2145618, -0.72903776, 2.5429335);
        let vel = Vec3::new(11.362783, -8.316821, -8.915918);
        let radii = Radii {
            a: 0.0,
            b: 0.002,
            target: 0.0,
        };
        let pose = Pose3::from_translation(start);
        // The automatic tolerance of this pair: 1e-4 of the wall's size.
        let tol = 0.014;
        match cast_cores(&wall, &Point, &pose, vel, radii, 1.0, tol) {
            CoreCast::Hit { time, normal, .. } => {
                // Never late, early by at most the tolerance along x.
                let expected = (-0.007 - start.x) / vel.x;
                assert!(time <= expected + 1e-6, "{time} vs {expected}");
                assert!(time >= expected - tol / vel.x, "{time} vs {expected}");
                assert!((normal + Vec3::X).length() < 1e-3, "{normal}");
            }
            other => panic!("{other:?}"),
        }
    }
}
