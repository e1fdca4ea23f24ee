//! The chord error of a curved opening, absorbed for the element filling it.
//!
//! A round window and the round opening it fills are both polygons, often of
//! different numbers of sides (IFC tessellators take a circle's segment
//! count from its radius, and an opening may come out coarser than its
//! window). The window's corners lie on the true circle; the opening's
//! sides are chords inside it, so those corners reach into the wall by up to
//! the sagitta of the opening's sides: 9.6 mm for a 16-gon of radius 0.5 m.
//! That is the tessellation's error, not a clash.
//!
//! The allowance is measured on the host where the filler reaches into it:
//! the flat strip of the opening's side there, `L` wide between two parallel
//! creases at which the next strips turn by `θ` (a polygon of `2π/θ` sides
//! around a circle of radius `L / (2 sin(θ/2))`), has the sagitta
//! `R (1 − cos(θ/2)) = (L/2) tan(θ/4)`. A flat host side (a rectangular
//! opening) gives none, so a window too big for such an opening still
//! clashes.

use crate::element::Element;
use glam::{DVec3, Vec3};

/// Creases turning by at most this much (radians) bound the sides of a
/// curved opening (an octagon's sides turn by 45°); at least the lower, so
/// that coplanar triangles of one side are not taken for a crease.
const TURN: (f64, f64) = (
    0.5 * std::f64::consts::PI / 180.0,
    46.0 * std::f64::consts::PI / 180.0,
);

/// The sagitta of the host's curved side at `on_host` (world), 0 where the
/// host is flat there.
pub(crate) fn chord_allowance(host: &Element, on_host: DVec3) -> f64 {
    let mesh = host.mesh();
    let local = (on_host - host.origin()).as_vec3();
    let t = mesh.project_local_point(local).triangle;
    let topo = mesh.topology();
    let normal = |j: u32| {
        let c = mesh.triangle(j).map(Vec3::as_dvec3);
        (c[1] - c[0]).cross(c[2] - c[0]).normalize_or_zero()
    };
    let n = normal(t);
    // The flat side: the triangle and its coplanar neighbours.
    let mut side = vec![t];
    for k in 0..3 {
        if let Some(u) = topo.adjacent(t, k) {
            if normal(u).dot(n) > (1e-3f64).cos() {
                side.push(u);
            }
        }
    }
    // Its creases to sides that turn a little: (point, direction, turn).
    let mut creases: Vec<(DVec3, DVec3, f64)> = Vec::new();
    for &f in &side {
        let c = mesh.triangle(f).map(Vec3::as_dvec3);
        for k in 0..3 {
            let Some(u) = topo.adjacent(f, k) else {
                continue;
            };
            if side.contains(&u) {
                continue;
            }
            let turn = normal(u).dot(normal(f)).clamp(-1.0, 1.0).acos();
            let (p, q) = (c[k], c[(k + 1) % 3]);
            if (TURN.0..=TURN.1).contains(&turn) {
                if let Some(d) = (q - p).try_normalize() {
                    creases.push((p, d, turn));
                }
            }
        }
    }
    // The widest pair of parallel creases.
    let mut allowance: f64 = 0.0;
    for (i, &(p, d, a)) in creases.iter().enumerate() {
        for &(q, e, b) in &creases[i + 1..] {
            if d.cross(e).length() > 1e-3 {
                continue;
            }
            let width = (q - p).reject_from_normalized(d).length();
            let turn = a.max(b);
            allowance = allowance.max(0.5 * width * (0.25 * turn).tan());
        }
    }
    allowance
}
