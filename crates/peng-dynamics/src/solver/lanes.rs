//! Eight `f32` lanes, one constraint each, for the wide contact solvers.
//!
//! Plain arrays with element-wise operators: the compiler turns each
//! operator into one AVX instruction where the solver is compiled for AVX2
//! (see `wide2::WideContacts2::solve`), two SSE (or NEON) instructions
//! otherwise; branches become lane selects ([`F8::select`]).

// Lane loops index several arrays in step, the form the compiler
// vectorises.
#![allow(clippy::needless_range_loop)]

use core::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// Lanes per block.
pub(crate) const LANES: usize = 8;

/// Defines `$vis unsafe fn $run(kernels, args)`, which calls the
/// `#[inline(always)]` lane loop `$lanes(args)` compiled for AVX2 and FMA
/// (as `$avx2`, one instruction per lane operation, fused multiply-adds
/// included) where the processor has both and `kernels` allows it
/// (not [`Kernels::ExactBaseline`]), and as is elsewhere.
/// The callers of `$run` take on `$lanes`' safety contract.
///
/// Two forms. Without a multiply-add type (`$lanes::<plain | avx>`, or no
/// types), the loop's two builds give the same bits (the same IEEE
/// operations in the same order, narrow or wide): [`Kernels::Exact`] runs
/// the AVX2 build as [`Kernels::Fast`] does. With a third list of types
/// and a second name, `$avx2 / $avx2x, $lanes::<plain | avx | exact>`, the
/// [`MulAdd`] types differ: [`Kernels::Exact`] runs `$avx2x`, the loop
/// with the `exact` types ([`Unfused`]) compiled for AVX2 alone, so it
/// gives the baseline's bits.
macro_rules! avx2_dispatch {
    // `$lanes` may be generic over type parameters that say how it
    // computes: `$plain` in the baseline build, `$avx` in the AVX2 build (a
    // [`Lane`] type, or a [`Rows`] type whose lanes are those, and a
    // [`MulAdd`]), `$exact` in the AVX2 build of `Kernels::Exact`.
    ($(#[$doc:meta])* $vis:vis $run:ident, $avx2:ident / $avx2x:ident, $lanes:ident ::<$($plain:ty),+ | $($avx:ty),+ | $($exact:ty),+>, ($($arg:ident: $ty:ty),* $(,)?)) => {
        $(#[$doc])*
        $vis unsafe fn $run(kernels: $crate::determinism::Kernels, $($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            use $crate::determinism::Kernels;
            #[cfg(target_arch = "x86_64")]
            match kernels {
                Kernels::Fast
                    if std::arch::is_x86_feature_detected!("avx2")
                        && std::arch::is_x86_feature_detected!("fma") =>
                {
                    // SAFETY: the processor has AVX2 and FMA; the rest as
                    // the caller's.
                    return unsafe { $avx2($($arg),*) };
                }
                Kernels::Exact if std::arch::is_x86_feature_detected!("avx2") => {
                    // SAFETY: the processor has AVX2; the rest as the
                    // caller's.
                    return unsafe { $avx2x($($arg),*) };
                }
                _ => {}
            }
            #[cfg(not(target_arch = "x86_64"))]
            let _ = kernels;
            // SAFETY: the caller's.
            unsafe { $lanes::<$($plain),+>($($arg),*) }
        }

        /// The lane loop compiled for AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn $avx2($($arg: $ty),*) {
            // SAFETY: the processor has AVX2 and FMA (this function's
            // features), as the AVX types ask; the rest as the caller's.
            unsafe { $lanes::<$($avx),+>($($arg),*) }
        }

        /// The lane loop compiled for AVX2 (no FMA: nothing can be fused).
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        unsafe fn $avx2x($($arg: $ty),*) {
            // SAFETY: the processor has AVX2 (this function's feature), as
            // the AVX types ask; the rest as the caller's.
            unsafe { $lanes::<$($exact),+>($($arg),*) }
        }
    };
    ($(#[$doc:meta])* $vis:vis $run:ident, $avx2:ident, $lanes:ident $(::<$($plain:ty),+ | $($avx:ty),+>)?, ($($arg:ident: $ty:ty),* $(,)?)) => {
        $(#[$doc])*
        $vis unsafe fn $run(kernels: $crate::determinism::Kernels, $($arg: $ty),*) {
            #[cfg(target_arch = "x86_64")]
            if kernels != $crate::determinism::Kernels::ExactBaseline
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: the processor has AVX2 and FMA; the rest as the caller's.
                return unsafe { $avx2($($arg),*) };
            }
            #[cfg(not(target_arch = "x86_64"))]
            let _ = kernels;
            // SAFETY: the caller's.
            unsafe { $lanes $(::<$($plain),+>)? ($($arg),*) }
        }

        /// The lane loop compiled for AVX2 and FMA.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma")]
        unsafe fn $avx2($($arg: $ty),*) {
            // SAFETY: the processor has AVX2 and FMA (this function's
            // features), as the AVX types ask; the rest as the caller's.
            unsafe { $lanes $(::<$($avx),+>)? ($($arg),*) }
        }
    };
}
pub(crate) use avx2_dispatch;

/// Eight `f32` lanes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct F8(pub [f32; LANES]);

/// Eight lane conditions, each all ones (true) or all zeros (false), the
/// form of a vector comparison's result: selects and logic then stay in
/// vector registers (a `bool` per lane had to be packed and unpacked
/// around every comparison and select).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C, align(32))]
pub(crate) struct M8([u32; LANES]);

macro_rules! lanewise {
    ($trait:ident, $f:ident, $op:tt) => {
        impl $trait for F8 {
            type Output = F8;
            #[inline(always)]
            fn $f(self, o: F8) -> F8 {
                let mut r = [0.0; LANES];
                for i in 0..LANES {
                    r[i] = self.0[i] $op o.0[i];
                }
                F8(r)
            }
        }
    };
}
lanewise!(Add, add, +);
lanewise!(Sub, sub, -);
lanewise!(Mul, mul, *);
lanewise!(Div, div, /);

impl Neg for F8 {
    type Output = F8;
    #[inline(always)]
    fn neg(self) -> F8 {
        let mut r = self.0;
        for x in &mut r {
            *x = -*x;
        }
        F8(r)
    }
}

impl AddAssign for F8 {
    #[inline(always)]
    fn add_assign(&mut self, o: F8) {
        *self = *self + o;
    }
}

impl SubAssign for F8 {
    #[inline(always)]
    fn sub_assign(&mut self, o: F8) {
        *self = *self - o;
    }
}

macro_rules! compare {
    ($f:ident, $op:tt) => {
        /// Lane-wise comparison.
        #[inline(always)]
        pub fn $f(self, o: F8) -> M8 {
            let mut r = [0; LANES];
            for i in 0..LANES {
                r[i] = if self.0[i] $op o.0[i] { u32::MAX } else { 0 };
            }
            M8(r)
        }
    };
}

impl F8 {
    /// All lanes zero.
    pub const ZERO: F8 = F8([0.0; LANES]);

    /// `x` in every lane.
    #[inline(always)]
    pub fn splat(x: f32) -> F8 {
        F8([x; LANES])
    }

    /// `g` of each lane's item. Generic (not `&dyn Fn`), so that the reads
    /// inline: through a trait object the solvers' gather of body fields was
    /// an indirect call per lane and scalar.
    #[inline(always)]
    pub fn gather<T>(items: &[&T; LANES], g: impl Fn(&T) -> f32) -> F8 {
        F8(core::array::from_fn(|l| g(items[l])))
    }

    /// `self · b + c` in each lane, rounded once (`f32::mul_add`): one
    /// fused instruction in the kernels compiled with FMA ([`Fused`]).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub fn mul_add(self, b: F8, c: F8) -> F8 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = self.0[i].mul_add(b.0[i], c.0[i]);
        }
        F8(r)
    }

    /// `self · b - c` in each lane, rounded once.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub fn mul_sub(self, b: F8, c: F8) -> F8 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = self.0[i].mul_add(b.0[i], -c.0[i]);
        }
        F8(r)
    }

    /// `c - self · b` in each lane, rounded once.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub fn neg_mul_add(self, b: F8, c: F8) -> F8 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = (-self.0[i]).mul_add(b.0[i], c.0[i]);
        }
        F8(r)
    }

    /// Lane-wise minimum.
    #[inline(always)]
    pub fn min(self, o: F8) -> F8 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = if self.0[i] < o.0[i] {
                self.0[i]
            } else {
                o.0[i]
            };
        }
        F8(r)
    }

    /// Lane-wise maximum.
    #[inline(always)]
    pub fn max(self, o: F8) -> F8 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = if self.0[i] > o.0[i] {
                self.0[i]
            } else {
                o.0[i]
            };
        }
        F8(r)
    }

    /// `1 / self` where `keep`, else 0.
    #[inline(always)]
    pub fn recip_or_zero(self, keep: M8) -> F8 {
        let d = F8::select(keep, self, F8::splat(1.0));
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = 1.0 / d.0[i];
        }
        F8::select(keep, F8(r), F8::ZERO)
    }

    /// Lane-wise absolute value.
    #[inline(always)]
    pub fn abs(self) -> F8 {
        let mut r = self.0;
        for x in &mut r {
            *x = x.abs();
        }
        F8(r)
    }

    /// Lane-wise square root.
    #[inline(always)]
    pub fn sqrt(self) -> F8 {
        // A loop, not `array::map`: the map's closure was not inlined into
        // the AVX2 kernels, and each call passed the lanes through memory.
        let mut r = self.0;
        for x in &mut r {
            *x = x.sqrt();
        }
        F8(r)
    }

    /// `a` where `m`, else `b`.
    #[inline(always)]
    pub fn select(m: M8, a: F8, b: F8) -> F8 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = f32::from_bits((a.0[i].to_bits() & m.0[i]) | (b.0[i].to_bits() & !m.0[i]));
        }
        F8(r)
    }

    compare!(gt, >);
    compare!(ge, >=);
}

impl M8 {
    /// No lane holds.
    pub const NONE: M8 = M8([0; LANES]);

    /// Every lane holds.
    #[cfg(test)]
    pub const ALL: M8 = M8([u32::MAX; LANES]);

    /// Lane `l`.
    #[inline(always)]
    pub fn get(self, l: usize) -> bool {
        self.0[l] != 0
    }

    /// Sets lane `l` to `on`.
    #[inline(always)]
    pub fn set(&mut self, l: usize, on: bool) {
        self.0[l] = if on { u32::MAX } else { 0 };
    }

    /// Lane-wise and.
    #[inline(always)]
    pub fn and(self, o: M8) -> M8 {
        let mut r = [0; LANES];
        for i in 0..LANES {
            r[i] = self.0[i] & o.0[i];
        }
        M8(r)
    }

    /// Lane-wise and-not (`self` and not `o`).
    #[inline(always)]
    pub fn and_not(self, o: M8) -> M8 {
        let mut r = [0; LANES];
        for i in 0..LANES {
            r[i] = self.0[i] & !o.0[i];
        }
        M8(r)
    }

    /// Lane-wise not.
    #[inline(always)]
    pub fn not(self) -> M8 {
        let mut r = self.0;
        for x in &mut r {
            *x = !*x;
        }
        M8(r)
    }

    /// Lane-wise or.
    #[inline(always)]
    pub fn or(self, o: M8) -> M8 {
        let mut r = [0; LANES];
        for i in 0..LANES {
            r[i] = self.0[i] | o.0[i];
        }
        M8(r)
    }

    /// Whether any lane holds.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0.iter().fold(0, |acc, &x| acc | x) != 0
    }

    /// Whether every lane holds.
    #[inline(always)]
    pub fn all(self) -> bool {
        self.0.iter().fold(u32::MAX, |acc, &x| acc & x) != 0
    }
}

/// How a solve kernel multiplies and adds: [`Fused`] (rounded once, one
/// FMA instruction a lane vector, in the kernels compiled with FMA) or
/// [`Unfused`] (a product and a sum, in the baseline build, where a fused
/// lane would be a library call on a processor without FMA).
pub(crate) trait MulAdd {
    /// `a · b + c`.
    fn mul_add(a: F8, b: F8, c: F8) -> F8;
    /// `a · b - c`.
    fn mul_sub(a: F8, b: F8, c: F8) -> F8;
    /// `c - a · b`.
    fn neg_mul_add(a: F8, b: F8, c: F8) -> F8;

    /// The dot product of two lane vectors.
    #[inline(always)]
    fn dot(a: V3, b: V3) -> F8 {
        Self::mul_add(a.z, b.z, Self::mul_add(a.y, b.y, a.x * b.x))
    }

    /// The cross product of two lane vectors.
    #[inline(always)]
    fn cross(a: V3, b: V3) -> V3 {
        V3 {
            x: Self::mul_sub(a.y, b.z, a.z * b.y),
            y: Self::mul_sub(a.z, b.x, a.x * b.z),
            z: Self::mul_sub(a.x, b.y, a.y * b.x),
        }
    }

    /// `a · s + c`, each component.
    #[inline(always)]
    fn scale_add(a: V3, s: F8, c: V3) -> V3 {
        V3 {
            x: Self::mul_add(a.x, s, c.x),
            y: Self::mul_add(a.y, s, c.y),
            z: Self::mul_add(a.z, s, c.z),
        }
    }
}

/// Fused multiply-adds ([`F8::mul_add`]).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct Fused;

impl MulAdd for Fused {
    #[inline(always)]
    fn mul_add(a: F8, b: F8, c: F8) -> F8 {
        a.mul_add(b, c)
    }
    #[inline(always)]
    fn mul_sub(a: F8, b: F8, c: F8) -> F8 {
        a.mul_sub(b, c)
    }
    #[inline(always)]
    fn neg_mul_add(a: F8, b: F8, c: F8) -> F8 {
        a.neg_mul_add(b, c)
    }
}

/// A product, then a sum.
pub(crate) struct Unfused;

impl MulAdd for Unfused {
    #[inline(always)]
    fn mul_add(a: F8, b: F8, c: F8) -> F8 {
        a * b + c
    }
    #[inline(always)]
    fn mul_sub(a: F8, b: F8, c: F8) -> F8 {
        a * b - c
    }
    #[inline(always)]
    fn neg_mul_add(a: F8, b: F8, c: F8) -> F8 {
        c - a * b
    }
}

/// Eight lanes as a value to compute with: [`F8`] itself (plain arrays,
/// which the compiler may or may not vectorise), or an AVX register
/// (`super::avx::Avx8`, one instruction per operation for certain).
/// [`F8`] stays the type a block stores; a kernel generic over `Lane`
/// loads its fields with [`load`](Lane::load).
pub(crate) trait Lane:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
{
    /// Stored lanes as a value.
    ///
    /// # Safety
    /// The processor has what the lane type needs (`Avx8`: AVX).
    unsafe fn load(f: &F8) -> Self;

    /// `x` in every lane.
    ///
    /// # Safety
    /// As for [`load`](Lane::load).
    unsafe fn splat(x: f32) -> Self;

    /// The lanes as stored lanes.
    fn store(self) -> F8;

    /// Lane conditions, each all ones (true) or all zeros (false).
    type Mask: Copy;

    /// Lane-wise `self > o` (false where either is NaN).
    fn gt(self, o: Self) -> Self::Mask;

    /// Lane-wise `self > o ? self : o`.
    fn max(self, o: Self) -> Self;

    /// Lane-wise absolute value.
    fn abs(self) -> Self;

    /// Lane-wise `1 / self`, correctly rounded.
    fn recip(self) -> Self;

    /// `a` where `m`, else `b`.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;

    /// `1 / self` where `keep`, else 0 (as [`F8::recip_or_zero`]).
    ///
    /// # Safety
    /// As for [`load`](Lane::load).
    #[inline(always)]
    unsafe fn recip_or_zero(self, keep: Self::Mask) -> Self {
        // SAFETY: the caller's.
        let (one, zero) = unsafe { (Self::splat(1.0), Self::splat(0.0)) };
        Self::select(keep, Self::select(keep, self, one).recip(), zero)
    }
}

impl Lane for F8 {
    #[inline(always)]
    unsafe fn load(f: &F8) -> F8 {
        *f
    }

    #[inline(always)]
    unsafe fn splat(x: f32) -> F8 {
        F8::splat(x)
    }

    #[inline(always)]
    fn store(self) -> F8 {
        self
    }

    type Mask = M8;

    #[inline(always)]
    fn gt(self, o: F8) -> M8 {
        F8::gt(self, o)
    }

    #[inline(always)]
    fn max(self, o: F8) -> F8 {
        F8::max(self, o)
    }

    #[inline(always)]
    fn abs(self) -> F8 {
        F8::abs(self)
    }

    #[inline(always)]
    fn recip(self) -> F8 {
        F8::splat(1.0) / self
    }

    #[inline(always)]
    fn select(m: M8, a: F8, b: F8) -> F8 {
        F8::select(m, a, b)
    }
}

/// A 3D vector in each lane.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct V3<L = F8> {
    pub x: L,
    pub y: L,
    pub z: L,
}

impl<L: Lane> Add for V3<L> {
    type Output = V3<L>;
    #[inline(always)]
    fn add(self, o: V3<L>) -> V3<L> {
        V3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

impl<L: Lane> Sub for V3<L> {
    type Output = V3<L>;
    #[inline(always)]
    fn sub(self, o: V3<L>) -> V3<L> {
        V3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

impl<L: Lane> Mul<L> for V3<L> {
    type Output = V3<L>;
    #[inline(always)]
    fn mul(self, s: L) -> V3<L> {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

impl<L: Lane> AddAssign for V3<L> {
    #[inline(always)]
    fn add_assign(&mut self, o: V3<L>) {
        *self = *self + o;
    }
}

impl<L: Lane> SubAssign for V3<L> {
    #[inline(always)]
    fn sub_assign(&mut self, o: V3<L>) {
        *self = *self - o;
    }
}

impl<L: Lane> V3<L> {
    /// Lane-wise dot product.
    #[inline(always)]
    pub fn dot(self, o: V3<L>) -> L {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Lane-wise cross product.
    #[inline(always)]
    pub fn cross(self, o: V3<L>) -> V3<L> {
        V3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

    /// Stored lanes as a value.
    ///
    /// # Safety
    /// As for [`Lane::load`].
    #[inline(always)]
    pub unsafe fn load(v: &V3) -> V3<L> {
        // SAFETY: the caller's.
        unsafe {
            V3 {
                x: L::load(&v.x),
                y: L::load(&v.y),
                z: L::load(&v.z),
            }
        }
    }

    /// The lanes as stored lanes.
    #[inline(always)]
    pub fn store(self) -> V3 {
        V3 {
            x: self.x.store(),
            y: self.y.store(),
            z: self.z.store(),
        }
    }

    /// Every lane zero.
    ///
    /// # Safety
    /// As for [`Lane::load`].
    #[inline(always)]
    pub unsafe fn zero() -> V3<L> {
        // SAFETY: the caller's.
        let z = unsafe { L::splat(0.0) };
        V3 { x: z, y: z, z }
    }
}

impl V3 {
    /// All lanes zero.
    pub const ZERO: V3 = V3 {
        x: F8::ZERO,
        y: F8::ZERO,
        z: F8::ZERO,
    };

    /// Sets lane `l` to `v`.
    #[inline(always)]
    pub fn set(&mut self, l: usize, v: glam::Vec3) {
        self.x.0[l] = v.x;
        self.y.0[l] = v.y;
        self.z.0[l] = v.z;
    }

    /// Lane `l`.
    #[inline(always)]
    pub fn get(&self, l: usize) -> glam::Vec3 {
        glam::Vec3::new(self.x.0[l], self.y.0[l], self.z.0[l])
    }
}

/// How a lane loop moves each lane's row of four floats into lane vectors
/// and back (array-of-structures to lanes): the 3D solver reads and writes
/// its bodies this way.
///
/// Why two ways: the compiler vectorises a lane loop's arithmetic (the
/// operators of [`F8`] are plain loops) only when it sees whole eight-lane
/// values at both ends. A loop whose results leave through 128-bit
/// transposes, as the 3D warm start's velocities do, was compiled to
/// scalar code; through 256-bit transposes it is compiled to one AVX
/// instruction per lane operation.
pub(crate) trait Rows {
    /// The lane type of kernels that move rows this way.
    type Lane: Lane;

    /// Row `j` of every lane's four floats, as lane vectors: `out[j].0[l] =
    /// rows[l][j]`.
    ///
    /// # Safety
    /// The processor has what the implementation needs ([`AvxRows`]: AVX).
    unsafe fn rows_in(rows: [&[f32; 4]; LANES]) -> [F8; 4];

    /// The inverse of [`rows_in`](Rows::rows_in): each lane's four floats
    /// from four lane vectors, `out[l][j] = cols[j].0[l]`.
    ///
    /// # Safety
    /// As for [`rows_in`](Rows::rows_in).
    unsafe fn rows_out(cols: [F8; 4]) -> [[f32; 4]; LANES];
}

/// [`Rows`] on any processor: 4x4 SSE transposes on x86-64 (SSE is part of
/// its baseline), four loads and a few shuffles per four lanes instead of a
/// load and an insert per lane and field (the 3D solve phase took about a
/// fifth less time); plain copies elsewhere.
pub(crate) struct BaselineRows;

impl Rows for BaselineRows {
    type Lane = F8;

    #[inline(always)]
    unsafe fn rows_in(rows: [&[f32; 4]; LANES]) -> [F8; 4] {
        let mut out = [F8::ZERO; 4];
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::*;
            for half in 0..LANES / 4 {
                let o = 4 * half;
                // SAFETY: each row is four readable floats; each output has
                // `LANES` floats from `o`.
                unsafe {
                    let r: [__m128; 4] =
                        core::array::from_fn(|k| _mm_loadu_ps(rows[o + k].as_ptr()));
                    for (j, c) in transpose4(r).into_iter().enumerate() {
                        _mm_storeu_ps(out[j].0.as_mut_ptr().add(o), c);
                    }
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        for (l, row) in rows.iter().enumerate() {
            for j in 0..4 {
                out[j].0[l] = row[j];
            }
        }
        out
    }

    #[inline(always)]
    unsafe fn rows_out(cols: [F8; 4]) -> [[f32; 4]; LANES] {
        let mut out = [[0.0; 4]; LANES];
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::*;
            for half in 0..LANES / 4 {
                let o = 4 * half;
                // SAFETY: each column has `LANES` floats from `o`; each
                // output row is four floats.
                unsafe {
                    let c: [__m128; 4] =
                        core::array::from_fn(|j| _mm_loadu_ps(cols[j].0.as_ptr().add(o)));
                    for (k, r) in transpose4(c).into_iter().enumerate() {
                        _mm_storeu_ps(out[o + k].as_mut_ptr(), r);
                    }
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        for (l, row) in out.iter_mut().enumerate() {
            for j in 0..4 {
                row[j] = cols[j].0[l];
            }
        }
        out
    }
}

/// [`Rows`] by 8x4 AVX transposes: lanes `l` and `l + 4` share a 256-bit
/// register, one 128-bit half each, so the 4x4 transpose of
/// [`BaselineRows`] runs on both halves at once (`unpack` and `shuffle` act
/// within each half). For lane loops compiled for AVX2 only
/// (`avx2_dispatch!`).
#[cfg(target_arch = "x86_64")]
pub(crate) struct AvxRows;

#[cfg(target_arch = "x86_64")]
impl Rows for AvxRows {
    type Lane = super::avx::Avx8;

    #[inline(always)]
    unsafe fn rows_in(rows: [&[f32; 4]; LANES]) -> [F8; 4] {
        use core::arch::x86_64::*;
        let mut out = [F8::ZERO; 4];
        // SAFETY: the processor has AVX (the caller's); each row is four
        // readable floats and each output eight writable ones.
        unsafe {
            // r[k] = row k | row k + 4.
            let r: [__m256; 4] = core::array::from_fn(|k| {
                let lo = _mm256_castps128_ps256(_mm_loadu_ps(rows[k].as_ptr()));
                _mm256_insertf128_ps::<1>(lo, _mm_loadu_ps(rows[k + 4].as_ptr()))
            });
            for (j, c) in transpose4x2(r).into_iter().enumerate() {
                _mm256_storeu_ps(out[j].0.as_mut_ptr(), c);
            }
        }
        out
    }

    #[inline(always)]
    unsafe fn rows_out(cols: [F8; 4]) -> [[f32; 4]; LANES] {
        use core::arch::x86_64::*;
        let mut out = [[0.0; 4]; LANES];
        // SAFETY: as in `rows_in`.
        unsafe {
            let c: [__m256; 4] = core::array::from_fn(|j| _mm256_loadu_ps(cols[j].0.as_ptr()));
            // t[k] = row k | row k + 4.
            for (k, t) in transpose4x2(c).into_iter().enumerate() {
                _mm_storeu_ps(out[k].as_mut_ptr(), _mm256_castps256_ps128(t));
                _mm_storeu_ps(out[k + 4].as_mut_ptr(), _mm256_extractf128_ps::<1>(t));
            }
        }
        out
    }
}

/// Two 4x4 transposes at once, one in each 128-bit half.
///
/// # Safety
/// The processor has AVX.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn transpose4x2(r: [core::arch::x86_64::__m256; 4]) -> [core::arch::x86_64::__m256; 4] {
    use core::arch::x86_64::*;
    // SAFETY: the caller's.
    unsafe {
        let t0 = _mm256_unpacklo_ps(r[0], r[1]); // r0.0 r1.0 r0.1 r1.1 (each half)
        let t1 = _mm256_unpacklo_ps(r[2], r[3]); // r2.0 r3.0 r2.1 r3.1
        let t2 = _mm256_unpackhi_ps(r[0], r[1]); // r0.2 r1.2 r0.3 r1.3
        let t3 = _mm256_unpackhi_ps(r[2], r[3]); // r2.2 r3.2 r2.3 r3.3
        [
            _mm256_shuffle_ps::<0x44>(t0, t1), // r0.0 r1.0 r2.0 r3.0
            _mm256_shuffle_ps::<0xEE>(t0, t1), // r0.1 r1.1 r2.1 r3.1
            _mm256_shuffle_ps::<0x44>(t2, t3), // r0.2 r1.2 r2.2 r3.2
            _mm256_shuffle_ps::<0xEE>(t2, t3), // r0.3 r1.3 r2.3 r3.3
        ]
    }
}

/// A 4x4 transpose of SSE registers (unpack pairs, then move halves).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn transpose4(r: [core::arch::x86_64::__m128; 4]) -> [core::arch::x86_64::__m128; 4] {
    use core::arch::x86_64::*;
    // SAFETY: SSE is part of the x86-64 baseline.
    unsafe {
        let t0 = _mm_unpacklo_ps(r[0], r[1]); // r0.0 r1.0 r0.1 r1.1
        let t1 = _mm_unpacklo_ps(r[2], r[3]); // r2.0 r3.0 r2.1 r3.1
        let t2 = _mm_unpackhi_ps(r[0], r[1]); // r0.2 r1.2 r0.3 r1.3
        let t3 = _mm_unpackhi_ps(r[2], r[3]); // r2.2 r3.2 r2.3 r3.3
        [
            _mm_movelh_ps(t0, t1),
            _mm_movehl_ps(t1, t0),
            _mm_movelh_ps(t2, t3),
            _mm_movehl_ps(t3, t2),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Fused`] rounds `a·b + c` once, [`Unfused`] twice: `1/3 · 3 - 1`
    /// keeps the product's rounding error (2^-25) in one, loses it in the
    /// other; the three forms agree with their definitions.
    #[test]
    fn multiply_adds_round_once_fused_and_twice_unfused() {
        let (third, three, one) = (F8::splat(1.0 / 3.0), F8::splat(3.0), F8::splat(1.0));
        let fused = Fused::mul_add(third, three, -one);
        assert_eq!(fused, F8::splat(2f32.powi(-25)));
        assert_eq!(Unfused::mul_add(third, three, -one), F8::ZERO);
        assert_eq!(Fused::mul_sub(third, three, one), fused);
        assert_eq!(Fused::neg_mul_add(third, three, one), -fused);
        assert_eq!(Unfused::mul_sub(third, three, one), F8::ZERO);
        assert_eq!(Unfused::neg_mul_add(third, three, one), F8::ZERO);
        // Exact operands: both give the exact dot and cross products.
        let v = |x: f32, y: f32, z: f32| V3 {
            x: F8::splat(x),
            y: F8::splat(y),
            z: F8::splat(z),
        };
        let (a, b) = (v(1.0, 2.0, 3.0), v(-4.0, 0.5, 2.0));
        for (dot, cross) in [
            (Fused::dot(a, b), Fused::cross(a, b)),
            (Unfused::dot(a, b), Unfused::cross(a, b)),
        ] {
            assert_eq!(dot, F8::splat(3.0));
            assert_eq!(cross, v(2.5, -14.0, 8.5));
        }
        assert_eq!(Fused::scale_add(a, F8::splat(2.0), b), v(-2.0, 4.5, 8.0));
    }

    #[test]
    fn transposes_move_each_lanes_row_into_the_lanes_and_back() {
        let rows: [[f32; 4]; LANES] =
            core::array::from_fn(|l| core::array::from_fn(|j| (10 * l + j) as f32));
        check_rows::<BaselineRows>(&rows);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            check_rows::<AvxRows>(&rows);
        }
    }

    /// `R` moves `rows` into lanes and back unchanged.
    fn check_rows<R: Rows>(rows: &[[f32; 4]; LANES]) {
        // SAFETY: the caller checked what `R` needs.
        let cols = unsafe { R::rows_in(core::array::from_fn(|l| &rows[l])) };
        for (j, c) in cols.iter().enumerate() {
            for l in 0..LANES {
                assert_eq!(c.0[l], (10 * l + j) as f32);
            }
        }
        assert_eq!(unsafe { R::rows_out(cols) }, *rows);
    }

    /// Lanes 0-3 of an eight-lane value from four numbers, the rest
    /// from `fill`.
    fn f(x: [f32; 4], fill: f32) -> F8 {
        F8([x[0], x[1], x[2], x[3], fill, fill, fill, fill])
    }

    fn m(x: [bool; 4], fill: bool) -> M8 {
        let mut r = M8::NONE;
        for (l, on) in [x[0], x[1], x[2], x[3], fill, fill, fill, fill]
            .into_iter()
            .enumerate()
        {
            r.set(l, on);
        }
        r
    }

    #[test]
    fn operators_act_lane_by_lane() {
        let a = f([1.0, -2.0, 3.0, 0.5], 1.0);
        let b = f([2.0, 2.0, -1.0, 0.5], 1.0);
        assert_eq!(a + b, f([3.0, 0.0, 2.0, 1.0], 2.0));
        assert_eq!(a - b, f([-1.0, -4.0, 4.0, 0.0], 0.0));
        assert_eq!(a * b, f([2.0, -4.0, -3.0, 0.25], 1.0));
        assert_eq!(-a, f([-1.0, 2.0, -3.0, -0.5], -1.0));
        assert_eq!(a.min(b), f([1.0, -2.0, -1.0, 0.5], 1.0));
        assert_eq!(a.max(b), f([2.0, 2.0, 3.0, 0.5], 1.0));
        let gt = a.gt(b);
        assert_eq!(gt, m([false, false, true, false], false));
        assert_eq!(a.ge(b), m([false, false, true, true], true));
        assert_eq!(F8::select(gt, a, b), f([2.0, 2.0, 3.0, 0.5], 1.0));
        assert_eq!(
            a.recip_or_zero(m([true, true, false, true], false)),
            f([1.0, -0.5, 0.0, 2.0], 0.0)
        );
        assert!(gt.any() && !M8::default().any());
        assert_eq!(gt.or(b.ge(a)), M8::ALL);
        assert_eq!(gt.and(a.ge(b)), gt);
        assert_eq!(gt.and_not(gt), M8::default());
    }

    #[test]
    fn vector_lanes_match_glam() {
        let (p, q) = (
            glam::Vec3::new(1.0, -2.0, 0.5),
            glam::Vec3::new(0.3, 4.0, -1.0),
        );
        let (mut a, mut b) = (V3::default(), V3::default());
        a.set(2, p);
        b.set(2, q);
        assert_eq!(a.cross(b).get(2), p.cross(q));
        assert_eq!(a.dot(b).0[2], p.dot(q));
        assert_eq!((a + b).get(2), p + q);
        assert_eq!((a - b * F8::splat(2.0)).get(2), p - q * 2.0);
        assert_eq!(a.cross(b).get(0), glam::Vec3::ZERO);
    }
}
