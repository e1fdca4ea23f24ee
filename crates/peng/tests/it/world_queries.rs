//! Scene queries of the collision world: every query against a brute-force
//! loop over all colliders on random 2D and 3D worlds (with and without a
//! filter), each filter rule, closed-form cases, queries right after a pose
//! change, and bad input.

use peng::bound::Aabb;
use peng::math::{Pose2, Pose3, Quat, Vec2, Vec3, Vector};
use peng::query::types::{PointProjection, Ray, RayHit};
use peng::shape::{d2, d3};
use peng::world::{
    Collider, ColliderHandle, CollisionFilter, Dim, Dim2, Dim3, QueryFilter, SensorMode, World,
    World2, World3, WorldError,
};

/// A small deterministic generator (xorshift64*, Vigna 2016).
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `[lo, hi)`.
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    fn coin(&mut self, p: f32) -> bool {
        self.f(0.0, 1.0) < p
    }
}

/// What the tests need to make random things in one dimension.
trait Gen: Dim {
    fn vec(r: &mut Rng, lo: f32, hi: f32) -> Self::V;
    fn unit(r: &mut Rng) -> Self::V;
    fn pose(r: &mut Rng, at: Self::V) -> Self::Pose;
    /// A random shape: mostly primitives, one in ten a compound.
    fn shape(r: &mut Rng) -> Self::Shape;
    /// A random convex primitive of size about 0.2 to 2.
    fn primitive(r: &mut Rng) -> Self::Shape;
    /// Colliders are placed in `[-SPREAD, SPREAD]^d` (denser in 3D so that
    /// random queries hit as often as in 2D).
    const SPREAD: f32;
}

impl Gen for Dim3 {
    fn vec(r: &mut Rng, lo: f32, hi: f32) -> Vec3 {
        Vec3::new(r.f(lo, hi), r.f(lo, hi), r.f(lo, hi))
    }
    fn unit(r: &mut Rng) -> Vec3 {
        loop {
            let v = Self::vec(r, -1.0, 1.0);
            if v.length_squared() > 0.01 && v.length_squared() <= 1.0 {
                return v.normalize();
            }
        }
    }
    fn pose(r: &mut Rng, at: Vec3) -> Pose3 {
        let q = Quat::from_axis_angle(Self::unit(r), r.f(0.0, 6.3));
        Pose3::new(at, q)
    }
    fn shape(r: &mut Rng) -> d3::Shape {
        if r.coin(0.1) {
            // A compound of two or three primitives near its origin.
            let parts = (0..2 + r.below(2))
                .map(|_| {
                    let at = Self::vec(r, -1.5, 1.5);
                    (Self::pose(r, at), Self::primitive(r))
                })
                .collect();
            return d3::Compound::new(parts).unwrap().into();
        }
        Self::primitive(r)
    }
    fn primitive(r: &mut Rng) -> d3::Shape {
        let s = r.f(0.2, 2.0);
        match r.below(8) {
            0 => d3::Ball::new(s).unwrap().into(),
            1 => d3::Cuboid::new(Self::vec(r, 0.1, 2.0)).unwrap().into(),
            2 => d3::Capsule::new(Self::vec(r, -1.5, 1.5), Self::vec(r, -1.5, 1.5), s * 0.5)
                .unwrap()
                .into(),
            3 => d3::Cylinder::new(s, r.f(0.2, 1.5)).unwrap().into(),
            4 => d3::Cone::new(s, r.f(0.2, 1.5)).unwrap().into(),
            5 => d3::Segment::new(Self::vec(r, -2.0, 2.0), Self::vec(r, -2.0, 2.0))
                .unwrap()
                .into(),
            6 => d3::Triangle::new(
                Self::vec(r, -2.0, 2.0),
                Self::vec(r, -2.0, 2.0),
                Self::vec(r, -2.0, 2.0),
            )
            .unwrap()
            .into(),
            _ => {
                let pts: Vec<Vec3> = (0..10).map(|_| Self::vec(r, -s, s)).collect();
                d3::ConvexPolyhedron::from_points(&pts).unwrap().into()
            }
        }
    }
    const SPREAD: f32 = 10.0;
}

impl Gen for Dim2 {
    fn vec(r: &mut Rng, lo: f32, hi: f32) -> Vec2 {
        Vec2::new(r.f(lo, hi), r.f(lo, hi))
    }
    fn unit(r: &mut Rng) -> Vec2 {
        Vec2::from_angle(r.f(0.0, 6.3))
    }
    fn pose(r: &mut Rng, at: Vec2) -> Pose2 {
        Pose2::new(at, r.f(0.0, 6.3))
    }
    fn shape(r: &mut Rng) -> d2::Shape {
        if r.coin(0.1) {
            // A compound of two or three primitives near its origin.
            let parts = (0..2 + r.below(2))
                .map(|_| {
                    let at = Self::vec(r, -1.5, 1.5);
                    (Self::pose(r, at), Self::primitive(r))
                })
                .collect();
            return d2::Compound::new(parts).unwrap().into();
        }
        Self::primitive(r)
    }
    fn primitive(r: &mut Rng) -> d2::Shape {
        let s = r.f(0.2, 2.0);
        match r.below(6) {
            0 => d2::Circle::new(s).unwrap().into(),
            1 => d2::Rect::new(Self::vec(r, 0.1, 2.0)).unwrap().into(),
            2 => d2::Capsule::new(Self::vec(r, -1.5, 1.5), Self::vec(r, -1.5, 1.5), s * 0.5)
                .unwrap()
                .into(),
            3 => d2::Segment::new(Self::vec(r, -2.0, 2.0), Self::vec(r, -2.0, 2.0))
                .unwrap()
                .into(),
            4 => d2::Triangle::new(
                Self::vec(r, -2.0, 2.0),
                Self::vec(r, -2.0, 2.0),
                Self::vec(r, -2.0, 2.0),
            )
            .unwrap()
            .into(),
            _ => {
                let pts: Vec<Vec2> = (0..8).map(|_| Self::vec(r, -s, s)).collect();
                d2::ConvexPolygon::from_points(&pts).unwrap().into()
            }
        }
    }
    const SPREAD: f32 = 20.0;
}

/// A random world of `n` colliders in `[-SPREAD, SPREAD]^d` with random categories
/// and sensors; some are removed and some re-inserted (reused slots with new
/// generations), and some moved by `set_pose` (no update in between).
fn random_world<D: Gen>(r: &mut Rng, n: usize) -> World<D> {
    let mut w = World::<D>::new();
    let mut handles = Vec::new();
    for i in 0..n {
        let at = D::vec(r, -D::SPREAD, D::SPREAD);
        let c = Collider::<D>::new(D::shape(r), D::pose(r, at))
            .with_filter(CollisionFilter::new(1 << r.below(4), u64::MAX))
            .with_sensor(r.coin(0.2))
            .with_user_data(i as u64);
        handles.push(w.insert(c).unwrap());
    }
    for _ in 0..n / 10 {
        let k = r.below(handles.len() as u64) as usize;
        let h = handles.swap_remove(k);
        w.remove(h).unwrap();
    }
    for _ in 0..n / 20 {
        let at = D::vec(r, -D::SPREAD, D::SPREAD);
        handles.push(
            w.insert(Collider::new(D::shape(r), D::pose(r, at)))
                .unwrap(),
        );
    }
    for _ in 0..n / 5 {
        let k = r.below(handles.len() as u64) as usize;
        let at = D::vec(r, -D::SPREAD, D::SPREAD);
        w.set_pose(handles[k], D::pose(r, at)).unwrap();
    }
    w
}

type Keep<'a, D> = &'a dyn Fn(ColliderHandle, &Collider<D>) -> bool;

/// Brute-force closest ray hit toi (handles in order, first minimum wins).
fn brute_ray<D: Dim>(
    w: &World<D>,
    ray: &Ray<D::V>,
    max_toi: f32,
    solid: bool,
    keep: Keep<D>,
) -> Vec<(ColliderHandle, RayHit<D::V>)> {
    let mut v: Vec<_> = w
        .iter()
        .filter(|(h, c)| keep(*h, c))
        .filter_map(|(h, c)| D::ray_cast(&c.shape, &c.pose, ray, max_toi, solid).map(|x| (h, x)))
        .collect();
    v.sort_by(|a, b| a.1.toi.total_cmp(&b.1.toi).then(a.0.cmp(&b.0)));
    v
}

fn brute_nearest<D: Dim>(
    w: &World<D>,
    p: D::V,
    max_dist: f32,
    keep: Keep<D>,
) -> Option<(ColliderHandle, PointProjection<D::V>, f32)> {
    let mut best: Option<(ColliderHandle, PointProjection<D::V>, f32)> = None;
    for (h, c) in w.iter().filter(|(h, c)| keep(*h, c)) {
        let pr = D::project_point(&c.shape, &c.pose, p, false);
        let d = if pr.is_inside {
            0.0
        } else {
            (pr.point - p).length()
        };
        if d <= max_dist && best.is_none_or(|(_, _, bd)| d < bd) {
            best = Some((h, pr, d));
        }
    }
    best
}

/// Counts of non-empty answers, so a test can check that its random queries
/// really exercised hits and not only misses.
#[derive(Default, Debug)]
struct Hits {
    ray: usize,
    point: usize,
    aabb: usize,
    shape: usize,
    nearest: usize,
}

/// Runs every query `rounds` times with random inputs and compares each
/// answer with brute force over the colliders `keep` accepts.
fn agree_with_brute_force<D: Gen>(
    w: &World<D>,
    r: &mut Rng,
    rounds: usize,
    filter: QueryFilter<'_, D>,
    keep: Keep<D>,
) -> Hits {
    let mut hits = Hits::default();
    let handles: Vec<ColliderHandle> = w.iter().map(|(h, _)| h).collect();
    for _ in 0..rounds {
        // Rays: random origin and direction (not unit), random length.
        let origin = D::vec(r, -1.25 * D::SPREAD, 1.25 * D::SPREAD);
        let dir = D::unit(r) * r.f(0.5, 2.0);
        let ray = Ray { origin, dir };
        let max_toi = if r.coin(0.25) {
            f32::INFINITY
        } else {
            r.f(0.0, 60.0)
        };
        let solid = r.coin(0.5);
        let all = brute_ray(w, &ray, max_toi, solid, keep);
        let got_all = w.cast_ray_all(&ray, max_toi, solid, filter).unwrap();
        assert_eq!(got_all, all, "cast_ray_all");
        let any = w.cast_ray_any(&ray, max_toi, solid, filter).unwrap();
        assert_eq!(any, !all.is_empty(), "cast_ray_any");
        let closest = w.cast_ray(&ray, max_toi, solid, filter).unwrap();
        match (closest, all.first()) {
            (None, None) => {}
            (Some((h, hit)), Some((bh, bhit))) => {
                hits.ray += 1;
                let tol = 1e-4 * (1.0 + bhit.toi);
                assert!((hit.toi - bhit.toi).abs() <= tol, "{hit:?} vs {bhit:?}");
                if bhit.toi == 0.0 {
                    // Solid rays starting inside several colliders tie
                    // exactly at 0: the smallest handle wins.
                    assert_eq!(h, *bh, "tie at 0");
                }
                if h != *bh {
                    // Only a near tie may pick another collider.
                    let own = all
                        .iter()
                        .find(|x| x.0 == h)
                        .expect("hit is in brute force");
                    assert!((own.1.toi - bhit.toi).abs() <= tol);
                }
            }
            (a, b) => panic!("cast_ray {a:?} vs brute force {b:?}"),
        }

        // Points: random, or the centre of a random collider.
        let p = if r.coin(0.5) && !handles.is_empty() {
            let h = handles[r.below(handles.len() as u64) as usize];
            D::aabb(&w.get(h).unwrap().shape, &w.get(h).unwrap().pose).center()
        } else {
            D::vec(r, -1.1 * D::SPREAD, 1.1 * D::SPREAD)
        };
        let want: Vec<_> = w
            .iter()
            .filter(|(h, c)| keep(*h, c) && D::contains_point(&c.shape, &c.pose, p))
            .map(|(h, _)| h)
            .collect();
        hits.point += usize::from(!want.is_empty());
        assert_eq!(w.point_query(p, filter).unwrap(), want, "point_query");

        let max_dist = match r.below(3) {
            0 => r.f(0.0, 1.0),
            1 => r.f(0.0, 8.0),
            _ => f32::INFINITY,
        };
        let want = brute_nearest(w, p, max_dist, keep);
        hits.nearest += usize::from(want.is_some());
        assert_eq!(
            w.nearest_within(p, max_dist, filter).unwrap(),
            want,
            "nearest_within {max_dist}"
        );

        // Boxes.
        let b = Aabb::from_center_half_extents(
            D::vec(r, -1.1 * D::SPREAD, 1.1 * D::SPREAD),
            D::vec(r, 0.0, 4.0),
        );
        let want: Vec<_> = w
            .iter()
            .filter(|(h, c)| keep(*h, c) && D::aabb(&c.shape, &c.pose).overlaps(&b))
            .map(|(h, _)| h)
            .collect();
        hits.aabb += usize::from(!want.is_empty());
        assert_eq!(w.aabb_overlap(&b, filter).unwrap(), want, "aabb_overlap");

        // Shapes.
        let shape = D::shape(r);
        let at = D::vec(r, -1.1 * D::SPREAD, 1.1 * D::SPREAD);
        let pose = D::pose(r, at);
        let want: Vec<_> = w
            .iter()
            .filter(|(h, c)| keep(*h, c) && D::intersects(&shape, &pose, &c.shape, &c.pose))
            .map(|(h, _)| h)
            .collect();
        hits.shape += usize::from(!want.is_empty());
        assert_eq!(
            w.shape_overlap(&shape, &pose, filter).unwrap(),
            want,
            "shape_overlap"
        );
    }
    hits
}

fn all_pass<D: Dim>(_: ColliderHandle, _: &Collider<D>) -> bool {
    true
}

/// Every query on a random world agrees with brute force, unfiltered and
/// with a filter combining every rule (checked by an independent test).
fn random_worlds<D: Gen>(seed: u64) {
    let mut r = Rng(seed);
    let w = random_world::<D>(&mut r, 300);
    let hits = agree_with_brute_force(&w, &mut r, 400, QueryFilter::new(), &all_pass::<D>);
    // The random inputs must exercise hits, not only misses.
    assert!(
        hits.ray > 60 && hits.point > 60 && hits.aabb > 60 && hits.shape > 60 && hits.nearest > 60,
        "{hits:?}"
    );

    let excluded: Vec<ColliderHandle> = w.iter().map(|(h, _)| h).step_by(7).collect();
    let odd = |_: ColliderHandle, c: &Collider<D>| c.user_data % 2 == 1;
    let filter = QueryFilter::new()
        .with_mask(0b0111)
        .excluding(&excluded)
        .with_sensors(SensorMode::Exclude)
        .with_predicate(&odd);
    let keep = |h: ColliderHandle, c: &Collider<D>| {
        c.filter.category & 0b0111 != 0
            && !excluded.contains(&h)
            && !c.sensor
            && c.user_data % 2 == 1
    };
    let hits = agree_with_brute_force(&w, &mut r, 200, filter, &keep);
    assert!(
        hits.ray > 5 && hits.point > 5 && hits.nearest > 5,
        "{hits:?}"
    );
}

#[test]
fn random_3d_world_queries_agree_with_brute_force() {
    for seed in [0x9e37_79b9_7f4a_7c15, 7, 0xdead_beef] {
        random_worlds::<Dim3>(seed);
    }
}

#[test]
fn random_2d_world_queries_agree_with_brute_force() {
    for seed in [0x2545_f491_4f6c_dd1d, 11, 0xfeed_f00d] {
        random_worlds::<Dim2>(seed);
    }
}

fn ball3(r: f32) -> d3::Shape {
    d3::Ball::new(r).unwrap().into()
}

/// Three unit balls on the x axis at 0, 5 and 10, categories 1, 2 and 4,
/// the middle one a sensor; user data 10, 20, 30.
fn row() -> (World3, [ColliderHandle; 3]) {
    let mut w = World3::new();
    let mut hs = [ColliderHandle::from_parts(0, 0); 3];
    for (i, h) in hs.iter_mut().enumerate() {
        let c = Collider::new(
            ball3(1.0),
            Pose3::from_translation(Vec3::X * 5.0 * i as f32),
        )
        .with_filter(CollisionFilter::new(1 << i, u64::MAX))
        .with_sensor(i == 1)
        .with_user_data(10 * (i as u64 + 1));
        *h = w.insert(c).unwrap();
    }
    (w, hs)
}

/// Handles the x-axis ray from -10 hits, in order.
fn ray_row(w: &World3, f: QueryFilter<'_, Dim3>) -> Vec<ColliderHandle> {
    let ray = Ray::new(Vec3::X * -10.0, Vec3::X).unwrap();
    let all = w.cast_ray_all(&ray, 100.0, true, f).unwrap();
    let first = w.cast_ray(&ray, 100.0, true, f).unwrap();
    assert_eq!(first.map(|x| x.0), all.first().map(|x| x.0));
    assert_eq!(
        w.cast_ray_any(&ray, 100.0, true, f).unwrap(),
        !all.is_empty()
    );
    all.iter().map(|x| x.0).collect()
}

/// The handles a long box over the row sees.
fn box_row(w: &World3, f: QueryFilter<'_, Dim3>) -> Vec<ColliderHandle> {
    let b = Aabb::new(Vec3::new(-2.0, -0.5, -0.5), Vec3::new(12.0, 0.5, 0.5));
    w.aabb_overlap(&b, f).unwrap()
}

#[test]
fn mask_selects_categories() {
    let (w, [a, b, c]) = row();
    assert_eq!(ray_row(&w, QueryFilter::new()), vec![a, b, c]);
    assert_eq!(ray_row(&w, QueryFilter::new().with_mask(0b010)), vec![b]);
    assert_eq!(ray_row(&w, QueryFilter::new().with_mask(0b101)), vec![a, c]);
    assert_eq!(box_row(&w, QueryFilter::new().with_mask(0b100)), vec![c]);
    assert_eq!(ray_row(&w, QueryFilter::new().with_mask(0)), vec![]);
    let p = w
        .point_query(Vec3::X * 5.0, QueryFilter::new().with_mask(0b101))
        .unwrap();
    assert!(p.is_empty());
}

#[test]
fn collision_filter_applies_bits_both_ways_and_groups() {
    let (mut w, [a, b, c]) = row();
    // The query belongs to category 8; only colliders whose mask has 8 pass.
    w.modify(c, |x| x.filter.mask = 0b0111).unwrap();
    let f = CollisionFilter::new(8, u64::MAX);
    assert_eq!(ray_row(&w, QueryFilter::new().with_filter(f)), vec![a, b]);
    // A shared negative group never collides, whatever the bits.
    w.modify(a, |x| x.filter.group = -3).unwrap();
    let f = f.with_group(-3);
    assert_eq!(box_row(&w, QueryFilter::new().with_filter(f)), vec![b]);
    // A shared positive group always does.
    w.modify(c, |x| x.filter.group = 5).unwrap();
    let f = f.with_group(5);
    assert_eq!(
        box_row(&w, QueryFilter::new().with_filter(f)),
        vec![a, b, c]
    );
}

#[test]
fn excluded_handles_are_skipped() {
    let (w, [a, b, c]) = row();
    let ray = Ray::new(Vec3::X * -10.0, Vec3::X).unwrap();
    let ex = [a];
    let (h, hit) = w
        .cast_ray(&ray, 100.0, true, QueryFilter::new().excluding(&ex))
        .unwrap()
        .unwrap();
    assert_eq!(h, b);
    assert!((hit.toi - 14.0).abs() < 1e-5);
    let ex = [a, c];
    assert_eq!(ray_row(&w, QueryFilter::new().excluding(&ex)), vec![b]);
    let near = w
        .nearest_within(Vec3::ZERO, 100.0, QueryFilter::new().excluding(&ex))
        .unwrap()
        .unwrap();
    assert_eq!(near.0, b);
    assert!((near.2 - 4.0).abs() < 1e-5);
}

#[test]
fn sensors_included_excluded_or_alone() {
    let (w, [a, b, c]) = row();
    let f = QueryFilter::new();
    assert_eq!(
        ray_row(&w, f.with_sensors(SensorMode::Include)),
        vec![a, b, c]
    );
    assert_eq!(ray_row(&w, f.with_sensors(SensorMode::Exclude)), vec![a, c]);
    assert_eq!(ray_row(&w, f.with_sensors(SensorMode::Only)), vec![b]);
    let at_b = Vec3::X * 5.0;
    assert_eq!(
        w.point_query(at_b, f.with_sensors(SensorMode::Exclude))
            .unwrap(),
        vec![]
    );
    assert_eq!(
        w.point_query(at_b, f.with_sensors(SensorMode::Only))
            .unwrap(),
        vec![b]
    );
    let ball = ball3(20.0);
    let all = w
        .shape_overlap(&ball, &Pose3::IDENTITY, f.with_sensors(SensorMode::Exclude))
        .unwrap();
    assert_eq!(all, vec![a, c]);
}

#[test]
fn predicate_sees_handle_and_collider() {
    let (w, [a, b, c]) = row();
    let not_20 = |_: ColliderHandle, x: &Collider<Dim3>| x.user_data != 20;
    assert_eq!(
        ray_row(&w, QueryFilter::new().with_predicate(&not_20)),
        vec![a, c]
    );
    let only_c = move |h: ColliderHandle, _: &Collider<Dim3>| h == c;
    assert_eq!(
        box_row(&w, QueryFilter::new().with_predicate(&only_c)),
        vec![c]
    );
    let near = w
        .nearest_within(
            Vec3::X * 4.0,
            10.0,
            QueryFilter::new().with_predicate(&not_20),
        )
        .unwrap()
        .unwrap();
    assert_eq!(near.0, a);
    let _ = b;
}

#[test]
fn ray_hits_a_ball_at_its_closed_form_toi() {
    let mut w = World3::new();
    let h = w
        .insert(Collider::new(
            ball3(1.5),
            Pose3::from_translation(Vec3::new(0.0, 0.0, 2.0)),
        ))
        .unwrap();
    // From (0, 0, -8) along +z with |dir| = 2: the surface z = 0.5 is 8.5 away,
    // toi = 8.5 / 2.
    let ray = Ray::new(Vec3::new(0.0, 0.0, -8.0), Vec3::Z * 2.0).unwrap();
    let (got, hit) = w
        .cast_ray(&ray, 10.0, true, QueryFilter::new())
        .unwrap()
        .unwrap();
    assert_eq!(got, h);
    assert!((hit.toi - 4.25).abs() < 1e-5, "{hit:?}");
    assert!((hit.point - Vec3::new(0.0, 0.0, 0.5)).length() < 1e-5);
    assert!((hit.normal + Vec3::Z).length() < 1e-5);
    // Too short a ray misses; from inside, solid hits at 0 and hollow at
    // the far side.
    assert_eq!(
        w.cast_ray(&ray, 4.2, true, QueryFilter::new()).unwrap(),
        None
    );
    let inside = Ray::new(Vec3::new(0.0, 0.0, 2.0), Vec3::Z).unwrap();
    let (_, s) = w
        .cast_ray(&inside, 10.0, true, QueryFilter::new())
        .unwrap()
        .unwrap();
    assert_eq!(s.toi, 0.0);
    let (_, o) = w
        .cast_ray(&inside, 10.0, false, QueryFilter::new())
        .unwrap()
        .unwrap();
    assert!((o.toi - 1.5).abs() < 1e-5);
}

#[test]
fn ray_ties_go_to_the_smaller_handle() {
    let mut w = World3::new();
    let hs: Vec<_> = (0..4)
        .map(|_| {
            w.insert(Collider::new(ball3(1.0), Pose3::IDENTITY))
                .unwrap()
        })
        .collect();
    w.remove(hs[0]).unwrap();
    let again = w
        .insert(Collider::new(ball3(1.0), Pose3::IDENTITY))
        .unwrap();
    let ray = Ray::new(Vec3::X * -5.0, Vec3::X).unwrap();
    let (h, hit) = w
        .cast_ray(&ray, 10.0, true, QueryFilter::new())
        .unwrap()
        .unwrap();
    // Slot 0 is reused by `again`: it is the smallest handle.
    assert_eq!(h, again);
    assert!((hit.toi - 4.0).abs() < 1e-5);
    let all: Vec<_> = w
        .cast_ray_all(&ray, 10.0, true, QueryFilter::new())
        .unwrap()
        .into_iter()
        .map(|x| x.0)
        .collect();
    assert_eq!(all, vec![again, hs[1], hs[2], hs[3]]);
}

#[test]
fn nearest_of_two_balls() {
    let mut w = World3::new();
    let a = w
        .insert(Collider::new(ball3(1.0), Pose3::IDENTITY))
        .unwrap();
    let b = w
        .insert(Collider::new(
            ball3(2.0),
            Pose3::from_translation(Vec3::X * 10.0),
        ))
        .unwrap();
    let f = QueryFilter::new();
    // From x = 4: 3 to a, 4 to b.
    let (h, pr, d) = w.nearest_within(Vec3::X * 4.0, 100.0, f).unwrap().unwrap();
    assert_eq!(h, a);
    assert!((d - 3.0).abs() < 1e-5 && (pr.point - Vec3::X).length() < 1e-5);
    assert!(!pr.is_inside);
    // From x = 6: 5 to a, 2 to b.
    let (h, pr, d) = w
        .nearest_within(Vec3::X * 6.0, f32::INFINITY, f)
        .unwrap()
        .unwrap();
    assert_eq!(h, b);
    assert!((d - 2.0).abs() < 1e-5 && (pr.point - Vec3::X * 8.0).length() < 1e-5);
    // Within 1.5 of x = 6 there is nothing; within 2 (closed) there is b.
    assert_eq!(w.nearest_within(Vec3::X * 6.0, 1.5, f).unwrap(), None);
    assert_eq!(
        w.nearest_within(Vec3::X * 6.0, 2.0, f)
            .unwrap()
            .map(|x| x.0),
        Some(b)
    );
    // Inside b: distance 0, projection on b's surface.
    let (h, pr, d) = w.nearest_within(Vec3::X * 10.5, 0.0, f).unwrap().unwrap();
    assert_eq!((h, d), (b, 0.0));
    assert!(pr.is_inside && (pr.point - Vec3::X * 12.0).length() < 1e-5);
    // Far away (the search box must grow many times).
    let (h, _, d) = w
        .nearest_within(Vec3::new(-5000.0, 0.0, 0.0), f32::INFINITY, f)
        .unwrap()
        .unwrap();
    assert_eq!(h, a);
    assert!((d - 4999.0).abs() < 1e-2);
}

#[test]
fn queries_2d_closed_forms() {
    let mut w = World2::new();
    let circle: d2::Shape = d2::Circle::new(1.0).unwrap().into();
    let rect: d2::Shape = d2::Rect::new(Vec2::new(1.0, 2.0)).unwrap().into();
    let a = w
        .insert(Collider::new(
            circle.clone(),
            Pose2::from_translation(Vec2::new(5.0, 0.0)),
        ))
        .unwrap();
    let b = w
        .insert(Collider::new(
            rect,
            Pose2::from_translation(Vec2::new(-5.0, 0.0)),
        ))
        .unwrap();
    let f = QueryFilter::new();
    let ray = Ray::new(Vec2::ZERO, Vec2::X).unwrap();
    let (h, hit) = w.cast_ray(&ray, 10.0, true, f).unwrap().unwrap();
    assert_eq!(h, a);
    assert!((hit.toi - 4.0).abs() < 1e-5);
    let back = Ray::new(Vec2::ZERO, -Vec2::X).unwrap();
    let (h, hit) = w.cast_ray(&back, 10.0, true, f).unwrap().unwrap();
    assert_eq!(h, b);
    assert!((hit.toi - 4.0).abs() < 1e-5);
    assert_eq!(w.point_query(Vec2::new(-4.0, 2.0), f).unwrap(), vec![b]);
    assert_eq!(w.point_query(Vec2::new(-3.9, 2.0), f).unwrap(), vec![]);
    let (h, _, d) = w
        .nearest_within(Vec2::new(1.0, 0.0), 10.0, f)
        .unwrap()
        .unwrap();
    assert_eq!(h, a);
    assert!((d - 3.0).abs() < 1e-5);
    let probe = Pose2::from_translation(Vec2::new(0.0, 0.0));
    let big: d2::Shape = d2::Circle::new(4.0).unwrap().into();
    assert_eq!(w.shape_overlap(&big, &probe, f).unwrap(), vec![a, b]);
    let small: d2::Shape = d2::Circle::new(3.9).unwrap().into();
    assert_eq!(w.shape_overlap(&small, &probe, f).unwrap(), vec![]);
}

#[test]
fn queries_see_a_new_pose_before_any_update() {
    let mut w = World3::new();
    let f = QueryFilter::new();
    let h = w
        .insert(Collider::new(ball3(1.0), Pose3::IDENTITY))
        .unwrap();
    let other = w
        .insert(Collider::new(
            ball3(1.0),
            Pose3::from_translation(Vec3::Y * 50.0),
        ))
        .unwrap();
    assert_eq!(w.point_query(Vec3::ZERO, f).unwrap(), vec![h]);
    let far = Vec3::new(100.0, 0.0, 0.0);
    w.set_pose(h, Pose3::from_translation(far)).unwrap();
    assert_eq!(w.point_query(Vec3::ZERO, f).unwrap(), vec![]);
    assert_eq!(w.point_query(far, f).unwrap(), vec![h]);
    let ray = Ray::new(Vec3::ZERO, Vec3::X).unwrap();
    let (got, hit) = w.cast_ray(&ray, 1000.0, true, f).unwrap().unwrap();
    assert_eq!(got, h);
    assert!((hit.toi - 99.0).abs() < 1e-4);
    let b = Aabb::new(far - Vec3::ONE, far + Vec3::ONE);
    assert_eq!(w.aabb_overlap(&b, f).unwrap(), vec![h]);
    let near = w.nearest_within(Vec3::ZERO, 1000.0, f).unwrap().unwrap();
    assert_eq!(near.0, other);
    let probe = ball3(0.5);
    let at = Pose3::from_translation(far + Vec3::X);
    assert_eq!(w.shape_overlap(&probe, &at, f).unwrap(), vec![h]);
    // A changed shape is seen too, and a removed collider is gone.
    w.set_shape(h, ball3(3.0)).unwrap();
    assert_eq!(w.point_query(far + Vec3::X * 2.5, f).unwrap(), vec![h]);
    w.remove(h).unwrap();
    assert_eq!(w.point_query(far, f).unwrap(), vec![]);
    assert_eq!(w.cast_ray(&ray, 1000.0, true, f).unwrap(), None);
}

#[test]
fn aabb_overlap_uses_the_shape_box_not_the_margins() {
    let mut w = World3::new();
    let h = w
        .insert(
            Collider::new(ball3(1.0), Pose3::IDENTITY)
                .with_margin(peng::world::Margin::Offset(2.0)),
        )
        .unwrap();
    let f = QueryFilter::new();
    // Within the margin but outside the ball's own box.
    let b = Aabb::new(Vec3::X * 1.5, Vec3::X * 2.5);
    assert_eq!(w.aabb_overlap(&b, f).unwrap(), vec![]);
    let b = Aabb::new(Vec3::X * 1.0, Vec3::X * 2.5);
    assert_eq!(w.aabb_overlap(&b, f).unwrap(), vec![h]);
    assert_eq!(w.aabb_overlap(&Aabb::everything(), f).unwrap(), vec![h]);
    assert_eq!(w.aabb_overlap(&Aabb::EMPTY, f).unwrap(), vec![]);
}

#[test]
fn bad_query_input_is_a_clear_error() {
    let (w, _) = row();
    let f = QueryFilter::new();
    let nan = Vec3::new(f32::NAN, 0.0, 0.0);
    let ok = Ray::new(Vec3::ZERO, Vec3::X).unwrap();
    let bad_origin = Ray {
        origin: nan,
        dir: Vec3::X,
    };
    let bad_dir = Ray {
        origin: Vec3::ZERO,
        dir: Vec3::new(0.0, f32::INFINITY, 0.0),
    };
    let zero = Ray {
        origin: Vec3::ZERO,
        dir: Vec3::ZERO,
    };
    assert_eq!(
        w.cast_ray(&bad_origin, 1.0, true, f).unwrap_err(),
        WorldError::NonFiniteQuery("ray origin")
    );
    assert_eq!(
        w.cast_ray_all(&bad_dir, 1.0, true, f).unwrap_err(),
        WorldError::NonFiniteQuery("ray direction")
    );
    assert_eq!(
        w.cast_ray_any(&zero, 1.0, true, f).unwrap_err(),
        WorldError::ZeroRayDirection
    );
    assert_eq!(
        w.cast_ray(&ok, -1.0, true, f).unwrap_err(),
        WorldError::NegativeQueryLength("ray length", -1.0)
    );
    assert!(matches!(
        w.cast_ray(&ok, f32::NAN, true, f).unwrap_err(),
        WorldError::NegativeQueryLength("ray length", _)
    ));
    assert_eq!(
        w.point_query(nan, f).unwrap_err(),
        WorldError::NonFiniteQuery("point")
    );
    assert_eq!(
        w.nearest_within(Vec3::ZERO, -0.5, f).unwrap_err(),
        WorldError::NegativeQueryLength("distance", -0.5)
    );
    assert!(matches!(
        w.nearest_within(Vec3::ZERO, f32::NAN, f).unwrap_err(),
        WorldError::NegativeQueryLength("distance", _)
    ));
    assert_eq!(
        w.nearest_within(Vec3::splat(f32::INFINITY), 1.0, f)
            .unwrap_err(),
        WorldError::NonFiniteQuery("point")
    );
    assert_eq!(
        w.aabb_overlap(&Aabb::new(nan, Vec3::ONE), f).unwrap_err(),
        WorldError::NonFiniteQuery("box")
    );
    let bad_pose = Pose3::from_translation(nan);
    assert_eq!(
        w.shape_overlap(&ball3(1.0), &bad_pose, f).unwrap_err(),
        WorldError::NonFiniteQuery("shape pose")
    );
    // Infinite ray length is allowed; a zero length finds hits at 0 only.
    assert!(w.cast_ray_any(&ok, f32::INFINITY, true, f).unwrap());
    let from_x10 = Ray::new(Vec3::X * 10.0, Vec3::X).unwrap();
    let (_, hit) = w.cast_ray(&from_x10, 0.0, true, f).unwrap().unwrap();
    assert_eq!(hit.toi, 0.0);
    // The error messages name the input.
    let msg = WorldError::NonFiniteQuery("ray origin").to_string();
    assert!(msg.contains("ray origin"), "{msg}");
}

/// The broad phase does the pruning: a closest-hit ray stops testing once
/// the boxes ahead start after its best hit, an any-hit ray stops at its
/// first hit, and a nearest search near colliders tests only a few of them.
/// The predicate counts the candidates that reach the exact tests.
#[test]
fn queries_test_only_a_few_candidates() {
    let mut w = World3::new();
    for i in 0..300 {
        let at = Vec3::new(3.0 * i as f32, 0.0, 0.0);
        w.insert(Collider::new(ball3(1.0), Pose3::from_translation(at)))
            .unwrap();
    }
    let calls = std::cell::Cell::new(0usize);
    let count = |_: ColliderHandle, _: &Collider<Dim3>| {
        calls.set(calls.get() + 1);
        true
    };
    let f = QueryFilter::new().with_predicate(&count);
    let ray = Ray::new(Vec3::X * -10.0, Vec3::X).unwrap();
    let (h, hit) = w.cast_ray(&ray, f32::INFINITY, true, f).unwrap().unwrap();
    assert_eq!(h.index(), 0);
    assert!((hit.toi - 9.0).abs() < 1e-5);
    assert!(
        calls.get() <= 8,
        "closest ray tested {} candidates",
        calls.get()
    );
    calls.set(0);
    assert!(w.cast_ray_any(&ray, f32::INFINITY, true, f).unwrap());
    assert!(
        calls.get() <= 8,
        "any-hit ray tested {} candidates",
        calls.get()
    );
    calls.set(0);
    assert_eq!(
        w.cast_ray_all(&ray, f32::INFINITY, true, f).unwrap().len(),
        300
    );
    assert_eq!(calls.get(), 300);
    calls.set(0);
    let (h, _, d) = w
        .nearest_within(Vec3::new(451.0, 2.0, 0.0), f32::INFINITY, f)
        .unwrap()
        .unwrap();
    assert_eq!(h.index(), 150);
    assert!((d - (5.0f32.sqrt() - 1.0)).abs() < 1e-4);
    assert!(
        calls.get() <= 12,
        "nearest tested {} candidates",
        calls.get()
    );
}
