//! The depth of a surface inside a convex element, exactly.
//!
//! Inside a convex element Y, the distance to its surface is the least of the
//! distances to its faces' planes, `min_k (o_k − n_k · p)`, and outside it
//! that least is negative. Over one of X's triangles each is linear in the
//! barycentric coordinates, so the largest value of their least over the
//! triangle (the deepest point of the triangle inside Y) lies at a vertex of
//! their arrangement: a corner, a point of an edge where two are equal, or an
//! inner point where three are. Boxes, bars, slabs and mitred members are
//! convex: their depths need no search.

use glam::DVec3;

/// Faces' planes of a convex element: at most this many (the vertices of the
/// arrangement grow as the cube of their number).
const MAX_PLANES: usize = 16;

/// The distinct planes `(n, o)` (outward unit normal, `n · x = o` on the
/// plane) of the closed, outward-wound triangles `tris` when every vertex
/// lies behind every plane (within `eps`): the element is convex. `None`
/// otherwise, or past [`MAX_PLANES`] planes.
///
/// Takes the triangles as an iterator (walked twice), so that an element with
/// many faces is turned down at its seventeenth plane without collecting all
/// its triangles first.
pub(super) fn convex_planes<I>(tris: I, eps: f64) -> Option<Vec<(DVec3, f64)>>
where
    I: Iterator<Item = [DVec3; 3]> + Clone,
{
    let mut planes: Vec<(DVec3, f64)> = Vec::new();
    for t in tris.clone() {
        let Some(n) = (t[1] - t[0]).cross(t[2] - t[0]).try_normalize() else {
            continue;
        };
        let o = (n.dot(t[0]) + n.dot(t[1]) + n.dot(t[2])) / 3.0;
        if planes
            .iter()
            .any(|&(m, q)| m.dot(n) > 1.0 - 1e-9 && (q - o).abs() <= eps)
        {
            continue;
        }
        if planes.len() == MAX_PLANES {
            return None;
        }
        planes.push((n, o));
    }
    let convex = tris
        .flat_map(|t| t.into_iter())
        .all(|v| planes.iter().all(|&(n, o)| n.dot(v) - o <= eps));
    (convex && planes.len() >= 4).then_some(planes)
}

/// The deepest point of triangle `t` inside the convex element of `planes`:
/// its depth (negative when the triangle lies outside), the point, and the
/// nearest plane's index there.
pub(super) fn deepest_in_convex(t: &[DVec3; 3], planes: &[(DVec3, f64)]) -> (f64, DVec3, usize) {
    // a[k][i]: plane k's distance inward at corner i.
    let a: Vec<[f64; 3]> = planes
        .iter()
        .map(|&(n, o)| t.map(|v| o - n.dot(v)))
        .collect();
    let value = |l: [f64; 3]| {
        a.iter()
            .enumerate()
            .map(|(k, r)| (r[0] * l[0] + r[1] * l[1] + r[2] * l[2], k))
            .fold((f64::INFINITY, 0), |m, x| if x.0 < m.0 { x } else { m })
    };
    let mut best: Option<(f64, [f64; 3], usize)> = None;
    let mut consider = |l: [f64; 3]| {
        if l.iter().any(|&x| x.is_nan() || x < -1e-12) {
            return;
        }
        let (v, k) = value(l);
        if best.is_none_or(|(b, _, _)| v > b) {
            best = Some((v, l, k));
        }
    };
    for k in 0..3 {
        let mut l = [0.0; 3];
        l[k] = 1.0;
        consider(l);
    }
    for (x, p) in a.iter().enumerate() {
        for (y, q) in a.iter().enumerate().skip(x + 1) {
            // Along each edge (i, j): where the two are equal.
            for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                let (di, dj) = (p[i] - q[i], p[j] - q[j]);
                if di != dj {
                    let s = di / (di - dj);
                    if (0.0..=1.0).contains(&s) {
                        let mut l = [0.0; 3];
                        l[i] = 1.0 - s;
                        l[j] = s;
                        consider(l);
                    }
                }
            }
            // Inside: where three are equal. With l0 = 1 − l1 − l2, each
            // plane is r0 + (r1 − r0) l1 + (r2 − r0) l2.
            for r in &a[y + 1..] {
                let row = |u: &[f64; 3], w: &[f64; 3]| {
                    [
                        (u[1] - u[0]) - (w[1] - w[0]),
                        (u[2] - u[0]) - (w[2] - w[0]),
                        w[0] - u[0],
                    ]
                };
                let (e1, e2) = (row(p, q), row(p, r));
                let det = e1[0] * e2[1] - e1[1] * e2[0];
                if det.abs() > 1e-300 {
                    let l1 = (e1[2] * e2[1] - e1[1] * e2[2]) / det;
                    let l2 = (e1[0] * e2[2] - e1[2] * e2[0]) / det;
                    consider([1.0 - l1 - l2, l1, l2]);
                }
            }
        }
    }
    let (v, l, k) = best.expect("the corners are candidates");
    (v, t[0] * l[0] + t[1] * l[1] + t[2] * l[2], k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The triangles of the box `[0, 1]³`, wound outward.
    fn unit_box() -> Vec<[DVec3; 3]> {
        let c = |i: u32| DVec3::new(f64::from(i & 1), f64::from((i >> 1) & 1), f64::from(i >> 2));
        let quads = [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ];
        quads
            .iter()
            .flat_map(|q| [[c(q[0]), c(q[1]), c(q[2])], [c(q[0]), c(q[2]), c(q[3])]])
            .collect()
    }

    /// A small deterministic generator (xorshift).
    struct Draws(u64);
    impl Draws {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn a_box_is_convex_an_l_is_not() {
        let planes = convex_planes(unit_box().into_iter(), 1e-9).expect("convex");
        assert_eq!(planes.len(), 6);
        // A notch: one corner pushed inward breaks convexity.
        let mut notched = unit_box();
        for t in &mut notched {
            for v in t.iter_mut() {
                if *v == DVec3::ONE {
                    *v = DVec3::splat(0.6);
                }
            }
        }
        assert!(convex_planes(notched.into_iter(), 1e-9).is_none());
    }

    /// Against brute force over the triangle: random triangles through and
    /// around the unit box; the deepest point's depth is the largest sampled
    /// one (within the sampling step), and the point gives that depth.
    #[test]
    fn matches_brute_force_on_random_triangles() {
        let planes = convex_planes(unit_box().into_iter(), 1e-9).unwrap();
        let depth = |p: DVec3| {
            planes
                .iter()
                .map(|&(n, o)| o - n.dot(p))
                .fold(f64::INFINITY, f64::min)
        };
        let mut r = Draws(0x2545_F491_4F6C_DD1D);
        for _ in 0..300 {
            let t = [0, 1, 2]
                .map(|_| DVec3::new(r.next(), r.next(), r.next()) * 1.6 - DVec3::splat(0.3));
            let (v, p, _) = deepest_in_convex(&t, &planes);
            assert!((depth(p) - v).abs() < 1e-9, "{v} at {p}");
            let mut most = f64::NEG_INFINITY;
            for i in 0..=60 {
                for j in 0..=(60 - i) {
                    let (s, u) = (f64::from(i) / 60.0, f64::from(j) / 60.0);
                    most = most.max(depth(t[0] * (1.0 - s - u) + t[1] * s + t[2] * u));
                }
            }
            let step = (t[1] - t[0]).length().max((t[2] - t[0]).length()) / 60.0;
            assert!(v >= most - 1e-9 && v <= most + step, "{v} against {most}");
        }
    }
}
