//! The coplanarity filter: with a minimum separation of 0, a vertex can only
//! touch a triangle, and an edge another edge, at a time when the four points
//! are coplanar. With linear motion, the signed volume
//! `V(t) = det[X(t), Y(t), Z(t)]` of three difference vectors is a cubic in
//! `t` (Provot, "Collision and self-collision handling in cloth model
//! dedicated to design garments", 1997; Bridson, Fedkiw and Anderson,
//! "Robust treatment of collisions, contact and friction for cloth animation",
//! SIGGRAPH 2002).
//!
//! We write the cubic in Bernstein form on `[0, 1]`, where its coefficients
//! come straight from the end positions: the determinant is trilinear, so with
//! `X(t) = (1 − t)X₀ + tX₁` (and alike for Y, Z)
//!
//! ```text
//! V(t) = Σₖ bₖ·C(3,k)(1 − t)^(3−k) tᵏ,
//! C(3,k)·bₖ = Σ_{i+j+l=k} det[Xᵢ, Yⱼ, Z_l].
//! ```
//!
//! A cubic lies in the convex hull of its Bernstein coefficients (Farin,
//! "Curves and Surfaces for CAGD", ch. 4): if all of them are certainly
//! positive (or all negative), `V` has no root and the primitives never touch.
//! Otherwise de Casteljau subdivision narrows down the time intervals where
//! `V` may vanish; only those go to the inclusion search.

use super::system::U;
use glam::DVec3;

/// Subdivision depth: at most `2^DEPTH` pieces of width `2^-DEPTH`.
const DEPTH: u32 = 5;
/// The most intervals returned (further candidates merge into the last one).
pub(crate) const MAX_INTERVALS: usize = 8;

/// Time intervals, sorted and disjoint, outside which the cubic certainly
/// has no root.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Intervals {
    pub items: [[f64; 2]; MAX_INTERVALS],
    pub len: usize,
}

impl Intervals {
    fn push(&mut self, lo: f64, hi: f64) {
        if self.len > 0 && (self.items[self.len - 1][1] >= lo || self.len == MAX_INTERVALS) {
            self.items[self.len - 1][1] = hi;
        } else {
            self.items[self.len] = [lo, hi];
            self.len += 1;
        }
    }

    /// The whole interval `[0, 1]`.
    pub(crate) fn all() -> Self {
        let mut out = Intervals {
            items: [[0.0; 2]; MAX_INTERVALS],
            len: 0,
        };
        out.push(0.0, 1.0);
        out
    }

    /// The intervals as a slice.
    pub(crate) fn as_slice(&self) -> &[[f64; 2]] {
        &self.items[..self.len]
    }
}

/// `det[x, y, z]` and the sum of the absolute values of its six products.
#[inline]
fn det_with_bound(x: DVec3, y: DVec3, z: DVec3) -> (f64, f64) {
    let det = x.dot(y.cross(z));
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let perm = ax.x * (ay.y * az.z + ay.z * az.y)
        + ax.y * (ay.x * az.z + ay.z * az.x)
        + ax.z * (ay.x * az.y + ay.y * az.x);
    (det, perm)
}

/// The intervals of `[0, 1]` where the coplanarity cubic of
/// `X(t), Y(t), Z(t)` (each the difference of two input points, given at
/// `t = 0` and `t = 1`) may vanish. Empty: the four points are never
/// coplanar.
pub(crate) fn candidate_intervals(x: [DVec3; 2], y: [DVec3; 2], z: [DVec3; 2]) -> Intervals {
    // The 8 determinants det[X_i, Y_j, Z_l], grouped by k = i + j + l.
    let mut sum = [0.0f64; 4];
    let mut perm = [0.0f64; 4];
    for i in 0..2 {
        for j in 0..2 {
            for l in 0..2 {
                let (d, p) = det_with_bound(x[i], y[j], z[l]);
                sum[i + j + l] += d;
                perm[i + j + l] += p;
            }
        }
    }
    // Error bound of each Σ det (before dividing by C(3,k)): X, Y, Z are one
    // rounded difference of inputs each, so each factor is within a relative
    // U of the exact one (≤ 3U on a product of three); the cross product
    // rounds with γ₂ and the dot product with γ₃ relative to the sum of the
    // absolute products (`perm`); the sum of up to 3 determinants adds γ₂
    // relative to Σ perm. First order: (3 + 2 + 3 + 2)U·Σperm = 10U·Σperm; we
    // use 16U (margin for second-order terms and for the rounding of perm
    // itself), and an absolute slack for underflow.
    let binom = [1.0, 3.0, 3.0, 1.0];
    let mut b = [0.0f64; 4];
    let mut err = 0.0f64;
    for k in 0..4 {
        b[k] = sum[k] / binom[k];
        // Division by 3 rounds once more: U·|b|.
        err = err.max(16.0 * U * perm[k] / binom[k] + U * b[k].abs());
    }
    err += 1e-290;
    let mut out = Intervals {
        items: [[0.0; 2]; MAX_INTERVALS],
        len: 0,
    };
    // Depth-first subdivision, earlier halves first, so intervals come sorted.
    let mut stack = [([0.0f64; 4], 0.0f64, 0.0f64, 0.0f64, 0u32); DEPTH as usize + 2];
    let mut len = 1;
    stack[0] = (b, err, 0.0, 1.0, 0);
    while len > 0 {
        len -= 1;
        let (b, err, lo, hi, depth) = stack[len];
        // NaN coefficients compare false here, so they are kept (conservative).
        let positive = b.iter().all(|&c| c > err);
        let negative = b.iter().all(|&c| c < -err);
        if positive || negative {
            continue;
        }
        if depth == DEPTH {
            out.push(lo, hi);
            continue;
        }
        // de Casteljau at ½. Each average (x + y)·½ of values within `err` of
        // the exact ones is within `err` plus its own rounding (U·|result|);
        // three levels: err + 3U·max|b|.
        let l1 = [
            (b[0] + b[1]) * 0.5,
            (b[1] + b[2]) * 0.5,
            (b[2] + b[3]) * 0.5,
        ];
        let l2 = [(l1[0] + l1[1]) * 0.5, (l1[1] + l1[2]) * 0.5];
        let l3 = (l2[0] + l2[1]) * 0.5;
        let left = [b[0], l1[0], l2[0], l3];
        let right = [l3, l2[1], l1[2], b[3]];
        let maxabs = b.iter().fold(0.0f64, |m, c| m.max(c.abs()));
        let e = err + 4.0 * U * maxabs;
        let mid = lo + (hi - lo) * 0.5;
        stack[len] = (right, e, mid, hi, depth + 1);
        stack[len + 1] = (left, e, lo, mid, depth + 1);
        len += 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separated_planes_have_no_root() {
        // Z stays 1 above the plane of X and Y: volume 1 throughout.
        let x = [DVec3::X; 2];
        let y = [DVec3::Y; 2];
        let z = [DVec3::Z, DVec3::new(3.0, -2.0, 1.0)];
        assert_eq!(candidate_intervals(x, y, z).len, 0);
    }

    #[test]
    fn root_at_three_quarters_is_kept_and_bracketed() {
        // Z's height goes from 3 to −1: zero at t = ¾.
        let x = [DVec3::X; 2];
        let y = [DVec3::Y; 2];
        let z = [DVec3::new(0.0, 0.0, 3.0), DVec3::new(0.0, 0.0, -1.0)];
        let iv = candidate_intervals(x, y, z);
        assert!(iv.len >= 1);
        let covered = iv.as_slice().iter().any(|i| i[0] <= 0.75 && 0.75 <= i[1]);
        assert!(covered, "{:?}", iv.as_slice());
        // Narrowed down: nothing near t = 0.
        assert!(iv.items[0][0] >= 0.5, "{:?}", iv.as_slice());
    }

    #[test]
    fn identically_coplanar_keeps_everything() {
        let x = [DVec3::X; 2];
        let y = [DVec3::Y; 2];
        let z = [DVec3::new(0.3, 0.2, 0.0); 2];
        let iv = candidate_intervals(x, y, z);
        assert_eq!(iv.as_slice(), &[[0.0, 1.0]]);
    }
}
