//! [`MassProperties2::from_shape`]: closed forms for circles, rectangles and
//! capsules; signed-area decomposition for triangles and polygons.

use std::f64::consts::PI;

use glam::{DVec2, Vec2};
use peng::shape::d2::{Capsule, Shape};

use super::props2::MassProperties2;
use super::{check_density, MassError};

impl MassProperties2 {
    /// The mass properties of `shape` made of a material of uniform
    /// `density` (mass per unit area).
    ///
    /// - Circle, rectangle, capsule: closed forms.
    /// - Triangle, convex polygon: signed-area decomposition (either winding).
    /// - Compound: the sum of its parts placed by their poses.
    /// - Segment: no area, so mass 0 (centre at its midpoint, zero inertia).
    ///
    /// # Errors
    /// [`MassError::InvalidDensity`] for a negative or non-finite density;
    /// [`MassError::NotClosed`] for a polyline (it bounds no area); a
    /// compound fails if a part fails.
    pub fn from_shape(shape: &Shape, density: f32) -> Result<MassProperties2, MassError> {
        let rho = check_density(density)?;
        from_shape_f64(shape, rho)
    }
}

fn from_shape_f64(shape: &Shape, rho: f64) -> Result<MassProperties2, MassError> {
    Ok(match shape {
        Shape::Circle(c) => {
            let r = c.radius() as f64;
            let m = rho * PI * r * r;
            body(m, Vec2::ZERO, 0.5 * m * r * r)
        }
        Shape::Rect(r) => {
            let h = r.half_extents().as_dvec2();
            let m = rho * 4.0 * h.x * h.y;
            // (w² + l²) / 12 with w = 2 h.
            body(m, Vec2::ZERO, m * (h.x * h.x + h.y * h.y) / 3.0)
        }
        Shape::Capsule(c) => capsule(c, rho),
        Shape::Segment(s) => body(0.0, (s.a() + s.b()) * 0.5, 0.0),
        Shape::Triangle(t) => polygon(t.vertices(), rho),
        Shape::Polygon(p) => polygon(p.vertices(), rho),
        Shape::Compound(c) => {
            let mut total = MassProperties2::ZERO;
            for (pose, part) in c.parts() {
                total += from_shape_f64(part, rho)?.transformed(pose);
            }
            total
        }
        Shape::Polyline(_) => {
            return Err(MassError::NotClosed {
                kind: "polyline",
                why: "it is a chain of segments that bounds no area",
            })
        }
    })
}

fn body(mass: f64, com: Vec2, inertia: f64) -> MassProperties2 {
    MassProperties2 {
        mass: mass as f32,
        local_com: com,
        inertia: inertia as f32,
    }
}

/// A 2D capsule: a rectangle `L × 2r` plus two half-disks. A half-disk of
/// mass `m_s` has its centre `4r/(3π)` from its flat side and `m_s r² / 2`
/// about the centre of that side, hence `m_s r²/2 − m_s (4r/3π)²` about its
/// own centre, moved by `L/2 + 4r/(3π)` to the capsule's centre.
fn capsule(c: &Capsule, rho: f64) -> MassProperties2 {
    let (a, b) = (c.a().as_dvec2(), c.b().as_dvec2());
    let r = c.radius() as f64;
    let len = (b - a).length();
    let m_rect = rho * 2.0 * r * len;
    let m_half = rho * 0.5 * PI * r * r;
    let k = 4.0 * r / (3.0 * PI);
    let off = 0.5 * len + k;
    let inertia = m_rect * (len * len + 4.0 * r * r) / 12.0
        + 2.0 * (m_half * (0.5 * r * r - k * k + off * off));
    body(m_rect + 2.0 * m_half, ((a + b) * 0.5).as_vec2(), inertia)
}

/// A simple polygon by its vertex loop (either winding): fan of signed
/// triangles from the vertex mean `o`. For a triangle `(o, a, b)`, `a, b`
/// relative to `o`: area `A = (a × b) / 2`, first moment `A (a + b) / 3`,
/// polar second moment `∫ |x|² = A (a·a + a·b + b·b) / 6`.
fn polygon(verts: &[Vec2], rho: f64) -> MassProperties2 {
    if verts.is_empty() {
        return MassProperties2::ZERO;
    }
    let o = verts.iter().map(|v| v.as_dvec2()).sum::<DVec2>() / verts.len() as f64;
    let (mut area, mut first, mut polar) = (0.0f64, DVec2::ZERO, 0.0f64);
    for (i, v) in verts.iter().enumerate() {
        let a = v.as_dvec2() - o;
        let b = verts[(i + 1) % verts.len()].as_dvec2() - o;
        let t = 0.5 * a.perp_dot(b);
        area += t;
        first += (a + b) * (t / 3.0);
        polar += t * (a.dot(a) + a.dot(b) + b.dot(b)) / 6.0;
    }
    if area < 0.0 {
        (area, first, polar) = (-area, -first, -polar);
    }
    if area <= 0.0 || !area.is_finite() {
        return body(0.0, o.as_vec2(), 0.0);
    }
    let com = first / area;
    // About the centre: J_c = J − A |c|².
    let inertia = rho * (polar - area * com.length_squared());
    body(rho * area, (o + com).as_vec2(), inertia.max(0.0))
}
