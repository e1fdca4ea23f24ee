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

use super::super::proxy::{ProxyId, ProxyPair};
use super::table::{
    fingerprint, home_in, index_bits, prefetch, radix_sort_by, Cell, CellTable, Record,
};
use super::{cell_at, first_axes, for_cells, in_range, Placement, SpatialHash, ALL_AXES};

/// How many operations ahead the sweeps prefetch their buckets.
const AHEAD: usize = 16;

/// Prefetches the first buckets of the probe run from `home` (two cache
/// lines: a run holds a few 32-byte records).
#[inline(always)]
fn prefetch_run<T>(recs: &[T], home: usize) {
    prefetch(&recs[home]);
    if let Some(r) = recs.get(home + 64 / core::mem::size_of::<T>().max(1)) {
        prefetch(r);
    }
}

/// `dpos` of an operation on a proxy that is no longer live.
const NONE: u32 = u32::MAX;

/// What an operation does to the record of (cell, slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The proxy left the cell.
    Remove,
    /// The proxy stays in the cell with a new box.
    Update,
    /// The proxy entered the cell.
    Insert,
}

/// One (cell, proxy) operation of a pair update.
#[derive(Debug, Clone, Copy)]
struct Op {
    home: u32,
    /// Fingerprint of `cell`.
    fp: u32,
    slot: u32,
    /// Index of the proxy in the frame's arrays of changed live proxies.
    dpos: u32,
    kind: Kind,
    /// `first_axes` of the cell in the proxy's new range.
    first: u8,
    cell: Cell,
}

/// A live changed proxy: its new box and generation, together so a test
/// reads one cache line.
#[derive(Debug, Clone, Copy)]
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
}

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
                if let Placement::Cells(lo, hi) = old {
                    for_cells(lo, hi, |c| {
                        let (kind, first) = match new {
                            Placement::Cells(l, h) if in_range(c, l, h) => {
                                (Kind::Update, first_axes(c, l))
                            }
                            _ => (Kind::Remove, 0),
                        };
                        ops.push(Op {
                            home: 0,
                            fp: fingerprint(c),
                            slot,
                            dpos,
                            kind,
                            first,
                            cell: c,
                        });
                    });
                }
                if let Placement::Cells(lo, hi) = new {
                    for_cells(lo, hi, |c| {
                        if !matches!(old, Placement::Cells(l, h) if in_range(c, l, h)) {
                            ops.push(Op {
                                home: 0,
                                fp: fingerprint(c),
                                slot,
                                dpos,
                                kind: Kind::Insert,
                                first: first_axes(c, lo),
                                cell: c,
                            });
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
        let inserts = s.ops.iter().filter(|o| o.kind == Kind::Insert).count();
        self.cells.reserve(inserts);
        let cap = self.cells.cap();
        for o in s.ops.iter_mut() {
            o.home = home_in(o.fp, cap) as u32;
        }
        radix_sort_by(&mut s.ops, &mut s.ops_tmp, index_bits(cap), |o| {
            o.home as usize
        });
        // One sweep: each operation brings its record up to date and, for a
        // proxy that is in the cell now, tests it against the unchanged
        // proxies of the cell (their records are current whatever the order).
        // A pair is reported from the cell of the lower corner of the
        // intersection only, which also drops records of other cells that
        // share the fingerprint (`Record`).
        let t = &self.table;
        let gens = &self.gens;
        let inv = self.inv_cell;
        let cells = &mut self.cells;
        let found = &mut self.found;
        let filters = self.custom_filters > 0;
        // The operations of the current home bucket, `ops[g0..g1]`. A proxy
        // with a record in this bucket's group changed this frame exactly
        // when one of these operations is its (it has one for every cell of
        // its old and new ranges), which is tested here in the L1 cache
        // instead of by a random read of the dirty flags.
        let ops = &s.ops;
        let (mut g0, mut g1) = (0usize, 0usize);
        for (k, o) in ops.iter().enumerate() {
            if k == g1 {
                g0 = k;
                g1 = k + 1;
                while g1 < ops.len() && ops[g1].home == o.home {
                    g1 += 1;
                }
            }
            let group = &ops[g0..g1];
            if let Some(p) = ops.get(k + AHEAD) {
                prefetch_run(&cells.recs, p.home as usize);
                if p.dpos != NONE {
                    prefetch(&s.dprox[p.dpos as usize]);
                }
            }
            let (a, c, h) = (o.slot, o.cell, o.home as usize);
            if o.kind == Kind::Remove {
                if let Some(i) = cells.find(o.fp, a, h) {
                    cells.remove_at(i);
                } else {
                    debug_assert!(false, "listed record missing");
                }
                continue;
            }
            let da = s.dprox[o.dpos as usize];
            if o.kind == Kind::Insert {
                let r = Record {
                    fp: o.fp,
                    slot: a,
                    aabb: da.aabb,
                };
                cells.insert_at_home(r, h);
            }
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
                    found.push(ProxyPair::new(
                        id_a,
                        ProxyId::from_parts(b, gens[b as usize]),
                    ));
                }
            });
        }
        // Pairs of two changed proxies: the operations of one cell are
        // together in the sorted list (one per proxy), so they are tested
        // pairwise there.
        let ops = &s.ops;
        let mut i = 0;
        while i < ops.len() {
            let h = ops[i].home;
            let mut e = i + 1;
            while e < ops.len() && ops[e].home == h {
                e += 1;
            }
            for (x, oa) in ops[i..e].iter().enumerate() {
                if oa.kind == Kind::Remove {
                    continue;
                }
                let da = s.dprox[oa.dpos as usize];
                for ob in &ops[i + x + 1..e] {
                    if ob.kind == Kind::Remove || ob.cell != oa.cell {
                        continue;
                    }
                    let db = s.dprox[ob.dpos as usize];
                    if oa.first | ob.first == ALL_AXES
                        && da.aabb.overlaps(&db.aabb)
                        && (!filters || t.pair_passes(oa.slot, ob.slot))
                    {
                        found.push(ProxyPair::new(
                            ProxyId::from_parts(oa.slot, da.generation),
                            ProxyId::from_parts(ob.slot, db.generation),
                        ));
                    }
                }
            }
            i = e;
        }
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
            home_in(r.fp, cap)
        });
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
