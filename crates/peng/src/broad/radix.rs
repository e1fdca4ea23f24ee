//! A stable LSD radix sort by an integer key, shared by the pair tracker and
//! the spatial hash.

/// Sorts `v` by `key(x) < 2^bits` with a stable LSD radix sort (Knuth, TAOCP
/// vol. 3, 5.2.5) in digits of at most 12 bits (4,096 counters, 32 KiB, stay
/// in the L1 cache). `scratch` is reused between calls.
pub(crate) fn radix_sort_by<T: Copy>(
    v: &mut Vec<T>,
    scratch: &mut Vec<T>,
    bits: u32,
    key: impl Fn(&T) -> u64,
) {
    if v.len() < 64 {
        crate::sort::stable_by(v, |x, y| key(x).cmp(&key(y)));
        return;
    }
    let passes = bits.div_ceil(12).max(1) as usize;
    let digit = bits.div_ceil(passes as u32);
    let buckets = 1usize << digit;
    let mask = (buckets - 1) as u64;
    // Every digit's histogram in one read of `v`.
    let mut counts = vec![0usize; passes * buckets];
    for x in v.iter() {
        let k = key(x);
        for d in 0..passes {
            counts[d * buckets + ((k >> (d as u32 * digit)) & mask) as usize] += 1;
        }
    }
    // Any contents of the right length: every slot is written before it is
    // read.
    if scratch.len() != v.len() {
        scratch.clear();
        scratch.extend_from_slice(v);
    }
    for d in 0..passes {
        let c = &mut counts[d * buckets..(d + 1) * buckets];
        if c.contains(&v.len()) {
            continue; // every key has the same digit here
        }
        let mut sum = 0;
        for x in c.iter_mut() {
            let n = *x;
            *x = sum;
            sum += n;
        }
        let shift = d as u32 * digit;
        for x in v.iter() {
            let b = ((key(x) >> shift) & mask) as usize;
            scratch[c[b]] = *x;
            c[b] += 1;
        }
        core::mem::swap(v, scratch);
    }
}
