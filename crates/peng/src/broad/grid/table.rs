//! The cell table of the spatial hash: an open-addressing multimap from cell
//! coordinates to the boxes listed there, each record holding its box inline.
//!
//! One record per (cell, proxy), linear probing (Knuth, TAOCP vol. 3, 6.4,
//! Algorithm L) with the records kept in order of their key along the table,
//! as in Amble and Knuth's "ordered hash tables" (The Computer Journal 17(2),
//! 1974). The key is the cell's 32-bit fingerprint and the home bucket is the
//! fingerprint scaled to the number of homes, so home order and key order
//! agree and the whole table is sorted by fingerprint: the records of one cell
//! are adjacent, and a search stops at the first record with a larger
//! fingerprint (one comparison per record, no home to recompute). That
//! matters here because records come in batches (every box of a cell has the
//! same home), which makes the runs of plain linear probing long. Deletion
//! shifts the rest of the run back (TAOCP 6.4, Algorithm R), so there are no
//! tombstones. The table does not wrap around: runs that pass the last home
//! continue into a tail of extra buckets, and the last bucket is always
//! empty, so every search ends without a bounds test. A cell's boxes are read
//! from a few adjacent cache lines, without following a pointer per cell or
//! per proxy.

use crate::bound::Aabb;
use crate::math::Vector;

/// Integer cell coordinates (unused axes 0 in 2D).
pub(crate) type Cell = [i32; 3];

/// The slot value of an empty bucket (whose fingerprint is `u32::MAX`, not
/// less than any, so searches stop there).
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
        fp: u32::MAX,
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
    /// The buckets: `homes` home buckets, then the tail; the last is empty.
    pub recs: Vec<Record<V>>,
    /// Number of home buckets (any number: homes are reduced by
    /// multiplication, Lemire, "A fast alternative to the modulo reduction",
    /// 2016).
    homes: usize,
    len: usize,
}

impl<V: Vector> Default for CellTable<V> {
    fn default() -> Self {
        CellTable {
            recs: vec![Record::VACANT; MIN_CAP + 1],
            homes: MIN_CAP,
            len: 0,
        }
    }
}

/// Home bucket of a cell with fingerprint `fp` in a table of `cap` home
/// buckets: the fingerprint scaled to `0..cap` (monotone in `fp`).
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
    /// Number of home buckets.
    #[inline]
    pub(super) fn cap(&self) -> usize {
        self.homes
    }

    /// The home bucket of a cell.
    #[inline]
    pub(super) fn home(&self, fp: u32) -> usize {
        home_in(fp, self.homes)
    }

    /// Grows the table (rehashing every record) so that `extra` more records
    /// do not overload it.
    pub(super) fn reserve(&mut self, extra: usize) {
        let n = self.len + extra;
        if overloaded(n, self.homes) {
            // The table is sorted by fingerprint (see the module
            // documentation), so its records in bucket order are already in
            // the order `fill_sorted` wants for any number of homes.
            let recs: Vec<Record<V>> = self
                .recs
                .iter()
                .filter(|r| r.slot != EMPTY)
                .copied()
                .collect();
            self.fill_sorted(&recs, cap_for(n), |r| *r);
        }
    }

    /// Adds a record; `home` must be [`home`](Self::home) of its cell and the
    /// table must have room (see [`reserve`](Self::reserve)).
    #[inline]
    pub(super) fn insert_at_home(&mut self, r: Record<V>, home: usize) {
        // After every record whose fingerprint is not larger, then the rest
        // of the run moves one bucket on.
        let mut i = home;
        while self.recs[i].slot != EMPTY && self.recs[i].fp <= r.fp {
            i += 1;
        }
        let mut cur = r;
        loop {
            core::mem::swap(&mut self.recs[i], &mut cur);
            if cur.slot == EMPTY {
                break;
            }
            i += 1;
        }
        if i + 1 == self.recs.len() {
            self.recs.push(Record::VACANT);
        }
        self.len += 1;
        debug_assert!(!overloaded(self.len, self.homes));
    }

    /// The bucket of a record of `slot` with fingerprint `fp`, searched from
    /// `home`. (Should a proxy be listed in two cells of this fingerprint,
    /// their records are the same but for the cell, so either will do.)
    #[inline]
    pub(super) fn find(&self, fp: u32, slot: u32, home: usize) -> Option<usize> {
        let mut i = home;
        loop {
            let r = &self.recs[i];
            if r.fp > fp || r.slot == EMPTY {
                return None;
            }
            if r.fp == fp && r.slot == slot {
                return Some(i);
            }
            i += 1;
        }
    }

    /// Calls `f` on every record with fingerprint `fp` (whose home is
    /// `home`), mutably.
    #[inline]
    pub(super) fn scan_mut(&mut self, fp: u32, home: usize, mut f: impl FnMut(&mut Record<V>)) {
        let mut i = home;
        loop {
            let r = &mut self.recs[i];
            if r.fp > fp || r.slot == EMPTY {
                return;
            }
            if r.fp == fp {
                f(r);
            }
            i += 1;
        }
    }

    /// Empties bucket `i` and shifts later records of its run back, each
    /// to the bucket before, until a record already at its home (TAOCP 6.4,
    /// Algorithm R, which keeps every record reachable from its home and the
    /// order of the records).
    pub(super) fn remove_at(&mut self, i: usize) {
        let mut j = i + 1;
        while self.recs[j].slot != EMPTY && self.home(self.recs[j].fp) < j {
            self.recs[j - 1] = self.recs[j];
            j += 1;
        }
        self.recs[j - 1] = Record::VACANT;
        self.len -= 1;
    }

    /// Calls `f(bucket, record)` for every record with the fingerprint of
    /// cell `c` (which includes every record of `c`) until `f` returns
    /// `false`; returns whether it never did.
    #[inline]
    pub(super) fn for_cell(&self, c: Cell, mut f: impl FnMut(usize, &Record<V>) -> bool) -> bool {
        let fp = fingerprint(c);
        let mut i = self.home(fp);
        loop {
            let r = &self.recs[i];
            if r.fp > fp || r.slot == EMPTY {
                return true;
            }
            if r.fp == fp && !f(i, r) {
                return false;
            }
            i += 1;
        }
    }

    /// Whether a record of the same slot and fingerprint as the one at bucket
    /// `i` lies earlier in its probe group (the proxy is listed in two cells
    /// sharing a fingerprint; queries report it once).
    pub(super) fn listed_earlier(&self, i: usize) -> bool {
        let r = &self.recs[i];
        (self.home(r.fp)..i).any(|j| {
            let o = &self.recs[j];
            o.fp == r.fp && o.slot == r.slot
        })
    }

    /// Home buckets of a table rebuilt for `n` records.
    #[inline]
    pub(super) fn cap_for_len(n: usize) -> usize {
        cap_for(n)
    }

    /// Replaces the contents by the records `rec(x)` of `sorted`, which are
    /// in increasing order of fingerprint, in a table of `cap` home buckets.
    /// One sweep: each record goes to the first free bucket at or after its
    /// home, which is where insertions in this order would put it.
    pub(super) fn fill_sorted<T>(
        &mut self,
        sorted: &[T],
        cap: usize,
        rec: impl Fn(&T) -> Record<V>,
    ) {
        self.recs.clear();
        self.recs.resize(cap + 1, Record::VACANT);
        self.homes = cap;
        self.len = sorted.len();
        let mut next = 0usize;
        let mut last_fp = 0u32;
        for x in sorted {
            let r = rec(x);
            debug_assert!(r.slot != EMPTY && r.fp >= last_fp, "sorted by fingerprint");
            last_fp = r.fp;
            let p = home_in(r.fp, cap).max(next);
            if p + 1 >= self.recs.len() {
                self.recs.resize(p + 2, Record::VACANT);
            }
            self.recs[p] = r;
            next = p + 1;
        }
    }
}
