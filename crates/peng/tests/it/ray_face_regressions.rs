//! Rays entering a polyhedron or a cuboid through a face crossed at a shallow
//! slope. The f32 move of the ray into the shape's frame rounds its origin by
//! about `ε` times the world coordinates, and a crossing at slope `s` moves by
//! that over `s`: two rays of a fresh differential-test seed entered 2e-4 early
//! and 2e-4 late at slopes 1.7e-3 and 4.3e-4. The truth here is the first
//! crossing of any triangle of the shape's vertices placed in the world in f64
//! (every such triangle lies in the convex shape and its boundary is made of
//! them), independent of peng's face planes and of its local frame.

use glam::{DQuat, DVec3, Quat, Vec3};
use peng::d3::{ray_cast, ConvexPolyhedron, Cuboid, Pose3, Shape, Triangle};
use peng::query::types::Ray;
use proptest::prelude::*;

/// The world position of a local point, in f64 (rotation normalized in f64).
fn place(pose: &Pose3, p: Vec3) -> DVec3 {
    let q = pose.rotation;
    let q = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
    q * p.as_dvec3() + pose.translation.as_dvec3()
}

/// Möller–Trumbore in f64: where `o + t d` crosses triangle `a b c`.
fn cross_triangle(o: DVec3, d: DVec3, [a, b, c]: [DVec3; 3]) -> Option<f64> {
    let (e1, e2) = (b - a, c - a);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det == 0.0 {
        return None;
    }
    let s = o - a;
    let (u, q) = (s.dot(p) / det, s.cross(e1));
    let v = d.dot(q) / det;
    let t = e2.dot(q) / det;
    (u >= 0.0 && v >= 0.0 && u + v <= 1.0 && t >= 0.0).then_some(t)
}

/// The ray's first crossing of the convex hull of `points` (placed by `pose`),
/// over all triangles of points, in f64, with the slope `|n·d|/|d|` at which
/// the ray crosses that triangle.
fn first_crossing(points: &[Vec3], pose: &Pose3, ray: &Ray<Vec3>) -> Option<(f64, f64)> {
    let w: Vec<DVec3> = points.iter().map(|&p| place(pose, p)).collect();
    let (o, d) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
    let mut best: Option<(f64, f64)> = None;
    for i in 0..w.len() {
        for j in i + 1..w.len() {
            for k in j + 1..w.len() {
                let tri = [w[i], w[j], w[k]];
                if let Some(t) = cross_triangle(o, d, tri) {
                    if best.is_none_or(|(b, _)| t < b) {
                        let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize();
                        best = Some((t, n.dot(d).abs() / d.length()));
                    }
                }
            }
        }
    }
    best
}

fn box_corners(h: Vec3) -> Vec<Vec3> {
    (0..8)
        .map(|i| {
            let s = |b: usize| if i >> b & 1 == 1 { 1.0 } else { -1.0 };
            Vec3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z)
        })
        .collect()
}

/// How far a hull's faces are from flat: the hull builder merges faces within
/// a relative 2e-6 of one plane into one polygon, whose plane lies outside the
/// exact hull by up to the spread of its vertices across it (the largest over
/// the faces, in f64 along each face's Newell normal). A ray crossing that face
/// at slope `s` may then enter up to `spread / s` before the exact hull.
fn merge_spread(h: &ConvexPolyhedron) -> f64 {
    (0..h.faces().len())
        .map(|f| {
            let ring: Vec<DVec3> = h
                .face_loop(f)
                .iter()
                .map(|&i| h.vertices()[i as usize].as_dvec3())
                .collect();
            let n = (0..ring.len())
                .map(|k| ring[k].cross(ring[(k + 1) % ring.len()]))
                .sum::<DVec3>()
                .normalize();
            let (lo, hi) = ring
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |r, v| {
                    (r.0.min(n.dot(*v)), r.1.max(n.dot(*v)))
                });
            hi - lo
        })
        .fold(0.0, f64::max)
}

/// peng's hit against the f64 truth: same hit or miss, and the hit point within
/// `tol` along the ray; for a hull with merged faces, within `tol` plus
/// `spread / slope` before it (see [`merge_spread`]). Where the truth enters
/// through a steep face, and with `edge_allowance` where peng entered through
/// a steep face and the truth through a shallow one (an edge between them, the
/// case the f32 clip does not recheck), the point may be off by what rounding
/// the ray's origin moves it: `8·ε·M / slope`, `M` the largest coordinate.
fn check(
    shape: &Shape,
    points: &[Vec3],
    pose: &Pose3,
    ray: &Ray<Vec3>,
    tol: f64,
    spread: f64,
    edge_allowance: bool,
) {
    let truth = first_crossing(points, pose, ray);
    let hit = ray_cast(shape, pose, ray, 1e3, true);
    let len = ray.dir.length() as f64;
    match (hit, truth) {
        (Some(h), Some((t, slope))) => {
            // Entering a merged face's plane early is the hull's own shape.
            let early = ((t - h.toi as f64) * len).min(spread / slope).max(0.0);
            let off = (h.toi as f64 - t).abs() * len - early;
            let peng_slope = (h.normal.dot(ray.dir) / ray.dir.length()).abs() as f64;
            let m = magnitude(pose, ray);
            // A steep plane (slope at least 1/32) is crossed in f32, off by
            // what rounding the ray's origin moves it (seed 870010: a face at
            // slope 5.6e-2 35 from the origin, 1.7e-5 off).
            let rounding = 8.0 * f32::EPSILON as f64 * m / slope;
            let allowed = if slope >= 1.0 / 32.0 || (edge_allowance && peng_slope >= 1.0 / 32.0) {
                tol + rounding
            } else {
                tol
            };
            assert!(
                off <= allowed,
                "toi {} vs f64 {t}: {off:e} off (allowed {allowed:e})",
                h.toi
            );
        }
        (None, None) => {}
        // A flat shape holds the points within its edges' tolerance tube
        // (radius `10·REL_EPS·M`, `M` the largest coordinate): a line that
        // passes that close hits it.
        (Some(_), None)
            if points.len() == 3 && line_triangle_gap(points, pose, ray) <= tube(pose, ray) => {}
        (h, t) => panic!("peng {:?} vs f64 {t:?}", h.map(|h| h.toi)),
    }
}

/// The radius of a flat shape's tolerance tube around its edges for `ray`
/// (peng's `10·REL_EPS` times the largest coordinate, at least 1), with the
/// f32 rounding of the local ray on top.
fn tube(pose: &Pose3, ray: &Ray<Vec3>) -> f64 {
    (1e-5 + 16.0 * f32::EPSILON as f64) * magnitude(pose, ray).max(3.0)
}

/// The largest coordinate the ray's move into the shape's frame rounds, with
/// the shape's own extent (under 2) on top.
fn magnitude(pose: &Pose3, ray: &Ray<Vec3>) -> f64 {
    ray.origin
        .abs()
        .max_element()
        .max(pose.translation.abs().max_element()) as f64
        + 2.0
}

/// The distance in f64 between the ray's line and the triangle of `points`
/// placed by `pose`, for a line that does not cross the triangle: the least
/// over its edges of the segment-to-line distance.
fn line_triangle_gap(points: &[Vec3], pose: &Pose3, ray: &Ray<Vec3>) -> f64 {
    let w: Vec<DVec3> = points.iter().map(|&p| place(pose, p)).collect();
    let (o, u) = (ray.origin.as_dvec3(), ray.dir.as_dvec3().normalize());
    (0..3)
        .map(|i| {
            // Seen along u, the edge projects to a 2D segment; its distance
            // to the line's trace (o) is the segment's distance to the line.
            let off = |p: DVec3| (p - o) - u * (p - o).dot(u);
            let (a, b) = (off(w[i]), off(w[(i + 1) % 3]));
            let e = b - a;
            let s = if e.length_squared() > 0.0 {
                (-a.dot(e) / e.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a + e * s).length()
        })
        .fold(f64::INFINITY, f64::min)
}

fn hull(points: &[[f32; 3]]) -> (Shape, Vec<Vec3>) {
    let v: Vec<Vec3> = points.iter().map(|p| Vec3::from_array(*p)).collect();
    (ConvexPolyhedron::from_points(&v).unwrap().into(), v)
}

/// Differential-test seed 810002, ray #29925: the entry face is crossed at
/// slope 1.7e-3; peng answered 4.3382807 where the entry is 4.33850 (2.2e-4
/// early).
#[test]
fn shallow_entry_face_seed_810002() {
    let (shape, v) = hull(&[
        [0.90283847, 0.8842028, 0.26417938],
        [0.7394011, -0.7649106, 0.9337968],
        [0.53446436, 1.2637352, 0.79714304],
        [0.3252514, -0.8652408, 1.3336022],
        [-0.9000016, 0.93741035, -0.0026794702],
        [-0.13131557, -1.7350844, -0.2774684],
        [0.71864146, 0.47868606, -1.1155595],
        [-0.53855157, 0.16937865, -1.3965324],
        [0.93053126, -0.6588858, -0.4932444],
        [-0.14052768, 1.7560267, 0.09630747],
        [-0.18878146, -1.4796269, -0.8528446],
        [0.7655689, 1.2011157, 0.23236862],
        [-0.1316187, 1.676567, 0.4954779],
        [0.8051209, 0.11166186, -1.056096],
        [0.6565456, -0.73303133, -1.089209],
        [-0.6785929, -1.3412415, 0.22488606],
    ]);
    let pose = Pose3::new(
        Vec3::new(-3.5346293, -0.7278514, -0.56082726),
        Quat::from_xyzw(-0.048673246, 0.26797184, -0.7072051, 0.6524438),
    );
    let ray = Ray {
        origin: Vec3::new(-3.7456572, -4.820243, 2.4004347),
        dir: Vec3::new(0.16965105, 0.9295146, -0.5517522),
    };
    check(&shape, &v, &pose, &ray, 2e-6, 0.0, false);
}

/// Seed 810006, ray #29705: slope 4.3e-4; peng answered 5.2922807 where the
/// entry is 5.29209 (1.9e-4 late along a ray of length 0.51).
#[test]
fn shallow_entry_face_seed_810006() {
    let (shape, v) = hull(&[
        [-0.38200936, -1.3488853, 0.012000479],
        [0.44100878, -1.3292115, -0.0145591805],
        [1.1968493, 0.56755435, -0.16917926],
        [-0.060693238, 0.79451877, 0.59425366],
        [1.2847594, 0.33905965, -0.14543144],
        [0.4753904, -1.2723871, -0.17364603],
        [0.5078649, -0.5321298, -0.6103225],
        [0.7392464, 0.82007414, -0.4337044],
        [-0.99611133, 0.44461617, -0.43173918],
        [-0.13937964, -0.9683598, 0.51773065],
        [-0.3116172, 1.313856, 0.19634296],
        [0.1540348, 1.3879753, 0.081926934],
        [1.1107714, -0.78370684, 0.090592794],
        [-1.1810919, 0.67561567, 0.062647164],
        [0.04783607, -1.0555254, -0.4759246],
        [-0.59396595, -1.0515137, -0.35939676],
    ]);
    let pose = Pose3::new(
        Vec3::new(1.5292916, 0.91101265, 0.53455544),
        Quat::from_xyzw(0.19994132, 0.8120478, 0.39928755, -0.3757277),
    );
    let ray = Ray {
        origin: Vec3::new(1.7367715, -0.7261342, -1.1959513),
        dir: Vec3::new(-0.041907657, 0.24544396, 0.44971535),
    };
    check(&shape, &v, &pose, &ray, 2e-6, 0.0, false);
}

/// Soak seed 860245: a face of the hull is a quad merged from two triangles
/// 1.7e-6 from coplanar; a ray crossing it at slope 1e-2 enters its plane
/// 2.2e-5 before the exact hull's ridge, within the merge's `spread / slope`
/// (1.7e-4) and not within 1e-5.
#[test]
fn shallow_ray_at_a_merged_face_seed_860245() {
    let pts: Vec<Vec3> = [
        [0.63039017, -0.5313388, 0.13032816],
        [0.78784585, 0.26932037, -0.35964468],
        [0.06445866, 0.3671643, 0.4651522],
        [-0.6136073, -0.22124776, 0.0],
        [-0.38102984, 0.5772303, -0.6668023],
        [0.028198257, 0.8947022, 0.3090983],
        [-0.5701101, 0.65712625, 0.0],
        [0.0, -0.87479347, 0.60793585],
        [0.6868932, -0.4351122, -0.31601036],
        [-0.6040891, 0.76764524, 0.48720825],
        [-0.51906097, 0.75236785, 0.0],
    ]
    .map(Vec3::from_array)
    .to_vec();
    let h = ConvexPolyhedron::from_points(&pts).unwrap();
    let spread = merge_spread(&h);
    assert!((1e-6..1e-5).contains(&spread), "{spread:e}");
    let pose = Pose3::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 1.0, 0.0));
    let f = 21 % h.faces().len();
    let ring = h.face_loop(f);
    assert_eq!(ring.len(), 4, "the merged quad");
    let p = (0..3).fold(Vec3::ZERO, |acc, k| {
        acc + h.vertices()[ring[k] as usize] / 3.0
    });
    let n = pose.transform_vector(h.faces()[f].normal);
    let ray = grazing_ray(pose.transform_point(p), n, Vec3::Z, 1e-2, 0.5);
    check(&h.into(), &pts, &pose, &ray, 1e-5, spread, true);
}

fn unit(v: Vec3) -> Vec3 {
    v.normalize_or(Vec3::X)
}

/// A ray aimed at point `p` of the world, arriving at slope `slope` to the
/// plane with unit normal `n` (from outside), from `dist` away.
fn grazing_ray(p: Vec3, n: Vec3, along: Vec3, slope: f32, dist: f32) -> Ray<Vec3> {
    let t = unit(along - n * along.dot(n));
    let dir = unit(t * (1.0 - slope * slope).sqrt() - n * slope);
    Ray {
        origin: p - dir * dist,
        dir: dir * 0.7,
    }
}

/// The ray of `shallow_rays_at_hulls`: aimed at the point of barycentric
/// weights `bary` on the first three vertices of face `face` (modulo the face
/// count) of the hull of `pts` placed at `(t, q)`, at slope `10^log_slope`,
/// from `dist` away; checked against the f64 truth.
#[allow(clippy::too_many_arguments)]
fn shallow_ray_at_hull_face(
    pts: &[[f32; 3]],
    t: [f32; 3],
    q: [f32; 4],
    face: usize,
    bary: [f32; 3],
    along: [f32; 3],
    log_slope: f32,
    dist: f32,
) {
    let v: Vec<Vec3> = pts.iter().map(|p| Vec3::from_array(*p)).collect();
    let Ok(h) = ConvexPolyhedron::from_points(&v) else {
        return;
    };
    let pose = Pose3::new(Vec3::from_array(t), Quat::from_array(q));
    let f = face % h.faces().len();
    let ring = h.face_loop(f);
    let w = bary[0] + bary[1] + bary[2];
    let p = (0..3).fold(Vec3::ZERO, |acc, k| {
        acc + h.vertices()[ring[k] as usize] * (bary[k] / w)
    });
    let n = pose.transform_vector(h.faces()[f].normal);
    let ray = grazing_ray(
        pose.transform_point(p),
        n,
        Vec3::from_array(along),
        10f32.powf(log_slope),
        dist,
    );
    let verts = h.vertices().to_vec();
    let spread = merge_spread(&h);
    check(&h.into(), &verts, &pose, &ray, 1e-5, spread, true);
}

/// Soak seed 860467: a ray at slope 1.1e-3 crossing a face near a vertex of
/// a hull 2 away from the origin; the f64 truth enters at 21.17, peng missed.
#[test]
fn shallow_ray_near_a_vertex_seed_860467() {
    let pts = [
        [-0.5301635, 0.5309439, 0.70576406],
        [0.9180584, 0.0, 0.0],
        [0.82514876, 0.53856814, 0.21366309],
        [0.0, 0.0, 0.7215368],
        [0.0, 0.9338515, 0.0],
        [0.0, -0.5981176, 0.0],
        [0.9060405, 0.9042235, 0.0],
        [0.0, 0.97884953, -0.3216558],
        [0.0, 0.0, -0.9093181],
        [-0.7712986, -0.69575167, -0.2603027],
        [-0.7272461, -0.33060113, -0.0005339152],
    ];
    shallow_ray_at_hull_face(
        &pts,
        [0.0, 0.0, -2.0086303],
        [0.10416323, 0.25815138, -0.6653425, -0.6852235],
        17,
        [0.45859534, 0.6510237, 0.05509779],
        [0.063404664, 0.35225853, -0.67307055],
        -2.9471827,
        14.820328,
    );
}

/// Soak seed 860508: a ray at slope 1.6e-6 to a triangle placed 3.5 from
/// the origin, aimed at its centroid from 8 away. The f64 barycentric solve
/// ran on the local f32 ray, whose rounding moved the crossing 0.2 along the
/// ray (toi 2.0523 for 1.9961).
#[test]
fn grazing_triangle_seed_860508() {
    let v = [
        Vec3::new(-1.2072802, -0.12763882, 1.1008615),
        Vec3::new(-0.51886654, -1.0823565, -0.34953976),
        Vec3::new(1.0865622, -0.31019783, 1.3948917),
    ];
    let pose = Pose3::new(
        Vec3::new(-2.5, -0.31350613, -2.5),
        Quat::from_xyzw(-0.63769245, -0.10218595, -0.6128799, -0.4552851),
    );
    let target = pose.transform_point(v.iter().sum::<Vec3>() / 3.0);
    let dir = Vec3::new(-0.3280964, 0.7474079, -0.21429253);
    let origin = target - dir.normalize() * 8.0;
    let ray = Ray {
        origin,
        dir: (target - origin) * 0.5,
    };
    let shape: Shape = Triangle::new(v[0], v[1], v[2]).unwrap().into();
    check(&shape, &v, &pose, &ray, 1e-5, 0.0, false);
}

proptest! {
    #![proptest_config(crate::seeds::cases(64))]

    /// Rays at slopes 1e-5..1e-2 to a random face of a random hull (posed up
    /// to 40 away from the origin), aimed at a point of the face: hit or miss
    /// as in f64, and the hit within 1e-5 of the f64 truth where it enters
    /// through a shallow face (the f32 plane clip alone was off by up to 2e-4
    /// at slopes near 1e-3, and found lines empty or not by mistake at lower
    /// ones), except at an edge where a steep face wins in f32 and before a
    /// merged face (see `check`).
    #[test]
    fn shallow_rays_at_hulls(
        pts in prop::collection::vec(prop::array::uniform3(-1.0f32..1.0), 6..14),
        t in prop::array::uniform3(-40.0f32..40.0),
        q in prop::array::uniform4(-1.0f32..1.0),
        face in 0usize..64,
        bary in prop::array::uniform3(0.05f32..1.0),
        along in prop::array::uniform3(-1.0f32..1.0),
        log_slope in -5.0f32..-2.0,
        dist in 0.5f32..20.0,
    ) {
        prop_assume!(Quat::from_array(q).length() > 0.1);
        shallow_ray_at_hull_face(&pts, t, q, face, bary, along, log_slope, dist);
    }

    /// Rays at slopes 1e-5..1e-2 to a random triangle (posed up to 40 away),
    /// aimed at a point well inside it: the hit within 1e-5 of the f64 truth.
    #[test]
    fn shallow_rays_at_triangles(
        pts in prop::array::uniform3(prop::array::uniform3(-1.0f32..1.0)),
        t in prop::array::uniform3(-40.0f32..40.0),
        q in prop::array::uniform4(-1.0f32..1.0),
        bary in prop::array::uniform3(0.1f32..1.0),
        along in prop::array::uniform3(-1.0f32..1.0),
        log_slope in -5.0f32..-2.0,
        dist in 0.5f32..20.0,
    ) {
        prop_assume!(Quat::from_array(q).length() > 0.1);
        let v = pts.map(Vec3::from_array);
        let Ok(tri) = Triangle::new(v[0], v[1], v[2]) else { return Ok(()); };
        let nrm = (v[1] - v[0]).cross(v[2] - v[0]);
        // Slivers: a ray can pass within their edges' tolerance, which counts.
        prop_assume!(nrm.length() > 0.1);
        let pose = Pose3::new(Vec3::from_array(t), Quat::from_array(q));
        let w = bary[0] + bary[1] + bary[2];
        let p = (0..3).fold(Vec3::ZERO, |acc, k| acc + v[k] * (bary[k] / w));
        let n = pose.transform_vector(nrm.normalize());
        let ray = grazing_ray(pose.transform_point(p), n, Vec3::from_array(along), 10f32.powf(log_slope), dist);
        check(&tri.into(), &v, &pose, &ray, 1e-5, 0.0, false);
    }

    /// The same for cuboids, edges included (seed 820002: a ray at slope
    /// 1.1e-5 entering a 0.1-thin box through its face, not its side).
    #[test]
    fn shallow_rays_at_cuboids(
        he in prop::array::uniform3(0.05f32..2.0),
        t in prop::array::uniform3(-40.0f32..40.0),
        q in prop::array::uniform4(-1.0f32..1.0),
        axis in 0usize..6,
        at in prop::array::uniform2(-0.95f32..0.95),
        along in prop::array::uniform3(-1.0f32..1.0),
        log_slope in -5.0f32..-2.0,
        dist in 0.5f32..20.0,
    ) {
        prop_assume!(Quat::from_array(q).length() > 0.1);
        let he = Vec3::from_array(he);
        let c = Cuboid::new(he).unwrap();
        let pose = Pose3::new(Vec3::from_array(t), Quat::from_array(q));
        let (i, sign) = (axis / 2, if axis % 2 == 0 { 1.0 } else { -1.0 });
        let mut n = Vec3::ZERO;
        n[i] = sign;
        let mut p = n * he;
        p[(i + 1) % 3] = at[0] * he[(i + 1) % 3];
        p[(i + 2) % 3] = at[1] * he[(i + 2) % 3];
        let ray = grazing_ray(pose.transform_point(p), pose.transform_vector(n), Vec3::from_array(along), 10f32.powf(log_slope), dist);
        check(&c.into(), &box_corners(he), &pose, &ray, 1e-5, 0.0, false);
    }
}

/// Seed 870011: a ray at slope 2e-5 to a face of a hull 52 from the origin,
/// aimed near a vertex. The f32 clip enters and leaves through steep faces;
/// the shallow face's f32 crossing is 0.1 early, and in f64 it comes after
/// the exit: the ray misses, where peng reported a hit at 23.45.
#[test]
fn shallow_plane_empties_the_line_seed_870011() {
    let pts = [
        [0.0, 0.0, 0.53750795],
        [0.0, 0.0, -0.44929224],
        [0.5770599, 0.0, 0.0],
        [-0.87677073, -0.5544037, -0.30702132],
        [0.5320778, 0.66948515, -0.9765418],
        [0.22088784, 0.47238642, -0.864492],
        [-0.08614238, -0.9608072, 0.7850216],
    ];
    shallow_ray_at_hull_face(
        &pts,
        [-36.306293, 0.0, 36.80344],
        [0.18779342, 0.64600915, -0.9416876, 0.88051116],
        29,
        [0.05, 0.4446887, 0.8935059],
        [0.9849312, 0.4156299, 0.096350946],
        -4.707412,
        16.434341,
    );
}

/// Seed 870412: a ray at slope 3.4e-5 to a hull 40 from the origin leaves
/// through a face at slope 0.09 4.5e-7 (in f64) before it enters through the
/// shallow face: a miss. The shallow face was crossed in f64 but the steep
/// exit in f32, 4e-5 late, and peng reported a hit at 25.88.
#[test]
fn steep_exit_before_a_shallow_entry_seed_870412() {
    let pts = [
        [-0.83678055, 0.43061492, 0.97561127],
        [-0.25415924, -0.23988052, -0.4227937],
        [-0.16889727, -0.4037664, -0.43105462],
        [0.0, 0.0, 0.0],
        [0.0, -0.75982124, 0.0],
        [0.5036581, 0.0, -0.60271525],
    ];
    shallow_ray_at_hull_face(
        &pts,
        [32.369133, 23.225225, -7.1613],
        [0.1867577, 0.857717, -0.6498603, -0.8461126],
        46,
        [0.40951478, 0.8828451, 0.6922143],
        [-0.0322003, -0.4597275, 0.9097541],
        -4.475179,
        18.052567,
    );
}

/// A ray of zero direction (or one so short its squared length underflows)
/// stays at its origin: it hits a hull at 0 from inside and misses it from
/// outside; every plane is parallel to it.
#[test]
fn zero_direction_at_a_hull() {
    let (shape, _) = hull(&[
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ]);
    let pose = Pose3::new(Vec3::new(3.0, 0.0, 0.0), Quat::IDENTITY);
    for dir in [Vec3::ZERO, Vec3::new(1e-30, 0.0, 0.0)] {
        let inside = Ray {
            origin: Vec3::new(3.1, 0.1, 0.0),
            dir,
        };
        let outside = Ray {
            origin: Vec3::new(0.0, 0.0, 0.0),
            dir,
        };
        assert_eq!(
            ray_cast(&shape, &pose, &inside, 1e3, true).map(|h| h.toi),
            Some(0.0),
            "{dir}"
        );
        assert!(
            ray_cast(&shape, &pose, &outside, 1e3, true).is_none(),
            "{dir}"
        );
    }
}
