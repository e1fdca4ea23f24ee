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
//! A triangle sees the eye when the eye is in front of its plane. Rounding makes
//! that verdict unreliable for thin triangles (their planes tilt by the input's
//! rounding over their small height, see [`plane`]), which shows in three ways,
//! each repaired by taking more triangles as visible:
//! - a kept triangle on the horizon that the eye is nearly coplanar with (within
//!   `eps` plus the triangle's slack), where the new triangle would fold back
//!   over it or be flat ([`Hull::folded_edge`]);
//! - a hole in the visible region ([`Hull::fill_holes`]);
//! - a region touching itself at a vertex ([`Hull::fix_pinch`]).
//!
//! If the region still has no simple boundary the eye is dropped (it lies
//! within rounding of the hull); [`super::convex_hull`] checks the final hull
//! against every input point.

use super::{Tri, WHAT};
use crate::math::policy::GeometryError;
use glam::DVec3;
use std::collections::HashMap;

/// Builds the triangulated hull of `pts` (at least 4 points, all finite).
/// Returns the triangles with adjacency indices into the returned vector.
pub(super) fn build(pts: &[DVec3], eps: f64) -> Result<Vec<Tri>, GeometryError> {
    let s = initial_simplex(pts, eps)?;
    let lever = plane_lever(pts);
    let mut h = Hull {
        pts,
        eps,
        lever,
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
        let (n, d, slack) = plane(pts, f, lever).ok_or(GeometryError::Degenerate {
            what: WHAT,
            why: "all points are coplanar",
        })?;
        h.push(Tri {
            v: f,
            adj: [u32::MAX; 3],
            n,
            d,
            slack,
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

/// How far behind the eye, in units of `eps`, a triangle enclosed by visible
/// ones may be and still be taken as visible (see [`Hull::fill_holes`]).
const HOLE_EPS: f64 = 1.0e3;

/// The largest visibility slack, in units of `eps` (see [`plane`]): beyond
/// it a triangle's verdict is trusted, since taking it as visible would dent
/// the hull by as much.
const SLACK_CAP: f64 = 16.0;

/// Most repairs of one visible region (see [`Hull::add_point`]).
const MAX_REPAIRS: usize = 32;

/// The hull under construction.
struct Hull<'a> {
    pts: &'a [DVec3],
    eps: f64,
    /// See [`plane_lever`].
    lever: DVec3,
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
                if self.tris[nb].dist(pe) > 0.0 {
                    self.mark[nb] = vis;
                    visible.push(nb as u32);
                } else {
                    self.mark[nb] = hid;
                }
            }
        }

        // Rounding tilts the planes of thin triangles, so the region can come out
        // with a hole (a triangle testing hidden while all around it test
        // visible) or pinched (touching itself at a vertex). Both are repaired by
        // taking the least hidden of the offending triangles as visible too.
        let mut order = None;
        for _ in 0..MAX_REPAIRS {
            let repaired = match self.horizon(&visible, vis) {
                Ok(o) => match self.folded_edge(&o, pe) {
                    None => {
                        order = Some(o);
                        break;
                    }
                    Some(k) => {
                        self.mark[k as usize] = vis;
                        visible.push(k);
                        true
                    }
                },
                Err(Some(w)) => self.fix_pinch(w, &mut visible, pe, vis),
                Err(None) => self.fill_holes(&mut visible, pe, vis),
            };
            if !repaired {
                return None;
            }
        }
        let order = order?;

        // Planes of the new triangles (checked before anything is changed).
        let mut planes = Vec::with_capacity(order.len());
        for e in &order {
            planes.push(plane(self.pts, [e.a, e.b, eye], self.lever)?);
        }

        // Replace the visible region by the fan from the eye.
        let base = self.tris.len() as u32;
        let m = order.len() as u32;
        for (j, &he) in order.iter().enumerate() {
            let j = j as u32;
            let (n, d, slack) = planes[j as usize];
            let t = base + j;
            self.push(Tri {
                v: [he.a, he.b, eye],
                adj: [he.keep, base + (j + 1) % m, base + (j + m - 1) % m],
                n,
                d,
                slack,
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

    /// The boundary of the region `visible` (triangles marked `vis`) as one loop
    /// of edges in order. Fails with `Some(w)` if the region touches itself at
    /// vertex `w`, with `None` if it has holes (or is broken otherwise).
    fn horizon(&self, visible: &[u32], vis: u64) -> Result<Vec<HorizonEdge>, Option<u32>> {
        let mut edges = Vec::new();
        for &t in visible {
            let tri = &self.tris[t as usize];
            for k in 0..3 {
                let nb = tri.adj[k];
                if self.mark[nb as usize] != vis {
                    let (a, b) = (tri.v[k], tri.v[(k + 1) % 3]);
                    let kt = &self.tris[nb as usize];
                    let kk = (0..3)
                        .find(|&j| kt.v[j] == b && kt.v[(j + 1) % 3] == a)
                        .ok_or(None)?;
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
            return Err(None);
        }
        let mut by_start: HashMap<u32, usize> = HashMap::with_capacity(edges.len());
        for (i, e) in edges.iter().enumerate() {
            if by_start.insert(e.a, i).is_some() {
                return Err(Some(e.a));
            }
        }
        let mut order = Vec::with_capacity(edges.len());
        let mut cur = 0usize;
        loop {
            order.push(edges[cur]);
            cur = *by_start.get(&edges[cur].b).ok_or(None)?;
            if cur == 0 {
                break;
            }
            if order.len() > edges.len() {
                return Err(None);
            }
        }
        // Fewer edges in the loop than on the boundary: the region has a hole.
        if order.len() == edges.len() {
            Ok(order)
        } else {
            Err(None)
        }
    }

    /// A kept triangle on the horizon whose verdict "hidden" is not reliable and
    /// whose new neighbour would fold back over it: the new triangle faces
    /// against it (normals more than 90 degrees apart) while the eye is within
    /// the triangle's slack of its plane. Taking such a triangle as visible
    /// too keeps thin triangles in flat regions from folding the surface.
    fn folded_edge(&self, order: &[HorizonEdge], pe: DVec3) -> Option<u32> {
        order.iter().find_map(|e| {
            let k = &self.tris[e.keep as usize];
            let (a, b) = (self.pts[e.a as usize], self.pts[e.b as usize]);
            let n = (b - a).cross(pe - a);
            let ambiguous = k.dist(pe) > -(self.eps + k.slack.min(SLACK_CAP * self.eps));
            // Twice the area over the base: the new triangle's height.
            let flat = n.length() <= self.eps * (b - a).length();
            (ambiguous && (flat || n.dot(k.n) < 0.0)).then_some(e.keep)
        })
    }

    /// Repairs a region pinched at vertex `w`: of the runs of hidden triangles
    /// around `w`, the least hidden one becomes visible, provided it is within
    /// `HOLE_EPS` of seeing the eye. Returns whether it did.
    fn fix_pinch(&mut self, w: u32, visible: &mut Vec<u32>, pe: DVec3, vis: u64) -> bool {
        // The ring of triangles around w, in order: from a visible triangle with
        // corner w at position i, the next one is across edge v[i] → v[i + 1].
        let Some(&first) = visible
            .iter()
            .find(|&&t| self.tris[t as usize].v.contains(&w))
        else {
            return false;
        };
        let mut ring = Vec::new();
        let mut t = first;
        loop {
            ring.push(t);
            let tri = &self.tris[t as usize];
            let Some(i) = tri.v.iter().position(|&v| v == w) else {
                return false;
            };
            t = tri.adj[i];
            if t == first {
                break;
            }
            if ring.len() > self.tris.len() {
                return false;
            }
        }
        // Runs of hidden triangles (the ring starts on a visible one).
        let mut runs: Vec<(Vec<u32>, f64)> = Vec::new();
        let mut in_run = false;
        for &t in &ring {
            if self.mark[t as usize] == vis {
                in_run = false;
                continue;
            }
            if !in_run {
                runs.push((Vec::new(), f64::INFINITY));
                in_run = true;
            }
            if let Some(run) = runs.last_mut() {
                run.0.push(t);
                run.1 = run.1.min(self.tris[t as usize].dist(pe));
            }
        }
        if runs.len() < 2 {
            return false;
        }
        let Some(best) = runs.into_iter().max_by(|a, b| a.1.total_cmp(&b.1)) else {
            return false;
        };
        if best.1 <= -HOLE_EPS * self.eps {
            return false;
        }
        for t in best.0 {
            self.mark[t as usize] = vis;
            visible.push(t);
        }
        true
    }

    /// Adds to `visible` every connected set of hidden triangles except the one
    /// holding the triangle farthest behind the eye, provided they are all
    /// within `HOLE_EPS` of seeing it. Returns whether any hole was filled.
    fn fill_holes(&mut self, visible: &mut Vec<u32>, pe: DVec3, vis: u64) -> bool {
        let mut comp: HashMap<u32, usize> = HashMap::new();
        // Per component: its triangles, and the smallest (most hidden) distance.
        let mut comps: Vec<(Vec<u32>, f64)> = Vec::new();
        for &t in visible.iter() {
            for &nb in &self.tris[t as usize].adj {
                if self.mark[nb as usize] == vis || comp.contains_key(&nb) {
                    continue;
                }
                let c = comps.len();
                comp.insert(nb, c);
                let mut members = vec![nb];
                let mut lowest = f64::INFINITY;
                let mut i = 0;
                while i < members.len() {
                    let u = members[i];
                    i += 1;
                    lowest = lowest.min(self.tris[u as usize].dist(pe));
                    for &w in &self.tris[u as usize].adj {
                        if self.mark[w as usize] != vis && !comp.contains_key(&w) {
                            comp.insert(w, c);
                            members.push(w);
                        }
                    }
                }
                comps.push((members, lowest));
            }
        }
        if comps.len() < 2 {
            return false;
        }
        let main = (0..comps.len())
            .min_by(|&a, &b| comps[a].1.total_cmp(&comps[b].1))
            .unwrap_or(0);
        let limit = -HOLE_EPS * self.eps;
        if comps
            .iter()
            .enumerate()
            .any(|(c, (_, lowest))| c != main && *lowest <= limit)
        {
            return false;
        }
        for (c, (members, _)) in comps.into_iter().enumerate() {
            if c != main {
                for t in members {
                    self.mark[t as usize] = vis;
                    visible.push(t);
                }
            }
        }
        true
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

/// The outward plane `(n, d)` of the triangle `v` (counter-clockwise) and its
/// visibility slack, or `None` if it has no area.
///
/// The slack bounds how far rounding of the input can move the plane at the
/// far side of the point set. The vertices are known only to within the f32
/// rounding of each coordinate; the part of that error along the normal tilts
/// the plane by up to that over the triangle's smallest height, and the tilt is
/// multiplied by up to the extent of the point set (`lever` is rounding per
/// axis times extent). A thin triangle inside a flat region thus cannot decide
/// on its own that a coplanar point is behind it, which would fold the new
/// triangles over the region. Rounding along the plane does not tilt it, so
/// long thin triangles of thin shapes (needles, slabs) keep a small slack.
fn plane(pts: &[DVec3], v: [u32; 3], lever: DVec3) -> Option<(DVec3, f64, f64)> {
    let [a, b, c] = v.map(|i| pts[i as usize]);
    let cross = (b - a).cross(c - a);
    let n = cross.try_normalize()?;
    let longest = (b - a)
        .length_squared()
        .max((c - b).length_squared())
        .max((a - c).length_squared())
        .sqrt();
    // Twice the area over the longest edge is the smallest height.
    let height = cross.length() / longest;
    let off_plane = (lever * n).abs().element_sum();
    Some((n, n.dot((a + b + c) / 3.0), 2.0 * off_plane / height))
}

/// Rounding of the f32 input per axis (one f32 epsilon of the largest absolute
/// coordinate on that axis) times the diagonal of the points' bounding box.
fn plane_lever(pts: &[DVec3]) -> DVec3 {
    let (lo, hi) = pts
        .iter()
        .fold((pts[0], pts[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let m = lo.abs().max(hi.abs());
    m * (f32::EPSILON as f64 * (hi - lo).length())
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
