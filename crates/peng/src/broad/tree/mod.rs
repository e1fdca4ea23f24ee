//! A dynamic AABB tree (bounding volume hierarchy) of fattened boxes.
//!
//! Learned from Box2D v3's `dynamic_tree.c` and Erin Catto, "Dynamic Bounding
//! Volume Hierarchies", GDC 2019; written anew here:
//!
//! - nodes live in one `Vec`, addressed by `u32` index; free nodes form a list
//!   threaded through their `parent` field;
//! - each leaf holds a *fat* box (the proxy's box grown by a margin and stretched
//!   along the displacement hint), so small motions do not touch the tree;
//! - a new leaf goes next to the sibling that minimises the surface area
//!   heuristic (SAH) cost, found by branch and bound (Bittner, Hapala and Havran,
//!   "Fast insertion-based optimization of bounding volume hierarchies", 2013);
//! - on the way back up, tree rotations swap a child with a grandchild (or two
//!   grandchildren) when that shrinks the summed surface area (Kopta et al.,
//!   "Fast, effective BVH updates for animated scenes", 2012, as Catto presents it);
//! - each node keeps the OR of its leaves' category bits, so filtered queries
//!   skip whole subtrees, and of their mask bits, so pair searches skip
//!   subtrees whose leaves cannot pair.
//!
//! The proxy ids are slot indices of a separate proxy table; a proxy's leaf is
//! found through `leaf_of`.

mod adjacency;
mod build;
mod pending;
mod query;
mod selfpairs;
mod stale;
mod sweep;

use crate::bound::Aabb;
use crate::math::Vector;

use super::pairs::PairTracker;
use super::proxy::{Filter, ProxyId, ProxyPair, ProxyTable};
use super::BroadPhaseError;

/// How many displacement hints ahead a fat box reaches: the fat box is
/// stretched by `STRETCH ×` the hint (Box2D v2's `b2_aabbMultiplier` is 4
/// too). A proxy moving at a steady speed then leaves its fat box every
/// fourth or fifth move instead of every move or second one, so fewer leaves
/// are refitted or reinserted and fewer neighbour lists refreshed, against
/// looser boxes (more candidates, each a cheap given-box test). Measured on
/// the moving-boxes bench at 1M boxes (speeds up to 0.2 per move, margin
/// 0.1): 1 -> 2 -> 4 cut the frame's CPU time by about 20 % per step.
const STRETCH: f32 = 4.0;

/// "No node".
pub(crate) const NULL: u32 = u32::MAX;
/// Height value marking a node on the free list.
const FREE: u16 = u16::MAX;

/// One node of the tree: what traversals read, 32 bytes in 3D (24 in 2D).
/// A leaf has `child1 == NULL` and keeps its proxy slot in `child2`. The rest
/// of a node's data is in [`Meta`], at the same index in a separate array.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node<V> {
    /// Fat box (leaf) or the union of the children's boxes (internal).
    pub aabb: Aabb<V>,
    /// First child, `NULL` for a leaf.
    pub child1: u32,
    /// Second child, or the proxy slot of a leaf.
    pub child2: u32,
}

/// The links of a node, which pair traversals do not read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Meta {
    /// Parent node, or the next free node when on the free list.
    pub parent: u32,
    /// 0 for a leaf, 1 + the children's maximum otherwise; `FREE` when free.
    pub height: u16,
}

impl Meta {
    /// A fresh node's data: no parent, height 0.
    pub(crate) const BLANK: Meta = Meta {
        parent: NULL,
        height: 0,
    };
}

/// A node's filter bits: its leaf's, or the OR over its subtree. No two
/// leaves of subtrees `x`, `y` pair unless `x`'s category meets `y`'s mask
/// and the other way round. (Apart from [`Meta`], so that the walks up the
/// parent links read 8 bytes a node.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bits {
    /// Category bits.
    pub category: u64,
    /// Mask bits.
    pub mask: u64,
}

impl Bits {
    /// No bit (a fresh node).
    pub(crate) const NONE: Bits = Bits {
        category: 0,
        mask: 0,
    };

    /// The bits of a proxy's filter.
    #[inline]
    pub(crate) fn of(f: Filter) -> Bits {
        Bits {
            category: f.category,
            mask: f.mask,
        }
    }

    /// The union of two nodes' bits.
    #[inline]
    pub(crate) fn union(self, o: Bits) -> Bits {
        Bits {
            category: self.category | o.category,
            mask: self.mask | o.mask,
        }
    }
}

/// A leaf's proxy box and id, kept by node index (see `DynamicTree::recs`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LeafRec<V> {
    /// The proxy's box as last given.
    pub aabb: Aabb<V>,
    /// The proxy's id.
    pub id: ProxyId,
}

impl<V: Vector> Node<V> {
    #[inline]
    pub(crate) fn is_leaf(&self) -> bool {
        self.child1 == NULL
    }
}

/// The SAH weight of a box: its perimeter (2D) or surface area (3D), i.e.
/// [`Aabb::boundary_measure`] written out for the two dimensions so it inlines
/// into the tree's inner loops. Tree boxes are never empty, so the empty-box
/// check is skipped.
#[inline(always)]
pub(crate) fn sah_area<V: Vector>(b: &Aabb<V>) -> f32 {
    let s = b.max - b.min;
    let (x, y) = (s.get(0), s.get(1));
    if V::DIM == 2 {
        2.0 * (x + y)
    } else {
        let z = s.get(2);
        2.0 * (x * y + y * z + z * x)
    }
}

/// Closed-box overlap without short-circuits: the six (four in 2D) bound
/// comparisons are combined with `&`, so the traversals' inner loops test
/// a node pair without a branch per axis (about half of the tested pairs
/// overlap, so per-axis branches mispredict often).
#[inline(always)]
pub(crate) fn overlap<V: Vector>(a: &Aabb<V>, b: &Aabb<V>) -> bool {
    let mut r = true;
    for i in 0..V::DIM {
        r &= (a.min.get(i) <= b.max.get(i)) & (b.min.get(i) <= a.max.get(i));
    }
    r
}

/// Shape figures of a [`DynamicTree`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeStats {
    /// Number of leaves (live proxies).
    pub leaves: usize,
    /// Number of nodes in use (leaves and internal).
    pub nodes: usize,
    /// Height of the root (0 for a single leaf, 0 for the empty tree).
    pub height: usize,
    /// SAH cost of the tree: the summed boundary measure of the internal nodes
    /// divided by the root's (lower is better; compare trees of the same boxes).
    pub sah_cost: f32,
}

/// A dynamic AABB tree (bounding volume hierarchy) of fattened boxes.
///
/// Learned from Box2D v3's `dynamic_tree.c` and Erin Catto, "Dynamic Bounding
/// Volume Hierarchies", GDC 2019; written anew here:
///
/// - nodes live in one `Vec`, addressed by `u32` index; free nodes form a list
///   threaded through their `parent` field;
/// - each leaf holds a *fat* box (the proxy's box grown by a margin and stretched
///   along the displacement hint), so small motions do not touch the tree;
/// - a new leaf goes next to the sibling that minimises the surface area
///   heuristic (SAH) cost, found by branch and bound (Bittner, Hapala and Havran,
///   "Fast insertion-based optimization of bounding volume hierarchies", 2013);
/// - on the way back up, tree rotations swap a child with a grandchild (or two
///   grandchildren) when that shrinks the summed surface area (Kopta et al.,
///   "Fast, effective BVH updates for animated scenes", 2012, as Catto presents it);
/// - each node keeps the OR of its leaves' category bits, so filtered queries
///   skip whole subtrees, and of their mask bits, so pair searches skip
///   subtrees whose leaves cannot pair.
///
/// ```
/// use peng::bound::Aabb2;
/// use peng::broad::{BroadPhase, DynamicTree, Filter};
/// use peng::math::Vec2;
///
/// let mut tree = DynamicTree::new();
/// let a = tree.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE), 7, Filter::ALL).unwrap();
/// let b = tree.insert(Aabb2::new(Vec2::ONE, Vec2::splat(2.0)), 8, Filter::ALL).unwrap();
/// tree.update_pairs();
/// assert_eq!(tree.pairs().len(), 1); // touching boxes overlap
/// tree.remove(a).unwrap();
/// assert!(tree.remove(a).is_err()); // the id is stale now
/// # let _ = b;
/// ```
#[derive(Debug, Clone)]
pub struct DynamicTree<V> {
    pub(crate) nodes: Vec<Node<V>>,
    /// Per node: parent and height.
    pub(crate) meta: Vec<Meta>,
    /// Per node: filter bits.
    pub(crate) bits: Vec<Bits>,
    pub(crate) root: u32,
    free_node: u32,
    pub(crate) node_count: usize,
    pub(crate) table: ProxyTable<V>,
    /// Proxy slot -> leaf node.
    pub(crate) leaf_of: Vec<u32>,
    margin: f32,
    pub(crate) tracker: PairTracker,
    pub(crate) found: Vec<ProxyPair>,
    stack: Vec<(u32, f32)>,
    /// Per node: a changed leaf below it (scratch of the self traversal).
    moved: Vec<bool>,
    /// Node pairs still to visit (scratch of the self traversal).
    pair_stack: Vec<(u32, u32)>,
    /// Nodes whose own pairs are still to visit (scratch of the self traversal).
    self_stack: Vec<u32>,
    /// Proxy slots whose leaf left its fat box since the last update and was
    /// only grown in place (see `stale.rs`); may hold duplicates and removed
    /// slots, filtered by `is_stale`.
    stale: Vec<u32>,
    /// Per proxy slot: listed in `stale` and still to be handled.
    is_stale: Vec<bool>,
    /// Stale leaves refitted in place since the last rebuild.
    drift: usize,
    /// Proxy slots inserted since the last update whose leaves are not linked
    /// into the tree yet (see `pending.rs`).
    pub(crate) pending: Vec<u32>,
    /// Per proxy slot: its position in `pending`, or `NULL`.
    pending_pos: Vec<u32>,
    /// Per node index: for a leaf, its proxy's given box and id (the pair
    /// test of the self traversal reads these next to the nodes instead of
    /// the proxy table); meaningless for other nodes.
    pub(crate) recs: Vec<LeafRec<V>>,
    /// Live proxies whose filter is not [`Filter::ALL`] (when 0, pair tests
    /// skip the filter).
    filtered: usize,
    /// Per proxy slot: its fat neighbours (see `adjacency.rs`), while `adj_on`.
    adj: Vec<Vec<u32>>,
    /// Whether `adj` is kept.
    adj_on: bool,
    /// Per proxy slot: in the batch being refreshed (scratch of `adjacency.rs`).
    in_batch: Vec<bool>,
    /// Slots whose neighbour lists need refreshing (scratch of the update).
    batch: Vec<u32>,
    /// Every node's parent has a smaller index (true after a rebuild until the
    /// next node allocation; removals keep it, since a removed leaf's sibling
    /// moves up to its grandparent, whose index is smaller still).
    pub(crate) parents_first: bool,
    /// The sort and sweep's arrays (see `sweep.rs`).
    sweep: sweep::SweepScratch<V>,
}

impl<V: Vector> Default for DynamicTree<V> {
    fn default() -> Self {
        Self::with_margin(Self::DEFAULT_MARGIN)
    }
}

impl<V: Vector> DynamicTree<V> {
    /// Margin added on every side of a leaf's box by default (Box2D's
    /// `B2_AABB_MARGIN` is also 0.1 length units).
    pub const DEFAULT_MARGIN: f32 = 0.1;

    /// An empty tree with the default margin.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty tree whose leaves are fattened by `margin` (negative or NaN is
    /// taken as zero). A larger margin means fewer reinsertions of moving proxies
    /// but looser boxes.
    pub fn with_margin(margin: f32) -> Self {
        DynamicTree {
            nodes: Vec::new(),
            meta: Vec::new(),
            bits: Vec::new(),
            root: NULL,
            free_node: NULL,
            node_count: 0,
            table: ProxyTable::default(),
            leaf_of: Vec::new(),
            margin: if margin > 0.0 { margin } else { 0.0 },
            tracker: PairTracker::default(),
            found: Vec::new(),
            stack: Vec::new(),
            moved: Vec::new(),
            pair_stack: Vec::new(),
            self_stack: Vec::new(),
            stale: Vec::new(),
            is_stale: Vec::new(),
            drift: 0,
            pending: Vec::new(),
            pending_pos: Vec::new(),
            recs: Vec::new(),
            filtered: 0,
            adj: Vec::new(),
            adj_on: false,
            in_batch: Vec::new(),
            batch: Vec::new(),
            parents_first: false,
            sweep: sweep::SweepScratch::default(),
        }
    }

    /// The margin leaves are fattened by.
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// The fat box the tree keeps for a proxy (holds its given box).
    pub fn fat_aabb(&self, id: ProxyId) -> Option<Aabb<V>> {
        let i = self.table.check(id).ok()?;
        Some(self.nodes[self.leaf_of[i as usize] as usize].aabb)
    }

    /// Height, node count and SAH cost.
    pub fn stats(&self) -> TreeStats {
        let mut sum = 0.0f64;
        for (n, m) in self.nodes.iter().zip(&self.meta) {
            if m.height != FREE && !n.is_leaf() {
                sum += n.aabb.boundary_measure() as f64;
            }
        }
        let (height, root_area) = if self.root == NULL {
            (0, 0.0)
        } else {
            let r = &self.nodes[self.root as usize];
            (
                self.meta[self.root as usize].height as usize,
                r.aabb.boundary_measure() as f64,
            )
        };
        TreeStats {
            leaves: self.table.len(),
            nodes: self.node_count,
            height,
            sah_cost: if root_area > 0.0 {
                (sum / root_area) as f32
            } else {
                0.0
            },
        }
    }

    /// The fat box for a given box and displacement hint: grown by the margin,
    /// then stretched along the hint (Box2D v2's `b2DynamicTree::MoveProxy`).
    fn fatten(&self, aabb: &Aabb<V>, displacement: V) -> Aabb<V> {
        let mut fat = aabb.loosened(self.margin);
        if displacement.is_finite() {
            for i in 0..V::DIM {
                let d = displacement.get(i) * STRETCH;
                if d < 0.0 {
                    fat.min.set(i, fat.min.get(i) + d);
                } else {
                    fat.max.set(i, fat.max.get(i) + d);
                }
            }
        }
        fat
    }

    pub(crate) fn allocate_node(&mut self) -> u32 {
        self.parents_first = false;
        self.node_count += 1;
        let blank = Node {
            aabb: Aabb::EMPTY,
            child1: NULL,
            child2: NULL,
        };
        if self.free_node != NULL {
            let i = self.free_node;
            self.free_node = self.meta[i as usize].parent;
            self.nodes[i as usize] = blank;
            self.meta[i as usize] = Meta::BLANK;
            self.bits[i as usize] = Bits::NONE;
            i
        } else {
            self.nodes.push(blank);
            self.meta.push(Meta::BLANK);
            self.bits.push(Bits::NONE);
            (self.nodes.len() - 1) as u32
        }
    }

    /// Forgets the free list (a rebuild makes a new node array).
    pub(crate) fn reset_free_list(&mut self) {
        self.free_node = NULL;
    }

    pub(crate) fn free_node(&mut self, i: u32) {
        let n = &mut self.nodes[i as usize];
        n.child1 = NULL;
        n.child2 = NULL;
        let m = &mut self.meta[i as usize];
        m.parent = self.free_node;
        m.height = FREE;
        self.free_node = i;
        self.node_count -= 1;
    }

    /// Recomputes an internal node's box, category and height from its children.
    #[inline]
    pub(crate) fn refit_node(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let (c1, c2) = (n.child1 as usize, n.child2 as usize);
        let aabb = self.nodes[c1].aabb.merged(&self.nodes[c2].aabb);
        let height = 1 + self.meta[c1].height.max(self.meta[c2].height);
        self.nodes[i as usize].aabb = aabb;
        self.bits[i as usize] = self.bits[c1].union(self.bits[c2]);
        self.meta[i as usize].height = height;
    }

    /// The sibling for a new leaf with box `d` that minimises the SAH cost
    /// increase, by branch and bound (Bittner et al. 2013; Catto GDC 2019).
    ///
    /// Making `s` the sibling creates a parent with box `s ∪ d` and enlarges every
    /// ancestor `a` of `s` to `a ∪ d`. With `A(·)` the boundary measure, the cost
    /// is `C(s) = A(s ∪ d) + Σ_a [A(a ∪ d) − A(a)]` (the inherited cost). Any
    /// node below `s` costs at least `A(d) + Σ_a [...] + A(s ∪ d) − A(s)`, since
    /// its own union is at least `A(d)`; subtrees whose bound is no better than
    /// the best cost so far are pruned. Children are visited cheapest first.
    ///
    /// Notes from measuring 100k MSVC-vector boxes (3D, dev profile, 2026-11):
    /// this depth-first order visits about 90 nodes per insertion; pushing the
    /// children unordered visited 245 and was twice as slow; a best-first heap
    /// on the lower bound visited 62 but was slower still (heap upkeep). Writing
    /// the surface area out ([`sah_area`]) instead of the generic
    /// `boundary_measure` halved the insertion time. The result matches the
    /// binned-SAH rebuild: SAH cost 367 incremental against 383 rebuilt.
    fn find_best_sibling(&mut self, d: &Aabb<V>) -> u32 {
        let area_d = sah_area(d);
        let mut best = self.root;
        let mut best_cost = f32::INFINITY;
        let mut stack = core::mem::take(&mut self.stack);
        stack.clear();
        stack.push((self.root, 0.0));
        while let Some((s, inherited)) = stack.pop() {
            if area_d + inherited >= best_cost {
                continue;
            }
            let n = &self.nodes[s as usize];
            let union_area = sah_area(&n.aabb.merged(d));
            let cost = union_area + inherited;
            if cost < best_cost {
                best_cost = cost;
                best = s;
            }
            if n.is_leaf() {
                continue;
            }
            let child_inherited = inherited + (union_area - sah_area(&n.aabb));
            if area_d + child_inherited >= best_cost {
                continue;
            }
            let (c1, c2) = (n.child1, n.child2);
            // Push the child whose union grows less last, so it is popped first.
            let (b1, b2) = (&self.nodes[c1 as usize].aabb, &self.nodes[c2 as usize].aabb);
            let g1 = sah_area(&b1.merged(d)) - sah_area(b1);
            let g2 = sah_area(&b2.merged(d)) - sah_area(b2);
            if g1 <= g2 {
                stack.push((c2, child_inherited));
                stack.push((c1, child_inherited));
            } else {
                stack.push((c1, child_inherited));
                stack.push((c2, child_inherited));
            }
        }
        self.stack = stack;
        best
    }

    /// Links leaf `leaf` (box already set) into the tree.
    pub(crate) fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.meta[leaf as usize].parent = NULL;
            return;
        }
        let d = self.nodes[leaf as usize].aabb;
        let sibling = self.find_best_sibling(&d);
        let old_parent = self.meta[sibling as usize].parent;
        let new_parent = self.allocate_node();
        {
            let (s, l) = (sibling as usize, leaf as usize);
            let aabb = self.nodes[s].aabb.merged(&self.nodes[l].aabb);
            let p = &mut self.nodes[new_parent as usize];
            p.child1 = sibling;
            p.child2 = leaf;
            p.aabb = aabb;
            let m = Meta {
                parent: old_parent,
                height: self.meta[s].height + 1,
            };
            self.meta[new_parent as usize] = m;
            self.bits[new_parent as usize] = self.bits[s].union(self.bits[l]);
        }
        if old_parent == NULL {
            self.root = new_parent;
        } else {
            self.replace_child(old_parent, sibling, new_parent);
        }
        self.meta[sibling as usize].parent = new_parent;
        self.meta[leaf as usize].parent = new_parent;

        // Walk back up: refit, then try a rotation at each ancestor.
        let mut i = new_parent;
        while i != NULL {
            self.refit_node(i);
            self.rotate(i);
            i = self.meta[i as usize].parent;
        }
    }

    /// Unlinks leaf `leaf` from the tree (the node stays allocated).
    pub(crate) fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.meta[leaf as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        let grand = self.meta[parent as usize].parent;
        self.free_node(parent);
        self.meta[sibling as usize].parent = grand;
        if grand == NULL {
            self.root = sibling;
            return;
        }
        self.replace_child(grand, parent, sibling);
        let mut i = grand;
        while i != NULL {
            self.refit_node(i);
            i = self.meta[i as usize].parent;
        }
    }

    #[inline]
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            debug_assert_eq!(p.child2, old);
            p.child2 = new;
        }
    }

    /// Swaps two nodes that hang under different parents, neither an ancestor
    /// of the other.
    fn swap_nodes(&mut self, x: u32, y: u32) {
        let px = self.meta[x as usize].parent;
        let py = self.meta[y as usize].parent;
        self.replace_child(px, x, y);
        self.replace_child(py, y, x);
        self.meta[x as usize].parent = py;
        self.meta[y as usize].parent = px;
    }

    /// Tries the tree rotations at internal node `a` (children `b`, `c`;
    /// grandchildren `d`, `e` under `b` and `f`, `g` under `c`) and applies the
    /// one that lowers the summed boundary measure most, if any:
    ///
    /// - `b ↔ f` makes `c' = b ∪ g`: gain `A(c) − A(b ∪ g)` (and `b ↔ g`, the
    ///   mirror ones `c ↔ d`, `c ↔ e`);
    /// - `d ↔ f` makes `b' = f ∪ e`, `c' = d ∪ g`: gain
    ///   `A(b) + A(c) − A(f ∪ e) − A(d ∪ g)` (and `d ↔ g`).
    ///
    /// `a`'s own box does not change. Catto, GDC 2019, "tree rotations".
    fn rotate(&mut self, a: u32) {
        let na = self.nodes[a as usize];
        if na.is_leaf() || self.meta[a as usize].height < 2 {
            return;
        }
        let (b, c) = (na.child1, na.child2);
        let (nb, nc) = (self.nodes[b as usize], self.nodes[c as usize]);
        let area = |n: &Node<V>| sah_area(&n.aabb);
        let union = |x: &Node<V>, y: &Node<V>| sah_area(&x.aabb.merged(&y.aabb));

        // (gain, x, y): swap x and y.
        let mut best = (0.0f32, NULL, NULL);
        let mut consider = |gain: f32, x: u32, y: u32| {
            if gain > best.0 {
                best = (gain, x, y);
            }
        };
        if !nc.is_leaf() {
            let (f, g) = (nc.child1, nc.child2);
            let (nf, ng) = (self.nodes[f as usize], self.nodes[g as usize]);
            consider(area(&nc) - union(&nb, &ng), b, f);
            consider(area(&nc) - union(&nb, &nf), b, g);
        }
        if !nb.is_leaf() {
            let (d, e) = (nb.child1, nb.child2);
            let (nd, ne) = (self.nodes[d as usize], self.nodes[e as usize]);
            consider(area(&nb) - union(&nc, &ne), c, d);
            consider(area(&nb) - union(&nc, &nd), c, e);
            if !nc.is_leaf() {
                let (f, g) = (nc.child1, nc.child2);
                let (nf, ng) = (self.nodes[f as usize], self.nodes[g as usize]);
                let before = area(&nb) + area(&nc);
                consider(before - union(&nf, &ne) - union(&nd, &ng), d, f);
                consider(before - union(&ng, &ne) - union(&nf, &nd), d, g);
            }
        }
        let (gain, x, y) = best;
        // A relative threshold keeps rounding noise from swapping back and forth.
        if x == NULL || gain <= 1.0e-6 * area(&na) {
            return;
        }
        let (px, py) = (self.meta[x as usize].parent, self.meta[y as usize].parent);
        self.swap_nodes(x, y);
        // Refit the changed parents below `a` (deeper first), then `a`.
        for p in [py, px] {
            if p != a {
                self.refit_node(p);
            }
        }
        self.refit_node(a);
    }

    /// Inserts a proxy; see [`BroadPhase::insert`](super::BroadPhase::insert).
    pub(crate) fn insert_proxy(
        &mut self,
        aabb: Aabb<V>,
        user_data: u64,
        filter: Filter,
    ) -> Result<ProxyId, BroadPhaseError> {
        let id = self.table.insert_checked(aabb, user_data, filter)?;
        let leaf = self.allocate_node();
        {
            let fat = self.fatten(self.table.aabb(id.index()), V::ZERO);
            let n = &mut self.nodes[leaf as usize];
            n.aabb = fat;
            n.child2 = id.index();
            self.bits[leaf as usize] = Bits::of(filter);
        }
        let slot = id.index() as usize;
        if self.leaf_of.len() <= slot {
            self.leaf_of.resize(slot + 1, NULL);
        }
        self.leaf_of[slot] = leaf;
        let rec = LeafRec {
            aabb: *self.table.aabb(id.index()),
            id,
        };
        if self.recs.len() <= leaf as usize {
            // Filler for nodes that are not leaves: never read.
            self.recs.resize(leaf as usize + 1, rec);
        }
        self.recs[leaf as usize] = rec;
        if filter != Filter::ALL {
            self.filtered += 1;
        }
        self.defer_leaf(id.index());
        Ok(id)
    }

    /// Removes a proxy; see [`BroadPhase::remove`](super::BroadPhase::remove).
    pub(crate) fn remove_proxy(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        let (i, info) = self.table.remove(id)?;
        if let Some(f) = self.is_stale.get_mut(i as usize) {
            *f = false;
        }
        if info.filter != Filter::ALL {
            self.filtered -= 1;
        }
        if self.adj_on {
            self.unlink_adjacency(i);
        }
        let leaf = self.leaf_of[i as usize];
        if !self.undefer_leaf(i) {
            self.remove_leaf(leaf);
        }
        self.free_node(leaf);
        self.leaf_of[i as usize] = NULL;
        Ok(info.user_data)
    }

    /// Changes a proxy's filter; its pairs are found again at the next pair
    /// update (it counts as moved).
    pub fn set_filter(&mut self, id: ProxyId, filter: Filter) -> Result<(), BroadPhaseError> {
        let i = self.table.check(id)?;
        let old = self.table.slots[i as usize].info.filter;
        if old == filter {
            return Ok(());
        }
        self.table.slots[i as usize].info.filter = filter;
        self.table.mark(i);
        // The neighbour lists hold only neighbours whose filters pair.
        self.drop_adjacency();
        match (old == Filter::ALL, filter == Filter::ALL) {
            (true, false) => self.filtered += 1,
            (false, true) => self.filtered -= 1,
            _ => {}
        }
        // The leaf's bits, and the unions above it.
        let leaf = self.leaf_of[i as usize];
        self.bits[leaf as usize] = Bits::of(filter);
        let mut n = self.meta[leaf as usize].parent;
        while n != NULL {
            let node = &self.nodes[n as usize];
            self.bits[n as usize] =
                self.bits[node.child1 as usize].union(self.bits[node.child2 as usize]);
            n = self.meta[n as usize].parent;
        }
        Ok(())
    }

    /// Moves a proxy; the leaf is reinserted only when the new box leaves the
    /// fat box, or when the fat box has become much larger than needed (Box2D
    /// v2's "huge box" test: a proxy that moved fast and then stopped).
    pub(crate) fn move_proxy_inner(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        displacement: V,
    ) -> Result<(), BroadPhaseError> {
        let i = self.table.set_aabb(id, aabb)?;
        let aabb = *self.table.aabb(i);
        let leaf = self.leaf_of[i as usize];
        self.recs[leaf as usize].aabb = aabb;
        let old = self.nodes[leaf as usize].aabb;
        let fat = self.fatten(&aabb, displacement);
        if old.contains(&aabb) && fat.loosened(4.0 * self.margin).contains(&old) {
            return Ok(());
        }
        if self.is_pending(i) {
            // Not linked yet: only the leaf's own box changes.
            self.nodes[leaf as usize].aabb = fat;
            return Ok(());
        }
        // The leaf takes its new fat box at once, and its ancestors grow to hold
        // it, so the tree stays valid for queries; where the leaf belongs is
        // decided at the next update, for all such leaves together.
        self.grow_in_place(leaf, fat);
        self.mark_stale(i);
        Ok(())
    }

    /// Checks the tree's invariants (parent links, boxes holding their children
    /// and leaves holding their proxies' boxes, category unions, heights, node
    /// count, free list). For tests; `O(n)`.
    // Hidden: a test hook for peng's integration tests (broad_*, mesh_bvh, world_events).
    #[doc(hidden)]
    pub fn check_invariants(&self) -> Result<(), &'static str> {
        let mut seen = 0usize;
        let mut leaves = 0usize;
        if self.root != NULL {
            if self.meta[self.root as usize].parent != NULL {
                return Err("root has a parent");
            }
            let mut stack = vec![self.root];
            while let Some(i) = stack.pop() {
                seen += 1;
                let n = &self.nodes[i as usize];
                let m = &self.meta[i as usize];
                if m.height == FREE {
                    return Err("free node reachable");
                }
                if n.is_leaf() {
                    leaves += 1;
                    let slot = n.child2;
                    if !self.table.alive(slot) || self.leaf_of[slot as usize] != i {
                        return Err("leaf/proxy link broken");
                    }
                    if !n.aabb.contains(self.table.aabb(slot)) {
                        return Err("fat box does not hold the proxy box");
                    }
                    let r = &self.recs[i as usize];
                    if r.aabb != *self.table.aabb(slot) || r.id != self.table.id(slot) {
                        return Err("leaf record stale");
                    }
                    let filter = self.table.slots[slot as usize].info.filter;
                    if self.bits[i as usize] != Bits::of(filter) {
                        return Err("leaf category or mask wrong");
                    }
                    if m.height != 0 {
                        return Err("leaf height not 0");
                    }
                    continue;
                }
                for c in [n.child1, n.child2] {
                    let nc = &self.nodes[c as usize];
                    if self.meta[c as usize].parent != i {
                        return Err("child's parent link wrong");
                    }
                    if !n.aabb.contains(&nc.aabb) {
                        return Err("node box does not hold child box");
                    }
                    stack.push(c);
                }
                let (b1, b2) = (self.bits[n.child1 as usize], self.bits[n.child2 as usize]);
                if self.bits[i as usize] != b1.union(b2) {
                    return Err("category or mask union wrong");
                }
                let (c1, c2) = (&self.meta[n.child1 as usize], &self.meta[n.child2 as usize]);
                if m.height != 1 + c1.height.max(c2.height) {
                    return Err("height wrong");
                }
            }
        }
        for (k, &s) in self.pending.iter().enumerate() {
            if !self.table.alive(s) || self.pending_pos[s as usize] != k as u32 {
                return Err("pending list broken");
            }
            let l = &self.nodes[self.leaf_of[s as usize] as usize];
            let lm = &self.meta[self.leaf_of[s as usize] as usize];
            if !l.is_leaf() || lm.parent != NULL || l.child2 != s {
                return Err("pending leaf linked");
            }
            if !l.aabb.contains(self.table.aabb(s)) {
                return Err("fat box does not hold the proxy box");
            }
            seen += 1;
            leaves += 1;
        }
        if self.adj_on {
            // Neighbour lists: symmetric, and every fat-overlapping leaf
            // whose filter pairs listed.
            let mut stack = Vec::new();
            // Pending proxies get their lists when linked at the update.
            for a in self.table.live().filter(|&a| !self.is_pending(a)) {
                let l = self.adj.get(a as usize).map_or(&[][..], |v| &v[..]);
                for &b in l {
                    if !self.table.alive(b) || !self.adj[b as usize].contains(&a) {
                        return Err("neighbour lists not symmetric");
                    }
                }
                let fat = self.nodes[self.leaf_of[a as usize] as usize].aabb;
                let mut ok = true;
                let filter = &self.table.slots[a as usize].info.filter;
                self.query_leaves(&fat, u64::MAX, &mut stack, |b, _| {
                    let pairs = filter.pairs_with(&self.table.slots[b as usize].info.filter);
                    ok &= b == a || self.is_pending(b) || !pairs || l.contains(&b);
                    ok
                });
                if !ok {
                    return Err("fat neighbour missing from the lists");
                }
            }
        }
        if seen != self.node_count {
            return Err("node count mismatch");
        }
        if leaves != self.table.len() {
            return Err("leaf count mismatch");
        }
        let mut free = 0usize;
        let mut f = self.free_node;
        while f != NULL {
            free += 1;
            if free > self.nodes.len() {
                return Err("free list cycles");
            }
            f = self.meta[f as usize].parent;
        }
        if free + self.node_count != self.nodes.len() {
            return Err("free list length mismatch");
        }
        Ok(())
    }
}
