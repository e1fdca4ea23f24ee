//! Pair finding by one traversal of the tree against itself, for updates where
//! many proxies changed.
//!
//! Every overlapping pair of leaves is found exactly once by walking the tree
//! against itself: at each internal node, the pairs inside each child's
//! subtree (recursively) plus the pairs between the two children's subtrees
//! (a simultaneous descent of two subtrees, Ericson, Real-Time Collision
//! Detection, 6.3.3, "descend the larger volume"). Only pairs with a changed
//! proxy are wanted, so each node carries a "moved" flag (a changed leaf
//! below it); a node without it holds no wanted pair, and two subtrees
//! without it hold no wanted pair between them (the "changed" flag of parry's
//! `traverse_bvtt_single_tree::<true>` works the same way). When every proxy
//! changed (a build from scratch), the flags are skipped altogether. One
//! traversal replaces one root-to-leaf query per changed proxy, which costs
//! more once a sizeable fraction of the proxies changed (every one of them
//! walks the top of the tree, and both ends of a pair of changed proxies find
//! it).
//!
//! Node pairs are tested for overlap before they are pushed, so the stack
//! only holds pairs that must be opened. The leaf test reads the proxies'
//! given boxes and ids from `recs`, indexed like the nodes (so after a
//! depth-first relayout the leaves of a subtree sit together in memory), and
//! skips the filter test while every live proxy has the default filter.

use crate::math::Vector;

use crate::par::*;

use super::super::pairs::pair_of;
use super::super::proxy::ProxyPair;
use super::{overlap, sah_area, Bits, DynamicTree, LeafRec, Node, NULL};

impl<V: Vector> DynamicTree<V> {
    /// Sets `moved[n]` for every node with a changed live leaf below it (and
    /// clears it for every other node).
    fn mark_moved(&mut self) {
        let moved = &mut self.moved;
        moved.clear();
        moved.resize(self.nodes.len(), false);
        for &slot in &self.table.dirty_list {
            if !self.table.alive(slot) {
                continue;
            }
            let mut i = self.leaf_of[slot as usize];
            // Walk up until the root or a node already marked (its ancestors are).
            while i != NULL && !moved[i as usize] {
                moved[i as usize] = true;
                i = self.meta[i as usize].parent;
            }
        }
    }

    /// Pushes onto `found` every pair with a changed live proxy whose given
    /// boxes overlap and whose filters agree, each once, by a traversal of the
    /// tree against itself (see the module documentation).
    pub(super) fn find_pairs_self(&mut self) {
        if self.root == NULL || self.nodes[self.root as usize].is_leaf() {
            return;
        }
        let all = self.table.dirty_list.len() >= self.table.len()
            && self.table.dirty_list.iter().all(|&s| self.table.alive(s));
        let filtered = self.filtered > 0;
        if !all {
            self.mark_moved();
        }
        match (all, filtered) {
            (true, false) => self.find_self::<true, false>(),
            (true, true) => self.find_self::<true, true>(),
            (false, false) => self.find_self::<false, false>(),
            (false, true) => self.find_self::<false, true>(),
        }
    }

    /// The traversal with the given-box leaf test; `ALL`: every leaf changed
    /// (no flags read); `FILTERED`: some proxy has a filter other than
    /// [`Filter::ALL`](super::Filter::ALL).
    fn find_self<const ALL: bool, const FILTERED: bool>(&mut self) {
        let found = &mut self.found;
        let (recs, t) = (&self.recs[..], &self.table);
        let moved: &[bool] = if ALL { &[] } else { &self.moved };
        let leaf_pair = |x: u32, y: u32, out: &mut Vec<ProxyPair>| {
            let (a, b): (&LeafRec<V>, &LeafRec<V>) = (&recs[x as usize], &recs[y as usize]);
            if overlap(&a.aabb, &b.aabb)
                && (!FILTERED || {
                    let fa = &t.slots[a.id.index() as usize].info.filter;
                    let fb = &t.slots[b.id.index() as usize].info.filter;
                    fa.pairs_with(fb)
                })
            {
                out.push(pair_of(a.id, b.id));
            }
        };
        let nodes = &self.nodes[..];
        let want = Wanted::<ALL, FILTERED> {
            moved,
            bits: &self.bits,
        };
        let want = &want;
        if crate::par::threads() > 1 && t.len() >= PARALLEL_PROXIES {
            // The top of the traversal split into tasks for rayon's threads;
            // the pair list is sorted afterwards, so its order is free.
            let tasks = split(nodes, want, self.root, &mut |x, y| leaf_pair(x, y, found));
            let parts: Vec<Vec<ProxyPair>> = tasks
                .par_iter()
                .map(|task| {
                    let mut out = Vec::new();
                    let (mut pairs, mut selfs) = (Vec::new(), Vec::new());
                    let mut emit = |x, y| leaf_pair(x, y, &mut out);
                    match *task {
                        Task::Inside(n) => traverse(nodes, want, n, &mut pairs, &mut selfs, emit),
                        Task::Between(x, y) => descend(nodes, want, x, y, &mut pairs, &mut emit),
                    }
                    out
                })
                .collect();
            for part in parts {
                found.extend(part);
            }
            return;
        }
        traverse(
            nodes,
            want,
            self.root,
            &mut self.pair_stack,
            &mut self.self_stack,
            |x, y| leaf_pair(x, y, found),
        );
    }
}

/// The fewest proxies for which [`DynamicTree::find_self`] splits its
/// traversal over several threads.
const PARALLEL_PROXIES: usize = 1024;

/// How many tasks the top of a parallel traversal is split into (at least):
/// several per thread, so that uneven subtrees even out.
const TASKS: usize = 64;

/// Which nodes and node pairs may hold a wanted pair of leaves: those with
/// a changed leaf below (every node when `ALL`) and, when `FILTERED`,
/// whose leaves' bits may pair (the category union of each meets the mask
/// union of the other; inside one node, its own two unions meet).
pub(super) struct Wanted<'a, const ALL: bool, const FILTERED: bool> {
    /// Per node, whether a changed leaf is below (unread when `ALL`).
    pub moved: &'a [bool],
    /// Per node, the category and mask unions (unread unless `FILTERED`).
    pub bits: &'a [Bits],
}

impl<const ALL: bool, const FILTERED: bool> Wanted<'_, ALL, FILTERED> {
    /// Whether two leaves below node `n` may make a wanted pair.
    #[inline(always)]
    fn inside(&self, n: u32) -> bool {
        let m = || self.bits[n as usize];
        (ALL || self.moved[n as usize]) && (!FILTERED || m().category & m().mask != 0)
    }

    /// Whether a leaf below node `x` and one below node `y` may make a
    /// wanted pair.
    #[inline(always)]
    fn pair(&self, x: u32, y: u32) -> bool {
        let bits = || {
            let (a, b) = (self.bits[x as usize], self.bits[y as usize]);
            a.category & b.mask != 0 && b.category & a.mask != 0
        };
        (ALL || self.moved[x as usize] || self.moved[y as usize]) && (!FILTERED || bits())
    }
}

/// A part of the traversal: the pairs inside an internal node's subtree, or
/// between two overlapping subtrees (not both leaves).
#[derive(Debug, Clone, Copy)]
enum Task {
    Inside(u32),
    Between(u32, u32),
}

/// Splits the traversal below internal node `root` into at least [`TASKS`]
/// tasks (or as many as the tree has), by opening its top level after level
/// exactly as [`traverse`] and [`descend`] would; leaf pairs met on the way go
/// to `emit`. The tasks and the emitted pairs together are the traversal's.
fn split<V: Vector, const ALL: bool, const FILTERED: bool>(
    nodes: &[Node<V>],
    want: &Wanted<ALL, FILTERED>,
    root: u32,
    emit: &mut impl FnMut(u32, u32),
) -> Vec<Task> {
    if root == NULL || nodes[root as usize].is_leaf() || !want.inside(root) {
        return Vec::new();
    }
    let mut tasks = vec![Task::Inside(root)];
    while !tasks.is_empty() && tasks.len() < TASKS {
        let mut next = Vec::with_capacity(4 * tasks.len());
        // A pair of nodes to keep: emitted when both are leaves.
        let mut pair = |x: u32, y: u32, next: &mut Vec<Task>| {
            let (nx, ny) = (&nodes[x as usize], &nodes[y as usize]);
            if want.pair(x, y) && overlap(&nx.aabb, &ny.aabb) {
                if nx.is_leaf() && ny.is_leaf() {
                    emit(x, y);
                } else {
                    next.push(Task::Between(x, y));
                }
            }
        };
        for task in tasks {
            match task {
                Task::Inside(n) => {
                    let node = &nodes[n as usize];
                    let (c1, c2) = (node.child1, node.child2);
                    for c in [c1, c2] {
                        if !nodes[c as usize].is_leaf() && want.inside(c) {
                            next.push(Task::Inside(c));
                        }
                    }
                    pair(c1, c2, &mut next);
                }
                Task::Between(x, y) => {
                    let (pairs, k) = opened::<V>(nodes, x, y);
                    for &(xc, yc) in &pairs[..k] {
                        pair(xc, yc, &mut next);
                    }
                }
            }
        }
        tasks = next;
    }
    tasks
}

/// Whether two internal nodes are opened together (see `traverse`).
const DESCEND_BOTH: bool = true;

/// Calls `emit(x, y)` once for every pair of distinct leaves `x`, `y` whose
/// (fat) boxes overlap and of which at least one is flagged in `moved` (every
/// leaf when `ALL`), by the traversal of the tree below internal node `root`
/// against itself described in the module documentation.
pub(super) fn traverse<V: Vector, const ALL: bool, const FILTERED: bool>(
    nodes: &[Node<V>],
    want: &Wanted<ALL, FILTERED>,
    root: u32,
    pair_stack: &mut Vec<(u32, u32)>,
    self_stack: &mut Vec<u32>,
    mut emit: impl FnMut(u32, u32),
) {
    if root == NULL || nodes[root as usize].is_leaf() || !want.inside(root) {
        return;
    }
    self_stack.clear();
    pair_stack.clear();
    self_stack.push(root);
    while let Some(n) = self_stack.pop() {
        let node: &Node<V> = &nodes[n as usize];
        let (c1, c2) = (node.child1, node.child2);
        let (n1, n2) = (&nodes[c1 as usize], &nodes[c2 as usize]);
        // Pairs inside each child (only internal children hold any).
        if !n2.is_leaf() && want.inside(c2) {
            self_stack.push(c2);
        }
        if !n1.is_leaf() && want.inside(c1) {
            self_stack.push(c1);
        }
        // Pairs between the two children's subtrees.
        if !want.pair(c1, c2) || !overlap(&n1.aabb, &n2.aabb) {
            continue;
        }
        if n1.is_leaf() && n2.is_leaf() {
            emit(c1, c2);
            continue;
        }
        descend(nodes, want, c1, c2, pair_stack, &mut emit);
    }
}

/// Calls `emit(x, y)` for every wanted pair of overlapping leaves, one below
/// `x` and one below `y` (two distinct nodes whose boxes overlap, not both
/// leaves), by a simultaneous descent ("descend the larger volume").
fn descend<V: Vector, const ALL: bool, const FILTERED: bool>(
    nodes: &[Node<V>],
    want: &Wanted<ALL, FILTERED>,
    x: u32,
    y: u32,
    pair_stack: &mut Vec<(u32, u32)>,
    emit: &mut impl FnMut(u32, u32),
) {
    pair_stack.clear();
    pair_stack.push((x, y));
    while let Some((x, y)) = pair_stack.pop() {
        let (pairs, k) = opened::<V>(nodes, x, y);
        for &(xc, yc) in &pairs[..k] {
            let (a, b) = (&nodes[xc as usize], &nodes[yc as usize]);
            if want.pair(xc, yc) && overlap(&a.aabb, &b.aabb) {
                if a.is_leaf() && b.is_leaf() {
                    emit(xc, yc);
                } else {
                    pair_stack.push((xc, yc));
                }
            }
        }
    }
}

/// The child pairs that replace the pair of nodes `x`, `y` (not both
/// leaves) in a simultaneous descent, in the order a stack should take
/// them (the first child pair popped first): of two internal nodes, the
/// four pairs of their children at once (fewer pops than opening one side
/// at a time); else the internal one (of two, the larger) opened against
/// the other kept whole.
#[inline(always)]
fn opened<V: Vector>(nodes: &[Node<V>], x: u32, y: u32) -> ([(u32, u32); 4], usize) {
    let (nx, ny) = (&nodes[x as usize], &nodes[y as usize]);
    let (lx, ly) = (nx.is_leaf(), ny.is_leaf());
    if !lx && !ly && DESCEND_BOTH {
        let (x1, x2, y1, y2) = (nx.child1, nx.child2, ny.child1, ny.child2);
        return ([(x2, y2), (x2, y1), (x1, y2), (x1, y1)], 4);
    }
    let open_x = ly || (!lx && sah_area(&nx.aabb) >= sah_area(&ny.aabb));
    let pairs = if open_x {
        [(nx.child2, y), (nx.child1, y), (0, 0), (0, 0)]
    } else {
        [(ny.child2, x), (ny.child1, x), (0, 0), (0, 0)]
    };
    (pairs, 2)
}
