//! A second, much tighter look at a box the inclusion search would report:
//! the contact function evaluated in double-double arithmetic (the exact
//! differences of the inputs, error-free products and sums: Dekker, "A
//! floating-point technique for extending the available precision", 1971;
//! Shewchuk, "Adaptive precision floating-point arithmetic", 1997), whose
//! error is of order `U²` instead of `U`. The box is bisected further (below
//! the time tolerance too) until every sub-box is excluded (the box held a
//! near miss, not a contact), a sub-box lies within the band around 0, or a
//! small budget runs out (in the last two cases the box is reported as
//! before). The search verifies at most `MAX_VERIFICATIONS` boxes per query.

use super::system::{ParamBox, U};
use glam::DVec3;

/// Boxes examined per verification.
const BUDGET: u32 = 60;
/// Parameter intervals narrower than this are not split.
const MIN_WIDTH: f64 = 1.0 / (1u64 << 60) as f64;
/// One box per level: 60 per parameter, plus slack.
const STACK: usize = 200;

/// `a + b = s + e` exactly (Knuth's two-sum).
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    (s, (a - av) + (b - bv))
}

/// `a − b = s + e` exactly.
#[inline]
fn two_diff(a: f64, b: f64) -> (f64, f64) {
    two_sum(a, -b)
}

/// Dekker's split of `a` into two 26-bit halves.
#[inline]
fn split(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a; // 2^27 + 1
    let hi = c - (c - a);
    (hi, a - hi)
}

/// `a·b = p + e` exactly (Dekker's two-product; no FMA needed).
#[inline]
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
}

/// A double-double value `hi + lo`.
#[derive(Debug, Clone, Copy)]
struct Dd(f64, f64);

impl Dd {
    #[inline]
    fn add(self, o: Dd) -> Dd {
        let (s, e) = two_sum(self.0, o.0);
        let (h, l) = two_sum(s, e + self.1 + o.1);
        Dd(h, l)
    }
    #[inline]
    fn sub(self, o: Dd) -> Dd {
        self.add(Dd(-o.0, -o.1))
    }
    /// `self · x` for a double `x`.
    #[inline]
    fn scale(self, x: f64) -> Dd {
        let (p, e) = two_prod(self.0, x);
        let (h, l) = two_sum(p, e + self.1 * x);
        Dd(h, l)
    }
    /// `self · o`.
    #[inline]
    fn mul(self, o: Dd) -> Dd {
        let (p, e) = two_prod(self.0, o.0);
        let (h, l) = two_sum(p, e + (self.0 * o.1 + self.1 * o.0 + self.1 * o.1));
        Dd(h, l)
    }
}

/// The exact differences `D`, `P`, `Q` of a system, per time and axis.
pub(crate) struct Precise {
    d: [[Dd; 3]; 2],
    p: [[Dd; 3]; 2],
    q: [[Dd; 3]; 2],
    triangle: bool,
    /// Per axis: the bound `E₂` on |double-double corner − exact corner|.
    error: [f64; 3],
    ms: f64,
}

fn exact(pairs: [[DVec3; 2]; 2]) -> [[Dd; 3]; 2] {
    pairs.map(|[a, b]| {
        let x = two_diff(a.x, b.x);
        let y = two_diff(a.y, b.y);
        let z = two_diff(a.z, b.z);
        [Dd(x.0, x.1), Dd(y.0, y.1), Dd(z.0, z.1)]
    })
}

impl Precise {
    /// From the operand pairs of D, P, Q (see `system::*_operands`).
    pub(crate) fn new(operands: [[[DVec3; 2]; 2]; 3], triangle: bool, ms: f64) -> Self {
        let [d, p, q] = operands;
        let (d, p, q) = (exact(d), exact(p), exact(q));
        // Each double-double operation above errs by a few U² of the
        // magnitudes involved, all bounded by A = Σ|D| + |P| + |Q| (both
        // times); about 20 operations reach a corner. 1024·U²·A is a wide
        // margin (still ~1e-29·A), plus an underflow slack.
        let mut error = [0.0; 3];
        for (a, e) in error.iter_mut().enumerate() {
            let mut mag = 0.0;
            for i in 0..2 {
                mag += d[i][a].0.abs() + p[i][a].0.abs() + q[i][a].0.abs();
            }
            *e = 1024.0 * U * U * mag * 2.0 + 1e-290;
        }
        Precise {
            d,
            p,
            q,
            triangle,
            error,
            ms: if ms > 0.0 { ms } else { 0.0 },
        }
    }

    /// The corners of `b` rounded to doubles, and per corner and axis the
    /// bound of the rounded value's error (`U·|v| + E₂`).
    fn corners(&self, b: &ParamBox) -> ([[f64; 3]; 8], [[f64; 3]; 8]) {
        let mut val = [[0.0; 3]; 8];
        let mut err = [[0.0; 3]; 8];
        for (js, &s) in b.s.iter().enumerate() {
            let w = if self.triangle {
                let (h, l) = two_diff(1.0, s);
                Dd(h, l)
            } else {
                Dd(1.0, 0.0)
            };
            for (jr, &r) in b.r.iter().enumerate() {
                let wr = w.scale(r);
                for a in 0..3 {
                    let g = |i: usize| {
                        self.d[i][a]
                            .add(self.p[i][a].scale(s))
                            .add(wr.mul(self.q[i][a]))
                    };
                    let (g0, g1) = (g(0), g(1));
                    let diff = g1.sub(g0);
                    for (it, &t) in b.t.iter().enumerate() {
                        let f = g0.add(diff.scale(t));
                        let v = f.0 + f.1;
                        let k = 4 * it + 2 * js + jr;
                        val[k][a] = v;
                        err[k][a] = U * v.abs() + self.error[a];
                    }
                }
            }
        }
        (val, err)
    }

    /// Whether `b` may still hold a contact after a closer look: `false`
    /// only when every part of it is excluded with the tight bounds.
    /// Each box examined counts in `work`; the look stops (answering `true`)
    /// after `BUDGET` boxes or when `work` exceeds `max_work`.
    pub(crate) fn may_hold_contact(&self, b: &ParamBox, work: &mut u32, max_work: u32) -> bool {
        let mut stack = [*b; STACK];
        let mut len = 1;
        let mut own = 0;
        while len > 0 {
            len -= 1;
            let b = stack[len];
            own += 1;
            *work += 1;
            if own > BUDGET || *work > max_work {
                return true;
            }
            let (val, err) = self.corners(&b);
            let mut lo = [f64::INFINITY; 3];
            let mut hi = [f64::NEG_INFINITY; 3];
            for k in 0..8 {
                for a in 0..3 {
                    lo[a] = lo[a].min(val[k][a] - err[k][a]);
                    hi[a] = hi[a].max(val[k][a] + err[k][a]);
                }
            }
            // NaN compares false: not excluded.
            if (0..3).any(|a| lo[a] > self.ms || hi[a] < -self.ms) {
                continue;
            }
            if (0..3).all(|a| lo[a] >= -self.ms && hi[a] <= self.ms) {
                return true;
            }
            // Split the parameter with the largest share of the axes' widths.
            let widths = [b.t[1] - b.t[0], b.s[1] - b.s[0], b.r[1] - b.r[0]];
            let mut dim = None;
            let mut most = 0.0;
            for (k, &wk) in widths.iter().enumerate() {
                if wk <= MIN_WIDTH {
                    continue;
                }
                let step = [4usize, 2, 1][k];
                let mut score = 0.0;
                for a in 0..3 {
                    let mut v = 0.0f64;
                    for c in 0..8 {
                        if c & step == 0 {
                            v = v.max((val[c + step][a] - val[c][a]).abs());
                        }
                    }
                    score += v / (hi[a] - lo[a]);
                }
                if score > most || score.is_nan() {
                    dim = Some(k);
                    most = score;
                }
            }
            let Some(dim) = dim else {
                return true;
            };
            if len + 2 > STACK {
                return true;
            }
            let (mut l, mut h) = (b, b);
            let (x, y) = match dim {
                0 => (&mut l.t, &mut h.t),
                1 => (&mut l.s, &mut h.s),
                _ => (&mut l.r, &mut h.r),
            };
            let mid = x[0] + (x[1] - x[0]) * 0.5;
            x[1] = mid;
            y[0] = mid;
            stack[len] = h;
            stack[len + 1] = l;
            len += 2;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::system::{vertex_face_operands, System};
    use super::*;

    #[test]
    fn excludes_a_near_miss_below_the_double_error_bound() {
        // A vertex creeping past the corner (1, 0) of the unit right triangle
        // in its plane, at a gap of 2^-47 at t = 1/2 (about 7e-15, below the
        // double-precision bound of about 2e-14 here).
        let tri = [DVec3::ZERO, DVec3::X, DVec3::Y];
        let (g, e) = ((2.0f64).powi(-47), (2.0f64).powi(-20));
        let p0 = DVec3::new(1.0 + g - e, -e, 0.0);
        let p1 = DVec3::new(1.0 + g + e, e, 0.0);
        let near = ParamBox {
            t: [0.5 - 1e-9, 0.5 + 1e-9],
            s: [1.0 - 1e-9, 1.0],
            r: [0.0, 1e-9],
        };
        let sys = System::vertex_face(p0, tri, p1, tri, 0.0);
        assert!(sys.may_vanish(&sys.corners(&near)), "doubles cannot tell");
        let precise = Precise::new(vertex_face_operands(p0, tri, p1, tri), true, 0.0);
        let mut work = 0;
        assert!(
            !precise.may_hold_contact(&near, &mut work, 10_000),
            "{work}"
        );
        // Through the corner itself: a contact stays.
        let (q0, q1) = (p0 - DVec3::X * g, p1 - DVec3::X * g);
        let touching = Precise::new(vertex_face_operands(q0, tri, q1, tri), true, 0.0);
        let mut work = 0;
        assert!(touching.may_hold_contact(&near, &mut work, 10_000));
    }

    #[test]
    fn error_free_transformations_are_exact() {
        let (s, e) = two_sum(1.0, 1e-20);
        assert_eq!((s, e), (1.0, 1e-20));
        let a = 1.0 + f64::EPSILON;
        let (p, e) = two_prod(a, a);
        // (1 + ε)² = 1 + 2ε + ε²: the error term holds ε².
        assert_eq!(p, 1.0 + 2.0 * f64::EPSILON);
        assert_eq!(e, f64::EPSILON * f64::EPSILON);
    }
}
