//! The pair update of the spatial hash: relisting the changed proxies and
//! finding their pairs, in batches ordered by home bucket.
//!
//! Probing the table once per (changed proxy, cell) in the order the proxies
//! changed reads buckets at random: at 10^5–10^6 boxes each probe is a cache
//! (and TLB) miss. Here every (cell, proxy) operation of the frame is first
//! collected, then radix-sorted by home bucket, so the table is swept once in
//! memory order, with the buckets of the next operations prefetched. Each
//! operation brings its record up to date and tests the changed box against
//! the unchanged proxies of the cell, whose records are current whatever the
//! order; pairs of two changed proxies are found among the sorted operations
//! themselves (the operations of a cell are adjacent there). The boxes of the
//! changed proxies are copied into a compact array first, so the tests read
//! nothing else at random.
//!
//! When at least half of the proxies changed (a build from scratch; the
//! fraction is set by `SpatialHash::set_rebuild_ratio`), the table is instead
//! rebuilt from every listing: one radix sort by home bucket puts
//! the records of each cell next to each other, the table is filled by one
//! sweep, and each cell's records are tested pairwise (each pair once, not
//! once from each end).

use crate::bound::Aabb;
use crate::math::Vector;

use super::super::prefetch::prefetch;
use super::super::proxy::{ProxyId, ProxyPair, ProxyTable};
use super::super::radix::radix_sort_by;
use super::table::{fingerprint, home_in, index_bits, Cell, CellTable, Record};
use super::{cell_at, first_axes, for_cells, in_range, Placement, SpatialHash, ALL_AXES};

/// How many operations ahead the sweeps prefetch their buckets.
const AHEAD: usize = 16;

/// Cache lines prefetched per probe run: a search reads about six 32-byte
/// records from its home at 1M boxes (the cell's own and the displaced
/// records of earlier homes before them), which start anywhere in a line.
const RUN_LINES: usize = 4;

/// Prefetches the first [`RUN_LINES`] cache lines of the probe run from
/// `home`.
#[inline(always)]
fn prefetch_run<T>(recs: &[T], home: usize) {
    let per = 64 / core::mem::size_of::<T>().max(1);
    for l in 0..RUN_LINES {
        if let Some(r) = recs.get(home + l * per) {
            prefetch(r);
        }
    }
}

/// Sets the generation of both ends of each pair from `gens`.
///
/// The sweep finds an unchanged proxy by its slot in a record; its generation
/// is a read at a random place of `gens` (a cache miss per pair at 10^6
/// proxies), so the sweep leaves it out and this loop reads them all with the
/// reads of later pairs prefetched, many misses in flight at once.
fn fill_generations(pairs: &mut [ProxyPair], gens: &[u32]) {
    for k in 0..pairs.len() {
        if let Some(p) = pairs.get(k + AHEAD) {
            prefetch(&gens[p.a.index() as usize]);
            prefetch(&gens[p.b.index() as usize]);
        }
        let p = pairs[k];
        pairs[k] = ProxyPair {
            a: ProxyId::from_parts(p.a.index(), gens[p.a.index() as usize]),
            b: ProxyId::from_parts(p.b.index(), gens[p.b.index() as usize]),
        };
    }
}

fn pair_changed_in_group<V: Vector>(
    group: &[Op],
    dprox: &[Changed<V>],
    t: &ProxyTable<V>,
    inv: f32,
    filters: bool,
    found: &mut Vec<ProxyPair>,
) {
    for (x, oa) in group.iter().enumerate() {
        if oa.kind() == Kind::Remove {
            continue;
        }
        let fa = oa.first();
        for ob in &group[x + 1..] {
            if ob.kind() == Kind::Remove || oa.slot == ob.slot || fa | ob.first() != ALL_AXES {
                continue;
            }
            let (da, db) = (dprox[oa.dpos as usize], dprox[ob.dpos as usize]);
            if da.aabb.overlaps(&db.aabb)
                && oa.cell(cell_at(inv, da.aabb.min)) == ob.cell(cell_at(inv, db.aabb.min))
                && (!filters || t.pair_passes(oa.slot, ob.slot))
            {
                found.push(ProxyPair::new(
                    ProxyId::from_parts(oa.slot, da.generation),
                    ProxyId::from_parts(ob.slot, db.generation),
                ));
            }
        }
    }
}

/// `dpos` of an operation on a proxy that is no longer live.
const NONE: u32 = u32::MAX;

/// What an operation does to the record of (cell, slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The proxy left the cell.
    Remove = 0,
    /// The proxy stays in the cell with a new box.
    Update = 1,
    /// The proxy entered the cell.
    Insert = 2,
}

/// Longest range of cells per axis a listed proxy may have (longer ones go
/// to the side list), so a cell's offset in the range fits the 8 bits of
/// [`Op`].
pub(super) const MAX_SPAN: i64 = 256;

/// One (cell, proxy) operation of a pair update: 16 bytes, so sorting a
/// frame's operations moves little memory.
///
/// `meta` packs the [`Kind`] (bits 0-1) and, for an update or insertion, the
/// cell as its offset from the lower cell of the proxy's new range (8 bits
/// per axis from bit 8; `placement_for` keeps every range under
/// [`MAX_SPAN`] cells per axis). The home bucket is not stored: it is the
/// fingerprint scaled to the table (`home_in`), monotone in the fingerprint.
#[derive(Debug, Clone, Copy)]
struct Op {
    /// Fingerprint of the cell.
    fp: u32,
    slot: u32,
    /// Index of the proxy in the frame's arrays of changed live proxies.
    dpos: u32,
    meta: u32,
}

impl Op {
    #[inline]
    fn new(fp: u32, slot: u32, dpos: u32, kind: Kind, cell: Cell, lo: Cell) -> Op {
        let mut meta = kind as u32;
        if kind != Kind::Remove {
            for i in 0..3 {
                let off = cell[i].wrapping_sub(lo[i]) as u32;
                debug_assert!(off < MAX_SPAN as u32);
                meta |= off << (8 + 8 * i);
            }
        }
        Op {
            fp,
            slot,
            dpos,
            meta,
        }
    }

    #[inline(always)]
    fn kind(self) -> Kind {
        match self.meta & 3 {
            0 => Kind::Remove,
            1 => Kind::Update,
            _ => Kind::Insert,
        }
    }

    /// The cell of an update or insertion, given the lower cell of the
    /// proxy's new range.
    #[inline(always)]
    fn cell(self, lo: Cell) -> Cell {
        [0, 1, 2].map(|i| lo[i].wrapping_add(((self.meta >> (8 + 8 * i)) & 0xff) as i32))
    }

    /// `first_axes` of the cell in the proxy's new range: the axes on which
    /// the offset is 0.
    #[inline(always)]
    fn first(self) -> u8 {
        let m = self.meta >> 8;
        ((m & 0xff == 0) as u8)
            | (((m >> 8) & 0xff == 0) as u8) << 1
            | (((m >> 16) == 0) as u8) << 2
    }
}

/// A live changed proxy: its new box and generation, aligned so that one
/// prefetched cache line holds it (32 bytes in 3D).
#[derive(Debug, Clone, Copy)]
#[repr(C, align(32))]
struct Changed<V> {
    aabb: Aabb<V>,
    generation: u32,
}

/// Buffers reused between pair updates.
#[derive(Debug, Clone, Default)]
pub(super) struct Scratch<V> {
    /// Live changed slots and their boxes.
    dslots: Vec<u32>,
    dprox: Vec<Changed<V>>,
    ops: Vec<Op>,
    ops_tmp: Vec<Op>,
    recs: Vec<BuildRec<V>>,
    recs_tmp: Vec<BuildRec<V>>,
    /// Per slot, during the in-order path: its operations are applied.
    done: Vec<bool>,
}

/// Frames with at most `SpatialHash::in_order_max` operations (1,024 by
/// default), on a table of at most this many buckets, take the in-order
/// path: a table that small stays in the cache (16,384 buckets are 384 KiB
/// in 2D, 512 KiB in 3D), so sorting the operations by home (a radix sort
/// of two passes over up to 4,096 counters) costs more than the random
/// probes it saves. (1,000 page elements, a tenth moving: 350 operations
/// on 5,000 buckets, and the pair update a third fewer instructions.)
const IN_ORDER_BUCKETS: usize = 16_384;

/// A listing as the rebuild path sorts it: a record plus the generation and
/// `first_axes` of its cell, for the pairwise tests within each cell. (Two
/// records of cells sharing a fingerprint may pass the `first_axes` test
/// together; that only repeats a pair, which the pair list drops.)
#[derive(Debug, Clone, Copy)]
struct BuildRec<V> {
    fp: u32,
    slot: u32,
    generation: u32,
    first: u8,
    aabb: Aabb<V>,
}

impl<V: Vector> SpatialHash<V> {
    /// Brings the listings up to date with every change since the last update
    /// and pushes the pairs with a changed end onto `found`.
    pub(super) fn find_pairs(&mut self) {
        let n_dirty = self.table.dirty_list.len();
        if n_dirty == 0 {
            return;
        }
        let rebuild = n_dirty as f32 >= self.rebuild_ratio * self.table.len() as f32;
        let mut s = core::mem::take(&mut self.scratch);
        self.relist_placements(&mut s, rebuild);
        if rebuild {
            self.rebuild_and_pair(&mut s);
        } else if s.ops.len() <= self.in_order_max && self.cells.cap() <= IN_ORDER_BUCKETS {
            self.apply_ops_in_order_and_pair(&mut s);
        } else {
            self.apply_ops_and_pair(&mut s);
        }
        self.pair_large(&s);
        self.scratch = s;
    }

    /// New placements of the changed proxies; in the incremental path, also
    /// the (cell, proxy) operations that take the table there.
    fn relist_placements(&mut self, s: &mut Scratch<V>, rebuild: bool) {
        s.dslots.clear();
        s.dprox.clear();
        s.ops.clear();
        let mut large_left = false;
        for k in 0..self.table.dirty_list.len() {
            if let Some(&ahead) = self.table.dirty_list.get(k + AHEAD) {
                prefetch(&self.table.slots[ahead as usize]);
                prefetch(&self.place[ahead as usize]);
                prefetch(&self.gens[ahead as usize]);
            }
            let slot = self.table.dirty_list[k];
            let si = slot as usize;
            let old = self.place[si];
            let (new, dpos) = if self.table.alive(slot) {
                let aabb = *self.table.aabb(slot);
                let generation = self.table.id(slot).generation();
                self.gens[si] = generation;
                s.dslots.push(slot);
                s.dprox.push(Changed { aabb, generation });
                (self.placement_for(&aabb), (s.dprox.len() - 1) as u32)
            } else {
                (Placement::None, NONE)
            };
            if old == Placement::Large && new != Placement::Large {
                large_left = true;
            }
            if new == Placement::Large && old != Placement::Large {
                self.large.push(slot);
            }
            if let Placement::Cells(..) = old {
                self.resident -= 1;
            }
            if let Placement::Cells(..) = new {
                self.resident += 1;
                self.bounds = self.bounds.merged(&s.dprox[dpos as usize].aabb);
            }
            if !rebuild {
                let ops = &mut s.ops;
                let new_range = match new {
                    Placement::Cells(l, h) => Some((l, h)),
                    _ => None,
                };
                if new == old {
                    // The common case of a small move: the same cells.
                    if let Placement::Cells(lo, hi) = new {
                        for_cells(lo, hi, |c| {
                            ops.push(Op::new(fingerprint(c), slot, dpos, Kind::Update, c, lo));
                        });
                    }
                } else if let Placement::Cells(lo, hi) = old {
                    for_cells(lo, hi, |c| {
                        let op = match new_range {
                            Some((l, h)) if in_range(c, l, h) => {
                                Op::new(fingerprint(c), slot, dpos, Kind::Update, c, l)
                            }
                            _ => Op::new(fingerprint(c), slot, dpos, Kind::Remove, c, c),
                        };
                        ops.push(op);
                    });
                }
                if let (Some((lo, hi)), true) = (new_range, new != old) {
                    for_cells(lo, hi, |c| {
                        if !matches!(old, Placement::Cells(l, h) if in_range(c, l, h)) {
                            ops.push(Op::new(fingerprint(c), slot, dpos, Kind::Insert, c, lo));
                        }
                    });
                }
            }
            self.place[si] = new;
        }
        if large_left {
            let place = &self.place;
            self.large
                .retain(|&b| place[b as usize] == Placement::Large);
        }
    }

    /// Incremental path: applies the operations in home order, then tests each
    /// changed box against the records of its cells, again in home order.
    fn apply_ops_and_pair(&mut self, s: &mut Scratch<V>) {
        let inserts = s.ops.iter().filter(|o| o.kind() == Kind::Insert).count();
        self.cells.reserve(inserts);
        let cap = self.cells.cap();
        let home = |o: &Op| home_in(o.fp, cap);
        radix_sort_by(&mut s.ops, &mut s.ops_tmp, index_bits(cap), |o| {
            home(o) as u64
        });
        let t = &self.table;
        let gens = &self.gens;
        let inv = self.inv_cell;
        let cells = &mut self.cells;
        let found = &mut self.found;
        let swept_from = found.len();
        let filters = self.custom_filters > 0;
        let dprox = &s.dprox;
        let ops = &s.ops;
        let (mut g0, mut g1) = (0usize, 0usize);
        for (k, &o) in ops.iter().enumerate() {
            let h = home(&o);
            if k == g1 {
                g0 = k;
                g1 = k + 1;
                while g1 < ops.len() && home(&ops[g1]) == h {
                    g1 += 1;
                }
                if g1 - g0 > 1 {
                    pair_changed_in_group(&ops[g0..g1], dprox, t, inv, filters, found);
                }
            }
            let group = &ops[g0..g1];
            if let Some(p) = ops.get(k + AHEAD) {
                prefetch_run(&cells.recs, home(p));
                if p.dpos != NONE {
                    prefetch(&dprox[p.dpos as usize]);
                }
            }
            let a = o.slot;
            let kind = o.kind();
            if kind == Kind::Remove {
                if let Some(i) = cells.find(o.fp, a, h) {
                    cells.remove_at(i);
                } else {
                    debug_assert!(false, "listed record missing");
                }
                continue;
            }
            let da = dprox[o.dpos as usize];
            if kind == Kind::Insert {
                let r = Record {
                    fp: o.fp,
                    slot: a,
                    aabb: da.aabb,
                };
                cells.insert_at_home(r, h);
            }
            let c = o.cell(cell_at(inv, da.aabb.min));
            let ba = da.aabb;
            let id_a = ProxyId::from_parts(a, da.generation);
            cells.scan_mut(o.fp, h, |r| {
                let b = r.slot;
                if b == a {
                    r.aabb = ba;
                } else if ba.overlaps(&r.aabb)
                    && !group.iter().any(|g| g.slot == b)
                    && cell_at(inv, ba.min.max(r.aabb.min)) == c
                    && (!filters || t.pair_passes(a, b))
                {
                    found.push(ProxyPair::new(id_a, ProxyId::from_parts(b, 0)));
                }
            });
        }
        fill_generations(&mut found[swept_from..], gens);
    }

    /// In-order path: each changed proxy in turn has its records brought up
    /// to date, then its new box is tested against the records of its cells.
    /// A record of another changed proxy is skipped until that proxy's turn
    /// is done (before, it holds the old box or is missing); after, it holds
    /// the new box, so a pair of two changed proxies is found once, in the
    /// turn of the later one.
    fn apply_ops_in_order_and_pair(&mut self, s: &mut Scratch<V>) {
        let inserts = s.ops.iter().filter(|o| o.kind() == Kind::Insert).count();
        self.cells.reserve(inserts);
        let cap = self.cells.cap();
        let t = &self.table;
        let inv = self.inv_cell;
        let cells = &mut self.cells;
        let found = &mut self.found;
        let swept_from = found.len();
        let filters = self.custom_filters > 0;
        let (ops, dprox, done) = (&s.ops, &s.dprox, &mut s.done);
        done.resize(t.slots.len(), false);
        let mut k = 0;
        while k < ops.len() {
            let a = ops[k].slot;
            let mut e = k + 1;
            while e < ops.len() && ops[e].slot == a {
                e += 1;
            }
            let mine = &ops[k..e];
            for o in mine {
                let h = home_in(o.fp, cap);
                match o.kind() {
                    Kind::Remove => {
                        if let Some(i) = cells.find(o.fp, a, h) {
                            cells.remove_at(i);
                        } else {
                            debug_assert!(false, "listed record missing");
                        }
                    }
                    Kind::Insert => {
                        let aabb = dprox[o.dpos as usize].aabb;
                        cells.insert_at_home(
                            Record {
                                fp: o.fp,
                                slot: a,
                                aabb,
                            },
                            h,
                        );
                    }
                    Kind::Update => {}
                }
            }
            for o in mine.iter().filter(|o| o.kind() != Kind::Remove) {
                let da = dprox[o.dpos as usize];
                let (ba, c) = (da.aabb, o.cell(cell_at(inv, da.aabb.min)));
                let id_a = ProxyId::from_parts(a, da.generation);
                cells.scan_mut(o.fp, home_in(o.fp, cap), |r| {
                    let b = r.slot;
                    if b == a {
                        r.aabb = ba;
                    } else if ba.overlaps(&r.aabb)
                        && (done[b as usize] || !t.dirty[b as usize])
                        && cell_at(inv, ba.min.max(r.aabb.min)) == c
                        && (!filters || t.pair_passes(a, b))
                    {
                        found.push(ProxyPair::new(id_a, ProxyId::from_parts(b, 0)));
                    }
                });
            }
            done[a as usize] = true;
            k = e;
        }
        for o in ops {
            done[o.slot as usize] = false;
        }
        fill_generations(&mut found[swept_from..], &self.gens);
    }

    /// Rebuild path: every listing sorted by home, the table filled by one
    /// sweep, and each cell's records tested pairwise.
    fn rebuild_and_pair(&mut self, s: &mut Scratch<V>) {
        s.recs.clear();
        for (slot, p) in self.place.iter().enumerate() {
            if let Placement::Cells(lo, hi) = *p {
                let aabb = self.table.slots[slot].info.aabb;
                let generation = self.gens[slot];
                let recs = &mut s.recs;
                for_cells(lo, hi, |c| {
                    recs.push(BuildRec {
                        fp: fingerprint(c),
                        slot: slot as u32,
                        generation,
                        first: first_axes(c, lo),
                        aabb,
                    })
                });
            }
        }
        let cap = CellTable::<V>::cap_for_len(s.recs.len());
        radix_sort_by(&mut s.recs, &mut s.recs_tmp, index_bits(cap), |r| {
            home_in(r.fp, cap) as u64
        });
        // The table wants fingerprint order: fingerprints sharing a home
        // (a few records each) are sorted in place.
        let mut i = 0;
        while i < s.recs.len() {
            let h = home_in(s.recs[i].fp, cap);
            let mut e = i + 1;
            while e < s.recs.len() && home_in(s.recs[e].fp, cap) == h {
                e += 1;
            }
            if e - i > 1 {
                crate::sort::stable_by(&mut s.recs[i..e], |x, y| x.fp.cmp(&y.fp));
            }
            i = e;
        }
        self.cells.fill_sorted(&s.recs, cap, |r| Record {
            fp: r.fp,
            slot: r.slot,
            aabb: r.aabb,
        });

        let t = &self.table;
        let found = &mut self.found;
        let filters = self.custom_filters > 0;
        let all_dirty = t.dirty_list.len() >= t.len();
        let recs = &s.recs;
        let n = recs.len();
        let mut i = 0;
        while i < n {
            let h = home_in(recs[i].fp, cap);
            let mut e = i + 1;
            while e < n && home_in(recs[e].fp, cap) == h {
                e += 1;
            }
            let run = &recs[i..e];
            for (x, ra) in run.iter().enumerate() {
                let a = ra.slot;
                let da = all_dirty || t.dirty[a as usize];
                for rb in &run[x + 1..] {
                    let b = rb.slot;
                    if ra.first | rb.first == ALL_AXES
                        && rb.fp == ra.fp
                        && b != a
                        && ra.aabb.overlaps(&rb.aabb)
                        && (da || t.dirty[b as usize])
                        && (!filters || t.pair_passes(a, b))
                    {
                        found.push(ProxyPair::new(
                            ProxyId::from_parts(a, ra.generation),
                            ProxyId::from_parts(b, rb.generation),
                        ));
                    }
                }
            }
            i = e;
        }
    }

    /// Pairs with the side list: a changed large proxy against every proxy, a
    /// changed listed proxy against the large ones.
    fn pair_large(&mut self, s: &Scratch<V>) {
        let t = &self.table;
        for &a in &s.dslots {
            match self.place[a as usize] {
                Placement::Large => t.push_pairs_with_all(a, &mut self.found),
                Placement::Cells(..) => {
                    for &b in &self.large {
                        t.push_pair(a, b, &mut self.found);
                    }
                }
                Placement::None => {}
            }
        }
    }
}
