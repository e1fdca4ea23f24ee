//! Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations,
//! for the principal axes of point sets (oriented bounding boxes).
//!
//! Golub and Van Loan, Matrix Computations, 8.5 (the symmetric Schur
//! decomposition of a 2x2 block, then cyclic sweeps); Ericson, Real-Time
//! Collision Detection, 4.4.3 uses the same method for OBB fitting. Jacobi always
//! returns an orthonormal eigenvector matrix (it is a product of rotations), also
//! for repeated or zero eigenvalues, which is what makes it robust here:
//! collinear and coplanar point sets have singular covariance matrices.

/// A 3x3 matrix as rows, `m[row][col]`.
pub(crate) type M3 = [[f64; 3]; 3];

/// Eigenvalues and eigenvectors of the symmetric matrix `a`: returns
/// `(values, vectors)` with `vectors[k]` the unit eigenvector of `values[k]`,
/// sorted by decreasing eigenvalue (ties keep Jacobi's order, deterministic).
/// The vectors are orthonormal and form a right-handed frame.
pub fn symmetric_eigen3(a: [[f64; 3]; 3]) -> ([f64; 3], [[f64; 3]; 3]) {
    let mut a = a;
    // v accumulates the rotations: columns are the eigenvectors.
    let mut v: M3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let frob2: f64 = a.iter().flatten().map(|x| x * x).sum();
    for _sweep in 0..50 {
        let off2 = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        // Converged: the off-diagonal part is at rounding level.
        if off2 <= 1e-30 * frob2 || off2 == 0.0 {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            let apq = a[p][q];
            if apq == 0.0 {
                continue;
            }
            // Symmetric Schur: the rotation J (J_pp = J_qq = c, J_pq = s,
            // J_qp = -s) makes (JᵀAJ)_pq zero when t = s/c solves
            // t² + 2τt - 1 = 0 with τ = (a_qq - a_pp) / (2 a_pq); the smaller
            // root (|t| <= 1) keeps the rotation angle below π/4, which is what
            // makes the sweeps converge.
            let tau = (a[q][q] - a[p][p]) / (2.0 * apq);
            let t = if tau >= 0.0 {
                1.0 / (tau + (1.0 + tau * tau).sqrt())
            } else {
                -1.0 / (-tau + (1.0 + tau * tau).sqrt())
            };
            let c = 1.0 / (1.0 + t * t).sqrt();
            let s = t * c;
            let mut j: M3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
            j[p][p] = c;
            j[q][q] = c;
            j[p][q] = s;
            j[q][p] = -s;
            a = mul(&mul(&transpose(&j), &a), &j);
            // Exact zero and exact symmetry against drift.
            a[p][q] = 0.0;
            a[q][p] = 0.0;
            v = mul(&v, &j);
        }
    }
    let mut order = [0usize, 1, 2];
    order.sort_by(|&x, &y| a[y][y].total_cmp(&a[x][x]));
    let values = order.map(|k| a[k][k]);
    let mut vectors = order.map(|k| [v[0][k], v[1][k], v[2][k]]);
    // Right-handed: the third axis is the cross product of the first two.
    let [x, y, _] = vectors;
    vectors[2] = [
        x[1] * y[2] - x[2] * y[1],
        x[2] * y[0] - x[0] * y[2],
        x[0] * y[1] - x[1] * y[0],
    ];
    (values, vectors)
}

fn mul(a: &M3, b: &M3) -> M3 {
    core::array::from_fn(|r| core::array::from_fn(|c| (0..3).map(|k| a[r][k] * b[k][c]).sum()))
}

fn transpose(a: &M3) -> M3 {
    core::array::from_fn(|r| core::array::from_fn(|c| a[c][r]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(a: M3, expect: [f64; 3]) {
        let (vals, vecs) = symmetric_eigen3(a);
        for k in 0..3 {
            assert!((vals[k] - expect[k]).abs() < 1e-9, "{vals:?} vs {expect:?}");
            // A v = λ v.
            let v = vecs[k];
            for r in 0..3 {
                let av: f64 = (0..3).map(|c| a[r][c] * v[c]).sum();
                assert!((av - vals[k] * v[r]).abs() < 1e-9);
            }
            // Orthonormal.
            for l in 0..3 {
                let d: f64 = (0..3).map(|c| vecs[k][c] * vecs[l][c]).sum();
                let want = if k == l { 1.0 } else { 0.0 };
                assert!((d - want).abs() < 1e-12);
            }
        }
    }

    /// `R diag(d) Rᵀ` for a fixed rotation `R`.
    fn rotated(d: [f64; 3]) -> M3 {
        let (s, c) = 0.7f64.sin_cos();
        let (s2, c2) = 0.3f64.sin_cos();
        let rz: M3 = [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]];
        let rx: M3 = [[1.0, 0.0, 0.0], [0.0, c2, -s2], [0.0, s2, c2]];
        let r = mul(&rz, &rx);
        let dm: M3 = [[d[0], 0.0, 0.0], [0.0, d[1], 0.0], [0.0, 0.0, d[2]]];
        mul(&mul(&r, &dm), &transpose(&r))
    }

    #[test]
    fn distinct_repeated_and_zero_eigenvalues() {
        check(rotated([1.0, 5.0, 3.0]), [5.0, 3.0, 1.0]);
        check(rotated([2.0, 2.0, 5.0]), [5.0, 2.0, 2.0]);
        check(rotated([0.0, 0.0, 4.0]), [4.0, 0.0, 0.0]);
        check(rotated([0.0, 0.0, 0.0]), [0.0, 0.0, 0.0]);
        check(rotated([7.0, 7.0, 7.0]), [7.0, 7.0, 7.0]);
        check(
            [[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 0.0]],
            [3.0, 1.0, 0.0],
        );
    }
}
