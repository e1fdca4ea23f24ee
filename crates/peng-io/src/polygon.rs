//! Triangulation of one planar-ish polygonal face (OBJ `f` with more than three
//! vertices, STL loops with more than three vertices), in time close to linear.
//!
//! Convex faces (the common case: quads) are fanned from their first vertex,
//! which keeps every vertex and costs `O(n)` after an `O(n)` convexity check.
//! Non-convex faces are projected to their best-fit plane and ear-clipped here.
//! The plane normal is Newell's (Newell's method, see Sutherland, Sproull and
//! Schumacker 1974, or Ericson, Real-Time Collision Detection, 12.4.1): the sum
//! of the edge cross terms, which is twice the vector area of the polygon and
//! points along the face's winding. Projecting onto an orthonormal pair `(u, v)`
//! with `u × v = n` keeps the winding counter-clockwise in 2D, so the ear-clipped
//! triangles (counter-clockwise in 2D) keep the face's winding in 3D.
//!
//! # Ear clipping in near-linear time
//! A convex vertex is an ear when no other vertex lies in the closed triangle
//! it forms with its neighbours (Meisters' two-ears theorem). Only non-convex
//! vertices can lie in such a triangle, and clipping an ear only makes its
//! neighbours more convex, so the blockers are found in a uniform grid of the
//! initially non-convex vertices (about one per cell), which only ever loses
//! members. Vertices are visited around the ring as in the usual single-pass
//! scheme: after a clip the walk resumes past the clipped ear. Each ear test
//! costs the blockers in the cells its triangle's box covers; the total is
//! bounded by a work budget of [`WORK_PER_VERTEX`] tests per vertex.
//!
//! Faces whose projection is degenerate (zero area) or self-intersecting have no
//! correct triangulation, and a face whose clipping stalls (no ear left, as in a
//! self-intersecting outline) or exceeds the budget is fanned instead, which
//! gives triangles over the same vertices for a later stage to judge.

use glam::{DVec2, DVec3, Vec3};

/// Point-in-triangle tests allowed per face vertex before the ear clipping
/// gives up and fans the face: far above what real faces need (a few per
/// vertex), so only adversarial outlines hit it, and the work stays linear.
pub(crate) const WORK_PER_VERTEX: usize = 256;

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
            let start = out.len();
            if ear_clip(&flat, |t| out.push(t.map(|k| face[k]))) {
                return;
            }
            out.truncate(start);
        }
    }
    fan(face, out);
}

fn fan(face: &[u32], out: &mut Vec<[u32; 3]>) {
    for k in 1..face.len() - 1 {
        out.push([face[0], face[k], face[k + 1]]);
    }
}

/// Twice the signed area of `(a, b, c)`: positive for a left turn.
#[inline]
fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// A uniform grid over the initially non-convex vertices, in compressed rows:
/// the vertices of cell `c` are `items[start[c]..start[c + 1]]`.
struct Grid {
    min: DVec2,
    max: DVec2,
    inv_cell: DVec2,
    side: usize,
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Grid {
    fn new(p: &[DVec2], members: &[usize]) -> Grid {
        let (mut min, mut max) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for &k in members {
            min = min.min(p[k]);
            max = max.max(p[k]);
        }
        // About one member per cell.
        let side = ((members.len() as f64).sqrt().ceil() as usize).clamp(1, 1024);
        let extent = (max - min).max(DVec2::splat(f64::MIN_POSITIVE));
        let mut g = Grid {
            min,
            max,
            inv_cell: DVec2::splat(side as f64) / extent,
            side,
            start: vec![0; side * side + 1],
            items: vec![0; members.len()],
        };
        for &k in members {
            let c = g.cell(p[k]);
            g.start[c + 1] += 1;
        }
        for c in 0..side * side {
            g.start[c + 1] += g.start[c];
        }
        let mut fill = g.start.clone();
        for &k in members {
            let c = g.cell(p[k]);
            g.items[fill[c] as usize] = k as u32;
            fill[c] += 1;
        }
        g
    }

    /// The column and row of `q`, clamped to the grid.
    fn coords(&self, q: DVec2) -> (usize, usize) {
        let t = ((q - self.min) * self.inv_cell).floor();
        let top = (self.side - 1) as f64;
        (t.x.clamp(0.0, top) as usize, t.y.clamp(0.0, top) as usize)
    }

    fn cell(&self, q: DVec2) -> usize {
        let (x, y) = self.coords(q);
        y * self.side + x
    }
}

/// Ear-clips the counter-clockwise polygon `p`, handing each triangle (indices
/// into `p`, counter-clockwise) to `emit`. False when the clipping stalls (no
/// ear is left: the outline is not simple) or runs over its work budget; the
/// caller then discards what was emitted.
fn ear_clip(p: &[DVec2], mut emit: impl FnMut([usize; 3])) -> bool {
    let n = p.len();
    let mut prev: Vec<usize> = (0..n).map(|k| (k + n - 1) % n).collect();
    let mut next: Vec<usize> = (0..n).map(|k| (k + 1) % n).collect();
    let mut alive = vec![true; n];
    let mut remaining = n;
    // Consecutive repeats add no area and would block every ear next to them.
    for k in 0..n {
        if remaining > 3 && p[k] == p[prev[k]] {
            let (a, c) = (prev[k], next[k]);
            next[a] = c;
            prev[c] = a;
            alive[k] = false;
            remaining -= 1;
        }
    }
    let turn = |k: usize, prev: &[usize], next: &[usize]| orient(p[prev[k]], p[k], p[next[k]]);
    let mut blocker: Vec<bool> = (0..n)
        .map(|k| alive[k] && turn(k, &prev, &next) <= 0.0)
        .collect();
    let members: Vec<usize> = (0..n).filter(|&k| blocker[k]).collect();
    let grid = Grid::new(p, &members);
    let mut budget = WORK_PER_VERTEX.saturating_mul(n);

    // Whether `v` is an ear; `None` when the budget runs out.
    let mut is_ear = |a: usize, v: usize, c: usize, blocker: &[bool], alive: &[bool]| {
        let (pa, pv, pc) = (p[a], p[v], p[c]);
        if orient(pa, pv, pc) <= 0.0 {
            return Some(false);
        }
        if members.is_empty() {
            return Some(true);
        }
        let (lo, hi) = (pa.min(pv).min(pc), pa.max(pv).max(pc));
        if hi.x < grid.min.x || hi.y < grid.min.y || lo.x > grid.max.x || lo.y > grid.max.y {
            return Some(true);
        }
        let ((x0, y0), (x1, y1)) = (grid.coords(lo), grid.coords(hi));
        for y in y0..=y1 {
            for x in x0..=x1 {
                let cell = y * grid.side + x;
                let items = &grid.items[grid.start[cell] as usize..grid.start[cell + 1] as usize];
                budget = budget.checked_sub(1 + items.len())?;
                for &r in items {
                    let r = r as usize;
                    if !alive[r] || !blocker[r] || r == a || r == v || r == c {
                        continue;
                    }
                    let q = p[r];
                    // A vertex repeated elsewhere on the outline (where it
                    // touches itself) does not block the ear at its copy.
                    if q == pa || q == pv || q == pc {
                        continue;
                    }
                    if orient(pa, pv, q) >= 0.0
                        && orient(pv, pc, q) >= 0.0
                        && orient(pc, pa, q) >= 0.0
                    {
                        return Some(false);
                    }
                }
            }
        }
        Some(true)
    };

    let Some(mut ear) = (0..n).find(|&k| alive[k]) else {
        return false;
    };
    let mut stop = ear;
    while remaining > 3 {
        let (a, c) = (prev[ear], next[ear]);
        match is_ear(a, ear, c, &blocker, &alive) {
            None => return false,
            Some(true) => {
                emit([a, ear, c]);
                next[a] = c;
                prev[c] = a;
                alive[ear] = false;
                remaining -= 1;
                // Clipping only makes the neighbours more convex.
                for k in [a, c] {
                    if blocker[k] && turn(k, &prev, &next) > 0.0 {
                        blocker[k] = false;
                    }
                }
                ear = next[c];
                stop = ear;
            }
            Some(false) => {
                ear = next[ear];
                if ear == stop {
                    return false;
                }
            }
        }
    }
    emit([prev[ear], ear, next[ear]]);
    true
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
