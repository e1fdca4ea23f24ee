//! Support features of shapes: the face, edge or vertex of a shape that
//! touches a plane with a given outward normal, as a [`Polygon`] (`len` 3 or
//! more for a face, 2 for an edge, 1 for a point). Curved caps are
//! approximated by a regular polygon of [`RIM_POINTS`] points on the rim.

use super::polytopes::AnyPoly;
use crate::math::Vec3;
use crate::query::sat::{Polygon, Polytope};
use crate::query::types::Feature;
use crate::shape::d3::Shape;
use glam::Vec2;

/// Number of rim points approximating a cylinder cap or cone base.
pub(crate) const RIM_POINTS: usize = 8;

/// `(sin φ, cos φ)` of the rim points, `φ = k·τ/8`: a table rather than
/// `sin_cos`, so the octagon is exact (no `sin τ/2 = -8.7e-8`) and the same on
/// every processor (the math library's sines are not correctly rounded, and
/// glibc picks its variant by processor).
const RIM_SIN_COS: [(f32, f32); RIM_POINTS] = {
    use core::f32::consts::FRAC_1_SQRT_2 as H;
    [
        (0.0, 1.0),
        (H, H),
        (1.0, 0.0),
        (H, -H),
        (0.0, -1.0),
        (-H, -H),
        (-1.0, 0.0),
        (-H, H),
    ]
};

/// A face (or a flat cap) is the support feature when its normal is within
/// this cosine of the query direction (about 5.7 degrees); an edge (or a
/// cylinder side, a capsule core) when it is within the matching sine of being
/// perpendicular to it.
pub(crate) const FEATURE_COS: f32 = 0.995;
/// See [`FEATURE_COS`].
pub(crate) const FEATURE_SIN: f32 = 0.099_875;

fn point(out: &mut Polygon, p: Vec3, f: Feature, dir: Vec3) {
    out.clear();
    out.push(p, f, f);
    out.normal = dir;
    out.feature = f;
}

fn segment(out: &mut Polygon, p: Vec3, q: Vec3, fp: Feature, fq: Feature, fe: Feature, dir: Vec3) {
    out.clear();
    out.push(p, fp, fe);
    out.push(q, fq, fe);
    out.normal = dir;
    out.feature = fe;
}

/// The rim polygon at height `y`, counter-clockwise around `+y` when `up`
/// (the angle decreases) else around `-y`; vertex ids start at `first`.
fn rim(out: &mut Polygon, r: f32, y: f32, up: bool, first: usize, face: Feature) {
    out.clear();
    for i in 0..RIM_POINTS {
        let k = if up { (RIM_POINTS - i) % RIM_POINTS } else { i };
        let (s, c) = RIM_SIN_COS[k];
        let next = if up {
            (k + RIM_POINTS - 1) % RIM_POINTS
        } else {
            (k + 1) % RIM_POINTS
        };
        // Edge ids name the pair of rim points the edge joins.
        let e = first
            + k.min(next)
            + if k.min(next) == 0 && k.max(next) == RIM_POINTS - 1 {
                RIM_POINTS
            } else {
                0
            };
        out.push(
            Vec3::new(r * c, y, r * s),
            Feature::vertex(first + k),
            Feature::edge(e),
        );
    }
    out.normal = if up { Vec3::Y } else { Vec3::NEG_Y };
    out.feature = face;
}

/// The support feature of a bounded convex shape along `dir` (local frame,
/// need not be unit). Half-spaces and compounds give an empty polygon.
pub(crate) fn support_feature(shape: &Shape, dir: Vec3, out: &mut Polygon) {
    out.clear();
    let Some(u) = dir.try_normalize() else {
        return;
    };
    match shape {
        Shape::Ball(b) => point(out, u * b.radius(), Feature::vertex(0), u),
        Shape::Capsule(c) => {
            let d = c.b() - c.a();
            let off = u * c.radius();
            if d.dot(u).abs() <= FEATURE_SIN * d.length() && d.length_squared() > 0.0 {
                segment(
                    out,
                    c.a() + off,
                    c.b() + off,
                    Feature::vertex(0),
                    Feature::vertex(1),
                    Feature::edge(0),
                    u,
                );
            } else if d.dot(u) > 0.0 {
                point(out, c.b() + off, Feature::vertex(1), u);
            } else {
                point(out, c.a() + off, Feature::vertex(0), u);
            }
        }
        Shape::Cylinder(c) => {
            let (h, r) = (c.half_height(), c.radius());
            if u.y.abs() >= FEATURE_COS {
                let up = u.y > 0.0;
                rim(
                    out,
                    r,
                    if up { h } else { -h },
                    up,
                    if up { 8 } else { 0 },
                    Feature::face(up as usize),
                );
            } else {
                let rad = Vec2::new(u.x, u.z).normalize_or(Vec2::X) * r;
                let lo = Vec3::new(rad.x, -h, rad.y);
                let hi = Vec3::new(rad.x, h, rad.y);
                if u.y.abs() <= FEATURE_SIN {
                    segment(
                        out,
                        lo,
                        hi,
                        Feature::vertex(16),
                        Feature::vertex(17),
                        Feature::face(2),
                        u,
                    );
                } else if u.y > 0.0 {
                    point(out, hi, Feature::vertex(17), u);
                } else {
                    point(out, lo, Feature::vertex(16), u);
                }
            }
        }
        Shape::Cone(c) => {
            let (h, r) = (c.half_height(), c.radius());
            if -u.y >= FEATURE_COS {
                rim(out, r, -h, false, 1, Feature::face(0));
                return;
            }
            let radial = Vec2::new(u.x, u.z).normalize_or(Vec2::X);
            // Outward normal of the slant side in the meridian plane of `u`.
            let ns = Vec2::new(2.0 * h, r).try_normalize().unwrap_or(Vec2::Y);
            let n3 = Vec3::new(radial.x * ns.x, ns.y, radial.y * ns.x);
            let apex = Vec3::new(0.0, h, 0.0);
            let rimp = Vec3::new(radial.x * r, -h, radial.y * r);
            if n3.dot(u) >= FEATURE_COS {
                segment(
                    out,
                    rimp,
                    apex,
                    Feature::vertex(9),
                    Feature::vertex(0),
                    Feature::face(1),
                    u,
                );
            } else if apex.dot(u) >= rimp.dot(u) {
                point(out, apex, Feature::vertex(0), u);
            } else {
                point(out, rimp, Feature::vertex(9), u);
            }
        }
        _ => {
            let Some(p) = AnyPoly::of(shape) else {
                return;
            };
            polytope_feature(&p, u, out);
        }
    }
}

/// The support feature of a polytope: its most aligned face when within
/// [`FEATURE_COS`], else an edge at the support vertex nearly perpendicular to
/// `u`, else the support vertex.
pub(crate) fn polytope_feature<P: Polytope>(p: &P, u: Vec3, out: &mut Polygon) {
    p.incident_polygon(u, out);
    if out.len() >= 3 && out.normal.dot(u) >= FEATURE_COS {
        return;
    }
    let (v, fv) = p.support_vertex(u);
    let top = v.dot(u);
    let mut best: Option<(usize, f32)> = None;
    for e in 0..p.edge_count() {
        let (a, b) = p.edge(e);
        let len = (b - a).length();
        let lo = a.dot(u).min(b.dot(u));
        let hi = a.dot(u).max(b.dot(u));
        // The edge reaches the support plane and tilts from it by at most the
        // feature angle.
        if (top - hi) <= 1e-6 * len.max(1e-6)
            && hi - lo <= FEATURE_SIN * len
            && len > 0.0
            && best.is_none_or(|(_, m)| lo > m)
        {
            best = Some((e, lo));
        }
    }
    match best {
        Some((e, _)) => {
            let (a, b) = p.edge(e);
            // Vertex features of an edge's ends are not known here: name them
            // by the edge and the end.
            segment(
                out,
                a,
                b,
                Feature::vertex(2 * e),
                Feature::vertex(2 * e + 1),
                Feature::edge(e),
                u,
            );
        }
        None => point(out, v, fv, u),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rim table is the regular octagon: each entry within an ulp of the
    /// sine and cosine of its angle, in f64.
    #[test]
    fn rim_table_is_the_regular_octagon() {
        for (k, &(s, c)) in RIM_SIN_COS.iter().enumerate() {
            let phi = k as f64 * core::f64::consts::TAU / RIM_POINTS as f64;
            assert!((s as f64 - phi.sin()).abs() < 1e-7, "sin at {k}");
            assert!((c as f64 - phi.cos()).abs() < 1e-7, "cos at {k}");
        }
    }
}
