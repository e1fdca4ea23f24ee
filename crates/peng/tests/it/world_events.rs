//! World events: a long random run against a brute-force reference,
//! and one focused test per filter, sensor, margin, event mode,
//! remove-on-contact, removed handles and watched sets.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use peng::bound::Aabb;
use peng::broad::{SpatialHash, SweepAndPrune};
use peng::math::{Pose2, Pose3, Quat, Vec2, Vec3, Vector};
use peng::shape::{d2, d3};
use peng::world::{
    Collider, ColliderHandle, CollisionFilter, ContactEvent, Dim, Dim2, Dim3, EventKind, EventMode,
    Margin, WatchId, World, World3,
};

// ---------------------------------------------------------------------------
// A small deterministic generator (SplitMix64, Steele et al. 2014).

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    fn f(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.f()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, p: f32) -> bool {
        self.f() < p
    }
}

/// Random shapes and poses per dimension.
trait Gen: Dim {
    fn shape(r: &mut Rng) -> Self::Shape;
    fn pose(r: &mut Rng, extent: f32) -> Self::Pose;
    fn nudge(p: Self::Pose, r: &mut Rng, step: f32) -> Self::Pose;
    /// A displacement with components in `[-s, s)`.
    fn displacement(r: &mut Rng, s: f32) -> Self::V;
}

impl Gen for Dim3 {
    fn shape(r: &mut Rng) -> d3::Shape {
        let s = r.range(0.3, 1.0);
        let v = Vec3::new(r.range(0.2, 1.0), r.range(0.2, 1.0), r.range(0.2, 1.0));
        match r.below(5) {
            0 => d3::Ball::new(s).expect("ball").into(),
            1 => d3::Cuboid::new(v).expect("cuboid").into(),
            2 => d3::Capsule::new(-v * 0.5, v * 0.5, s * 0.5)
                .expect("capsule")
                .into(),
            3 => d3::Cylinder::new(s, v.x).expect("cylinder").into(),
            _ => d3::Cone::new(s, v.y).expect("cone").into(),
        }
    }
    fn pose(r: &mut Rng, e: f32) -> Pose3 {
        let t = Vec3::new(r.range(-e, e), r.range(-e, e), r.range(-e, e));
        let axis = Vec3::new(r.range(-1.0, 1.0), r.range(-1.0, 1.0), r.range(-1.0, 1.0));
        Pose3::new(t, Quat::from_scaled_axis(axis * 2.0))
    }
    fn nudge(p: Pose3, r: &mut Rng, s: f32) -> Pose3 {
        let d = Vec3::new(r.range(-s, s), r.range(-s, s), r.range(-s, s));
        let w = Vec3::new(r.range(-s, s), r.range(-s, s), r.range(-s, s));
        Pose3::new(
            p.translation + d,
            (Quat::from_scaled_axis(w) * p.rotation).normalize(),
        )
    }
    fn displacement(r: &mut Rng, s: f32) -> Vec3 {
        Vec3::new(r.range(-s, s), r.range(-s, s), r.range(-s, s))
    }
}

impl Gen for Dim2 {
    fn shape(r: &mut Rng) -> d2::Shape {
        let s = r.range(0.3, 1.0);
        let v = Vec2::new(r.range(0.2, 1.0), r.range(0.2, 1.0));
        match r.below(4) {
            0 => d2::Circle::new(s).expect("circle").into(),
            1 => d2::Rect::new(v).expect("rect").into(),
            2 => d2::Capsule::new(-v * 0.5, v * 0.5, s * 0.4)
                .expect("capsule")
                .into(),
            _ => d2::Triangle::new(Vec2::ZERO, Vec2::X * s * 2.0, v)
                .expect("triangle")
                .into(),
        }
    }
    fn pose(r: &mut Rng, e: f32) -> Pose2 {
        Pose2::new(
            Vec2::new(r.range(-e, e), r.range(-e, e)),
            r.range(-3.0, 3.0),
        )
    }
    fn nudge(p: Pose2, r: &mut Rng, s: f32) -> Pose2 {
        let d = Vec2::new(r.range(-s, s), r.range(-s, s));
        Pose2::new(p.translation + d, p.rotation.angle() + r.range(-s, s))
    }
    fn displacement(r: &mut Rng, s: f32) -> Vec2 {
        Vec2::new(r.range(-s, s), r.range(-s, s))
    }
}

/// A random collider: mixed shapes, some sensors, margins, displacements,
/// filters, modes.
fn random_collider<D: Gen>(r: &mut Rng, extent: f32) -> Collider<D> {
    let displacement = if r.chance(0.4) {
        D::displacement(r, 0.3)
    } else {
        D::V::ZERO
    };
    let margin = match r.below(10) {
        0 | 1 => Margin::Offset(r.range(0.0, 0.3)),
        2 => Margin::CenterRadius(r.range(0.5, 2.0)),
        _ => Margin::None,
    };
    let filter = if r.chance(0.3) {
        let group = [-1, 0, 1, 2][r.below(4)];
        CollisionFilter::new(1 << r.below(3), r.next() & 0b111).with_group(group)
    } else {
        CollisionFilter::ALL
    };
    let events = if r.chance(0.3) {
        EventMode::Continuous
    } else {
        EventMode::Once
    };
    Collider::new(D::shape(r), D::pose(r, extent))
        .with_sensor(r.chance(0.15))
        .with_margin(margin)
        .with_displacement(displacement)
        .with_filter(filter)
        .with_events(events)
        .with_remove_on_contact(r.chance(0.03))
        .with_user_data(r.next())
}

/// The user pair rule of the random run: a pure function of user data.
fn rule<D: Dim>(_: ColliderHandle, a: &Collider<D>, _: ColliderHandle, b: &Collider<D>) -> bool {
    !(a.user_data ^ b.user_data).is_multiple_of(11)
}

// ---------------------------------------------------------------------------
// The brute-force reference: every pair of live colliders, every update.

/// Whether the boxes are more than `gap` apart on some axis (a cheap, exact
/// rejection: shapes inside their boxes are then farther apart than `gap`).
fn boxes_apart<V: Vector>(a: &Aabb<V>, b: &Aabb<V>, gap: f32) -> bool {
    (0..V::DIM).any(|i| a.min.get(i) - b.max.get(i) > gap || b.min.get(i) - a.max.get(i) > gap)
}

/// The touching rule, written out from the issue: `Some((sensor,
/// continuous, manifolds))` when touching.
#[allow(clippy::type_complexity)]
fn reference_touch<D: Dim>(
    a: &Collider<D>,
    b: &Collider<D>,
) -> Option<(bool, bool, Vec<D::Manifold>)> {
    let sensor = a.sensor || b.sensor;
    let continuous = a.events == EventMode::Continuous || b.events == EventMode::Continuous;
    let radius = |c: &Collider<D>| match c.margin {
        Margin::CenterRadius(r) => Some(r),
        _ => None,
    };
    let off = |c: &Collider<D>| match c.margin {
        Margin::Offset(d) => Some(d),
        _ => None,
    };
    let mut ms = Vec::new();
    if radius(a).is_some() || radius(b).is_some() {
        let r = radius(a).unwrap_or(0.0).max(radius(b).unwrap_or(0.0));
        if (D::translation(&b.pose) - D::translation(&a.pose)).length() > r {
            return None;
        }
        if !sensor {
            D::contacts(&a.shape, &a.pose, &b.shape, &b.pose, 0.0, &mut ms);
        }
        return Some((sensor, continuous, ms));
    }
    let offset = match (off(a), off(b)) {
        (None, None) => None,
        (x, y) => {
            Some(x.unwrap_or(0.0) + y.unwrap_or(0.0) + (a.displacement - b.displacement).length())
        }
    };
    let gap = offset.unwrap_or(0.0) + 1e-3;
    if boxes_apart(
        &D::aabb(&a.shape, &a.pose),
        &D::aabb(&b.shape, &b.pose),
        gap,
    ) {
        return None;
    }
    if let Some(o) = offset {
        if D::distance(&a.shape, &a.pose, &b.shape, &b.pose).distance > o {
            return None;
        }
        if !sensor {
            D::contacts(&a.shape, &a.pose, &b.shape, &b.pose, o, &mut ms);
        }
        return Some((sensor, continuous, ms));
    }
    if sensor {
        return D::intersects(&a.shape, &a.pose, &b.shape, &b.pose)
            .then_some((true, continuous, ms));
    }
    D::contacts(&a.shape, &a.pose, &b.shape, &b.pose, 0.0, &mut ms);
    ms.iter()
        .any(|m| D::manifold_depth(m) >= 0.0)
        .then_some((false, continuous, ms))
}

type Key = (ColliderHandle, ColliderHandle);

struct Reference<D: Dim> {
    colliders: BTreeMap<ColliderHandle, Collider<D>>,
    /// Touching pairs: (sensor, continuous, manifolds as text).
    touching: BTreeMap<Key, (bool, bool, String)>,
    watches: Vec<(
        WatchId,
        HashSet<ColliderHandle>,
        HashSet<ColliderHandle>,
        EventMode,
    )>,
    rule: bool,
}

impl<D: Dim> Reference<D> {
    fn new() -> Self {
        Reference {
            colliders: BTreeMap::new(),
            touching: BTreeMap::new(),
            watches: Vec::new(),
            rule: false,
        }
    }

    fn update(&mut self) -> Vec<ContactEvent> {
        let hs: Vec<ColliderHandle> = self.colliders.keys().copied().collect();
        let mut now = BTreeMap::new();
        for i in 0..hs.len() {
            for j in i + 1..hs.len() {
                let (a, b) = (hs[i], hs[j]);
                let (ca, cb) = (&self.colliders[&a], &self.colliders[&b]);
                if !ca.filter.allows(&cb.filter) || (self.rule && !rule(a, ca, b, cb)) {
                    continue;
                }
                if let Some((s, c, ms)) = reference_touch(ca, cb) {
                    now.insert((a, b), (s, c, format!("{ms:?}")));
                }
            }
        }
        // (key, kind, sensor, continuous, removed)
        let keys: BTreeSet<Key> = self.touching.keys().chain(now.keys()).copied().collect();
        let mut ts = Vec::new();
        for k in keys {
            match (self.touching.get(&k), now.get(&k)) {
                (Some(_), Some(n)) => ts.push((k, EventKind::Persisted, n.0, n.1, false)),
                (None, Some(n)) => ts.push((k, EventKind::Began, n.0, n.1, false)),
                (Some(o), None) => ts.push((k, EventKind::Ended, o.0, o.1, false)),
                (None, None) => unreachable!(),
            }
        }
        let going: BTreeSet<ColliderHandle> = ts
            .iter()
            .filter(|t| t.1 == EventKind::Began)
            .flat_map(|t| [t.0 .0, t.0 .1])
            .filter(|h| self.colliders[h].remove_on_contact)
            .collect();
        for t in ts.iter_mut() {
            if going.contains(&t.0 .0) || going.contains(&t.0 .1) {
                match t.1 {
                    EventKind::Began => t.4 = true,
                    EventKind::Persisted => t.1 = EventKind::Ended,
                    EventKind::Ended => {}
                }
            }
        }
        now.retain(|k, _| !going.contains(&k.0) && !going.contains(&k.1));
        for h in &going {
            self.colliders.remove(h);
        }
        self.touching = now;
        let mut out = Vec::new();
        for ((lo, hi), kind, sensor, cont, removed) in ts {
            let ev = |a, b, watch| ContactEvent {
                kind,
                a,
                b,
                sensor,
                removed,
                watch,
                toi: None,
            };
            if kind != EventKind::Persisted || cont {
                out.push(ev(lo, hi, None));
            }
            for (id, wa, wb, mode) in &self.watches {
                if kind == EventKind::Persisted && *mode == EventMode::Once {
                    continue;
                }
                if wa.contains(&lo) && wb.contains(&hi) {
                    out.push(ev(lo, hi, Some(*id)));
                } else if wa.contains(&hi) && wb.contains(&lo) {
                    out.push(ev(hi, lo, Some(*id)));
                }
            }
        }
        out
    }
}

/// Asserts equal event lists, naming the first difference (not the whole
/// lists, which run to hundreds of events).
fn same_events(got: &[ContactEvent], want: &[ContactEvent], at: &str) {
    if let Some(i) = (0..got.len().min(want.len())).find(|&i| got[i] != want[i]) {
        panic!(
            "{at}: event {i} differs: world {:?}, reference {:?}",
            got[i], want[i]
        );
    }
    assert_eq!(got.len(), want.len(), "{at}: event counts differ");
}

/// Inserts into both.
fn insert_both<D: Dim>(w: &mut World<D>, r: &mut Reference<D>, c: Collider<D>) -> ColliderHandle {
    let h = w.insert(c.clone()).expect("valid collider");
    r.colliders.insert(h, c);
    h
}

/// A long random run of world and reference side by side.
fn random_run<D: Gen>(seed: u64, n: usize, extent: f32, steps: usize, moving: f32) -> usize {
    random_run_with_slack::<D>(seed, n, extent, steps, moving, 0.0)
}

/// [`random_run`] with the world's broad-phase slack at `slack`.
fn random_run_with_slack<D: Gen>(
    seed: u64,
    n: usize,
    extent: f32,
    steps: usize,
    moving: f32,
    slack: f32,
) -> usize {
    random_run_switching::<D>(seed, n, extent, steps, moving, slack, None)
}

/// [`random_run_with_slack`]; with `grid: Some(cell)` the world's broad
/// phase changes under way, to a spatial hash with cells of `cell` a third
/// of the way in and to sweep and prune at two thirds, and the events must
/// not notice.
fn random_run_switching<D: Gen>(
    seed: u64,
    n: usize,
    extent: f32,
    steps: usize,
    moving: f32,
    slack: f32,
    grid: Option<f32>,
) -> usize {
    let mut rng = Rng(seed);
    let mut w = World::<D>::new();
    w.set_broad_slack(slack).expect("valid slack");
    let mut r = Reference::<D>::new();
    for _ in 0..n {
        insert_both(&mut w, &mut r, random_collider(&mut rng, extent));
    }
    let mut total = 0;
    let mut kinds = [0usize; 3];
    for step in 0..steps {
        let live: Vec<ColliderHandle> = r.colliders.keys().copied().collect();
        // Motion: a third move a little, a few jump.
        for &h in &live {
            if rng.chance(moving) {
                let c = r.colliders.get_mut(&h).expect("live");
                c.pose = if rng.chance(0.05) {
                    D::pose(&mut rng, extent)
                } else {
                    D::nudge(c.pose, &mut rng, 0.25)
                };
                w.set_pose(h, c.pose).expect("live handle");
            }
        }
        // Changes of flags, filters, margins, displacements, modes.
        for _ in 0..3 {
            let h = live[rng.below(live.len())];
            let fresh = random_collider::<D>(&mut rng, extent);
            let c = r.colliders.get_mut(&h).expect("live");
            match rng.below(5) {
                0 => c.sensor = !c.sensor,
                1 => c.filter = fresh.filter,
                2 => c.margin = fresh.margin,
                3 => c.displacement = fresh.displacement,
                _ => c.events = fresh.events,
            }
            let c2 = c.clone();
            w.modify(h, |x| *x = c2).expect("valid change");
        }
        // Removals and insertions.
        for _ in 0..2 {
            let h = live[rng.below(live.len())];
            if r.colliders.remove(&h).is_some() {
                w.remove(h).expect("live handle");
            }
            insert_both(&mut w, &mut r, random_collider(&mut rng, extent));
        }
        // Watched sets and the pair rule come and go.
        if step == 5 {
            let all: Vec<ColliderHandle> = r.colliders.keys().copied().collect();
            let (a, b) = all.split_at(all.len() / 3);
            let id = w.watch(a, b, EventMode::Continuous);
            r.watches.push((
                id,
                a.iter().copied().collect(),
                b.iter().copied().collect(),
                EventMode::Continuous,
            ));
            let c: Vec<ColliderHandle> =
                all.iter().copied().filter(|h| h.index() % 2 == 0).collect();
            let id = w.watch(&c, &c, EventMode::Once);
            r.watches.push((
                id,
                c.iter().copied().collect(),
                c.iter().copied().collect(),
                EventMode::Once,
            ));
        }
        if step == steps / 2 {
            w.set_pair_filter(Some(Box::new(rule::<D>)));
            r.rule = true;
        }
        if step == steps * 3 / 4 {
            let id = r.watches.remove(0).0;
            assert!(w.unwatch(id));
        }
        if let Some(cell) = grid {
            if step == steps / 3 {
                w.set_broad_phase(SpatialHash::new(cell).expect("valid cell"))
                    .expect("an empty grid");
            }
            if step == steps * 2 / 3 {
                w.set_broad_phase(SweepAndPrune::new())
                    .expect("an empty sweep");
            }
        }
        // Every few steps, an update where nothing changed.
        let rounds = if step % 7 == 3 { 2 } else { 1 };
        for _ in 0..rounds {
            let got = w.update().to_vec();
            let want = r.update();
            same_events(&got, &want, &format!("step {step}, seed {seed}"));
            total += got.len();
            for e in &got {
                kinds[e.kind as usize] += 1;
            }
        }
        let got: Vec<Key> = w.touching_pairs().collect();
        let want: Vec<Key> = r.touching.keys().copied().collect();
        assert_eq!(got, want, "touching pairs differ at step {step}");
        let live_w: Vec<ColliderHandle> = w.iter().map(|(h, _)| h).collect();
        let live_r: Vec<ColliderHandle> = r.colliders.keys().copied().collect();
        assert_eq!(live_w, live_r, "live colliders differ at step {step}");
        if step % 5 == 0 {
            for (k, (_, _, ms)) in &r.touching {
                let got = w.contact_manifolds(k.0, k.1).expect("touching pair");
                assert_eq!(&format!("{got:?}"), ms, "manifolds of {k:?} differ");
            }
        }
    }
    // The run must exercise every kind of event.
    assert!(kinds.iter().all(|&k| k > 20), "too few events: {kinds:?}");
    total
}

/// The same run with the broad phase switched to a grid, then to sweep and
/// prune, part way: every update's events still match the reference.
#[test]
fn random_run_switching_broad_phases_matches_brute_force() {
    let events = random_run_switching::<Dim3>(7, 300, 9.0, 60, 0.3, 0.0, Some(1.5));
    assert!(events > 500, "{events} events");
    let events = random_run_switching::<Dim2>(11, 300, 9.0, 60, 0.3, 0.0, Some(1.0));
    assert!(events > 500, "{events} events");
}

#[test]
fn random_run_3d_matches_brute_force() {
    let events = random_run::<Dim3>(7, 300, 9.0, 50, 0.3);
    assert!(events > 500, "{events} events");
}

/// Few movers: the world finds candidates by box queries of the changed
/// colliders instead of a pass over every broad-phase pair.
#[test]
fn random_run_3d_few_movers_matches_brute_force() {
    let events = random_run::<Dim3>(3, 300, 7.0, 60, 0.01);
    assert!(events > 300, "{events} events");
}

#[test]
fn random_run_2d_matches_brute_force() {
    let events = random_run::<Dim2>(11, 200, 12.0, 50, 0.3);
    assert!(events > 500, "{events} events");
}

/// With slack, many movers: most stay inside their grown boxes, and the
/// pairs to test come from a pass over every broad pair.
#[test]
fn random_run_3d_with_slack_matches_brute_force() {
    let events = random_run_with_slack::<Dim3>(7, 300, 9.0, 50, 0.3, 0.5);
    assert!(events > 500, "{events} events");
}

/// With slack, few movers: their proxies are marked changed, boxes kept.
#[test]
fn random_run_3d_with_slack_few_movers_matches_brute_force() {
    let events = random_run_with_slack::<Dim3>(3, 300, 7.0, 60, 0.01, 0.5);
    assert!(events > 300, "{events} events");
}

#[test]
fn random_run_2d_with_slack_matches_brute_force() {
    let events = random_run_with_slack::<Dim2>(11, 200, 12.0, 50, 0.3, 0.5);
    assert!(events > 500, "{events} events");
}

// ---------------------------------------------------------------------------
// Focused tests: one per filter, sensor, margin, mode and removal path.

fn ball(r: f32) -> d3::Shape {
    d3::Ball::new(r).expect("valid radius").into()
}

fn at(x: f32) -> Pose3 {
    Pose3::from_translation(Vec3::X * x)
}

/// A unit ball at `x` on the x axis.
fn unit(x: f32) -> Collider<Dim3> {
    Collider::new(ball(1.0), at(x))
}

type Brief = (EventKind, ColliderHandle, ColliderHandle, Option<WatchId>);

/// One update's events, in brief.
fn step(w: &mut World3) -> Vec<Brief> {
    w.update()
        .iter()
        .map(|e| (e.kind, e.a, e.b, e.watch))
        .collect()
}

use EventKind::{Began, Ended, Persisted};

#[test]
fn filter_bits_both_ways() {
    let mut w = World3::new();
    let a = w
        .insert(unit(0.0).with_filter(CollisionFilter::new(0b01, 0b10)))
        .expect("insert");
    // b takes a's category in its mask only later.
    let b = w
        .insert(unit(1.5).with_filter(CollisionFilter::new(0b10, 0b10)))
        .expect("insert");
    assert_eq!(step(&mut w), vec![]);
    w.modify(b, |c| c.filter = CollisionFilter::new(0b10, 0b01))
        .expect("live");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    // Filtering a touching pair out ends it.
    w.modify(a, |c| c.filter.mask = 0).expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, b, None)]);
}

/// Two colliders of one negative group never touch, while colliders
/// without a group come and go and a grouped one changes its group; a
/// different negative group lets them touch, and the same one again parts
/// them.
#[test]
fn a_negative_group_holds_while_others_come_and_go() {
    let mut w = World3::new();
    let never = CollisionFilter::ALL.with_group(-1);
    let a = w.insert(unit(0.0).with_filter(never)).expect("insert");
    let b = w.insert(unit(1.5).with_filter(never)).expect("insert");
    assert_eq!(step(&mut w), vec![]);
    // Ungrouped colliders far away, inserted and removed.
    let c = w.insert(unit(50.0)).expect("insert");
    let d = w.insert(unit(60.0)).expect("insert");
    w.remove(c).expect("live");
    w.remove(d).expect("live");
    w.modify(a, |c| c.pose = at(0.1)).expect("live");
    assert_eq!(step(&mut w), vec![]);
    // A grouped one turns ungrouped and back; a changes its group to -2,
    // then back to -1.
    let e = w.insert(unit(70.0).with_filter(never)).expect("insert");
    w.modify(e, |c| c.filter = CollisionFilter::ALL)
        .expect("live");
    w.modify(e, |c| c.filter = never).expect("live");
    w.remove(e).expect("live");
    w.modify(a, |c| c.filter = CollisionFilter::ALL.with_group(-2))
        .expect("live");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    w.modify(a, |c| c.filter = never).expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, b, None)]);
    w.modify(b, |c| c.pose = at(1.4)).expect("live");
    assert_eq!(step(&mut w), vec![]);
}

/// The bits reach the broad phase: pairs they forbid are never listed
/// there (Box2D's joint grid: 10,000 circles that overlap their neighbours
/// and never collide), and a changed filter takes effect at the next update.
#[test]
fn filter_bits_keep_pairs_out_of_the_broad_phase() {
    filter_bits_in(World3::new());
    filter_bits_in(World3::with_broad_phase(SpatialHash::new(2.0).unwrap()).unwrap());
}

fn filter_bits_in(mut w: World3) {
    let apart = CollisionFilter::new(0b10, !0b10);
    let a = w.insert(unit(0.0).with_filter(apart)).expect("insert");
    let b = w.insert(unit(1.5).with_filter(apart)).expect("insert");
    assert_eq!(step(&mut w), vec![]);
    assert_eq!(w.broad_phase().pairs().len(), 0);
    w.modify(b, |c| c.filter = CollisionFilter::ALL)
        .expect("live");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    assert_eq!(w.broad_phase().pairs().len(), 1);
    // A group may override the bits, so the broad phase keeps the pair.
    w.modify(b, |c| c.filter = apart.with_group(-1))
        .expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, b, None)]);
    assert_eq!(w.broad_phase().pairs().len(), 1);
    w.modify(b, |c| c.filter = apart).expect("live");
    assert_eq!(step(&mut w), vec![]);
    assert_eq!(w.broad_phase().pairs().len(), 0);
}

#[test]
fn filter_groups_override_bits() {
    let mut w = World3::new();
    let never = CollisionFilter::ALL.with_group(-1);
    let a = w.insert(unit(0.0).with_filter(never)).expect("insert");
    let _b = w.insert(unit(1.0).with_filter(never)).expect("insert");
    // A different negative group falls back to the bits, which accept.
    let c = w
        .insert(unit(-1.5).with_filter(CollisionFilter::ALL.with_group(-2)))
        .expect("insert");
    // A positive group collides although the masks are empty.
    let always = CollisionFilter::new(1, 0).with_group(3);
    let d = w.insert(unit(100.0).with_filter(always)).expect("insert");
    let e = w.insert(unit(101.0).with_filter(always)).expect("insert");
    assert_eq!(step(&mut w), vec![(Began, a, c, None), (Began, d, e, None)]);
}

#[test]
fn pair_callback_filters_and_is_only_asked_about_changed_pairs() {
    let mut w = World3::new();
    let a = w.insert(unit(0.0).with_user_data(1)).expect("insert");
    let b = w.insert(unit(1.0).with_user_data(2)).expect("insert");
    let c = w.insert(unit(-1.5).with_user_data(5)).expect("insert");
    let far = w.insert(unit(50.0).with_user_data(9)).expect("insert");
    let _far2 = w.insert(unit(51.0).with_user_data(9)).expect("insert");
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    w.set_pair_filter(Some(Box::new(move |_, x, _, y| {
        seen.fetch_add(1, Ordering::Relaxed);
        x.user_data + y.user_data != 3
    })));
    // (a, b) is refused; (a, c) and the far pair are not.
    assert_eq!(
        step(&mut w),
        vec![(Began, a, c, None), (Began, far, _far2, None)]
    );
    let n = calls.load(Ordering::Relaxed);
    assert_eq!(n, 3, "one call per broad-phase pair");
    // Nothing changed: the rule is not asked again, nothing is reported.
    assert_eq!(step(&mut w), vec![]);
    assert_eq!(calls.load(Ordering::Relaxed), n);
    // Moving `far` asks about its one pair only.
    w.set_pose(far, at(50.5)).expect("live");
    assert_eq!(step(&mut w), vec![]);
    assert_eq!(calls.load(Ordering::Relaxed), n + 1);
    // Clearing the rule retests every pair without anything moving.
    w.set_pair_filter(None);
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
}

#[test]
fn sensors_report_overlap_without_manifolds() {
    let mut w = World3::new();
    let s = w.insert(unit(0.0).with_sensor(true)).expect("insert");
    let a = w.insert(unit(1.5)).expect("insert");
    let b = w.insert(unit(3.0)).expect("insert");
    let evs = w.update().to_vec();
    assert_eq!(evs.len(), 2);
    assert!(evs[0].sensor && (evs[0].a, evs[0].b) == (s, a));
    assert!(!evs[1].sensor && (evs[1].a, evs[1].b) == (a, b));
    assert_eq!(w.contact_manifolds(s, a).map(<[_]>::len), Some(0));
    assert!(w.contact_manifolds(b, a).is_some_and(|m| !m.is_empty()));
    assert!(w.contact_manifolds(s, b).is_none());
}

/// The touching pairs read by consecutive ranges are the whole list, in
/// order: a sensor pair counts in `touching_len` and in a range but is left
/// out of it, and a range past the end is empty.
#[test]
fn touching_contacts_by_range_cover_the_list() {
    let mut w = World3::new();
    let _sensor = w.insert(unit(0.0).with_sensor(true)).expect("insert");
    for k in 1..8 {
        w.insert(unit(1.5 * k as f32)).expect("insert");
    }
    w.update();
    let all: Vec<_> = w.touching_contacts().map(|(a, b, _)| (a, b)).collect();
    // Seven solid pairs along the row, one sensor pair.
    assert_eq!((all.len(), w.touching_len()), (6, 7));
    for size in 1..=w.touching_len() + 1 {
        let mut joined = Vec::new();
        for start in (0..w.touching_len()).step_by(size) {
            joined.extend(
                w.touching_contacts_in(start..start + size)
                    .map(|(a, b, _)| (a, b)),
            );
        }
        assert_eq!(joined, all, "ranges of {size}");
    }
    assert_eq!(w.touching_contacts_in(7..9).count(), 0);
    assert_eq!(w.touching_contacts_in(20..30).count(), 0);
}

#[test]
fn offset_margin_touches_at_exactly_the_summed_offset() {
    let mut w = World3::new();
    let a = w
        .insert(unit(0.0).with_margin(Margin::Offset(0.25)))
        .expect("insert");
    // A gap of 0.5 = 0.25 + 0.25: touching, closed.
    let b = w
        .insert(unit(2.5).with_margin(Margin::Offset(0.25)))
        .expect("insert");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    // Solid margin pairs keep speculative manifolds (negative depth).
    let ms = w.contact_manifolds(a, b).expect("touching");
    assert!(!ms.is_empty() && ms[0].depth() < 0.0);
    w.set_pose(b, at(2.51)).expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, b, None)]);
    // One offset alone is not enough for a gap of 0.5.
    w.modify(b, |c| {
        c.pose = at(2.5);
        c.margin = Margin::None;
    })
    .expect("live");
    assert_eq!(step(&mut w), vec![]);
}

#[test]
fn displacement_adds_the_relative_move_to_the_offset() {
    let mut w = World3::new();
    let fast = Vec3::X * 4.0;
    // A gap of 0.5 with offsets 0.125 each: apart while both stand still
    // (the values are exact in binary, so the boundary case is exact).
    let a = w
        .insert(unit(0.0).with_margin(Margin::Offset(0.125)))
        .expect("insert");
    let b = w
        .insert(unit(2.5).with_margin(Margin::Offset(0.125)))
        .expect("insert");
    assert_eq!(step(&mut w), vec![]);
    // Both about to move 4 along x: the gap cannot close, still apart.
    w.modify(a, |c| c.displacement = fast).expect("live");
    w.modify(b, |c| c.displacement = fast).expect("live");
    assert_eq!(step(&mut w), vec![]);
    // B about to move 0.25 towards A on top of that: 0.25 + 0.25 = 0.5,
    // the gap exactly (closed).
    w.modify(b, |c| c.displacement = fast - Vec3::X * 0.25)
        .expect("live");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    let ms = w.contact_manifolds(a, b).expect("touching");
    assert!(!ms.is_empty() && ms[0].depth() < 0.0);
    // 0.24 is not enough.
    w.modify(b, |c| c.displacement = fast - Vec3::X * 0.24)
        .expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, b, None)]);
    // A head-on pair: A about to move 0.125 along +x and B 0.125 along -x.
    w.modify(a, |c| c.displacement = Vec3::X * 0.125)
        .expect("live");
    w.modify(b, |c| c.displacement = Vec3::X * -0.125)
        .expect("live");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    // Without offsets the displacement adds nothing: touching needs overlap.
    w.modify(a, |c| c.margin = Margin::None).expect("live");
    w.modify(b, |c| c.margin = Margin::None).expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, b, None)]);
    // A displacement is checked like a pose.
    let bad = w.modify(a, |c| c.displacement = Vec3::new(f32::NAN, 0.0, 0.0));
    assert_eq!(bad, Err(peng::world::WorldError::NonFiniteDisplacement));
    // Finite components whose length overflows are refused too.
    let long = w.modify(a, |c| c.displacement = Vec3::splat(3e38));
    assert_eq!(long, Err(peng::world::WorldError::NonFiniteDisplacement));
    assert_eq!(w.get(a).map(|c| c.displacement), Ok(Vec3::X * 0.125));
}

#[test]
fn centre_radius_margin_touches_at_exactly_the_larger_radius() {
    let mut w = World3::new();
    let cube: d3::Shape = d3::Cuboid::new(Vec3::splat(0.5)).expect("cuboid").into();
    let a = w
        .insert(Collider::new(cube.clone(), at(0.0)).with_margin(Margin::CenterRadius(3.0)))
        .expect("insert");
    let b = w
        .insert(Collider::new(cube, at(3.0)).with_margin(Margin::CenterRadius(1.0)))
        .expect("insert");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    // Apart shapes: no manifold, but touching by the centre rule.
    assert_eq!(w.contact_manifolds(a, b).map(<[_]>::len), Some(0));
    w.set_pose(b, at(3.01)).expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, b, None)]);
}

#[test]
fn once_mode_reports_begin_and_end_only() {
    let mut w = World3::new();
    let a = w.insert(unit(0.0)).expect("insert");
    let b = w.insert(unit(1.0)).expect("insert");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    w.set_pose(b, at(1.2)).expect("live");
    assert_eq!(step(&mut w), vec![]);
    assert_eq!(step(&mut w), vec![]);
    w.set_pose(b, at(5.0)).expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, b, None)]);
    assert_eq!(step(&mut w), vec![]);
}

#[test]
fn continuous_mode_reports_every_update_while_touching() {
    let mut w = World3::new();
    let a = w.insert(unit(0.0)).expect("insert");
    let b = w
        .insert(unit(1.0).with_events(EventMode::Continuous))
        .expect("insert");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    // Persisted whether or not anything moved.
    assert_eq!(step(&mut w), vec![(Persisted, a, b, None)]);
    w.set_pose(a, at(0.5)).expect("live");
    assert_eq!(step(&mut w), vec![(Persisted, a, b, None)]);
    w.set_pose(b, at(5.0)).expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, b, None)]);
}

#[test]
fn remove_on_contact_removes_at_first_contact_and_ends_other_pairs() {
    let mut w = World3::new();
    let target = w.insert(unit(0.0)).expect("insert");
    let bullet = w
        .insert(unit(5.0).with_remove_on_contact(true))
        .expect("insert");
    assert_eq!(step(&mut w), vec![]);
    assert!(w.contains(bullet));
    w.set_pose(bullet, at(1.9)).expect("live");
    let evs = w.update().to_vec();
    assert_eq!(evs.len(), 1);
    assert!(evs[0].removed && evs[0].kind == Began && (evs[0].a, evs[0].b) == (target, bullet));
    assert!(!w.contains(bullet));
    assert_eq!(w.touching_pairs().count(), 0);
    assert_eq!(step(&mut w), vec![]);

    // A collider flagged while already touching goes when a new contact
    // begins; its old pair ends in the same update (not marked removed).
    let x = w.insert(unit(1.5)).expect("insert");
    assert_eq!(step(&mut w), vec![(Began, target, x, None)]);
    w.modify(x, |c| c.remove_on_contact = true).expect("live");
    assert_eq!(step(&mut w), vec![]);
    let z = w.insert(unit(3.0)).expect("insert");
    let evs = w.update().to_vec();
    let brief: Vec<_> = evs.iter().map(|e| (e.kind, e.a, e.b, e.removed)).collect();
    assert_eq!(brief, vec![(Ended, target, x, false), (Began, x, z, true)]);
    assert!(!w.contains(x) && w.contains(z) && w.contains(target));
    assert_eq!(step(&mut w), vec![]);
}

#[test]
fn removed_colliders_end_their_pairs_with_their_handles() {
    let mut w = World3::new();
    let a = w.insert(unit(0.0)).expect("insert");
    let b = w.insert(unit(1.0)).expect("insert");
    assert_eq!(step(&mut w), vec![(Began, a, b, None)]);
    w.remove(b).expect("live");
    // The slot is reused at once by a collider that also touches `a`.
    let c = w.insert(unit(-1.0)).expect("insert");
    assert_eq!(c.index(), b.index());
    assert_eq!(step(&mut w), vec![(Ended, a, b, None), (Began, a, c, None)]);
    assert!(w.contact_manifolds(a, b).is_none());
    assert_eq!(w.touching_pairs().collect::<Vec<_>>(), vec![(a, c)]);
    w.remove(a).expect("live");
    assert_eq!(step(&mut w), vec![(Ended, a, c, None)]);
    assert_eq!(step(&mut w), vec![]);
    assert!(w.remove(a).is_err());
}

#[test]
fn watched_sets_tag_their_pairs_first_group_first_in_their_mode() {
    let mut w = World3::new();
    let paddle = w.insert(unit(0.0)).expect("insert");
    let wall = w.insert(unit(10.0)).expect("insert");
    let ball_a = w.insert(unit(1.5)).expect("insert");
    let ball_b = w.insert(unit(8.5)).expect("insert");
    let id = w.watch(&[ball_a, ball_b], &[paddle], EventMode::Continuous);
    // The pair's own event, then the tagged copy with the ball first; the
    // ball-wall pair is outside the set and reports untagged only.
    assert_eq!(
        step(&mut w),
        vec![
            (Began, paddle, ball_a, None),
            (Began, ball_a, paddle, Some(id)),
            (Began, wall, ball_b, None),
        ]
    );
    // The set is continuous although the colliders are not.
    assert_eq!(step(&mut w), vec![(Persisted, ball_a, paddle, Some(id))]);
    let once = w.watch(&[wall], &[ball_b], EventMode::Once);
    assert_eq!(step(&mut w), vec![(Persisted, ball_a, paddle, Some(id))]);
    w.set_pose(ball_b, at(20.0)).expect("live");
    assert_eq!(
        step(&mut w),
        vec![
            (Persisted, ball_a, paddle, Some(id)),
            (Ended, wall, ball_b, None),
            (Ended, wall, ball_b, Some(once)),
        ]
    );
    assert!(w.unwatch(id));
    assert!(!w.unwatch(id));
    assert_eq!(step(&mut w), vec![]);
}

/// A ball moving inside its grown box keeps its proxy's box (the broad
/// phase keeps the pair of the grown boxes, touching or not) while the
/// events follow the exact shapes: the pair begins when the balls touch
/// and ends when they part. With `extras` far balls the one mover is
/// marked changed in the broad phase; with none, the pairs come from a
/// pass over the broad pairs.
fn slack_keeps_the_box_and_the_events(extras: usize) {
    let mut w = World3::new();
    w.set_broad_slack(1.0).expect("valid slack");
    let a = w.insert(unit(0.0)).expect("valid");
    let b = w.insert(unit(2.1)).expect("valid");
    for i in 0..extras {
        w.insert(unit(100.0 + 3.0 * i as f32)).expect("valid");
    }
    assert!(step(&mut w).is_empty());
    assert_eq!(w.broad_phase().pairs().len(), 0, "exact boxes at insertion");
    // A first move gives b its grown box (2 on every side): now a broad
    // pair with a, not touching.
    w.set_pose(b, at(2.09)).expect("live");
    assert!(step(&mut w).is_empty());
    assert_eq!(w.broad_phase().pairs().len(), 1, "grown box");
    w.set_pose(b, at(1.99)).expect("live");
    assert_eq!(step(&mut w), vec![(EventKind::Began, a, b, None)]);
    w.set_pose(b, at(1.995)).expect("live");
    assert!(step(&mut w).is_empty(), "persisting is not reported");
    assert_eq!(w.touching_pairs().collect::<Vec<_>>(), vec![(a, b)]);
    w.set_pose(b, at(3.0)).expect("live");
    assert_eq!(step(&mut w), vec![(EventKind::Ended, a, b, None)]);
    assert_eq!(w.broad_phase().pairs().len(), 1, "the box kept");
    // Far away: out of its grown box, given again.
    w.set_pose(b, at(9.0)).expect("live");
    assert!(step(&mut w).is_empty());
    assert_eq!(w.broad_phase().pairs().len(), 0, "given again");
}

#[test]
fn slack_keeps_the_box_and_the_events_by_the_pass() {
    slack_keeps_the_box_and_the_events(0);
}

#[test]
fn slack_keeps_the_box_and_the_events_by_marking() {
    slack_keeps_the_box_and_the_events(40);
}

#[test]
fn broad_slack_rejects_bad_fractions() {
    let mut w = World3::new();
    for bad in [-0.1, f32::NAN, f32::INFINITY] {
        assert!(w.set_broad_slack(bad).is_err(), "{bad}");
    }
    assert_eq!(w.broad_slack(), 0.0);
}

/// A grid of squares with tens of thousands of touching pairs, where the
/// merge of an update with no new pair walks its list in many chunks on
/// rayon's threads: exactly the pairs of the cells sent away end, in pair
/// order, and a watch sees every persisting pair of its set; with manifold
/// reuse on and off.
#[test]
fn a_large_grid_ends_exactly_the_pairs_of_the_cells_sent_away() {
    for reuse in [None, Some(0.004)] {
        let side = 70usize;
        let mut w = World::<Dim2>::new();
        w.set_manifold_reuse(reuse).expect("valid tolerance");
        let square: d2::Shape = d2::Rect::new(Vec2::splat(0.5)).expect("rect").into();
        let at = |i: usize, dx: f32| {
            let (x, y) = ((i % side) as f32, (i / side) as f32);
            Pose2::new(Vec2::new(x * 0.99 + dx, y * 0.99), 0.0)
        };
        let cells: Vec<ColliderHandle> = (0..side * side)
            .map(|i| {
                let c = Collider::<Dim2>::new(square.clone(), at(i, 0.0))
                    .with_margin(Margin::Offset(0.01));
                w.insert(c).expect("insert")
            })
            .collect();
        let began = w.update().len();
        // Sides and corners of neighbours overlap: 2 (n - 1) n + 2 (n - 1)^2.
        let pairs = 2 * (side - 1) * side + 2 * (side - 1) * (side - 1);
        assert_eq!((began, w.touching_len()), (pairs, pairs));
        let before: Vec<Key> = w.touching_pairs().collect();
        let slot: BTreeMap<ColliderHandle, usize> =
            cells.iter().enumerate().map(|(i, &h)| (h, i)).collect();
        // Every third row creeps 0.1 mm; every eleventh cell goes far away,
        // each to a place of its own.
        let away = |h: &ColliderHandle| slot[h].is_multiple_of(11);
        for (i, &h) in cells.iter().enumerate() {
            let pose = if i.is_multiple_of(11) {
                Pose2::new(Vec2::new(10.0 * i as f32, 1.0e4), 0.0)
            } else if (i / side).is_multiple_of(3) {
                at(i, 1e-4)
            } else {
                continue;
            };
            w.set_pose(h, pose).expect("move");
        }
        let got = w.update().to_vec();
        let ended: Vec<Key> = before
            .iter()
            .copied()
            .filter(|(a, b)| away(a) || away(b))
            .collect();
        assert!(ended.len() > 3000, "{}", ended.len());
        let want: Vec<Key> = got
            .iter()
            .map(|e| {
                assert_eq!((e.kind, e.watch), (EventKind::Ended, None), "{e:?}");
                (e.a, e.b)
            })
            .collect();
        assert_eq!(want, ended, "reuse {reuse:?}");
        let kept: Vec<Key> = before
            .iter()
            .copied()
            .filter(|(a, b)| !(away(a) || away(b)))
            .collect();
        assert_eq!(w.touching_pairs().collect::<Vec<_>>(), kept);
        // A continuous watch of the first 100 cells against all of them:
        // one persisted event for each of their pairs, as the rows creep
        // back.
        let first: Vec<ColliderHandle> = cells[..100].to_vec();
        let id = w.watch(&first, &cells, EventMode::Continuous);
        for (i, &h) in cells.iter().enumerate() {
            if !i.is_multiple_of(11) && (i / side).is_multiple_of(3) {
                w.set_pose(h, at(i, 0.0)).expect("move");
            }
        }
        let got = w.update().to_vec();
        let watched = kept
            .iter()
            .filter(|(a, b)| slot[a] < 100 || slot[b] < 100)
            .count();
        assert!(watched > 100, "{watched}");
        assert_eq!(got.len(), watched, "reuse {reuse:?}");
        assert!(got
            .iter()
            .all(|e| e.kind == EventKind::Persisted && e.watch == Some(id)));
    }
}
