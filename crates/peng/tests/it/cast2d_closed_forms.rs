//! Closed-form checks of the 2D casts: circles, swept SAT of boxes and
//! rotated boxes, misses where the per-axis overlap intervals are disjoint,
//! start-time statuses, a rotating rod hitting a wall, compound and polyline
//! targets, degenerate input.

use peng::d2::*;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};

fn rect(hx: f32, hy: f32) -> Shape {
    Rect::new(Vec2::new(hx, hy)).unwrap().into()
}

fn at(x: f32, y: f32) -> Pose2 {
    Pose2::from_translation(Vec2::new(x, y))
}

fn opts(max_time: f32) -> CastOptions {
    CastOptions {
        max_time,
        ..CastOptions::default()
    }
}

fn close(a: Vec2, b: Vec2, eps: f32) -> bool {
    (a - b).length() <= eps
}

#[test]
fn circles_meet_at_the_quadratic_root() {
    // Gap 10 - 3 = 7 closed at speed 4.
    let h = cast_circles(
        Vec2::ZERO,
        1.0,
        Vec2::X,
        Vec2::new(10.0, 0.0),
        2.0,
        Vec2::new(-3.0, 0.0),
        &opts(2.0),
    )
    .unwrap();
    assert!((h.time - 1.75).abs() < 1e-6, "{h:?}");
    assert_eq!(h.status, CastStatus::Hit);
    assert!(close(h.normal, Vec2::X, 1e-6));
    assert!(close(h.point_a, Vec2::new(2.75, 0.0), 1e-5));
    assert!(close(h.point_b, Vec2::new(2.75, 0.0), 1e-5));
    // Off-centre: |(10 - 4t, 1.2)| = 2 at 10 - 4t = 1.6, t = 2.1.
    let b = Vec2::new(10.0, 1.2);
    let h = cast_circles(
        Vec2::ZERO,
        1.0,
        Vec2::ZERO,
        b,
        1.0,
        Vec2::new(-4.0, 0.0),
        &opts(3.0),
    )
    .unwrap();
    assert!((h.time - 2.1).abs() < 1e-5, "{h:?}");
    assert!(close(h.normal, Vec2::new(0.8, 0.6), 1e-5));
    // Passing by 2.0001 > 2: no contact; too short a cast: none either.
    let b = Vec2::new(10.0, 2.0001);
    assert!(cast_circles(
        Vec2::ZERO,
        1.0,
        Vec2::ZERO,
        b,
        1.0,
        Vec2::new(-4.0, 0.0),
        &opts(9.0)
    )
    .is_none());
    let b = Vec2::new(10.0, 1.2);
    assert!(cast_circles(
        Vec2::ZERO,
        1.0,
        Vec2::ZERO,
        b,
        1.0,
        Vec2::new(-4.0, 0.0),
        &opts(2.0)
    )
    .is_none());
    // Target distance 0.5: contact when the centres are 2.5 apart: t = 1.875.
    let o = CastOptions {
        target_distance: 0.5,
        ..opts(2.0)
    };
    let h = cast_circles(
        Vec2::ZERO,
        1.0,
        Vec2::X,
        Vec2::new(10.0, 0.0),
        2.0,
        Vec2::new(-3.0, 0.0),
        &o,
    )
    .unwrap();
    assert!((h.time - 1.625).abs() < 1e-6, "{h:?}");
    // The same through cast_linear.
    let (ca, cb): (Shape, Shape) = (
        Circle::new(1.0).unwrap().into(),
        Circle::new(2.0).unwrap().into(),
    );
    let h = cast_linear(
        &ca,
        &at(0.0, 0.0),
        Vec2::X,
        &cb,
        &at(10.0, 0.0),
        Vec2::new(-3.0, 0.0),
        &opts(2.0),
    )
    .unwrap();
    assert!((h.time - 1.75).abs() < 1e-6);
}

#[test]
fn circles_at_the_start() {
    let o = opts(1.0);
    let h = cast_circles(
        Vec2::ZERO,
        1.0,
        Vec2::ZERO,
        Vec2::new(1.5, 0.0),
        1.0,
        Vec2::X,
        &o,
    )
    .unwrap();
    assert_eq!(h.status, CastStatus::Penetrating);
    assert!((h.depth - 0.5).abs() < 1e-6 && h.time == 0.0);
    let h = cast_circles(
        Vec2::ZERO,
        1.0,
        Vec2::ZERO,
        Vec2::new(2.0, 0.0),
        1.0,
        Vec2::NEG_X,
        &o,
    )
    .unwrap();
    assert_eq!(h.status, CastStatus::Touching);
    assert!(cast_circles(
        Vec2::ZERO,
        1.0,
        Vec2::ZERO,
        Vec2::new(2.0, 0.0),
        1.0,
        Vec2::X,
        &o
    )
    .is_none());
    // Coincident centres: +x normal.
    let h = cast_circles(Vec2::ZERO, 1.0, Vec2::ZERO, Vec2::ZERO, 1.0, Vec2::X, &o).unwrap();
    assert_eq!(h.normal, Vec2::X);
    assert!((h.depth - 2.0).abs() < 1e-6);
}

/// Both polygon casts, which must agree on these exact cases.
fn both(
    a: &Shape,
    pa: &Pose2,
    va: Vec2,
    b: &Shape,
    pb: &Pose2,
    vb: Vec2,
    o: &CastOptions,
) -> [Option<CastHit2>; 2] {
    [
        swept_sat(a, pa, va, b, pb, vb, o),
        cast_linear(a, pa, va, b, pb, vb, o),
    ]
}

#[test]
fn boxes_enter_on_the_last_axis() {
    // B's left face at 5 - 0.5 - 4t reaches A's right face at 1: t = 0.875.
    for h in both(
        &rect(1.0, 1.0),
        &at(0.0, 0.0),
        Vec2::ZERO,
        &rect(0.5, 0.5),
        &at(5.0, 0.3),
        Vec2::new(-4.0, 0.0),
        &opts(1.0),
    ) {
        let h = h.unwrap();
        assert!((h.time - 0.875).abs() < 1e-5, "{h:?}");
        assert!(close(h.normal, Vec2::X, 1e-5), "{h:?}");
        assert_eq!(h.status, CastStatus::Hit);
        assert!((h.point_a.x - 1.0).abs() < 1e-5 && (h.point_b.x - 1.0).abs() < 1e-5);
    }
    // swept SAT's point is the middle of the face overlap: y in [-0.2, 0.8].
    let h = swept_sat(
        &rect(1.0, 1.0),
        &at(0.0, 0.0),
        Vec2::ZERO,
        &rect(0.5, 0.5),
        &at(5.0, 0.3),
        Vec2::new(-4.0, 0.0),
        &opts(1.0),
    )
    .unwrap();
    assert!(close(h.point_a, Vec2::new(1.0, 0.3), 1e-5), "{h:?}");
    // A moving instead of B, from the other side: normal -x, times equal.
    for h in both(
        &rect(1.0, 1.0),
        &at(0.0, 0.0),
        Vec2::new(-4.0, 0.0),
        &rect(0.5, 0.5),
        &at(-5.0, 0.3),
        Vec2::ZERO,
        &opts(1.0),
    ) {
        let h = h.unwrap();
        assert!((h.time - 0.875).abs() < 1e-5, "{h:?}");
        assert!(close(h.normal, Vec2::NEG_X, 1e-5));
        // A moved: its face is at -1 - 3.5 = -4.5.
        assert!((h.point_a.x + 4.5).abs() < 1e-4, "{h:?}");
    }
}

#[test]
fn rotated_box_vertex_hits_a_face() {
    // A diamond (square of half side 0.5 turned by 45°): its left vertex is
    // 0.5·√2 left of its centre, at x = 5 - 0.7071 - 2t, reaching x = 1 at
    // t = (4 - 0.5√2) / 2; it moves down by 0.25 per unit.
    let t = (4.0 - 0.5 * 2f32.sqrt()) / 2.0;
    let pb = Pose2::new(Vec2::new(5.0, 0.5), FRAC_PI_4);
    for h in both(
        &rect(1.0, 1.0),
        &at(0.0, 0.0),
        Vec2::ZERO,
        &rect(0.5, 0.5),
        &pb,
        Vec2::new(-2.0, -0.25),
        &opts(2.0),
    ) {
        let h = h.unwrap();
        assert!((h.time - t).abs() < 1e-5, "{h:?}");
        assert!(close(h.normal, Vec2::X, 1e-4), "{h:?}");
        assert!(
            close(h.point_a, Vec2::new(1.0, 0.5 - 0.25 * t), 1e-4),
            "{h:?}"
        );
    }
    // A rotated triangle's face hitting a box corner: the triangle's face
    // normal is the contact normal. Triangle with the face x + y = 0 facing
    // (-1,-1)/√2, placed so that the face passes (3, 3) - (2,2)... moving
    // along -(1,1): A's corner (1,1) is on the face when the face's offset
    // (x + y)/√2 reaches 2/√2: from 6/√2 at speed 2√2/√2... closed form below.
    let tri: Shape = Triangle::new(
        Vec2::new(1.0, -1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, 1.0),
    )
    .unwrap()
    .into();
    // Local face from (1,-1) to (-1,1): x + y = 0, outward normal (-1,-1)/√2
    // (the third vertex (1,1) is on the + side). Placed at (3,3): the face is
    // x + y = 6; moving by (-1,-1)·t: x + y = 6 - 2t reaches 2 at t = 2.
    for h in both(
        &rect(1.0, 1.0),
        &at(0.0, 0.0),
        Vec2::ZERO,
        &tri,
        &at(3.0, 3.0),
        Vec2::new(-1.0, -1.0),
        &opts(3.0),
    ) {
        let h = h.unwrap();
        assert!((h.time - 2.0).abs() < 1e-5, "{h:?}");
        let n = Vec2::new(1.0, 1.0).normalize();
        assert!(close(h.normal, n, 1e-4), "{h:?}");
        assert!(close(h.point_a, Vec2::new(1.0, 1.0), 1e-4), "{h:?}");
    }
}

#[test]
fn disjoint_axis_intervals_mean_no_contact() {
    // x overlaps during [0.25, 0.75], y during [1, 3]: never both.
    for h in both(
        &rect(1.0, 1.0),
        &at(0.0, 0.0),
        Vec2::ZERO,
        &rect(0.5, 0.5),
        &at(3.0, 3.0),
        Vec2::new(-6.0, -1.5),
        &opts(5.0),
    ) {
        assert!(h.is_none(), "{h:?}");
    }
    // Passing above; and moving away; and still.
    for v in [Vec2::new(-10.0, 0.0), Vec2::new(1.0, 0.0), Vec2::ZERO] {
        for h in both(
            &rect(1.0, 1.0),
            &at(0.0, 0.0),
            Vec2::ZERO,
            &rect(0.5, 0.5),
            &at(5.0, 2.0),
            v,
            &opts(1.0),
        ) {
            assert!(h.is_none(), "{v} {h:?}");
        }
    }
    // The y interval alone would allow it, x is too late for max_time.
    for h in both(
        &rect(1.0, 1.0),
        &at(0.0, 0.0),
        Vec2::ZERO,
        &rect(0.5, 0.5),
        &at(5.0, 0.0),
        Vec2::new(-3.0, 0.0),
        &opts(1.0),
    ) {
        assert!(h.is_none(), "{h:?}");
    }
}

#[test]
fn penetrating_and_touching_at_the_start() {
    let (a, b) = (rect(1.0, 1.0), rect(1.0, 1.0));
    // Overlap 0.5 along x: penetrating even when moving apart.
    for v in [Vec2::X, Vec2::NEG_X] {
        for h in both(
            &a,
            &at(0.0, 0.0),
            Vec2::ZERO,
            &b,
            &at(1.5, 0.2),
            v,
            &opts(1.0),
        ) {
            let h = h.unwrap();
            assert_eq!(h.status, CastStatus::Penetrating);
            assert_eq!(h.time, 0.0);
            assert!((h.depth - 0.5).abs() < 1e-5, "{h:?}");
            assert!(close(h.normal, Vec2::X, 1e-5));
        }
    }
    // Face to face: touching when approaching or sliding, none when leaving.
    for v in [Vec2::NEG_X, Vec2::Y] {
        for h in both(
            &a,
            &at(0.0, 0.0),
            Vec2::ZERO,
            &b,
            &at(2.0, 0.2),
            v,
            &opts(1.0),
        ) {
            let h = h.unwrap();
            assert_eq!(h.status, CastStatus::Touching, "{v} {h:?}");
            assert_eq!(h.time, 0.0);
        }
    }
    for h in both(
        &a,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &b,
        &at(2.0, 0.2),
        Vec2::X,
        &opts(1.0),
    ) {
        assert!(h.is_none(), "{h:?}");
    }
    // Within the tolerance (1e-4 of the size) of touching counts as touching
    // for cast_linear; 1e-2 away is a hit at 0.01 / speed.
    let h = cast_linear(
        &a,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &b,
        &at(2.00005, 0.2),
        Vec2::NEG_X,
        &opts(1.0),
    )
    .unwrap();
    assert_eq!(h.status, CastStatus::Touching);
    let h = cast_linear(
        &a,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &b,
        &at(2.01, 0.2),
        Vec2::NEG_X,
        &opts(1.0),
    )
    .unwrap();
    assert_eq!(h.status, CastStatus::Hit);
    assert!((h.time - 0.01).abs() < 2e-4, "{h:?}");
}

#[test]
fn rotating_rod_hits_a_wall_at_the_closed_form_angle() {
    // A rod of length 1 pinned at the origin by one end, upright, turning
    // clockwise at 1 rad per unit: its free end is at (sin t, cos t). A wall
    // whose left face is x = 0.8 is hit at t = asin(0.8), at (0.8, 0.6).
    let rod: Shape = Segment::new(Vec2::ZERO, Vec2::new(1.0, 0.0))
        .unwrap()
        .into();
    let wall = rect(0.5, 5.0);
    let m_rod = Motion2 {
        start: Pose2::new(Vec2::ZERO, FRAC_PI_2),
        local_center: Vec2::ZERO,
        linvel: Vec2::ZERO,
        angvel: -1.0,
    };
    let m_wall = Motion2::fixed(at(1.3, 0.0));
    let o = CastOptions {
        tolerance: 1e-5,
        ..opts(2.0)
    };
    let exact = 0.8f32.asin();
    let h = cast_nonlinear(&rod, &m_rod, &wall, &m_wall, &o).unwrap();
    // Early by at most tol / (approach speed cos t = 0.6), never late.
    assert!(h.time <= exact + 1e-6, "{h:?} vs {exact}");
    assert!(h.time >= exact - 1e-5 / 0.6 - 1e-6, "{h:?} vs {exact}");
    assert!(close(h.normal, Vec2::X, 1e-3), "{h:?}");
    assert!(close(h.point_a, Vec2::new(0.8, 0.6), 1e-3), "{h:?}");
    assert_eq!(h.status, CastStatus::Hit);
    // Swapped roles: the same time, the normal reversed.
    let s = cast_nonlinear(&wall, &m_wall, &rod, &m_rod, &o).unwrap();
    assert!((s.time - h.time).abs() < 1e-5);
    assert!(close(s.normal, -h.normal, 1e-3));
    // Turning the other way, the free end swings away, (-sin t, cos t), and
    // comes round to x = 0.8 at t = π + asin(0.8) (at y = -0.6): not within
    // max_time 2, found with max_time 5.
    let away = Motion2 {
        angvel: 1.0,
        ..m_rod
    };
    assert!(cast_nonlinear(&rod, &away, &wall, &m_wall, &o).is_none());
    let long = CastOptions { max_time: 5.0, ..o };
    let h = cast_nonlinear(&rod, &away, &wall, &m_wall, &long).unwrap();
    let exact = std::f32::consts::PI + 0.8f32.asin();
    assert!(
        h.time <= exact + 1e-5 && h.time >= exact - 1e-4,
        "{h:?} vs {exact}"
    );
    assert!(close(h.point_a, Vec2::new(0.8, -0.6), 1e-3), "{h:?}");
    // A linear motion through cast_nonlinear agrees with cast_linear.
    let a = rect(1.0, 1.0);
    let (m_a, m_b) = (
        Motion2::fixed(at(0.0, 0.0)),
        Motion2::linear(at(5.0, 0.3), Vec2::new(-4.0, 0.0)),
    );
    let h = cast_nonlinear(&a, &m_a, &rect(0.5, 0.5), &m_b, &o).unwrap();
    assert!(h.time <= 0.875 + 1e-6 && h.time >= 0.875 - 1e-5, "{h:?}");
}

fn two_box_compound() -> Shape {
    Compound::new(vec![
        (at(0.0, 0.0), rect(0.5, 0.5)),
        (at(3.0, 0.0), rect(0.5, 0.5)),
    ])
    .unwrap()
    .into()
}

#[test]
fn compound_targets() {
    let c = two_box_compound();
    let ball: Shape = Circle::new(0.25).unwrap().into();
    // Falling on the second part's top (y = 0.5): centre at 0.75, t = 0.425.
    let h = cast_linear(
        &ball,
        &at(3.2, 5.0),
        Vec2::new(0.0, -10.0),
        &c,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0),
    )
    .unwrap();
    assert!((h.time - 0.425).abs() < 1e-4, "{h:?}");
    assert!(close(h.normal, Vec2::NEG_Y, 1e-3), "{h:?}");
    // The compound as A, moving up instead: same time, normal up.
    let h = cast_linear(
        &c,
        &at(0.0, 0.0),
        Vec2::new(0.0, 10.0),
        &ball,
        &at(3.2, 5.0),
        Vec2::ZERO,
        &opts(1.0),
    )
    .unwrap();
    assert!((h.time - 0.425).abs() < 1e-4, "{h:?}");
    assert!(close(h.normal, Vec2::Y, 1e-3), "{h:?}");
    // Between the parts: no contact.
    assert!(cast_linear(
        &ball,
        &at(1.5, 5.0),
        Vec2::new(0.0, -10.0),
        &c,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0)
    )
    .is_none());
    // Sweeping sideways at y = 0: the nearer part (the first) is hit first:
    // from x = -3 at speed 10, the ball's right side meets x = -0.5 at 0.225.
    let h = cast_linear(
        &ball,
        &at(-3.0, 0.0),
        Vec2::new(10.0, 0.0),
        &c,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0),
    )
    .unwrap();
    assert!((h.time - 0.225).abs() < 1e-4, "{h:?}");
    // The compound turning about the first part's centre by a quarter turn
    // per unit: the second part swings from (3, 0) towards (0, 3); a ball
    // waiting at (0, 3) is reached when the part's near face gets there.
    let m_c = Motion2 {
        start: at(0.0, 0.0),
        local_center: Vec2::ZERO,
        linvel: Vec2::ZERO,
        angvel: FRAC_PI_2,
    };
    let m_ball = Motion2::fixed(at(0.0, 3.0));
    let h = cast_nonlinear(&c, &m_c, &ball, &m_ball, &opts(1.0)).unwrap();
    // The part's leading face (local y = 0.5, from x = 2.5 to 3.5) is at
    // angle θ + atan(0.5/3)...: the ball centre at radius 3 meets the face
    // line y' = 0.5 + 0.25 in the part frame when 3 sin(π/2 - θ) = 0.75.
    let exact = FRAC_PI_2 - (0.75f32 / 3.0).asin();
    let t = exact / FRAC_PI_2;
    assert!(h.time <= t + 1e-5 && h.time >= t - 1e-3, "{h:?} vs {t}");
}

#[test]
fn polyline_targets() {
    let ground: Shape = Polyline::new(
        vec![
            Vec2::new(-10.0, 0.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(10.0, 5.0),
        ],
        None,
    )
    .unwrap()
    .into();
    let b = rect(0.5, 0.5);
    // Falling flat on the level part: bottom reaches 0 at t = 2.5 / 5.
    let h = cast_linear(
        &b,
        &at(-5.0, 3.0),
        Vec2::new(0.0, -5.0),
        &ground,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0),
    )
    .unwrap();
    assert!((h.time - 0.5).abs() < 1e-4, "{h:?}");
    assert!(close(h.normal, Vec2::NEG_Y, 1e-3), "{h:?}");
    // Sliding right along y = 0.6 (0.1 above the ground): the slope
    // y = x / 2 is first touched by the box's bottom-right corner (x+0.5,
    // 0.1) when x + 0.5 = 0.2, i.e. from x = -5 at speed 10: t = 0.47.
    let h = cast_linear(
        &b,
        &at(-5.0, 0.6),
        Vec2::new(10.0, 0.0),
        &ground,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0),
    )
    .unwrap();
    assert!((h.time - 0.47).abs() < 1e-4, "{h:?}");
    // Nonlinear: the same fall, the box turning slowly; never after the
    // linear contact and within a short time before it.
    let m = Motion2 {
        start: at(-5.0, 3.0),
        local_center: Vec2::ZERO,
        linvel: Vec2::new(0.0, -5.0),
        angvel: 0.0,
    };
    let h = cast_nonlinear(&b, &m, &ground, &Motion2::fixed(at(0.0, 0.0)), &opts(1.0)).unwrap();
    assert!(h.time <= 0.5 + 1e-6 && h.time >= 0.5 - 1e-3, "{h:?}");
    let spun = Motion2 { angvel: 0.3, ..m };
    let h = cast_nonlinear(
        &b,
        &spun,
        &ground,
        &Motion2::fixed(at(0.0, 0.0)),
        &opts(1.0),
    )
    .unwrap();
    // At the hit, a corner touches: the distance is ~0 and not negative.
    let d = distance(&b, &spun.pose_at(h.time), &ground, &at(0.0, 0.0));
    assert!(d.distance >= -1e-5 && d.distance <= 1e-3, "{h:?} {d:?}");
    assert!(h.time < 0.5);
}

#[test]
fn scales_and_degenerate_input() {
    // The box example scaled by 1e5 and 1e-4: the time does not change.
    for k in [1e5f32, 1e-4] {
        for h in both(
            &rect(k, k),
            &at(0.0, 0.0),
            Vec2::ZERO,
            &rect(0.5 * k, 0.5 * k),
            &at(5.0 * k, 0.3 * k),
            Vec2::new(-4.0 * k, 0.0),
            &opts(1.0),
        ) {
            let h = h.unwrap();
            assert!((h.time - 0.875).abs() < 1e-4, "{k} {h:?}");
        }
    }
    // Zero-size shapes: a point falling on a point; on a segment.
    let p = rect(0.0, 0.0);
    let h = cast_linear(
        &p,
        &at(0.0, 1.0),
        Vec2::new(0.0, -2.0),
        &p,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0),
    );
    assert!(h.is_some_and(|h| (h.time - 0.5).abs() < 1e-4), "{h:?}");
    let seg: Shape = Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0))
        .unwrap()
        .into();
    for h in both(
        &p,
        &at(0.5, 1.0),
        Vec2::new(0.0, -2.0),
        &seg,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0),
    ) {
        assert!(h.is_some_and(|h| (h.time - 0.5).abs() < 1e-4), "{h:?}");
    }
    // Collinear segments sliding into each other along their line.
    for h in both(
        &seg,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &seg,
        &at(4.0, 0.0),
        Vec2::new(-4.0, 0.0),
        &opts(1.0),
    ) {
        assert!(h.is_some_and(|h| (h.time - 0.5).abs() < 1e-4), "{h:?}");
    }
    // The point passes beside the segment's end: none.
    for h in both(
        &p,
        &at(1.5, 1.0),
        Vec2::new(0.0, -2.0),
        &seg,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0),
    ) {
        assert!(h.is_none(), "{h:?}");
    }
    // NaN never panics.
    let nan = Vec2::new(f32::NAN, 0.0);
    let a = rect(1.0, 1.0);
    let _ = both(
        &a,
        &at(0.0, 0.0),
        nan,
        &a,
        &at(3.0, 0.0),
        Vec2::ZERO,
        &opts(1.0),
    );
    let _ = cast_circles(Vec2::ZERO, 1.0, nan, Vec2::X, 1.0, Vec2::ZERO, &opts(1.0));
    let m = Motion2 {
        angvel: f32::NAN,
        ..Motion2::fixed(at(0.0, 0.0))
    };
    let _ = cast_nonlinear(&a, &m, &a, &Motion2::fixed(at(3.0, 0.0)), &opts(1.0));
    let _ = cast_nonlinear(
        &a,
        &m,
        &two_box_compound(),
        &Motion2::fixed(at(3.0, 0.0)),
        &opts(1.0),
    );
    // Non-polygonal shapes: swept SAT gives None, cast_linear answers.
    let ball: Shape = Circle::new(0.5).unwrap().into();
    assert!(swept_sat(
        &ball,
        &at(3.0, 0.0),
        Vec2::new(-4.0, 0.0),
        &a,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0)
    )
    .is_none());
    let h = cast_linear(
        &ball,
        &at(3.0, 0.0),
        Vec2::new(-4.0, 0.0),
        &a,
        &at(0.0, 0.0),
        Vec2::ZERO,
        &opts(1.0),
    )
    .unwrap();
    assert!((h.time - 0.375).abs() < 1e-4, "{h:?}");
}

#[test]
fn nonlinear_start_contacts() {
    // A rod of length 0.8 pinned at the origin at angle 0.3, its free end
    // touching a wall's face x = 0.8 cos 0.3 at the start. Turning
    // counter-clockwise the end leaves the wall (separating: no contact at
    // the start) and comes back at angle 2π - 0.3, t = 2π - 0.6; turning
    // clockwise it pushes into the wall: touching at the start.
    let rod: Shape = Segment::new(Vec2::ZERO, Vec2::new(0.8, 0.0))
        .unwrap()
        .into();
    let wall = rect(0.5, 5.0);
    let face = 0.8 * 0.3f32.cos();
    let m_wall = Motion2::fixed(at(face + 0.5, 0.0));
    let m = Motion2 {
        start: Pose2::new(Vec2::ZERO, 0.3),
        local_center: Vec2::ZERO,
        linvel: Vec2::ZERO,
        angvel: 1.0,
    };
    assert!(cast_nonlinear(&rod, &m, &wall, &m_wall, &opts(5.0)).is_none());
    let h = cast_nonlinear(&rod, &m, &wall, &m_wall, &opts(7.0)).unwrap();
    let back = 2.0 * std::f32::consts::PI - 0.6;
    assert_eq!(h.status, CastStatus::Hit);
    assert!(h.time <= back + 1e-4 && h.time > back - 1e-2, "{h:?}");
    let m = Motion2 { angvel: -1.0, ..m };
    let h = cast_nonlinear(&rod, &m, &wall, &m_wall, &opts(1.0)).unwrap();
    assert_eq!(h.status, CastStatus::Touching);
    // Pushed into the wall instead: touching at the start.
    let m = Motion2::linear(Pose2::new(Vec2::ZERO, 0.3), Vec2::new(1.0, 0.3));
    let h = cast_nonlinear(&rod, &m, &wall, &m_wall, &opts(1.0)).unwrap();
    assert_eq!(h.status, CastStatus::Touching, "{h:?}");
    assert_eq!(h.time, 0.0);
    // Sunk 0.1 into it (the end at x = 0.8 cos 0.3 + 0.1): depth 0.1.
    let h = cast_nonlinear(
        &rod,
        &Motion2::fixed(Pose2::new(Vec2::new(0.1, 0.0), 0.3)),
        &wall,
        &m_wall,
        &opts(1.0),
    )
    .unwrap();
    assert_eq!(h.status, CastStatus::Penetrating);
    assert!((h.depth - 0.1).abs() < 1e-5, "{h:?}");
}

#[test]
fn scaled_nonlinear_and_circles() {
    // The rotating rod of `rotating_rod_hits_a_wall_at_the_closed_form_angle`
    // scaled by 1e5 and 1e-4 (angles do not scale): the same time.
    let exact = 0.8f32.asin();
    for k in [1e5f32, 1e-4] {
        let rod: Shape = Segment::new(Vec2::ZERO, Vec2::new(k, 0.0)).unwrap().into();
        let m_rod = Motion2 {
            start: Pose2::new(Vec2::ZERO, FRAC_PI_2),
            local_center: Vec2::ZERO,
            linvel: Vec2::ZERO,
            angvel: -1.0,
        };
        let m_wall = Motion2::fixed(at(1.3 * k, 0.0));
        let h = cast_nonlinear(&rod, &m_rod, &rect(0.5 * k, 5.0 * k), &m_wall, &opts(2.0)).unwrap();
        assert!(
            h.time <= exact + 1e-5 && h.time >= exact - 1e-3,
            "{k} {h:?}"
        );
        let h = cast_circles(
            Vec2::ZERO,
            k,
            Vec2::new(k, 0.0),
            Vec2::new(10.0 * k, 0.0),
            2.0 * k,
            Vec2::new(-3.0 * k, 0.0),
            &opts(2.0),
        )
        .unwrap();
        assert!((h.time - 1.75).abs() < 1e-5, "{k} {h:?}");
    }
}

#[test]
fn target_distance() {
    // Contact at distance 0.5: B's left face at 4.5 - 4t reaches 1.5 at 0.75.
    let o = CastOptions {
        target_distance: 0.5,
        ..opts(1.0)
    };
    let (a, b) = (rect(1.0, 1.0), rect(0.5, 0.5));
    let (pa, pb, vb) = (at(0.0, 0.0), at(5.0, 0.3), Vec2::new(-4.0, 0.0));
    for h in both(&a, &pa, Vec2::ZERO, &b, &pb, vb, &o) {
        let h = h.unwrap();
        assert!((h.time - 0.75).abs() < 1e-4, "{h:?}");
        assert!(((h.point_b - h.point_a).x - 0.5).abs() < 1e-3, "{h:?}");
    }
    let (ma, mb) = (Motion2::fixed(pa), Motion2::linear(pb, vb));
    let h = cast_nonlinear(&a, &ma, &b, &mb, &o).unwrap();
    assert!(h.time <= 0.75 + 1e-6 && h.time >= 0.75 - 1e-3, "{h:?}");
    // Already within the target distance and approaching: touching.
    let h = cast_linear(&a, &pa, Vec2::ZERO, &b, &at(1.8, 0.3), vb, &o).unwrap();
    assert_eq!(h.status, CastStatus::Touching);
}
