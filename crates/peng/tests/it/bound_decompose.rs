//! Convex decomposition and triangulation of simple polygons: pieces are convex,
//! CCW, made of polygon vertices, do not overlap, and cover the polygon's area;
//! the piece count obeys the Hertel–Mehlhorn bound.

use peng::math::Vec2;
use peng::shape::decompose::{convex_decomposition, convex_decomposition_indices, triangulate};
use peng::GeometryError;
use proptest::prelude::*;
use std::f32::consts::TAU;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Twice the signed area of `(a, b, c)` in f64.
fn orient(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let (ax, ay) = (a.x as f64, a.y as f64);
    (b.x as f64 - ax) * (c.y as f64 - ay) - (b.y as f64 - ay) * (c.x as f64 - ax)
}

/// Signed area (shoelace) in f64.
fn area(p: &[Vec2]) -> f64 {
    let n = p.len();
    0.5 * (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            a.x as f64 * b.y as f64 - b.x as f64 * a.y as f64
        })
        .sum::<f64>()
}

/// Counter-clockwise and convex: every turn is a left turn (or straight within
/// rounding).
fn is_ccw_convex(p: &[Vec2], scale: f64) -> bool {
    let n = p.len();
    n >= 3
        && area(p) > 0.0
        && (0..n).all(|i| orient(p[(i + n - 1) % n], p[i], p[(i + 1) % n]) >= -1e-9 * scale)
}

/// Reflex vertices of a polygon given in either orientation (straight vertices
/// within a relative tolerance are not reflex; repeated vertices count once).
fn reflex_count(p: &[Vec2]) -> usize {
    let mut p: Vec<Vec2> = p.to_vec();
    p.dedup();
    while p.len() > 1 && p.first() == p.last() {
        p.pop();
    }
    let s = area(&p).signum();
    let n = p.len();
    (0..n)
        .filter(|&i| {
            let (a, b, c) = (p[(i + n - 1) % n], p[i], p[(i + 1) % n]);
            let o = orient(a, b, c) * s;
            let tol = 1e-6 * ((b - a).length() * (c - b).length()) as f64;
            o < -tol
        })
        .count()
}

/// Area of the intersection of two convex CCW polygons (Sutherland–Hodgman
/// clipping of `a` by each edge of `b`), in f64.
fn overlap_area(a: &[Vec2], b: &[Vec2]) -> f64 {
    let mut poly: Vec<(f64, f64)> = a.iter().map(|p| (p.x as f64, p.y as f64)).collect();
    let m = b.len();
    for i in 0..m {
        let (p, q) = (b[i], b[(i + 1) % m]);
        let (px, py, qx, qy) = (p.x as f64, p.y as f64, q.x as f64, q.y as f64);
        let side = |(x, y): (f64, f64)| (qx - px) * (y - py) - (qy - py) * (x - px);
        let mut out = Vec::new();
        let k = poly.len();
        for j in 0..k {
            let (s, e) = (poly[j], poly[(j + 1) % k]);
            let (ds, de) = (side(s), side(e));
            if ds >= 0.0 {
                out.push(s);
            }
            if (ds >= 0.0) != (de >= 0.0) {
                let t = ds / (ds - de);
                out.push((s.0 + t * (e.0 - s.0), s.1 + t * (e.1 - s.1)));
            }
        }
        poly = out;
        if poly.len() < 3 {
            return 0.0;
        }
    }
    let k = poly.len();
    0.5 * (0..k)
        .map(|i| poly[i].0 * poly[(i + 1) % k].1 - poly[(i + 1) % k].0 * poly[i].1)
        .sum::<f64>()
}

/// Checks every property of a decomposition of `poly`; returns the piece count.
fn check_decomposition(poly: &[Vec2]) -> usize {
    let pieces = convex_decomposition(poly).expect("valid simple polygon");
    let total = area(poly).abs();
    let scale = poly
        .iter()
        .fold(0.0f32, |m, p| m.max(p.abs().max_element())) as f64;
    let tol = 1e-5 * total.max(scale * scale);
    let mut sum = 0.0;
    for piece in &pieces {
        assert!(
            is_ccw_convex(piece, scale * scale),
            "not convex CCW: {piece:?}"
        );
        for p in piece {
            assert!(
                poly.contains(p),
                "piece vertex {p:?} is not a polygon vertex"
            );
        }
        sum += area(piece);
    }
    assert!((sum - total).abs() <= tol, "areas {sum} vs {total}");
    // Pairwise interiors disjoint: then the union area equals the sum.
    for i in 0..pieces.len() {
        for j in (i + 1)..pieces.len() {
            let o = overlap_area(&pieces[i], &pieces[j]);
            assert!(o <= tol, "pieces {i} and {j} overlap by {o}");
        }
    }
    // Hertel–Mehlhorn: at most 2r + 1 pieces, hence at most 4 × the lower bound
    // ⌈r/2⌉ + 1 on any convex decomposition.
    let r = reflex_count(poly);
    assert!(
        pieces.len() <= 2 * r + 1,
        "{} pieces, r = {r}",
        pieces.len()
    );
    assert!(pieces.len() <= 4 * (r.div_ceil(2) + 1));
    if r == 0 {
        assert_eq!(pieces.len(), 1);
    }
    // Triangles: n - 2 of them over the cleaned outline, CCW, same area.
    let tris = triangulate(poly).unwrap();
    let tri_sum: f64 = tris
        .iter()
        .map(|t| {
            let a = area(&[poly[t[0]], poly[t[1]], poly[t[2]]]);
            assert!(a > 0.0, "triangle not CCW");
            a
        })
        .sum();
    assert!((tri_sum - total).abs() <= tol);
    assert!(tris.len() <= poly.len() - 2);
    pieces.len()
}

#[test]
fn l_shape_gives_two_pieces() {
    let l = [
        v(0., 0.),
        v(2., 0.),
        v(2., 1.),
        v(1., 1.),
        v(1., 2.),
        v(0., 2.),
    ];
    assert_eq!(check_decomposition(&l), 2);
    // Clockwise input, rotated start: the same.
    let mut cw = l.to_vec();
    cw.reverse();
    cw.rotate_left(2);
    assert_eq!(check_decomposition(&cw), 2);
    // Scaled and moved far away.
    let far: Vec<Vec2> = l.iter().map(|&p| p * 37.5 + v(1.0e4, -2.0e4)).collect();
    assert_eq!(check_decomposition(&far), 2);
}

#[test]
fn convex_inputs_give_one_piece() {
    let hex: Vec<Vec2> = (0..6)
        .map(|i| {
            let t = i as f32 * TAU / 6.0;
            v(t.cos(), t.sin())
        })
        .collect();
    assert_eq!(check_decomposition(&hex), 1);
    let tri = [v(0., 0.), v(1., 0.), v(0., 1.)];
    assert_eq!(check_decomposition(&tri), 1);
}

#[test]
fn collinear_and_repeated_vertices() {
    // A square with extra points along its edges and repeated vertices.
    let sq = [
        v(0., 0.),
        v(0.5, 0.),
        v(1., 0.),
        v(1., 0.),
        v(2., 0.),
        v(2., 1.),
        v(2., 2.),
        v(1., 2.),
        v(0., 2.),
        v(0., 2.),
        v(0., 1.),
        v(0., 0.),
    ];
    let pieces = convex_decomposition(&sq).unwrap();
    assert_eq!(pieces.len(), 1);
    assert_eq!(pieces[0].len(), 4, "straight vertices dropped: {pieces:?}");
    assert_eq!(check_decomposition(&sq), 1);
    // An L with collinear points on its edges, including on the reflex corner's edges.
    let l = [
        v(0., 0.),
        v(1., 0.),
        v(2., 0.),
        v(2., 1.),
        v(1.5, 1.),
        v(1., 1.),
        v(1., 1.5),
        v(1., 2.),
        v(0., 2.),
        v(0., 1.),
    ];
    assert_eq!(check_decomposition(&l), 2);
}

#[test]
fn comb() {
    // A comb with k teeth: 2k reflex vertices; k + 1 pieces are optimal.
    for k in 1..8 {
        let mut p = vec![v(0.0, 0.0)];
        for t in 0..k {
            let x = 2.0 * t as f32;
            p.extend([
                v(x + 1.0, 0.0),
                v(x + 1.0, -3.0),
                v(x + 2.0, -3.0),
                v(x + 2.0, 0.0),
            ]);
        }
        // Close the comb's back: up and back to the start.
        let w = 2.0 * k as f32 + 1.0;
        p.extend([v(w, 0.0), v(w, 1.0), v(0.0, 1.0)]);
        // 2k reflex vertices: check_decomposition asserts at most 4k + 1 pieces.
        check_decomposition(&p);
    }
}

#[test]
fn spiral_and_u_shape() {
    let u = [
        v(0., 0.),
        v(3., 0.),
        v(3., 3.),
        v(2., 3.),
        v(2., 1.),
        v(1., 1.),
        v(1., 3.),
        v(0., 3.),
    ];
    assert_eq!(check_decomposition(&u), 3);
    // A square spiral (many reflex vertices in a row).
    let spiral = [
        v(0., 0.),
        v(5., 0.),
        v(5., 5.),
        v(1., 5.),
        v(1., 2.),
        v(3., 2.),
        v(3., 3.),
        v(2., 3.),
        v(2., 4.),
        v(4., 4.),
        v(4., 1.),
        v(0., 1.),
    ];
    check_decomposition(&spiral);
}

#[test]
fn rejects_bad_polygons() {
    let bowtie = [v(0., 0.), v(1., 1.), v(1., 0.), v(0., 1.)];
    assert!(matches!(
        convex_decomposition(&bowtie),
        Err(GeometryError::Degenerate { .. })
    ));
    assert!(triangulate(&bowtie).is_err());
    // Touches itself at a vertex (figure eight through a shared point).
    let eight = [
        v(0., 0.),
        v(1., 1.),
        v(2., 0.),
        v(2., 2.),
        v(1., 1.),
        v(0., 2.),
    ];
    assert!(matches!(
        convex_decomposition(&eight),
        Err(GeometryError::Degenerate { .. })
    ));
    // A vertex on a non-adjacent edge.
    let touch = [v(0., 0.), v(4., 0.), v(4., 2.), v(2., 0.), v(0., 2.)];
    assert!(convex_decomposition(&touch).is_err());
    // Zero area.
    let line = [v(0., 0.), v(1., 1.), v(2., 2.), v(3., 3.)];
    assert!(matches!(
        convex_decomposition(&line),
        Err(GeometryError::Degenerate { .. })
    ));
    let same = [v(1., 1.); 5];
    assert!(matches!(
        triangulate(&same),
        Err(GeometryError::Degenerate { .. })
    ));
    assert!(matches!(
        convex_decomposition(&[v(0., 0.), v(1., 0.)]),
        Err(GeometryError::TooFew { .. })
    ));
    assert!(matches!(
        convex_decomposition(&[v(0., 0.), v(1., f32::NAN), v(0., 1.)]),
        Err(GeometryError::NonFinite { .. })
    ));
}

/// A star-shaped polygon around the origin: `n` angles, one per sector of
/// `2π/n` (so consecutive angles are less than `π` apart and the polygon is
/// simple), radii in `[0.1, 1]`.
fn star() -> impl Strategy<Value = Vec<Vec2>> {
    (3usize..40).prop_flat_map(|n| {
        (
            prop::collection::vec((0.0f32..0.9, 0.1f32..1.0), n),
            any::<bool>(),
            0.1f32..100.0,
        )
            .prop_map(move |(jr, ccw, scale)| {
                let mut p: Vec<Vec2> = jr
                    .iter()
                    .enumerate()
                    .map(|(i, &(j, r))| {
                        let t = (i as f32 + j) * TAU / n as f32;
                        v(t.cos(), t.sin()) * r * scale
                    })
                    .collect();
                if !ccw {
                    p.reverse();
                }
                p
            })
            // A triangle's jittered vertices can fall within rounding of one
            // line (seed 700021: sin 6.5e-7 between its edges), which the
            // decomposition rightly refuses as zero area; only stars with
            // four or more vertices span more than half a turn and cannot.
            .prop_filter("a star with visible area", |p| {
                let m = p.iter().fold(0.0f32, |m, q| m.max(q.abs().max_element())) as f64;
                area(p).abs() > 1e-4 * m * m
            })
    })
}

proptest! {
    #![proptest_config(crate::seeds::cases(300))]

    #[test]
    fn star_polygons(p in star()) {
        check_decomposition(&p);
    }

    /// Stars with midpoints inserted on some edges (collinear up to rounding) and
    /// some vertices repeated.
    #[test]
    fn star_polygons_with_degenerate_vertices(p in star(), mask in prop::collection::vec(0u8..4, 40)) {
        let n = p.len();
        let mut q = Vec::new();
        for i in 0..n {
            q.push(p[i]);
            match mask[i % mask.len()] {
                1 => q.push((p[i] + p[(i + 1) % n]) * 0.5),
                2 => q.push(p[i]),
                _ => {}
            }
        }
        check_decomposition(&q);
    }

    /// Indices and points agree; pieces as indices are CCW.
    #[test]
    fn indices_match_points(p in star()) {
        let by_index = convex_decomposition_indices(&p).unwrap();
        let by_point = convex_decomposition(&p).unwrap();
        prop_assert_eq!(by_index.len(), by_point.len());
        for (ix, pts) in by_index.iter().zip(&by_point) {
            let from_ix: Vec<Vec2> = ix.iter().map(|&i| p[i]).collect();
            prop_assert_eq!(&from_ix, pts);
        }
    }
}

#[test]
fn large_star_is_fast_and_correct() {
    // 1500 vertices with alternating radii: 750 reflex vertices.
    let n = 1500;
    let p: Vec<Vec2> = (0..n)
        .map(|i| {
            let t = i as f32 * TAU / n as f32;
            let r = if i % 2 == 0 {
                1.0
            } else {
                0.6 + 0.3 * (i as f32 * 0.37).sin()
            };
            v(t.cos(), t.sin()) * r
        })
        .collect();
    let start = std::time::Instant::now();
    let pieces = convex_decomposition(&p).unwrap();
    let took = start.elapsed();
    let total = area(&p);
    let sum: f64 = pieces.iter().map(|q| area(q)).sum();
    assert!((sum - total).abs() < 1e-5 * total);
    assert!(pieces.len() <= 2 * reflex_count(&p) + 1);
    assert!(took.as_secs_f32() < 5.0, "took {took:?}");
}
