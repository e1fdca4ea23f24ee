//! Eigen-decomposition of a symmetric 3×3 matrix by cyclic Jacobi rotations
//! (Golub & Van Loan, Matrix Computations, 8.5), in f64.
//!
//! peng's own solver (`peng::bound`'s `eigen` module) is private, hence this
//! small one.

/// Eigenvalues and eigenvectors (columns of the returned matrix, orthonormal)
/// of the symmetric matrix `a` (row-major `a[row][col]`).
pub(crate) fn symmetric_eigen(mut a: [[f64; 3]; 3]) -> ([f64; 3], [[f64; 3]; 3]) {
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let scale = (0..3)
        .flat_map(|i| (0..3).map(move |j| (i, j)))
        .map(|(i, j)| a[i][j].abs())
        .fold(0.0f64, f64::max);
    if scale == 0.0 || !scale.is_finite() {
        return ([a[0][0], a[1][1], a[2][2]], v);
    }
    for _sweep in 0..32 {
        let off = a[0][1].abs() + a[0][2].abs() + a[1][2].abs();
        if off <= scale * 1e-15 {
            break;
        }
        for (p, q) in [(0usize, 1usize), (0, 2), (1, 2)] {
            if a[p][q].abs() <= scale * 1e-18 {
                continue;
            }
            // Choose the rotation angle that zeroes a[p][q]:
            // cot 2θ = (a_qq − a_pp) / (2 a_pq), t = tan θ the smaller root.
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            // a ← Jᵀ a J with J the rotation in the (p, q) plane.
            for row in a.iter_mut() {
                let (akp, akq) = (row[p], row[q]);
                row[p] = c * akp - s * akq;
                row[q] = s * akp + c * akq;
            }
            let (rp, rq) = (a[p], a[q]);
            for k in 0..3 {
                a[p][k] = c * rp[k] - s * rq[k];
                a[q][k] = s * rp[k] + c * rq[k];
            }
            for row in v.iter_mut() {
                let vp = row[p];
                let vq = row[q];
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
    }
    ([a[0][0], a[1][1], a[2][2]], v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonalises_a_symmetric_matrix() {
        let a = [[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]];
        let (l, v) = symmetric_eigen(a);
        for k in 0..3 {
            // a v_k = λ_k v_k
            for i in 0..3 {
                let av: f64 = (0..3).map(|j| a[i][j] * v[j][k]).sum();
                assert!(
                    (av - l[k] * v[i][k]).abs() < 1e-12,
                    "{av} vs {}",
                    l[k] * v[i][k]
                );
            }
        }
        let trace: f64 = l.iter().sum();
        assert!((trace - 12.0).abs() < 1e-12);
    }
}
