//! Eight lanes in an AVX register, for lane kernels compiled for AVX2
//! (`lanes::avx2_dispatch!`): each operator is one instruction for certain,
//! where the plain [`F8`] leaves vectorising to the compiler, which does
//! not always (the 3D warm start's arithmetic came out scalar).

use core::arch::x86_64::*;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use super::lanes::{Lane, F8};

/// Eight `f32` lanes in a 256-bit register.
///
/// Made only by the unsafe [`Lane::load`] and [`Lane::splat`], whose
/// callers promise AVX: every value of this type therefore lives where the
/// processor has AVX, which is what its operators' intrinsics need.
#[derive(Clone, Copy)]
pub(crate) struct Avx8(__m256);

impl Lane for Avx8 {
    #[inline(always)]
    unsafe fn load(f: &F8) -> Avx8 {
        // SAFETY: AVX is the caller's; `F8` is 32-byte aligned storage of
        // eight floats.
        Avx8(unsafe { _mm256_load_ps(f.0.as_ptr()) })
    }

    #[inline(always)]
    unsafe fn splat(x: f32) -> Avx8 {
        // SAFETY: AVX is the caller's.
        Avx8(unsafe { _mm256_set1_ps(x) })
    }

    #[inline(always)]
    fn store(self) -> F8 {
        let mut f = F8::ZERO;
        // SAFETY: a value of this type exists only where the processor has
        // AVX (see the type); `f` is aligned storage of eight floats.
        unsafe { _mm256_store_ps(f.0.as_mut_ptr(), self.0) };
        f
    }

    // SAFETY (each unsafe block below): a value of this type exists only
    // where the processor has AVX (see the type).

    /// All ones or all zeros per lane, as a register of floats.
    type Mask = Avx8;

    #[inline(always)]
    fn gt(self, o: Avx8) -> Avx8 {
        // Ordered: false where either is NaN, as `>`.
        Avx8(unsafe { _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0) })
    }

    #[inline(always)]
    fn max(self, o: Avx8) -> Avx8 {
        // `vmaxps a, b` is `a > b ? a : b`, NaN and zeros included.
        Avx8(unsafe { _mm256_max_ps(self.0, o.0) })
    }

    #[inline(always)]
    fn abs(self) -> Avx8 {
        Avx8(unsafe { _mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0) })
    }

    #[inline(always)]
    fn recip(self) -> Avx8 {
        Avx8(unsafe { _mm256_div_ps(_mm256_set1_ps(1.0), self.0) })
    }

    #[inline(always)]
    fn select(m: Avx8, a: Avx8, b: Avx8) -> Avx8 {
        // The mask's lanes are all ones or all zeros, so its sign bit,
        // which `blendv` reads, says the same.
        Avx8(unsafe { _mm256_blendv_ps(b.0, a.0, m.0) })
    }
}

macro_rules! avx_op {
    ($trait:ident, $f:ident, $assign:ident, $fa:ident, $intrinsic:ident) => {
        impl $trait for Avx8 {
            type Output = Avx8;
            #[inline(always)]
            fn $f(self, o: Avx8) -> Avx8 {
                // SAFETY: a value of this type exists only where the
                // processor has AVX (see the type).
                Avx8(unsafe { $intrinsic(self.0, o.0) })
            }
        }

        impl $assign for Avx8 {
            #[inline(always)]
            fn $fa(&mut self, o: Avx8) {
                *self = $trait::$f(*self, o);
            }
        }
    };
}
avx_op!(Add, add, AddAssign, add_assign, _mm256_add_ps);
avx_op!(Sub, sub, SubAssign, sub_assign, _mm256_sub_ps);
avx_op!(Mul, mul, MulAssign, mul_assign, _mm256_mul_ps);

impl Neg for Avx8 {
    type Output = Avx8;
    /// The sign bit flipped, as `-x` does (not `0 - x`, which differs at
    /// zero).
    #[inline(always)]
    fn neg(self) -> Avx8 {
        // SAFETY: a value of this type exists only where the processor has
        // AVX (see the type).
        Avx8(unsafe { _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_agree_with_the_plain_lanes() {
        if !std::arch::is_x86_feature_detected!("avx") {
            return;
        }
        let a = F8([1.0, -2.0, 3.5, 0.25, 1e30, -0.0, 7.0, 1e-30]);
        let b = F8([2.0, 2.0, -1.0, 0.5, 1e10, 3.0, -7.0, 4.0]);
        // SAFETY: the processor has AVX (checked above).
        let (x, y) = unsafe { (Avx8::load(&a), Avx8::load(&b)) };
        assert_eq!((x + y).store(), a + b);
        assert_eq!((x - y).store(), a - b);
        assert_eq!((x * y).store(), a * b);
        let mut z = x;
        z += y;
        z -= x;
        z *= y;
        assert_eq!(z.store(), (a + b - a) * b);
        assert_eq!(unsafe { Avx8::splat(2.5) }.store(), F8::splat(2.5));
        let (p, q) = (F8([1.0, f32::NAN, -3.0, 0.0, -0.0, 2.0, f32::NAN, 1.0]), b);
        let (u, v) = unsafe { (Avx8::load(&p), Avx8::load(&q)) };
        let bits = |f: F8| f.0.map(f32::to_bits);
        assert_eq!(bits(Avx8::max(u, v).store()), bits(p.max(q)));
        assert_eq!(bits(Avx8::max(v, u).store()), bits(q.max(p)));
        assert_eq!(bits(Lane::abs(u).store()), bits(p.abs()));
        assert_eq!(bits(Lane::recip(v).store()), bits(F8::splat(1.0) / q));
        let (m, mask) = (Lane::gt(u, v), p.gt(q));
        assert_eq!(
            bits(Avx8::select(m, u, v).store()),
            bits(F8::select(mask, p, q))
        );
        assert_eq!(
            bits(unsafe { u.recip_or_zero(m) }.store()),
            bits(p.recip_or_zero(mask))
        );
        let negated = (-x).store();
        assert!(negated
            .0
            .iter()
            .zip((-a).0)
            .all(|(n, m)| n.to_bits() == m.to_bits()));
    }
}
