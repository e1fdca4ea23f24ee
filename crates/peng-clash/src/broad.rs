//! Candidate pairs: elements whose boxes overlap, by sweep and prune.

use crate::element::Bounds;

/// A box to pair, on side 0 (set A) or 1 (set B).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub element: usize,
    pub side: u8,
    pub bounds: Bounds,
}

/// Every pair of entries whose boxes overlap (touching counts), each once:
/// with `self_test`, every two entries; otherwise one from each side, the
/// side-0 entry first. Sorted along x, each entry meets only the entries still
/// open at its low end (Baraff's sweep and prune, one axis).
pub(crate) fn overlapping_pairs(mut entries: Vec<Entry>, self_test: bool) -> Vec<(usize, usize)> {
    entries.retain(|e| e.bounds.min.is_finite() && e.bounds.max.is_finite());
    entries.sort_by(|x, y| {
        x.bounds
            .min
            .x
            .total_cmp(&y.bounds.min.x)
            .then(x.element.cmp(&y.element))
            .then(x.side.cmp(&y.side))
    });
    let mut open: Vec<Entry> = Vec::new();
    let mut out = Vec::new();
    for e in entries {
        open.retain(|o| o.bounds.max.x >= e.bounds.min.x);
        for o in &open {
            if o.element == e.element || !o.bounds.overlaps(&e.bounds) {
                continue;
            }
            if self_test {
                out.push((o.element.min(e.element), o.element.max(e.element)));
            } else if o.side != e.side {
                let (a, b) = if o.side == 0 { (o, &e) } else { (&e, o) };
                out.push((a.element, b.element));
            }
        }
        open.push(e);
    }
    out
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
        let entries: Vec<Entry> = (0..300)
            .map(|i| {
                let at = [next() * 20.0, next() * 20.0, next() * 5.0];
                cube(i, (i % 3 == 0) as u8, at, 0.2 + next() * 2.0)
            })
            .collect();
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
        let nan = cube(2, 1, [f64::NAN, 0.0, 0.0], 1.0);
        assert_eq!(overlapping_pairs(vec![a, nan], false), vec![]);
    }
}
