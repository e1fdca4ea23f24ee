//! The normal impulses of a manifold of three or four points, solved
//! exactly when every point pushes.
//!
//! The points' impulses are coupled through the manifold's Delassus matrix
//! `A = K + diag(γ)` (see `contact::solve`). A few projected Gauss-Seidel
//! sweeps leave part of the coupling unresolved, and what is left differs
//! from corner to corner (the first point takes the most): the box tips a
//! little at every substep, and a tall tower of cubes sways and falls. When
//! the unclamped solution of `A Δ = −r` keeps every total impulse `λ + Δ`
//! non-negative, it is the complementarity problem's solution, found here by
//! an LDLᵀ factorisation (`A` is symmetric positive definite once
//! regularised; Golub and Van Loan, "Matrix Computations", §4.1). The
//! coplanar points of a face contact make `K` singular (rank 3: one force,
//! two torques), so each diagonal entry gets at least [`REGULARISATION`]
//! times itself (the soft step's `γ` is already far larger). Only the soft
//! pass solves this way; the relax pass (`γ = 0`) keeps to Gauss-Seidel
//! sweeps, which cost less and leave the towers standing as well.

use core::ops::{Add, Mul, Sub};

/// The least relative addition to each diagonal entry of `A`.
pub(crate) const REGULARISATION: f32 = 1e-3;

/// Solves `A x = b` for a symmetric `A` (only the lower triangle is read) by
/// `A = L D Lᵀ` without pivoting; `recip(d)` is `1 / d` where `d > 0` and 0
/// elsewhere. Returns `x` and the pivots `D` (the solution holds where every
/// pivot is positive). Rows of identity (with `b_i = 0`) stand for absent
/// points and give `x_i = 0`.
#[inline(always)]
pub(crate) fn ldlt4<T>(a: &[[T; 4]; 4], b: [T; 4], recip: impl Fn(T) -> T) -> ([T; 4], [T; 4])
where
    T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>,
{
    // Only the strict lower triangle of `l` is read, and each entry only
    // after it is computed: filled with any value, not copied from `a`
    // (a copy of sixteen eight-lane values is a 512-byte `memcpy` call in
    // the solver's kernel).
    let mut l = [[a[0][0]; 4]; 4];
    let mut d = [a[0][0]; 4];
    let mut inv = [a[0][0]; 4];
    for j in 0..4 {
        let mut dj = a[j][j];
        for k in 0..j {
            dj = dj - l[j][k] * l[j][k] * d[k];
        }
        d[j] = dj;
        inv[j] = recip(dj);
        for i in j + 1..4 {
            let mut s = a[i][j];
            for k in 0..j {
                s = s - l[i][k] * l[j][k] * d[k];
            }
            l[i][j] = s * inv[j];
        }
    }
    // L y = b, then D z = y, then Lᵀ x = z.
    let mut x = b;
    for i in 0..4 {
        for k in 0..i {
            x[i] = x[i] - l[i][k] * x[k];
        }
    }
    for i in 0..4 {
        x[i] = x[i] * inv[i];
    }
    for i in (0..4).rev() {
        for k in i + 1..4 {
            x[i] = x[i] - l[k][i] * x[k];
        }
    }
    (x, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_symmetric_positive_definite_systems() {
        // A = Mᵀ M + I for a few M: the residual of the solution is small.
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        for _ in 0..100 {
            let m: [[f32; 4]; 4] = core::array::from_fn(|_| core::array::from_fn(|_| next()));
            let a: [[f32; 4]; 4] = core::array::from_fn(|i| {
                core::array::from_fn(|j| {
                    (0..4).map(|k| m[k][i] * m[k][j]).sum::<f32>() + if i == j { 1.0 } else { 0.0 }
                })
            });
            let b: [f32; 4] = core::array::from_fn(|_| next());
            let (x, d) = ldlt4(&a, b, |d| if d > 0.0 { 1.0 / d } else { 0.0 });
            assert!(d.iter().all(|&p| p > 0.0));
            for i in 0..4 {
                let r: f32 = (0..4).map(|j| a[i][j] * x[j]).sum::<f32>() - b[i];
                assert!(r.abs() < 1e-5, "row {i}: residual {r}");
            }
        }
        // Identity rows give zeros.
        let mut a = [[0.0f32; 4]; 4];
        a[0][0] = 2.0;
        for (i, row) in a.iter_mut().enumerate().skip(1) {
            row[i] = 1.0;
        }
        let (x, _) = ldlt4(&a, [4.0, 0.0, 0.0, 0.0], |d| 1.0 / d);
        assert_eq!(x, [2.0, 0.0, 0.0, 0.0]);
    }
}
