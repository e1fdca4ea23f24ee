//! How deep the surface of one element reaches into the other.
//!
//! The depth of a hard clash is the largest distance from a point of A's
//! surface inside B to B's surface (or the same with A and B swapped): how deep
//! the deepest part of one element's skin lies inside the other. Touching faces
//! have depth 0; two boxes overlapping by `δ` have depth `δ`; a rod through a
//! slab of thickness `h` has depth `h / 2`, at the slab's mid-plane.
//!
//! The maximum is sought at probe points of X's surface, each tested for being
//! inside Y and then measured to Y's surface:
//! - X's vertices (a corner poking into Y);
//! - the centroids of X's triangles that cross Y's surface (a face sunk into Y,
//!   whose corners all lie on or outside Y's surface);
//! - along each edge of those triangles, the midpoints of the stretches between
//!   successive crossings of Y's surface (an edge running through Y).
//!
//! The probes give a lower bound of the true depth that is exact for the cases
//! above, and decide the kind: a stretch of an edge with both ends on Y's
//! surface is a pierce. [`super::depth`] then refines the depth everywhere
//! else (a face sunk into Y away from its corners and edges).

use super::frame::PairFrame;
use super::segment::segment_crossing;
use crate::clash::ClashKind;
use glam::Vec3;
use peng::bound::Aabb3;
use peng::mesh::TrianglePair;

/// The deepest probe of X's surface inside Y.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Probe {
    /// How far inside Y the point lies (distance to Y's surface).
    pub depth: f32,
    /// The probe point on X's surface (frame of the pair).
    pub on_x: Vec3,
    /// The nearest point of Y's surface (frame of the pair).
    pub on_y: Vec3,
    /// Protrusion, or Pierce for a stretch of an edge that enters and leaves Y.
    pub kind: ClashKind,
}

/// The deeper of two probes (the first on a tie).
pub(crate) fn deeper(a: Option<Probe>, b: Option<Probe>) -> Option<Probe> {
    match (a, b) {
        (Some(x), Some(y)) if y.depth > x.depth => b,
        (Some(_), _) => a,
        (None, _) => b,
    }
}

/// The deepest probe of `pair.a`'s surface inside `pair.b`, given the crossing
/// triangle pairs (`a` indexes A's triangles). `None` when no probe lies inside.
pub(crate) fn deepest_probe(pair: &PairFrame, crossing: &[TrianglePair]) -> Option<Probe> {
    let mut best: Option<Probe> = None;
    let mut consider = |p: Vec3, kind: ClashKind| {
        if !pair.inside_b(p) {
            return;
        }
        let (depth, on_y) = pair.to_surface_b(p);
        let probe = Probe {
            depth,
            on_x: p,
            on_y,
            kind,
        };
        best = deeper(best, Some(probe));
    };

    // Vertices inside B's box.
    let b_box = pair.mesh_b().local_aabb().transformed(&pair.pose_b);
    for &v in pair.mesh_a().vertices() {
        if b_box.contains_point(v) {
            consider(v, ClashKind::Protrusion);
        }
    }

    let mesh_a = pair.mesh_a();
    let mut triangles: Vec<u32> = crossing.iter().map(|c| c.a).collect();
    triangles.sort_unstable();
    triangles.dedup();
    let mut edges = Vec::with_capacity(3 * triangles.len());
    for &t in &triangles {
        let c = mesh_a.triangle(t);
        consider((c[0] + c[1] + c[2]) / 3.0, ClashKind::Protrusion);
        let idx = mesh_a.indices()[t as usize];
        for k in 0..3 {
            let (i, j) = (idx[k], idx[(k + 1) % 3]);
            if i != j {
                edges.push((i.min(j), i.max(j)));
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    for (i, j) in edges {
        let (p, q) = (mesh_a.vertices()[i as usize], mesh_a.vertices()[j as usize]);
        for (mid, pierce) in stretch_midpoints(pair, p, q) {
            let kind = if pierce {
                ClashKind::Pierce
            } else {
                ClashKind::Protrusion
            };
            consider(mid, kind);
        }
    }
    best
}

/// The midpoints of the stretches of segment `p q` (A's frame) between its
/// crossings of B's surface, each with whether both its ends are crossings.
fn stretch_midpoints(pair: &PairFrame, p: Vec3, q: Vec3) -> Vec<(Vec3, bool)> {
    let off = pair.pose_b.translation;
    let (pl, ql) = (p - off, q - off);
    let (p64, q64) = (pl.as_dvec3(), ql.as_dvec3());
    let mut ts = Vec::new();
    pair.mesh_b()
        .for_each_triangle_in_aabb(&Aabb3::from_points([pl, ql]), |_, c| {
            if let Some(t) = segment_crossing(p64, q64, c.map(|v| v.as_dvec3())) {
                ts.push(t);
            }
        });
    if ts.is_empty() {
        return Vec::new();
    }
    ts.sort_unstable_by(f64::total_cmp);
    ts.dedup_by(|x, y| (*x - *y).abs() < 1e-12);
    let mut out = Vec::with_capacity(ts.len() + 1);
    let d = (q - p).as_dvec3();
    let mut prev = (0.0, false);
    for &t in ts.iter().chain([1.0].iter()) {
        let is_crossing = t < 1.0;
        if t - prev.0 > 1e-9 {
            let mid = p.as_dvec3() + d * ((prev.0 + t) * 0.5);
            out.push((mid.as_vec3(), prev.1 && is_crossing));
        }
        prev = (t, is_crossing);
    }
    out
}

/// Points per axis of the grid that [`volume_probe`] samples.
const VOLUME_GRID: u32 = 5;

/// The depth of the volume the two elements share, where surface probes see
/// none: faces that coincide (two members whose ends fill the same corner
/// cube) put every probe of one surface on the other. A grid of points over
/// the overlap of the two boxes is tested for lying inside both; at such a
/// point `p` the common region reaches at least `min(dA, dB)` around it (its
/// distances to the two surfaces), so its thickness is at least twice that.
/// The probe reports that thickness, which equals the surface depth for the
/// closed-form cases (two boxes overlapping by δ: 2·δ/2; a rod through a slab
/// of thickness h: at least h/2 when the rod is wider than h/2).
///
/// A ball of radius `min(dA, dB)` around such a point lies in both elements,
/// so in the overlap of their boxes: the thickness found is at most the
/// overlap box's thinnest side, and a box no thicker than `floor` (elements
/// that meet face to face) is not sampled.
pub(crate) fn volume_probe(pair: &PairFrame, floor: f32) -> Option<Probe> {
    let a_box = pair.mesh_a().local_aabb();
    let b_box = pair.mesh_b().local_aabb().transformed(&pair.pose_b);
    let (lo, hi) = (a_box.min.max(b_box.min), a_box.max.min(b_box.max));
    if !lo.cmple(hi).all() || (hi - lo).min_element() <= floor {
        return None;
    }
    let probe = |p: Vec3| {
        if !pair.inside_a(p) || !pair.inside_b(p) {
            return None;
        }
        let (da, on_a) = pair.to_surface_a(p);
        let (db, on_b) = pair.to_surface_b(p);
        Some(Probe {
            depth: 2.0 * da.min(db),
            on_x: on_a,
            on_y: on_b,
            kind: ClashKind::Protrusion,
        })
    };
    // The overlap box's centre first: where two elements fill the same box
    // (the common case) it is the deepest point, and the grid is not needed.
    let centre = probe((lo + hi) * 0.5);
    if centre.is_some_and(|c| c.depth > floor) {
        return centre;
    }
    let n = VOLUME_GRID;
    let step = (hi - lo) / n as f32;
    let mut best = centre;
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let p = lo + step * Vec3::new(i as f32 + 0.5, j as f32 + 0.5, k as f32 + 0.5);
                best = deeper(best, probe(p));
            }
        }
    }
    best
}
