//! Regression cases of 3D distance and contact on round shapes and polyhedra,
//! each found failing on fresh seeds of the differential tests (or their f64
//! referees), with its inputs and a truth computed here in f64 from the same
//! f32 inputs (closed forms, no peng query).

use glam::{DQuat, DVec2, DVec3};
use peng::d3::*;

/// A pose from its f32 fields, as printed by the failing run.
fn pose(t: [f32; 3], q: [f32; 4]) -> Pose3 {
    Pose3::new(Vec3::from(t), Quat::from_xyzw(q[0], q[1], q[2], q[3]))
}

/// A world point into the local frame of `p`, in f64.
fn to_local(p: &Pose3, x: DVec3) -> DVec3 {
    let q = p.rotation;
    let q = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
    q.inverse() * (x - p.translation.as_dvec3())
}

/// A local vector of `p` into world space, in f64.
fn to_world_vec(p: &Pose3, v: DVec3) -> DVec3 {
    let q = p.rotation;
    DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize() * v
}

fn to_world(p: &Pose3, v: DVec3) -> DVec3 {
    to_world_vec(p, v) + p.translation.as_dvec3()
}

fn angle(a: Vec3, b: DVec3) -> f64 {
    a.as_dvec3().normalize().angle_between(b)
}

/// Signed distance from `c` (the cylinder's frame) to a cylinder and the
/// outward unit normal at its nearest surface point.
fn cylinder_f64(h: f64, r: f64, c: DVec3) -> (f64, DVec3) {
    let rho = c.x.hypot(c.z);
    let u = DVec3::new(c.x / rho, 0.0, c.z / rho);
    let (dr, dy) = (rho - r, c.y.abs() - h);
    if dr > 0.0 || dy > 0.0 {
        let q = u * rho.min(r) + DVec3::Y * c.y.clamp(-h, h);
        ((c - q).length(), (c - q).normalize())
    } else if -dr < -dy {
        (dr, u)
    } else {
        (dy, DVec3::Y * c.y.signum())
    }
}

/// Distance from `c` (the cone's frame, apex at `+h`) to a cone, with the unit
/// direction from the nearest point to `c`; 0 inside. In the meridian plane
/// `(ρ, y)` the cone is the triangle `(0, h), (r, −h), (0, −h)`.
fn cone_f64(h: f64, r: f64, c: DVec3) -> (f64, DVec3) {
    let rho = c.x.hypot(c.z);
    let u = DVec3::new(c.x / rho, 0.0, c.z / rho);
    let q = DVec2::new(rho, c.y);
    let (apex, rim) = (DVec2::new(0.0, h), DVec2::new(r, -h));
    let m = DVec2::new(2.0 * h, r).normalize();
    if c.y >= -h && m.dot(q - apex) <= 0.0 {
        return (0.0, DVec3::ZERO);
    }
    let seg = |a: DVec2, b: DVec2| {
        let e = b - a;
        a + e * ((q - a).dot(e) / e.length_squared()).clamp(0.0, 1.0)
    };
    let (s, b) = (seg(apex, rim), seg(DVec2::new(0.0, -h), rim));
    let best = if q.distance(s) < q.distance(b) { s } else { b };
    let d = (q - best).normalize();
    (q.distance(best), u * d.x + DVec3::Y * d.y)
}

/// A ball centred on the side of a cylinder, 1.3e-5 outside it (the ball's
/// radius 1.2848524): `distance` took the normal from the f32 difference of
/// the centre and its projection, 9.4e-2 rad off (its error is about
/// 1e-7·|c| / gap); `contact` had the exact side normal. Truth: the radial
/// direction of the centre in the cylinder's frame.
#[test]
fn ball_on_cylinder_side_has_the_side_normal() {
    let a: Shape = Cylinder::new(1.486_831_8, 1.993_597_4).unwrap().into();
    let pa = pose(
        [-1.445_354_9, -3.577_219, -0.151_395_32],
        [-0.199_879_72, 0.455_881_8, -0.130_971_73, 0.857_360_1],
    );
    let b: Shape = Ball::new(1.284_852_4).unwrap().into();
    let pb = pose(
        [-3.404_128_6, -4.270_455, -0.332_917_57],
        [-0.716_520_7, 0.419_992_63, 0.510_718_7, -0.222_195],
    );
    let c = to_local(&pa, pb.translation.as_dvec3());
    let (gap, n) = cylinder_f64(1.486_831_8, 1.993_597_4, c);
    let truth = to_world_vec(&pa, n);
    let sd = gap - 1.284_852_4;
    let d = distance(&a, &pa, &b, &pb);
    assert!((d.distance as f64 - sd).abs() < 1e-5, "{d:?} vs {sd}");
    assert!(angle(d.normal, truth) < 1e-4, "{d:?} vs {truth}");
    let m = contact(&a, &pa, &b, &pb, 0.0).expect("overlap");
    assert!(angle(m.normal, truth) < 1e-4, "{m:?} vs {truth}");
    // The other order: the normal flips.
    let d = distance(&b, &pb, &a, &pa);
    assert!(angle(d.normal, -truth) < 1e-4, "{d:?} vs {truth}");
}

/// A capsule whose core passes 1.3e-2 from a thin cone's side while the
/// capsule overlaps it (signed distance −0.49): `distance` and `contact` took
/// GJK's normal on the cores, 1.5e-3 rad off (GJK reaches a point of the
/// side only through ever shorter chords between rim points, and the
/// separated-core polish ran only when the capsule itself was apart). Truth:
/// the closest points of the core and the cone by a ternary search in f64.
#[test]
fn capsule_near_cone_side_has_the_closest_points_normal() {
    let (ca, cb, r) = (
        Vec3::new(-1.008_328_6, 0.151_254_5, -0.452_720_6),
        Vec3::new(0.765_553_65, -0.157_966_35, 0.440_141_47),
        0.503_624_5,
    );
    let a: Shape = Capsule::new(ca, cb, r).unwrap().into();
    let pa = pose(
        [0.878_797_05, -2.991_723_5, -3.967_209_8],
        [0.350_944, 0.034_542_79, -0.241_772_26, 0.903_986_33],
    );
    let (h, rad) = (1.395_120_7, 0.200_014);
    let b: Shape = Cone::new(h, rad).unwrap().into();
    let pb = pose(
        [1.000_292, -4.326_233, -4.411_032],
        [-0.933_232_25, 0.303_207_96, -0.039_432_6, 0.188_646_9],
    );
    // The core in the cone's frame, then the convex distance along it.
    let p0 = to_local(&pb, to_world(&pa, ca.as_dvec3()));
    let p1 = to_local(&pb, to_world(&pa, cb.as_dvec3()));
    let f = |t: f64| cone_f64(h as f64, rad as f64, p0 + (p1 - p0) * t);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if f(m1).0 < f(m2).0 {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let (gap, n) = f(0.5 * (lo + hi));
    assert!(gap > 1e-3, "the cores are apart: {gap}");
    // From the cone to the core in the cone's frame; A is the capsule.
    let truth = -to_world_vec(&pb, n);
    let sd = gap - r as f64;
    let d = distance(&a, &pa, &b, &pb);
    assert!((d.distance as f64 - sd).abs() < 1e-5, "{d:?} vs {sd}");
    assert!(angle(d.normal, truth) < 2e-4, "{d:?} vs {truth}");
    let m = contact(&a, &pa, &b, &pb, 0.0).expect("overlap");
    assert!(angle(m.normal, truth) < 2e-4, "{m:?} vs {truth}");
    assert!((m.depth() as f64 + sd).abs() < 1e-5, "{m:?} vs {sd}");
    let d = distance(&b, &pb, &a, &pa);
    assert!(angle(d.normal, -truth) < 2e-4, "{d:?} vs {truth}");
}

/// A ball whose centre lies 0.058 above a face of a hull, its projection
/// 7e-5 inside the face's edge: the edge's closest point is as near within
/// f32 rounding of the squared distances, and when it was found first it
/// won, with a normal 1.15e-3 rad off the face normal, so that moving the
/// ball by the depth along it left them overlapping by about 1e-3 of the
/// size. A projection inside a face that sees the centre is the closest
/// point of a convex polyhedron. Truth: the nearest point over the hull's
/// triangles in f64, and the face's plane in f64 (Newell's normal).
#[test]
fn ball_over_hull_face_has_the_face_normal() {
    let vs = [
        [0.886_370_54, -1.009_137_4, -0.241_813_23],
        [-0.704_799_83, -0.221_743_73, 1.040_605_5],
        [-0.644_922_7, 1.026_609_4, -0.680_362_64],
        [-1.106_021_9, -0.617_536_7, 0.049_652_684],
        [0.923_766_73, -0.819_122_4, -0.476_059_08],
        [-0.855_694_5, 0.967_113_73, 0.423_778_15],
        [0.346_938, 0.893_800_9, 0.993_781_45],
        [0.834_537_6, -1.099_413_9, 0.163_989_28],
        [-0.410_741_54, -1.129_762_5, -0.769_52],
        [-0.581_174_4, -0.699_603, 0.977_140_3],
        [0.766_606_45, 0.827_741_56, -0.724_770_6],
        [-0.043_496_83, 0.960_603_8, 1.018_465_8],
        [0.325_073_3, -0.513_613_6, 1.176_800_5],
        [-0.115_734_59, -1.031_544, -0.960_985_06],
        [-0.713_583_47, -1.238_65, 0.114_940_345],
        [-0.630_536, -1.178_381_4, 0.496_429_23],
    ]
    .map(Vec3::from);
    let hull = ConvexPolyhedron::from_points(&vs).unwrap();
    let pa = pose(
        [-0.665_389_06, 1.693_039, -0.165_453_91],
        [-0.081_754_18, -0.440_111_64, -0.504_213_9, -0.738_502_74],
    );
    let r = 0.198_117_2;
    let b: Shape = Ball::new(r).unwrap().into();
    let pb = pose(
        [-0.015_951_097, 1.328_442, -1.151_770_1],
        [0.569_434_17, -0.186_899_27, 0.763_918, 0.239_254_47],
    );
    // f64 truth: the nearest point of the hull's triangles to the centre.
    let c = to_local(&pa, pb.translation.as_dvec3());
    let v64: Vec<DVec3> = hull.vertices().iter().map(|v| v.as_dvec3()).collect();
    let mut best = (f64::INFINITY, DVec3::ZERO, DVec3::ZERO);
    for f in 0..hull.faces().len() {
        let lp: Vec<DVec3> = hull.face_loop(f).iter().map(|&i| v64[i as usize]).collect();
        let mut n = DVec3::ZERO;
        for k in 0..lp.len() {
            n += lp[k].cross(lp[(k + 1) % lp.len()]);
        }
        let n = n.normalize();
        for k in 1..lp.len() - 1 {
            let q = closest_on_triangle(lp[0], lp[k], lp[k + 1], c);
            if q.distance(c) < best.0 {
                best = (q.distance(c), q, n);
            }
        }
    }
    let (gap, q, face_n) = best;
    let truth_local = (c - q) / gap;
    // The nearest point is inside a face: the normal is that face's.
    assert!(truth_local.angle_between(face_n) < 1e-9);
    // From A (the hull) to B (the ball).
    let truth = to_world_vec(&pa, truth_local);
    let sd = gap - r as f64;
    let a: Shape = hull.into();
    let d = distance(&a, &pa, &b, &pb);
    assert!((d.distance as f64 - sd).abs() < 1e-5, "{d:?} vs {sd}");
    assert!(angle(d.normal, truth) < 1e-5, "{d:?} vs {truth}");
    let m = contact(&a, &pa, &b, &pb, 0.0).expect("overlap");
    assert!(angle(m.normal, truth) < 1e-5, "{m:?} vs {truth}");
    // Moving the ball by the depth along the normal leaves it touching: its
    // centre's f64 distance to the hull's face plane is then the radius.
    let moved = c + to_local_vec(&pa, m.normal.as_dvec3()) * m.depth() as f64;
    let h_after = face_n.dot(moved - q);
    assert!((h_after - r as f64).abs() < 1e-5, "{h_after} vs {r}");
}

fn to_local_vec(p: &Pose3, v: DVec3) -> DVec3 {
    to_local(p, v + p.translation.as_dvec3())
}

/// The point of triangle `a b c` nearest to `p` (f64): the plane projection
/// when inside, else the nearest edge point.
fn closest_on_triangle(a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> DVec3 {
    let n = (b - a).cross(c - a);
    let q = p - n * (n.dot(p - a) / n.length_squared());
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|&(u, v)| n.dot((v - u).cross(q - u)) >= 0.0);
    if inside {
        return q;
    }
    let seg = |u: DVec3, v: DVec3| {
        let e = v - u;
        u + e * ((p - u).dot(e) / e.length_squared()).clamp(0.0, 1.0)
    };
    [seg(a, b), seg(b, c), seg(c, a)]
        .into_iter()
        .min_by(|x, y| x.distance(p).total_cmp(&y.distance(p)))
        .unwrap_or(a)
}

/// A thin cylinder crossing the rim of a short wide one, overlapping by about
/// 1.3e-4 (the differential test's tolerance is 1.3e-4 here): `intersects`,
/// `contact` and `distance` said apart (3.6e-5). GJK's simplex was a sliver
/// (the thin cylinder's side runs 2.5 along its axis, the overlap is 3e-4
/// thick), each new tetrahedron, holding the origin, was taken as flat and
/// the new vertex dropped, and GJK stopped after its stalls with a
/// separation no support plane confirmed. Truth: a point inside both
/// cylinders by 1.25e-5 in f64, so the shapes overlap and any separating
/// translation is at least twice that.
#[test]
fn thin_cylinder_across_a_rim_overlaps() {
    let (ha, ra) = (1.257_443_8, 0.111_804_835);
    let a: Shape = Cylinder::new(ha, ra).unwrap().into();
    let pa = pose(
        [-1.142_769_3, -1.153_225_9, -1.050_049_8],
        [0.226_243_54, -0.629_182_16, 0.714_317_4, -0.206_626_27],
    );
    let (hb, rb) = (0.437_036_87, 0.499_043_88);
    let b: Shape = Cylinder::new(hb, rb).unwrap().into();
    let pb = pose(
        [-0.692_454_46, -0.551_173_45, -1.186_45],
        [0.623_714_45, 0.150_959_2, 0.764_01, -0.066_935_66],
    );
    let x = DVec3::new(
        -1.042_985_051_220_04,
        -1.107_993_037_158_87,
        -1.102_838_957_701_33,
    );
    let (sa, _) = cylinder_f64(ha as f64, ra as f64, to_local(&pa, x));
    let (sb, _) = cylinder_f64(hb as f64, rb as f64, to_local(&pb, x));
    assert!(sa < -1.2e-5 && sb < -1.2e-5, "certificate: {sa} {sb}");
    assert!(intersects(&a, &pa, &b, &pb));
    assert!(intersects(&b, &pb, &a, &pa));
    let d = distance(&a, &pa, &b, &pb);
    assert!(d.distance < -2.4e-5, "{d:?}");
    let m = contact(&a, &pa, &b, &pb, 0.0).expect("overlap");
    assert!(m.depth() > 2.4e-5, "{m:?}");
    assert!(contact(&b, &pb, &a, &pa, 0.0).is_some());
}

/// The support value along `n` (world) of a cylinder placed by `p`, in f64:
/// the centre's offset plus the half-height along the axis and the radius
/// across it.
fn cylinder_support_f64(h: f64, r: f64, p: &Pose3, n: DVec3) -> f64 {
    let axis = to_world_vec(p, DVec3::Y);
    let along = n.dot(axis);
    let across = (n.length_squared() - along * along).max(0.0).sqrt();
    n.dot(p.translation.as_dvec3()) + h * along.abs() + r * across
}

/// Two cylinders overlapping by about 4.3e-4 (seed 861262 of the soak,
/// `diff3d::cylinder_cylinder` pair 20793): `distance` said -9.5e-4, along a
/// normal whose support planes do overlap by that much, but moving B by
/// 4.34e-4 along another direction separates them. Truth: the depth is the
/// least overlap of the support planes over all directions; here sampled
/// around the reported normal in f64.
#[test]
fn overlapping_cylinders_depth_is_the_least_overlap() {
    let (ha, ra) = (1.385_703_f32, 1.376_109_f32);
    let a: Shape = Cylinder::new(ha, ra).unwrap().into();
    let pa = pose(
        [0.680_505_75, 3.746_508_1, -2.235_216_1],
        [-0.661_856_83, 0.235_152_48, -0.227_251_05, -0.674_541_23],
    );
    let (hb, rb) = (0.630_845_07_f32, 0.919_012_f32);
    let b: Shape = Cylinder::new(hb, rb).unwrap().into();
    let pb = pose(
        [3.430_061_3, 3.584_08, -1.742_236_3],
        [-0.855_302_1, -0.100_771_87, -0.302_949_73, -0.408_074_62],
    );
    // The overlap of the support planes along unit `n` (A to B): moving B by
    // it along `n` separates the pair.
    let overlap = |n: DVec3| {
        let n = n.normalize();
        cylinder_support_f64(ha as f64, ra as f64, &pa, n)
            + cylinder_support_f64(hb as f64, rb as f64, &pb, -n)
    };
    let n_parry = DVec3::new(0.887_001_63, 0.049_692_094, 0.459_084_75);
    let known = overlap(n_parry);
    assert!(known > 0.0 && known < 4.4e-4, "{known}");
    let d = distance(&a, &pa, &b, &pb);
    let tol = 2e-5;
    assert!(
        -(d.distance as f64) <= known + tol && d.distance < 0.0,
        "depth {} but {known} separates: {d:?}",
        -d.distance
    );
    // The reported normal's own overlap is the reported depth.
    let own = overlap(d.normal.as_dvec3());
    assert!((own + d.distance as f64).abs() < tol, "{own} {d:?}");
    let m = contact(&a, &pa, &b, &pb, 0.0).expect("overlap");
    assert!((m.depth() as f64) <= known + tol, "{m:?}");
    let d2 = distance(&b, &pb, &a, &pa);
    assert!(-(d2.distance as f64) <= known + tol, "{d2:?}");
}

/// A segment 0.014 from a cone's side (soak seed 861314,
/// `dist3_properties::gjk_agrees_with_fast_paths`): `distance` and the
/// general GJK gave normals 3.1e-3 rad apart. Truth: the closest point of the
/// segment to the cone, found by dense sampling and golden-section search in
/// f64 on the cone's distance function.
#[test]
fn segment_near_a_cone_side_has_the_true_normal() {
    let (h, r) = (0.856_645_3_f32, 0.948_465_65_f32);
    let a: Shape = Cone::new(h, r).unwrap().into();
    let pa = pose(
        [-0.099_425_316, -1.931_033_1, -2.165_393_8],
        [0.731_724_2, 0.399_304_12, -0.538_891_4, -0.121_375_76],
    );
    let (p0, p1) = (
        Vec3::new(0.276_988_98, -0.321_712_5, -0.486_370_1) * 1.5,
        Vec3::new(-0.540_124_9, 0.254_489_9, -0.612_297_06) * 1.5,
    );
    let b: Shape = Segment::new(p0, p1).unwrap().into();
    let pb = pose(
        [-2.102_432_3, -1.073_474_9, -2.398_591],
        [0.581_569_55, -0.239_798_26, -0.762_436_8, -0.151_537_79],
    );
    // The segment's points in the cone's frame, in f64.
    let (w0, w1) = (to_world(&pb, p0.as_dvec3()), to_world(&pb, p1.as_dvec3()));
    let at = |t: f64| cone_f64(h as f64, r as f64, to_local(&pa, w0 + (w1 - w0) * t));
    let mut best = (0.0, f64::INFINITY);
    for k in 0..=10_000 {
        let t = k as f64 / 10_000.0;
        let d = at(t).0;
        if d < best.1 {
            best = (t, d);
        }
    }
    let (mut lo, mut hi) = ((best.0 - 1e-4).max(0.0), (best.0 + 1e-4).min(1.0));
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618);
        if at(m1).0 < at(m2).0 {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let (gap, dir) = at(0.5 * (lo + hi));
    let truth = to_world_vec(&pa, dir);
    let d = distance(&a, &pa, &b, &pb);
    assert!((d.distance as f64 - gap).abs() < 1e-6, "{d:?} vs {gap}");
    assert!(
        angle(d.normal, truth) < 5e-4,
        "{} {d:?} vs {truth}",
        angle(d.normal, truth)
    );
}

/// A capsule deep in a cone (soak seed 861427, `diff3d::capsule_cone` pair
/// 32417): `distance` said -0.626057, but moving B 0.625899 along another
/// direction separates them. EPA on the cone against the capsule's core
/// stopped at its iteration cap with its best upper bound. Truth: the least
/// overlap of the f64 support planes, by a pattern search over directions
/// from the reported normal.
#[test]
fn capsule_deep_in_a_cone_has_the_least_overlap() {
    let (h, r) = (0.545_772_97_f32, 1.462_994_6_f32);
    let a: Shape = Cone::new(h, r).unwrap().into();
    let pa = pose(
        [0.881_036_76, -2.289_916, -1.783_813_5],
        [-0.099_429_04, 0.709_270_66, 0.363_320_1, 0.595_858_6],
    );
    let (c0, c1, cr) = (
        Vec3::new(-0.321_135_28, 0.121_491_11, 0.405_890_32),
        Vec3::new(0.278_244_02, 0.115_062_23, -0.407_783_36),
        0.478_653_82_f32,
    );
    let b: Shape = Capsule::new(c0, c1, cr).unwrap().into();
    let pb = pose(
        [0.277_323_48, -1.723_659_4, -1.717_196_7],
        [-0.273_622_33, 0.522_068_26, 0.520_876, -0.617_465_6],
    );
    // Support values in f64 along unit world `n`.
    let cone = |n: DVec3| {
        let l = to_local_vec(&pa, n);
        let apex = (h as f64) * l.y;
        let rim = -(h as f64) * l.y + (r as f64) * (l.x * l.x + l.z * l.z).sqrt();
        n.dot(pa.translation.as_dvec3()) + apex.max(rim)
    };
    let capsule = |n: DVec3| {
        let (p0, p1) = (to_world(&pb, c0.as_dvec3()), to_world(&pb, c1.as_dvec3()));
        n.dot(p0).max(n.dot(p1)) + cr as f64
    };
    // The overlap along unit `n` (A to B): moving B by it along `n`
    // separates the pair.
    let overlap = |n: DVec3| {
        let n = n.normalize();
        cone(n) + capsule(-n)
    };
    let d = distance(&a, &pa, &b, &pb);
    let (mut n, mut best) = (d.normal.as_dvec3(), overlap(d.normal.as_dvec3()));
    let mut step = 0.05;
    while step > 1e-9 {
        let mut moved = false;
        for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
            for s in [step, -step] {
                let m = (n + axis * s).normalize();
                let v = overlap(m);
                if v < best {
                    (n, best) = (m, v);
                    moved = true;
                }
            }
        }
        if !moved {
            step *= 0.5;
        }
    }
    assert!((best - 0.625_899).abs() < 2e-6, "{best}");
    let tol = 2e-5;
    assert!(
        -(d.distance as f64) <= best + tol && d.distance < 0.0,
        "depth {} but {best} separates: {d:?}",
        -d.distance
    );
    let m = contact(&a, &pa, &b, &pb, 0.0).expect("overlap");
    assert!((m.depth() as f64) <= best + tol, "{m:?}");
    let d2 = distance(&b, &pb, &a, &pa);
    assert!(-(d2.distance as f64) <= best + tol, "{d2:?}");
}
