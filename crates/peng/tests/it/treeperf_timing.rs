//! Timing harness for the DynamicTree's bulk paths (ignored: run with
//! `cargo test --profile bench -p peng --test it treeperf_timing:: -- --ignored
//! --nocapture`; `TREEPERF_REPS` repeats for a profiler). The MSVC `rand()`
//! vector from scratch, and a moving-boxes frame loop like the
//! bench's; the pair counts are checked against the known totals.

use crate::broad_common;

use broad_common::msvc_boxes;
use peng::bound::Aabb3;
use peng::broad::{BroadPhase, DynamicTree, Filter};
use peng::math::Vec3;
use std::time::Instant;

/// CPU time of this thread so far, in seconds (from /proc, 10 ms ticks; the
/// machine is shared, so wall time says little).
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields of the whole line.
    let rest = s.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (tick(11) + tick(12)) / 100.0
}

fn reps() -> usize {
    std::env::var("TREEPERF_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2)
}

#[test]
#[ignore]
fn msvc_100k_from_scratch() {
    let boxes = msvc_boxes(100_000, 42);
    for _ in 0..reps() {
        let t = Instant::now();
        let c0 = cpu();
        let mut tree = DynamicTree::<Vec3>::new();
        for (i, b) in boxes.iter().enumerate() {
            tree.insert(*b, i as u64, Filter::ALL).unwrap();
        }
        let t_ins = t.elapsed();
        tree.update_pairs();
        let t_all = t.elapsed();
        assert_eq!(tree.pairs().len(), 1_144_045);
        let c = (cpu() - c0) * 1000.0;
        eprintln!("msvc 100k: insert {t_ins:?}, total {t_all:?}, cpu {c:.0} ms");
    }
}

/// A small LCG (high bits).
struct Lcg(u64);
impl Lcg {
    fn f(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[test]
#[ignore]
fn moving_frames() {
    let n: usize = std::env::var("TREEPERF_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    // The bench's scene: edges 0.5-2 (one in twenty up to 8), 40 volume units
    // per box, speeds 0.02-0.2, a different tenth moving each frame.
    let mut r = Lcg(1);
    let side = (n as f32 * 40.0).cbrt();
    let mut c: Vec<Vec3> = Vec::new();
    let mut h: Vec<Vec3> = Vec::new();
    let mut v: Vec<Vec3> = Vec::new();
    for _ in 0..n {
        let hmax = if r.f() < 0.05 { 4.0 } else { 1.0 };
        h.push(Vec3::new(r.f(), r.f(), r.f()) * (hmax - 0.25) + Vec3::splat(0.25));
        c.push(Vec3::new(r.f(), r.f(), r.f()) * side);
        let d = Vec3::new(r.f() - 0.5, r.f() - 0.5, r.f() - 0.5).normalize_or_zero();
        v.push(d * (0.02 + 0.18 * r.f()));
    }
    let bx = |c: Vec3, h: Vec3| Aabb3::new(c - h, c + h);
    let t = Instant::now();
    let mut tree = DynamicTree::<Vec3>::new();
    let ids: Vec<_> = (0..n)
        .map(|i| tree.insert(bx(c[i], h[i]), i as u64, Filter::ALL).unwrap())
        .collect();
    tree.update_pairs();
    eprintln!(
        "moving {n}: build {:?}, {} pairs",
        t.elapsed(),
        tree.pairs().len()
    );
    let frames = 30 * reps();
    let t = Instant::now();
    let c0 = cpu();
    let mut total = 0;
    for f in 0..frames {
        for i in (f % 10..n).step_by(10) {
            let mut p = c[i] + v[i];
            for k in 0..3 {
                if p[k] < 0.0 || p[k] > side {
                    v[i][k] = -v[i][k];
                    p[k] = p[k].clamp(0.0, side);
                }
            }
            c[i] = p;
            tree.move_proxy(ids[i], bx(p, h[i]), v[i]).unwrap();
        }
        tree.update_pairs();
        total += tree.pairs().len();
    }
    eprintln!(
        "moving {n}: {:?} per frame, cpu {:.2} ms per frame ({} pairs per frame)",
        t.elapsed() / frames as u32,
        (cpu() - c0) * 1000.0 / frames as f64,
        total / frames
    );
}
