//! A uniform grid stored in a hash map (spatial hashing).
//!
//! Teschner et al., "Optimized Spatial Hashing for Collision Detection of
//! Deformable Objects" (2003), and Ericson, Real-Time Collision Detection, 7.1:
//! space is cut into cubes (squares in 2D) of side `h`; each box is listed in
//! every cell it touches, and only boxes sharing a cell are tested. A hash map
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

use crate::bound::Aabb;
use crate::math::Vector;

use super::hash::{FxHashMap, FxHashSet};
use super::pairs::{pair_of, PairTracker};
use super::proxy::{sanitize, Filter, ProxyId, ProxyPair, ProxyTable};
use super::{apply_ray_control, ray_ok, BroadPhase, BroadPhaseError, RayControl};

/// Integer cell coordinates (unused axes 0 in 2D).
type Cell = [i32; 3];

/// Where a proxy is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placement {
    /// Not a live proxy.
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
        *ci = (p.get(i) * inv).floor() as i32;
    }
    c
}

/// Cell coordinates beyond this magnitude are not exact multiples in f32; ray
/// traversal falls back to testing every box when the grid reaches them.
const CELL_COORD_EXACT: i32 = 1 << 22;

/// A uniform grid stored in a hash map (spatial hashing).
///
/// Teschner et al., "Optimized Spatial Hashing for Collision Detection of
/// Deformable Objects" (2003), and Ericson, Real-Time Collision Detection, 7.1:
/// space is cut into cubes (squares in 2D) of side `h`; each box is listed in
/// every cell it touches, and only boxes sharing a cell are tested. A hash map
/// keyed by cell coordinates keeps memory proportional to the occupied cells, so
/// the world needs no bounds.
///
/// A pair of boxes shares several cells when both span more than one; it is
/// reported only from the cell holding the lower corner of their intersection,
/// `max(a.min, b.min)`, which both boxes touch (the cell coordinate
/// `⌊x/h⌋` is monotone, so a point of a box lies in a cell of the box's range).
/// That rule dedupes exactly, without a set. Boxes spanning more than
/// `max_cells` cells would be listed too often; they go to a side list tested
/// against everything.
///
/// Pick the cell size near the size of a typical box (about 1–2 times): much
/// smaller lists each box in many cells, much larger puts many boxes in a cell.
#[derive(Debug, Clone)]
pub struct SpatialHash<V> {
    table: ProxyTable<V>,
    tracker: PairTracker,
    found: Vec<ProxyPair>,
    cell_size: f32,
    inv_cell: f32,
    max_cells: u64,
    cells: FxHashMap<Cell, Vec<u32>>,
    place: Vec<Placement>,
    large: Vec<u32>,
    /// Holds every box listed in cells (grows only), for ray traversal.
    bounds: Aabb<V>,
    resident: usize,
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
            cells: FxHashMap::default(),
            place: Vec::new(),
            large: Vec::new(),
            bounds: Aabb::EMPTY,
            resident: 0,
        }
    }

    /// The side of a cell.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Number of occupied cells.
    pub fn occupied_cells(&self) -> usize {
        self.cells.len()
    }

    /// The cell holding point `p`: `⌊p_i / h⌋` per axis (saturating).
    #[inline]
    fn cell_of(&self, p: V) -> Cell {
        cell_at(self.inv_cell, p)
    }

    fn placement_for(&self, aabb: &Aabb<V>) -> Placement {
        let (lo, hi) = (self.cell_of(aabb.min), self.cell_of(aabb.max));
        let mut count = 1u64;
        for i in 0..3 {
            count = count.saturating_mul((hi[i] as i64 - lo[i] as i64 + 1) as u64);
        }
        if count > self.max_cells {
            Placement::Large
        } else {
            Placement::Cells(lo, hi)
        }
    }

    /// Calls `f(cell)` for every cell of the inclusive range.
    #[inline]
    fn for_cells(lo: Cell, hi: Cell, mut f: impl FnMut(Cell)) {
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                for x in lo[0]..=hi[0] {
                    f([x, y, z]);
                }
            }
        }
    }

    fn list(&mut self, slot: u32, p: Placement) {
        match p {
            Placement::Cells(lo, hi) => {
                let cells = &mut self.cells;
                Self::for_cells(lo, hi, |c| cells.entry(c).or_default().push(slot));
                self.bounds = self.bounds.merged(self.table.aabb(slot));
                self.resident += 1;
            }
            Placement::Large => self.large.push(slot),
            Placement::None => {}
        }
        self.place[slot as usize] = p;
    }

    fn unlist(&mut self, slot: u32) {
        match self.place[slot as usize] {
            Placement::Cells(lo, hi) => {
                let cells = &mut self.cells;
                Self::for_cells(lo, hi, |c| {
                    if let Some(v) = cells.get_mut(&c) {
                        if let Some(k) = v.iter().position(|&s| s == slot) {
                            v.swap_remove(k);
                        }
                        if v.is_empty() {
                            cells.remove(&c);
                        }
                    }
                });
                self.resident -= 1;
            }
            Placement::Large => self.large.retain(|&s| s != slot),
            Placement::None => {}
        }
        self.place[slot as usize] = Placement::None;
    }

    /// Pairs of every changed proxy (see the module documentation for the
    /// dedupe rule).
    fn find_pairs(&mut self) {
        let t = &self.table;
        for &a in &t.dirty_list {
            if !t.alive(a) {
                continue;
            }
            let ba = t.aabb(a);
            match self.place[a as usize] {
                Placement::Large => t.push_pairs_with_all(a, &mut self.found),
                Placement::Cells(lo, hi) => {
                    let (cells, found, inv) = (&self.cells, &mut self.found, self.inv_cell);
                    Self::for_cells(lo, hi, |c| {
                        let Some(list) = cells.get(&c) else { return };
                        for &b in list {
                            if t.reports(a, b)
                                && t.pair_passes(a, b)
                                && cell_at(inv, ba.min.max(t.aabb(b).min)) == c
                            {
                                found.push(pair_of(t.id(a), t.id(b)));
                            }
                        }
                    });
                    for &b in &self.large {
                        t.push_pair(a, b, &mut self.found);
                    }
                }
                Placement::None => {}
            }
        }
    }

    /// Calls `f(id, user_data)` for every proxy whose box overlaps `aabb` and
    /// whose category meets `mask`, until `f` returns `false`.
    pub fn query(&self, aabb: &Aabb<V>, mask: u64, mut f: impl FnMut(ProxyId, u64) -> bool) {
        let t = &self.table;
        let Ok(q) = sanitize(*aabb) else { return };
        let hit = |slot: u32| {
            let info = &t.slots[slot as usize].info;
            info.filter.category & mask != 0 && info.aabb.overlaps(&q)
        };
        match self.placement_for(&q) {
            Placement::Cells(lo, hi) => {
                let mut go = true;
                Self::for_cells(lo, hi, |c| {
                    if !go {
                        return;
                    }
                    let Some(list) = self.cells.get(&c) else {
                        return;
                    };
                    for &b in list {
                        if hit(b)
                            && self.cell_of(q.min.max(t.aabb(b).min)) == c
                            && !f(t.id(b), t.slots[b as usize].info.user_data)
                        {
                            go = false;
                            return;
                        }
                    }
                });
                if !go {
                    return;
                }
                for &b in &self.large {
                    if hit(b) && !f(t.id(b), t.slots[b as usize].info.user_data) {
                        return;
                    }
                }
            }
            // The query spans too many cells: test every box.
            _ => t.query_all(&q, mask, f),
        }
    }

    /// Ray query (see [`BroadPhase::ray_cast`]): the large boxes are tested one
    /// by one, then the cells along the ray are walked front to back with the
    /// 3D-DDA of Amanatides and Woo, "A Fast Voxel Traversal Algorithm for Ray
    /// Tracing" (1987), within the bounds of the listed boxes. A box listed in
    /// several cells is tested once. Clipping the ray ends the walk early.
    pub fn ray_query(
        &self,
        origin: V,
        dir: V,
        max_t: f32,
        mask: u64,
        mut f: impl FnMut(ProxyId, u64, f32) -> RayControl,
    ) {
        if !ray_ok(origin, dir, max_t) {
            return;
        }
        let t = &self.table;
        let mut max_t = max_t;
        let mut test = |slot: u32, max_t: &mut f32| -> bool {
            let info = &t.slots[slot as usize].info;
            if info.filter.category & mask == 0 {
                return true;
            }
            match info.aabb.ray_interval(origin, dir, *max_t) {
                Some((hit, _)) => apply_ray_control(f(t.id(slot), info.user_data, hit), max_t),
                None => true,
            }
        };
        for &b in &self.large {
            if !test(b, &mut max_t) {
                return;
            }
        }
        let Some((t0, t1)) = self.bounds.ray_interval(origin, dir, max_t) else {
            return;
        };
        let (lo_c, hi_c) = (self.cell_of(self.bounds.min), self.cell_of(self.bounds.max));
        // Cells along the segment, to choose between walking and testing all.
        let mut cell = self.cell_of(origin + dir * t0);
        let end = self.cell_of(origin + dir * t1);
        let mut walk = 1u64;
        for i in 0..V::DIM {
            cell[i] = cell[i].clamp(lo_c[i], hi_c[i]);
            walk += (end[i] as i64 - cell[i] as i64).unsigned_abs();
        }
        let exact = (0..V::DIM).all(|i| lo_c[i] > -CELL_COORD_EXACT && hi_c[i] < CELL_COORD_EXACT);
        if !exact || walk > 2 * self.resident as u64 + 64 {
            for b in t.live() {
                if matches!(self.place[b as usize], Placement::Cells(..)) && !test(b, &mut max_t) {
                    return;
                }
            }
            return;
        }
        // DDA: t_next[i] is where the ray crosses the next cell boundary on axis
        // i, recomputed from the boundary each step so errors do not accumulate.
        let h = self.cell_size;
        let mut step = [0i32; 3];
        let mut t_next = [f32::INFINITY; 3];
        let boundary_t = |i: usize, c: i32, s: i32| -> f32 {
            let plane = (c + if s > 0 { 1 } else { 0 }) as f32 * h;
            (plane - origin.get(i)) / dir.get(i)
        };
        for i in 0..V::DIM {
            let d = dir.get(i);
            if d > 0.0 {
                step[i] = 1;
            } else if d < 0.0 {
                step[i] = -1;
            }
            if step[i] != 0 {
                t_next[i] = boundary_t(i, cell[i], step[i]);
            }
        }
        let mut seen: FxHashSet<u32> = FxHashSet::default();
        // Tests the boxes of one cell (each box once per query); `false` = stop.
        let mut visit = |c: &Cell, max_t: &mut f32| -> bool {
            if let Some(list) = self.cells.get(c) {
                for &b in list {
                    if seen.insert(b) && !test(b, max_t) {
                        return false;
                    }
                }
            }
            true
        };
        loop {
            if !visit(&cell, &mut max_t) {
                return;
            }
            let mut t_min = t_next[0];
            for &t in &t_next[1..V::DIM] {
                t_min = t_min.min(t);
            }
            // Finite inputs: no NaN here. An infinite `t_min` means a zero
            // direction: the ray never leaves its cell.
            if t_min > max_t.min(t1) || t_min == f32::INFINITY {
                return;
            }
            // Axes whose boundary the ray crosses at `t_min`. When several
            // tie, the ray passes exactly through an edge or corner of the
            // cell; boxes may touch it only there, in any of the cells
            // around that point, so those are visited too (partial steps).
            let mut ties = 0usize;
            for (i, &t) in t_next.iter().enumerate().take(V::DIM) {
                if t == t_min {
                    ties |= 1 << i;
                }
            }
            if ties.count_ones() > 1 {
                for sub in 1..ties {
                    if sub & !ties != 0 {
                        continue;
                    }
                    let mut c = cell;
                    for i in (0..V::DIM).filter(|i| sub & (1 << i) != 0) {
                        c[i] += step[i];
                    }
                    let inside = (0..V::DIM).all(|i| c[i] >= lo_c[i] && c[i] <= hi_c[i]);
                    if inside && !visit(&c, &mut max_t) {
                        return;
                    }
                }
            }
            for k in (0..V::DIM).filter(|k| ties & (1 << k) != 0) {
                cell[k] += step[k];
                if cell[k] < lo_c[k] || cell[k] > hi_c[k] {
                    return;
                }
                t_next[k] = boundary_t(k, cell[k], step[k]);
            }
        }
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
        }
        let p = self.placement_for(self.table.aabb(id.index()));
        self.list(id.index(), p);
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        let i = self.table.check(id)?;
        self.unlist(i);
        self.table.remove(id).map(|(_, info)| info.user_data)
    }

    fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        _displacement: V,
    ) -> Result<(), BroadPhaseError> {
        let i = self.table.set_aabb(id, aabb)?;
        let aabb = *self.table.aabb(i);
        let p = self.placement_for(&aabb);
        if p != self.place[i as usize] {
            self.unlist(i);
            self.list(i, p);
        } else if matches!(p, Placement::Cells(..)) {
            self.bounds = self.bounds.merged(&aabb);
        }
        Ok(())
    }

    shared_broad_phase_methods!();
}
