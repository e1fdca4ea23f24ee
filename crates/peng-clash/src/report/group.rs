//! Grouping clashes into issues people can work through together.

use super::{ClashEntry, GroupEntry, TestReport};
use std::collections::{BTreeMap, HashMap};

/// How to group a test's clashes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GroupBy {
    /// Clashes whose midpoints lie within this many metres of each other, link
    /// by link (single linkage): a run of clashes along one pipe is one group.
    Proximity(f64),
    /// The pair of element classes (A's class, B's class).
    TypePair,
    /// The storey of element A (else B's).
    Storey,
}

/// Groups `test`'s clashes, replacing any earlier groups: sets each clash's
/// `group` and fills `test.groups`, largest group first (ties by name), with
/// each group's clash ids sorted.
pub fn group_clashes(test: &mut TestReport, by: GroupBy) {
    let labels: Vec<usize> = match by {
        GroupBy::Proximity(d) => proximity_labels(&test.clashes, d),
        GroupBy::TypePair => {
            key_labels(&test.clashes, |c| format!("{} × {}", c.a.class, c.b.class))
        }
        GroupBy::Storey => key_labels(&test.clashes, |c| {
            let storey = c.a.storey.as_ref().or(c.b.storey.as_ref());
            storey.map_or("(no storey)".to_string(), |s| format!("storey {s}"))
        }),
    };
    let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, &l) in labels.iter().enumerate() {
        members.entry(l).or_default().push(i);
    }
    let mut groups: Vec<(GroupEntry, Vec<usize>)> = members
        .into_values()
        .map(|idx| {
            let clashes: Vec<&ClashEntry> = idx.iter().map(|&i| &test.clashes[i]).collect();
            (describe(&clashes, by), idx)
        })
        .collect();
    groups.sort_by(|(x, xi), (y, yi)| yi.len().cmp(&xi.len()).then(x.name.cmp(&y.name)));
    for (g, (_, idx)) in groups.iter().enumerate() {
        for &i in idx {
            test.clashes[i].group = Some(g);
        }
    }
    test.groups = groups.into_iter().map(|(g, _)| g).collect();
}

/// A group's name, sorted clash ids and centre.
fn describe(clashes: &[&ClashEntry], by: GroupBy) -> GroupEntry {
    let n = clashes.len() as f64;
    let mut center = [0.0; 3];
    for c in clashes {
        let m = c.center();
        for k in 0..3 {
            center[k] += m[k] / n;
        }
    }
    // The most common class pair names the group.
    let mut pairs: BTreeMap<(String, String), usize> = BTreeMap::new();
    for c in clashes {
        *pairs
            .entry((c.a.class.clone(), c.b.class.clone()))
            .or_default() += 1;
    }
    let top = pairs
        .iter()
        .max_by_key(|(_, &n)| n)
        .map(|(k, _)| k.clone())
        .unwrap_or_default();
    let what = if pairs.len() == 1 {
        format!("{} × {}", top.0, top.1)
    } else {
        format!("{} × {} and others", top.0, top.1)
    };
    let count = if clashes.len() == 1 {
        "1 clash".to_string()
    } else {
        format!("{} clashes", clashes.len())
    };
    let name = match by {
        GroupBy::Proximity(_) => format!(
            "{what}: {count} near ({:.2}, {:.2}, {:.2})",
            center[0], center[1], center[2]
        ),
        GroupBy::TypePair => format!("{what}: {count}"),
        GroupBy::Storey => {
            let storey = clashes[0]
                .a
                .storey
                .as_ref()
                .or(clashes[0].b.storey.as_ref());
            let s = storey.map_or("no storey".to_string(), |s| format!("storey {s}"));
            format!("{s}: {count}")
        }
    };
    let mut ids: Vec<String> = clashes.iter().map(|c| c.id.clone()).collect();
    ids.sort();
    GroupEntry {
        name,
        clashes: ids,
        center,
    }
}

/// One label per distinct key, in order of first appearance.
fn key_labels(clashes: &[ClashEntry], key: impl Fn(&ClashEntry) -> String) -> Vec<usize> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    clashes
        .iter()
        .map(|c| {
            let n = seen.len();
            *seen.entry(key(c)).or_insert(n)
        })
        .collect()
}

/// Single-linkage clusters of the clash midpoints at distance `d`: a grid of
/// cells of side `d` makes each point meet only the points of its 27 cells;
/// union-find joins the pairs within `d`. Labels are each cluster's smallest
/// member index. A non-positive or NaN `d` puts every clash alone.
fn proximity_labels(clashes: &[ClashEntry], d: f64) -> Vec<usize> {
    let n = clashes.len();
    let mut parent: Vec<usize> = (0..n).collect();
    if d.is_nan() || d <= 0.0 || d.is_infinite() {
        return parent;
    }
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let pts: Vec<[f64; 3]> = clashes.iter().map(|c| c.center()).collect();
    let cell = |p: &[f64; 3]| p.map(|x| (x / d).floor() as i64);
    let mut grid: HashMap<[i64; 3], Vec<usize>> = HashMap::new();
    for (i, p) in pts.iter().enumerate() {
        grid.entry(cell(p)).or_default().push(i);
    }
    for (i, p) in pts.iter().enumerate() {
        let c = cell(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let Some(others) = grid.get(&[c[0] + dx, c[1] + dy, c[2] + dz]) else {
                        continue;
                    };
                    for &j in others {
                        if j <= i {
                            continue;
                        }
                        let q = &pts[j];
                        let d2: f64 = (0..3).map(|k| (p[k] - q[k]).powi(2)).sum();
                        if d2 <= d * d {
                            let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                            let (lo, hi) = (ri.min(rj), ri.max(rj));
                            parent[hi] = lo;
                        }
                    }
                }
            }
        }
    }
    (0..n).map(|i| find(&mut parent, i)).collect()
}
