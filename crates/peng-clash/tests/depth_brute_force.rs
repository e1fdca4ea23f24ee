//! The depth of a hard clash against an independent search on random
//! overlapping meshes: boxes, bars and lumpy (non-convex) balls, turned at
//! random.
//!
//! The reference is a plain Lipschitz branch and bound in f64 over both
//! surfaces, with the inside decided by the winding number and distances by
//! a scan of every triangle: the distance to a surface changes no faster
//! than the point moves, so a piece of a triangle within `r` of a point at
//! depth `d` reaches at most `d + r`. It is refined until its upper bound is
//! within 0.5 % of its deepest point. peng's depth must be a real depth (no
//! more than the reference's upper bound) and at least 95 % of it.

use glam::{DQuat, DVec3};
use peng_clash::{test_pair, ClashKind, Element, Identity, Mode, Solid};
use std::collections::BinaryHeap;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
    fn rotation(&mut self) -> DQuat {
        loop {
            let v = [0; 4].map(|_| self.range(-1.0, 1.0));
            let q = DQuat::from_xyzw(v[0], v[1], v[2], v[3]);
            if q.length() > 0.1 {
                return q.normalize();
            }
        }
    }
}

/// A closed triangle mesh in f64.
struct Mesh {
    vertices: Vec<DVec3>,
    triangles: Vec<[u32; 3]>,
}

impl Mesh {
    fn corners(&self, t: usize) -> [DVec3; 3] {
        self.triangles[t].map(|i| self.vertices[i as usize])
    }

    fn moved(mut self, q: DQuat, t: DVec3) -> Mesh {
        for v in &mut self.vertices {
            *v = q * *v + t;
        }
        self
    }

    /// Generalized winding number (Van Oosterom and Strackee's solid angle).
    fn inside(&self, p: DVec3) -> bool {
        let mut total = 0.0;
        for t in 0..self.triangles.len() {
            let [a, b, c] = self.corners(t).map(|v| v - p);
            let (la, lb, lc) = (a.length(), b.length(), c.length());
            let num = a.dot(b.cross(c));
            let den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
            total += 2.0 * num.atan2(den);
        }
        (total / (4.0 * std::f64::consts::PI)).abs() > 0.5
    }

    fn distance(&self, p: DVec3) -> f64 {
        (0..self.triangles.len())
            .map(|t| closest_on_triangle(p, self.corners(t)).distance(p))
            .fold(f64::INFINITY, f64::min)
    }
}

/// The closest point of triangle `t` to `p`, by projecting onto the plane
/// and otherwise onto the nearest edge.
fn closest_on_triangle(p: DVec3, t: [DVec3; 3]) -> DVec3 {
    let [a, b, c] = t;
    let n = (b - a).cross(c - a);
    if n.length_squared() > 0.0 {
        let q = p - n * ((p - a).dot(n) / n.length_squared());
        let inside = [(a, b), (b, c), (c, a)]
            .iter()
            .all(|(u, v)| (*v - *u).cross(q - *u).dot(n) >= 0.0);
        if inside {
            return q;
        }
    }
    [(a, b), (b, c), (c, a)]
        .iter()
        .map(|(u, v)| {
            let d = *v - *u;
            let s = if d.length_squared() > 0.0 {
                ((p - *u).dot(d) / d.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            *u + d * s
        })
        .min_by(|x, y| x.distance(p).total_cmp(&y.distance(p)))
        .unwrap()
}

fn solid(s: Solid) -> Mesh {
    Mesh {
        vertices: s.vertices,
        triangles: s.triangles,
    }
}

/// A ball of 80 triangles with each vertex at a random radius: closed,
/// star-shaped, not convex.
fn lumpy_ball(rng: &mut Rng, radius: f64) -> Mesh {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut vertices: Vec<DVec3> = [
        [-1.0, phi, 0.0],
        [1.0, phi, 0.0],
        [-1.0, -phi, 0.0],
        [1.0, -phi, 0.0],
        [0.0, -1.0, phi],
        [0.0, 1.0, phi],
        [0.0, -1.0, -phi],
        [0.0, 1.0, -phi],
        [phi, 0.0, -1.0],
        [phi, 0.0, 1.0],
        [-phi, 0.0, -1.0],
        [-phi, 0.0, 1.0],
    ]
    .iter()
    .map(|v| DVec3::from(*v).normalize())
    .collect();
    let faces: [[u32; 3]; 20] = [
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    let mut middle = std::collections::HashMap::new();
    let mut mid = |i: u32, j: u32, vertices: &mut Vec<DVec3>| {
        *middle.entry((i.min(j), i.max(j))).or_insert_with(|| {
            vertices.push((vertices[i as usize] + vertices[j as usize]).normalize());
            vertices.len() as u32 - 1
        })
    };
    let mut triangles = Vec::new();
    for [a, b, c] in faces {
        let (ab, bc, ca) = (
            mid(a, b, &mut vertices),
            mid(b, c, &mut vertices),
            mid(c, a, &mut vertices),
        );
        triangles.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
    }
    for v in &mut vertices {
        *v *= radius * rng.range(0.7, 1.3);
    }
    // Outward: the icosahedron's faces above wind outward from the centre.
    if (vertices[triangles[0][1] as usize] - vertices[triangles[0][0] as usize])
        .cross(vertices[triangles[0][2] as usize] - vertices[triangles[0][0] as usize])
        .dot(vertices[triangles[0][0] as usize])
        < 0.0
    {
        for t in &mut triangles {
            t.swap(1, 2);
        }
    }
    Mesh {
        vertices,
        triangles,
    }
}

fn random_mesh(rng: &mut Rng) -> Mesh {
    let size = rng.range(0.5, 1.5);
    let mesh = match (rng.next() * 3.0) as u32 {
        0 => {
            let half = DVec3::new(
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
                rng.range(0.1, 1.0),
            ) * size;
            solid(Solid::cuboid(-half, half))
        }
        1 => {
            let half = rng.range(0.3, 1.0) * size;
            let sides = 3 + (rng.next() * 14.0) as u32;
            solid(Solid::bar(
                DVec3::new(0.0, 0.0, -half),
                DVec3::new(0.0, 0.0, half),
                rng.range(0.05, 0.4) * size,
                sides,
            ))
        }
        _ => lumpy_ball(rng, 0.5 * size),
    };
    mesh.moved(rng.rotation(), DVec3::ZERO)
}

fn element(id: &str, m: &Mesh) -> Element {
    let identity = Identity {
        id: id.into(),
        ..Identity::default()
    };
    Element::from_world(identity, &m.vertices, m.triangles.clone()).unwrap()
}

/// A piece of a triangle of X in the reference search.
struct Cell {
    upper: f64,
    corners: [DVec3; 3],
}

impl PartialEq for Cell {
    fn eq(&self, o: &Self) -> bool {
        self.upper == o.upper
    }
}
impl Eq for Cell {}
impl PartialOrd for Cell {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Cell {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.upper.total_cmp(&o.upper)
    }
}

/// The reference depth of the pair: (deepest point found, upper bound).
fn reference_depth(a: &Mesh, b: &Mesh) -> (f64, f64) {
    let mut best = 0.0f64;
    let mut heap = BinaryHeap::new();
    // Signed distance: positive inside the other mesh.
    let signed = |y: &Mesh, p: DVec3| {
        let d = y.distance(p);
        if y.inside(p) {
            d
        } else {
            -d
        }
    };
    let cell =
        |x: usize, corners: [DVec3; 3], best: &mut f64, heap: &mut BinaryHeap<(Cell, usize)>| {
            let y = if x == 0 { b } else { a };
            let c = (corners[0] + corners[1] + corners[2]) / 3.0;
            let sc = signed(y, c);
            *best = best.max(sc);
            let r = corners.iter().map(|v| v.distance(c)).fold(0.0, f64::max);
            heap.push((
                Cell {
                    upper: sc + r,
                    corners,
                },
                x,
            ));
        };
    for (x, mesh) in [a, b].iter().enumerate() {
        for t in 0..mesh.triangles.len() {
            cell(x, mesh.corners(t), &mut best, &mut heap);
        }
    }
    let mut steps = 0;
    while let Some((top, x)) = heap.pop() {
        if top.upper <= best * 1.005 + 1e-9 {
            return (best, top.upper.max(best));
        }
        steps += 1;
        assert!(steps < 400_000, "the reference did not converge");
        let [p, q, r] = top.corners;
        let (pq, qr, rp) = ((p + q) / 2.0, (q + r) / 2.0, (r + p) / 2.0);
        for corners in [[p, pq, rp], [pq, q, qr], [rp, qr, r], [pq, qr, rp]] {
            cell(x, corners, &mut best, &mut heap);
        }
    }
    (best, best)
}

#[test]
fn depth_is_within_five_per_cent_of_an_independent_search() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    let mut worst: f64 = 1.0;
    while checked < 100 {
        let a = random_mesh(&mut rng);
        let shift = DVec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ) * 0.5;
        let b = random_mesh(&mut rng).moved(DQuat::IDENTITY, shift);
        let mode = Mode::Hard {
            tolerance: 0.0,
            report_touching: false,
        };
        let Some(f) = test_pair(&element("a", &a), &element("b", &b), mode) else {
            continue;
        };
        assert!(
            matches!(
                f.kind,
                ClashKind::Protrusion | ClashKind::Pierce | ClashKind::Containment
            ),
            "{:?}",
            f.kind
        );
        let (low, high) = reference_depth(&a, &b);
        let depth = -f.distance;
        if low < 0.02 {
            continue; // a graze: relative accuracy means little
        }
        assert!(
            depth <= high + 1e-5,
            "case {checked}: peng {depth} beyond the truth (at most {high})"
        );
        assert!(
            depth >= 0.95 * high,
            "case {checked}: peng {depth} under 95 % of the depth ({low} to {high})"
        );
        worst = worst.min(depth / high);
        checked += 1;
    }
    eprintln!("worst ratio of peng's depth to the reference's upper bound: {worst:.4}");
}
