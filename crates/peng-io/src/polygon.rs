//! Triangulation of one planar-ish polygonal face (OBJ `f` with more than three
//! vertices, STL loops with more than three vertices).
//!
//! Convex faces (the common case: quads) are fanned from their first vertex,
//! which keeps every vertex and costs `O(n)`. Non-convex faces are projected to
//! their best-fit plane and ear-clipped by [`peng::shape::decompose::triangulate`].
//! The plane normal is Newell's (Newell's method, see Sutherland, Sproull and
//! Schumacker 1974, or Ericson, Real-Time Collision Detection, 12.4.1): the sum
//! of the edge cross terms, which is twice the vector area of the polygon and
//! points along the face's winding. Projecting onto an orthonormal pair `(u, v)`
//! with `u × v = n` keeps the winding counter-clockwise in 2D, so the ear-clipped
//! triangles (counter-clockwise in 2D) keep the face's winding in 3D.
//!
//! Faces whose projection is degenerate (zero area) or self-intersecting have no
//! correct triangulation; they are fanned, which gives triangles over the same
//! vertices for a later stage to judge.

use glam::{DVec2, DVec3, Vec2, Vec3};
use peng::shape::decompose::triangulate;

/// Appends the triangles of the face `face` (indices into `positions`, already
/// range-checked, at least three) to `out`.
pub(crate) fn triangulate_face(positions: &[Vec3], face: &[u32], out: &mut Vec<[u32; 3]>) {
    if face.len() == 3 {
        out.push([face[0], face[1], face[2]]);
        return;
    }
    let pts: Vec<DVec3> = face
        .iter()
        .map(|&i| positions[i as usize].as_dvec3())
        .collect();
    if let Some(flat) = project(&pts) {
        if !is_convex(&flat) {
            let flat32: Vec<Vec2> = flat.iter().map(|p| p.as_vec2()).collect();
            if let Ok(tris) = triangulate(&flat32) {
                if !tris.is_empty() {
                    out.extend(tris.iter().map(|t| [face[t[0]], face[t[1]], face[t[2]]]));
                    return;
                }
            }
        }
    }
    fan(face, out);
}

fn fan(face: &[u32], out: &mut Vec<[u32; 3]>) {
    for k in 1..face.len() - 1 {
        out.push([face[0], face[k], face[k + 1]]);
    }
}

/// Projects the polygon to 2D in its best-fit plane, counter-clockwise; `None`
/// when the Newell normal vanishes (all points collinear or coincident).
fn project(pts: &[DVec3]) -> Option<Vec<DVec2>> {
    let centroid = pts.iter().copied().sum::<DVec3>() / pts.len() as f64;
    let mut n = DVec3::ZERO;
    for (k, &a) in pts.iter().enumerate() {
        let b = pts[(k + 1) % pts.len()];
        n += (a - centroid).cross(b - centroid);
    }
    let n = n.try_normalize()?;
    let u = n.any_orthonormal_vector();
    let v = n.cross(u);
    Some(
        pts.iter()
            .map(|&p| {
                let d = p - centroid;
                DVec2::new(d.dot(u), d.dot(v))
            })
            .collect(),
    )
}

/// True when the counter-clockwise polygon turns left (or goes straight) at
/// every vertex and winds exactly once, i.e. it is convex and fanning it from
/// any vertex is correct. Repeated points are skipped.
fn is_convex(pts: &[DVec2]) -> bool {
    let n = pts.len();
    let mut total_turn = 0.0f64;
    let mut prev_dir: Option<DVec2> = None;
    let mut first_dir: Option<DVec2> = None;
    for k in 0..n {
        let d = pts[(k + 1) % n] - pts[k];
        if d == DVec2::ZERO {
            continue;
        }
        if let Some(p) = prev_dir {
            let cross = p.perp_dot(d);
            if cross < 0.0 {
                return false;
            }
            total_turn += cross.atan2(p.dot(d));
        } else {
            first_dir = Some(d);
        }
        prev_dir = Some(d);
    }
    let (Some(first), Some(last)) = (first_dir, prev_dir) else {
        return false;
    };
    let cross = last.perp_dot(first);
    if cross < 0.0 {
        return false;
    }
    total_turn += cross.atan2(last.dot(first));
    // One full counter-clockwise turn; a star polygon turns 4π or more.
    (total_turn - std::f64::consts::TAU).abs() < 1e-6
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area_normal(positions: &[Vec3], tris: &[[u32; 3]]) -> Vec3 {
        tris.iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| positions[i as usize]);
                (b - a).cross(c - a) * 0.5
            })
            .sum()
    }

    #[test]
    fn quad_is_fanned_with_its_winding() {
        let p = [
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(1.0, 1.0, 1.0),
            Vec3::new(0.0, 1.0, 1.0),
        ];
        let mut out = Vec::new();
        triangulate_face(&p, &[0, 1, 2, 3], &mut out);
        assert_eq!(out, vec![[0, 1, 2], [0, 2, 3]]);
        assert_eq!(area_normal(&p, &out), Vec3::new(0.0, 0.0, 1.0));
    }

    #[test]
    fn non_convex_face_is_ear_clipped_not_fanned() {
        // An L-shaped hexagon in the plane x = 2, wound so its normal is -x.
        // Fanning from vertex 0 (the reflex corner's opposite) would cover area
        // outside the L; ear clipping covers exactly its area 3.
        let l2 = [
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 2.0),
            (0.0, 2.0),
        ];
        // Map (s, t) -> (2, t, s): the 2D winding reverses, normal is -x.
        let p: Vec<Vec3> = l2.iter().map(|&(s, t)| Vec3::new(2.0, t, s)).collect();
        // Start the face at the reflex vertex's neighbour so a fan would be wrong.
        let face = [2u32, 3, 4, 5, 0, 1];
        let mut out = Vec::new();
        triangulate_face(&p, &face, &mut out);
        assert_eq!(out.len(), 4);
        let n = area_normal(&p, &out);
        assert!((n - Vec3::new(-3.0, 0.0, 0.0)).length() < 1e-5, "{n}");
        // Every triangle has the face's winding (no flipped triangle).
        for t in &out {
            let [a, b, c] = t.map(|i| p[i as usize]);
            assert!((b - a).cross(c - a).x < 0.0);
        }
    }

    #[test]
    fn collinear_face_is_fanned() {
        let p = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0, Vec3::X * 3.0];
        let mut out = Vec::new();
        triangulate_face(&p, &[0, 1, 2, 3], &mut out);
        assert_eq!(out, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn star_is_not_convex() {
        let star: Vec<DVec2> = (0..5)
            .map(|k| {
                let a = k as f64 * 2.0 * std::f64::consts::TAU / 5.0;
                DVec2::new(a.cos(), a.sin())
            })
            .collect();
        assert!(!is_convex(&star));
        let pent: Vec<DVec2> = (0..5)
            .map(|k| {
                let a = k as f64 * std::f64::consts::TAU / 5.0;
                DVec2::new(a.cos(), a.sin())
            })
            .collect();
        assert!(is_convex(&pent));
    }
}
