//! Shared pieces of the fuzz targets: a reader that turns raw bytes into
//! numbers (favouring the values that break geometry code: NaN, infinities,
//! 1e38, subnormals, zeros, values at the magnitude limit), shapes and poses
//! built through peng's public, validating constructors, and the pair-query
//! invariants the shape targets check.

pub mod d2;
pub mod d3;
pub mod readers;

use peng::math::policy::MAX_MAGNITUDE;

/// Values that break geometry code, picked by one byte.
pub const SPECIAL: [f32; 24] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    0.0,
    -0.0,
    1.0,
    -1.0,
    1e38,
    -1e38,
    3e38,
    f32::MAX,
    f32::MIN_POSITIVE,
    1e-40, // subnormal
    -1e-45,
    MAX_MAGNITUDE,
    -MAX_MAGNITUDE,
    MAX_MAGNITUDE * 1.000_000_1,
    1.8e19, // squared, it overflows
    1e-20,  // squared, it underflows
    1e-7,
    1e7,
    0.5,
    2.0,
    100.0,
];

/// A cursor over the fuzzer's bytes; past the end every read gives zero.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }

    /// Whether every byte was read.
    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// A count in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.u8() as usize % n
    }

    /// A number: a special value, a small multiple of 1/8, or any f32 bit
    /// pattern, chosen by a first byte.
    pub fn f32(&mut self) -> f32 {
        let tag = self.u8();
        match tag {
            0..=47 => SPECIAL[tag as usize % SPECIAL.len()],
            48..=191 => (self.u8() as i8) as f32 / 8.0,
            _ => f32::from_bits(u32::from_le_bytes([
                self.u8(),
                self.u8(),
                self.u8(),
                self.u8(),
            ])),
        }
    }

    /// A size: usually a small non-negative value, sometimes anything.
    pub fn size(&mut self) -> f32 {
        let tag = self.u8();
        if tag < 200 {
            (tag as f32 + 1.0) / 32.0
        } else {
            self.f32()
        }
    }
}

/// A size of the scene for relative tolerances: 1 plus the largest magnitude
/// among the given values.
pub fn scale(values: &[f32]) -> f32 {
    1.0 + values.iter().fold(0.0f32, |m, v| m.max(v.abs()))
}

/// Panics with `what` unless `v` is finite.
#[track_caller]
pub fn finite(what: &str, v: f32) {
    assert!(v.is_finite(), "{what} is not finite: {v}");
}
