//! Sphere trees: leaf pairs from the simultaneous descent equal the brute-force
//! set of overlapping leaf balls on random inputs (2D and 3D, random poses);
//! every internal ball holds its children and its leaves; degenerate inputs
//! (coincident points, one leaf, no leaf, zero radii, bad numbers).

use peng::bound::{BoundingBall, SphereTree, SphereTree2, SphereTree3};
use peng::math::{Pose2, Pose3, Vec2, Vec3, Vector};
use peng::mesh::TriMesh;
use peng::GeometryError;
use proptest::prelude::*;

/// SplitMix64 for reproducible inputs from a proptest seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_vec<V: Vector>(rng: &mut Rng, lo: f32, hi: f32) -> V {
    let mut v = V::ZERO;
    for i in 0..V::DIM {
        v.set(i, rng.f(lo, hi));
    }
    v
}

/// Random balls: clustered centres (some coincident), radii mixing zero,
/// small and a few large ones.
fn random_balls<V: Vector>(rng: &mut Rng, n: usize, extent: f32) -> Vec<BoundingBall<V>> {
    let mut out: Vec<BoundingBall<V>> = Vec::with_capacity(n);
    for _ in 0..n {
        let center = if !out.is_empty() && rng.below(8) == 0 {
            out[rng.below(out.len() as u64) as usize].center
        } else {
            random_vec(rng, -extent, extent)
        };
        let radius = match rng.below(10) {
            0 => 0.0,
            1 => rng.f(1.0, 4.0),
            _ => rng.f(0.0, 0.8),
        };
        out.push(BoundingBall::new(center, radius));
    }
    out
}

/// Brute force: every leaf pair, with B's centres mapped into A's frame and
/// the closed overlap test, sorted.
fn brute<V: Vector>(
    a: &[BoundingBall<V>],
    b: &[BoundingBall<V>],
    map: impl Fn(V) -> V,
) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            let yb = BoundingBall::new(map(y.center), y.radius);
            if x.overlaps(&yb) {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

/// Checks the structure: node count `2n - 1`, items a permutation, every
/// internal ball holding its children exactly as computed and every leaf of
/// its subtree within a relative tolerance, depth at most `⌈log2 n⌉`.
fn check_structure<V: Vector>(t: &SphereTree<V>, leaves: &[BoundingBall<V>]) -> Result<(), String> {
    let n = leaves.len();
    let nodes = t.nodes();
    if nodes.len() != (2 * n).saturating_sub(1) || t.num_leaves() != n {
        return Err(format!("{} nodes for {n} leaves", nodes.len()));
    }
    let mut seen = vec![false; n];
    // (node, depth, first leaf index of the subtree's ball list in `items`)
    fn walk<V: Vector>(
        nodes: &[peng::bound::SphereNode<V>],
        i: usize,
        depth: usize,
        items: &mut Vec<u32>,
        max_depth: &mut usize,
    ) -> Result<(), String> {
        *max_depth = (*max_depth).max(depth);
        let node = &nodes[i];
        if let Some(item) = node.leaf_item() {
            items.push(item);
            return Ok(());
        }
        let second = node.second_child().ok_or("internal node without child")? as usize;
        for c in [i + 1, second] {
            if !node.ball.contains_ball(&nodes[c].ball) {
                return Err(format!("node {i} does not hold child {c}"));
            }
        }
        walk(nodes, i + 1, depth + 1, items, max_depth)?;
        walk(nodes, second, depth + 1, items, max_depth)
    }
    if n == 0 {
        return Ok(());
    }
    // For every internal node: all leaves of its subtree inside its ball.
    for (i, node) in nodes.iter().enumerate() {
        let mut items = Vec::new();
        let mut depth = 0;
        walk(nodes, i, 0, &mut items, &mut depth)?;
        for &it in &items {
            let l = &leaves[it as usize];
            let tol = 1e-5 * (1.0 + node.ball.radius + node.ball.center.abs().max_element());
            let reach = (l.center - node.ball.center).length() + l.radius;
            if reach > node.ball.radius + tol {
                return Err(format!(
                    "leaf {it} sticks out of node {i} by {}",
                    reach - node.ball.radius
                ));
            }
            if i == 0 {
                if seen[it as usize] {
                    return Err(format!("item {it} twice"));
                }
                seen[it as usize] = true;
            }
        }
        if i == 0 {
            let bound = (usize::BITS - (n - 1).leading_zeros()) as usize;
            if depth > bound {
                return Err(format!("depth {depth} > ⌈log2 {n}⌉ = {bound}"));
            }
        }
    }
    if seen.iter().any(|s| !s) {
        return Err("an item is missing".into());
    }
    // Leaf balls are the given ones.
    for node in nodes {
        if let Some(it) = node.leaf_item() {
            if node.ball != leaves[it as usize] {
                return Err(format!("leaf {it} ball changed"));
            }
        }
    }
    Ok(())
}

fn sorted(mut v: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    v.sort_unstable();
    v
}

fn run_3d(seed: u64, na: usize, nb: usize, extent: f32) -> Result<(), String> {
    let mut rng = Rng(seed);
    let la = random_balls::<Vec3>(&mut rng, na, extent);
    let lb = random_balls::<Vec3>(&mut rng, nb, extent);
    let ta = SphereTree3::from_balls(&la).map_err(|e| e.to_string())?;
    let tb = SphereTree3::from_balls(&lb).map_err(|e| e.to_string())?;
    check_structure(&ta, &la)?;
    check_structure(&tb, &lb)?;
    let pose = |rng: &mut Rng| {
        Pose3::from_axis_angle(
            random_vec(rng, -extent, extent),
            random_vec::<Vec3>(rng, -2.0, 2.0),
        )
    };
    let (pa, pb) = (pose(&mut rng), pose(&mut rng));
    let mut got = Vec::new();
    ta.overlap_pairs(&pa, &tb, &pb, &mut got);
    let got = sorted(got);
    if got.windows(2).any(|w| w[0] == w[1]) {
        return Err("a pair reported twice".into());
    }
    let rel = pa.inv_mul(&pb);
    let want = brute(&la, &lb, |p| rel.transform_point(p));
    if got != want {
        return Err(format!("{} pairs, want {}", got.len(), want.len()));
    }
    // Independently of the frame the tree works in: pairs clearly apart in
    // world space are absent, pairs clearly overlapping are present.
    for (i, x) in la.iter().enumerate() {
        for (j, y) in lb.iter().enumerate() {
            let d = (pa.transform_point(x.center) - pb.transform_point(y.center)).length();
            let r = x.radius + y.radius;
            let has = got.binary_search(&(i as u32, j as u32)).is_ok();
            if (d < r - 1e-3 && !has) || (d > r + 1e-3 && has) {
                return Err(format!(
                    "world-space check failed for ({i}, {j}): d {d}, r {r}"
                ));
            }
        }
    }
    // The symmetric query gives the swapped pairs.
    let mut back = Vec::new();
    tb.overlap_pairs(&pb, &ta, &pa, &mut back);
    let back = sorted(back.into_iter().map(|(j, i)| (i, j)).collect());
    let sym = back
        .iter()
        .filter(|p| got.binary_search(p).is_err())
        .count()
        + got
            .iter()
            .filter(|p| back.binary_search(p).is_err())
            .count();
    // Both directions round differently; only exactly tangent pairs may differ.
    if sym > got.len() / 50 + 2 {
        return Err(format!("{sym} pairs differ between A-vs-B and B-vs-A"));
    }
    Ok(())
}

fn run_2d(seed: u64, na: usize, nb: usize, extent: f32) -> Result<(), String> {
    let mut rng = Rng(seed);
    let la = random_balls::<Vec2>(&mut rng, na, extent);
    let lb = random_balls::<Vec2>(&mut rng, nb, extent);
    let ta = SphereTree2::from_balls(&la).map_err(|e| e.to_string())?;
    let tb = SphereTree2::from_balls(&lb).map_err(|e| e.to_string())?;
    check_structure(&ta, &la)?;
    check_structure(&tb, &lb)?;
    let pa = Pose2::new(random_vec(&mut rng, -extent, extent), rng.f(-3.0, 3.0));
    let pb = Pose2::new(random_vec(&mut rng, -extent, extent), rng.f(-3.0, 3.0));
    let mut got = Vec::new();
    ta.overlap_pairs(&pa, &tb, &pb, &mut got);
    let got = sorted(got);
    let rel = pa.inv_mul(&pb);
    let want = brute(&la, &lb, |p| rel.transform_point(p));
    if got != want {
        return Err(format!("{} pairs, want {}", got.len(), want.len()));
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::seeds::cases(64))]

    #[test]
    fn leaf_pairs_3d_equal_brute_force(
        seed in any::<u64>(), na in 1usize..250, nb in 1usize..250, extent in 1.0f32..30.0
    ) {
        prop_assert_eq!(run_3d(seed, na, nb, extent), Ok(()));
    }

    #[test]
    fn leaf_pairs_2d_equal_brute_force(
        seed in any::<u64>(), na in 1usize..250, nb in 1usize..250, extent in 1.0f32..30.0
    ) {
        prop_assert_eq!(run_2d(seed, na, nb, extent), Ok(()));
    }
}

#[test]
fn far_from_the_origin_and_exactly_touching() {
    // Far from the origin (large centres, rounding in the mapped centres).
    assert_eq!(run_3d(11, 300, 300, 1.0e4), Ok(()));
    // Unit balls on an integer lattice touch their neighbours exactly; the
    // identity pose keeps every coordinate exact.
    let mut balls = Vec::new();
    for x in 0..6 {
        for y in 0..6 {
            for z in 0..6 {
                balls.push(BoundingBall::new(
                    Vec3::new(x as f32, y as f32, z as f32) * 2.0,
                    1.0,
                ));
            }
        }
    }
    let t = SphereTree3::from_balls(&balls).unwrap();
    check_structure(&t, &balls).unwrap();
    let mut got = Vec::new();
    t.overlap_pairs(&Pose3::IDENTITY, &t, &Pose3::IDENTITY, &mut got);
    let got = sorted(got);
    assert_eq!(got, brute(&balls, &balls, |p| p));
    // Each ball meets itself and its lattice neighbours: 6^3 + 2 · 3 · 5 · 6^2.
    assert_eq!(got.len(), 216 + 2 * 3 * 5 * 36);
}

#[test]
fn internal_balls_are_exact_merges() {
    let a = BoundingBall::new(Vec3::ZERO, 1.0);
    let b = BoundingBall::new(Vec3::new(4.0, 0.0, 0.0), 1.0);
    let t = SphereTree3::from_balls(&[a, b]).unwrap();
    let root = t.root().unwrap();
    assert_eq!(root.center, Vec3::new(2.0, 0.0, 0.0));
    assert_eq!(root.radius, 3.0);
    // One ball inside the other: the root is the outer ball.
    let inner = BoundingBall::new(Vec3::new(0.5, 0.0, 0.0), 0.25);
    let t = SphereTree3::from_balls(&[inner, a]).unwrap();
    assert_eq!(t.root(), Some(a));
    // Split on the axis of largest spread: y here; the lower half first.
    let pts = [
        Vec2::new(0.0, 10.0),
        Vec2::new(0.1, -10.0),
        Vec2::new(0.2, 5.0),
        Vec2::new(0.3, -5.0),
    ];
    let t = SphereTree2::from_points(&pts, 0.0).unwrap();
    check_structure(&t, &pts.map(|p| BoundingBall::new(p, 0.0))).unwrap();
    let left = &t.nodes()[1];
    let l_items: Vec<u32> = t.nodes()[2..4]
        .iter()
        .filter_map(|n| n.leaf_item())
        .collect();
    assert!(left.leaf_item().is_none());
    assert_eq!(
        sorted(l_items.iter().map(|&i| (i, 0)).collect()),
        vec![(1, 0), (3, 0)]
    );
}

#[test]
fn degenerate_inputs() {
    // Coincident points: a balanced tree all the same, every pair overlaps.
    let same = vec![Vec3::splat(3.0); 64];
    let t = SphereTree3::from_points(&same, 0.0).unwrap();
    check_structure(
        &t,
        &same
            .iter()
            .map(|&p| BoundingBall::new(p, 0.0))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert_eq!(t.root(), Some(BoundingBall::new(Vec3::splat(3.0), 0.0)));
    let mut got = Vec::new();
    t.overlap_pairs(&Pose3::IDENTITY, &t, &Pose3::IDENTITY, &mut got);
    assert_eq!(got.len(), 64 * 64);
    // Zero radius points a hair apart do not overlap.
    let other = SphereTree3::from_points(&[Vec3::new(3.0, 3.0, 3.001)], 0.0).unwrap();
    got.clear();
    t.overlap_pairs(&Pose3::IDENTITY, &other, &Pose3::IDENTITY, &mut got);
    assert!(got.is_empty());
    // One leaf against one leaf.
    let one = SphereTree2::from_points(&[Vec2::ZERO], 1.0).unwrap();
    assert_eq!(one.nodes().len(), 1);
    assert_eq!(one.nodes()[0].leaf_item(), Some(0));
    let mut got = Vec::new();
    let touch = Pose2::from_translation(Vec2::new(2.0, 0.0));
    one.overlap_pairs(&Pose2::IDENTITY, &one, &touch, &mut got);
    assert_eq!(got, vec![(0, 0)]);
    let apart = Pose2::from_translation(Vec2::new(2.001, 0.0));
    got.clear();
    one.overlap_pairs(&Pose2::IDENTITY, &one, &apart, &mut got);
    assert!(got.is_empty());
    // The empty tree meets nothing.
    let empty = SphereTree2::from_balls(&[]).unwrap();
    assert!(empty.is_empty() && empty.root().is_none() && empty.num_leaves() == 0);
    one.overlap_pairs(&Pose2::IDENTITY, &empty, &Pose2::IDENTITY, &mut got);
    empty.overlap_pairs(&Pose2::IDENTITY, &one, &Pose2::IDENTITY, &mut got);
    assert!(got.is_empty());
    assert_eq!(SphereTree3::default().num_leaves(), 0);
    // Bad numbers are errors, not panics.
    assert!(matches!(
        SphereTree3::from_points(&[Vec3::new(f32::NAN, 0.0, 0.0)], 1.0),
        Err(GeometryError::NonFinite { .. })
    ));
    assert!(matches!(
        SphereTree3::from_points(&[Vec3::ZERO], f32::INFINITY),
        Err(GeometryError::NonFinite { .. })
    ));
    assert!(matches!(
        SphereTree2::from_points(&[Vec2::ZERO], -1.0),
        Err(GeometryError::Negative { .. })
    ));
    assert!(matches!(
        SphereTree3::from_triangles([[Vec3::ZERO, Vec3::X, Vec3::splat(f32::INFINITY)]]),
        Err(GeometryError::NonFinite { .. })
    ));
}

/// A wavy grid of `n × n` quads (two triangles each) of side `s`.
fn grid_mesh(n: u32, s: f32) -> TriMesh {
    let mut v = Vec::new();
    for y in 0..=n {
        for x in 0..=n {
            let (fx, fy) = (x as f32 * s, y as f32 * s);
            v.push(Vec3::new(fx, fy, (fx * 0.7).sin() * (fy * 0.4).cos()));
        }
    }
    let mut t = Vec::new();
    let id = |x: u32, y: u32| y * (n + 1) + x;
    for y in 0..n {
        for x in 0..n {
            t.push([id(x, y), id(x + 1, y), id(x + 1, y + 1)]);
            t.push([id(x, y), id(x + 1, y + 1), id(x, y + 1)]);
        }
    }
    // A degenerate (collinear) triangle too.
    t.push([id(0, 0), id(1, 0), id(2, 0)]);
    TriMesh::new(v, t).unwrap()
}

#[test]
fn trimesh_trees_bound_their_triangles_and_match_brute_force() {
    let mesh = grid_mesh(12, 0.5);
    let t = SphereTree3::from_trimesh(&mesh).unwrap();
    assert_eq!(t.num_leaves(), mesh.num_triangles());
    let leaves: Vec<BoundingBall<Vec3>> = {
        let mut l = vec![BoundingBall::new(Vec3::ZERO, -1.0); mesh.num_triangles()];
        for n in t.nodes() {
            if let Some(i) = n.leaf_item() {
                l[i as usize] = n.ball;
            }
        }
        l
    };
    check_structure(&t, &leaves).unwrap();
    for (i, b) in leaves.iter().enumerate() {
        let tri = mesh.triangle(i as u32);
        // Holds its corners, and is no larger than the ball on the longest
        // edge's midpoint through the far corner (a bound on the minimum ball).
        assert!(tri.iter().all(|&p| b.contains_point(p)), "triangle {i}");
        let [p, q, r] = tri;
        let longest = [(p - q).length(), (q - r).length(), (r - p).length()]
            .into_iter()
            .fold(0.0, f32::max);
        assert!(
            b.radius <= longest * 0.5 * 1.1548 + 1e-5,
            "triangle {i}: r {}",
            b.radius
        );
    }
    // The mesh against a turned copy of itself.
    let pose_b = Pose3::from_axis_angle(Vec3::new(3.0, 2.0, 0.3), Vec3::new(0.2, -0.4, 1.1));
    let mut got = Vec::new();
    t.overlap_pairs(&Pose3::IDENTITY, &t, &pose_b, &mut got);
    let got = sorted(got);
    assert!(!got.is_empty());
    assert_eq!(got, brute(&leaves, &leaves, |x| pose_b.transform_point(x)));
}
