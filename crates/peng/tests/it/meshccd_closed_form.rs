//! Closed-form cases of the mesh CCD primitives: known contact times, near
//! misses, touching at the ends, parallel and coplanar motion, degenerate
//! primitives, extreme scales and non-finite input.

use glam::DVec3;
use peng::ccd::mesh::{
    edge_edge, edge_edge_detailed, vertex_face, vertex_face_detailed, MeshCcdOptions,
};

fn opts() -> MeshCcdOptions {
    MeshCcdOptions::default()
}

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

/// `toi` is a lower bound of `exact` within the tolerance.
fn assert_toi(toi: Option<f64>, exact: f64) {
    let t = toi.unwrap_or_else(|| panic!("missed a contact at {exact}"));
    let tol = MeshCcdOptions::default().time_tolerance;
    assert!(t <= exact && t >= exact - tol, "toi {t}, exact {exact}");
}

const TRI: [DVec3; 3] = [DVec3::ZERO, DVec3::X, DVec3::Y];

/// A vertex at (x, y) over the static unit right triangle in z = 0, moving
/// from height z0 to z1.
fn vf_drop(x: f64, y: f64, z0: f64, z1: f64) -> Option<f64> {
    vertex_face(v(x, y, z0), TRI, v(x, y, z1), TRI, &opts())
}

#[test]
fn vertex_crosses_face_at_dyadic_time() {
    // Height 3 → −1 crosses 0 at t = 3/4.
    assert_toi(vf_drop(0.25, 0.25, 3.0, -1.0), 0.75);
    // The face moves instead: the triangle rises from z = −5 to z = 3 under
    // a fixed vertex at z = 1: contact at t = 6/8.
    let f0 = TRI.map(|p| p + v(0.0, 0.0, -5.0));
    let f1 = TRI.map(|p| p + v(0.0, 0.0, 3.0));
    let p = v(0.125, 0.5, 1.0);
    assert_toi(vertex_face(p, f0, p, f1, &opts()), 0.75);
    // Through the face's edge and vertex (closed triangle).
    assert_toi(vf_drop(0.5, 0.5, 1.0, -1.0), 0.5);
    assert_toi(vf_drop(1.0, 0.0, 1.0, -3.0), 0.25);
}

#[test]
fn vertex_near_misses_are_rejected() {
    // Beside the triangle, just past the hypotenuse x + y = 1.
    assert_eq!(vf_drop(0.5 + 1e-9, 0.5, 1.0, -1.0), None);
    // Above it, stopping short of the plane.
    assert_eq!(vf_drop(0.25, 0.25, 1.0, 1e-9), None);
    // Moving away.
    assert_eq!(vf_drop(0.25, 0.25, 1e-9, 1.0), None);
}

#[test]
fn vertex_touching_at_the_ends() {
    assert_toi(vf_drop(0.25, 0.25, 0.0, 1.0), 0.0);
    assert_toi(vf_drop(0.25, 0.25, 1.0, 0.0), 1.0);
    // Touching a triangle vertex exactly at t = 1.
    assert_toi(vf_drop(0.0, 1.0, 2.0, 0.0), 1.0);
}

#[test]
fn vertex_sliding_in_the_plane() {
    // Coplanar motion that enters the triangle at t = 1/2 (x from −1 to 1
    // along y = 0.25: x = 0 at t = 1/2).
    let hit = vertex_face(v(-1.0, 0.25, 0.0), TRI, v(1.0, 0.25, 0.0), TRI, &opts());
    assert_toi(hit, 0.5);
    // Coplanar motion that stays outside (parallel to the hypotenuse).
    let miss = vertex_face(v(2.0, 0.0, 0.0), TRI, v(0.0, 2.0, 0.0), TRI, &opts());
    assert_eq!(miss, None);
    // Parallel to the plane, just above it, passing over the triangle.
    let above = vertex_face(v(-1.0, 0.25, 1e-6), TRI, v(1.0, 0.25, 1e-6), TRI, &opts());
    assert_eq!(above, None);
}

#[test]
fn degenerate_triangles() {
    // All three vertices at one point the vertex passes through at t = 1/4.
    let f = [v(1.0, 1.0, 1.0); 3];
    let hit = vertex_face(v(0.0, 0.0, 0.0), f, v(4.0, 4.0, 4.0), f, &opts());
    assert_toi(hit, 0.25);
    // A segment triangle (collinear vertices) on the x axis, crossed at
    // x = 0.5, t = 1/2; missed by a vertex that passes beside it.
    let seg = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.5, 0.0, 0.0)];
    let hit = vertex_face(v(0.5, -1.0, 0.0), seg, v(0.5, 1.0, 0.0), seg, &opts());
    assert_toi(hit, 0.5);
    let miss = vertex_face(v(0.5, -1.0, 0.5), seg, v(0.5, 1.0, 0.5), seg, &opts());
    assert_eq!(miss, None);
}

/// Edge a along x at height z0 → z1 over edge b along y at z = 0; they cross
/// at the origin's column when a's height is 0.
fn ee_drop(z0: f64, z1: f64, b_offset: f64) -> Option<f64> {
    let a0 = [v(-1.0, 0.0, z0), v(1.0, 0.0, z0)];
    let a1 = [v(-1.0, 0.0, z1), v(1.0, 0.0, z1)];
    let b = [v(b_offset, -1.0, 0.0), v(b_offset, 1.0, 0.0)];
    edge_edge(a0, b, a1, b, &opts())
}

#[test]
fn edges_cross_at_dyadic_time() {
    assert_toi(ee_drop(1.0, -1.0, 0.0), 0.5);
    assert_toi(ee_drop(5.0, -3.0, 0.5), 0.625);
    // Touching at an endpoint of a (b at x = 1).
    assert_toi(ee_drop(1.0, -7.0, 1.0), 0.125);
}

#[test]
fn edge_near_misses_are_rejected() {
    // b just past a's end.
    assert_eq!(ee_drop(1.0, -1.0, 1.0 + 1e-9), None);
    // a stops just above b.
    assert_eq!(ee_drop(1.0, 1e-9, 0.0), None);
}

#[test]
fn edges_touching_at_the_ends() {
    assert_toi(ee_drop(0.0, 1.0, 0.0), 0.0);
    assert_toi(ee_drop(1.0, 0.0, 0.0), 1.0);
}

#[test]
fn parallel_and_coplanar_edges() {
    // Parallel edges (both along x) in the plane z = 0, a slides sideways
    // (y: 1 → −1) over b: overlap at t = 1/2.
    let b = [v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0)];
    let a0 = [v(1.0, 1.0, 0.0), v(3.0, 1.0, 0.0)];
    let a1 = [v(1.0, -1.0, 0.0), v(3.0, -1.0, 0.0)];
    assert_toi(edge_edge(a0, b, a1, b, &opts()), 0.5);
    // The same, shifted along x so the edges never overlap.
    let a0 = [v(2.5, 1.0, 0.0), v(4.0, 1.0, 0.0)];
    let a1 = [v(2.5, -1.0, 0.0), v(4.0, -1.0, 0.0)];
    assert_eq!(edge_edge(a0, b, a1, b, &opts()), None);
    // Collinear edges sliding along their line: ends meet at t = 1/4.
    let a0 = [v(3.0, 0.0, 0.0), v(4.0, 0.0, 0.0)];
    let a1 = [v(-1.0, 0.0, 0.0), v(0.0, 0.0, 0.0)];
    assert_toi(edge_edge(a0, b, a1, b, &opts()), 0.25);
    // Parallel, a little above, sliding across: no contact.
    let a0 = [v(1.0, 1.0, 1e-7), v(3.0, 1.0, 1e-7)];
    let a1 = [v(1.0, -1.0, 1e-7), v(3.0, -1.0, 1e-7)];
    assert_eq!(edge_edge(a0, b, a1, b, &opts()), None);
}

#[test]
fn zero_length_edges() {
    // A point edge passing through the middle of b at t = 1/2.
    let b = [v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0)];
    let a0 = [v(0.0, 0.0, 1.0); 2];
    let a1 = [v(0.0, 0.0, -1.0); 2];
    assert_toi(edge_edge(a0, b, a1, b, &opts()), 0.5);
    // Two point edges: coincide at t = 3/4, or pass at distance 1e-9.
    let p0 = [v(0.0, 0.0, 0.0); 2];
    let p1 = [v(4.0, 0.0, 0.0); 2];
    let q = [v(3.0, 0.0, 0.0); 2];
    assert_toi(edge_edge(p0, q, p1, q, &opts()), 0.75);
    let q = [v(3.0, 1e-9, 0.0); 2];
    assert_eq!(edge_edge(p0, q, p1, q, &opts()), None);
}

#[test]
fn huge_and_tiny_scales() {
    for scale in [1e6, 1e-6] {
        let f = TRI.map(|p| p * scale);
        let hit = vertex_face(
            v(0.25, 0.25, 3.0) * scale,
            f,
            v(0.25, 0.25, -1.0) * scale,
            f,
            &opts(),
        );
        assert_toi(hit, 0.75);
        let miss = vertex_face(
            v(0.5 + 1e-6, 0.5, 1.0) * scale,
            f,
            v(0.5 + 1e-6, 0.5, -1.0) * scale,
            f,
            &opts(),
        );
        assert_eq!(miss, None, "scale {scale}");
        let b = [v(0.0, -1.0, 0.0) * scale, v(0.0, 1.0, 0.0) * scale];
        let a0 = [v(-1.0, 0.0, 1.0) * scale, v(1.0, 0.0, 1.0) * scale];
        let a1 = [v(-1.0, 0.0, -1.0) * scale, v(1.0, 0.0, -1.0) * scale];
        assert_toi(edge_edge(a0, b, a1, b, &opts()), 0.5);
        let a0 = [v(-1.0, 0.0, 1.0) * scale, v(-1e-6, 0.0, 1.0) * scale];
        let a1 = [v(-1.0, 0.0, -1.0) * scale, v(-1e-6, 0.0, -1.0) * scale];
        assert_eq!(edge_edge(a0, b, a1, b, &opts()), None, "scale {scale}");
    }
}

#[test]
fn far_from_the_origin() {
    // A crossing at t = 1/2 a million units away: the error bounds grow with
    // the coordinates, the contact is still found.
    let o = v(1e6, -2e6, 3e6);
    let f = TRI.map(|p| p + o);
    let hit = vertex_face(
        v(0.25, 0.25, 1.0) + o,
        f,
        v(0.25, 0.25, -1.0) + o,
        f,
        &opts(),
    );
    assert_toi(hit, 0.5);
}

#[test]
fn non_finite_input_is_a_conservative_hit() {
    let nan = v(f64::NAN, 0.0, 0.0);
    assert_eq!(vertex_face(nan, TRI, nan, TRI, &opts()), Some(0.0));
    let inf = [v(f64::INFINITY, 0.0, 0.0), DVec3::ZERO];
    let b = [DVec3::Y, DVec3::Z];
    assert_eq!(edge_edge(inf, b, inf, b, &opts()), Some(0.0));
    // Huge but finite coordinates whose products overflow: no panic, and a
    // crossing is not missed.
    let s = 1e200;
    let f = TRI.map(|p| p * s);
    let hit = vertex_face(
        v(0.25, 0.25, 1.0) * s,
        f,
        v(0.25, 0.25, -1.0) * s,
        f,
        &opts(),
    );
    assert!(hit.is_some_and(|t| t <= 0.5));
}

#[test]
fn minimum_separation_widens_contact() {
    let ms = MeshCcdOptions {
        minimum_separation: 0.25,
        ..opts()
    };
    // Height 1 → −1: within 0.25 of the face from t = 3/8.
    let hit = vertex_face(v(0.25, 0.25, 1.0), TRI, v(0.25, 0.25, -1.0), TRI, &ms);
    let t = hit.expect("contact");
    assert!((0.375 - 1e-6..=0.375).contains(&t), "{t}");
    // Stops at height 0.5: no contact.
    let miss = vertex_face(v(0.25, 0.25, 1.0), TRI, v(0.25, 0.25, 0.5), TRI, &ms);
    assert_eq!(miss, None);
}

#[test]
fn a_tiny_work_budget_answers_conservatively() {
    // With a budget of one box, a near miss that needs refinement is
    // reported as a (conservative) hit at the earliest time not ruled out,
    // and real contacts are still reported no later than they happen.
    let tight = MeshCcdOptions {
        max_work: 1,
        ..opts()
    };
    let near = vertex_face(
        v(0.5 + 1e-9, 0.5, 1.0),
        TRI,
        v(0.5 + 1e-9, 0.5, -1.0),
        TRI,
        &tight,
    );
    assert!(near.is_some_and(|t| t <= 0.5));
    let hit = vertex_face(v(0.25, 0.25, 3.0), TRI, v(0.25, 0.25, -1.0), TRI, &tight);
    assert!(hit.is_some_and(|t| t <= 0.75));
}

#[test]
fn detailed_outcomes_report_the_work() {
    // A plane-separated pair is decided by the filters: no box.
    let far = vertex_face_detailed(v(0.25, 0.25, 2.0), TRI, v(0.25, 0.25, 1.0), TRI, &opts());
    assert_eq!((far.toi, far.boxes, far.exhausted), (None, 0, false));
    // A crossing needs the search, within the default budget.
    let hit = edge_edge_detailed(
        [v(-1.0, 0.0, 1.0), v(1.0, 0.0, 1.0)],
        [v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0)],
        [v(-1.0, 0.0, -1.0), v(1.0, 0.0, -1.0)],
        [v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0)],
        &opts(),
    );
    assert!(hit.boxes > 0 && !hit.exhausted, "{hit:?}");
    assert_toi(hit.toi, 0.5);
    // A near miss with a budget of 2 boxes: exhausted, conservative hit.
    let tight = MeshCcdOptions {
        max_work: 2,
        ..opts()
    };
    let near = vertex_face_detailed(
        v(0.5 + 1e-9, 0.5, 1.0),
        TRI,
        v(0.5 + 1e-9, 0.5, -1.0),
        TRI,
        &tight,
    );
    assert!(near.exhausted && near.boxes == 2, "{near:?}");
    assert!(near.toi.is_some_and(|t| t <= 0.5));
}
