//! Shared helpers of the SAT tests: a deterministic generator, random hulls and
//! the interval separation along an axis.

#![allow(dead_code)]

use peng::math::{Pose3, Vec3};
use peng::shape::d3::ConvexPolyhedron;

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
    pub fn unit(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(self.next(), self.next(), self.next()) * 2.0 - 1.0;
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
}

/// The hull of `n` points on a random ellipsoid (the benchmark's shapes).
pub fn hull(rng: &mut Rng, n: usize) -> ConvexPolyhedron {
    let axes = Vec3::new(
        rng.range(0.3, 2.0),
        rng.range(0.3, 2.0),
        rng.range(0.3, 2.0),
    );
    let pts: Vec<Vec3> = (0..n).map(|_| rng.unit() * axes).collect();
    ConvexPolyhedron::from_points(&pts).expect("points on an ellipsoid span a volume")
}

/// Separation along the unit axis `l`: `max(minB - maxA, minA - maxB)`.
pub fn interval(a: &[Vec3], b: &[Vec3], l: Vec3) -> f32 {
    let (mut lo_a, mut hi_a) = (f32::INFINITY, f32::NEG_INFINITY);
    for p in a {
        lo_a = lo_a.min(p.dot(l));
        hi_a = hi_a.max(p.dot(l));
    }
    let (mut lo_b, mut hi_b) = (f32::INFINITY, f32::NEG_INFINITY);
    for p in b {
        lo_b = lo_b.min(p.dot(l));
        hi_b = hi_b.max(p.dot(l));
    }
    (lo_b - hi_a).max(lo_a - hi_b)
}

/// B's vertices in A's frame.
pub fn placed(b: &ConvexPolyhedron, b_in_a: &Pose3) -> Vec<Vec3> {
    b.vertices()
        .iter()
        .map(|&p| b_in_a.transform_point(p))
        .collect()
}

/// The largest interval separation over every candidate axis.
pub fn brute(a: &ConvexPolyhedron, b: &ConvexPolyhedron, b_in_a: &Pose3) -> f32 {
    let va = a.vertices();
    let vb = placed(b, b_in_a);
    let mut best = f32::NEG_INFINITY;
    for f in a.faces() {
        best = best.max(interval(va, &vb, f.normal));
    }
    for f in b.faces() {
        best = best.max(interval(va, &vb, b_in_a.transform_vector(f.normal)));
    }
    for ea in a.edges() {
        let da = va[ea.vertices[1] as usize] - va[ea.vertices[0] as usize];
        for eb in b.edges() {
            let db = vb[eb.vertices[1] as usize] - vb[eb.vertices[0] as usize];
            let axis = da.cross(db);
            let len2 = axis.length_squared();
            if len2 <= 1e-6 * da.length_squared() * db.length_squared() || len2 == 0.0 {
                continue;
            }
            best = best.max(interval(va, &vb, axis / len2.sqrt()));
        }
    }
    best
}

/// Places `b` around touching `a` along a random direction, at a fraction
/// of the touching offset in `[lo, hi]`.
pub fn place(rng: &mut Rng, a: &ConvexPolyhedron, b: &ConvexPolyhedron, lo: f32, hi: f32) -> Pose3 {
    let rot = Pose3::from_axis_angle(Vec3::ZERO, rng.unit() * rng.range(0.0, 3.1));
    let u = rng.unit();
    let reach = a.support(u).dot(u)
        + rot
            .transform_point(b.support(rot.inverse_transform_vector(-u)))
            .dot(-u);
    let t = u * reach * rng.range(lo, hi);
    Pose3::new(t, rot.rotation)
}
