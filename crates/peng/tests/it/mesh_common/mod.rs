//! Shared helpers for the mesh tests: a deterministic RNG and test meshes.
#![allow(dead_code)]

use glam::{Quat, Vec2, Vec3};
use peng::math::Pose3;

/// SplitMix64 (Steele, Lea and Flood 2014): tiny, deterministic, good enough.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn f(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.f()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn v3(&mut self, lo: f32, hi: f32) -> Vec3 {
        Vec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }
    pub fn v2(&mut self, lo: f32, hi: f32) -> Vec2 {
        Vec2::new(self.range(lo, hi), self.range(lo, hi))
    }
    /// A random unit vector (rejection sampling in the cube).
    pub fn unit3(&mut self) -> Vec3 {
        loop {
            let v = self.v3(-1.0, 1.0);
            let l = v.length_squared();
            if l > 1e-4 && l <= 1.0 {
                return v / l.sqrt();
            }
        }
    }
}

/// A random pose: translation in `[-spread, spread]³`, rotation by a random
/// axis-angle of up to about 5 radians.
pub fn random_pose(rng: &mut Rng, spread: f32) -> Pose3 {
    Pose3::new(
        rng.v3(-spread, spread),
        Quat::from_scaled_axis(rng.v3(-3.0, 3.0)),
    )
}

/// A soup of `n` random triangles of size about `size` in the cube `[-extent, extent]^3`.
pub fn soup(rng: &mut Rng, n: usize, extent: f32, size: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut v = Vec::with_capacity(3 * n);
    let mut t = Vec::with_capacity(n);
    for i in 0..n {
        let c = rng.v3(-extent, extent);
        for _ in 0..3 {
            v.push(c + rng.v3(-size, size));
        }
        let k = 3 * i as u32;
        t.push([k, k + 1, k + 2]);
    }
    (v, t)
}

/// An icosphere of radius `r` (outward-facing triangles), `subdiv` subdivisions
/// of the icosahedron: `20 · 4^subdiv` triangles.
pub fn icosphere(r: f32, subdiv: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let p = (1.0 + 5f32.sqrt()) / 2.0;
    let mut v: Vec<Vec3> = [
        (-1.0, p, 0.0),
        (1.0, p, 0.0),
        (-1.0, -p, 0.0),
        (1.0, -p, 0.0),
        (0.0, -1.0, p),
        (0.0, 1.0, p),
        (0.0, -1.0, -p),
        (0.0, 1.0, -p),
        (p, 0.0, -1.0),
        (p, 0.0, 1.0),
        (-p, 0.0, -1.0),
        (-p, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
    .collect();
    let mut t: Vec<[u32; 3]> = vec![
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
    for _ in 0..subdiv {
        let mut mid = std::collections::HashMap::new();
        let mut midpoint = |a: u32, b: u32, v: &mut Vec<Vec3>| -> u32 {
            let key = (a.min(b), a.max(b));
            *mid.entry(key).or_insert_with(|| {
                v.push(((v[a as usize] + v[b as usize]) * 0.5).normalize());
                (v.len() - 1) as u32
            })
        };
        let mut nt = Vec::with_capacity(t.len() * 4);
        for &[a, b, c] in &t {
            let ab = midpoint(a, b, &mut v);
            let bc = midpoint(b, c, &mut v);
            let ca = midpoint(c, a, &mut v);
            nt.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        t = nt;
    }
    (v.into_iter().map(|x| x * r).collect(), t)
}

/// A torus around the y axis: major radius `big_r`, minor `r`, `n` by `m` quads.
pub fn torus(big_r: f32, r: f32, n: u32, m: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut v = Vec::new();
    for i in 0..n {
        let u = i as f32 / n as f32 * std::f32::consts::TAU;
        for j in 0..m {
            let w = j as f32 / m as f32 * std::f32::consts::TAU;
            let rr = big_r + r * w.cos();
            v.push(Vec3::new(rr * u.cos(), r * w.sin(), rr * u.sin()));
        }
    }
    let id = |i: u32, j: u32| (i % n) * m + (j % m);
    let mut t = Vec::new();
    for i in 0..n {
        for j in 0..m {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            t.push([a, c, b]);
            t.push([a, d, c]);
        }
    }
    (v, t)
}

/// Analytic inside test of the torus (for the *smooth* surface).
pub fn torus_signed(big_r: f32, r: f32, p: Vec3) -> f32 {
    let q = Vec2::new(Vec2::new(p.x, p.z).length() - big_r, p.y);
    q.length() - r
}
