//! Box and ray queries of the spatial hash.
//!
//! The cell table holds the boxes as of the last pair update. Proxies changed
//! since then are skipped in the cells and tested one by one from the proxy
//! table, so queries always see the boxes as last given.

use crate::bound::Aabb;
use crate::math::Vector;

use super::super::hash::FxHashSet;
use super::super::proxy::{sanitize, ProxyId};
use super::super::{apply_ray_control, ray_ok, RayControl};
use super::table::Cell;
use super::{for_cells, Placement, SpatialHash};

/// Cell coordinates beyond this magnitude are not exact multiples in f32; ray
/// traversal falls back to testing every box when the grid reaches them.
const CELL_COORD_EXACT: i32 = 1 << 22;

impl<V: Vector> SpatialHash<V> {
    /// Calls `f(id, user_data)` for every proxy whose box overlaps `aabb` and
    /// whose category meets `mask`, until `f` returns `false`.
    pub fn query(&self, aabb: &Aabb<V>, mask: u64, mut f: impl FnMut(ProxyId, u64) -> bool) {
        let t = &self.table;
        let Ok(q) = sanitize(*aabb) else { return };
        // Whether some proxy changed since the last pair update: its listing
        // may be stale, so it is tested on its own.
        let pending = !t.dirty_list.is_empty();
        let hit = |slot: u32| {
            let info = &t.slots[slot as usize].info;
            info.filter.category & mask != 0 && info.aabb.overlaps(&q)
        };
        match self.placement_for(&q) {
            Placement::Cells(lo, hi) => {
                let mut go = true;
                for_cells(lo, hi, |c| {
                    if !go {
                        return;
                    }
                    go = self.cells.for_cell(c, |i, r| {
                        let b = r.slot;
                        // Reported from the cell of the intersection's lower
                        // corner only, once (see `Record` on fingerprints).
                        if (pending && self.is_dirty(b))
                            || !r.aabb.overlaps(&q)
                            || self.cell_of(q.min.max(r.aabb.min)) != c
                            || self.cells.listed_earlier(i)
                        {
                            return true;
                        }
                        let info = &t.slots[b as usize].info;
                        info.filter.category & mask == 0 || f(t.id(b), info.user_data)
                    });
                });
                if !go {
                    return;
                }
                for &b in &self.large {
                    if !(pending && self.is_dirty(b))
                        && hit(b)
                        && !f(t.id(b), t.slots[b as usize].info.user_data)
                    {
                        return;
                    }
                }
                for &b in &t.dirty_list {
                    if t.alive(b) && hit(b) && !f(t.id(b), t.slots[b as usize].info.user_data) {
                        return;
                    }
                }
            }
            // The query spans too many cells: test every box.
            _ => t.query_all(&q, mask, f),
        }
    }

    /// Ray query (see [`BroadPhase::ray_cast`](super::super::BroadPhase::ray_cast)):
    /// the large boxes and the proxies changed since the last pair update are
    /// tested one by one, then the cells along the ray are walked front to
    /// back with the 3D-DDA of Amanatides and Woo, "A Fast Voxel Traversal
    /// Algorithm for Ray Tracing" (1987), within the bounds of the listed
    /// boxes. A box listed in several cells is tested once. Clipping the ray
    /// ends the walk early.
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
        let pending = !t.dirty_list.is_empty();
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
            if pending && self.is_dirty(b) {
                continue;
            }
            if !test(b, &mut max_t) {
                return;
            }
        }
        for &b in &t.dirty_list {
            if t.alive(b) && !test(b, &mut max_t) {
                return;
            }
        }
        // Listed in cells and current (changed proxies were tested above).
        let listed = |b: u32| {
            !(pending && self.is_dirty(b)) && matches!(self.place[b as usize], Placement::Cells(..))
        };
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
                if listed(b) && !test(b, &mut max_t) {
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
            self.cells.for_cell(*c, |_, r| {
                let b = r.slot;
                !listed(b) || !seen.insert(b) || test(b, max_t)
            })
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
