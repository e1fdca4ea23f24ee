//! The expanding polytope algorithm (EPA): penetration depth and MTD normal of
//! two overlapping convex cores.
//!
//! van den Bergen, "Proximity queries and penetration depth computation on 3D
//! game objects" (GDC 2001); Ericson, *Real-Time Collision Detection*, 9.5 notes.
//! Starting from a polytope inside `A − B` that contains the origin (grown from
//! GJK's final simplex), repeatedly take the face nearest the origin, find the
//! support point along its normal, and if it lies beyond the face, cut away every
//! face it sees and stitch the horizon to it. When the support point does not
//! pass the nearest face (within tolerance), that face is on the boundary of
//! `A − B` and its distance to the origin is the penetration depth.
//!
//! Robustness: when the starting simplex is lower-dimensional it is grown with
//! support points along perpendicular directions; when `A − B` itself is flat
//! (a triangle against a coplanar triangle, a segment against a segment) no
//! volume can be found and the depth is 0 along the flat direction, which is
//! exact: the support of a flat set through the origin along its normal is 0.

use super::simplex::{Simplex, SupportPoint};
use super::support::{support_pair, SupportMap};
use crate::math::tolerance::EPA_MAX_ITERATIONS;
use crate::math::{Pose3, Vec3};
use glam::DVec3;

/// What EPA found, in A's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpaOutput {
    /// Penetration depth of the cores (may be a tiny negative number when they
    /// only touch).
    pub depth: f32,
    /// Unit MTD normal from A to B: moving B by `normal * depth` separates.
    pub normal: Vec3,
    /// Deepest point of A's core.
    pub point_a: Vec3,
    /// Deepest point of B's core (in A's frame); `point_a - point_b = normal * depth`.
    pub point_b: Vec3,
    /// Whether the tolerance was met before the iteration cap.
    pub converged: bool,
    /// Number of expansions.
    pub iterations: usize,
}

/// Relative tolerance on the depth: stop when the support point along the
/// nearest face normal passes that face by less than this times the size.
const REL_TOL: f32 = 1.0e-6;
/// Relative gap between the lower bound (nearest face) and the least upper
/// bound (support value) at which EPA stops: 1e-5 of the depth, well inside
/// the 1e-4 agreement asked of depths, and above the f32 noise of face normals
/// built from nearly coincident support points.
const STALL_TOL: f32 = 1.0e-5;
/// Relative distance behind the origin beyond which a face counts as behind it
/// (a true face to expand first, or a flipped sliver: see `pick_face`).
const NEG_TOL: f32 = 1.0e-5;
/// Relative size below which a polytope has no extent in a direction.
const FLAT_TOL: f32 = 1.0e-6;

/// A triangle of the polytope: vertices counter-clockwise seen from outside,
/// `adj[k]` the face across edge `v[k] → v[k+1]`.
#[derive(Clone, Copy)]
struct Face {
    v: [u32; 3],
    adj: [u32; 3],
    n: Vec3,
    d: f32,
    alive: bool,
    /// A vertex of the polytope already lies beyond this face (rounding made
    /// the polytope locally non-convex): never a candidate again.
    bad: bool,
}

/// A face through three polytope vertices, its plane in f64: with one vertex
/// far from the other two (a needle against a needle) the triangle is a
/// sliver, and an f32 cross product of its long edges tilts the normal by the
/// f32 rounding over the sliver's angle (1e-4 rad for edges 7e5 long and 20
/// apart at the near end), which misplaces the plane by tens of units.
fn make_face(verts: &[SupportPoint], v: [u32; 3]) -> Face {
    let (a, b, c) = (
        verts[v[0] as usize].w.as_dvec3(),
        verts[v[1] as usize].w.as_dvec3(),
        verts[v[2] as usize].w.as_dvec3(),
    );
    let cr = (b - a).cross(c - a);
    match cr.try_normalize() {
        Some(n) => {
            // Average the three offsets: less sensitive to which vertex is used.
            let d = (n.dot(a) + n.dot(b) + n.dot(c)) / 3.0;
            Face {
                v,
                adj: [u32::MAX; 3],
                n: n.as_vec3(),
                d: d as f32,
                alive: true,
                bad: false,
            }
        }
        None => Face {
            v,
            adj: [u32::MAX; 3],
            n: Vec3::ZERO,
            d: f32::INFINITY,
            alive: true,
            bad: false,
        },
    }
}

/// Barycentric coordinates of the projection of `p` on triangle `a b c`,
/// clamped to the triangle.
fn triangle_weights(a: Vec3, b: Vec3, c: Vec3, p: Vec3) -> [f32; 3] {
    let n = (b - a).cross(c - a);
    let la = n.dot((b - p).cross(c - p)).max(0.0);
    let lb = n.dot((c - p).cross(a - p)).max(0.0);
    let lc = n.dot((a - p).cross(b - p)).max(0.0);
    let s = la + lb + lc;
    if s > 0.0 && s.is_finite() {
        [la / s, lb / s, lc / s]
    } else {
        [1.0 / 3.0; 3]
    }
}

/// The index `k` of the edge of face `g` that runs `x → …`, i.e. the edge
/// shared with a neighbour whose edge ends at... (the edge of `g` starting at
/// the neighbour's edge end). Given the neighbour's edge `a → b` starting at
/// `a = from`, `g` holds it as `b → a`, which is edge `k` with `g.v[k+1] == from`.
fn edge_back(faces: &[Face], g: u32, from: u32) -> usize {
    let Some(f) = faces.get(g as usize) else {
        return 0;
    };
    (0..3).find(|&k| f.v[(k + 1) % 3] == from).unwrap_or(0)
}

/// Sets the adjacency among `ids` by matching opposite directed edges.
fn link_all(faces: &mut [Face], ids: &[usize]) {
    for (ii, &i) in ids.iter().enumerate() {
        for &j in &ids[ii + 1..] {
            for k in 0..3 {
                let (a, b) = (faces[i].v[k], faces[i].v[(k + 1) % 3]);
                for m in 0..3 {
                    if faces[j].v[m] == b && faces[j].v[(m + 1) % 3] == a {
                        faces[i].adj[k] = j as u32;
                        faces[j].adj[m] = i as u32;
                    }
                }
            }
        }
    }
}

/// The live face with the smallest offset not below `min_d`.
fn nearest_face(faces: &[Face], min_d: f32) -> Option<usize> {
    let mut found: Option<usize> = None;
    for (i, f) in faces.iter().enumerate() {
        if f.alive
            && !f.bad
            && f.d.is_finite()
            && f.d >= min_d
            && found.is_none_or(|j| f.d < faces[j].d)
        {
            found = Some(i);
        }
    }
    found
}

/// The face to expand next, and whether it lies behind the origin: the live
/// face farthest behind the origin (offset below `min_d`) that is a true face
/// of the convex polytope (every vertex behind its plane within `eps`), else
/// the live face nearest the origin (offset at least `min_d`). The origin
/// lies outside a face behind it, so the polytope does not hold it yet. A
/// face behind the origin whose plane some vertex passes is a sliver that
/// rounding flipped: it is marked bad and never chosen (vertices are only
/// added, so it stays so).
fn pick_face(
    faces: &mut [Face],
    verts: &[SupportPoint],
    min_d: f32,
    eps: f32,
) -> Option<(usize, bool)> {
    loop {
        let (mut nearest, mut behind): (Option<usize>, Option<usize>) = (None, None);
        for (i, f) in faces.iter().enumerate() {
            if !f.alive || f.bad || !f.d.is_finite() {
                continue;
            }
            if f.d >= min_d {
                if nearest.is_none_or(|j| f.d < faces[j].d) {
                    nearest = Some(i);
                }
            } else if behind.is_none_or(|j| f.d < faces[j].d) {
                behind = Some(i);
            }
        }
        let Some(b) = behind else {
            return nearest.map(|i| (i, false));
        };
        let f = faces[b];
        let base = verts[f.v[0] as usize].w;
        if verts.iter().all(|p| f.n.dot(p.w - base) <= eps) {
            return Some((b, true));
        }
        faces[b].bad = true;
    }
}

/// A unit vector perpendicular to `u` (not necessarily unit).
fn any_perpendicular(u: Vec3) -> Vec3 {
    let a = u.abs();
    let axis = if a.x <= a.y && a.x <= a.z {
        Vec3::X
    } else if a.y <= a.z {
        Vec3::Y
    } else {
        Vec3::Z
    };
    u.cross(axis).normalize_or(Vec3::Y)
}

/// The output for a flat (or lower-dimensional) Minkowski difference: depth 0
/// along `normal`, witnesses from the origin's weights in `simplex`.
fn flat_output(simplex: &mut Simplex, normal: Vec3) -> EpaOutput {
    simplex.solve();
    let (point_a, point_b) = simplex.witnesses();
    EpaOutput {
        depth: 0.0,
        normal,
        point_a,
        point_b,
        converged: true,
        iterations: 0,
    }
}

/// Penetration depth of the cores of `a` and `b` (B placed by `pose_ab` in A's
/// frame), starting from GJK's final simplex of the overlapping pair.
pub fn epa<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose3,
    simplex: &Simplex,
) -> EpaOutput {
    let support = |d: Vec3| support_pair(a, b, pose_ab, d);
    let mut verts: Vec<SupportPoint> = Vec::with_capacity(EPA_MAX_ITERATIONS + 4);
    for p in simplex.points() {
        if !verts.iter().any(|q| q.w == p.w) {
            verts.push(*p);
        }
    }
    if verts.is_empty() {
        verts.push(support(Vec3::X));
    }
    let scale = verts
        .iter()
        .fold(0.0f32, |m, p| m.max(p.w.length()))
        .max(f32::MIN_POSITIVE);

    // A flat tetrahedron from GJK: keep its largest face.
    if verts.len() == 4 {
        let [p0, p1, p2, p3] = [verts[0].w, verts[1].w, verts[2].w, verts[3].w];
        let vol = (p1 - p0).dot((p2 - p0).cross(p3 - p0)).abs();
        if vol <= FLAT_TOL * scale * scale * scale {
            let faces = [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]];
            let area = |f: &[usize; 3]| {
                (verts[f[1]].w - verts[f[0]].w)
                    .cross(verts[f[2]].w - verts[f[0]].w)
                    .length_squared()
            };
            let best = faces
                .iter()
                .copied()
                .max_by(|x, y| area(x).total_cmp(&area(y)))
                .unwrap_or([0, 1, 2]);
            verts = best.iter().map(|&i| verts[i]).collect();
        }
    }

    // Grow a point or segment to a triangle with supports off its span.
    if verts.len() == 1 {
        let w0 = verts[0].w;
        for d in [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z] {
            let sp = support(d);
            if sp.w.distance(w0) > FLAT_TOL * scale.max(sp.w.length()) {
                verts.push(sp);
                break;
            }
        }
        if verts.len() == 1 {
            // A − B is a single point at the origin.
            let mut s = Simplex::new();
            s.push(verts[0]);
            return flat_output(&mut s, Vec3::X);
        }
    }
    if verts.len() == 2 {
        let (w0, w1) = (verts[0].w, verts[1].w);
        let u = (w1 - w0).normalize_or(Vec3::X);
        let e1 = any_perpendicular(u);
        let e2 = u.cross(e1);
        let mut best: Option<(f32, SupportPoint)> = None;
        for d in [e1, -e1, e2, -e2] {
            let sp = support(d);
            let off = sp.w - w0;
            let h = (off - u * off.dot(u)).length();
            if best.is_none_or(|(bh, _)| h > bh) {
                best = Some((h, sp));
            }
        }
        match best {
            Some((h, sp)) if h > FLAT_TOL * scale => verts.push(sp),
            _ => {
                // A − B is a segment through the origin.
                let mut s = Simplex::new();
                s.push(verts[0]);
                s.push(verts[1]);
                return flat_output(&mut s, e1);
            }
        }
    }
    if verts.len() == 3 {
        // The triangle's plane in f64, for the reason given at `make_face`.
        let (w0, w1, w2) = (
            verts[0].w.as_dvec3(),
            verts[1].w.as_dvec3(),
            verts[2].w.as_dvec3(),
        );
        let n = (w1 - w0).cross(w2 - w0).normalize_or(DVec3::X);
        let up = support(n.as_vec3());
        let down = support(-n.as_vec3());
        let hu = n.dot(up.w.as_dvec3() - w0);
        let hd = -n.dot(down.w.as_dvec3() - w0);
        let scale = f64::from(scale.max(up.w.length()).max(down.w.length()));
        let flat = f64::from(FLAT_TOL) * scale;
        if hu.max(hd) <= flat {
            // A − B is flat: depth 0 along its normal.
            let mut s = Simplex::new();
            for p in &verts {
                s.push(*p);
            }
            // Orient the normal from A towards B when that is decided.
            let n = if hu >= hd { n } else { -n };
            return flat_output(&mut s, n.as_vec3());
        }
        // The tetrahedron must contain the origin: when the triangle came from a
        // thin GJK tetrahedron the origin may sit a little off its plane, and
        // only the support on the origin's side encloses it.
        let s = -n.dot(w0);
        let use_up = if s.abs() > flat { s > 0.0 } else { hu >= hd };
        let (side, reach) = if use_up { (up, hu) } else { (down, hd) };
        if s.abs() > flat && reach < s.abs() {
            // A − B stops short of the origin on its side: GJK called the
            // cores touching (a gap within its relative tolerance), and the
            // support plane there separates them by the shortfall.
            let m = if use_up { n } else { -n };
            return EpaOutput {
                depth: (reach - s.abs()) as f32,
                normal: m.as_vec3(),
                point_a: side.a,
                point_b: side.b,
                converged: true,
                iterations: 0,
            };
        }
        verts.push(side);
    }

    // The starting tetrahedron, faces oriented outwards.
    let mut faces: Vec<Face> = Vec::with_capacity(2 * EPA_MAX_ITERATIONS + 8);
    for (f, opp) in [
        ([0u32, 1, 2], 3usize),
        ([0, 3, 1], 2),
        ([0, 2, 3], 1),
        ([1, 3, 2], 0),
    ] {
        let mut v = f;
        let (a0, a1, a2) = (
            verts[v[0] as usize].w,
            verts[v[1] as usize].w,
            verts[v[2] as usize].w,
        );
        if (a1 - a0).cross(a2 - a0).dot(verts[opp].w - a0) > 0.0 {
            v.swap(1, 2);
        }
        faces.push(make_face(&verts, v));
    }
    link_all(&mut faces, &[0, 1, 2, 3]);

    let mut scale = verts.iter().fold(scale, |m, p| m.max(p.w.length()));
    let mut best_face = 0usize;
    // The least upper bound met so far: every support value `h(n) = n·s(n)`
    // of A − B along a unit `n` bounds the depth from above (moving B by
    // `n·h(n)` separates), while the nearest face of a convex polytope inside
    // A − B bounds it from below (van den Bergen 2001, section 4.3). Kept as
    // the face whose normal gave it, with `h`.
    let mut upper: Option<(f32, Face)> = None;
    let mut converged = false;
    let mut iterations = 0;
    let mut horizon: Vec<(u32, usize)> = Vec::new();
    let mut stack: Vec<(u32, usize)> = Vec::new();
    while iterations < EPA_MAX_ITERATIONS {
        // The live face nearest the origin. When the polytope contains the
        // origin no true face lies behind it; a face that does is mostly a
        // sliver whose orientation rounding has flipped (three nearly
        // collinear rim points of a curved or flat patch), and is skipped.
        // But GJK can call the cores overlapping with a final simplex that stops
        // short of the origin by more than rounding (a shallow overlap of two
        // large cylinders: 2.6e-4 short, with the depth 4.3e-4 and the size
        // 5.6). Then a true face lies behind the origin, and skipping it would
        // leave the region nearest the origin unexplored: such faces are
        // expanded first, until the polytope holds the origin.
        let Some((fi, behind)) =
            pick_face(&mut faces, &verts, -NEG_TOL * scale, 0.1 * REL_TOL * scale)
        else {
            break;
        };
        let face = faces[fi];
        let sp = support(face.n);
        scale = scale.max(sp.w.length());
        let h = face.n.dot(sp.w);
        let gap = h - face.d;
        if behind && h < -REL_TOL * scale {
            // A − B lies wholly behind a plane that the origin is in front
            // of: the cores are apart, by at least `-h` along the normal.
            return EpaOutput {
                depth: h,
                normal: face.n,
                point_a: sp.a,
                point_b: sp.b,
                converged: true,
                iterations,
            };
        }
        // (NaN counts as converged.)
        if gap.is_nan() || (!behind && gap <= REL_TOL * scale) {
            best_face = fi;
            converged = true;
            break;
        }
        if h.is_finite() && upper.is_none_or(|(u, _)| h < u) {
            upper = Some((h, face));
        }
        // Lower and upper bounds within a relative STALL_TOL: on curved patches
        // (a cylinder's rim against a segment) f32 face normals from nearly
        // coincident support points stop the gap shrinking well before
        // REL_TOL·scale, and further expansion only makes slivers.
        if let Some((u, best)) = upper.filter(|_| !behind) {
            if face.d >= u - STALL_TOL * u.abs().max(REL_TOL * scale) {
                return face_output(&verts, &best, u, true, iterations);
            }
        }
        iterations += 1;
        if verts.iter().any(|q| q.w == sp.w) {
            // The support point is already a vertex yet lies beyond the face:
            // the face is not on the hull. Skip it and try the next nearest.
            faces[fi].bad = true;
            continue;
        }
        let new_index = verts.len() as u32;
        verts.push(sp);
        // Carve out the faces that see the new point by a depth-first walk from
        // the nearest face over the adjacency, so the removed region stays
        // connected and its boundary (the horizon) is one loop of edges.
        let eps = 0.1 * REL_TOL * scale;
        faces[fi].alive = false;
        horizon.clear();
        stack.clear();
        for k in (0..3).rev() {
            stack.push((face.adj[k], edge_back(&faces, face.adj[k], face.v[k])));
        }
        while let Some((g, e)) = stack.pop() {
            let gi = g as usize;
            if gi >= faces.len() || !faces[gi].alive {
                continue;
            }
            let f = faces[gi];
            let height = f.n.dot(sp.w - verts[f.v[0] as usize].w);
            // A face the point sees goes. So does a face coplanar with the point
            // (flat patches of A − B: a cone's base, a box face) when the new
            // face on its horizon edge would fold back over it (the polytope
            // must stay convex for the nearest face to bound the depth).
            let (x, y) = (f.v[(e + 1) % 3], f.v[e]);
            let nf = (verts[y as usize].w - verts[x as usize].w).cross(sp.w - verts[x as usize].w);
            let fold = height > -10.0 * eps && f.n.dot(nf) <= 0.0;
            // The new face must meet the kept face at a convex edge: the kept
            // face's third vertex must not lie in front of the new face. Near
            // coplanar points (a rim sampled densely) can break this; the kept
            // face then goes too.
            let opp = verts[f.v[(e + 2) % 3] as usize].w;
            let reflex = nf.dot(opp - verts[x as usize].w) > eps * nf.length();
            if height > eps || fold || reflex || !f.d.is_finite() {
                faces[gi].alive = false;
                // Visit the two other edges, in order, so the horizon comes out
                // as a loop.
                for k in [(e + 2) % 3, (e + 1) % 3] {
                    let h = f.adj[k];
                    stack.push((h, edge_back(&faces, h, f.v[k])));
                }
            } else {
                horizon.push((g, e));
            }
        }
        // New faces on the horizon: the kept face's edge reversed, then the point.
        let first_new = faces.len();
        for &(g, e) in &horizon {
            let f = faces[g as usize];
            let (x, y) = (f.v[(e + 1) % 3], f.v[e]);
            let mut nf = make_face(&verts, [x, y, new_index]);
            nf.adj[0] = g;
            let ni = faces.len() as u32;
            faces[g as usize].adj[e] = ni;
            faces.push(nf);
        }
        let new_ids: Vec<usize> = (first_new..faces.len()).collect();
        link_all(&mut faces, &new_ids);
    }
    if converged {
        let f = faces[best_face];
        // Only a polytope that rounding made non-convex can have a support
        // value below its nearest face; the support value then wins.
        return match upper {
            Some((u, g)) if u < f.d => face_output(&verts, &g, u, true, iterations),
            _ => face_output(&verts, &f, f.d, true, iterations),
        };
    }
    // Iteration cap, or no candidate face left. When rounding has made the
    // polytope locally non-convex its nearest face is no longer a lower bound
    // and may point anywhere; the least upper bound met is still a direction
    // and depth that separate, and it is within the gap of the true depth.
    let nearest = nearest_face(&faces, -NEG_TOL * scale).map(|i| {
        let f = faces[i];
        (f.d.max(f.n.dot(support(f.n).w)), f)
    });
    let pick = match (upper, nearest) {
        (Some(u), Some(n)) => Some(if n.0 < u.0 { n } else { u }),
        (u, n) => u.or(n),
    };
    match pick {
        Some((depth, f)) => face_output(&verts, &f, depth, false, iterations),
        None => {
            let mut s = Simplex::new();
            for p in verts.iter().take(4) {
                s.push(*p);
            }
            flat_output(&mut s, Vec3::X)
        }
    }
}

/// The output for depth `depth` along face `f`'s normal, witnesses from the
/// barycentric coordinates of the origin's projection on `f`.
fn face_output(
    verts: &[SupportPoint],
    f: &Face,
    depth: f32,
    converged: bool,
    iterations: usize,
) -> EpaOutput {
    let (p0, p1, p2) = (
        verts[f.v[0] as usize],
        verts[f.v[1] as usize],
        verts[f.v[2] as usize],
    );
    let l = triangle_weights(p0.w, p1.w, p2.w, f.n * f.d);
    EpaOutput {
        depth,
        normal: f.n,
        point_a: p0.a * l[0] + p1.a * l[1] + p2.a * l[2],
        point_b: p0.b * l[0] + p1.b * l[1] + p2.b * l[2],
        converged,
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::gjk::BoxCore;

    /// Unit boxes 0.5 apart along x, and a starting triangle on the face
    /// x = −0.5 of A − B (a box from x = −4.5 to −0.5) with the origin 0.5
    /// in front of it: nothing of A − B lies on the origin's side, so the
    /// plane separates the cores by 0.5 along +x, A towards B.
    #[test]
    fn a_start_that_stops_short_of_the_origin_separates() {
        let (a, b) = (BoxCore(Vec3::ONE), BoxCore(Vec3::ONE));
        let pose = Pose3::from_translation(Vec3::new(2.5, 0.0, 0.0));
        let mut s = Simplex::new();
        for d in [
            Vec3::new(1.0, 1.0, 1.0),
            Vec3::new(1.0, -1.0, 1.0),
            Vec3::new(1.0, 1.0, -1.0),
        ] {
            s.push(support_pair(&a, &b, &pose, d));
        }
        let e = epa(&a, &b, &pose, &s);
        assert!((e.depth + 0.5).abs() < 1e-6, "{e:?}");
        assert!((e.normal - Vec3::X).length() < 1e-6, "{e:?}");
        assert!((e.point_a.x - 1.0).abs() < 1e-6 && (e.point_b.x - 1.5).abs() < 1e-6);
    }
}
