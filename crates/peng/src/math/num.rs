//! Numbers in error messages. By default they are written by core's float
//! formatting (the shortest decimal that reads back as the same number).
//! With the `compact` feature they are written here, with integer
//! formatting only: core's float formatting (Grisu with a Dragon4
//! fallback, and their tables) is about 20 KB of code, a sixth of the
//! browser build, for numbers that only ever appear in messages.

use core::fmt;

/// A number to show in a message: `f32` or `f64`, shown as the shortest
/// decimal that reads back as the same value. With the `compact` feature the
/// same for an `f32`; an `f64` is found with f64 arithmetic and may be
/// off in its last digits (within 1e-13), which a message can afford.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num(Value);

#[derive(Debug, Clone, Copy, PartialEq)]
enum Value {
    Single(f32),
    Double(f64),
}

impl From<f32> for Num {
    fn from(v: f32) -> Self {
        Num(Value::Single(v))
    }
}

impl From<f64> for Num {
    fn from(v: f64) -> Self {
        Num(Value::Double(v))
    }
}

impl From<&f32> for Num {
    fn from(v: &f32) -> Self {
        Num(Value::Single(*v))
    }
}

#[cfg(not(feature = "compact"))]
impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Single(v) => fmt::Display::fmt(&v, f),
            Value::Double(v) => fmt::Display::fmt(&v, f),
        }
    }
}

#[cfg(not(feature = "compact"))]
impl fmt::LowerExp for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Single(v) => fmt::LowerExp::fmt(&v, f),
            Value::Double(v) => fmt::LowerExp::fmt(&v, f),
        }
    }
}

#[cfg(feature = "compact")]
impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        compact::write(f, self.0, false)
    }
}

#[cfg(feature = "compact")]
impl fmt::LowerExp for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        compact::write(f, self.0, true)
    }
}

#[cfg(feature = "compact")]
mod compact {
    use super::Value;
    use core::fmt;

    /// `10^e` in f64 by repeated multiplication or division (exact up to
    /// 10^22; a rounding per step beyond, far below the digits written for
    /// an `f32`).
    fn pow10(e: i32) -> f64 {
        let mut p = 1.0f64;
        for _ in 0..e.unsigned_abs() {
            if e < 0 {
                p /= 10.0;
            } else {
                p *= 10.0;
            }
        }
        p
    }

    /// Writes `v` as its shortest decimal (digits `m`, exponent `e` of the
    /// leading digit) in plain notation, or as `m.mmmeE` when `exp` is set.
    pub(super) fn write(f: &mut fmt::Formatter<'_>, v: Value, exp: bool) -> fmt::Result {
        let (x, max_digits) = match v {
            Value::Single(s) => (f64::from(s), 9),
            Value::Double(d) => (d, 17),
        };
        let reads_back = |y: f64| match v {
            // Within the f32's rounding interval (halfway to its neighbours,
            // a tie reading back as the even one), in f64: a direct `y as
            // f32` would round twice (decimal to f64 to f32) and can miss.
            Value::Single(s) => {
                let bits = s.abs().to_bits();
                let below = f64::from(f32::from_bits(bits.saturating_sub(1)));
                let here = f64::from(s.abs());
                // Past the largest f32, the step it would have had.
                let above = match f32::from_bits(bits + 1) {
                    n if n.is_finite() => f64::from(n),
                    _ => 2.0 * here - below,
                };
                let (lo, hi) = ((below + here) / 2.0, (here + above) / 2.0);
                if bits % 2 == 0 {
                    y >= lo && y <= hi
                } else {
                    y > lo && y < hi
                }
            }
            // Within the f64 arithmetic's error (a rounding per power of ten).
            Value::Double(d) => (y - d.abs()).abs() <= 1e-14 * d.abs(),
        };
        if x.is_nan() {
            return f.write_str("NaN");
        }
        if x.is_sign_negative() {
            f.write_str("-")?;
        }
        let a = x.abs();
        if a.is_infinite() {
            return f.write_str("inf");
        }
        if a == 0.0 {
            return f.write_str(if exp { "0e0" } else { "0" });
        }
        // The exponent of the leading digit: a / 10^e in [1, 10).
        let mut e = 0i32;
        let mut s = a;
        while s >= 10.0 {
            s /= 10.0;
            e += 1;
        }
        while s < 1.0 {
            s *= 10.0;
            e -= 1;
        }
        // The fewest significant digits that read back as the same number.
        let (mut m, mut k) = (0u64, 1u32);
        let lead = e;
        while k <= max_digits {
            e = lead;
            // k digits: a / 10^(e+1−k), rounded. For an f32 with one
            // rounding (exact for the powers up to 10^22 it mostly needs);
            // an f64 from s = a / 10^e in [1, 10), which cannot overflow.
            let shift = e + 1 - k as i32;
            let scaled = match v {
                Value::Single(_) if shift >= 0 => a / pow10(shift),
                Value::Single(_) => a * pow10(-shift),
                Value::Double(_) => s * pow10(k as i32 - 1),
            };
            m = scaled.round() as u64;
            if m >= 10u64.pow(k) {
                // Rounded up to the next power of ten.
                m /= 10;
                e += 1;
            }
            // m·10^(e+1−k) with one rounding (exact while the power is).
            let shift = e + 1 - k as i32;
            let y = if shift >= 0 {
                m as f64 * pow10(shift)
            } else {
                m as f64 / pow10(-shift)
            };
            if reads_back(y) {
                break;
            }
            k += 1;
        }
        let k = k.min(max_digits);
        // Trailing zeros carry nothing.
        let mut k = k as i32;
        while k > 1 && m % 10 == 0 {
            m /= 10;
            k -= 1;
        }
        // The k digits, most significant first, written one by one (no
        // string slicing: its char-boundary panic brings formatting code).
        let mut digits = [0u8; 20];
        let k = k as usize;
        for d in digits[..k].iter_mut().rev() {
            *d = b'0' + (m % 10) as u8;
            m /= 10;
        }
        let put = |f: &mut fmt::Formatter<'_>, ds: &[u8]| {
            ds.iter()
                .try_for_each(|&d| fmt::Write::write_char(f, char::from(d)))
        };
        let zeros = |f: &mut fmt::Formatter<'_>, n: i32| (0..n).try_for_each(|_| f.write_str("0"));
        if exp {
            put(f, &digits[..1])?;
            if k > 1 {
                f.write_str(".")?;
                put(f, &digits[1..k])?;
            }
            return write!(f, "e{e}");
        }
        let k = k as i32;
        if e >= k - 1 {
            // An integer: the digits, then zeros.
            put(f, &digits[..k as usize])?;
            zeros(f, e - (k - 1))
        } else if e >= 0 {
            let int = e as usize + 1;
            put(f, &digits[..int])?;
            f.write_str(".")?;
            put(f, &digits[int..k as usize])
        } else {
            f.write_str("0.")?;
            zeros(f, -e - 1)?;
            put(f, &digits[..k as usize])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Num;

    /// Shows what core's formatting shows (the shortest round trip), with
    /// and without the `compact` feature.
    #[test]
    fn numbers_read_as_core_writes_them() {
        let singles = [
            0.0f32,
            -0.0,
            1.0,
            -3.0,
            0.1,
            2.5,
            1e-7,
            1.5e-45,
            3.4028235e38,
            5e7,
            123456.78,
            0.3333333,
            7.0e-3,
            1e10,
            f32::MIN_POSITIVE,
        ];
        for v in singles {
            assert_eq!(Num::from(v).to_string(), v.to_string(), "{v:?}");
            assert_eq!(format!("{:e}", Num::from(v)), format!("{v:e}"), "{v:?}");
        }
        let doubles = [
            0.0f64, -2.0, 0.1, 1e-300, 123.456, 1e21, 5.5e-7, 1e300, 0.25,
        ];
        for v in doubles {
            assert_eq!(Num::from(v).to_string(), v.to_string(), "{v:?}");
        }
        assert_eq!(Num::from(f32::NAN).to_string(), "NaN");
        assert_eq!(Num::from(f64::NEG_INFINITY).to_string(), "-inf");
    }

    /// Random bit patterns: every finite `f32`, and `f64`s of every
    /// exponent, read as core writes them.
    #[test]
    fn random_numbers_read_as_core_writes_them() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..200_000 {
            let v = f32::from_bits(next() as u32);
            if v.is_finite() {
                assert_eq!(Num::from(v).to_string(), v.to_string(), "{v:?}");
                assert_eq!(format!("{:e}", Num::from(v)), format!("{v:e}"), "{v:?}");
            }
        }
        // An f64 is found with f64 arithmetic, a rounding per power of ten
        // of its exponent: within 1e-13.
        for _ in 0..20_000 {
            let v = f64::from_bits(next());
            if v.is_finite() {
                let back: f64 = Num::from(v).to_string().parse().unwrap();
                assert!((back - v).abs() <= 1e-13 * v.abs(), "{v:?}");
            }
        }
    }
}
