//! Box and ray queries, pair finding, and the [`BroadPhase`] implementation of
//! [`LooseTree`].

use crate::bound::Aabb;
use crate::math::Vector;

use super::super::proxy::{sanitize, Filter, ProxyId};
use super::super::{apply_ray_control, ray_ok, BroadPhase, BroadPhaseError, RayControl};
use super::{LooseTree, NONE, OVERFLOW};

impl<V: Vector> LooseTree<V> {
    /// Calls `f(slot)` for every slot whose box overlaps `q` (closed): those
    /// in the nodes whose loose boxes overlap `q`, then those of the overflow
    /// list, until `f` returns `false` (then returns `false`).
    fn visit_boxes(
        &self,
        q: &Aabb<V>,
        stack: &mut Vec<u32>,
        mut f: impl FnMut(u32) -> bool,
    ) -> bool {
        stack.clear();
        if self.root != NONE {
            stack.push(self.root);
        }
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if !node.bound.overlaps(q) {
                continue;
            }
            for (&s, b) in node.objects.iter().zip(&node.boxes) {
                if b.overlaps(q) && !f(s) {
                    return false;
                }
            }
            if node.child_count > 0 {
                stack.extend(node.children[..1 << V::DIM].iter().filter(|&&c| c != NONE));
            }
        }
        self.overflow
            .iter()
            .all(|&s| !self.table.aabb(s).overlaps(q) || f(s))
    }

    /// Pairs of every changed proxy: a box query from the root for each (an
    /// overflow proxy is tested against everything).
    pub(super) fn find_pairs(&mut self) {
        let mut stack = core::mem::take(&mut self.stack);
        let mut found = core::mem::take(&mut self.found);
        let t = &self.table;
        for &a in &t.dirty_list {
            if !t.alive(a) {
                continue;
            }
            if self.place[a as usize].node == OVERFLOW {
                t.push_pairs_with_all(a, &mut found);
                continue;
            }
            let q = *t.aabb(a);
            self.visit_boxes(&q, &mut stack, |b| {
                t.push_pair(a, b, &mut found);
                true
            });
        }
        self.stack = stack;
        self.found = found;
    }

    /// Calls `f(id, user_data)` for every proxy whose box overlaps `aabb` and
    /// whose category meets `mask`, until `f` returns `false`.
    pub fn query(&self, aabb: &Aabb<V>, mask: u64, mut f: impl FnMut(ProxyId, u64) -> bool) {
        let Ok(q) = sanitize(*aabb) else { return };
        let t = &self.table;
        let mut stack = Vec::new();
        self.visit_boxes(&q, &mut stack, |s| {
            let info = &t.slots[s as usize].info;
            if info.filter.category & mask != 0 {
                f(t.id(s), info.user_data)
            } else {
                true
            }
        });
    }

    /// Ray query (see [`BroadPhase::ray_cast`]): the overflow proxies one by
    /// one, then the nodes whose loose boxes the (possibly clipped) ray meets,
    /// depth first.
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
        let mut test = |s: u32, max_t: &mut f32| -> bool {
            let info = &t.slots[s as usize].info;
            if info.filter.category & mask == 0 {
                return true;
            }
            match info.aabb.ray_interval(origin, dir, *max_t) {
                Some((hit, _)) => apply_ray_control(f(t.id(s), info.user_data, hit), max_t),
                None => true,
            }
        };
        for &s in &self.overflow {
            if !test(s, &mut max_t) {
                return;
            }
        }
        let mut stack = Vec::new();
        if self.root != NONE {
            stack.push(self.root);
        }
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            // Tested when popped, so a ray clipped meanwhile skips the node.
            if node.bound.ray_interval(origin, dir, max_t).is_none() {
                continue;
            }
            for &s in &node.objects {
                if !test(s, &mut max_t) {
                    return;
                }
            }
            if node.child_count > 0 {
                stack.extend(node.children[..1 << V::DIM].iter().filter(|&&c| c != NONE));
            }
        }
    }
}

impl<V: Vector> BroadPhase<V> for LooseTree<V> {
    fn insert(
        &mut self,
        aabb: Aabb<V>,
        user_data: u64,
        filter: Filter,
    ) -> Result<ProxyId, BroadPhaseError> {
        let id = self.table.insert_checked(aabb, user_data, filter)?;
        self.ensure_slot(id.index());
        self.place_slot(id.index());
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        let i = self.table.check(id)?;
        self.unplace_slot(i);
        self.table.remove(id).map(|(_, info)| info.user_data)
    }

    fn set_filter(&mut self, id: ProxyId, filter: Filter) -> Result<(), BroadPhaseError> {
        self.table.set_filter(id, filter).map(|_| ())
    }

    fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        _displacement: V,
    ) -> Result<(), BroadPhaseError> {
        let i = self.table.set_aabb(id, aabb)?;
        let b = *self.table.aabb(i);
        if !self.stay(i, &b) {
            self.unplace_slot(i);
            self.place_slot(i);
        }
        Ok(())
    }

    shared_broad_phase_methods!();
}
