//! Cuboid against cuboid: the separating-axis test over the 15 candidate axes
//! of two boxes in closed form (3 face normals of each, 9 edge-direction cross
//! products; Ericson, Real-Time Collision Detection, 4.4.1, and the box-box
//! test of Gottschalk et al. behind ODE's dBoxBox), then the shared clipping.
//! No support-function calls and no allocation.

use super::polytopes::BoxPoly;
use crate::math::{Pose3, Vec3};
use crate::query::sat::separation::FACE_BIAS_REL;
use crate::query::sat::{manifold_from_axis, SatAxis, SatResult};
use crate::query::types::Manifold3;
use crate::shape::d3::Cuboid;

/// The edge of a cuboid along axis `k` that supports it along `dir` (the edge
/// numbering of [`BoxPoly`]: bit 0 the side on axis `k + 1`, bit 1 on `k + 2`).
#[inline]
fn support_edge(k: usize, dir: Vec3) -> usize {
    let (u, w) = ((k + 1) % 3, (k + 2) % 3);
    4 * k + (dir[u] >= 0.0) as usize + (((dir[w] >= 0.0) as usize) << 1)
}

/// The least-penetration (or largest-separation) axis of two cuboids, in A's
/// frame; same preferences as [`crate::query::sat::sat`].
pub fn sat_box_box(ha: Vec3, hb: Vec3, b_in_a: &Pose3) -> SatResult {
    let r = b_in_a.rotation_matrix();
    let t = b_in_a.translation;
    let cols = [r.x_axis, r.y_axis, r.z_axis];
    // abs_r[i][j] = |R_ij| = |e_i · b_j|.
    let mut abs_r = [[0.0f32; 3]; 3];
    for (i, row) in abs_r.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            *x = cols[j][i].abs();
        }
    }
    let scale = ha.length().max(hb.length()).max(f32::MIN_POSITIVE);
    let tol = FACE_BIAS_REL * scale;

    // Faces of A: |t_i| - (ha_i + Σ_j hb_j |R_ij|).
    let mut face_a = SatResult {
        axis: SatAxis::FaceA(0),
        separation: f32::NEG_INFINITY,
        normal: Vec3::X,
    };
    for i in 0..3 {
        let rb = hb.x * abs_r[i][0] + hb.y * abs_r[i][1] + hb.z * abs_r[i][2];
        let s = t[i].abs() - ha[i] - rb;
        if s > face_a.separation {
            let positive = t[i] >= 0.0;
            let mut n = Vec3::ZERO;
            n[i] = if positive { 1.0 } else { -1.0 };
            face_a = SatResult {
                axis: SatAxis::FaceA(2 * i + positive as usize),
                separation: s,
                normal: n,
            };
        }
    }
    // Faces of B: |t·b_j| - (hb_j + Σ_i ha_i |R_ij|).
    let mut face_b = SatResult {
        axis: SatAxis::FaceB(0),
        separation: f32::NEG_INFINITY,
        normal: Vec3::X,
    };
    for (j, col) in cols.iter().enumerate() {
        let ra = ha.x * abs_r[0][j] + ha.y * abs_r[1][j] + ha.z * abs_r[2][j];
        let d = t.dot(*col);
        let s = d.abs() - hb[j] - ra;
        if s > face_b.separation {
            // B's face that looks back at A: against the offset.
            let towards_b = d >= 0.0;
            face_b = SatResult {
                axis: SatAxis::FaceB(2 * j + (!towards_b) as usize),
                separation: s,
                normal: if towards_b { *col } else { -*col },
            };
        }
    }
    let best_face = if face_b.separation > face_a.separation + tol {
        face_b
    } else {
        face_a
    };
    // Edge pairs: L = e_i × b_j, |L| = sqrt(1 - R_ij²).
    let mut best_edge: Option<SatResult> = None;
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let mut e = Vec3::ZERO;
        e[i] = 1.0;
        for (j, col) in cols.iter().enumerate() {
            let l = e.cross(*col);
            let len = l.length();
            // Nearly parallel edges: the axis is rounding noise (and a face
            // axis nearly the same); skip it (policy rule 5).
            if len <= 1e-3 {
                continue;
            }
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            // Padded so that rounding in |R| never makes an edge axis
            // separate spuriously (Ericson 4.4.1).
            const PAD: f32 = 1e-7;
            let ra = ha[i1] * (abs_r[i2][j] + PAD) + ha[i2] * (abs_r[i1][j] + PAD);
            let rb = hb[j1] * (abs_r[i][j2] + PAD) + hb[j2] * (abs_r[i][j1] + PAD);
            let d = t.dot(l);
            let s = (d.abs() - ra - rb) / len;
            if best_edge.is_none_or(|b| s > b.separation) {
                let n = if d >= 0.0 { l / len } else { -l / len };
                let nb = b_in_a.inverse_transform_vector(-n);
                best_edge = Some(SatResult {
                    axis: SatAxis::Edges(support_edge(i, n), support_edge(j, nb)),
                    separation: s,
                    normal: n,
                });
            }
        }
    }
    match best_edge {
        Some(e) if e.separation > best_face.separation + tol => e,
        _ => best_face,
    }
}

/// The contact manifold of two cuboids, in A's frame.
pub fn box_box(a: &Cuboid, b: &Cuboid, b_in_a: &Pose3, prediction: f32) -> Option<Manifold3> {
    let r = sat_box_box(a.half_extents(), b.half_extents(), b_in_a);
    if r.separation > prediction || r.separation.is_nan() {
        return None;
    }
    let m = manifold_from_axis(&BoxPoly::new(a), &BoxPoly::new(b), b_in_a, &r, prediction);
    (!m.is_empty()).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::sat::sat;

    /// The closed-form test agrees with the general one on random pairs.
    #[test]
    fn matches_general_sat() {
        let mut seed = 7u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        for _ in 0..2000 {
            let ha = Vec3::new(rnd(), rnd(), rnd()) + 0.1;
            let hb = Vec3::new(rnd(), rnd(), rnd()) + 0.1;
            let t = (Vec3::new(rnd(), rnd(), rnd()) - 0.5) * 3.0;
            let axis = (Vec3::new(rnd(), rnd(), rnd()) - 0.5) * 6.0;
            let pose = Pose3::from_axis_angle(t, axis);
            let fast = sat_box_box(ha, hb, &pose);
            let a = BoxPoly::new(&Cuboid::new(ha).unwrap());
            let b = BoxPoly::new(&Cuboid::new(hb).unwrap());
            let slow = sat(&a, &b, &pose, f32::INFINITY).unwrap();
            assert!(
                (fast.separation - slow.separation).abs() < 1e-4,
                "{fast:?} {slow:?}"
            );
            if fast.separation < 0.0 && (fast.normal - slow.normal).length() > 1e-3 {
                // A tie between axes: both must give the same separation.
                assert!((fast.separation - slow.separation).abs() < 1e-5);
            }
        }
    }
}
