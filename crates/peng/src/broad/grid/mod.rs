//! A uniform grid stored in a hash table (spatial hashing).
//!
//! Teschner et al., "Optimized Spatial Hashing for Collision Detection of
//! Deformable Objects" (2003), and Ericson, Real-Time Collision Detection, 7.1:
//! space is cut into cubes (squares in 2D) of side `h`; each box is listed in
//! every cell it touches, and only boxes sharing a cell are tested. A hash table
//! keyed by cell coordinates keeps memory proportional to the occupied cells, so
//! the world needs no bounds.
//!
//! A pair of boxes shares several cells when both span more than one; it is
//! reported only from the cell holding the lower corner of their intersection,
//! `max(a.min, b.min)`, which both boxes touch (the cell coordinate
//! `⌊x/h⌋` is monotone, so a point of a box lies in a cell of the box's range).
//! That rule dedupes exactly, without a set. Boxes spanning more than
//! `max_cells` cells would be listed too often; they go to a side list tested
//! against everything.
//!
//! Layout (see `table.rs`): one open-addressing table of (cell fingerprint,
//! proxy, box) records, so a cell's candidates and their boxes are read from adjacent
//! memory. Moves are only recorded; [`BroadPhase::update_pairs`] relists the
//! changed proxies and finds their pairs in batches sorted by home bucket, so
//! the table is swept in memory order instead of being probed at random
//! (`update.rs`). When many proxies changed (a build from scratch), the records
//! are rebuilt by one radix sort and pairs are found cell by cell.

#[cfg(test)]
mod collide_tests;
mod query;
mod table;
mod update;

use crate::bound::Aabb;
use crate::math::Vector;

use super::hash::FxHashSet;
use super::pairs::PairTracker;
use super::proxy::{Filter, ProxyId, ProxyPair, ProxyTable};
use super::{BroadPhase, BroadPhaseError};
use table::{Cell, CellTable};

/// Where a proxy is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placement {
    /// Not listed.
    None,
    /// In every cell of the inclusive range `lo..=hi`.
    Cells(Cell, Cell),
    /// In the side list of large boxes.
    Large,
}

/// The cell holding `p` for cells of side `1/inv`: `⌊p_i · inv⌋` (saturating).
#[inline]
fn cell_at<V: Vector>(inv: f32, p: V) -> Cell {
    let mut c = [0i32; 3];
    for (i, ci) in c.iter_mut().enumerate().take(V::DIM) {
        *ci = floor_i32(p.get(i) * inv);
    }
    c
}

/// `⌊x⌋` as an `i32`, saturating (NaN gives 0): the same value as
/// `x.floor() as i32`, without the call to `floorf` that targets without
/// SSE4.1 make of `floor`. The cast truncates toward zero (saturating), which
/// is one too high for negative non-integers; the comparison detects that.
#[inline(always)]
fn floor_i32(x: f32) -> i32 {
    let t = x as i32;
    if (t as f32) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// The axes on which cell `c` is the first cell of a box whose range starts
/// at `lo` (bit `i` set when `c[i] == lo[i]`; unused axes always set).
///
/// This makes the dedupe rule an integer test: `⌊x/h⌋` is monotone, so the
/// cell of `max(a.min, b.min)` is `max(lo_a, lo_b)` per axis, and for a cell
/// `c` in both ranges (`lo_a, lo_b <= c`) that maximum is `c[i]` exactly when
/// `lo_a[i] == c[i]` or `lo_b[i] == c[i]`: the pair is reported from `c` iff
/// `first_a | first_b == ALL_AXES`. Two boxes sharing several cells are then
/// dismissed in all but one of them before any box test.
#[inline(always)]
fn first_axes(c: Cell, lo: Cell) -> u8 {
    (c[0] == lo[0]) as u8 | ((c[1] == lo[1]) as u8) << 1 | ((c[2] == lo[2]) as u8) << 2
}

/// `first_axes` of a pair reported from its cell.
const ALL_AXES: u8 = 0b111;

/// Whether cell `c` lies in the inclusive range `lo..=hi`.
#[inline]
fn in_range(c: Cell, lo: Cell, hi: Cell) -> bool {
    (0..3).all(|i| lo[i] <= c[i] && c[i] <= hi[i])
}

/// Calls `f(cell)` for every cell of the inclusive range.
#[inline(always)]
fn for_cells(lo: Cell, hi: Cell, mut f: impl FnMut(Cell)) {
    for z in lo[2]..=hi[2] {
        for y in lo[1]..=hi[1] {
            for x in lo[0]..=hi[0] {
                f([x, y, z]);
            }
        }
    }
}

/// A uniform grid stored in a hash table (spatial hashing).
///
/// Teschner et al., "Optimized Spatial Hashing for Collision Detection of
/// Deformable Objects" (2003), and Ericson, Real-Time Collision Detection, 7.1:
/// space is cut into cubes (squares in 2D) of side `h`; each box is listed in
/// every cell it touches, and only boxes sharing a cell are tested. A hash table
/// keyed by cell coordinates keeps memory proportional to the occupied cells, so
/// the world needs no bounds.
///
/// A pair of boxes shares several cells when both span more than one; it is
/// reported only from the cell holding the lower corner of their intersection,
/// `max(a.min, b.min)`, which both boxes touch (the cell coordinate
/// `⌊x/h⌋` is monotone, so a point of a box lies in a cell of the box's range).
/// That rule dedupes exactly, without a set. Boxes spanning more than
/// `max_cells` cells (or more than 256 along one axis) would be listed too
/// often; they go to a side list tested against everything.
///
/// Moves and insertions are listed in the cells at the next
/// [`update_pairs`](BroadPhase::update_pairs), in one batch; until then box and
/// ray queries test the changed proxies one by one (so they still see every
/// box as last given).
///
/// Pick the cell size about 1–3 times the edge of a typical box, and at
/// least about half the largest box's edge: much smaller lists each box in
/// many cells, much larger puts many boxes in a cell. Each cell a box covers
/// costs a record and a probe per update, more than a box test, so the larger
/// end is usually the faster one: in the moving-boxes benchmark (mean edge
/// 1.4, longest 8) cells of 3.6 beat cells of 2.7 by 8–11 % at 10^4–10^6
/// boxes.
#[derive(Debug, Clone)]
pub struct SpatialHash<V> {
    table: ProxyTable<V>,
    tracker: PairTracker,
    found: Vec<ProxyPair>,
    cell_size: f32,
    inv_cell: f32,
    max_cells: u64,
    cells: CellTable<V>,
    /// Where each slot is listed in `cells` / `large` (as of the last update).
    place: Vec<Placement>,
    /// Generation of each slot as of the last update (for pair ids without a
    /// trip to the proxy table).
    gens: Vec<u32>,
    large: Vec<u32>,
    /// Live proxies whose filter is not [`Filter::ALL`]; while 0, filters
    /// need no test.
    custom_filters: usize,
    /// Holds every box listed in cells (grows only), for ray traversal.
    bounds: Aabb<V>,
    resident: usize,
    /// Rebuild the table when at least this fraction of the proxies changed.
    rebuild_ratio: f32,
    /// Frames of at most this many (cell, proxy) operations on a small
    /// table skip the sort (see `update.rs`).
    in_order_max: usize,
    scratch: update::Scratch<V>,
}

impl<V: Vector> Default for SpatialHash<V> {
    fn default() -> Self {
        Self::build(1.0, Self::DEFAULT_MAX_CELLS)
    }
}

impl<V: Vector> SpatialHash<V> {
    /// Default limit of cells a box may be listed in before it goes to the side
    /// list of large boxes.
    pub const DEFAULT_MAX_CELLS: u64 = 64;

    /// An empty grid with cells of side `cell_size` (positive, finite).
    pub fn new(cell_size: f32) -> Result<Self, BroadPhaseError> {
        Self::with_max_cells(cell_size, Self::DEFAULT_MAX_CELLS)
    }

    /// An empty grid; boxes touching more than `max_cells` cells (at least 1)
    /// are kept in a side list instead.
    pub fn with_max_cells(cell_size: f32, max_cells: u64) -> Result<Self, BroadPhaseError> {
        if !(cell_size.is_finite() && cell_size > 0.0 && (1.0 / cell_size).is_finite()) {
            return Err(BroadPhaseError::InvalidParameter(
                "cell size must be positive and finite",
            ));
        }
        Ok(Self::build(cell_size, max_cells.max(1)))
    }

    fn build(cell_size: f32, max_cells: u64) -> Self {
        SpatialHash {
            table: ProxyTable::default(),
            tracker: PairTracker::default(),
            found: Vec::new(),
            cell_size,
            inv_cell: 1.0 / cell_size,
            max_cells,
            cells: CellTable::default(),
            place: Vec::new(),
            gens: Vec::new(),
            large: Vec::new(),
            custom_filters: 0,
            bounds: Aabb::EMPTY,
            resident: 0,
            rebuild_ratio: Self::DEFAULT_REBUILD_RATIO,
            in_order_max: Self::DEFAULT_IN_ORDER_MAX,
            scratch: update::Scratch::default(),
        }
    }

    /// Default of [`set_rebuild_ratio`](Self::set_rebuild_ratio).
    pub const DEFAULT_REBUILD_RATIO: f32 = 0.5;

    /// Sets when a pair update rebuilds the cell table from every box instead
    /// of relisting only the changed proxies: when the changed proxies are at
    /// least `ratio` times the live ones. `0` always rebuilds, infinity never
    /// does; both give the same pairs and events. NaN is ignored.
    pub fn set_rebuild_ratio(&mut self, ratio: f32) {
        if !ratio.is_nan() {
            self.rebuild_ratio = ratio.max(0.0);
        }
    }

    /// Default of [`set_in_order_max`](Self::set_in_order_max).
    pub const DEFAULT_IN_ORDER_MAX: usize = 1024;

    /// Sets how small a pair update must be to skip sorting its work by
    /// bucket: at most `ops` (cell, proxy) listings to change, on a table
    /// of at most 16,384 buckets (which stays in the cache). `0` always
    /// sorts; the pairs and events are the same either way.
    pub fn set_in_order_max(&mut self, ops: usize) {
        self.in_order_max = ops;
    }

    /// The side of a cell.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Number of occupied cells as of the last
    /// [`update_pairs`](BroadPhase::update_pairs) (counted on each call, in
    /// time linear in the number of listings).
    pub fn occupied_cells(&self) -> usize {
        let mut cells: FxHashSet<Cell> = FxHashSet::default();
        for p in &self.place {
            if let Placement::Cells(lo, hi) = *p {
                for_cells(lo, hi, |c| {
                    cells.insert(c);
                });
            }
        }
        cells.len()
    }

    /// The cell holding point `p`: `⌊p_i / h⌋` per axis (saturating).
    #[inline]
    fn cell_of(&self, p: V) -> Cell {
        cell_at(self.inv_cell, p)
    }

    fn placement_for(&self, aabb: &Aabb<V>) -> Placement {
        let (lo, hi) = (self.cell_of(aabb.min), self.cell_of(aabb.max));
        let mut count = 1u64;
        let mut longest = 0i64;
        for i in 0..3 {
            let span = hi[i] as i64 - lo[i] as i64 + 1;
            longest = longest.max(span);
            count = count.saturating_mul(span as u64);
        }
        if count > self.max_cells || longest > update::MAX_SPAN {
            Placement::Large
        } else {
            Placement::Cells(lo, hi)
        }
    }

    /// Whether slot `i` changed since the last pair update.
    #[inline]
    fn is_dirty(&self, i: u32) -> bool {
        self.table.dirty[i as usize]
    }
}

impl<V: Vector> BroadPhase<V> for SpatialHash<V> {
    fn insert(
        &mut self,
        aabb: Aabb<V>,
        user_data: u64,
        filter: Filter,
    ) -> Result<ProxyId, BroadPhaseError> {
        let id = self.table.insert_checked(aabb, user_data, filter)?;
        let slot = id.index() as usize;
        if self.place.len() <= slot {
            self.place.resize(slot + 1, Placement::None);
            self.gens.resize(slot + 1, 0);
        }
        if filter != Filter::ALL {
            self.custom_filters += 1;
        }
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        let (_, info) = self.table.remove(id)?;
        if info.filter != Filter::ALL {
            self.custom_filters -= 1;
        }
        Ok(info.user_data)
    }

    fn set_filter(&mut self, id: ProxyId, filter: Filter) -> Result<(), BroadPhaseError> {
        let old = self.table.set_filter(id, filter)?;
        match (old == Filter::ALL, filter == Filter::ALL) {
            (true, false) => self.custom_filters += 1,
            (false, true) => self.custom_filters -= 1,
            _ => {}
        }
        Ok(())
    }

    fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        _displacement: V,
    ) -> Result<(), BroadPhaseError> {
        self.table.set_aabb(id, aabb).map(|_| ())
    }

    shared_broad_phase_methods!();
}

#[cfg(test)]
mod tests {
    use super::floor_i32;

    #[test]
    fn floor_i32_matches_floor_then_cast() {
        let xs = [
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            1.5,
            -1.5,
            2.999_999_8,
            -2.999_999_8,
            1e-30,
            -1e-30,
            16_777_217.0,
            -16_777_217.0,
            2_147_483_520.0,
            -2_147_483_648.0,
            3e9,
            -3e9,
            1e18,
            -1e18,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for x in xs {
            assert_eq!(floor_i32(x), x.floor() as i32, "{x}");
        }
        let mut v = -1000.0f32;
        while v < 1000.0 {
            assert_eq!(floor_i32(v), v.floor() as i32, "{v}");
            v += 0.37;
        }
    }
}
