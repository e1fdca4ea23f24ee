//! The cell table of the spatial hash: an open-addressing multimap from cell
//! coordinates to the boxes listed there, each record holding its box inline.
//!
//! One record per (cell, proxy), linear probing (Knuth, TAOCP vol. 3, 6.4,
//! Algorithm L) and deletion by backward shift (Algorithm R), so no
//! tombstones. Records are kept in "Robin Hood" order (Celis, Larson and
//! Munro, "Robin Hood Hashing", 1985): along a run, homes never decrease, so
//! the records of one cell are adjacent and a search stops at the first record
//! whose home is past the cell's. That matters here because records come in
//! batches (every box of a cell has the same home), which makes the runs of
//! plain linear probing long. A cell's boxes are read from a few adjacent
//! cache lines, without following a pointer per cell or per proxy. The home
//! bucket comes from a multiplicative hash of the cell (TAOCP 6.4).

use crate::bound::Aabb;
use crate::math::Vector;

/// Integer cell coordinates (unused axes 0 in 2D).
pub(crate) type Cell = [i32; 3];

/// The slot value of an empty bucket.
pub(crate) const EMPTY: u32 = u32::MAX;

/// One listing of a proxy in one cell, with the proxy's box: 32 bytes in 3D
/// (24 in 2D), two records per cache line.
///
/// The cell itself is not stored, only its 32-bit fingerprint
/// ([`fingerprint`]), from which the home bucket is computed. Different cells
/// may share a fingerprint; then their records mix in one probe group. That
/// never loses a pair or a query hit (a cell's own records are always in its
/// group), it can only show a box in a cell it is not in. Every user of the
/// table copes: boxes are tested exactly, the pair update reports a pair only
/// from the cell holding the lower corner of the intersection and the pair
/// list is deduplicated, and the box query skips a second record of the same
/// proxy in one group.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Record<V> {
    /// Fingerprint of the cell.
    pub fp: u32,
    /// The proxy's slot, or [`EMPTY`].
    pub slot: u32,
    /// The proxy's box as of the last pair update.
    pub aabb: Aabb<V>,
}

impl<V: Vector> Record<V> {
    const VACANT: Self = Record {
        fp: 0,
        slot: EMPTY,
        aabb: Aabb::EMPTY,
    };
}

/// A 64-bit hash of a cell: the coordinates multiplied by odd constants and
/// folded, so that the top bits depend on every coordinate bit.
#[inline]
pub(crate) fn hash_cell(c: Cell) -> u64 {
    let xy = (c[0] as u32 as u64) | ((c[1] as u32 as u64) << 32);
    let h = xy.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (c[2] as u32 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h ^ (h >> 29)).wrapping_mul(0x1656_67B1_9E37_79F9)
}

/// The fingerprint of a cell: the top 32 bits of its hash.
#[inline]
pub(crate) fn fingerprint(c: Cell) -> u32 {
    let fp = (hash_cell(c) >> 32) as u32;
    #[cfg(test)]
    let fp = fp & test_hooks::FP_MASK.with(|m| m.get());
    fp
}

/// Test hook: unit tests narrow the fingerprints (on their own thread) so
/// that many cells share one, to check that collisions are handled.
#[cfg(test)]
pub(crate) mod test_hooks {
    std::thread_local! {
        /// Mask applied to every fingerprint.
        pub static FP_MASK: core::cell::Cell<u32> = const { core::cell::Cell::new(u32::MAX) };
    }
}

/// Smallest number of buckets.
const MIN_CAP: usize = 16;

/// Buckets for `n` records at a load of 3/5; the table grows when its load
/// would pass 4/5. Linear probing stays short at these loads (an unsuccessful
/// search reads `(1 + 1/(1-α)^2)/2` buckets: 3.6 at 3/5, 13 at 4/5), and a
/// record is 32 bytes in 3D, so a sparser table would leave the cache sooner.
fn cap_for(n: usize) -> usize {
    (n * 5 / 3).max(MIN_CAP)
}

/// Whether `n` records overload a table of `cap` buckets.
#[inline]
fn overloaded(n: usize, cap: usize) -> bool {
    5 * n > 4 * cap
}

/// The multimap (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct CellTable<V> {
    /// The buckets (any number of them: homes are reduced by multiplication,
    /// Lemire, "A fast alternative to the modulo reduction", 2016).
    pub recs: Vec<Record<V>>,
    len: usize,
}

impl<V: Vector> Default for CellTable<V> {
    fn default() -> Self {
        CellTable {
            recs: vec![Record::VACANT; MIN_CAP],
            len: 0,
        }
    }
}

/// Home bucket of a cell with fingerprint `fp` in a table of `cap` buckets:
/// the fingerprint scaled to `0..cap`.
#[inline]
pub(crate) fn home_in(fp: u32, cap: usize) -> usize {
    ((fp as u64 * cap as u64) >> 32) as usize
}

/// Bits needed for a bucket index of a table of `cap` buckets.
#[inline]
pub(crate) fn index_bits(cap: usize) -> u32 {
    usize::BITS - (cap - 1).leading_zeros()
}

impl<V: Vector> CellTable<V> {
    /// Number of buckets.
    #[inline]
    pub fn cap(&self) -> usize {
        self.recs.len()
    }

    /// The bucket after `i` (cyclic).
    #[inline]
    pub fn next(&self, i: usize) -> usize {
        if i + 1 == self.recs.len() {
            0
        } else {
            i + 1
        }
    }

    /// The home bucket of a cell.
    #[inline]
    pub fn home(&self, fp: u32) -> usize {
        home_in(fp, self.recs.len())
    }

    /// Grows the table (rehashing every record) so that `extra` more records
    /// do not overload it.
    pub fn reserve(&mut self, extra: usize) {
        let n = self.len + extra;
        if overloaded(n, self.cap()) {
            let cap = cap_for(n);
            let mut recs: Vec<Record<V>> = self
                .recs
                .iter()
                .filter(|r| r.slot != EMPTY)
                .copied()
                .collect();
            let mut tmp = Vec::new();
            radix_sort_by(&mut recs, &mut tmp, index_bits(cap), |r| home_in(r.fp, cap));
            self.fill_sorted(&recs, cap, |r| *r);
        }
    }

    /// Distance from bucket `home` forward to bucket `i` (cyclic).
    #[inline]
    fn dist(&self, home: usize, i: usize) -> usize {
        if i >= home {
            i - home
        } else {
            i + self.recs.len() - home
        }
    }

    /// Whether the search for home `h` is over at bucket `i` (empty, or a
    /// record whose home is past `h` in Robin Hood order).
    #[inline]
    fn past(&self, h: usize, i: usize) -> bool {
        let r = &self.recs[i];
        r.slot == EMPTY || self.dist(self.home(r.fp), i) < self.dist(h, i)
    }

    /// Adds a record; `home` must be [`home`](Self::home) of its cell and the
    /// table must have room (see [`reserve`](Self::reserve)).
    #[inline]
    pub fn insert_at_home(&mut self, r: Record<V>, home: usize) {
        // After every record whose home is at or before `home`, then the rest
        // of the run moves one bucket on.
        let mut i = home;
        while !self.past(home, i) {
            i = self.next(i);
        }
        let mut cur = r;
        loop {
            core::mem::swap(&mut self.recs[i], &mut cur);
            if cur.slot == EMPTY {
                break;
            }
            i = self.next(i);
        }
        self.len += 1;
        debug_assert!(!overloaded(self.len, self.cap()));
    }

    /// The bucket of a record of `slot` with fingerprint `fp`, searched from
    /// `home`. (Should a proxy be listed in two cells of this fingerprint,
    /// their records are the same but for the cell, so either will do.)
    #[inline]
    pub fn find(&self, fp: u32, slot: u32, home: usize) -> Option<usize> {
        let mut i = home;
        loop {
            let r = &self.recs[i];
            if r.slot == slot && r.fp == fp {
                return Some(i);
            }
            if self.past(home, i) {
                return None;
            }
            i = self.next(i);
        }
    }

    /// Calls `f` on every record with fingerprint `fp` (whose home is
    /// `home`), mutably.
    #[inline]
    pub fn scan_mut(&mut self, fp: u32, home: usize, mut f: impl FnMut(&mut Record<V>)) {
        let mut i = home;
        loop {
            if self.recs[i].fp == fp && self.recs[i].slot != EMPTY {
                f(&mut self.recs[i]);
            } else if self.past(home, i) {
                return;
            }
            i = self.next(i);
        }
    }

    /// Empties bucket `i` and shifts later records of its run back so every
    /// record stays reachable from its home (TAOCP 6.4, Algorithm R).
    pub fn remove_at(&mut self, mut i: usize) {
        let mut j = i;
        loop {
            j = self.next(j);
            if self.recs[j].slot == EMPTY {
                break;
            }
            let h = self.home(self.recs[j].fp);
            // The record at j may move to i unless its home lies cyclically
            // in (i, j]: then i is before its home.
            let stays = if i <= j {
                i < h && h <= j
            } else {
                i < h || h <= j
            };
            if !stays {
                self.recs[i] = self.recs[j];
                i = j;
            }
        }
        self.recs[i] = Record::VACANT;
        self.len -= 1;
    }

    /// Calls `f(bucket, record)` for every record with the fingerprint of
    /// cell `c` (which includes every record of `c`) until `f` returns
    /// `false`; returns whether it never did.
    #[inline]
    pub fn for_cell(&self, c: Cell, mut f: impl FnMut(usize, &Record<V>) -> bool) -> bool {
        let fp = fingerprint(c);
        let home = self.home(fp);
        let mut i = home;
        loop {
            let r = &self.recs[i];
            if r.fp == fp && r.slot != EMPTY {
                if !f(i, r) {
                    return false;
                }
            } else if self.past(home, i) {
                return true;
            }
            i = self.next(i);
        }
    }

    /// Whether a record of the same slot and fingerprint as the one at bucket
    /// `i` lies earlier in its probe group (the proxy is listed in two cells
    /// sharing a fingerprint; queries report it once).
    pub fn listed_earlier(&self, i: usize) -> bool {
        let r = &self.recs[i];
        let mut j = self.home(r.fp);
        while j != i {
            let o = &self.recs[j];
            if o.fp == r.fp && o.slot == r.slot {
                return true;
            }
            j = self.next(j);
        }
        false
    }

    /// Buckets of a table rebuilt for `n` records.
    #[inline]
    pub fn cap_for_len(n: usize) -> usize {
        cap_for(n)
    }

    /// Replaces the contents by the records `rec(x)` of `sorted`, which are
    /// in increasing order of their home bucket in a table of `cap` buckets.
    /// One sweep: each record goes to the first free bucket at or after its
    /// home, which is where insertions in this order would put it (in Robin
    /// Hood order); the few that would run past the end wrap around by a
    /// normal insertion.
    pub fn fill_sorted<T>(&mut self, sorted: &[T], cap: usize, rec: impl Fn(&T) -> Record<V>) {
        if self.recs.len() == cap {
            self.recs.fill(Record::VACANT);
        } else {
            self.recs = vec![Record::VACANT; cap];
        }
        self.len = 0;
        let mut next = 0usize;
        let mut wrap = 0;
        for (k, x) in sorted.iter().enumerate() {
            let r = rec(x);
            let p = self.home(r.fp).max(next);
            if p >= cap {
                break;
            }
            self.recs[p] = r;
            next = p + 1;
            self.len += 1;
            wrap = k + 1;
        }
        for x in &sorted[wrap..] {
            let r = rec(x);
            let h = self.home(r.fp);
            self.insert_at_home(r, h);
        }
    }
}

/// Hints the CPU to load the cache line of `p` (no effect on other targets).
/// Used a few operations ahead in the sweeps, whose buckets are far apart.
#[inline(always)]
pub(crate) fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and has no visible effect; `p` is a
    // valid reference anyway.
    #[allow(unused_unsafe)]
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            p as *const T as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Sorts `v` by `key(x) < 2^bits` with a stable LSD radix sort (Knuth, TAOCP
/// vol. 3, 5.2.5) in digits of at most 12 bits (4,096 counters, 32 KiB, stay
/// in the L1 cache). `scratch` is reused between calls.
pub(crate) fn radix_sort_by<T: Copy>(
    v: &mut Vec<T>,
    scratch: &mut Vec<T>,
    bits: u32,
    key: impl Fn(&T) -> usize,
) {
    if v.len() < 64 {
        v.sort_by_key(|x| key(x));
        return;
    }
    let passes = bits.div_ceil(12).max(1);
    let digit = bits.div_ceil(passes);
    let buckets = 1usize << digit;
    let mut counts = vec![0usize; buckets];
    scratch.clear();
    scratch.extend_from_slice(v);
    for d in 0..passes {
        let shift = d * digit;
        counts.fill(0);
        for x in v.iter() {
            counts[(key(x) >> shift) & (buckets - 1)] += 1;
        }
        if counts.contains(&v.len()) {
            continue;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for x in v.iter() {
            let b = (key(x) >> shift) & (buckets - 1);
            scratch[counts[b]] = *x;
            counts[b] += 1;
        }
        core::mem::swap(v, scratch);
    }
}
