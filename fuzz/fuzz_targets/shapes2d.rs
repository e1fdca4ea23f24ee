//! 2D shapes and poses from raw bytes through the public constructors, then
//! every pair query on what they accept: no panic, no hang, finite answers
//! that agree with one another.
#![no_main]

use libfuzzer_sys::fuzz_target;
use peng_fuzz::{d2, Bytes};

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let (Some(sa), pa) = (d2::shape(&mut b, 2), d2::pose(&mut b)) else {
        return;
    };
    let (Some(sb), pb) = (d2::shape(&mut b, 2), d2::pose(&mut b)) else {
        return;
    };
    d2::pair_queries(&sa, &pa, &sb, &pb, &mut b);
});
