//! The cell table of the spatial hash: an open-addressing multimap from cell
//! coordinates to the boxes listed there, each record holding its box inline.
//!
//! One record per (cell, proxy), linear probing (Knuth, TAOCP vol. 3, 6.4,
//! Algorithm L) with a load factor of at most 1/2, and deletion by backward
//! shift (Algorithm R), so no tombstones. All records of a cell lie in the probe
//! run that starts at the cell's home bucket, so a cell's boxes are read from a
//! few adjacent cache lines, without following a pointer per cell or per proxy.
//! The home bucket is the top bits of a multiplicative hash of the cell
//! ("Fibonacci hashing", TAOCP 6.4).

use crate::bound::Aabb;
use crate::math::Vector;

/// Integer cell coordinates (unused axes 0 in 2D).
pub(crate) type Cell = [i32; 3];

/// The slot value of an empty bucket.
pub(crate) const EMPTY: u32 = u32::MAX;

/// One listing of a proxy in one cell, with the proxy's box.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Record<V> {
    /// The cell.
    pub key: Cell,
    /// The proxy's slot, or [`EMPTY`].
    pub slot: u32,
    /// The proxy's box as of the last pair update.
    pub aabb: Aabb<V>,
}

impl<V: Vector> Record<V> {
    const VACANT: Self = Record {
        key: [0; 3],
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

/// Smallest number of index bits of a table.
const MIN_BITS: u32 = 4;

/// The multimap (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct CellTable<V> {
    /// The buckets (a power of two of them).
    pub recs: Vec<Record<V>>,
    bits: u32,
    len: usize,
}

impl<V: Vector> Default for CellTable<V> {
    fn default() -> Self {
        CellTable {
            recs: vec![Record::VACANT; 1 << MIN_BITS],
            bits: MIN_BITS,
            len: 0,
        }
    }
}

/// Index bits of a table holding `n` records at a load of at most 1/2.
fn bits_for(n: usize) -> u32 {
    let cap = (2 * n).max(1 << MIN_BITS).next_power_of_two();
    cap.trailing_zeros()
}

impl<V: Vector> CellTable<V> {
    /// Index bits (the table has `2^bits` buckets).
    #[inline]
    pub fn bits(&self) -> u32 {
        self.bits
    }

    #[inline]
    fn mask(&self) -> usize {
        self.recs.len() - 1
    }

    /// The home bucket of a cell.
    #[inline]
    pub fn home(&self, c: Cell) -> usize {
        (hash_cell(c) >> (64 - self.bits)) as usize
    }

    /// Grows the table (rehashing every record) so that `extra` more records
    /// keep the load at most 1/2.
    pub fn reserve(&mut self, extra: usize) {
        let want = bits_for(self.len + extra);
        if want > self.bits {
            let old = core::mem::replace(&mut self.recs, vec![Record::VACANT; 1 << want]);
            self.bits = want;
            self.len = 0;
            for r in old.into_iter().filter(|r| r.slot != EMPTY) {
                let h = self.home(r.key);
                self.insert_at_home(r, h);
            }
        }
    }

    /// Adds a record; `home` must be [`home`](Self::home) of its cell and the
    /// table must have room (see [`reserve`](Self::reserve)).
    #[inline]
    pub fn insert_at_home(&mut self, r: Record<V>, home: usize) {
        let mask = self.mask();
        let mut i = home;
        while self.recs[i].slot != EMPTY {
            i = (i + 1) & mask;
        }
        self.recs[i] = r;
        self.len += 1;
        debug_assert!(2 * self.len <= self.recs.len());
    }

    /// The bucket of the record of (`c`, `slot`), searched from `home`.
    #[inline]
    pub fn find(&self, c: Cell, slot: u32, home: usize) -> Option<usize> {
        let mask = self.mask();
        let mut i = home;
        loop {
            let r = &self.recs[i];
            if r.slot == EMPTY {
                return None;
            }
            if r.slot == slot && r.key == c {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Empties bucket `i` and shifts later records of its run back so every
    /// record stays reachable from its home (TAOCP 6.4, Algorithm R).
    pub fn remove_at(&mut self, mut i: usize) {
        let mask = self.mask();
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            if self.recs[j].slot == EMPTY {
                break;
            }
            let h = self.home(self.recs[j].key);
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

    /// Calls `f(record)` for every record of cell `c`.
    #[inline]
    pub fn for_cell(&self, c: Cell, mut f: impl FnMut(&Record<V>) -> bool) -> bool {
        let mask = self.mask();
        let mut i = self.home(c);
        loop {
            let r = &self.recs[i];
            if r.slot == EMPTY {
                return true;
            }
            if r.key == c && !f(r) {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// Replaces the contents by `sorted`, whose records are in increasing
    /// order of their home bucket in a table of `bits` index bits (see
    /// [`bits_for_len`](Self::bits_for_len)). One sweep: each record goes to
    /// the first free bucket at or after its home, which is where insertions
    /// in this order would put it; the few that would run past the end wrap
    /// around by a normal insertion.
    pub fn fill_sorted(&mut self, sorted: &[Record<V>], bits: u32) {
        let cap = 1usize << bits;
        if self.recs.len() == cap {
            self.recs.fill(Record::VACANT);
        } else {
            self.recs = vec![Record::VACANT; cap];
        }
        self.bits = bits;
        self.len = 0;
        let mut next = 0usize;
        let mut wrap = 0;
        for (k, r) in sorted.iter().enumerate() {
            let h = self.home(r.key);
            let p = h.max(next);
            if p >= cap {
                wrap = k;
                break;
            }
            self.recs[p] = *r;
            next = p + 1;
            self.len += 1;
            wrap = k + 1;
        }
        for r in &sorted[wrap..] {
            let h = self.home(r.key);
            self.insert_at_home(*r, h);
        }
    }

    /// Index bits for a table of `n` records (load at most 1/2).
    #[inline]
    pub fn bits_for_len(n: usize) -> u32 {
        bits_for(n)
    }

    /// Home bucket of `c` in a table of `bits` index bits.
    #[inline]
    pub fn home_in(c: Cell, bits: u32) -> usize {
        (hash_cell(c) >> (64 - bits)) as usize
    }

    /// Number of distinct cells with a record (a record counts when no
    /// earlier record of its probe run, from its home on, has the same cell).
    pub fn distinct_cells(&self) -> usize {
        let mask = self.mask();
        let mut n = 0;
        for (i, r) in self.recs.iter().enumerate() {
            if r.slot == EMPTY {
                continue;
            }
            let mut j = self.home(r.key);
            while j != i && self.recs[j].key != r.key {
                j = (j + 1) & mask;
            }
            if j == i {
                n += 1;
            }
        }
        n
    }
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
