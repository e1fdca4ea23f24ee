//! GJK distance of a curved rim (cylinder, cone) against a flat triangle: the
//! Minkowski difference has a flat face there and GJK's final simplex is a
//! sliver (two nearby rim points with the same triangle vertex). The normal
//! and distance must come from the f64 closest point of that simplex; a face
//! normal from f32 cross products was off by 1e-2 rad (differential findings
//! of seeds 0xd1ff3d36 #1886 and 0xd1ff3d46 #4325).
//!
//! The checks use support functions only (as `peng_bench::referee` does): for
//! any unit `n`, the gap `−h_A(n) − h_B(−n)` is a lower bound on the distance
//! of a separated pair, and equals it at the true normal.

use peng::d3::*;

/// The gap of the two placed shapes along the unit direction `n` (world).
fn gap(a: &Shape, pa: &Pose3, b: &Shape, pb: &Pose3, n: Vec3) -> f32 {
    let sa = pa.transform_point(a.local_support(pa.inverse_transform_vector(n)));
    let sb = pb.transform_point(b.local_support(pb.inverse_transform_vector(-n)));
    (sb - sa).dot(n)
}

/// Compass search for the largest gap from `n` (a certified lower bound on the
/// distance; the gap has a single local maximum for separated convex pairs).
fn best_gap(a: &Shape, pa: &Pose3, b: &Shape, pb: &Pose3, n: Vec3) -> f32 {
    let mut n = n.normalize();
    let mut v = gap(a, pa, b, pb, n);
    let mut step = 0.05f32;
    while step > 1e-7 {
        let (t1, t2) = n.any_orthonormal_pair();
        let mut moved = false;
        for d in [t1, -t1, t2, -t2, t1 + t2, -t1 - t2, t1 - t2, t2 - t1] {
            let m = (n + d.normalize() * step).normalize();
            let w = gap(a, pa, b, pb, m);
            if w > v {
                (n, v, moved) = (m, w, true);
                break;
            }
        }
        if !moved {
            step *= 0.5;
        }
    }
    v
}

fn bounding_radius(s: &Shape) -> f32 {
    match s {
        Shape::Cylinder(c) => c.radius().hypot(c.half_height()),
        Shape::Cone(c) => c.radius().hypot(c.half_height()),
        Shape::Triangle(t) => t.vertices().iter().fold(0.0f32, |m, v| m.max(v.length())),
        _ => 10.0,
    }
}

/// The distance is attained along the reported normal and is not below the
/// best gap a search finds; the witness points are `distance` apart along it.
fn check(a: &Shape, pa: &Pose3, b: &Shape, pb: &Pose3) {
    let d = distance(a, pa, b, pb);
    if d.distance <= 0.0 {
        return;
    }
    let s = bounding_radius(a).max(bounding_radius(b));
    let own = gap(a, pa, b, pb, d.normal);
    let best = best_gap(a, pa, b, pb, d.normal);
    assert!(
        d.distance - own <= 2e-6 * s,
        "normal does not attain the distance: {} vs gap {own} ({d:?})",
        d.distance
    );
    assert!(
        best - d.distance <= 2e-6 * s,
        "distance below the certified bound: {} vs {best} ({d:?})",
        d.distance
    );
    let along = (d.point_b - d.point_a).dot(d.normal);
    assert!((along - d.distance).abs() <= 1e-5 * s, "{along} {d:?}");
}

fn pose(t: [f32; 3], q: [f32; 4]) -> Pose3 {
    Pose3 {
        translation: Vec3::from(t),
        rotation: Quat::from_xyzw(q[0], q[1], q[2], q[3]).normalize(),
    }
}

#[test]
fn cylinder_rim_against_triangle_face() {
    // Seed 0xd1ff3d36 pair #1886: was 1e-4 short of the bound, normal off 1.7e-2 rad.
    let a: Shape = Cylinder::new(0.35756338, 0.17822674).unwrap().into();
    let pa = pose(
        [-0.56352854, -1.5708756, -3.0934787],
        [-0.78964037, -0.47631449, 0.080287226, -0.37834722],
    );
    let b: Shape = Triangle::new(
        Vec3::new(-1.2349275, -1.0370524, 0.5859923),
        Vec3::new(1.0710628, 1.4307177, -0.7671022),
        Vec3::new(-0.4540918, -0.3304906, -0.52520365),
    )
    .unwrap()
    .into();
    let pb = pose(
        [-0.18666008, -0.5377823, -2.0511513],
        [-0.7339272, -0.25376686, -0.16919279, -0.6068996],
    );
    check(&a, &pa, &b, &pb);
    check(&b, &pb, &a, &pa);
}

#[test]
fn triangle_face_against_cone_rim() {
    // Seed 0xd1ff3d46 pair #4325: normal off by 1.2e-2 rad.
    let a: Shape = Triangle::new(
        Vec3::new(1.5159041, -0.43677357, -0.70036805),
        Vec3::new(-0.45062828, 0.513359, -1.4893494),
        Vec3::new(-1.1433524, 0.7191478, 1.1442987),
    )
    .unwrap()
    .into();
    let pa = pose(
        [2.9802003, -1.624114, -0.73528194],
        [-0.38910702, 0.17358321, -0.78421164, -0.451084],
    );
    let b: Shape = Cone::new(0.22076514, 0.8264602).unwrap().into();
    let pb = pose(
        [3.7056255, -1.1971633, -0.7784303],
        [-0.49420983, 0.4123806, 0.17703734, 0.7445513],
    );
    check(&a, &pa, &b, &pb);
    check(&b, &pb, &a, &pa);
}

/// A small xorshift generator (deterministic inputs, no dependency).
struct Rng(u64);
impl Rng {
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }
    fn v(&mut self, h: f32) -> Vec3 {
        Vec3::new(self.f(-h, h), self.f(-h, h), self.f(-h, h))
    }
    fn pose(&mut self) -> Pose3 {
        let q = Quat::from_xyzw(self.f(-1.0, 1.0), self.f(-1.0, 1.0), self.f(-1.0, 1.0), 1.0);
        pose(self.v(1.5).into(), q.normalize().into())
    }
}

#[test]
fn round_rims_against_triangles_attain_their_distance() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..400 {
        let (h, r) = (rng.f(0.1, 1.5), rng.f(0.1, 1.5));
        let a: Shape = if i % 2 == 0 {
            Cylinder::new(h, r).unwrap().into()
        } else {
            Cone::new(h, r).unwrap().into()
        };
        let Ok(t) = Triangle::new(rng.v(1.5), rng.v(1.5), rng.v(1.5)) else {
            continue;
        };
        let b: Shape = t.into();
        let (pa, pb) = (rng.pose(), rng.pose());
        check(&a, &pa, &b, &pb);
    }
}
