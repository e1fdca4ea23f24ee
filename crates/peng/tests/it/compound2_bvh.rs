//! 2D compounds query their parts through a BVH: every answer must equal the
//! scan over all parts, on a compound of many overlapping parts.

use peng::d2::*;

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
    fn vec(&mut self, s: f32) -> Vec2 {
        Vec2::new(self.range(-s, s), self.range(-s, s))
    }
    fn pose(&mut self, s: f32) -> Pose2 {
        let t = self.vec(s);
        Pose2::new(t, self.range(-3.1, 3.1))
    }
}

fn part(rng: &mut Rng, k: usize) -> Shape {
    let s = rng.range(0.1, 0.6);
    match k % 3 {
        0 => Circle::new(s).unwrap().into(),
        1 => Rect::new(Vec2::new(s, s * 0.5)).unwrap().into(),
        _ => Capsule::new(Vec2::ZERO, Vec2::new(0.0, s), s * 0.5)
            .unwrap()
            .into(),
    }
}

#[test]
fn distance_contact_ray_point_equal_the_part_scan() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let parts: Vec<(Pose2, Shape)> = (0..150)
        .map(|k| (rng.pose(5.0), part(&mut rng, k)))
        .collect();
    let c = Compound::new(parts).unwrap();
    let shape: Shape = c.clone().into();
    for _ in 0..400 {
        let xa = rng.pose(1.0);
        let kind = (rng.next() * 3.0) as usize;
        let other = part(&mut rng, kind);
        let xb = rng.pose(7.0);

        let scan = c
            .parts()
            .iter()
            .map(|(p, s)| distance(s, &xa.mul(p), &other, &xb).distance)
            .fold(f32::INFINITY, f32::min);
        for d in [
            distance(&shape, &xa, &other, &xb),
            distance(&other, &xb, &shape, &xa),
        ] {
            assert!(
                (d.distance - scan).abs() <= 1e-5 * (1.0 + scan.abs()),
                "{d:?} vs {scan}"
            );
        }

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

        let ray = Ray2::new(xb.translation, rng.vec(1.0)).unwrap();
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
        assert_eq!(contains_point(&shape, &xa, q), inside);
    }
}
