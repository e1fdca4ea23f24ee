//! The mending steps on closed forms: cubes broken the ways tessellators
//! break them, mended to volume 1 and closed; what must stay open stays.

use super::*;
use glam::Vec3;

/// A cube of side `s` at `at`: 8 corners, 12 triangles wound outward.
pub(super) fn cube(at: Vec3, s: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let v = (0..8)
        .map(|i| at + s * Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2 & 1) as f32))
        .collect();
    let t = vec![
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ];
    (v, t)
}

pub(super) fn volume(v: &[Vec3], t: &[[u32; 3]]) -> f64 {
    t.iter()
        .map(|tri| {
            let [p, q, r] = tri.map(|i| v[i as usize].as_dvec3());
            p.dot(q.cross(r)) / 6.0
        })
        .sum()
}

fn closed(t: &[[u32; 3]]) -> bool {
    edges::sides(t)
        .chunk_by(|x, y| x.key == y.key)
        .all(|g| g.len() == 2)
}

const TOL: f32 = 1e-5;

#[test]
fn a_closed_cube_is_left_as_it_is() {
    let (mut v, mut t) = cube(Vec3::new(3.0, -2.0, 1.0), 1.0);
    let (v0, t0) = (v.clone(), t.clone());
    assert_eq!(close_mesh(&mut v, &mut t, TOL), Repairs::default());
    assert_eq!((v, t), (v0, t0));
}

#[test]
fn a_t_junction_is_split() {
    // The bottom face (z = 0, triangles 0 and 1) meshed with the midpoint
    // of its edge 0-1 (y = 0), which the front face (0, 1, 5, 4) lacks.
    let (mut v, mut t) = cube(Vec3::ZERO, 1.0);
    v.push(Vec3::new(0.5, 0.0, 0.0));
    t[0] = [0, 2, 8];
    t.push([8, 2, 1]);
    assert!(!closed(&t));
    let r = close_mesh(&mut v, &mut t, TOL);
    assert_eq!(r.split, 1, "{r:?}");
    assert!(closed(&t));
    assert!((volume(&v, &t) - 1.0).abs() < 1e-6);
}

#[test]
fn corners_rounded_apart_are_welded() {
    // The top face's corners 4..8 given their own copies, 3e-6 off.
    let (mut v, mut t) = cube(Vec3::ZERO, 1.0);
    for i in 4..8 {
        v.push(v[i] + Vec3::splat(3e-6));
    }
    t[2] = [8, 9, 10];
    t[3] = [9, 11, 10];
    assert!(!closed(&t));
    let r = close_mesh(&mut v, &mut t, TOL);
    assert_eq!(r.welded, 4, "{r:?}");
    assert!(closed(&t));
    assert!((volume(&v, &t) - 1.0).abs() < 1e-4);
}

#[test]
fn a_missing_triangle_is_filled() {
    for missing in 0..12 {
        let (mut v, mut t) = cube(Vec3::ZERO, 2.0);
        t.remove(missing);
        let r = close_mesh(&mut v, &mut t, TOL);
        assert_eq!(r.filled, 1, "{missing}: {r:?}");
        assert!(closed(&t));
        assert!((volume(&v, &t) - 8.0).abs() < 1e-5, "{missing}");
    }
}

#[test]
fn a_missing_side_and_a_lone_sheet_stay_open() {
    // An open box (its top missing) may be meant open.
    let (mut v, mut t) = cube(Vec3::ZERO, 1.0);
    t.drain(2..4);
    let before = t.clone();
    assert_eq!(close_mesh(&mut v, &mut t, TOL), Repairs::default());
    assert_eq!(t, before);
    // A flat sheet of two triangles: its rim is not a hole.
    let mut v = vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
    let mut t = vec![[0, 1, 2], [0, 2, 3]];
    assert_eq!(close_mesh(&mut v, &mut t, TOL), Repairs::default());
    assert_eq!(t.len(), 2);
}

#[test]
fn cubes_touching_along_an_edge_are_separated_and_closed() {
    // The second cube shares the first's edge 3-7 (x = y = 1).
    let (mut v, mut t) = cube(Vec3::ZERO, 1.0);
    let (v2, t2) = cube(Vec3::new(1.0, 1.0, 0.0), 1.0);
    let shared = |p: Vec3| v.iter().position(|&q| q == p);
    let mut map = Vec::new();
    let mut extra = Vec::new();
    for p in v2 {
        let i = shared(p).unwrap_or_else(|| {
            extra.push(p);
            8 + extra.len() - 1
        });
        map.push(i as u32);
    }
    v.extend(extra);
    t.extend(t2.iter().map(|tri| tri.map(|i| map[i as usize])));
    assert!(!closed(&t));
    let r = close_mesh(&mut v, &mut t, TOL);
    assert_eq!(r.separated, 2, "{r:?}");
    assert!(closed(&t));
    assert!((volume(&v, &t) - 2.0).abs() < 1e-6);
}

#[test]
fn an_inside_out_cube_is_turned() {
    let (mut v, t) = cube(Vec3::ZERO, 1.0);
    let mut t: Vec<[u32; 3]> = t.iter().map(|x| [x[0], x[2], x[1]]).collect();
    let r = close_mesh(&mut v, &mut t, TOL);
    assert_eq!(r.turned, 12);
    assert!((volume(&v, &t) - 1.0).abs() < 1e-6);
}

/// A soup of long slivers (every edge on the boundary, every vertex in every
/// edge's span) would make the T-junction search quadratic: it stops at its
/// budget, and the soup is left as it was.
#[test]
fn a_sliver_soup_is_left_open_within_the_search_budget() {
    let mut v = Vec::new();
    let mut t = Vec::new();
    for i in 0..3000u32 {
        let (y, z) = ((i % 61) as f32 * 0.01, (i / 61) as f32 * 0.01);
        v.extend([
            Vec3::new(0.0, y, z),
            Vec3::new(1.0, y, z),
            Vec3::new(0.5, y + 0.001, z + 0.002),
        ]);
        t.push([3 * i, 3 * i + 1, 3 * i + 2]);
    }
    let before = t.clone();
    assert_eq!(close_mesh(&mut v, &mut t, TOL), Repairs::default());
    assert_eq!(t, before);
}
