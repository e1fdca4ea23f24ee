//! A chain's segment cutting a triangle's corner (soak seed 860315 of the
//! polyline differential test): the shapes overlap by the distance from the
//! corner to the segment, 5.07e-6, which peng reports (as a depth), while
//! parry2d reports them 3.2e-4 apart. The truth here is in f64: the segment
//! crosses both edges at the corner, and the corner lies that far beyond it.

use glam::DVec2;
use peng::d2::{distance, intersects, Polyline, Pose2, Rot2, Triangle, Vec2};

/// Points placed by `pose`, in f64 (rotation normalized in f64).
fn placed(points: &[Vec2], pose: &Pose2) -> Vec<DVec2> {
    let (c, s) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
    let k = c.hypot(s);
    let (c, s) = (c / k, s / k);
    points
        .iter()
        .map(|p| {
            let p = p.as_dvec2();
            DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y) + pose.translation.as_dvec2()
        })
        .collect()
}

#[test]
fn a_segment_cutting_a_corner_overlaps_by_the_corner_depth() {
    let chain = [
        Vec2::new(-2.2476785, 1.96403),
        Vec2::new(-2.0162883, 1.7595513),
    ];
    let tri = [
        Vec2::new(0.84752536, -0.8816488),
        Vec2::new(1.4690075, 0.6751953),
        Vec2::new(-1.7481638, -0.7831413),
    ];
    let pa = Pose2 {
        translation: Vec2::new(3.2386727, 2.2387438),
        rotation: Rot2 {
            cos: -0.046560064,
            sin: 0.9989155,
        },
    };
    let pb = Pose2 {
        translation: Vec2::new(0.41389132, -1.3341651),
        rotation: Rot2 {
            cos: 0.8890569,
            sin: 0.4577967,
        },
    };
    // f64: the segment crosses the two edges at the corner `w[1]`, which
    // lies `depth` beyond the segment's line.
    let (s, w) = (placed(&chain, &pa), placed(&tri, &pb));
    let side = |p: DVec2| (s[1] - s[0]).perp_dot(p - s[0]);
    assert!(side(w[1]) * side(w[0]) < 0.0 && side(w[1]) * side(w[2]) < 0.0);
    let depth = side(w[1]).abs() / (s[1] - s[0]).length();
    assert!((5.0e-6..5.2e-6).contains(&depth), "{depth:e}");
    let line = Polyline::new(chain.to_vec(), None).unwrap().into();
    let t = Triangle::new(tri[0], tri[1], tri[2]).unwrap().into();
    let d = distance(&line, &pa, &t, &pb);
    assert!(intersects(&line, &pa, &t, &pb));
    // Within f32 rounding of coordinates about 2 in size.
    assert!(
        (d.distance as f64 + depth).abs() <= 1e-6,
        "{} vs {:e}",
        d.distance,
        -depth
    );
}
