//! Candidate pairs: elements whose boxes overlap, by walking two trees of
//! f64 boxes at once (set A's against set B's, or one set's against
//! itself), on every core.
//!
//! (A one-axis sweep and prune was quadratic on stacked storeys: every
//! element of a column of storeys shares its x range, so at 100,000
//! elements each box met thousands of open ones.)

use crate::element::Bounds;
use rayon::prelude::*;

/// A box to pair, on side 0 (set A) or 1 (set B).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub element: usize,
    pub side: u8,
    pub bounds: Bounds,
}

/// Every pair of entries whose boxes overlap (touching counts), each once:
/// with `self_test`, every two entries (lower element first); otherwise one
/// from each side, the side-0 entry first. Boxes that are not finite pair
/// with nothing. The order is unspecified.
pub(crate) fn overlapping_pairs(mut entries: Vec<Entry>, self_test: bool) -> Vec<(usize, usize)> {
    entries.retain(|e| e.bounds.min.is_finite() && e.bounds.max.is_finite());
    if self_test {
        let tree = Tree::build(entries);
        pairs_between(&tree, &tree, true)
    } else {
        let (queries, targets): (Vec<Entry>, Vec<Entry>) =
            entries.into_iter().partition(|e| e.side == 0);
        pairs_between(&Tree::build(queries), &Tree::build(targets), false)
    }
}

/// The overlapping pairs of `x`'s and `y`'s entries (`x`'s first), by a walk
/// of both trees at once: a pair of nodes whose boxes are apart is left with
/// all it holds. `same`: `x` and `y` are one tree, each pair once.
fn pairs_between(x: &Tree, y: &Tree, same: bool) -> Vec<(usize, usize)> {
    if x.nodes.is_empty() || y.nodes.is_empty() {
        return Vec::new();
    }
    // Enough node pairs to share among the cores, then each walked alone.
    let mut work = vec![(0, 0)];
    let mut found = Vec::new();
    while !work.is_empty() && work.len() < 256 {
        let mut next = Vec::with_capacity(work.len() * 4);
        for (i, j) in work {
            x.step(y, same, i, j, &mut next, &mut found);
        }
        work = next;
    }
    let rest: Vec<Vec<(usize, usize)>> = work
        .par_chunks(8)
        .map(|chunk| {
            let mut found = Vec::new();
            let mut stack = chunk.to_vec();
            while let Some((i, j)) = stack.pop() {
                x.step(y, same, i, j, &mut stack, &mut found);
            }
            found
        })
        .collect();
    found.extend(rest.concat());
    found
}

/// Entries per leaf.
const LEAF: usize = 4;

/// A node: its box and either two children or a run of entries.
struct Node {
    bounds: Bounds,
    /// Leaf: entries `first..first + count`; inner: children `first` and
    /// `first + 1`, `count` 0.
    first: usize,
    count: usize,
}

/// A binary tree over boxes, split at the median of the widest axis of the
/// boxes' centres.
struct Tree {
    nodes: Vec<Node>,
    entries: Vec<Entry>,
}

impl Tree {
    fn build(mut entries: Vec<Entry>) -> Tree {
        let mut nodes = Vec::with_capacity(2 * entries.len() / LEAF + 1);
        if !entries.is_empty() {
            nodes.push(Node {
                bounds: entries[0].bounds,
                first: 0,
                count: 0,
            });
            split(&mut nodes, 0, &mut entries, 0);
        }
        Tree { nodes, entries }
    }

    /// One step of the walk of node `i` (of `self`) against node `j` (of
    /// `other`): the entry pairs of two leaves go to `found`, the node pairs
    /// below two nodes whose boxes meet go to `more`. `same`: one tree; a
    /// node against itself goes on as its children against themselves and
    /// each other, so each pair of entries is met once.
    fn step(
        &self,
        other: &Tree,
        same: bool,
        i: usize,
        j: usize,
        more: &mut Vec<(usize, usize)>,
        found: &mut Vec<(usize, usize)>,
    ) {
        let (a, b) = (&self.nodes[i], &other.nodes[j]);
        if !a.bounds.overlaps(&b.bounds) {
            return;
        }
        match (a.count > 0, b.count > 0) {
            (true, true) => {
                let xs = &self.entries[a.first..a.first + a.count];
                let ys = &other.entries[b.first..b.first + b.count];
                for (k, p) in xs.iter().enumerate() {
                    // Within one leaf, each later entry once.
                    let ys = if same && i == j { &ys[k + 1..] } else { ys };
                    for q in ys {
                        if p.element != q.element && p.bounds.overlaps(&q.bounds) {
                            found.push(if same {
                                (p.element.min(q.element), p.element.max(q.element))
                            } else {
                                (p.element, q.element)
                            });
                        }
                    }
                }
            }
            _ if same && i == j => {
                let (l, r) = (a.first, a.first + 1);
                more.extend([(l, l), (r, r), (l, r)]);
            }
            // Descend the node that is not a leaf, the larger if both are not.
            (false, true) => more.extend([(a.first, j), (a.first + 1, j)]),
            (true, false) => more.extend([(i, b.first), (i, b.first + 1)]),
            (false, false) if volume(&a.bounds) >= volume(&b.bounds) => {
                more.extend([(a.first, j), (a.first + 1, j)])
            }
            (false, false) => more.extend([(i, b.first), (i, b.first + 1)]),
        }
    }
}

/// A box's volume (with no side taken as less than a millimetre, so that
/// flat boxes still compare).
fn volume(b: &Bounds) -> f64 {
    let d = (b.max - b.min).max(glam::DVec3::splat(1e-3));
    d.x * d.y * d.z
}

/// Makes node `at` hold `slice` (the entries from `offset` on).
fn split(nodes: &mut Vec<Node>, at: usize, slice: &mut [Entry], offset: usize) {
    let bounds = slice
        .iter()
        .skip(1)
        .fold(slice[0].bounds, |b, e| b.merged(&e.bounds));
    nodes[at].bounds = bounds;
    if slice.len() <= LEAF {
        nodes[at].first = offset;
        nodes[at].count = slice.len();
        return;
    }
    let centre = |e: &Entry| (e.bounds.min + e.bounds.max) * 0.5;
    let spread = slice
        .iter()
        .skip(1)
        .fold((centre(&slice[0]), centre(&slice[0])), |(lo, hi), e| {
            (lo.min(centre(e)), hi.max(centre(e)))
        });
    let axis = (spread.1 - spread.0).max_position();
    let mid = slice.len() / 2;
    slice.select_nth_unstable_by(mid, |x, y| centre(x)[axis].total_cmp(&centre(y)[axis]));
    let first = nodes.len();
    for _ in 0..2 {
        nodes.push(Node {
            bounds,
            first: 0,
            count: 0,
        });
    }
    nodes[at].first = first;
    let (left, right) = slice.split_at_mut(mid);
    split(nodes, first, left, offset);
    split(nodes, first + 1, right, offset + mid);
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    fn cube(element: usize, side: u8, at: [f64; 3], size: f64) -> Entry {
        let min = DVec3::from(at);
        Entry {
            element,
            side,
            bounds: Bounds {
                min,
                max: min + DVec3::splat(size),
            },
        }
    }

    /// A seeded scatter of boxes: the sweep finds exactly the brute-force pairs.
    #[test]
    fn agrees_with_brute_force() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let entries: Vec<Entry> = (0..3000)
            .map(|i| {
                let at = [next() * 60.0, next() * 60.0, next() * 5.0];
                // Every tenth box on a second layer at z = 5; the first
                // twenty twice (copies below); one box spans all.
                let at = if i % 10 == 9 { [at[0], at[1], 5.0] } else { at };
                let size = if i == 1234 { 100.0 } else { 0.2 + next() * 2.0 };
                cube(i, (i % 3 == 0) as u8, at, size)
            })
            .collect();
        let mut entries = entries;
        let copies: Vec<Entry> = entries[..20]
            .iter()
            .map(|e| Entry {
                element: e.element + 10_000,
                ..*e
            })
            .collect();
        entries.extend(copies);
        for self_test in [true, false] {
            let mut got = overlapping_pairs(entries.clone(), self_test);
            got.sort_unstable();
            let mut want = Vec::new();
            for x in &entries {
                for y in &entries {
                    let ok = if self_test {
                        x.element < y.element
                    } else {
                        x.side == 0 && y.side == 1
                    };
                    if ok && x.bounds.overlaps(&y.bounds) {
                        want.push((x.element, y.element));
                    }
                }
            }
            want.sort_unstable();
            assert!(want.len() > 50, "too few pairs to test: {}", want.len());
            assert_eq!(got, want, "self_test {self_test}");
        }
    }

    #[test]
    fn touching_boxes_pair_and_nan_boxes_do_not() {
        let a = cube(0, 0, [0.0; 3], 1.0);
        let b = cube(1, 1, [1.0, 0.0, 0.0], 1.0);
        assert_eq!(overlapping_pairs(vec![b, a], false), vec![(0, 1)]);
        assert_eq!(overlapping_pairs(vec![b, a], true), vec![(0, 1)]);
        let nan = cube(2, 1, [f64::NAN, 0.0, 0.0], 1.0);
        assert_eq!(overlapping_pairs(vec![a, nan], false), vec![]);
    }
}
