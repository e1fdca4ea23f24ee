//! Merging coplanar triangles of a hull into convex polygons.
//!
//! Region growing over the triangle adjacency: the largest unmerged triangle seeds
//! a face (its plane is the most reliable), and neighbours join while all their
//! vertices lie within `tol` of the seed plane. A second pass merges
//! neighbouring faces when one's vertices lie within `tol / 2` of the
//! other's plane (the seed's plane and the grown face's own can differ by
//! a tolerance, which leaves such pairs). The boundary of each region is
//! its polygon. Gregorius (GDC 2014) merges during construction instead; merging
//! afterwards keeps construction simple, and [`weak_corners`] with the rebuild
//! in [`super::convex_hull`] cleans up the corners that merging leaves reflex
//! or straight within tolerance.
//!
//! A vertex left on only two polygons lies on the edge between them (two planes
//! meet in a line): it is collinear with its loop neighbours and is dropped.

use super::{Tri, WHAT};
use crate::math::policy::GeometryError;
use glam::DVec3;
use std::collections::HashMap;

const NONE: u32 = u32::MAX;

/// Face loops (input point indices, counter-clockwise from outside) of the
/// closed triangle mesh `tris`, with coplanar neighbours merged.
pub(super) fn merge_coplanar(
    pts: &[DVec3],
    tris: &[Tri],
    tol: f64,
) -> Result<Vec<Vec<u32>>, GeometryError> {
    let m = tris.len();
    let area: Vec<f64> = tris
        .iter()
        .map(|t| {
            let [a, b, c] = t.v.map(|i| pts[i as usize]);
            (b - a).cross(c - a).length()
        })
        .collect();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| area[b].total_cmp(&area[a]).then(a.cmp(&b)));

    let mut group = vec![NONE; m];
    let mut loops: Vec<Vec<u32>> = Vec::new();
    for &s in &order {
        if group[s] != NONE {
            continue;
        }
        let g = loops.len() as u32;
        let members = grow(pts, tris, &mut group, s, g, tol);
        match boundary_loop(tris, &group, &members, g) {
            Some(lp) => loops.push(lp),
            None => {
                // Not a disk (only near-degenerate input): keep the seed alone;
                // the other triangles seed their own faces later in `order`.
                for &t in &members[1..] {
                    group[t as usize] = NONE;
                }
                loops.push(tris[s].v.to_vec());
            }
        }
    }

    merge_flat_neighbours(pts, tris, &mut group, &mut loops, tol);
    loops.retain(|lp| !lp.is_empty());
    drop_two_face_vertices(&mut loops)?;
    check_closed(&loops)?;
    Ok(loops)
}

/// Newell's vector of a loop: twice its area times its unit normal, and
/// additive over loops that tile a region (shared edges cancel).
fn newell(pts: &[DVec3], lp: &[u32]) -> DVec3 {
    let mut n = DVec3::ZERO;
    for k in 0..lp.len() {
        let (p, q) = (pts[lp[k] as usize], pts[lp[(k + 1) % lp.len()] as usize]);
        n += p.cross(q);
    }
    n
}

/// The plane of a loop: Newell's unit normal through the vertices' mean.
fn loop_plane(pts: &[DVec3], lp: &[u32], n: DVec3) -> Option<(DVec3, f64)> {
    let n = n.try_normalize()?;
    let c = lp.iter().map(|&v| pts[v as usize]).sum::<DVec3>() / lp.len() as f64;
    Some((n, n.dot(c)))
}

/// The largest distance of a vertex of `lp` from the plane `(n, d)`.
fn offset(pts: &[DVec3], lp: &[u32], (n, d): (DVec3, f64)) -> f64 {
    lp.iter()
        .map(|&v| (n.dot(pts[v as usize]) - d).abs())
        .fold(0.0, f64::max)
}

/// Whether neighbouring faces `a` and `b` are one face: the vertices of
/// one lie within half the merge tolerance (the hull tolerance) of the
/// other's plane, and all lie within twice the merge tolerance of their
/// union's plane (on a long thin face a plane fit to the loop can tilt by
/// more than a tolerance over its length, so a chain of such merges could
/// otherwise bend).
fn one_face(pts: &[DVec3], a: &[u32], b: &[u32], tol: f64) -> bool {
    let (na, nb) = (newell(pts, a), newell(pts, b));
    let close = |x: &[u32], nx: DVec3, y: &[u32]| {
        loop_plane(pts, x, nx).is_some_and(|p| offset(pts, y, p) <= 0.5 * tol)
    };
    if !(close(a, na, b) || close(b, nb, a)) {
        return false;
    }
    let union: Vec<u32> = a.iter().chain(b).copied().collect();
    loop_plane(pts, &union, na + nb).is_some_and(|p| offset(pts, &union, p) <= 2.0 * tol)
}

/// Merges neighbouring faces (groups of triangles, `loops[g]` the boundary
/// of group `g`) while some pair is [`one_face`] and their union's
/// boundary is one simple loop; a merged-away face's loop is left empty.
/// Seen on points of a sphere: a triangle left out of a face whose seed
/// plane it missed by just over `tol`, though within a tolerance of the
/// face's own plane.
fn merge_flat_neighbours(
    pts: &[DVec3],
    tris: &[Tri],
    group: &mut [u32],
    loops: &mut [Vec<u32>],
    tol: f64,
) {
    let mut merged = true;
    while merged {
        merged = false;
        for t in 0..tris.len() {
            for &nb in &tris[t].adj {
                let (ga, gb) = (group[t], group[nb as usize]);
                if ga >= gb || !one_face(pts, &loops[ga as usize], &loops[gb as usize], tol) {
                    continue;
                }
                let moved: Vec<usize> = (0..tris.len()).filter(|&m| group[m] == gb).collect();
                for &m in &moved {
                    group[m] = ga;
                }
                let members: Vec<u32> = (0..tris.len() as u32)
                    .filter(|&m| group[m as usize] == ga)
                    .collect();
                if let Some(lp) = boundary_loop(tris, group, &members, ga) {
                    loops[ga as usize] = lp;
                    loops[gb as usize].clear();
                    merged = true;
                } else {
                    // Not a disk (a ring around another face): undone.
                    for &m in &moved {
                        group[m] = gb;
                    }
                }
            }
        }
    }
}

/// Grows the face seeded by triangle `s` as group `g`; returns its triangles,
/// seed first.
fn grow(pts: &[DVec3], tris: &[Tri], group: &mut [u32], s: usize, g: u32, tol: f64) -> Vec<u32> {
    let (n, d) = (tris[s].n, tris[s].d);
    group[s] = g;
    let mut members = vec![s as u32];
    let mut i = 0;
    while i < members.len() {
        let t = members[i] as usize;
        i += 1;
        for &nb in &tris[t].adj {
            let nbu = nb as usize;
            if group[nbu] != NONE || tris[nbu].n.dot(n) <= 0.0 {
                continue;
            }
            let flat = tris[nbu]
                .v
                .iter()
                .all(|&v| (n.dot(pts[v as usize]) - d).abs() <= tol);
            if flat {
                group[nbu] = g;
                members.push(nb);
            }
        }
    }
    members
}

/// The boundary of a region as one loop, or `None` if it is not a single
/// simple loop.
fn boundary_loop(tris: &[Tri], group: &[u32], members: &[u32], g: u32) -> Option<Vec<u32>> {
    let mut next: HashMap<u32, u32> = HashMap::new();
    let mut start = u32::MAX;
    for &t in members {
        let tri = &tris[t as usize];
        for k in 0..3 {
            if group[tri.adj[k] as usize] != g {
                let (a, b) = (tri.v[k], tri.v[(k + 1) % 3]);
                if next.insert(a, b).is_some() {
                    return None;
                }
                start = start.min(a);
            }
        }
    }
    let mut lp = vec![start];
    let mut cur = *next.get(&start)?;
    while cur != start {
        if lp.len() > next.len() {
            return None;
        }
        lp.push(cur);
        cur = *next.get(&cur)?;
    }
    (lp.len() == next.len()).then_some(lp)
}

/// Checks that every vertex of the hull, and every input point, is behind
/// every face plane (Newell normal through the loop's mean) within `tol`. Above
/// `FULL_CHECK` point-face pairs, only the vertices of the faces across each
/// edge are checked.
pub(super) fn check_convex(
    pts: &[DVec3],
    loops: &[Vec<u32>],
    tol: f64,
) -> Result<(), GeometryError> {
    const FULL_CHECK: usize = 1 << 22;
    let planes: Vec<(DVec3, f64)> = loops
        .iter()
        .map(|lp| {
            let mut n = DVec3::ZERO;
            let mut c = DVec3::ZERO;
            for k in 0..lp.len() {
                let p = pts[lp[k] as usize];
                n += p.cross(pts[lp[(k + 1) % lp.len()] as usize]);
                c += p;
            }
            let n = n.normalize_or_zero();
            (n, n.dot(c / lp.len() as f64))
        })
        .collect();
    let bad = GeometryError::Degenerate {
        what: WHAT,
        why: "the points are too close to coplanar (thinner than the tolerance allows) to form a consistent hull",
    };
    let behind = |f: usize, v: u32| planes[f].0.dot(pts[v as usize]) - planes[f].1 <= tol;
    let mut verts: Vec<u32> = loops.iter().flatten().copied().collect();
    verts.sort_unstable();
    verts.dedup();
    if pts.len() * loops.len() <= FULL_CHECK {
        for f in 0..loops.len() {
            if !(0..pts.len() as u32).all(|v| behind(f, v)) {
                return Err(bad);
            }
        }
    } else if verts.len() * loops.len() <= FULL_CHECK {
        for f in 0..loops.len() {
            if !verts.iter().all(|&v| behind(f, v)) {
                return Err(bad);
            }
        }
    } else {
        let mut face_of: HashMap<(u32, u32), usize> = HashMap::new();
        for (f, lp) in loops.iter().enumerate() {
            for k in 0..lp.len() {
                face_of.insert((lp[k], lp[(k + 1) % lp.len()]), f);
            }
        }
        for (&(a, b), &f) in &face_of {
            let g = face_of[&(b, a)];
            if !loops[g].iter().all(|&v| behind(f, v)) {
                return Err(bad);
            }
        }
    }
    Ok(())
}

/// Vertices (indices into `pts`) at a corner of some loop that is reflex or
/// within `tol` of straight: closer than `tol` to the segment between its two
/// loop neighbours or on its inner side (measured in the loop's Newell plane).
pub(super) fn weak_corners(pts: &[DVec3], loops: &[Vec<u32>], tol: f64) -> Vec<u32> {
    let mut weak = Vec::new();
    for lp in loops {
        // Newell's normal: twice the vector area of the loop.
        let n = (0..lp.len())
            .map(|k| pts[lp[k] as usize].cross(pts[lp[(k + 1) % lp.len()] as usize]))
            .sum::<DVec3>()
            .normalize_or_zero();
        for k in 0..lp.len() {
            let p = pts[lp[(k + lp.len() - 1) % lp.len()] as usize];
            let q = pts[lp[k] as usize];
            let r = pts[lp[(k + 1) % lp.len()] as usize];
            // Signed distance of q outside the line p → r (positive when the
            // corner turns left, counter-clockwise about n). Only a q that lies
            // between p and r is weak: in a sliver triangle every corner is close
            // to the line through the other two, but only the middle one is
            // covered by the others.
            let pr = r - p;
            let out = (q - p).cross(pr).dot(n) / pr.length();
            let t = (q - p).dot(pr) / pr.length_squared();
            if out <= tol && t > 0.0 && t < 1.0 {
                weak.push(lp[k]);
            }
        }
    }
    weak.sort_unstable();
    weak.dedup();
    weak
}

/// Drops every vertex that lies on exactly two faces: it sits on the edge
/// between them, collinear with its neighbours in both loops.
fn drop_two_face_vertices(loops: &mut [Vec<u32>]) -> Result<(), GeometryError> {
    let mut count: HashMap<u32, u32> = HashMap::new();
    for lp in loops.iter() {
        for &v in lp {
            *count.entry(v).or_default() += 1;
        }
    }
    for lp in loops.iter_mut() {
        lp.retain(|v| count[v] > 2);
        if lp.len() < 3 {
            return Err(GeometryError::Degenerate {
                what: WHAT,
                why: "points too close to coplanar to form a consistent hull",
            });
        }
    }
    Ok(())
}

/// Checks that the loops close a surface of genus 0: every directed edge appears
/// once with its reverse, and V - E + F = 2.
fn check_closed(loops: &[Vec<u32>]) -> Result<(), GeometryError> {
    let bad = GeometryError::Degenerate {
        what: WHAT,
        why: "points too close to coplanar to form a consistent hull",
    };
    let mut directed: HashMap<(u32, u32), u32> = HashMap::new();
    let mut verts: HashMap<u32, ()> = HashMap::new();
    for lp in loops {
        for k in 0..lp.len() {
            let (a, b) = (lp[k], lp[(k + 1) % lp.len()]);
            *directed.entry((a, b)).or_default() += 1;
            verts.insert(a, ());
        }
    }
    for (&(a, b), &c) in &directed {
        if c != 1 || directed.get(&(b, a)) != Some(&1) {
            return Err(bad);
        }
    }
    let (v, e, f) = (verts.len(), directed.len() / 2, loops.len());
    if v + f != e + 2 {
        return Err(bad);
    }
    Ok(())
}
