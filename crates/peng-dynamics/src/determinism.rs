//! What peng-dynamics promises about repeating a simulation to the bit,
//! and the setting that chooses how far the promise goes
//! ([`StepSettings::determinism`](crate::StepSettings::determinism)).
//!
//! # Across thread counts and runs (both modes)
//!
//! The same world, stepped the same way, ends in the same state to the bit
//! on any number of threads and from run to run: the contacts and joints
//! are put in colours and lanes in an order that depends on the pairs
//! alone, every pass solves colour after colour, and a colour's blocks
//! touch disjoint bodies, so the order of every floating-point operation
//! is fixed before any thread starts (`solver::colour`). Nothing reads
//! the clock, a random source or an address.
//!
//! # Across processors
//!
//! - [`Determinism::Fast`] (the default) picks the solver's lane kernels at
//!   run time: where the processor has AVX2 and FMA, kernels compiled for
//!   them, whose multiply-adds are fused (rounded once); elsewhere the
//!   baseline build (SSE2 on x86-64), whose multiply-adds round twice. Two
//!   x86-64 processors, one with FMA and one without, can so give
//!   different results from the same binary. The rest of the step also
//!   calls the platform's math library (`sin`, `cos` and `atan2`, for 3D
//!   rotations and joint angles), and glibc picks its own variants of some
//!   of these by processor.
//! - [`Determinism::CrossProcessor`] gives the same bits on every x86-64
//!   processor (from SSE2 up) for one binary. The kernels multiply and
//!   add unfused everywhere; they still run in AVX2 registers where the
//!   processor has AVX2 (an IEEE-754 add, multiply, divide or square root
//!   of `f32` rounds the same in a scalar, SSE or AVX register, and the
//!   kernels do the same operations in the same order whatever their
//!   width); no approximate reciprocal (`rcp`, `rsqrt`) is used in either
//!   mode. The sines, cosines and arc tangents of the step (the 3D
//!   rotation's integration, the joints' angles) come from this crate's
//!   own polynomials in `+ − × ÷` (Cephes' `sinf`, `cosf` and `atanf`)
//!   instead of the math library.
//!   The collision detection underneath (peng) uses no fused multiply-add;
//!   one exception remains: the continuous detection of a turning bullet
//!   calls the math library's sine and cosine (see below).
//!
//! # Never promised
//!
//! - The same bits from two builds: another compiler version, other
//!   optimisation settings, `-C target-cpu` or `-C target-feature=+fma`
//!   (the compiler may then fuse or reorder where the source does not
//!   say), or another version of peng or glam.
//! - The same bits across architectures (x86-64 and AArch64) or operating
//!   systems: glam's vector code differs per architecture, and the
//!   collision detection calls the platform's math library (its `sin`,
//!   `cos` and `atan2` are not correctly rounded and differ between
//!   libraries, and glibc chooses some of them by processor) in the
//!   continuous collision detection of turning bullets (the rims of
//!   cylinders and cones come from an exact table).
//! - The same bits after a change to the world that the two runs did not
//!   share (adding bodies in another order gives other handles, pairs and
//!   colours).
//!
//! `sqrt` is exact (correctly rounded) in IEEE 754, so it is used freely
//! in both modes.

/// How far the promise of the same results goes (see the
/// [module documentation](self)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Determinism {
    /// The same results on any number of threads; the fastest kernels the
    /// processor has (AVX2 with fused multiply-adds where it has them), so
    /// two processors may differ in the last bits. The default.
    #[default]
    Fast,
    /// The same results on any number of threads and on any x86-64
    /// processor, for one binary: no fused multiply-add, kernels whose
    /// results do not depend on the instruction set, and the crate's own
    /// sine, cosine and arc tangent. Costs little: the solve kernels give
    /// up their fused multiply-adds (on the dyn_steps benchmark scenes the
    /// steps took about as long as in the fast mode, within the noise).
    CrossProcessor,
}

/// The lane kernels a step runs: what [`Determinism`] asks for, and for
/// the tests the baseline build whatever the processor has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Kernels {
    /// AVX2 with fused multiply-adds where the processor has AVX2 and
    /// FMA, else the baseline build ([`Determinism::Fast`]).
    #[default]
    Fast,
    /// Unfused multiply-adds; AVX2 registers where the processor has
    /// AVX2, else the baseline build ([`Determinism::CrossProcessor`]).
    Exact,
    /// As [`Exact`](Self::Exact), always in the baseline build (what a
    /// processor without AVX2 runs).
    ExactBaseline,
}

impl Kernels {
    /// The kernels of `mode`; with `baseline`, the exact ones in the
    /// baseline build.
    pub fn of(mode: Determinism, baseline: bool) -> Kernels {
        match (mode, baseline) {
            (Determinism::Fast, _) => Kernels::Fast,
            (Determinism::CrossProcessor, false) => Kernels::Exact,
            (Determinism::CrossProcessor, true) => Kernels::ExactBaseline,
        }
    }

    /// Whether the step must give the same bits on any processor.
    pub fn exact(self) -> bool {
        self != Kernels::Fast
    }
}

/// Sine, cosine and arc tangent from `+ − × ÷` alone, in a fixed order,
/// so the same bits on any processor whatever its math library
/// (Cephes' single-precision `sinf`, `cosf` and `atanf`: range reduction,
/// then short polynomials; within about 2·10⁻⁷ of the true values).
pub(crate) mod exact {
    use core::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};

    /// `4 / π`.
    const FOPI: f32 = 1.273_239_5;
    /// `π/4` in three parts, each product with a small integer exact
    /// (Cody and Waite's reduction, as Cephes).
    const DP1: f32 = 0.785_156_25;
    const DP2: f32 = 2.418_756_5e-4;
    const DP3: f32 = 3.774_895e-8;

    /// `(sin x, cos x)`. NaN for a non-finite `x`; the reduction loses
    /// accuracy (not determinism) beyond |x| ≈ 8000.
    pub fn sin_cos(x: f32) -> (f32, f32) {
        if !x.is_finite() {
            return (f32::NAN, f32::NAN);
        }
        let ax = x.abs();
        // The octant, rounded up to even: the remainder lies in [−π/4, π/4].
        let mut j = (ax * FOPI) as u32;
        if j & 1 == 1 {
            j = j.wrapping_add(1);
        }
        let y = j as f32;
        let r = ((ax - y * DP1) - y * DP2) - y * DP3;
        let z = r * r;
        let s = ((-1.951_529_6e-4 * z + 8.332_161e-3) * z - 1.666_665_5e-1) * z * r + r;
        let c =
            ((2.443_315_7e-5 * z - 1.388_731_6e-3) * z + 4.166_664_6e-2) * z * z - 0.5 * z + 1.0;
        let (sin, cos) = match j & 7 {
            0 => (s, c),
            2 => (c, -s),
            4 => (-s, -c),
            _ => (-c, s),
        };
        (if x < 0.0 { -sin } else { sin }, cos)
    }

    /// `atan2(y, x)` in `[−π, π]`: 0 when both are zero, NaN when either
    /// is NaN.
    pub fn atan2(y: f32, x: f32) -> f32 {
        let (ax, ay) = (x.abs(), y.abs());
        let (big, small) = if ay > ax { (ay, ax) } else { (ax, ay) };
        if big == 0.0 {
            return 0.0;
        }
        // atan of the ratio in [0, 1], reduced to [0, tan π/8] by
        // atan a = π/4 + atan((a − 1)/(a + 1)).
        let a = small / big;
        let (t, base) = if a > 0.414_213_57 {
            ((a - 1.0) / (a + 1.0), FRAC_PI_4)
        } else {
            (a, 0.0)
        };
        let z = t * t;
        let p = (((8.053_744_5e-2 * z - 1.387_768_6e-1) * z + 1.997_771_1e-1) * z - 3.333_295e-1)
            * z
            * t
            + t;
        let mut r = base + p;
        if ay > ax {
            r = FRAC_PI_2 - r;
        }
        if x < 0.0 {
            r = PI - r;
        }
        if y < 0.0 {
            -r
        } else {
            r
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn sine_and_cosine_are_within_3e_7_of_the_library() {
            let mut worst = 0.0f32;
            for i in -200_000..=200_000 {
                let x = i as f32 * 1e-4;
                let (s, c) = sin_cos(x);
                worst = worst.max((s - x.sin()).abs()).max((c - x.cos()).abs());
            }
            assert!(worst < 3e-7, "worst {worst}");
            assert_eq!(sin_cos(0.0), (0.0, 1.0));
            assert!(sin_cos(f32::NAN).0.is_nan() && sin_cos(f32::INFINITY).1.is_nan());
        }

        #[test]
        fn arc_tangent_is_within_two_ulps_of_pi_of_the_library_in_every_quadrant() {
            let mut worst = 0.0f32;
            for i in 0..100_000 {
                let t = i as f32 * (std::f32::consts::TAU / 100_000.0) - PI;
                for r in [1e-3f32, 1.0, 7.5e3] {
                    let (y, x) = (r * t.sin(), r * t.cos());
                    worst = worst.max((atan2(y, x) - y.atan2(x)).abs());
                }
            }
            // Two units in the last place of π.
            assert!(worst < 5e-7, "worst {worst}");
            assert_eq!(atan2(0.0, 0.0), 0.0);
            assert_eq!(atan2(0.0, -1.0), PI);
            assert_eq!(atan2(-1.0, 0.0), -FRAC_PI_2);
            assert!(atan2(f32::NAN, 1.0).is_nan());
        }
    }
}

/// The end states of [`Determinism::CrossProcessor`], pinned: the same hash
/// on one and two threads, in the kernels a processor with AVX2 runs and
/// in the baseline build (a processor without AVX2 or FMA), and the value
/// pinned below on x86-64.
#[cfg(test)]
mod pinned {
    use super::*;
    use crate::{BodyDesc, ColliderDesc, JointDesc2, JointDesc3, PhysicsWorld2, PhysicsWorld3};
    use glam::{Quat, Vec2, Vec3};
    use peng::d2::{Circle, Pose2, Rect};
    use peng::d3::{Ball, Capsule, Cuboid, Pose3};

    /// FNV-1a over the bits of `xs`.
    fn fnv(xs: impl IntoIterator<Item = f32>) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for x in xs {
            for byte in x.to_bits().to_le_bytes() {
                h = (h ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }

    /// A pyramid of 120 boxes (base 15) hit by balls, beside a swinging
    /// chain of 12 boxes on revolute joints (plain, with limits, with a
    /// motor) and a weld.
    fn scene2(mode: Determinism) -> PhysicsWorld2 {
        let mut w = PhysicsWorld2::new();
        w.settings_mut().determinism = mode;
        let ground = w.add_body(BodyDesc::fixed(Pose2::from_translation(Vec2::new(
            0.0, -0.5,
        ))));
        w.add_collider(
            ground,
            ColliderDesc::new(Rect::new(Vec2::new(40.0, 0.5)).unwrap()),
        )
        .unwrap();
        let square = Rect::new(Vec2::splat(0.5)).unwrap();
        for row in 0..15 {
            let n = 15 - row;
            for i in 0..n {
                let x = i as f32 - 0.5 * (n - 1) as f32;
                let p = Vec2::new(x, 0.5 + row as f32);
                let b = w.add_body(BodyDesc::dynamic(Pose2::from_translation(p)));
                w.add_collider(b, ColliderDesc::new(square)).unwrap();
            }
        }
        for i in 0..6 {
            let p = Vec2::new(-4.0 + 1.7 * i as f32, 20.0 + 1.5 * i as f32);
            let b = w.add_body(BodyDesc::dynamic(Pose2::from_translation(p)));
            let c = Circle::new(0.3 + 0.05 * i as f32).unwrap();
            w.add_collider(b, ColliderDesc::new(c).with_restitution(0.3))
                .unwrap();
        }
        let link = Rect::new(Vec2::new(0.5, 0.125)).unwrap();
        let mut prev = ground;
        for i in 0..12 {
            let p = Vec2::new(20.0 + i as f32, 12.0);
            let b = w.add_body(BodyDesc::dynamic(Pose2::from_translation(p)));
            w.add_collider(b, ColliderDesc::new(link)).unwrap();
            let at = p - Vec2::new(0.5, 0.0);
            let j = match i {
                0 => JointDesc2::revolute(prev, b, at).with_motor(1.0, 50.0),
                5 => JointDesc2::weld(prev, b, at),
                // Plain hinges go in lanes (`joint::lanes2`).
                3 | 7 | 9 | 10 => JointDesc2::revolute(prev, b, at),
                _ => JointDesc2::revolute(prev, b, at).with_limits(-0.6, 0.6),
            };
            w.add_joint(j).unwrap();
            prev = b;
        }
        w
    }

    /// A heap of boxes, balls and capsules, some spinning, on a floor,
    /// beside a chain of 8 boxes on revolute joints with limits and a
    /// weld.
    fn scene3(mode: Determinism) -> PhysicsWorld3 {
        let mut w = PhysicsWorld3::new();
        w.settings_mut().determinism = mode;
        let floor = w.add_body(BodyDesc::fixed(Pose3::from_translation(Vec3::new(
            0.0, -0.5, 0.0,
        ))));
        w.add_collider(
            floor,
            ColliderDesc::new(Cuboid::new(Vec3::new(20.0, 0.5, 20.0)).unwrap()),
        )
        .unwrap();
        let mut seed = 12345u32;
        let mut rnd = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        for i in 0..48 {
            let p = Vec3::new(rnd() * 4.0 - 2.0, 0.5 + i as f32 * 0.5, rnd() * 4.0 - 2.0);
            let q = Quat::from_xyzw(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, 1.0).normalize();
            let b = w.add_body(BodyDesc::dynamic(Pose3::new(p, q)));
            let c = match i % 3 {
                0 => ColliderDesc::new(Cuboid::new(Vec3::new(0.4, 0.3, 0.2)).unwrap()),
                1 => ColliderDesc::new(Ball::new(0.3).unwrap()),
                _ => ColliderDesc::new(
                    Capsule::new(Vec3::new(0.0, -0.3, 0.0), Vec3::new(0.0, 0.3, 0.0), 0.2).unwrap(),
                ),
            };
            w.add_collider(b, c.with_restitution(0.2)).unwrap();
            w.body_mut(b).unwrap().angvel = Vec3::new(rnd(), rnd(), rnd()) * 6.0 - 3.0;
        }
        let link = Cuboid::new(Vec3::new(0.5, 0.1, 0.1)).unwrap();
        let mut prev = floor;
        for i in 0..8 {
            let p = Vec3::new(6.0 + i as f32, 6.0, 0.0);
            let b = w.add_body(BodyDesc::dynamic(Pose3::from_translation(p)));
            w.add_collider(b, ColliderDesc::new(link)).unwrap();
            let at = p - Vec3::new(0.5, 0.0, 0.0);
            let j = if i == 4 {
                JointDesc3::weld(prev, b, at)
            } else {
                JointDesc3::revolute(prev, b, at, Vec3::Z).with_limits(-0.7, 0.7)
            };
            w.add_joint(j).unwrap();
            prev = b;
        }
        w
    }

    /// The hash of scene `dim` (2 or 3) in `mode` after `steps` steps on
    /// `threads` threads, in the baseline build's kernels if `baseline`.
    fn run(dim: u32, mode: Determinism, threads: usize, baseline: bool, steps: usize) -> u64 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        pool.install(|| {
            if dim == 2 {
                let mut w = scene2(mode);
                w.baseline_kernels = baseline;
                for _ in 0..steps {
                    w.step().expect("step");
                }
                fnv(w.bodies().flat_map(|(_, b)| {
                    let (p, q) = (b.pose.translation, b.pose.rotation);
                    [p.x, p.y, q.cos, q.sin, b.linvel.x, b.linvel.y, b.angvel]
                }))
            } else {
                let mut w = scene3(mode);
                w.baseline_kernels = baseline;
                for _ in 0..steps {
                    w.step().expect("step");
                }
                fnv(w.bodies().flat_map(|(_, b)| {
                    let (p, q) = (b.pose.translation, b.pose.rotation);
                    [p.to_array(), b.linvel.to_array(), b.angvel.to_array()]
                        .into_iter()
                        .flatten()
                        .chain(q.to_array())
                }))
            }
        })
    }

    /// The hash of `dim`'s scene in cross-processor mode, the same on one
    /// and two threads and in both builds of the kernels.
    fn cross_processor_hash(dim: u32, steps: usize) -> u64 {
        let mode = Determinism::CrossProcessor;
        let h = run(dim, mode, 1, false, steps);
        assert_eq!(h, run(dim, mode, 2, false, steps), "{dim}D: 2 threads");
        assert_eq!(h, run(dim, mode, 1, true, steps), "{dim}D: baseline");
        assert_eq!(
            h,
            run(dim, mode, 2, true, steps),
            "{dim}D: baseline, 2 threads"
        );
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // The mode changes something: here the fast mode fuses.
            assert_ne!(
                h,
                run(dim, Determinism::Fast, 1, false, steps),
                "{dim}D: fast"
            );
        }
        h
    }

    #[test]
    fn cross_processor_states_2d_are_pinned() {
        let h = cross_processor_hash(2, 240);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(h, 0x0770_8bb6_4aa7_9923, "2D: {h:016x}");
        let _ = h;
    }

    #[test]
    fn cross_processor_states_3d_are_pinned() {
        let h = cross_processor_hash(3, 240);
        #[cfg(target_arch = "x86_64")]
        // Re-pinned when the narrow phase's precision fixes changed the
        // scene's contacts (capsule normals and witnesses against polytopes,
        // capsules and cylinders; nearly parallel capsules' points on both
        // surfaces; capsules against polytopes solved in the polytope's frame),
        // still the same on every thread count and kernel build.
        assert_eq!(h, 0x9d19_0d0b_4703_a1a2, "3D: {h:016x}");
        let _ = h;
    }
}
