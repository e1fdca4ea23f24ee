//! Compounds query their parts through a BVH: every answer must equal the
//! scan over all parts (the definition), on compounds of many parts of mixed
//! kinds, including overlapping parts where the deepest one is not the one
//! whose box is nearest.

use peng::d3::*;

/// A deterministic generator (xorshift) in [0, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
    fn vec(&mut self, s: f32) -> Vec3 {
        Vec3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
    fn pose(&mut self, s: f32) -> Pose3 {
        let axis = self.vec(1.0);
        Pose3::from_axis_angle(self.vec(s), axis * 3.0)
    }
}

fn part(rng: &mut Rng, k: usize) -> Shape {
    let s = rng.range(0.1, 0.6);
    match k % 5 {
        0 => Ball::new(s).unwrap().into(),
        1 => Cuboid::new(Vec3::new(s, s * 0.5, s * 0.8)).unwrap().into(),
        2 => Capsule::new(Vec3::ZERO, Vec3::new(0.0, s, 0.0), s * 0.5)
            .unwrap()
            .into(),
        3 => Cylinder::new(s, s * 0.7).unwrap().into(),
        _ => Cone::new(s, s).unwrap().into(),
    }
}

/// 200 parts scattered (and overlapping) in a 10-unit cube.
fn big_compound(rng: &mut Rng) -> Compound {
    let parts = (0..200).map(|k| (rng.pose(5.0), part(rng, k))).collect();
    Compound::new(parts).unwrap()
}

#[test]
fn distance_contact_ray_point_equal_the_part_scan() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let c = big_compound(&mut rng);
    let shape: Shape = c.clone().into();
    for _ in 0..300 {
        let xa = rng.pose(1.0);
        let kind = (rng.next() * 5.0) as usize;
        let other = part(&mut rng, kind);
        let xb = rng.pose(8.0);

        // Distance (both argument orders): the minimum over the parts.
        let d = distance(&shape, &xa, &other, &xb);
        let scan = c
            .parts()
            .iter()
            .map(|(p, s)| distance(s, &xa.mul(p), &other, &xb).distance)
            .fold(f32::INFINITY, f32::min);
        assert!(
            (d.distance - scan).abs() <= 1e-5 * (1.0 + scan.abs()),
            "{d:?} vs {scan}"
        );
        let back = distance(&other, &xb, &shape, &xa);
        assert!(
            (back.distance - scan).abs() <= 1e-5 * (1.0 + scan.abs()),
            "{back:?} vs {scan}"
        );

        // Contacts: one manifold per touching part, the same set of parts.
        let mut ms = Vec::new();
        contacts(&shape, &xa, &other, &xb, 0.05, &mut ms);
        let touching: Vec<u32> = c
            .parts()
            .iter()
            .enumerate()
            .filter(|(_, (p, s))| contact(s, &xa.mul(p), &other, &xb, 0.05).is_some())
            .map(|(i, _)| i as u32)
            .collect();
        let got: Vec<u32> = ms.iter().map(|m| m.part_a).collect();
        assert_eq!(got, touching);

        // Rays: the nearest hit over the parts.
        let ray = Ray3::new(xb.translation, rng.vec(1.0)).unwrap();
        let hit = ray_cast(&shape, &xa, &ray, 100.0, true).map(|h| h.toi);
        let scan = c
            .parts()
            .iter()
            .filter_map(|(p, s)| ray_cast(s, &xa.mul(p), &ray, 100.0, true).map(|h| h.toi))
            .fold(None, |b: Option<f32>, t| Some(b.map_or(t, |b| b.min(t))));
        match (hit, scan) {
            (Some(h), Some(s)) => assert!((h - s).abs() <= 1e-5 * (1.0 + s), "{h} vs {s}"),
            (h, s) => assert_eq!(h, s),
        }

        // Points: the nearest surface point, and inside when inside a part.
        let q = xa.transform_point(rng.vec(6.0));
        let pp = project_point(&shape, &xa, q, false);
        let (best, inside) = c
            .parts()
            .iter()
            .fold((f32::INFINITY, false), |(b, i), (p, s)| {
                let pr = project_point(s, &xa.mul(p), q, false);
                (b.min(pr.point.distance(q)), i || pr.is_inside)
            });
        assert!(
            (pp.point.distance(q) - best).abs() <= 1e-5 * (1.0 + best),
            "{pp:?} vs {best}"
        );
        assert_eq!(pp.is_inside, inside);
    }
}

/// A small ball overlapping a big ball deeply and a small box barely: the
/// box's part comes first in the tree's nearest-first order (both boxes meet
/// the probe), but the answer is the deeper big ball.
#[test]
fn deepest_overlap_wins_over_nearest_box() {
    let c = Compound::new(vec![
        (
            Pose3::from_translation(Vec3::new(0.0, 0.0, 0.0)),
            Cuboid::new(Vec3::splat(0.5)).unwrap().into(),
        ),
        (
            Pose3::from_translation(Vec3::new(2.0, 0.0, 0.0)),
            Ball::new(1.5).unwrap().into(),
        ),
    ])
    .unwrap();
    let shape: Shape = c.into();
    let probe: Shape = Ball::new(0.3).unwrap().into();
    let at = Pose3::from_translation(Vec3::new(0.75, 0.0, 0.0));
    let d = distance(&shape, &Pose3::IDENTITY, &probe, &at);
    // Big ball: centre 1.25 from the probe's, radii 1.5 + 0.3 => -0.55.
    assert!((d.distance + 0.55).abs() < 1e-5, "{d:?}");
}
