//! Cuboid against cuboid: the separating-axis test over the 15 candidate axes
//! of two boxes in closed form (3 face normals of each, 9 edge-direction cross
//! products; Ericson, Real-Time Collision Detection, 4.4.1, and the box-box
//! test of Gottschalk et al. behind ODE's dBoxBox), then the shared clipping.
//! No support-function calls and no allocation.

use super::polytopes::BoxPoly;
use crate::math::{Pose3, Vec3};
use crate::query::sat::manifold::manifold_from_axis_in;
use crate::query::sat::separation::FACE_BIAS_REL;
use crate::query::sat::{SatAxis, SatResult};
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
///
/// With `R` the rotation of B in A's frame (`R_ij = e_i · b_j`), `t` B's
/// centre and `h_a`, `h_b` the half-extents, the separation along a unit
/// axis `L` is `|t·L| - Σ_i h_a,i |e_i·L| - Σ_j h_b,j |b_j·L|`; for the 15
/// candidate axes every product is an entry of `R` or of `|R|` (Ericson,
/// Real-Time Collision Detection, 4.4.1). The edge axes `e_i × b_j` have
/// length `sqrt(R_i1,j² + R_i2,j²)` (`i1, i2` the other two axes) and are
/// normalised only for comparison; only the winner is built as a vector.
#[cfg(test)]
pub fn sat_box_box(ha: Vec3, hb: Vec3, b_in_a: &Pose3) -> SatResult {
    let scale = ha.length().max(hb.length()).max(f32::MIN_POSITIVE);
    sat_box_box_with(ha, hb, b_in_a, |_| FACE_BIAS_REL * scale)
}

/// Edge axes must beat the best face axis by this much, times the scale of
/// the pair, to make a contact manifold (the manifold's depth may then
/// exceed the exact penetration depth by as much). Two boxes resting face on face with a small
/// tilt and twist have edge axes between their face normals that separate
/// a little more than either face (by about `tilt · twist · size`); the
/// exact SAT then picks an edge and the manifold has one point, which
/// cannot hold a box up. Engines prefer faces for contacts by such a
/// tolerance (Gregorius, "The Separating Axis Test between Convex
/// Polyhedra", GDC 2013).
const CONTACT_EDGE_REL_SCALE: f32 = 5e-5;
/// Overlaps deeper than this times the pair's scale keep the exact axis.
const CONTACT_FACE_DEPTH_REL: f32 = 0.02;

/// [`sat_box_box`] with `edge_tol(face_separation)`: how much an edge axis
/// must separate more than the best face axis to be chosen.
fn sat_box_box_with(
    ha: Vec3,
    hb: Vec3,
    b_in_a: &Pose3,
    edge_tol: impl Fn(f32) -> f32,
) -> SatResult {
    let r = b_in_a.rotation_matrix();
    let cols = [r.x_axis, r.y_axis, r.z_axis];
    let t = b_in_a.translation.to_array();
    let (h_a, h_b) = (ha.to_array(), hb.to_array());
    // rm[i][j] = R_ij = e_i · b_j, and its absolute values.
    let rm: [[f32; 3]; 3] = [0, 1, 2].map(|i| [cols[0][i], cols[1][i], cols[2][i]]);
    let ar = rm.map(|row| row.map(f32::abs));
    let scale = ha.length().max(hb.length()).max(f32::MIN_POSITIVE);
    // Faces of A: |t_i| - (ha_i + Σ_j hb_j |R_ij|).
    let (mut sa, mut ia) = (f32::NEG_INFINITY, 0);
    for i in 0..3 {
        let rb = h_b[0] * ar[i][0] + h_b[1] * ar[i][1] + h_b[2] * ar[i][2];
        let s = t[i].abs() - h_a[i] - rb;
        if s > sa {
            (sa, ia) = (s, i);
        }
    }
    let positive = t[ia] >= 0.0;
    let mut n = [0.0f32; 3];
    n[ia] = if positive { 1.0 } else { -1.0 };
    let face_a = SatResult {
        axis: SatAxis::FaceA(2 * ia + positive as usize),
        separation: sa,
        normal: Vec3::from_array(n),
    };
    // Faces of B: |t·b_j| - (hb_j + Σ_i ha_i |R_ij|).
    let (mut sb, mut jb, mut db) = (f32::NEG_INFINITY, 0, 0.0f32);
    for j in 0..3 {
        let ra = h_a[0] * ar[0][j] + h_a[1] * ar[1][j] + h_a[2] * ar[2][j];
        let d = t[0] * rm[0][j] + t[1] * rm[1][j] + t[2] * rm[2][j];
        let s = d.abs() - h_b[j] - ra;
        if s > sb {
            (sb, jb, db) = (s, j, d);
        }
    }
    // B's face that looks back at A: against the offset.
    let towards_b = db >= 0.0;
    let face_b = SatResult {
        axis: SatAxis::FaceB(2 * jb + (!towards_b) as usize),
        separation: sb,
        normal: if towards_b { cols[jb] } else { -cols[jb] },
    };
    let best_face = if face_b.separation > face_a.separation + FACE_BIAS_REL * scale {
        face_b
    } else {
        face_a
    };

    // Edge pairs: L = e_i × b_j has L_i = 0, L_i1 = -R_i2,j, L_i2 = R_i1,j.
    let mut best: Option<(f32, usize, usize)> = None;
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let len2 = rm[i1][j] * rm[i1][j] + rm[i2][j] * rm[i2][j];
            // Nearly parallel edges (below about 1e-3 rad): the axis is
            // rounding noise, and a face axis nearly the same; skipped
            // (policy rule 5).
            if len2 <= 1e-6 {
                continue;
            }
            // Padded so that rounding in |R| never makes an edge axis
            // separate spuriously (Ericson 4.4.1).
            const PAD: f32 = 1e-7;
            let ra = h_a[i1] * (ar[i2][j] + PAD) + h_a[i2] * (ar[i1][j] + PAD);
            let rb = h_b[j1] * (ar[i][j2] + PAD) + h_b[j2] * (ar[i][j1] + PAD);
            let d = t[i2] * rm[i1][j] - t[i1] * rm[i2][j];
            let s = (d.abs() - ra - rb) / len2.sqrt();
            if best.is_none_or(|(bs, ..)| s > bs) {
                best = Some((s, i, j));
            }
        }
    }
    let Some((s, i, j)) = best else {
        return best_face;
    };
    if s <= best_face.separation + edge_tol(best_face.separation) {
        return best_face;
    }
    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
    let mut l = [0.0f32; 3];
    l[i1] = -rm[i2][j];
    l[i2] = rm[i1][j];
    let l = Vec3::from_array(l);
    let d = b_in_a.translation.dot(l);
    let n = if d >= 0.0 { l } else { -l }.normalize_or(Vec3::X);
    // -n in B's frame: its products with B's axes.
    let nb = -Vec3::new(n.dot(cols[0]), n.dot(cols[1]), n.dot(cols[2]));
    SatResult {
        axis: SatAxis::Edges(support_edge(i, n), support_edge(j, nb)),
        separation: s,
        normal: n,
    }
}

/// The contact manifold of two cuboids, in A's frame.
pub(super) fn box_box(
    a: &Cuboid,
    b: &Cuboid,
    b_in_a: &Pose3,
    prediction: f32,
) -> Option<Manifold3> {
    let (ha, hb) = (a.half_extents(), b.half_extents());
    let scale = ha.length().max(hb.length()).max(f32::MIN_POSITIVE);
    // Only for shallow contacts (resting and speculative ones, where the
    // near-tie happens): a deep overlap keeps the exact axis, whose clipped
    // points lie on both surfaces.
    let r = sat_box_box_with(ha, hb, b_in_a, |face| {
        if face > -CONTACT_FACE_DEPTH_REL * scale {
            CONTACT_EDGE_REL_SCALE * scale
        } else {
            FACE_BIAS_REL * scale
        }
    });
    if r.separation > prediction || r.separation.is_nan() {
        return None;
    }
    // Two quadrilaterals: at most 8 clipped points.
    let m = manifold_from_axis_in::<8, _, _>(
        &BoxPoly::new(a),
        &BoxPoly::new(b),
        b_in_a,
        &r,
        prediction,
    );
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
