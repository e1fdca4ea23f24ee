//! Property tests of the mesh CCD primitives: motions built so that contact
//! happens exactly at a dyadic time `T` (every coordinate a small dyadic
//! rational, so the construction is exact in `f64`) must be reported with a
//! time of impact `<= T`; motions separated by a plane must not be reported.

use glam::DVec3;
use peng::ccd::mesh::{edge_edge, vertex_face, MeshCcdOptions};
use proptest::prelude::*;

/// A vector with coordinates `k/8`, `|k| <= 8·range`.
fn dyadic_vec(range: i32) -> impl Strategy<Value = DVec3> {
    let k = -8 * range..=8 * range;
    (k.clone(), k.clone(), k).prop_map(|(x, y, z)| DVec3::new(x as f64, y as f64, z as f64) / 8.0)
}

/// The contact time `T = k/16`.
fn contact_time() -> impl Strategy<Value = f64> {
    (0..=16i32).prop_map(|k| k as f64 / 16.0)
}

/// Positions at t = 0 and t = 1 of a point at `x` at time `t` moving with
/// velocity `vel` (exact: small dyadics).
fn ends(x: DVec3, vel: DVec3, t: f64) -> (DVec3, DVec3) {
    (x - vel * t, x + vel * (1.0 - t))
}

proptest! {
    #![proptest_config(crate::seeds::cases(2000))]

    #[test]
    fn vertex_face_contact_at_dyadic_time_is_found(
        t in contact_time(),
        f in [dyadic_vec(2), dyadic_vec(2), dyadic_vec(2)],
        (i, j) in (0..=8i32).prop_flat_map(|i| (Just(i), 0..=8 - i)),
        vel in [dyadic_vec(2), dyadic_vec(2), dyadic_vec(2), dyadic_vec(2)],
    ) {
        let (u, v) = (i as f64 / 8.0, j as f64 / 8.0);
        // The vertex is on the (closed) triangle at time t.
        let x = f[0] + (f[1] - f[0]) * u + (f[2] - f[0]) * v;
        let (p0, p1) = ends(x, vel[0], t);
        let (a0, a1) = ends(f[0], vel[1], t);
        let (b0, b1) = ends(f[1], vel[2], t);
        let (c0, c1) = ends(f[2], vel[3], t);
        let toi = vertex_face(p0, [a0, b0, c0], p1, [a1, b1, c1], &MeshCcdOptions::default());
        prop_assert!(toi.is_some_and(|toi| (0.0..=t).contains(&toi)), "{toi:?} vs {t}");
    }

    #[test]
    fn edge_edge_contact_at_dyadic_time_is_found(
        t in contact_time(),
        x in dyadic_vec(2),
        ea in dyadic_vec(2),
        eb in dyadic_vec(2),
        (i, j) in (0..=8i32, 0..=8i32),
        vel in [dyadic_vec(2), dyadic_vec(2), dyadic_vec(2), dyadic_vec(2)],
    ) {
        let (u, v) = (i as f64 / 8.0, j as f64 / 8.0);
        // Both edges pass through x at time t.
        let (a0, a1) = ends(x - ea * u, vel[0], t);
        let (a0e, a1e) = ends(x + ea * (1.0 - u), vel[1], t);
        let (b0, b1) = ends(x - eb * v, vel[2], t);
        let (b0e, b1e) = ends(x + eb * (1.0 - v), vel[3], t);
        let toi = edge_edge([a0, a0e], [b0, b0e], [a1, a1e], [b1, b1e], &MeshCcdOptions::default());
        prop_assert!(toi.is_some_and(|toi| (0.0..=t).contains(&toi)), "{toi:?} vs {t}");
    }

    #[test]
    fn separated_by_a_plane_is_no_contact(
        f in [dyadic_vec(2), dyadic_vec(2), dyadic_vec(2), dyadic_vec(2), dyadic_vec(2), dyadic_vec(2)],
        p in [dyadic_vec(2), dyadic_vec(2)],
        gap in 1..=8i32,
    ) {
        // Everything of the second primitive stays above z = 2 + gap/8, the
        // first below z = 2.
        let lift = DVec3::new(0.0, 0.0, 4.0 + gap as f64 / 8.0);
        let fl = |q: DVec3| DVec3::new(q.x, q.y, q.z.min(2.0));
        let o = MeshCcdOptions::default();
        let toi = vertex_face(p[0] + lift, [fl(f[0]), fl(f[1]), fl(f[2])], p[1] + lift, [fl(f[3]), fl(f[4]), fl(f[5])], &o);
        prop_assert_eq!(toi, None);
        let toi = edge_edge([fl(f[0]), fl(f[1])], [p[0] + lift, f[2] + lift], [fl(f[3]), fl(f[4])], [p[1] + lift, f[5] + lift], &o);
        prop_assert_eq!(toi, None);
    }
}
