//! Triangle geometry in f64 for the depth search and the contact tests:
//! distances from a point to a triangle and between triangles, and whether a few coplanar triangles make one convex polygon.

use glam::{DVec2, DVec3};

/// The distance from `p` to triangle `t` (Ericson, Real-Time Collision
/// Detection, 5.1.5: the closest point found by the Voronoi region of `p`).
pub(crate) fn point_triangle_distance(p: DVec3, t: &[DVec3; 3]) -> f64 {
    let [a, b, c] = *t;
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return ap.length();
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return bp.length();
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (p - (a + ab * (d1 / (d1 - d3)))).length();
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return cp.length();
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return (p - (a + ac * (d2 / (d2 - d6)))).length();
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (p - (b + (c - b) * w)).length();
    }
    let denom = va + vb + vc;
    if denom.abs() < f64::MIN_POSITIVE {
        // A triangle with no area: its closest point lies on an edge.
        return segment_distance(p, a, b)
            .min(segment_distance(p, b, c))
            .min(segment_distance(p, c, a));
    }
    let (v, w) = (vb / denom, vc / denom);
    (p - (a + ab * v + ac * w)).length()
}

/// The distance between two triangles that do not cross: the least of each
/// corner's distance to the other triangle and of the edges' distances to
/// each other (the closest pair of two disjoint triangles has a corner or two
/// edges in it).
pub(crate) fn triangle_distance(s: &[DVec3; 3], t: &[DVec3; 3]) -> f64 {
    let mut best = f64::INFINITY;
    for k in 0..3 {
        best = best
            .min(point_triangle_distance(s[k], t))
            .min(point_triangle_distance(t[k], s));
        for m in 0..3 {
            best = best.min(segments_distance(
                s[k],
                s[(k + 1) % 3],
                t[m],
                t[(m + 1) % 3],
            ));
        }
    }
    best
}

/// The distance between segments `p q` and `r s` (Ericson, 5.1.9).
fn segments_distance(p: DVec3, q: DVec3, r: DVec3, s: DVec3) -> f64 {
    let (d1, d2, w) = (q - p, s - r, p - r);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(w));
    if a <= f64::MIN_POSITIVE {
        return segment_distance(p, r, s);
    }
    if e <= f64::MIN_POSITIVE {
        return segment_distance(r, p, q);
    }
    let (b, c) = (d1.dot(d2), d1.dot(w));
    let denom = a * e - b * b;
    let mut t1 = if denom > 1e-12 * a * e {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t2 = (b * t1 + f) / e;
    if t2 < 0.0 {
        t2 = 0.0;
        t1 = (-c / a).clamp(0.0, 1.0);
    } else if t2 > 1.0 {
        t2 = 1.0;
        t1 = ((b - c) / a).clamp(0.0, 1.0);
    }
    ((p + d1 * t1) - (r + d2 * t2)).length()
}

fn segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let d = b - a;
    let len2 = d.length_squared();
    let s = if len2 > 0.0 {
        ((p - a).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (a + d * s)).length()
}

/// The unit normal of `t`, `None` for a triangle with no area.
pub(crate) fn unit_normal(t: &[DVec3; 3]) -> Option<DVec3> {
    (t[1] - t[0]).cross(t[2] - t[0]).try_normalize()
}

/// Whether the triangles lie in one plane (normals within 1e-6 rad, corners
/// within `eps` of the first's plane) and together cover a convex polygon:
/// the sum of their areas equals the area of their corners' convex hull.
/// Triangles of a mesh do not overlap, so their union then is that hull, and
/// the distance to the union is a convex function.
pub(crate) fn coplanar_convex_union(triangles: &[[DVec3; 3]], eps: f64) -> bool {
    let Some(n) = triangles.first().and_then(unit_normal) else {
        return false;
    };
    let origin = triangles[0][0];
    for t in triangles {
        let Some(m) = unit_normal(t) else {
            return false;
        };
        if m.cross(n).length() > 1e-6 || t.iter().any(|v| (*v - origin).dot(n).abs() > eps) {
            return false;
        }
    }
    let u = n.any_orthonormal_vector();
    let w = n.cross(u);
    let flat: Vec<DVec2> = triangles
        .iter()
        .flatten()
        .map(|v| DVec2::new((*v - origin).dot(u), (*v - origin).dot(w)))
        .collect();
    let area_sum: f64 = flat
        .chunks_exact(3)
        .map(|t| 0.5 * (t[1] - t[0]).perp_dot(t[2] - t[0]).abs())
        .sum();
    let hull = hull_area(flat);
    hull > 0.0 && area_sum >= hull * (1.0 - 1e-9)
}

/// The area of the convex hull of `points` (Andrew's monotone chain).
fn hull_area(mut points: Vec<DVec2>) -> f64 {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return 0.0;
    }
    let mut hull: Vec<DVec2> = Vec::with_capacity(2 * points.len());
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &DVec2>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &p in ordered {
            while hull.len() >= start + 2 {
                let (a, b) = (hull[hull.len() - 2], hull[hull.len() - 1]);
                if (b - a).perp_dot(p - a) > 0.0 {
                    break;
                }
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    let mut area = 0.0;
    for i in 0..hull.len() {
        area += hull[i].perp_dot(hull[(i + 1) % hull.len()]);
    }
    0.5 * area.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> [DVec3; 3] {
        [DVec3::from(a), DVec3::from(b), DVec3::from(c)]
    }

    #[test]
    fn distance_in_every_voronoi_region() {
        let t = tri([0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]);
        let d = |p: [f64; 3]| point_triangle_distance(DVec3::from(p), &t);
        assert!((d([0.5, 0.5, 3.0]) - 3.0).abs() < 1e-12, "face");
        assert!(
            (d([-1.0, -1.0, 0.0]) - 2f64.sqrt()).abs() < 1e-12,
            "corner a"
        );
        assert!(
            (d([3.0, -1.0, 0.0]) - 2f64.sqrt()).abs() < 1e-12,
            "corner b"
        );
        assert!(
            (d([-1.0, 3.0, 0.0]) - 2f64.sqrt()).abs() < 1e-12,
            "corner c"
        );
        assert!((d([1.0, -2.0, 0.0]) - 2.0).abs() < 1e-12, "edge ab");
        assert!((d([-2.0, 1.0, 0.0]) - 2.0).abs() < 1e-12, "edge ac");
        assert!((d([2.0, 2.0, 0.0]) - 2f64.sqrt()).abs() < 1e-12, "edge bc");
        let flat = tri([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]);
        assert!((point_triangle_distance(DVec3::new(1.5, 1.0, 0.0), &flat) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn convex_union_of_coplanar_triangles() {
        let a = tri([0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 1.0]);
        let b = tri([0.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0]);
        assert!(
            coplanar_convex_union(&[a, b], 1e-9),
            "a square from its diagonal"
        );
        // Two triangles of an L: not convex.
        let c = tri([1.0, 0.0, 1.0], [2.0, 0.0, 1.0], [2.0, 1.0, 1.0]);
        assert!(!coplanar_convex_union(&[b, c], 1e-9));
        // Not coplanar.
        let d = tri([0.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.0, 1.0, 2.0]);
        assert!(!coplanar_convex_union(&[a, d], 1e-9));
    }
}
