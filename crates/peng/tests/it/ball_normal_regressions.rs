//! A ball against a hull or a cone whose centre's nearest point is ambiguous
//! in f32: `distance` and `contact` must give a normal that attains the
//! distance (the support gap of the shape along it, in f64, equals the true
//! distance), not only the right distance. Found by the soak of
//! `diff3d::ball_polyhedron` (seed 810009) and `diff3d::ball_cone` (810018).

use glam::{DQuat, DVec3};
use peng::d3::*;

/// The centre of B in A's frame, in f64.
fn centre_in_a(pose_a: &Pose3, pose_b: &Pose3) -> DVec3 {
    let q: DQuat = pose_a.rotation.as_dquat().normalize();
    q.inverse() * (pose_b.translation.as_dvec3() - pose_a.translation.as_dvec3())
}

/// A world normal in A's frame, in f64.
fn normal_in_a(pose_a: &Pose3, n: Vec3) -> DVec3 {
    (pose_a.rotation.as_dquat().normalize().inverse() * n.as_dvec3()).normalize()
}

/// Distance from `p` to the segment `a b`, in f64.
fn segment_distance(a: DVec3, b: DVec3, p: DVec3) -> f64 {
    let e = b - a;
    let t = ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
    (a + e * t).distance(p)
}

/// Distance from `p` to the triangle `a b c`, in f64: the plane distance
/// when the projection is inside, else the nearest of the three edges.
fn triangle_distance([a, b, c]: [DVec3; 3], p: DVec3) -> f64 {
    let n = (b - a).cross(c - a).normalize();
    let q = p - n * n.dot(p - a);
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|&(u, v)| n.dot((v - u).cross(q - u)) >= 0.0);
    if inside {
        return n.dot(p - a).abs();
    }
    segment_distance(a, b, p)
        .min(segment_distance(b, c, p))
        .min(segment_distance(c, a, p))
}

/// Checks `distance` and `contact` of a ball against `a`: the signed
/// distance is `truth − r`, and along each normal the support gap `gap(n)`
/// (in A's frame, from A towards the ball's centre) is the truth too.
fn check(
    a: &Shape,
    pose_a: &Pose3,
    r: f32,
    pose_b: &Pose3,
    truth: f64,
    gap: impl Fn(DVec3) -> f64,
) {
    let b: Shape = Ball::new(r).unwrap().into();
    let want = truth - r as f64;
    let d = distance(a, pose_a, &b, pose_b);
    assert!(
        (d.distance as f64 - want).abs() < 2e-6,
        "distance {d:?}, want {want}"
    );
    let g = gap(normal_in_a(pose_a, d.normal));
    assert!(
        g >= truth - 2e-6,
        "distance normal {:?}: gap {g} short of {truth}",
        d.normal
    );
    let m = contact(a, pose_a, &b, pose_b, 0.0).expect("the ball overlaps");
    assert!(
        (m.depth() as f64 + want).abs() < 2e-6,
        "contact depth {m:?}, want {}",
        -want
    );
    let g = gap(normal_in_a(pose_a, m.normal));
    assert!(
        g >= truth - 2e-6,
        "contact normal {:?}: gap {g} short of {truth}",
        m.normal
    );
}

/// A 16-vertex hull with two vertices 2.6e-3 apart (4 and 5), and a ball of
/// radius 1.0055 whose centre is 0.826 from it. The nearest point is on edge
/// 4–15, 2.0e-4 from vertex 4: the two differ in distance by 2.6e-8, below
/// the f32 rounding of the squared distances, and the projection picked
/// vertex 4. Its direction is 2.5e-4 rad off the edge's normal plane, and
/// the support plane along it (through vertex 15, 0.61 along the edge) lay
/// 1.5e-4 short of the distance. Seed 810009, pair #7302.
#[test]
fn ball_near_a_sliver_vertex_of_a_hull() {
    let vertices = [
        [0.2950788, 0.36174008, -0.3387801],
        [0.38971868, 0.4683686, -0.15397161],
        [0.48882112, -0.13285251, 0.3069791],
        [-0.324099, 0.4836394, -0.20566438],
        [-0.4858596, 0.1555518, -0.3032866],
        [-0.4879331, 0.15400408, -0.30181554],
        [0.5713846, -0.23288341, -0.14541508],
        [0.58650875, -0.06598056, -0.20231283],
        [-0.05713269, -0.51438457, -0.2885058],
        [0.5903395, 0.124659844, 0.17768086],
        [0.30331743, -0.33029577, 0.35353136],
        [-0.6342377, -0.05940543, -0.086160675],
        [-0.5130999, -0.05731347, 0.29779357],
        [-0.45212856, -0.45585248, 0.0020106235],
        [-0.18684295, -0.6020355, 0.07684336],
        [-0.33498558, -0.436749, -0.25312197],
    ]
    .map(Vec3::from_array);
    let faces: [[u32; 3]; 28] = [
        [0, 8, 4],
        [1, 12, 9],
        [1, 3, 12],
        [0, 7, 8],
        [10, 12, 14],
        [6, 10, 14],
        [2, 9, 12],
        [6, 14, 8],
        [3, 11, 12],
        [0, 4, 3],
        [2, 12, 10],
        [1, 9, 7],
        [5, 15, 11],
        [11, 13, 12],
        [4, 8, 15],
        [0, 3, 1],
        [12, 13, 14],
        [2, 6, 9],
        [2, 10, 6],
        [11, 15, 13],
        [0, 1, 7],
        [6, 8, 7],
        [8, 14, 15],
        [3, 5, 11],
        [13, 15, 14],
        [6, 7, 9],
        [4, 15, 5],
        [3, 4, 5],
    ];
    let loops: Vec<Vec<u32>> = faces.iter().map(|f| f.to_vec()).collect();
    let hull = ConvexPolyhedron::from_faces(vertices.to_vec(), &loops).unwrap();
    let a: Shape = hull.into();
    let pose_a = Pose3 {
        translation: Vec3::new(3.1936207, -2.7618651, -3.4227505),
        rotation: Quat::from_xyzw(-0.5796634, 0.04672982, 0.4284427, 0.69155157),
    };
    let pose_b = Pose3 {
        translation: Vec3::new(3.1533115, -4.0761266, -3.3428051),
        rotation: Quat::from_xyzw(-0.19140427, 0.48937896, 0.8487274, 0.05945173),
    };
    let c = centre_in_a(&pose_a, &pose_b);
    let vs: Vec<DVec3> = vertices.iter().map(|v| v.as_dvec3()).collect();
    let truth = faces
        .iter()
        .map(|f| triangle_distance(f.map(|i| vs[i as usize]), c))
        .fold(f64::INFINITY, f64::min);
    let gap = |n: DVec3| {
        let h = vs
            .iter()
            .map(|v| v.dot(n))
            .fold(f64::NEG_INFINITY, f64::max);
        n.dot(c) - h
    };
    assert!((truth - 0.825678).abs() < 1e-5, "setup: {truth}");
    check(&a, &pose_a, 1.0054955, &pose_b, truth, gap);
}

/// A cone (half height 0.9436, radius 1.8198) and a ball of radius 0.5264
/// whose centre is 2.17e-3 outside the slant side, 4.8e-6 along it from the
/// base rim: the slant point and the rim differ in distance by 6.6e-9, and
/// the f32 comparison picked the rim. Its direction is 2.4e-3 rad past the
/// slant's normal, out of the rim's normal cone, and the support plane along
/// it (through the apex, 2.62 up the slant) lay 6.3e-3 short of the
/// distance. Seed 810018, pair #23400.
#[test]
fn ball_by_a_cone_rim_on_the_slant_side() {
    let (hh, rad) = (0.94359785f32, 1.8198448f32);
    let a: Shape = Cone::new(hh, rad).unwrap().into();
    let pose_a = Pose3 {
        translation: Vec3::new(-1.450172, -1.6194391, 2.7333608),
        rotation: Quat::from_xyzw(-0.3202038, 0.5672258, 0.08553909, -0.753928),
    };
    let pose_b = Pose3 {
        translation: Vec3::new(-2.3320963, -1.7177683, 0.8846903),
        rotation: Quat::from_xyzw(0.30894953, 0.8871115, 0.16066648, 0.3029352),
    };
    let c = centre_in_a(&pose_a, &pose_b);
    let (h, r) = (hh as f64, rad as f64);
    // The meridian half-plane: the cone is the triangle apex, rim, base centre.
    let q = DVec3::new(c.x.hypot(c.z), c.y, 0.0);
    let (apex, rim, base) = (
        DVec3::new(0.0, h, 0.0),
        DVec3::new(r, -h, 0.0),
        DVec3::new(0.0, -h, 0.0),
    );
    let truth = segment_distance(apex, rim, q).min(segment_distance(base, rim, q));
    let gap = |n: DVec3| {
        let rim_h = -h * n.y + r * n.x.hypot(n.z);
        n.dot(c) - (h * n.y).max(rim_h)
    };
    assert!((truth - 2.17226e-3).abs() < 1e-7, "setup: {truth}");
    check(&a, &pose_a, 0.5264405, &pose_b, truth, gap);
}

/// A ball whose centre lies 1.2e-5 beside a triangle's face (`diff3d::ball_triangle`,
/// seed 820002): the centre was taken as on the triangle and pushed out through
/// the far side, depth `r + δ` instead of `r − δ`, along the f32 direction of
/// the 1.2e-5 gap (4e-3 rad off the face normal). The truth: the face normal
/// towards the centre, distance `δ − r`, as `contact()` already said.
#[test]
fn ball_centre_just_beside_a_triangle_face() {
    let v = [
        Vec3::new(-0.279985, -0.06856072, -0.40143085),
        Vec3::new(-0.06794515, 1.3057121, 0.60710835),
        Vec3::new(0.60233253, 0.6595751, -1.5410846),
    ];
    let a: Shape = Triangle::new(v[0], v[1], v[2]).unwrap().into();
    let pose_a = Pose3::new(
        Vec3::new(-1.5190897, -3.7373981, -0.9506178),
        Quat::from_xyzw(-0.115619496, -0.8435045, -0.0698362, -0.51986074),
    );
    let r = 0.2293056;
    let b: Shape = Ball::new(r).unwrap().into();
    let pose_b = Pose3::new(
        Vec3::new(-1.41104, -2.6850562, -0.77858293),
        Quat::from_xyzw(-0.81901413, -0.14244838, -0.55483884, -0.03283592),
    );
    let t = v.map(|p| p.as_dvec3());
    let p = centre_in_a(&pose_a, &pose_b);
    let n = (t[1] - t[0]).cross(t[2] - t[0]).normalize();
    let h = n.dot(p - t[0]);
    assert!(
        h.abs() < 1e-4 && triangle_distance(t, p) == h.abs(),
        "over the face"
    );
    let (truth, toward) = (h.abs() - r as f64, if h < 0.0 { -n } else { n });
    let d = distance(&a, &pose_a, &b, &pose_b);
    assert!(
        (d.distance as f64 - truth).abs() < 1e-6,
        "distance {} vs {truth}",
        d.distance
    );
    let ang = normal_in_a(&pose_a, d.normal).angle_between(toward);
    assert!(
        ang < 1e-5,
        "distance normal {ang:.3e} rad off the face normal"
    );
    let m = contact(&a, &pose_a, &b, &pose_b, 0.0).expect("overlapping");
    assert!(
        (m.depth() as f64 + truth).abs() < 1e-6,
        "contact depth {}",
        m.depth()
    );
    let ang = normal_in_a(&pose_a, m.normal).angle_between(toward);
    assert!(
        ang < 1e-5,
        "contact normal {ang:.3e} rad off the face normal"
    );
}
