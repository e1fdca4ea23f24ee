//! Axis-aligned boxes: containment, measures, intersection, the slab ray test and
//! the conservative (Arvo) versus tight box update under rotation.

use peng::bound::{Aabb, Aabb2, Aabb3};
use peng::math::{Pose2, Pose3, Quat, Vec2, Vec3};
use peng::shape::{d2, d3};
use proptest::prelude::*;

fn b3(min: [f32; 3], max: [f32; 3]) -> Aabb3 {
    Aabb3::new(Vec3::from(min), Vec3::from(max))
}

#[test]
fn contains_boxes() {
    let outer = b3([0.0; 3], [4.0; 3]);
    assert!(outer.contains(&b3([1.0; 3], [2.0; 3])));
    assert!(outer.contains(&outer), "a closed box contains itself");
    assert!(!outer.contains(&b3([1.0; 3], [4.5, 2.0, 2.0])));
    assert!(!outer.contains(&b3([-0.1, 1.0, 1.0], [2.0; 3])));
    assert!(outer.contains(&Aabb3::EMPTY));
    assert!(!Aabb3::EMPTY.contains(&outer));
    assert!(Aabb3::EMPTY.contains(&Aabb3::EMPTY));
}

#[test]
fn measures() {
    let b = b3([-1.0, 0.0, 2.0], [1.0, 3.0, 6.0]);
    assert_eq!(b.measure(), 2.0 * 3.0 * 4.0);
    assert_eq!(b.boundary_measure(), 2.0 * (6.0 + 12.0 + 8.0));
    let flat = b3([0.0; 3], [1.0, 1.0, 0.0]);
    assert_eq!(flat.volume(), 0.0);
    assert_eq!(flat.surface_area(), 2.0);
    let r = Aabb2::new(Vec2::new(-1.0, -2.0), Vec2::new(2.0, 2.0));
    assert_eq!(r.area(), 12.0);
    assert_eq!(r.perimeter(), 14.0);
    assert_eq!(Aabb2::EMPTY.area(), 0.0);
    assert_eq!(Aabb2::EMPTY.perimeter(), 0.0);
}

#[test]
fn intersection_of_boxes() {
    let a = b3([0.0; 3], [2.0; 3]);
    let b = b3([1.0, -1.0, 1.5], [3.0, 1.0, 5.0]);
    assert_eq!(
        a.intersection(&b),
        Some(b3([1.0, 0.0, 1.5], [2.0, 1.0, 2.0]))
    );
    assert_eq!(b.intersection(&a), a.intersection(&b));
    // Touching boxes share a flat face.
    let c = b3([2.0, 0.0, 0.0], [3.0, 2.0, 2.0]);
    let i = a.intersection(&c).expect("touching boxes overlap");
    assert_eq!(i.volume(), 0.0);
    assert_eq!(i.min.x, 2.0);
    assert_eq!(a.intersection(&b3([2.1, 0.0, 0.0], [3.0; 3])), None);
    assert_eq!(a.intersection(&Aabb3::EMPTY), None);
}

#[test]
fn ray_closed_forms() {
    let b = b3([1.0, -1.0, -1.0], [3.0, 1.0, 1.0]);
    // Head-on along +x.
    assert_eq!(
        b.ray_interval(Vec3::ZERO, Vec3::X, f32::INFINITY),
        Some((1.0, 3.0))
    );
    // Parameters in units of |dir|.
    assert_eq!(
        b.ray_interval(Vec3::ZERO, Vec3::X * 2.0, f32::INFINITY),
        Some((0.5, 1.5))
    );
    // max_t cuts the interval, or the whole hit.
    assert_eq!(b.ray_interval(Vec3::ZERO, Vec3::X, 2.0), Some((1.0, 2.0)));
    assert_eq!(b.ray_interval(Vec3::ZERO, Vec3::X, 0.5), None);
    // Pointing away.
    assert_eq!(b.ray_interval(Vec3::ZERO, -Vec3::X, f32::INFINITY), None);
    // Starting inside: entry at 0.
    assert_eq!(
        b.ray_interval(Vec3::new(2.0, 0.0, 0.0), Vec3::X, 10.0),
        Some((0.0, 1.0))
    );
    // Diagonal ray through the edge region.
    let (t0, t1) = b
        .ray_interval(Vec3::new(0.0, -2.0, 0.0), Vec3::new(1.0, 1.0, 0.0), 100.0)
        .expect("hits");
    assert!((t0 - 1.0).abs() < 1e-6 && (t1 - 3.0).abs() < 1e-6);
}

#[test]
fn ray_zero_direction_components() {
    let b = b3([1.0, -1.0, -1.0], [3.0, 1.0, 1.0]);
    // Parallel to the y and z slabs, inside them.
    assert!(b
        .ray_interval(Vec3::new(0.0, 0.5, -0.5), Vec3::X, 10.0)
        .is_some());
    // Parallel, outside the y slab: miss, no NaN.
    assert_eq!(
        b.ray_interval(Vec3::new(0.0, 1.5, 0.0), Vec3::X, 10.0),
        None
    );
    // Origin exactly on the y = max plane, moving along it: closed box, hit.
    assert_eq!(
        b.ray_interval(Vec3::new(0.0, 1.0, 1.0), Vec3::X, 10.0),
        Some((1.0, 3.0))
    );
    // A subnormal direction component behaves like zero.
    assert_eq!(
        b.ray_interval(Vec3::new(0.0, 1.5, 0.0), Vec3::new(1.0, 1e-45, 0.0), 10.0),
        None
    );
    // 2D as well.
    let r = Aabb2::new(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0));
    assert_eq!(
        r.ray_interval(Vec2::new(0.0, -5.0), Vec2::Y, 100.0),
        Some((4.0, 6.0))
    );
    assert_eq!(r.ray_interval(Vec2::new(2.0, -5.0), Vec2::Y, 100.0), None);
}

#[test]
fn ray_nan_and_bad_input() {
    let b = b3([0.0; 3], [1.0; 3]);
    let nan = Vec3::new(f32::NAN, 0.5, 0.5);
    assert_eq!(b.ray_interval(nan, Vec3::X, 1.0), None);
    assert_eq!(b.ray_interval(Vec3::splat(0.5), nan, 1.0), None);
    assert_eq!(b.ray_interval(Vec3::splat(0.5), Vec3::X, f32::NAN), None);
    assert_eq!(b.ray_interval(Vec3::splat(0.5), Vec3::X, -1.0), None);
    assert_eq!(Aabb3::EMPTY.ray_interval(Vec3::ZERO, Vec3::X, 1.0), None);
    // A zero direction: the point test.
    assert_eq!(
        b.ray_interval(Vec3::splat(0.5), Vec3::ZERO, 1.0),
        Some((0.0, 1.0))
    );
    assert_eq!(b.ray_interval(Vec3::splat(2.0), Vec3::ZERO, 1.0), None);
    // Unbounded boxes (half-space bounds) work.
    let half = Aabb3::new(
        Vec3::new(f32::NEG_INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY),
        Vec3::new(f32::INFINITY, 0.0, f32::INFINITY),
    );
    assert_eq!(
        half.ray_interval(Vec3::new(3.0, 5.0, 1.0), -Vec3::Y, f32::INFINITY),
        Some((5.0, f32::INFINITY))
    );
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (-5.0f32..5.0, -5.0f32..5.0, -5.0f32..5.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn boxes() -> impl Strategy<Value = Aabb3> {
    (vec3(), (0.0f32..3.0, 0.0f32..3.0, 0.0f32..3.0))
        .prop_map(|(c, (x, y, z))| Aabb3::from_center_half_extents(c, Vec3::new(x, y, z)))
}

fn quat() -> impl Strategy<Value = Quat> {
    (vec3(), -3.0f32..3.0).prop_map(|(axis, angle)| {
        let a = axis.try_normalize().unwrap_or(Vec3::Z);
        Quat::from_axis_angle(a, angle)
    })
}

/// Distance from `p` to the box (0 inside).
fn dist(b: &Aabb3, p: Vec3) -> f32 {
    (b.min - p).max(p - b.max).max(Vec3::ZERO).length()
}

proptest! {
    #![proptest_config(crate::seeds::cases(400))]

    /// The interval's ends and middle are in the box; sampled points outside the
    /// interval are not (beyond rounding).
    #[test]
    fn ray_interval_matches_sampling(b in boxes(), o in vec3(), d in vec3(), max_t in 0.0f32..4.0) {
        let tol = 1e-4;
        let res = b.ray_interval(o, d, max_t);
        let at = |t: f32| o + d * t;
        let n = 200;
        match res {
            Some((t0, t1)) => {
                prop_assert!(0.0 <= t0 && t0 <= t1 && t1 <= max_t);
                for t in [t0, t1, 0.5 * (t0 + t1)] {
                    prop_assert!(dist(&b, at(t)) <= tol, "t={t} dist={}", dist(&b, at(t)));
                }
                for k in 0..=n {
                    let t = max_t * k as f32 / n as f32;
                    if t < t0 - 1e-3 || t > t1 + 1e-3 {
                        // Outside the interval: not inside the box (it is convex, so
                        // the interval is the whole inside part of the ray).
                        prop_assert!(!b.loosened(-tol).contains_point(at(t)), "t={t} inside but not in [{t0},{t1}]");
                    }
                }
            }
            None => {
                for k in 0..=n {
                    let t = max_t * k as f32 / n as f32;
                    prop_assert!(!b.loosened(-tol).contains_point(at(t)), "missed but t={t} is inside");
                }
            }
        }
    }

    /// Arvo's box holds every rotated corner and is exactly the box of them.
    #[test]
    fn transformed_is_box_of_rotated_corners_3d(b in boxes(), q in quat(), t in vec3()) {
        let pose = Pose3::new(t, q);
        let tb = b.transformed(&pose);
        let corners = (0..8).map(|i| {
            Vec3::new(
                if i & 1 == 0 { b.min.x } else { b.max.x },
                if i & 2 == 0 { b.min.y } else { b.max.y },
                if i & 4 == 0 { b.min.z } else { b.max.z },
            )
        });
        let exact = Aabb3::from_points(corners.map(|c| pose.transform_point(c)));
        prop_assert!((tb.min - exact.min).abs().max_element() < 1e-4);
        prop_assert!((tb.max - exact.max).abs().max_element() < 1e-4);
    }

    #[test]
    fn transformed_is_box_of_rotated_corners_2d(
        c in (-5.0f32..5.0, -5.0f32..5.0), h in (0.0f32..3.0, 0.0f32..3.0),
        angle in -4.0f32..4.0, t in (-5.0f32..5.0, -5.0f32..5.0),
    ) {
        let b = Aabb2::from_center_half_extents(Vec2::from(c), Vec2::from(h));
        let pose = Pose2::new(Vec2::from(t), angle);
        let tb = b.transformed(&pose);
        let corners = [b.min, Vec2::new(b.max.x, b.min.y), b.max, Vec2::new(b.min.x, b.max.y)];
        let exact = Aabb2::from_points(corners.map(|p| pose.transform_point(p)));
        prop_assert!((tb.min - exact.min).abs().max_element() < 1e-4);
        prop_assert!((tb.max - exact.max).abs().max_element() < 1e-4);
    }

    /// (a) conservative update of the box from the last frame contains (b) the
    /// tight box recomputed from the shape, for a cuboid moving from pose1 to pose2.
    #[test]
    fn conservative_update_contains_tight_box(q1 in quat(), q2 in quat(), t1 in vec3(), t2 in vec3()) {
        let cuboid: d3::Shape = d3::Cuboid::new(Vec3::new(2.0, 1.0, 0.5)).unwrap().into();
        let p1 = Pose3::new(t1, q1);
        let p2 = Pose3::new(t2, q2);
        let old = cuboid.aabb(&p1);
        let delta = p2.mul(&p1.inverse());
        let loose = old.transformed(&delta);
        let tight = cuboid.aabb(&p2);
        prop_assert!(loose.loosened(1e-4).contains(&tight));
        prop_assert!(tight.volume() <= loose.volume() * (1.0 + 1e-4));
    }
}

#[test]
fn conservative_versus_tight_rect_and_circle() {
    let rect: d2::Shape = d2::Rect::new(Vec2::new(2.0, 0.5)).unwrap().into();
    let circle: d2::Shape = d2::Circle::new(1.0).unwrap().into();
    let rot = Pose2::new(Vec2::new(3.0, -1.0), 0.6);
    // From the shape's own frame, Arvo's box of a rectangle is exact (the old
    // box is the rectangle), while a circle's is looser.
    let exact = rect.aabb(&Pose2::IDENTITY).transformed(&rot);
    let tight = rect.aabb(&rot);
    assert!((exact.min - tight.min).abs().max_element() < 1e-5);
    assert!((exact.max - tight.max).abs().max_element() < 1e-5);
    let loose = circle.aabb(&Pose2::IDENTITY).transformed(&rot);
    let tight = circle.aabb(&rot);
    assert!(loose.loosened(1e-5).contains(&tight));
    assert!(tight.area() < loose.area() * 0.99);
    // Rect first rotated by 0.6 then by another 0.6: the old box's corners are
    // not the rectangle's, so the update is looser than the recomputation.
    let p1 = Pose2::new(Vec2::ZERO, 0.6);
    let p2 = Pose2::new(Vec2::ZERO, 1.2);
    let loose = rect.aabb(&p1).transformed(&p2.mul(&p1.inverse()));
    let tight = rect.aabb(&p2);
    assert!(loose.loosened(1e-5).contains(&tight));
    assert!(tight.area() < loose.area() * 0.9);
    // The circle's tight box: [c - r, c + r]; Arvo's after 45°: half-extent r·√2.
    let q = Pose2::new(Vec2::ZERO, core::f32::consts::FRAC_PI_4);
    let l = circle.aabb(&Pose2::IDENTITY).transformed(&q);
    assert!((l.half_extents().x - 2f32.sqrt()).abs() < 1e-6);
    assert_eq!(circle.aabb(&q).half_extents(), Vec2::ONE);
}

#[test]
fn conservative_versus_tight_cuboid_and_ball() {
    let cuboid: d3::Shape = d3::Cuboid::new(Vec3::new(2.0, 1.0, 0.5)).unwrap().into();
    let ball: d3::Shape = d3::Ball::new(0.75).unwrap().into();
    let p1 = Pose3::new(Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_z(0.7));
    let p2 = Pose3::new(
        Vec3::new(1.5, 2.0, 2.0),
        Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.5)
            * Quat::from_rotation_z(0.7),
    );
    let delta = p2.mul(&p1.inverse());
    for shape in [&cuboid, &ball] {
        let loose = shape.aabb(&p1).transformed(&delta);
        let tight = shape.aabb(&p2);
        assert!(loose.loosened(1e-5).contains(&tight));
        assert!(
            tight.volume() < loose.volume() * 0.95,
            "tight {tight:?} loose {loose:?}"
        );
    }
    // With no rotation the two agree.
    let moved = Pose3::from_translation(Vec3::new(-4.0, 0.0, 1.0)).mul(&p1);
    let same = cuboid
        .aabb(&p1)
        .transformed(&Pose3::from_translation(Vec3::new(-4.0, 0.0, 1.0)));
    let tight = cuboid.aabb(&moved);
    assert!((same.min - tight.min).abs().max_element() < 1e-5);
    assert!((same.max - tight.max).abs().max_element() < 1e-5);
}

#[test]
fn transformed_edge_cases() {
    let pose = Pose3::new(Vec3::ONE, Quat::from_rotation_y(1.0));
    assert!(Aabb3::EMPTY.transformed(&pose).is_empty());
    let unbounded = Aabb3::new(Vec3::splat(f32::NEG_INFINITY), Vec3::new(1.0, 0.0, 1.0));
    let t = unbounded.transformed(&pose);
    assert_eq!(t, Aabb::everything());
    assert!(!t.min.is_nan() && !t.max.is_nan());
    assert!(Aabb2::EMPTY
        .transformed(&Pose2::new(Vec2::ONE, 0.3))
        .is_empty());
}
