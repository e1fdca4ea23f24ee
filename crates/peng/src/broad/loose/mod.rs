//! A loose quadtree (2D) / loose octree (3D): one generic implementation over
//! the dimension; see [`LooseTree`].

mod query;

use crate::bound::Aabb;
use crate::math::{Vec2, Vec3, Vector};

use super::pairs::PairTracker;
use super::proxy::{ProxyPair, ProxyTable};
use super::BroadPhaseError;

/// "No node" / "not placed".
const NONE: u32 = u32::MAX;
/// Placement of a proxy kept in the overflow list.
const OVERFLOW: u32 = u32::MAX - 1;
/// Largest allowed `max_depth`: keeps `2^depth` exact and the child arrays small.
const DEPTH_LIMIT: u32 = 40;

/// One cell of the tree.
#[derive(Debug, Clone)]
struct Node<V> {
    /// The centre of the (tight) cell.
    center: V,
    /// The loose box: the cell doubled around its centre (for a grown root,
    /// merged with the old root's box). Holds every object of the subtree.
    bound: Aabb<V>,
    /// The level (0 = smallest cells).
    level: u32,
    /// The parent, `NONE` for the root; the next free node when on the free list.
    parent: u32,
    /// Children by orthant (bit `i` set = the high side on axis `i`); only the
    /// first `2^DIM` are used.
    children: [u32; 8],
    /// Number of children that are not `NONE`.
    child_count: u8,
    /// Proxy slots stored here.
    objects: Vec<u32>,
    /// Their boxes (copies of the table's), side by side with `objects` so a
    /// node's boxes are scanned from contiguous memory.
    boxes: Vec<Aabb<V>>,
}

/// Where a proxy is stored: a node (or `OVERFLOW`, or `NONE`) and its position
/// in that node's object list (or the overflow list).
#[derive(Debug, Clone, Copy)]
struct Place {
    node: u32,
    pos: u32,
}

const UNPLACED: Place = Place { node: NONE, pos: 0 };

/// Shape figures of a [`LooseTree`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LooseTreeStats {
    /// Nodes in use.
    pub nodes: usize,
    /// Level of the root (the depth of the tree; 0 for one cell or none).
    pub depth: u32,
    /// Proxies in the overflow list.
    pub overflow: usize,
}

/// A loose quadtree (2D) or loose octree (3D): one generic implementation over
/// the dimension.
///
/// Ulrich, "Loose Octrees" (Game Programming Gems 1, 2000) and Ericson,
/// Real-Time Collision Detection, 7.3.6: a regular quadtree/octree whose cells
/// are each enlarged to a *loose* box `k` times the cell's side around the same
/// centre. With `k = 2`, an object whose half-extent `e` is at most a cell's
/// half-side `h` lies inside the loose box of the cell that holds its centre
/// (the centre is within `h` of the cell centre on each axis, so the object is
/// within `h + e <= 2h`). An object is therefore stored in exactly one node,
/// chosen from its size (the level) and its centre (the path), and never split
/// among cells; a query visits the nodes whose loose boxes it meets.
///
/// # Levels and bounds (the choices made here)
/// - Level `0` holds the smallest cells, of half-side `h_0 = min_cell / 2`;
///   level `l` cells have half-side `h_0 · 2^l`. An object goes to the lowest
///   level whose half-side is at least its largest half-extent, so its level
///   follows from its size, as in Ulrich.
/// - The world **grows**: the tree starts as one level-0 cell at the origin and,
///   while an object's centre lies outside the root's cell or the object is too
///   large for the root's level, the root is doubled toward the object (the old
///   root becomes one child of the new one, on the side away from the object).
///   The root level is bounded by `max_depth`, which bounds the depth. Objects that still do not fit (far away or huge,
///   e.g. the clamped [`Aabb::everything`]) go to an **overflow list** tested
///   against everything. The tree never shrinks while it holds objects; it is
///   dropped when the last object leaves it.
/// - Robustness: each node stores its loose box, and an object is stored in a
///   node only after checking (in floating point) that the node's box contains
///   it. Every ancestor's box was checked on the way down, and a grown root's box
///   is merged with the old root's, so the box of every node holds every object
///   of its subtree exactly as computed: pruning a query by a node's box can
///   never lose an overlap, whatever the rounding. Empty leaf nodes are freed.
///
/// Good for many objects of very different sizes spread over a bounded region:
/// each object is stored once, at the level of its size, so moving it costs a
/// walk down the tree and the pair search visits only nodes near it. Pick
/// `min_cell` near the size of the smaller objects (as the cell of a
/// [`SpatialHash`](super::SpatialHash)); smaller objects share the smallest
/// cells.
///
/// ```
/// use peng::bound::Aabb3;
/// use peng::broad::{BroadPhase, Filter, LooseOctree};
/// use peng::math::Vec3;
///
/// let mut tree = LooseOctree::new(1.0).unwrap();
/// let a = tree.insert(Aabb3::new(Vec3::ZERO, Vec3::ONE), 0, Filter::ALL).unwrap();
/// let b = tree.insert(Aabb3::new(Vec3::ONE, Vec3::splat(40.0)), 1, Filter::ALL).unwrap();
/// tree.update_pairs();
/// assert_eq!(tree.pairs().len(), 1); // they touch at a corner
/// # let _ = (a, b);
/// ```
#[derive(Debug, Clone)]
pub struct LooseTree<V> {
    pub(crate) table: ProxyTable<V>,
    pub(crate) tracker: PairTracker,
    pub(crate) found: Vec<ProxyPair>,
    nodes: Vec<Node<V>>,
    root: u32,
    free_node: u32,
    node_count: usize,
    /// Half-side of a level-0 cell.
    min_half: f32,
    max_depth: u32,
    place: Vec<Place>,
    overflow: Vec<u32>,
    /// Reused traversal stack of the pair search.
    stack: Vec<u32>,
}

/// A loose quadtree.
pub type LooseQuadtree = LooseTree<Vec2>;
/// A loose octree.
pub type LooseOctree = LooseTree<Vec3>;

impl<V: Vector> Default for LooseTree<V> {
    fn default() -> Self {
        Self::build(Self::DEFAULT_MIN_CELL * 0.5, Self::DEFAULT_MAX_DEPTH)
    }
}

impl<V: Vector> LooseTree<V> {
    /// Side of the smallest cells of [`Default`].
    pub const DEFAULT_MIN_CELL: f32 = 1.0;
    /// Default bound on the root level: with cells of side 1 the root can grow
    /// to a side of about a million units before objects overflow.
    pub const DEFAULT_MAX_DEPTH: u32 = 20;

    /// An empty tree whose smallest cells have side `min_cell` (positive and
    /// finite), with the default depth bound.
    pub fn new(min_cell: f32) -> Result<Self, BroadPhaseError> {
        Self::with_max_depth(min_cell, Self::DEFAULT_MAX_DEPTH)
    }

    /// An empty tree whose smallest cells have side `min_cell` and whose root
    /// has at most `max_depth` levels below it (so its side is at most
    /// `min_cell · 2^max_depth`; `max_depth <= 40`). Objects that do not fit
    /// the largest root go to the overflow list.
    pub fn with_max_depth(min_cell: f32, max_depth: u32) -> Result<Self, BroadPhaseError> {
        if max_depth > DEPTH_LIMIT {
            return Err(BroadPhaseError::InvalidParameter("max_depth must be <= 40"));
        }
        let top = min_cell * 2f32.powi(max_depth as i32 + 1);
        if !(min_cell.is_finite() && min_cell > 0.0 && top.is_finite() && min_cell * 0.5 > 0.0) {
            return Err(BroadPhaseError::InvalidParameter(
                "min_cell must be positive and min_cell * 2^max_depth finite",
            ));
        }
        Ok(Self::build(min_cell * 0.5, max_depth))
    }

    fn build(min_half: f32, max_depth: u32) -> Self {
        LooseTree {
            table: ProxyTable::default(),
            tracker: PairTracker::default(),
            found: Vec::new(),
            nodes: Vec::new(),
            root: NONE,
            free_node: NONE,
            node_count: 0,
            min_half,
            max_depth,
            place: Vec::new(),
            overflow: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// Side of the smallest cells.
    pub fn min_cell(&self) -> f32 {
        self.min_half * 2.0
    }

    /// The bound on the root level.
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// Node count, depth and overflow size.
    pub fn stats(&self) -> LooseTreeStats {
        LooseTreeStats {
            nodes: self.node_count,
            depth: if self.root == NONE {
                0
            } else {
                self.nodes[self.root as usize].level
            },
            overflow: self.overflow.len(),
        }
    }

    /// Half-side of a level-`l` cell (a power-of-two multiple: exact).
    #[inline]
    fn half(&self, level: u32) -> f32 {
        self.min_half * 2f32.powi(level as i32)
    }

    /// The loose box of the cell at `center` on `level`: twice the cell's side.
    #[inline]
    fn loose_box(&self, center: V, level: u32) -> Aabb<V> {
        Aabb::from_center_half_extents(center, V::splat(2.0 * self.half(level)))
    }

    /// The level an object belongs to: the lowest whose half-side is at least
    /// the object's largest half-extent (capped at `max_depth`).
    fn target_level(&self, b: &Aabb<V>) -> u32 {
        let e = b.half_extents().max_element();
        let mut l = 0;
        while l < self.max_depth && self.half(l) < e {
            l += 1;
        }
        l
    }

    /// The orthant of `p` around `c`: bit `i` set when `p_i >= c_i`.
    #[inline]
    fn orthant(c: V, p: V) -> usize {
        let mut o = 0;
        for i in 0..V::DIM {
            if p.get(i) >= c.get(i) {
                o |= 1 << i;
            }
        }
        o
    }

    fn alloc_node(&mut self, center: V, level: u32, parent: u32, bound: Aabb<V>) -> u32 {
        self.node_count += 1;
        if self.free_node != NONE {
            let i = self.free_node;
            let n = &mut self.nodes[i as usize];
            self.free_node = n.parent;
            n.center = center;
            n.bound = bound;
            n.level = level;
            n.parent = parent;
            n.children = [NONE; 8];
            n.child_count = 0;
            debug_assert!(n.objects.is_empty());
            i
        } else {
            self.nodes.push(Node {
                center,
                bound,
                level,
                parent,
                children: [NONE; 8],
                child_count: 0,
                objects: Vec::new(),
                boxes: Vec::new(),
            });
            (self.nodes.len() - 1) as u32
        }
    }

    fn free(&mut self, i: u32) {
        self.node_count -= 1;
        let n = &mut self.nodes[i as usize];
        n.objects.clear();
        n.boxes.clear();
        n.parent = self.free_node;
        self.free_node = i;
    }

    /// Whether growth stops at a root cell centred at `c` on `level` for an
    /// object centred at `p` whose size belongs to level `target`: the object
    /// could sit in the root the way Ulrich places it (its centre in the
    /// root's cell, its size at most the root's level), or the depth bound is
    /// reached.
    fn growth_stops(&self, c: V, level: u32, p: V, target: u32) -> bool {
        let h = self.half(level);
        let centred = (0..V::DIM).all(|i| (p.get(i) - c.get(i)).abs() <= h);
        level >= self.max_depth || (centred && level >= target)
    }

    /// The centre of the root doubled from the cell at `c` (half-side `h`)
    /// toward `p`: a corner of the old cell, so the old cell is one orthant of
    /// the new one; also returns that orthant.
    fn grown_center(c: V, h: f32, p: V) -> (V, usize) {
        let mut nc = c;
        let mut orthant_of_old = 0;
        for i in 0..V::DIM {
            if p.get(i) >= c.get(i) {
                nc.set(i, c.get(i) + h);
            } else {
                nc.set(i, c.get(i) - h);
                orthant_of_old |= 1 << i;
            }
        }
        (nc, orthant_of_old)
    }

    /// Grows the root toward `b` until [`growth_stops`](Self::growth_stops),
    /// creating it if needed, and returns whether the root's loose box then
    /// holds `b`. The growth is first run on paper: when it would not make
    /// the box fit, nothing changes (a far or huge object going to the
    /// overflow list does not inflate the tree).
    fn grow_to_fit(&mut self, b: &Aabb<V>) -> bool {
        let p = b.center();
        let target = self.target_level(b);
        // An empty root is moved rather than grown over, so its box is not
        // merged with the old one (see below).
        let (mut c, mut level, mut bound, empty) = match self.root {
            NONE => (V::ZERO, 0, self.loose_box(V::ZERO, 0), true),
            r => {
                let r = &self.nodes[r as usize];
                let empty = r.objects.is_empty() && r.child_count == 0;
                (r.center, r.level, r.bound, empty)
            }
        };
        let mut steps = 0;
        while !self.growth_stops(c, level, p, target) {
            c = Self::grown_center(c, self.half(level), p).0;
            level += 1;
            let lb = self.loose_box(c, level);
            bound = if empty { lb } else { lb.merged(&bound) };
            steps += 1;
        }
        if !bound.contains(b) {
            return false;
        }
        if self.root == NONE {
            let bound = self.loose_box(V::ZERO, 0);
            self.root = self.alloc_node(V::ZERO, 0, NONE, bound);
        }
        for _ in 0..steps {
            let r = &self.nodes[self.root as usize];
            let (c, level, old_bound) = (r.center, r.level, r.bound);
            let (nc, orthant_of_old) = Self::grown_center(c, self.half(level), p);
            let bound = self.loose_box(nc, level + 1);
            if r.objects.is_empty() && r.child_count == 0 {
                // An empty root is moved instead of kept as an empty leaf.
                let r = &mut self.nodes[self.root as usize];
                r.center = nc;
                r.level = level + 1;
                r.bound = bound;
                continue;
            }
            let old = self.root;
            let new = self.alloc_node(nc, level + 1, NONE, bound.merged(&old_bound));
            let n = &mut self.nodes[new as usize];
            n.children[orthant_of_old] = old;
            n.child_count = 1;
            self.nodes[old as usize].parent = new;
            self.root = new;
        }
        // The same arithmetic as the run on paper.
        self.nodes[self.root as usize].bound.contains(b)
    }

    /// Stores slot `s` (whose box is in the table) in the tree or the overflow
    /// list.
    fn place_slot(&mut self, s: u32) {
        let b = *self.table.aabb(s);
        if !self.grow_to_fit(&b) {
            self.place[s as usize] = Place {
                node: OVERFLOW,
                pos: self.overflow.len() as u32,
            };
            self.overflow.push(s);
            return;
        }
        let target = self.target_level(&b);
        let p = b.center();
        let mut n = self.root;
        loop {
            let node = &self.nodes[n as usize];
            if node.level <= target || node.level == 0 {
                break;
            }
            let o = Self::orthant(node.center, p);
            let child = node.children[o];
            if child != NONE {
                if !self.nodes[child as usize].bound.contains(&b) {
                    break;
                }
                n = child;
                continue;
            }
            // The child cell's centre is a quarter of the parent's side from
            // the parent's centre on each axis.
            let q = self.half(node.level - 1);
            let mut cc = node.center;
            for i in 0..V::DIM {
                let d = if o & (1 << i) != 0 { q } else { -q };
                cc.set(i, cc.get(i) + d);
            }
            let level = node.level - 1;
            let bound = self.loose_box(cc, level);
            if !bound.contains(&b) {
                break;
            }
            let c = self.alloc_node(cc, level, n, bound);
            let parent = &mut self.nodes[n as usize];
            parent.children[o] = c;
            parent.child_count += 1;
            n = c;
        }
        let node = &mut self.nodes[n as usize];
        self.place[s as usize] = Place {
            node: n,
            pos: node.objects.len() as u32,
        };
        node.objects.push(s);
        node.boxes.push(b);
    }

    /// Takes slot `s` out of its node (freeing nodes left empty) or out of the
    /// overflow list.
    fn unplace_slot(&mut self, s: u32) {
        let Place { node, pos } = self.place[s as usize];
        self.place[s as usize] = UNPLACED;
        let list = match node {
            NONE => return,
            OVERFLOW => &mut self.overflow,
            n => {
                let x = &mut self.nodes[n as usize];
                x.boxes.swap_remove(pos as usize);
                &mut x.objects
            }
        };
        debug_assert_eq!(list[pos as usize], s);
        list.swap_remove(pos as usize);
        if let Some(&moved) = list.get(pos as usize) {
            self.place[moved as usize].pos = pos;
        }
        if node != OVERFLOW {
            self.prune(node);
        }
    }

    /// Frees `n` and its ancestors while they hold nothing.
    fn prune(&mut self, mut n: u32) {
        while n != NONE {
            let node = &self.nodes[n as usize];
            if !node.objects.is_empty() || node.child_count > 0 {
                return;
            }
            let p = node.parent;
            if p == NONE {
                self.root = NONE;
            } else {
                let parent = &mut self.nodes[p as usize];
                if let Some(k) = parent.children.iter().position(|&c| c == n) {
                    parent.children[k] = NONE;
                    parent.child_count -= 1;
                }
            }
            self.free(n);
            n = p;
        }
    }

    /// Keeps slot `s` where it is with its new box `b` (updating the node's
    /// copy) when its node and every ancestor still hold `b` and `b` is not
    /// small enough to go a level deeper; otherwise returns `false`.
    fn stay(&mut self, s: u32, b: &Aabb<V>) -> bool {
        let node = self.place[s as usize].node;
        if node == NONE || node == OVERFLOW {
            return false;
        }
        let level = self.nodes[node as usize].level;
        if level > self.target_level(b) && level > 0 {
            return false;
        }
        let mut n = node;
        while n != NONE {
            let x = &self.nodes[n as usize];
            if !x.bound.contains(b) {
                return false;
            }
            n = x.parent;
        }
        let pos = self.place[s as usize].pos;
        self.nodes[node as usize].boxes[pos as usize] = *b;
        true
    }

    /// Makes room for slot `s` in the placement table.
    fn ensure_slot(&mut self, s: u32) {
        if self.place.len() <= s as usize {
            self.place.resize(s as usize + 1, UNPLACED);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::{BroadPhase, Filter};

    /// Every object lies in the loose box of its node and of all ancestors;
    /// every non-root node is its parent's child; leaves hold objects.
    fn check_invariants<V: Vector>(t: &LooseTree<V>) {
        let mut count = 0;
        for s in t.table.live() {
            let Place { node, pos } = t.place[s as usize];
            let b = t.table.aabb(s);
            if node == OVERFLOW {
                assert_eq!(t.overflow[pos as usize], s);
                continue;
            }
            assert_eq!(t.nodes[node as usize].objects[pos as usize], s);
            assert_eq!(&t.nodes[node as usize].boxes[pos as usize], b);
            let mut n = node;
            while n != NONE {
                assert!(t.nodes[n as usize].bound.contains(b));
                let p = t.nodes[n as usize].parent;
                if p != NONE {
                    assert!(t.nodes[p as usize].children.contains(&n));
                    assert_eq!(t.nodes[p as usize].level, t.nodes[n as usize].level + 1);
                } else {
                    assert_eq!(n, t.root);
                }
                n = p;
            }
            count += 1;
        }
        assert_eq!(count + t.overflow.len(), t.table.len());
    }

    #[test]
    fn objects_go_to_the_level_of_their_size_and_nodes_are_freed() {
        let mut t = LooseOctree::new(1.0).unwrap();
        let small = Aabb::from_center_half_extents(Vec3::splat(10.0), Vec3::splat(0.25));
        // The root grows from the origin toward `small`: levels 0..=4 with
        // centres 0, 0.5, 1.5, 3.5, 7.5 on each axis. `big` has its centre in
        // the level-3 cell centred at 3.5 (the old root).
        let big = Aabb::from_center_half_extents(Vec3::splat(3.0), Vec3::splat(3.5));
        let a = t.insert(small, 0, Filter::ALL).unwrap();
        let b = t.insert(big, 1, Filter::ALL).unwrap();
        check_invariants(&t);
        let na = t.place[a.index() as usize].node;
        let nb = t.place[b.index() as usize].node;
        // Half-extent 0.25 <= h_0 = 0.5: level 0. Half-extent 3.5: level 3
        // (h_3 = 4 is the first half-side >= 3.5).
        assert_eq!(t.nodes[na as usize].level, 0);
        assert_eq!(t.nodes[nb as usize].level, 3);
        assert_eq!(t.stats().depth, 4);
        // A box centred outside the root's cell grows the root toward it.
        let off = Aabb::from_center_half_extents(Vec3::splat(-3.0), Vec3::splat(3.5));
        let c = t.insert(off, 2, Filter::ALL).unwrap();
        assert_eq!(t.stats().depth, 5);
        assert_eq!(t.nodes[t.place[c.index() as usize].node as usize].level, 3);
        check_invariants(&t);
        t.remove(c).unwrap();
        t.remove(a).unwrap();
        t.remove(b).unwrap();
        assert_eq!(t.stats().nodes, 0);
        assert!(t.is_empty());
    }

    #[test]
    fn far_objects_overflow_and_moves_keep_invariants() {
        let mut t = LooseQuadtree::with_max_depth(1.0, 4).unwrap();
        // Root side at most 16: loose box at most 32 wide.
        let far = Aabb::new(Vec2::splat(1e6), Vec2::splat(1e6 + 1.0));
        let a = t.insert(far, 0, Filter::ALL).unwrap();
        assert_eq!(t.stats().overflow, 1);
        // The overflowing box did not grow (or create) the tree.
        assert_eq!(t.stats().nodes, 0);
        let all = t.insert(Aabb::everything(), 1, Filter::ALL).unwrap();
        assert_eq!(t.stats().overflow, 2);
        assert_eq!(t.stats().nodes, 0);
        t.remove(all).unwrap();
        let near = Aabb::new(Vec2::ZERO, Vec2::ONE);
        t.move_proxy(a, near, Vec2::ZERO).unwrap();
        assert_eq!(t.stats().overflow, 0);
        check_invariants(&t);
        let mut ids = Vec::new();
        for k in 0..50 {
            let x = (k as f32 * 0.37).sin() * 9.0;
            let y = (k as f32 * 0.71).cos() * 9.0;
            let b =
                Aabb::from_center_half_extents(Vec2::new(x, y), Vec2::splat(0.1 + k as f32 * 0.05));
            ids.push(t.insert(b, k, Filter::ALL).unwrap());
        }
        check_invariants(&t);
        for (k, &id) in ids.iter().enumerate() {
            let d = Vec2::new(k as f32 * 0.3, -(k as f32) * 0.2);
            let b = t.proxy(id).unwrap().aabb;
            t.move_proxy(id, Aabb::new(b.min + d, b.max + d), d)
                .unwrap();
            check_invariants(&t);
        }
        assert!(t.stats().depth <= 4);
        assert!(LooseOctree::with_max_depth(1.0, 41).is_err());
        assert!(LooseOctree::new(0.0).is_err());
        assert!(LooseOctree::new(f32::NAN).is_err());
        assert!(LooseOctree::with_max_depth(1e30, 40).is_err());
    }
}
