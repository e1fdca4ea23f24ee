//! Clash tests on boxes and bars whose answers are known in closed form.

use glam::DVec3;
use peng_clash::{
    run, test_pair, ClashKind, ClashTest, Element, Identity, IgnoreRules, Mode, Solid,
};

fn element(id: &str, s: Solid) -> Element {
    let identity = Identity {
        id: id.into(),
        class: "IfcBuildingElementProxy".into(),
        file: "test.ifc".into(),
        ..Identity::default()
    };
    Element::from_world(identity, &s.vertices, s.triangles).unwrap()
}

fn cube(id: &str, min: [f64; 3], size: f64) -> Element {
    let min = DVec3::from(min);
    element(id, Solid::cuboid(min, min + DVec3::splat(size)))
}

const INTERSECTION: Mode = Mode::INTERSECTION;
const TOUCHING: Mode = Mode::TOUCHING;
const COLLISION: Mode = Mode::COLLISION;

/// Far from the origin, as building models are (survey coordinates).
const FAR: [f64; 3] = [2_431_000.0, 1_152_000.0, 431.0];

fn at(base: [f64; 3], d: [f64; 3]) -> [f64; 3] {
    [base[0] + d[0], base[1] + d[1], base[2] + d[2]]
}

#[test]
fn touching_faces_clash_only_without_tolerance() {
    for base in [[0.0; 3], FAR] {
        let a = cube("A", base, 1.0);
        let b = cube("B", at(base, [1.0, 0.0, 0.0]), 1.0);
        assert_eq!(test_pair(&a, &b, INTERSECTION), None, "base {base:?}");
        // Touching is no collision either; only reporting touches shows it.
        assert_eq!(test_pair(&a, &b, COLLISION), None, "base {base:?}");
        let f = test_pair(&a, &b, TOUCHING).expect("touching faces collide");
        assert_eq!(f.kind, ClashKind::Touch);
        assert_eq!(f.distance, 0.0);
        // The common point lies on the shared face x = 1.
        assert!((f.point_a.x - (base[0] + 1.0)).abs() < 1e-6, "{f:?}");
        // A millimetre apart: no contact at all.
        let c = cube("C", at(base, [1.001, 0.0, 0.0]), 1.0);
        assert_eq!(test_pair(&a, &c, TOUCHING), None);
    }
}

#[test]
fn overlap_depth_is_the_overlap() {
    for base in [[0.0; 3], FAR] {
        let a = cube("A", base, 1.0);
        for (delta, over_tolerance) in [(0.01, true), (0.25, true), (0.001, false)] {
            let b = cube("B", at(base, [1.0 - delta, 0.3, 0.2]), 1.0);
            let f = test_pair(&a, &b, TOUCHING).unwrap();
            assert_eq!(f.kind, ClashKind::Protrusion, "delta {delta}");
            assert!((f.distance + delta).abs() < 1e-5, "delta {delta}: {f:?}");
            assert!(((f.point_a - f.point_b).length() - delta).abs() < 1e-5);
            let hard = test_pair(&a, &b, INTERSECTION);
            assert_eq!(hard.is_some(), over_tolerance, "delta {delta}: {hard:?}");
            assert_eq!(
                test_pair(&a, &b, COLLISION).map(|f| f.kind),
                Some(ClashKind::Protrusion)
            );
            // Faces flush on the other axes: the sunk face gives the depth.
            let flush = cube("F", at(base, [1.0 - delta, 0.0, 0.0]), 1.0);
            let f = test_pair(&a, &flush, TOUCHING).unwrap();
            assert!(
                (f.distance + delta).abs() < 1e-5,
                "flush delta {delta}: {f:?}"
            );
        }
    }
}

#[test]
fn rod_through_slab_is_a_pierce_half_the_slab_deep() {
    for base in [[0.0; 3], FAR] {
        let o = DVec3::from(base);
        let slab = element(
            "slab",
            Solid::cuboid(
                o + DVec3::new(-2.0, -2.0, -0.1),
                o + DVec3::new(2.0, 2.0, 0.1),
            ),
        );
        let rod = element(
            "rod",
            Solid::cuboid(
                o + DVec3::new(-0.05, -0.05, -1.0),
                o + DVec3::new(0.05, 0.05, 1.0),
            ),
        );
        for (a, b) in [(&slab, &rod), (&rod, &slab)] {
            let f = test_pair(a, b, INTERSECTION).unwrap();
            assert_eq!(f.kind, ClashKind::Pierce);
            assert!((f.distance + 0.1).abs() < 1e-5, "{f:?}");
            // The deepest point is on the slab's mid-plane.
            let on_rod = if std::ptr::eq(a, &rod) {
                f.point_a
            } else {
                f.point_b
            };
            assert!((on_rod.z - o.z).abs() < 1e-5, "{f:?}");
        }
        // A round pipe through a wall.
        let wall = element(
            "wall",
            Solid::cuboid(
                o + DVec3::new(0.0, -3.0, 0.0),
                o + DVec3::new(0.3, 3.0, 3.0),
            ),
        );
        let pipe = element(
            "pipe",
            Solid::bar(
                o + DVec3::new(-1.0, 0.0, 1.5),
                o + DVec3::new(1.0, 0.0, 1.5),
                0.08,
                16,
            ),
        );
        let f = test_pair(&wall, &pipe, INTERSECTION).unwrap();
        assert_eq!(f.kind, ClashKind::Pierce);
        assert!((f.distance + 0.15).abs() < 1e-5, "{f:?}");
    }
}

#[test]
fn depth_found_inside_a_face_away_from_every_corner_and_edge() {
    // A thin plate through the middle of a cube, its corners and edges all
    // outside: its top face at z = 0.01 passes the cube's centre, 0.99 from
    // the cube's top face. Probes at corners, centroids and edges see at most
    // a tenth of that.
    for base in [[0.0; 3], FAR] {
        let o = DVec3::from(base);
        let cube = element("cube", Solid::cuboid(o - DVec3::ONE, o + DVec3::ONE));
        let plate = element(
            "plate",
            Solid::cuboid(
                o + DVec3::new(-1.5, -1.5, -0.01),
                o + DVec3::new(9.0, 1.5, 0.01),
            ),
        );
        for (a, b) in [(&cube, &plate), (&plate, &cube)] {
            let f = test_pair(a, b, INTERSECTION).unwrap();
            assert!((f.distance + 0.99).abs() < 0.99 * 0.05, "{f:?}");
            assert!(
                ((f.point_a - f.point_b).length() + f.distance).abs() < 1e-4,
                "{f:?}"
            );
        }
    }
}

/// An open box (its top left off, as a cabinet exported without its lid)
/// under a countertop whose underside its sides reach 1 mm into: within the
/// 2 mm tolerance. The countertop's underside spans the box's open
/// top, where the winding number calls it inside, 0.3 m from the box's
/// sides; but only where it crosses the box's faces does it enter the box,
/// and there only 1 mm. A rod through the box's sides crosses them: a clash
/// at least as deep as the sides reach into the rod (half its thickness) and
/// no deeper than the middle of the box (where, the lid missing, the box
/// holds no volume for certain).
#[test]
fn a_countertop_on_an_open_box_is_as_deep_as_the_box_reaches() {
    for base in [[0.0; 3], FAR] {
        let o = DVec3::from(base);
        let s = Solid::cuboid(o, o + DVec3::new(0.8, 0.6, 0.901));
        // Leave out the two triangles of the top face.
        let top = |t: &[u32; 3]| {
            t.iter()
                .all(|&i| (s.vertices[i as usize].z - o.z - 0.901).abs() < 1e-9)
        };
        let open = element(
            "cabinet",
            Solid {
                vertices: s.vertices.clone(),
                triangles: s.triangles.iter().filter(|t| !top(t)).copied().collect(),
            },
        );
        assert!(!open.is_closed());
        let counter = element(
            "counter",
            Solid::cuboid(
                o + DVec3::new(-0.3, -0.05, 0.9),
                o + DVec3::new(1.2, 0.65, 0.94),
            ),
        );
        for (a, b) in [(&open, &counter), (&counter, &open)] {
            assert_eq!(test_pair(a, b, INTERSECTION), None);
            // Without a tolerance: the sides' 1 mm.
            let f = test_pair(a, b, COLLISION).unwrap();
            assert_eq!(f.kind, ClashKind::Protrusion, "{f:?}");
            assert!((f.distance + 0.001).abs() < 1e-5, "{f:?}");
        }
        let rod = element(
            "rod",
            Solid::cuboid(
                o + DVec3::new(-0.5, 0.25, 0.4),
                o + DVec3::new(1.3, 0.35, 0.5),
            ),
        );
        let f = test_pair(&rod, &open, INTERSECTION).unwrap();
        assert!(
            matches!(f.kind, ClashKind::Pierce | ClashKind::Protrusion),
            "{f:?}"
        );
        assert!(f.distance <= -0.05 + 1e-5 && f.distance >= -0.3, "{f:?}");
    }
}

/// An open face (two triangles, a pane left without its thickness) lying
/// 38 mm inside two identical windows: the same answer for both windows,
/// although the face's diagonal crosses them differently, and whichever
/// element is A. The face enters each window 38 mm from its nearer side.
#[test]
fn a_face_through_two_identical_solids_gets_one_answer() {
    for base in [[0.0; 3], FAR] {
        let o = DVec3::from(base);
        let window = |id: &str, x: f64| {
            element(
                id,
                Solid::cuboid(
                    o + DVec3::new(x, 0.0, 0.0),
                    o + DVec3::new(x + 1.0, 0.1, 1.2),
                ),
            )
        };
        let (w1, w2) = (window("w1", 0.0), window("w2", 2.0));
        let corners = [[-0.5, 0.2], [3.5, 0.2], [3.5, 1.0], [-0.5, 1.0]];
        let face = element(
            "pane",
            Solid {
                vertices: corners
                    .iter()
                    .map(|[x, z]| o + DVec3::new(*x, 0.038, *z))
                    .collect(),
                triangles: vec![[0, 1, 2], [0, 2, 3]],
            },
        );
        let mut answers = Vec::new();
        for w in [&w1, &w2] {
            for (a, b) in [(w, &face), (&face, w)] {
                let f = test_pair(a, b, INTERSECTION).unwrap();
                answers.push((f.kind, f.distance));
            }
        }
        for (kind, distance) in &answers {
            assert_eq!(*kind, answers[0].0, "{answers:?}");
            assert!((distance - answers[0].1).abs() < 1e-6, "{answers:?}");
        }
        assert!((answers[0].1 + 0.038).abs() < 1e-5, "{answers:?}");
    }
}

#[test]
fn box_inside_box_is_containment() {
    for base in [[0.0; 3], FAR] {
        let outer = cube("outer", base, 1.0);
        let inner = cube("inner", at(base, [0.3, 0.4, 0.4]), 0.2);
        let f = test_pair(&inner, &outer, INTERSECTION).unwrap();
        assert_eq!(f.kind, ClashKind::Containment);
        // The inner box spans [0.3, 0.5] x [0.4, 0.6]²: its face x = 0.5
        // passes the outer box's centre, 0.5 from every outer face (its
        // corners are only 0.4 deep).
        assert!(f.distance <= -0.5 / 1.04 && f.distance >= -0.5, "{f:?}");
        // A first or B first: same kind and depth, points in set order.
        let g = test_pair(&outer, &inner, INTERSECTION).unwrap();
        assert_eq!(g.kind, ClashKind::Containment);
        assert_eq!(g.distance, f.distance);
        assert_eq!((g.point_a, g.point_b), (f.point_b, f.point_a));
        // Inside an open (surface-only) element is not containment.
        let s = Solid::cuboid(DVec3::from(base), DVec3::from(base) + DVec3::ONE);
        let open = element(
            "open",
            Solid {
                vertices: s.vertices,
                triangles: s.triangles[..10].to_vec(),
            },
        );
        assert_eq!(test_pair(&inner, &open, INTERSECTION), None);
    }
}

#[test]
fn clearance_counts_gaps_below_the_distance_only() {
    for base in [[0.0; 3], FAR] {
        let a = cube("A", base, 1.0);
        let c = 0.05;
        for (gap, clash) in [(0.05, false), (0.0499, true), (0.0501, false), (0.01, true)] {
            let b = cube("B", at(base, [1.0 + gap, 0.5, 0.0]), 1.0);
            let f = test_pair(&a, &b, Mode::Clearance { distance: c });
            assert_eq!(f.is_some(), clash, "gap {gap}: {f:?}");
            if let Some(f) = f {
                assert_eq!(f.kind, ClashKind::Clearance);
                assert!((f.distance - gap).abs() < 1e-6, "{f:?}");
                assert!((f.point_a.x - (base[0] + 1.0)).abs() < 1e-6);
                assert!((f.point_b.x - (base[0] + 1.0 + gap)).abs() < 1e-6);
            }
        }
        // Overlapping elements are closer than any clearance: their hard finding.
        let b = cube("B", at(base, [0.9, 0.0, 0.0]), 1.0);
        let f = test_pair(&a, &b, Mode::Clearance { distance: c }).unwrap();
        assert_eq!(f.kind, ClashKind::Protrusion);
    }
}

#[test]
fn duplicates_within_tolerance() {
    let a = cube("A", FAR, 1.0);
    let same = cube("A2", FAR, 1.0);
    let f = test_pair(&a, &same, Mode::Duplicate { tolerance: 0.001 }).unwrap();
    assert_eq!(f.kind, ClashKind::Duplicate);
    assert!(f.distance < 1e-6);
    let shifted = cube("A3", at(FAR, [0.0005, 0.0, 0.0]), 1.0);
    let f = test_pair(&a, &shifted, Mode::Duplicate { tolerance: 0.001 }).unwrap();
    assert!((f.distance - 0.0005).abs() < 1e-6, "{f:?}");
    let moved = cube("A4", at(FAR, [0.002, 0.0, 0.0]), 1.0);
    assert_eq!(
        test_pair(&a, &moved, Mode::Duplicate { tolerance: 0.001 }),
        None
    );
    // Same box, other triangulation is still a duplicate; a smaller box is not.
    let mut flipped = Solid::cuboid(DVec3::from(FAR), DVec3::from(FAR) + DVec3::ONE);
    for t in &mut flipped.triangles {
        t.rotate_left(1);
    }
    assert!(test_pair(
        &a,
        &element("A5", flipped),
        Mode::Duplicate { tolerance: 0.001 }
    )
    .is_some());
    let inner = cube("A6", at(FAR, [0.0, 0.0, 0.0]), 0.99);
    assert_eq!(
        test_pair(&a, &inner, Mode::Duplicate { tolerance: 0.001 }),
        None
    );
}

#[test]
fn run_orders_sets_and_applies_ignore_rules_and_regions() {
    let mut model = vec![
        cube("w1", [0.0; 3], 1.0),
        cube("p1", [0.5, 0.5, 0.5], 1.0),
        cube("p2", [10.0, 0.0, 0.0], 1.0),
        cube("w2", [10.5, 0.0, 0.0], 1.0),
    ];
    // Sets: pipes (1, 2) as A against walls (0, 3) as B: A always first.
    let mut test = ClashTest {
        a: vec![1, 2],
        b: Some(vec![0, 3]),
        mode: INTERSECTION,
        ignore: IgnoreRules::default(),
        region: None,
    };
    let got: Vec<(usize, usize)> = run(&model, &test).iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(got, vec![(1, 0), (2, 3)]);
    let c = &run(&model, &test)[0];
    assert_eq!(c.id, peng_clash::clash_id("p1", "w1"));
    // Ignored pairs, either order.
    test.ignore.pairs.insert(("w1".into(), "p1".into()));
    let got: Vec<(usize, usize)> = run(&model, &test).iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(got, vec![(2, 3)]);
    // A region around the first pair only.
    test.ignore = IgnoreRules::default();
    test.region = Some(peng_clash::Bounds {
        min: DVec3::splat(-1.0),
        max: DVec3::splat(2.0),
    });
    assert_eq!(run(&model, &test).len(), 1);
    // Same parent: skipped when asked.
    model[2].identity.parent = Some("assembly".into());
    model[3].identity.parent = Some("assembly".into());
    test.region = None;
    test.ignore.same_parent = true;
    let got: Vec<(usize, usize)> = run(&model, &test).iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(got, vec![(1, 0)]);
    // One set against itself: each pair once, lower index first.
    let all = ClashTest::whole_model(&model, INTERSECTION);
    let got: Vec<(usize, usize)> = run(&model, &all).iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(got, vec![(0, 1), (2, 3)]);
}

#[test]
fn typical_rules_skip_fillers_coverings_and_embedded_parts() {
    let classed = |id: &str, class: &str, min: [f64; 3], max: [f64; 3]| {
        let mut e = element(id, Solid::cuboid(DVec3::from(min), DVec3::from(max)));
        e.identity.class = class.into();
        e
    };
    let mut window = classed("window", "IfcWindow", [1.0, -0.05, 1.0], [2.0, 0.25, 2.0]);
    window.identity.fills = Some("wall".into());
    let mut stray = classed("stray", "IfcWindow", [3.0, -0.05, 1.0], [4.0, 0.25, 2.0]);
    stray.identity.fills = Some("elsewhere".into());
    let mut lining = classed("lining", "IfcCovering", [0.0, 0.15, 0.0], [5.0, 0.25, 3.0]);
    lining.identity.covers = Some("wall".into());
    let model = vec![
        classed(
            "wall",
            "IfcWallStandardCase",
            [0.0, 0.0, 0.0],
            [5.0, 0.2, 3.0],
        ),
        window,
        stray,
        lining,
        classed("column", "IfcColumn", [10.0, 0.0, 0.0], [10.4, 0.4, 3.0]),
        // Cast in, flush with the column's face; and one standing out of it.
        classed(
            "channel",
            "IfcDiscreteAccessory",
            [10.1, 0.0, 1.0],
            [10.3, 0.05, 1.3],
        ),
        classed(
            "bar",
            "IfcReinforcingBar",
            [10.05, 0.05, -0.5],
            [10.07, 0.07, 2.5],
        ),
        // Not a host class: an embedded class inside a duct is a clash.
        classed("duct", "IfcDuctSegment", [20.0, 0.0, 0.0], [21.0, 1.0, 1.0]),
        classed(
            "anchor",
            "IfcMechanicalFastener",
            [20.4, 0.4, 0.4],
            [20.6, 0.6, 0.6],
        ),
    ];
    let names = |ignore: IgnoreRules| {
        let test = ClashTest {
            ignore,
            ..ClashTest::whole_model(&model, INTERSECTION)
        };
        let mut got: Vec<String> = run(&model, &test)
            .iter()
            .map(|c| format!("{}-{}", model[c.a].identity.id, model[c.b].identity.id))
            .collect();
        got.sort();
        got
    };
    let all = [
        "column-bar",
        "column-channel",
        "duct-anchor",
        "stray-lining",
        "wall-lining",
        "wall-stray",
        "wall-window",
        "window-lining",
    ];
    assert_eq!(names(IgnoreRules::default()), all);
    let without = |gone: &[&str]| -> Vec<String> {
        all.iter()
            .filter(|c| !gone.contains(c))
            .map(|c| c.to_string())
            .collect()
    };
    let only = |f: fn(&mut IgnoreRules)| {
        let mut r = IgnoreRules::default();
        f(&mut r);
        r
    };
    assert_eq!(
        names(only(|r| r.fillers_in_hosts = true)),
        without(&["wall-window"])
    );
    assert_eq!(
        names(only(|r| r.coverings_on_hosts = true)),
        without(&["wall-lining"])
    );
    // The bar stands out of the column's box by 0.5 m: not embedded.
    assert_eq!(
        names(only(|r| r.embedded_parts = true)),
        without(&["column-channel"])
    );
    assert_eq!(
        names(IgnoreRules::typical()),
        without(&["wall-window", "wall-lining", "column-channel"])
    );
}

#[test]
fn same_results_on_one_thread_and_many() {
    // A grid of bars crossing a grid of slabs: many pairs, some clashing.
    let mut model = Vec::new();
    for i in 0..12 {
        let y = f64::from(i) * 0.7;
        model.push(element(
            &format!("s{i}"),
            Solid::cuboid(DVec3::new(0.0, y, 0.0), DVec3::new(8.0, y + 0.5, 0.2)),
        ));
        model.push(element(
            &format!("b{i}"),
            Solid::bar(
                DVec3::new(f64::from(i) * 0.66, -1.0, 0.1),
                DVec3::new(f64::from(i) * 0.66 + 0.3, 9.0, 0.15),
                0.05,
                8,
            ),
        ));
    }
    let test = ClashTest::whole_model(&model, TOUCHING);
    let many = run(&model, &test);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| run(&model, &test));
    assert_eq!(many, one);
    assert!(many.len() >= 12, "{}", many.len());
}

/// A part wholly inside a column whose mesh has a T-junction (a face meshed
/// with a vertex in the middle of its neighbour's edge), as tessellators
/// leave them: the column is mended closed, so the part is contained, not
/// merely near a surface; and the same with a missing triangle.
#[test]
fn a_part_inside_a_column_meshed_with_defects_is_contained() {
    for base in [[0.0; 3], FAR] {
        let b = DVec3::from(base);
        let column = Solid::cuboid(b, b + DVec3::new(0.4, 0.4, 3.0));
        let part = cube("channel", at(base, [0.15, 0.15, 1.0]), 0.1);
        // The T-junction: triangle 0's first edge split at its midpoint.
        let mut t_junction = column.clone();
        let [a, c, d] = t_junction.triangles[0];
        let mid = (t_junction.vertices[a as usize] + t_junction.vertices[c as usize]) / 2.0;
        t_junction.vertices.push(mid);
        let m = (t_junction.vertices.len() - 1) as u32;
        t_junction.triangles[0] = [a, m, d];
        t_junction.triangles.push([m, c, d]);
        // A missing triangle.
        let mut missing = column.clone();
        missing.triangles.remove(5);
        for (name, s) in [("t-junction", t_junction), ("missing", missing)] {
            let col = element("column", s);
            assert!(col.is_closed(), "{name}");
            let f = test_pair(&part, &col, INTERSECTION).expect(name);
            assert_eq!(f.kind, ClashKind::Containment, "{name}: {f:?}");
            // The part's faces reach the column's axis, 0.2 from its sides
            // (its corners are only 0.15 deep).
            assert!(
                f.distance <= -0.2 / 1.04 && f.distance >= -0.2 - 1e-5,
                "{name}: {f:?}"
            );
        }
    }
}

/// A wall 0.2 m thick (along y) with a round opening of radius `r` cut as an
/// `n`-gon: a ring whose outer and inner sides are both `n`-gons (the outer
/// of radius `r + 0.6`), closed by quads at its faces, centred at `c`.
fn wall_with_round_opening(id: &str, c: DVec3, r: f64, n: u32) -> Element {
    let ring = |radius: f64, y: f64| -> Vec<DVec3> {
        (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * f64::from(k) / f64::from(n);
                c + DVec3::new(radius * a.cos(), y, radius * a.sin())
            })
            .collect()
    };
    // Rings: 0 inner front, 1 outer front, 2 inner back, 3 outer back.
    let mut vertices = Vec::new();
    for (radius, y) in [(r, -0.1), (r + 0.6, -0.1), (r, 0.1), (r + 0.6, 0.1)] {
        vertices.extend(ring(radius, y));
    }
    let v = |ring: u32, k: u32| ring * n + k % n;
    let mut triangles = Vec::new();
    let mut quad = |a: u32, b: u32, c: u32, d: u32| {
        triangles.push([a, b, c]);
        triangles.push([a, c, d]);
    };
    for k in 0..n {
        quad(v(0, k), v(1, k), v(1, k + 1), v(0, k + 1)); // front face
        quad(v(2, k), v(2, k + 1), v(3, k + 1), v(3, k)); // back face
        quad(v(1, k), v(3, k), v(3, k + 1), v(1, k + 1)); // outer side
        quad(v(0, k), v(0, k + 1), v(2, k + 1), v(2, k)); // opening's side
    }
    let identity = Identity {
        id: id.into(),
        class: "IfcWall".into(),
        file: "test.ifc".into(),
        ..Identity::default()
    };
    let wall = Element::from_world(identity, &vertices, triangles).unwrap();
    assert!(wall.is_closed(), "the wall's mesh is closed");
    wall
}

/// A round window of radius `r` cut as an `m`-gon turned by `phase`
/// (radians), 0.1 m thick, in the wall's opening at `c`, filling `host`.
fn round_window(c: DVec3, r: f64, m: u32, phase: f64, host: Option<&str>) -> Element {
    let mut s = Solid::bar(c - DVec3::Y * 0.05, c + DVec3::Y * 0.05, r, m);
    // Place the corners at known angles (the bar's own start is arbitrary).
    for (i, v) in s.vertices.iter_mut().enumerate() {
        let k = (i as u32) % m;
        if (i as u32) < 2 * m {
            let a = std::f64::consts::TAU * f64::from(k) / f64::from(m) + phase;
            let y = v.y;
            *v = DVec3::new(c.x + r * a.cos(), y, c.z + r * a.sin());
        }
    }
    let identity = Identity {
        id: "window".into(),
        class: "IfcWindow".into(),
        file: "test.ifc".into(),
        fills: host.map(str::to_string),
        ..Identity::default()
    };
    Element::from_world(identity, &s.vertices, s.triangles).unwrap()
}

/// A round window in a round opening cut with fewer sides: its corners, on
/// the circle, reach into the wall by up to the sagitta of the opening's
/// sides (9.6 mm for a 16-gon of radius 0.5 m), which is the tessellation's
/// error, not a clash. A window 30 mm too big still clashes, and so does the
/// same fit between elements not related as filler and host.
#[test]
fn a_round_window_in_a_coarser_round_opening_is_no_clash() {
    for base in [[0.0; 3], FAR] {
        let c = DVec3::from(base);
        for (n, m) in [(8, 32), (16, 64), (12, 24), (16, 48), (32, 8), (24, 24)] {
            let wall = wall_with_round_opening("wall", c, 0.5, n);
            // Corners at the opening's mid-sides: the deepest reach.
            let phase = std::f64::consts::PI / f64::from(n);
            let window = round_window(c, 0.5, m, phase, Some("wall"));
            let sagitta = 0.5 * (1.0 - (std::f64::consts::PI / f64::from(n)).cos());
            for mode in [INTERSECTION, COLLISION] {
                assert_eq!(
                    test_pair(&window, &wall, mode),
                    None,
                    "{n}-gon, {m}-gon, {mode:?}"
                );
                assert_eq!(
                    test_pair(&wall, &window, mode),
                    None,
                    "{n}-gon, {m}-gon, {mode:?}"
                );
            }
            // At most a touch where touches are asked for.
            let f = test_pair(&window, &wall, TOUCHING);
            assert!(
                f.is_none_or(|f| f.kind == ClashKind::Touch),
                "{n}, {m}: {f:?}"
            );
            // Not filler and host: the chord error is a protrusion.
            if m > n && m % n == 0 {
                let alone = round_window(c, 0.5, m, phase, None);
                let f = test_pair(&alone, &wall, INTERSECTION).expect("a protrusion");
                assert!(
                    (-f.distance - sagitta).abs() < 0.05 * sagitta + 1e-5,
                    "{n}, {m}: depth {} against the sagitta {sagitta}",
                    -f.distance
                );
            }
            // 30 mm too big: a clash, as deep as the misfit.
            let big = round_window(c, 0.53, m, phase, Some("wall"));
            let f = test_pair(&big, &wall, INTERSECTION).expect("too big a window clashes");
            assert!(-f.distance > 0.02, "{n}, {m}: {f:?}");
        }
    }
}

/// A prism of square section turned 45° (a diamond: corners up, down and to
/// the sides, `r` from its axis), along `axis` (x or y) through `c`, 2 long.
fn diamond(id: &str, c: DVec3, axis: DVec3, r: f64) -> Element {
    let across = DVec3::Z.cross(axis);
    let section = [DVec3::Z * r, across * r, -DVec3::Z * r, -across * r];
    let mut vertices = Vec::new();
    for end in [-1.0, 1.0] {
        vertices.extend(section.iter().map(|s| c + axis * end + *s));
    }
    let mut triangles = vec![[0, 1, 2], [0, 2, 3], [4, 6, 5], [4, 7, 6]];
    for k in 0..4u32 {
        let k1 = (k + 1) % 4;
        triangles.push([k, 4 + k, 4 + k1]);
        triangles.push([k, 4 + k1, k1]);
    }
    element(
        id,
        Solid {
            vertices,
            triangles,
        },
    )
}

/// Two ridges crossing at right angles, 4 µm apart: each ridge's faces lie
/// across the other's planes without an edge through them. That is within
/// the meshes' rounding (10 µm): a touch, in the touching and the clearance
/// tests alike (it was "apart" to the first and a 4 µm gap to the second,
/// while ifcclash called it a collision). 40 µm apart it is a gap.
#[test]
fn crossed_ridges_within_the_rounding_touch() {
    for base in [[0.0; 3], FAR] {
        let c = DVec3::from(base);
        let low = diamond("low", c, DVec3::X, 0.1);
        for (gap, touch) in [(4e-6, true), (4e-5, false)] {
            let high = diamond("high", c + DVec3::Z * (0.2 + gap), DVec3::Y, 0.1);
            assert_eq!(test_pair(&low, &high, INTERSECTION), None);
            let t = test_pair(&low, &high, TOUCHING);
            // And `run` tests the pair, boxes 4 µm apart.
            let model = [low.clone(), high.clone()];
            let found = run(&model, &ClashTest::whole_model(&model, TOUCHING));
            assert_eq!(found.len(), usize::from(touch), "gap {gap}");
            let near = test_pair(&low, &high, Mode::Clearance { distance: 0.05 }).expect("near");
            if touch {
                assert_eq!(t.map(|f| f.kind), Some(ClashKind::Touch), "gap {gap}");
                assert_eq!(near.kind, ClashKind::Touch, "gap {gap}: {near:?}");
            } else {
                assert_eq!(t, None, "gap {gap}");
                assert_eq!(near.kind, ClashKind::Clearance, "gap {gap}: {near:?}");
                assert!((near.distance - gap).abs() < 2e-6, "{near:?}");
            }
        }
    }
}
