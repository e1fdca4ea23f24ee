//! Four `f32` lanes, one constraint each, for the wide contact solver.
//!
//! Plain arrays with element-wise operators: the compiler turns each
//! operator into one SSE (or NEON) instruction, and branches become lane
//! selects ([`F4::select`]).

// Lane loops index several arrays in step, the form the compiler
// vectorises.
#![allow(clippy::needless_range_loop)]

use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Lanes per block.
pub(crate) const LANES: usize = 4;

/// Four `f32` lanes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[repr(C, align(16))]
pub(crate) struct F4(pub [f32; LANES]);

/// Four lane conditions.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct M4(pub [bool; LANES]);

macro_rules! lanewise {
    ($trait:ident, $f:ident, $op:tt) => {
        impl $trait for F4 {
            type Output = F4;
            #[inline(always)]
            fn $f(self, o: F4) -> F4 {
                let mut r = [0.0; LANES];
                for i in 0..LANES {
                    r[i] = self.0[i] $op o.0[i];
                }
                F4(r)
            }
        }
    };
}
lanewise!(Add, add, +);
lanewise!(Sub, sub, -);
lanewise!(Mul, mul, *);

impl Neg for F4 {
    type Output = F4;
    #[inline(always)]
    fn neg(self) -> F4 {
        F4(self.0.map(|x| -x))
    }
}

impl AddAssign for F4 {
    #[inline(always)]
    fn add_assign(&mut self, o: F4) {
        *self = *self + o;
    }
}

impl SubAssign for F4 {
    #[inline(always)]
    fn sub_assign(&mut self, o: F4) {
        *self = *self - o;
    }
}

macro_rules! compare {
    ($f:ident, $op:tt) => {
        /// Lane-wise comparison.
        #[inline(always)]
        pub fn $f(self, o: F4) -> M4 {
            let mut r = [false; LANES];
            for i in 0..LANES {
                r[i] = self.0[i] $op o.0[i];
            }
            M4(r)
        }
    };
}

impl F4 {
    /// All lanes zero.
    pub const ZERO: F4 = F4([0.0; LANES]);

    /// `x` in every lane.
    #[inline(always)]
    pub fn splat(x: f32) -> F4 {
        F4([x; LANES])
    }

    /// Lane-wise minimum.
    #[inline(always)]
    pub fn min(self, o: F4) -> F4 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = if self.0[i] < o.0[i] {
                self.0[i]
            } else {
                o.0[i]
            };
        }
        F4(r)
    }

    /// Lane-wise maximum.
    #[inline(always)]
    pub fn max(self, o: F4) -> F4 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = if self.0[i] > o.0[i] {
                self.0[i]
            } else {
                o.0[i]
            };
        }
        F4(r)
    }

    /// `1 / self` where `keep`, else 0.
    #[inline(always)]
    pub fn recip_or_zero(self, keep: M4) -> F4 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            let d = if keep.0[i] { self.0[i] } else { 1.0 };
            r[i] = if keep.0[i] { 1.0 / d } else { 0.0 };
        }
        F4(r)
    }

    /// `a` where `m`, else `b`.
    #[inline(always)]
    pub fn select(m: M4, a: F4, b: F4) -> F4 {
        let mut r = [0.0; LANES];
        for i in 0..LANES {
            r[i] = if m.0[i] { a.0[i] } else { b.0[i] };
        }
        F4(r)
    }

    compare!(gt, >);
    compare!(ge, >=);
}

impl M4 {
    /// Lane-wise and.
    #[inline(always)]
    pub fn and(self, o: M4) -> M4 {
        M4([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }

    /// Lane-wise and-not (`self` and not `o`).
    #[inline(always)]
    pub fn and_not(self, o: M4) -> M4 {
        M4([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
            self.0[3] & !o.0[3],
        ])
    }

    /// Lane-wise or.
    #[inline(always)]
    pub fn or(self, o: M4) -> M4 {
        M4([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }

    /// Whether any lane holds.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3]
    }
}

/// A 3D vector in each of four lanes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct V3 {
    pub x: F4,
    pub y: F4,
    pub z: F4,
}

impl Add for V3 {
    type Output = V3;
    #[inline(always)]
    fn add(self, o: V3) -> V3 {
        V3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

impl Sub for V3 {
    type Output = V3;
    #[inline(always)]
    fn sub(self, o: V3) -> V3 {
        V3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

impl Mul<F4> for V3 {
    type Output = V3;
    #[inline(always)]
    fn mul(self, s: F4) -> V3 {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

impl AddAssign for V3 {
    #[inline(always)]
    fn add_assign(&mut self, o: V3) {
        *self = *self + o;
    }
}

impl SubAssign for V3 {
    #[inline(always)]
    fn sub_assign(&mut self, o: V3) {
        *self = *self - o;
    }
}

impl V3 {
    /// Lane-wise dot product.
    #[inline(always)]
    pub fn dot(self, o: V3) -> F4 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Lane-wise cross product.
    #[inline(always)]
    pub fn cross(self, o: V3) -> V3 {
        V3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_act_lane_by_lane() {
        let a = F4([1.0, -2.0, 3.0, 0.5]);
        let b = F4([2.0, 2.0, -1.0, 0.5]);
        assert_eq!(a + b, F4([3.0, 0.0, 2.0, 1.0]));
        assert_eq!(a - b, F4([-1.0, -4.0, 4.0, 0.0]));
        assert_eq!(a * b, F4([2.0, -4.0, -3.0, 0.25]));
        assert_eq!(-a, F4([-1.0, 2.0, -3.0, -0.5]));
        assert_eq!(a.min(b), F4([1.0, -2.0, -1.0, 0.5]));
        assert_eq!(a.max(b), F4([2.0, 2.0, 3.0, 0.5]));
        let m = a.gt(b);
        assert_eq!(m, M4([false, false, true, false]));
        assert_eq!(a.ge(b), M4([false, false, true, true]));
        assert_eq!(F4::select(m, a, b), F4([2.0, 2.0, 3.0, 0.5]));
        assert_eq!(
            a.recip_or_zero(M4([true, true, false, true])),
            F4([1.0, -0.5, 0.0, 2.0])
        );
        assert!(m.any() && !M4::default().any());
        assert_eq!(m.or(b.ge(a)), M4([true, true, true, true]));
        assert_eq!(m.and_not(m), M4::default());
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
        assert_eq!((a - b * F4::splat(2.0)).get(2), p - q * 2.0);
        assert_eq!(a.cross(b).get(0), glam::Vec3::ZERO);
    }
}
