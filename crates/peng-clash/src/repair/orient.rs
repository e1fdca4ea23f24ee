//! Closed shells turned to face outward.
//!
//! ifc-lite winds some bodies inside out (after a mirrored placement, or an
//! extrusion along a negative direction) or with some faces turned (a box
//! whose caps face in while its sides face out): their signed volume comes
//! out negative or wrong where IfcOpenShell's is right, and the clash
//! check's inside tests see the body inverted. A closed shell (every edge
//! met by exactly two of its triangles) has a well-defined inside, so its
//! triangles can be made to agree along every edge and then to face out.
//! An open or non-manifold shell has no such inside and is left as it is.

use super::edges::sides;
use glam::{DVec3, Vec3};

/// Turns each closed, orientable shell of the mesh to face out: its
/// triangles made to run opposite ways along every shared edge, then the
/// whole shell turned if its signed volume is negative. Shells are the sets
/// of triangles joined through edges; a shell with an edge met by one, or by
/// three or more, triangles is left untouched, as is one that cannot be
/// oriented. Returns how many triangles were turned.
pub(super) fn orient_closed_shells(vertices: &[Vec3], triangles: &mut [[u32; 3]]) -> usize {
    let n = triangles.len();
    // Per triangle: the triangle across each edge met by exactly two, and
    // whether all its edges are met that way.
    let mut neighbours: Vec<Vec<(u32, (u32, u32))>> = vec![Vec::new(); n];
    let mut manifold = vec![true; n];
    for group in sides(triangles).chunk_by(|x, y| x.key == y.key) {
        if let [s, u] = group {
            neighbours[s.tri as usize].push((u.tri, s.edge()));
            neighbours[u.tri as usize].push((s.tri, s.edge()));
        } else {
            for s in group {
                manifold[s.tri as usize] = false;
            }
        }
    }
    let forward =
        |tri: &[u32; 3], a: u32, b: u32| (0..3).any(|k| tri[k] == a && tri[(k + 1) % 3] == b);
    // Per triangle: visited, and whether it must turn to agree with the
    // shell's first triangle.
    let mut seen = vec![false; n];
    let mut flip = vec![false; n];
    let (mut stack, mut members) = (Vec::new(), Vec::new());
    let mut count = 0;
    for seed in 0..n {
        if seen[seed] {
            continue;
        }
        seen[seed] = true;
        stack.push(seed);
        members.clear();
        let (mut closed, mut orientable) = (true, true);
        while let Some(t) = stack.pop() {
            members.push(t);
            closed &= manifold[t];
            for &(u, (a, b)) in &neighbours[t] {
                let u = u as usize;
                // After turning, `t` and `u` must run opposite ways on a-b.
                let want = forward(&triangles[t], a, b) ^ flip[t];
                let u_flip = forward(&triangles[u], a, b) == want;
                if seen[u] {
                    orientable &= flip[u] == u_flip;
                } else {
                    seen[u] = true;
                    flip[u] = u_flip;
                    stack.push(u);
                }
            }
        }
        if !closed || !orientable {
            continue;
        }
        let outward = signed_volume6(vertices, triangles, &members, &flip) >= 0.0;
        for &t in &members {
            if flip[t] == outward {
                triangles[t].swap(1, 2);
                count += 1;
            }
        }
    }
    count
}

/// Six times the signed volume enclosed by the triangles `members`, each
/// turned where `flip` says, about the first one's corner (in f64, so that a
/// body far from its origin keeps its digits).
fn signed_volume6(
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    members: &[usize],
    flip: &[bool],
) -> f64 {
    let Some(&first) = members.first() else {
        return 0.0;
    };
    let o: DVec3 = vertices[triangles[first][0] as usize].as_dvec3();
    members
        .iter()
        .map(|&t| {
            let [p, q, r] = triangles[t].map(|i| vertices[i as usize].as_dvec3() - o);
            let v = p.dot(q.cross(r));
            if flip[t] {
                -v
            } else {
                v
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::super::tests::volume;
    use super::*;

    /// A unit cube at `at`.
    fn cube(at: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        super::super::tests::cube(at, 1.0)
    }

    fn turned(t: &[u32; 3]) -> [u32; 3] {
        [t[0], t[2], t[1]]
    }

    #[test]
    fn an_inverted_cube_is_turned_and_an_outward_one_kept() {
        let (v, t) = cube(Vec3::new(1e5, 2.0, 3.0));
        assert!((volume(&v, &t) - 1.0).abs() < 1e-3);
        // Two cubes in one mesh, the second inside out.
        let (v2, t2) = cube(Vec3::new(1e5 + 5.0, 2.0, 3.0));
        let mut all_v = v.clone();
        all_v.extend(v2);
        let mut all_t = t.clone();
        all_t.extend(t2.iter().map(|tri| turned(&tri.map(|i| i + 8))));
        assert!(volume(&all_v, &all_t).abs() < 1e-2);
        assert_eq!(orient_closed_shells(&all_v, &mut all_t), 12);
        assert!((volume(&all_v, &all_t) - 2.0).abs() < 1e-2);
        assert_eq!(&all_t[..12], &t[..]);
        assert_eq!(orient_closed_shells(&all_v, &mut all_t), 0);
    }

    #[test]
    fn a_cube_with_its_caps_turned_in_is_made_to_agree() {
        let (v, t) = cube(Vec3::ZERO);
        // Bottom and top (the first four triangles) face in.
        let mut mixed: Vec<[u32; 3]> = t.clone();
        for tri in &mut mixed[..4] {
            *tri = turned(tri);
        }
        assert!((volume(&v, &mixed) - 1.0).abs() > 0.5);
        assert_eq!(orient_closed_shells(&v, &mut mixed), 4);
        assert_eq!(mixed, t);
        // All but one triangle in: made to agree, then out.
        let mut mostly: Vec<[u32; 3]> = t.iter().map(turned).collect();
        mostly[5] = t[5];
        assert_eq!(orient_closed_shells(&v, &mut mostly), 11);
        assert_eq!(mostly, t);
    }

    #[test]
    fn open_and_non_manifold_shells_are_left_alone() {
        let (v, t) = cube(Vec3::ZERO);
        // Missing a triangle, another turned, all inside out: no inside.
        let mut open: Vec<[u32; 3]> = t[1..].iter().map(turned).collect();
        open[3] = t[4];
        let before = open.clone();
        assert_eq!(orient_closed_shells(&v, &mut open), 0);
        assert_eq!(open, before);
        // A cube inside out with a fin on one edge (three triangles there).
        let mut fin: Vec<[u32; 3]> = t.iter().map(turned).collect();
        let mut fv = v.clone();
        fv.push(Vec3::new(0.5, -1.0, -1.0));
        fin.push([0, 1, 8]);
        let before = fin.clone();
        assert_eq!(orient_closed_shells(&fv, &mut fin), 0);
        assert_eq!(fin, before);
    }
}
