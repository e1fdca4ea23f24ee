//! GJK distance between two convex vertex sets in 2D, with a warm-start cache.
//!
//! Gilbert, Johnson, Keerthi (1988); the simplex solver follows the barycentric
//! Voronoi-region formulation of Ericson, Real-Time Collision Detection 9.5, and
//! Catto, "Computing Distance using GJK" (GDC 2010). The Minkowski difference is
//! `B - A`: a simplex vertex is `w = b - a`, so the closest point of the simplex
//! to the origin is the vector from A's closest point to B's.

use super::poly::Poly;
use crate::math::tolerance::{GJK_MAX_ITERATIONS, ZERO_LENGTH_SQ};
use crate::math::Vec2;
use crate::query::types::Feature;

/// The simplex of the previous GJK run (vertex indices into both shapes), used to
/// warm-start the next run on the same pair (Box2D v3's simplex cache idea).
///
/// Start with [`GjkCache2::default`]; pass the same cache for the same pair of
/// shapes frame after frame. A cache whose indices no longer fit the shapes is
/// ignored. [`distance_cached`](super::distance_cached) fills it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GjkCache2 {
    count: u8,
    index_a: [u16; 3],
    index_b: [u16; 3],
    iterations: u32,
}

impl GjkCache2 {
    /// An empty cache (a cold start).
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of cached simplex vertices (0 when empty).
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether the cache holds no simplex.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// GJK iterations (support evaluations) of the last run that used this cache;
    /// 0 when the last query needed no GJK (overlapping cores, or a pair solved in
    /// closed form such as segment-segment).
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// Forgets the simplex.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    pub(crate) fn set_iterations(&mut self, it: u32) {
        self.iterations = it;
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct SimplexVertex {
    wa: Vec2,
    wb: Vec2,
    w: Vec2,
    bary: f32,
    ia: usize,
    ib: usize,
}

impl SimplexVertex {
    fn new(a: &Poly, b: &Poly, ia: usize, ib: usize) -> Self {
        let wa = a.verts()[ia];
        let wb = b.verts()[ib];
        SimplexVertex {
            wa,
            wb,
            w: wb - wa,
            bary: 1.0,
            ia,
            ib,
        }
    }
}

/// Result of a GJK run on two cores.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GjkOutput {
    /// Distance between the cores (0 when they overlap).
    pub distance: f32,
    /// Closest point on A.
    pub pa: Vec2,
    /// Closest point on B.
    pub pb: Vec2,
    /// Unit direction from A to B (face normal when an edge is involved).
    pub normal: Vec2,
    /// Closest feature of A.
    pub feat_a: Feature,
    /// Closest feature of B.
    pub feat_b: Feature,
    /// Whether the simplex enclosed the origin (cores overlap).
    pub overlap: bool,
}

struct Simplex {
    v: [SimplexVertex; 3],
    count: usize,
}

impl Simplex {
    /// Region of segment `v0 v1` closest to the origin (Ericson 5.1.2 in
    /// barycentric form): `d2 = -w0·e` and `d1 = w1·e` are the unnormalised
    /// barycentric weights of the projection.
    fn solve2(&mut self) {
        let (w0, w1) = (self.v[0].w, self.v[1].w);
        let e = w1 - w0;
        let d2 = -w0.dot(e);
        if d2 <= 0.0 {
            self.v[0].bary = 1.0;
            self.count = 1;
            return;
        }
        let d1 = w1.dot(e);
        if d1 <= 0.0 {
            self.v[1].bary = 1.0;
            self.v[0] = self.v[1];
            self.count = 1;
            return;
        }
        let inv = 1.0 / (d1 + d2);
        self.v[0].bary = d1 * inv;
        self.v[1].bary = d2 * inv;
        self.count = 2;
    }

    /// Region of triangle `v0 v1 v2` closest to the origin: vertex regions, then
    /// edge regions (edge weights positive and the opposite triangle weight not),
    /// else the interior (Ericson 9.5.2 / 5.1.5 in 2D).
    fn solve3(&mut self) {
        let (w1, w2, w3) = (self.v[0].w, self.v[1].w, self.v[2].w);
        let e12 = w2 - w1;
        let (d12_1, d12_2) = (w2.dot(e12), -w1.dot(e12));
        let e13 = w3 - w1;
        let (d13_1, d13_2) = (w3.dot(e13), -w1.dot(e13));
        let e23 = w3 - w2;
        let (d23_1, d23_2) = (w3.dot(e23), -w2.dot(e23));
        // Signed areas: the weight of each vertex is the area of the sub-triangle
        // opposite it, signed by the whole triangle's orientation.
        let n123 = e12.perp_dot(e13);
        let d123_1 = n123 * w2.perp_dot(w3);
        let d123_2 = n123 * w3.perp_dot(w1);
        let d123_3 = n123 * w1.perp_dot(w2);

        if d12_2 <= 0.0 && d13_2 <= 0.0 {
            self.v[0].bary = 1.0;
            self.count = 1;
        } else if d12_1 > 0.0 && d12_2 > 0.0 && d123_3 <= 0.0 {
            let inv = 1.0 / (d12_1 + d12_2);
            self.v[0].bary = d12_1 * inv;
            self.v[1].bary = d12_2 * inv;
            self.count = 2;
        } else if d13_1 > 0.0 && d13_2 > 0.0 && d123_2 <= 0.0 {
            let inv = 1.0 / (d13_1 + d13_2);
            self.v[0].bary = d13_1 * inv;
            self.v[2].bary = d13_2 * inv;
            self.v[1] = self.v[2];
            self.count = 2;
        } else if d12_1 <= 0.0 && d23_2 <= 0.0 {
            self.v[1].bary = 1.0;
            self.v[0] = self.v[1];
            self.count = 1;
        } else if d13_1 <= 0.0 && d23_1 <= 0.0 {
            self.v[2].bary = 1.0;
            self.v[0] = self.v[2];
            self.count = 1;
        } else if d23_1 > 0.0 && d23_2 > 0.0 && d123_1 <= 0.0 {
            let inv = 1.0 / (d23_1 + d23_2);
            self.v[1].bary = d23_1 * inv;
            self.v[2].bary = d23_2 * inv;
            self.v[0] = self.v[2];
            self.count = 2;
        } else {
            let sum = d123_1 + d123_2 + d123_3;
            if sum > 0.0 {
                let inv = 1.0 / sum;
                self.v[0].bary = d123_1 * inv;
                self.v[1].bary = d123_2 * inv;
                self.v[2].bary = d123_3 * inv;
                self.count = 3;
            } else {
                // Degenerate (collinear) triangle: fall back to its first edge.
                self.count = 2;
                self.solve2();
            }
        }
    }

    /// Direction from the simplex toward the origin (not normalised).
    fn search_direction(&self) -> Vec2 {
        match self.count {
            1 => -self.v[0].w,
            _ => {
                let e = self.v[1].w - self.v[0].w;
                // The origin lies on the side of the edge where -w0 points.
                if e.perp_dot(-self.v[0].w) > 0.0 {
                    e.perp()
                } else {
                    -e.perp()
                }
            }
        }
    }
}

/// GJK distance between the cores of `a` and `b` (same frame; radii ignored).
pub(crate) fn gjk(a: &Poly, b: &Poly, cache: Option<&mut GjkCache2>) -> GjkOutput {
    let mut s = Simplex {
        v: [SimplexVertex::default(); 3],
        count: 0,
    };
    if let Some(c) = cache.as_deref() {
        let n = c.count as usize;
        if n > 0
            && (0..n)
                .all(|k| (c.index_a[k] as usize) < a.count() && (c.index_b[k] as usize) < b.count())
        {
            for k in 0..n {
                s.v[k] = SimplexVertex::new(a, b, c.index_a[k] as usize, c.index_b[k] as usize);
            }
            s.count = n;
        }
    }
    if s.count == 0 {
        s.v[0] = SimplexVertex::new(a, b, 0, 0);
        s.count = 1;
    }

    let mut iterations = 0u32;
    let mut saved = [(0usize, 0usize); 3];
    while (iterations as usize) < GJK_MAX_ITERATIONS {
        let saved_count = s.count;
        for (k, sv) in saved.iter_mut().enumerate().take(saved_count) {
            *sv = (s.v[k].ia, s.v[k].ib);
        }
        match s.count {
            1 => s.v[0].bary = 1.0,
            2 => s.solve2(),
            _ => s.solve3(),
        }
        if s.count == 3 {
            break;
        }
        let d = s.search_direction();
        if d.length_squared() <= ZERO_LENGTH_SQ {
            break;
        }
        let ia = a.support(-d);
        let ib = b.support(d);
        iterations += 1;
        // No progress when the new vertex was already in the simplex.
        if saved[..saved_count].contains(&(ia, ib)) {
            break;
        }
        s.v[s.count] = SimplexVertex::new(a, b, ia, ib);
        s.count += 1;
    }
    // A simplex left at 3 vertices without solving (iteration cap) is solved now.
    if s.count == 3 {
        s.solve3();
    } else if s.count == 2 {
        s.solve2();
    }

    if let Some(c) = cache {
        c.count = s.count as u8;
        for k in 0..s.count {
            c.index_a[k] = s.v[k].ia as u16;
            c.index_b[k] = s.v[k].ib as u16;
        }
        c.iterations = iterations;
    }

    let verts = &s.v[..s.count];
    let pa = verts.iter().fold(Vec2::ZERO, |p, v| p + v.wa * v.bary);
    let pb = verts.iter().fold(Vec2::ZERO, |p, v| p + v.wb * v.bary);
    if s.count == 3 {
        return GjkOutput {
            distance: 0.0,
            pa,
            pb: pa,
            normal: Vec2::X,
            feat_a: Feature::NONE,
            feat_b: Feature::NONE,
            overlap: true,
        };
    }
    let delta = pb - pa;
    let distance = delta.length();
    let (normal, feat_a, feat_b) = if s.count == 1 {
        let n = if delta.length_squared() > ZERO_LENGTH_SQ {
            delta / distance
        } else {
            Vec2::X
        };
        (n, Feature::vertex(s.v[0].ia), Feature::vertex(s.v[0].ib))
    } else {
        let (v0, v1) = (s.v[0], s.v[1]);
        let e = v1.w - v0.w;
        // The edge normal is exact where pb - pa would lose digits when close.
        let mut n = e.perp().normalize_or_zero();
        if n.dot(v0.w) < 0.0 {
            n = -n;
        }
        if n == Vec2::ZERO {
            n = delta.normalize_or(Vec2::X);
        }
        let fa = if v0.ia == v1.ia {
            Feature::vertex(v0.ia)
        } else {
            Feature::edge(a.edge_between(v0.ia, v1.ia))
        };
        let fb = if v0.ib == v1.ib {
            Feature::vertex(v0.ib)
        } else {
            Feature::edge(b.edge_between(v0.ib, v1.ib))
        };
        (n, fa, fb)
    };
    GjkOutput {
        distance,
        pa,
        pb,
        normal,
        feat_a,
        feat_b,
        overlap: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::d2::poly::{test_buf, test_core};

    fn square(c: Vec2, h: f32) -> Poly<'static> {
        let r = crate::shape::d2::Rect::new(Vec2::splat(h)).unwrap();
        test_core(r.into()).transformed(&crate::math::Pose2::from_translation(c), test_buf())
    }

    #[test]
    fn squares_distance_and_warm_start() {
        let a = square(Vec2::ZERO, 1.0);
        let b = square(Vec2::new(3.0, 0.5), 0.5);
        let mut cache = GjkCache2::default();
        let o = gjk(&a, &b, Some(&mut cache));
        assert!((o.distance - 1.5).abs() < 1e-6);
        assert!((o.normal - Vec2::X).length() < 1e-6);
        let cold = cache.iterations();
        let o2 = gjk(&a, &b, Some(&mut cache));
        assert!((o2.distance - o.distance).abs() < 1e-6);
        assert!(cache.iterations() <= cold);
        // Corner to corner: distance sqrt(2) * 0.5.
        let c = square(Vec2::new(2.0, 2.0), 0.5);
        let o = gjk(&a, &c, None);
        assert!((o.distance - 0.5f32.sqrt()).abs() < 1e-6);
        assert!(!o.overlap);
        let d = square(Vec2::new(0.5, 0.0), 1.0);
        // Overlapping: either the simplex encloses the origin or it touches it.
        let o = gjk(&a, &d, None);
        assert!(o.overlap || o.distance < 1e-6);
    }
}
