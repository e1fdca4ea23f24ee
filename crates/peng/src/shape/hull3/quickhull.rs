//! Quickhull in 3D, after Barber, Dobkin and Huhdanpaa (ACM TOMS 1996), with the
//! robustness measures of Gregorius ("Implementing Quickhull", GDC 2014).
//!
//! The hull is a closed triangle mesh with triangle adjacency. Every triangle
//! keeps its *outside set*: the points more than `eps` in front of its plane
//! (a point assigned to no triangle is inside the hull within `eps`). Each step
//! takes the farthest point of some outside set (the *eye*), removes the
//! triangles it sees, and joins the eye to the *horizon* (the boundary of the
//! removed region) with a fan of new triangles.
//!
//! Visibility is "fat" in the generous direction: a triangle whose plane the eye
//! lies on within `eps` is removed as well. Then every kept triangle on the
//! horizon has the eye at least `eps` behind its plane, so every new triangle is
//! at least `eps` tall over its horizon edge (never a sliver with an unreliable
//! normal) and meets the kept triangle at a convex edge. Coplanar points that
//! arrive later simply re-triangulate their plane instead of folding it.

use super::{Tri, WHAT};
use crate::math::policy::GeometryError;
use glam::DVec3;
use std::collections::HashMap;

/// Builds the triangulated hull of `pts` (at least 4 points, all finite).
/// Returns the triangles with adjacency indices into the returned vector.
pub(super) fn build(pts: &[DVec3], eps: f64) -> Result<Vec<Tri>, GeometryError> {
    let s = initial_simplex(pts, eps)?;
    let mut h = Hull {
        pts,
        eps,
        tris: Vec::new(),
        outside: Vec::new(),
        alive: Vec::new(),
        mark: Vec::new(),
        stamp: 0,
    };
    // Oriented so that s[3] is behind the plane of (s0, s1, s2); each face is then
    // counter-clockwise seen from outside.
    let faces = [
        [s[0], s[1], s[2]],
        [s[0], s[3], s[1]],
        [s[1], s[3], s[2]],
        [s[2], s[3], s[0]],
    ];
    for f in faces {
        let (n, d) = plane(pts, f).ok_or(GeometryError::Degenerate {
            what: WHAT,
            why: "all points are coplanar",
        })?;
        h.push(Tri {
            v: f,
            adj: [u32::MAX; 3],
            n,
            d,
        });
    }
    link_by_edges(&mut h.tris);

    let new_faces: Vec<u32> = (0..4).collect();
    let candidates: Vec<u32> = (0..pts.len() as u32).filter(|i| !s.contains(i)).collect();
    h.assign(&candidates, &new_faces, u32::MAX);

    // Work stack of triangles that may have a non-empty outside set.
    let mut work: Vec<u32> = (0..4).rev().collect();
    while let Some(f) = work.pop() {
        let fi = f as usize;
        if !h.alive[fi] || h.outside[fi].is_empty() {
            continue;
        }
        let eye = h.farthest(fi);
        match h.add_point(eye, fi) {
            Some(new) => work.extend(
                new.into_iter()
                    .filter(|&t| !h.outside[t as usize].is_empty()),
            ),
            None => {
                // The visible region was not a disk (possible only for points
                // within rounding noise of several planes): this point cannot be
                // added consistently, so it is dropped. It lies within a few `eps`
                // of the hull.
                h.outside[fi].retain(|&p| p != eye);
                work.push(f);
            }
        }
    }
    Ok(h.compact())
}

/// The hull under construction.
struct Hull<'a> {
    pts: &'a [DVec3],
    eps: f64,
    tris: Vec<Tri>,
    /// Outside set of each triangle (input point indices).
    outside: Vec<Vec<u32>>,
    alive: Vec<bool>,
    /// Per triangle: `2 * stamp` when found visible in step `stamp`, `2 * stamp + 1`
    /// when found hidden.
    mark: Vec<u64>,
    stamp: u64,
}

/// One edge of the horizon: `a → b` as seen in the removed triangle, and the
/// kept triangle `keep` whose edge `k` is `b → a`.
#[derive(Clone, Copy)]
struct HorizonEdge {
    a: u32,
    b: u32,
    keep: u32,
    k: usize,
}

impl Hull<'_> {
    fn push(&mut self, t: Tri) {
        self.tris.push(t);
        self.outside.push(Vec::new());
        self.alive.push(true);
        self.mark.push(0);
    }

    /// Assigns each point to the listed triangle it is farthest in front of, if
    /// it is more than `eps` in front of one; `skip` is left out.
    fn assign(&mut self, points: &[u32], faces: &[u32], skip: u32) {
        for &p in points {
            if p == skip {
                continue;
            }
            let q = self.pts[p as usize];
            let mut best = u32::MAX;
            let mut best_d = self.eps;
            for &f in faces {
                let d = self.tris[f as usize].dist(q);
                if d > best_d {
                    best_d = d;
                    best = f;
                }
            }
            if best != u32::MAX {
                self.outside[best as usize].push(p);
            }
        }
    }

    /// The point of `f`'s outside set farthest from its plane (first on ties).
    fn farthest(&self, f: usize) -> u32 {
        let t = &self.tris[f];
        let mut best = self.outside[f][0];
        let mut best_d = f64::NEG_INFINITY;
        for &p in &self.outside[f] {
            let d = t.dist(self.pts[p as usize]);
            if d > best_d {
                best_d = d;
                best = p;
            }
        }
        best
    }

    /// Adds `eye` (in the outside set of `seed`) to the hull. Returns the new
    /// triangles, or `None` (hull unchanged) if the region the eye sees has no
    /// single simple boundary.
    fn add_point(&mut self, eye: u32, seed: usize) -> Option<Vec<u32>> {
        let pe = self.pts[eye as usize];
        self.stamp += 1;
        let vis = 2 * self.stamp;
        let hid = vis + 1;

        // Flood fill of the triangles that see the eye (connected to the seed).
        let mut visible = vec![seed as u32];
        self.mark[seed] = vis;
        let mut i = 0;
        while i < visible.len() {
            let t = visible[i] as usize;
            i += 1;
            for k in 0..3 {
                let nb = self.tris[t].adj[k] as usize;
                if self.mark[nb] == vis || self.mark[nb] == hid {
                    continue;
                }
                if self.tris[nb].dist(pe) > -self.eps {
                    self.mark[nb] = vis;
                    visible.push(nb as u32);
                } else {
                    self.mark[nb] = hid;
                }
            }
        }

        // Horizon edges, then chained into one loop.
        let mut edges = Vec::new();
        for &t in &visible {
            let tri = &self.tris[t as usize];
            for k in 0..3 {
                let nb = tri.adj[k];
                if self.mark[nb as usize] != vis {
                    let (a, b) = (tri.v[k], tri.v[(k + 1) % 3]);
                    let kt = &self.tris[nb as usize];
                    let kk = (0..3).find(|&j| kt.v[j] == b && kt.v[(j + 1) % 3] == a)?;
                    edges.push(HorizonEdge {
                        a,
                        b,
                        keep: nb,
                        k: kk,
                    });
                }
            }
        }
        if edges.len() < 3 {
            return None;
        }
        let mut by_start: HashMap<u32, usize> = HashMap::with_capacity(edges.len());
        for (i, e) in edges.iter().enumerate() {
            if by_start.insert(e.a, i).is_some() {
                return None; // the region touches itself at a vertex
            }
        }
        let mut order = Vec::with_capacity(edges.len());
        let mut cur = 0usize;
        loop {
            order.push(cur);
            cur = *by_start.get(&edges[cur].b)?;
            if cur == 0 {
                break;
            }
            if order.len() > edges.len() {
                return None;
            }
        }
        if order.len() != edges.len() {
            return None; // several loops: the region has a hole
        }

        // Planes of the new triangles (checked before anything is changed).
        let mut planes = Vec::with_capacity(order.len());
        for &e in &order {
            let (a, b) = (edges[e].a, edges[e].b);
            planes.push(plane(self.pts, [a, b, eye])?);
        }

        // Replace the visible region by the fan from the eye.
        let base = self.tris.len() as u32;
        let m = order.len() as u32;
        for (j, &e) in order.iter().enumerate() {
            let j = j as u32;
            let he = edges[e];
            let (n, d) = planes[j as usize];
            let t = base + j;
            self.push(Tri {
                v: [he.a, he.b, eye],
                adj: [he.keep, base + (j + 1) % m, base + (j + m - 1) % m],
                n,
                d,
            });
            self.tris[he.keep as usize].adj[he.k] = t;
        }
        let mut orphans = Vec::new();
        for &t in &visible {
            self.alive[t as usize] = false;
            orphans.append(&mut self.outside[t as usize]);
        }
        let new: Vec<u32> = (base..base + m).collect();
        self.assign(&orphans, &new, eye);
        Some(new)
    }

    /// The live triangles, renumbered densely.
    fn compact(self) -> Vec<Tri> {
        let mut index = vec![u32::MAX; self.tris.len()];
        let mut n = 0u32;
        for (i, &a) in self.alive.iter().enumerate() {
            if a {
                index[i] = n;
                n += 1;
            }
        }
        self.tris
            .into_iter()
            .zip(self.alive)
            .filter(|(_, a)| *a)
            .map(|(mut t, _)| {
                for a in &mut t.adj {
                    *a = index[*a as usize];
                }
                t
            })
            .collect()
    }
}

/// The outward plane `(n, d)` of the triangle `v` (counter-clockwise), or `None`
/// if it has no area.
fn plane(pts: &[DVec3], v: [u32; 3]) -> Option<(DVec3, f64)> {
    let [a, b, c] = v.map(|i| pts[i as usize]);
    let n = (b - a).cross(c - a).try_normalize()?;
    Some((n, n.dot((a + b + c) / 3.0)))
}

/// Fills `adj` of triangles that form a closed, consistently oriented mesh.
fn link_by_edges(tris: &mut [Tri]) {
    let mut edge: HashMap<(u32, u32), (usize, usize)> = HashMap::new();
    for (t, tri) in tris.iter().enumerate() {
        for k in 0..3 {
            edge.insert((tri.v[k], tri.v[(k + 1) % 3]), (t, k));
        }
    }
    for tri in tris.iter_mut() {
        for k in 0..3 {
            let (a, b) = (tri.v[k], tri.v[(k + 1) % 3]);
            if let Some(&(o, _)) = edge.get(&(b, a)) {
                tri.adj[k] = o as u32;
            }
        }
    }
}

/// Four input indices spanning a tetrahedron of positive volume, the fourth
/// behind the plane of the first three (counter-clockwise from outside).
/// Follows Gregorius (GDC 2014): the two farthest of the six axis-extreme
/// points, then the point farthest from their line, then the point farthest
/// from that plane. Each distance is compared with `eps` to detect input that
/// is coincident, collinear or coplanar.
fn initial_simplex(pts: &[DVec3], eps: f64) -> Result<[u32; 4], GeometryError> {
    let degenerate = |why| GeometryError::Degenerate { what: WHAT, why };
    let mut lo = [0usize; 3];
    let mut hi = [0usize; 3];
    for (i, p) in pts.iter().enumerate() {
        for a in 0..3 {
            if p[a] < pts[lo[a]][a] {
                lo[a] = i;
            }
            if p[a] > pts[hi[a]][a] {
                hi[a] = i;
            }
        }
    }
    let mut i0 = lo[0];
    let mut i1 = hi[0];
    let mut span = 0.0;
    for a in 0..3 {
        let s = pts[lo[a]].distance(pts[hi[a]]);
        if s > span {
            span = s;
            i0 = lo[a];
            i1 = hi[a];
        }
    }
    if span <= eps {
        return Err(degenerate("all points coincide"));
    }
    let (p0, p1) = (pts[i0], pts[i1]);
    let dir = (p1 - p0) / span;
    let mut i2 = 0;
    let mut best = -1.0;
    for (i, &p) in pts.iter().enumerate() {
        let w = p - p0;
        let d = (w - dir * w.dot(dir)).length_squared();
        if d > best {
            best = d;
            i2 = i;
        }
    }
    if best.sqrt() <= eps {
        return Err(degenerate("all points are collinear"));
    }
    let p2 = pts[i2];
    let n = (p1 - p0).cross(p2 - p0).normalize();
    let mut i3 = 0;
    let mut best = -1.0;
    for (i, &p) in pts.iter().enumerate() {
        let d = n.dot(p - p0).abs();
        if d > best {
            best = d;
            i3 = i;
        }
    }
    if best <= eps {
        return Err(degenerate("all points are coplanar"));
    }
    let s = if n.dot(pts[i3] - p0) > 0.0 {
        [i0, i2, i1, i3]
    } else {
        [i0, i1, i2, i3]
    };
    Ok(s.map(|i| i as u32))
}
