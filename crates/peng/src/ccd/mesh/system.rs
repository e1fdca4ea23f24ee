//! The contact function of a primitive pair as a multilinear map of
//! (time, two surface parameters), and rigorous bounds of its range over a
//! box of parameters.
//!
//! Both primitive pairs reduce to one form (the "inclusion" formulation of
//! Wang, Ferguson, Schneider, Jiang, Attene and Panozzo, "A Large Scale
//! Benchmark and an Inclusion-Based Algorithm for Continuous Collision
//! Detection", ACM TOG 2021): with every vertex moving linearly from its
//! position at `t = 0` to its position at `t = 1`,
//!
//! ```text
//! F(t, s, r) = (1 − t)·G₀(s, r) + t·G₁(s, r),
//! Gᵢ(s, r)   = Dᵢ + s·Pᵢ + w(s)·r·Qᵢ,
//! ```
//!
//! and the primitives touch at time `t` exactly when `F(t, s, r) = 0` for some
//! `(s, r) ∈ [0, 1]²`.
//!
//! - Edge–edge, edges `a→a'` and `b→b'` at parameters `u = s`, `v = r`:
//!   `F = a + u(a' − a) − b − v(b' − b)`, so `D = a − b`, `P = a' − a`,
//!   `Q = b − b'` and `w ≡ 1`.
//! - Vertex–face, vertex `p`, triangle `a b c`, barycentric `u = s`,
//!   `v = (1 − s)·r` (this maps the unit square onto the triangle `u + v ≤ 1`
//!   exactly, instead of the square the paper uses, which is twice as large):
//!   `F = p − a − u(b − a) − v(c − a)`, so `D = p − a`, `P = a − b`,
//!   `Q = a − c` and `w(s) = 1 − s`.
//!
//! In both cases `F` is affine in each of `t`, `s`, `r` separately
//! (multilinear), so over a box of parameters every coordinate of `F` takes its
//! extreme values at the box's 8 corners. The corners are computed in floating
//! point; an error bound (derived in `System::new`) bounds the difference to
//! the exact values, so the
//! test "the corners' range, widened by the error, contains 0" never rejects a
//! box holding a true zero.

use glam::DVec3;

/// The unit roundoff of `f64`, `2⁻⁵³`: `fl(x ∘ y) = (x ∘ y)(1 + δ)`, `|δ| ≤ U`.
pub(crate) const U: f64 = f64::EPSILON * 0.5;

/// Absolute slack added to every bound, for products that underflow (where the
/// relative error model does not hold; each underflowing operation errs by at
/// most `2⁻¹⁰⁷⁵`, far below this).
const UNDERFLOW_SLACK: f64 = 1e-290;

/// The operands `[minuend, subtrahend]` of D, P, Q (vertex–face), per time.
#[inline]
pub(crate) fn vertex_face_operands(
    v0: DVec3,
    f0: [DVec3; 3],
    v1: DVec3,
    f1: [DVec3; 3],
) -> [[[DVec3; 2]; 2]; 3] {
    [
        [[v0, f0[0]], [v1, f1[0]]],
        [[f0[0], f0[1]], [f1[0], f1[1]]],
        [[f0[0], f0[2]], [f1[0], f1[2]]],
    ]
}

/// The operands `[minuend, subtrahend]` of D, P, Q (edge–edge), per time.
#[inline]
pub(crate) fn edge_edge_operands(
    a0: [DVec3; 2],
    b0: [DVec3; 2],
    a1: [DVec3; 2],
    b1: [DVec3; 2],
) -> [[[DVec3; 2]; 2]; 3] {
    [
        [[a0[0], b0[0]], [a1[0], b1[0]]],
        [[a0[1], a0[0]], [a1[1], a1[0]]],
        [[b0[0], b0[1]], [b1[0], b1[1]]],
    ]
}

/// The multilinear contact function of one query.
#[derive(Debug, Clone, Copy)]
pub(crate) struct System {
    d: [DVec3; 2],
    p: [DVec3; 2],
    q: [DVec3; 2],
    /// Vertex–face (`w(s) = 1 − s`) or edge–edge (`w ≡ 1`).
    triangle: bool,

    /// Per axis, the bound on |computed corner − exact corner|.
    error: DVec3,
    /// `error + minimum_separation`: the half-width of the band around 0 a
    /// corner range must reach.
    slack: DVec3,
}

/// A box of parameters `[t₀, t₁] × [s₀, s₁] × [r₀, r₁]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ParamBox {
    pub t: [f64; 2],
    pub s: [f64; 2],
    pub r: [f64; 2],
}

/// The values of `F` at the 8 corners of a box, index `4·i_t + 2·i_s + i_r`.
pub(crate) type Corners = [DVec3; 8];

impl System {
    /// The system of a vertex `v` against a triangle `f` (positions at `t = 0`
    /// and `t = 1`).
    pub(crate) fn vertex_face(
        v0: DVec3,
        f0: [DVec3; 3],
        v1: DVec3,
        f1: [DVec3; 3],
        minimum_separation: f64,
    ) -> Self {
        Self::new(
            [
                [[v0, f0[0]], [v1, f1[0]]],
                [[f0[0], f0[1]], [f1[0], f1[1]]],
                [[f0[0], f0[2]], [f1[0], f1[2]]],
            ],
            true,
            minimum_separation,
        )
    }

    /// The system of edge `a` against edge `b` (endpoints at `t = 0` and
    /// `t = 1`).
    pub(crate) fn edge_edge(
        a0: [DVec3; 2],
        b0: [DVec3; 2],
        a1: [DVec3; 2],
        b1: [DVec3; 2],
        minimum_separation: f64,
    ) -> Self {
        Self::new(
            [
                [[a0[0], b0[0]], [a1[0], b1[0]]],
                [[a0[1], a0[0]], [a1[1], a1[0]]],
                [[b0[0], b0[1]], [b1[0], b1[1]]],
            ],
            false,
            minimum_separation,
        )
    }

    fn new(operands: [[[DVec3; 2]; 2]; 3], triangle: bool, ms: f64) -> Self {
        let diff = |k: usize| operands[k].map(|[a, b]| a - b);
        let (d, p, q) = (diff(0), diff(1), diff(2));
        // Error bound, per axis, with A = |D̃ᵢ| + |P̃ᵢ| + |Q̃ᵢ| summed over both
        // times (computed values; each is one rounded difference of inputs, so
        // it is within a relative U of the exact difference):
        // - Gᵢ = D + s·P + (w·r)·Q with s, w, r ∈ [0, 1]: the inputs' own
        //   rounding (≤ U·A), fl(1 − s), fl(w·r), the two products with
        //   vectors and the two sums: ≤ 6U·Aᵢ (first order).
        // - F = G₀ + t·(G₁ − G₀): the Gs' errors enter at most as
        //   2e₀ + e₁ ≤ 12U·A, and the difference, product and sum round by
        //   ≤ 3U·A more.
        // So |error| ≤ 15U·A + O(U²); we use 32U·A (a margin of 2 for the
        // second-order terms), plus the underflow slack.
        let a = d[0].abs() + p[0].abs() + q[0].abs() + d[1].abs() + p[1].abs() + q[1].abs();
        let error = a * (32.0 * U) + DVec3::splat(UNDERFLOW_SLACK);
        let ms = if ms > 0.0 { ms } else { 0.0 };
        System {
            d,
            p,
            q,
            triangle,
            error,
            slack: error + DVec3::splat(ms),
        }
    }

    /// The difference vectors `(P, Q, D)` at both times: for both pairs, the
    /// four points are coplanar exactly when `det[P, Q, D] = 0`.
    pub(crate) fn differences(&self) -> [[DVec3; 2]; 3] {
        [self.p, self.q, self.d]
    }

    /// `F` at the 8 corners of `b`.
    #[inline]
    pub(crate) fn corners(&self, b: &ParamBox) -> Corners {
        let mut g = [[DVec3::ZERO; 4]; 2];
        for (i, gi) in g.iter_mut().enumerate() {
            for (js, &s) in b.s.iter().enumerate() {
                let w = if self.triangle { 1.0 - s } else { 1.0 };
                let base = self.d[i] + self.p[i] * s;
                for (jr, &r) in b.r.iter().enumerate() {
                    gi[2 * js + jr] = base + self.q[i] * (w * r);
                }
            }
        }
        let mut out = [DVec3::ZERO; 8];
        for (it, &t) in b.t.iter().enumerate() {
            for k in 0..4 {
                out[4 * it + k] = g[0][k] + (g[1][k] - g[0][k]) * t;
            }
        }
        out
    }

    /// The range of `F` over the box whose corner values are `c`.
    #[inline]
    pub(crate) fn range(&self, c: &Corners) -> (DVec3, DVec3) {
        let mut lo = c[0];
        let mut hi = c[0];
        for v in &c[1..] {
            lo = lo.min(*v);
            hi = hi.max(*v);
        }
        (lo, hi)
    }

    /// Whether `F` may come within the minimum separation of 0 (in every axis)
    /// over the box whose corner values are `c`. `false` is certain: the box
    /// holds no contact. NaN corners give `true`.
    #[inline]
    pub(crate) fn may_vanish(&self, c: &Corners) -> bool {
        let (lo, hi) = self.range(c);
        // Written so that NaN compares as "may vanish".
        let apart = lo.cmpgt(self.slack) | hi.cmplt(-self.slack);
        !apart.any()
    }

    /// The half-width of the band around 0 (error bound plus minimum
    /// separation), per axis.
    pub(crate) fn slack(&self) -> DVec3 {
        self.slack
    }

    /// The error bound of a corner value, per axis.
    pub(crate) fn error(&self) -> DVec3 {
        self.error
    }

    /// How much `F` changes along each parameter (t, s, r) over the box: per
    /// axis, the largest change along any edge of the box in that direction.
    #[inline]
    pub(crate) fn variations(&self, c: &Corners) -> [DVec3; 3] {
        let mut vt = DVec3::ZERO;
        let mut vs = DVec3::ZERO;
        let mut vr = DVec3::ZERO;
        for k in 0..4 {
            vt = vt.max((c[k + 4] - c[k]).abs());
        }
        for base in [0, 1, 4, 5] {
            vs = vs.max((c[base + 2] - c[base]).abs());
        }
        for base in [0, 2, 4, 6] {
            vr = vr.max((c[base + 1] - c[base]).abs());
        }
        [vt, vs, vr]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> ParamBox {
        ParamBox {
            t: [0.0, 1.0],
            s: [0.0, 1.0],
            r: [0.0, 1.0],
        }
    }

    #[test]
    fn vertex_face_corners_are_the_triangle_vertices() {
        // Static triangle, vertex at the origin: F = p − point(u, v).
        let f = [DVec3::X, DVec3::Y, DVec3::Z];
        let sys = System::vertex_face(DVec3::ZERO, f, DVec3::ZERO, f, 0.0);
        let c = sys.corners(&unit_box());
        // s = 0, r = 0 → a; s = 0, r = 1 → c; s = 1 → b (both r).
        assert_eq!(c[0], -f[0]);
        assert_eq!(c[1], -f[2]);
        assert_eq!(c[2], -f[1]);
        assert_eq!(c[3], -f[1]);
        assert_eq!(c[4..8], c[0..4]);
        // The box test is per axis: the origin is off the triangle but each
        // coordinate range of F holds 0, so the box cannot be excluded...
        assert!(sys.may_vanish(&c));
        // ...while a vertex at (2, 2, 2) is excluded.
        let p = DVec3::splat(2.0);
        let far = System::vertex_face(p, f, p, f, 0.0);
        assert!(!far.may_vanish(&far.corners(&unit_box())));
    }

    #[test]
    fn edge_edge_crossing_may_vanish() {
        // Edge a along x at z = 1 − 2t, edge b along y at z = 0: cross at t = ½.
        let a0 = [DVec3::new(-1.0, 0.0, 1.0), DVec3::new(1.0, 0.0, 1.0)];
        let a1 = [DVec3::new(-1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, -1.0)];
        let b = [DVec3::new(0.0, -1.0, 0.0), DVec3::new(0.0, 1.0, 0.0)];
        let sys = System::edge_edge(a0, b, a1, b, 0.0);
        let early = ParamBox {
            t: [0.0, 0.25],
            ..unit_box()
        };
        assert!(!sys.may_vanish(&sys.corners(&early)));
        let mid = ParamBox {
            t: [0.25, 0.75],
            ..unit_box()
        };
        assert!(sys.may_vanish(&sys.corners(&mid)));
    }
}
