//! Running a clash test over a model: candidate pairs, ignore rules, the pair
//! test on every core, results in a fixed order.

use crate::broad::{overlapping_pairs, Entry};
use crate::clash::{clash_id, Clash, ClashKind, Finding};
use crate::element::{Bounds, Element};
use crate::ignore::IgnoreRules;
use crate::narrow::{chord_allowance, clearance, duplicate, hard, PairFrame};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Penetrations this shallow are the rounding of f32 mesh vertices (about
/// 0.1 µm at building scale, more after tessellation), not modelling: 10 µm.
pub const NUMERIC_TOUCH: f64 = 1e-5;

/// What a clash test looks for (in reports: `{"mode": "hard", ...}`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum Mode {
    /// Surfaces that cross, or an element inside another closed one.
    Hard {
        /// How deep one element must reach into the other to count (metres);
        /// shallower contacts are touches.
        tolerance: f64,
        /// Report touches too (depth at most `tolerance`, surfaces meeting).
        report_touching: bool,
    },
    /// Elements closer than `distance` (metres); touching and crossing ones
    /// are reported with their hard finding.
    Clearance {
        /// The clearance each element must keep.
        distance: f64,
    },
    /// The same geometry within `tolerance` (metres).
    Duplicate {
        /// The largest deviation between two copies.
        tolerance: f64,
    },
}

impl Mode {
    /// IfcOpenShell `ifcclash`'s "intersection" mode with its default
    /// tolerance: surfaces crossing by more than 2 mm.
    pub const INTERSECTION: Mode = Mode::Hard {
        tolerance: 0.002,
        report_touching: false,
    };
    /// `ifcclash`'s "collision" mode (touching not allowed): any penetration
    /// deeper than the meshes' rounding ([`NUMERIC_TOUCH`], 10 µm).
    pub const COLLISION: Mode = Mode::Hard {
        tolerance: NUMERIC_TOUCH,
        report_touching: false,
    };
    /// Every contact, touches included (surfaces that meet count).
    pub const TOUCHING: Mode = Mode::Hard {
        tolerance: NUMERIC_TOUCH,
        report_touching: true,
    };

    /// How far apart two boxes may be and still hold a clash.
    fn reach(self) -> f64 {
        match self {
            // Surfaces within the meshes' rounding meet: boxes that far
            // apart may hold a touch.
            Mode::Hard { .. } => NUMERIC_TOUCH,
            Mode::Clearance { distance } => distance.max(0.0),
            Mode::Duplicate { tolerance } => tolerance.max(0.0),
        }
    }
}

/// One clash test: set A against set B (or A against itself), in one mode.
#[derive(Debug, Clone, PartialEq)]
pub struct ClashTest {
    /// Indices of set A's elements in the model.
    pub a: Vec<usize>,
    /// Indices of set B's elements; `None` tests set A against itself.
    pub b: Option<Vec<usize>>,
    /// What to look for.
    pub mode: Mode,
    /// Pairs to skip.
    pub ignore: IgnoreRules,
    /// Only elements whose boxes meet this region (a partial check).
    pub region: Option<Bounds>,
}

impl ClashTest {
    /// Every element against every other, in `mode`, nothing ignored.
    pub fn whole_model(model: &[Element], mode: Mode) -> ClashTest {
        ClashTest {
            a: (0..model.len()).collect(),
            b: None,
            mode,
            ignore: IgnoreRules::default(),
            region: None,
        }
    }
}

/// Runs `test` on `model`: every clash, sorted by (A, B) model index. A pair
/// of elements that are in both sets is tested once, with the lower index as A.
pub fn run(model: &[Element], test: &ClashTest) -> Vec<Clash> {
    run_with_progress(model, test, &|_, _| {})
}

/// [`run`], calling `progress(done, total)` as pair tests finish (from any
/// thread; `total` is the number of candidate pairs).
pub fn run_with_progress(
    model: &[Element],
    test: &ClashTest,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Clash> {
    let pairs = candidate_pairs(model, test);
    let total = pairs.len();
    let done = AtomicUsize::new(0);
    let mut clashes: Vec<Clash> = pairs
        .par_iter()
        .filter_map(|&(a, b)| {
            let found = test_pair(&model[a], &model[b], test.mode);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_multiple_of(256) || n == total {
                progress(n, total);
            }
            let (ia, ib) = (&model[a].identity.id, &model[b].identity.id);
            found.map(|finding| Clash {
                // From the ids in sorted order: the same pair gets the same id
                // whichever set it was found from.
                id: clash_id(ia.min(ib), ia.max(ib)),
                a,
                b,
                finding,
            })
        })
        .collect();
    clashes.sort_by_key(|c| (c.a, c.b));
    clashes
}

/// The finding of one pair in one mode.
///
/// In the hard modes, a door or window against the element whose opening it
/// fills ([`Identity::fills`](crate::Identity::fills)) may reach into it by
/// the chord error of a curved opening cut with fewer sides than the filler
/// (the sagitta of the opening's sides where it reaches in, with a tenth to
/// spare) on top of the tolerance: a round window in its round opening is
/// not a clash, one too big for it is.
pub fn test_pair(a: &Element, b: &Element, mode: Mode) -> Option<Finding> {
    let pair = PairFrame::new(a, b);
    match mode {
        Mode::Hard {
            tolerance,
            report_touching,
        } => {
            let found = hard(&pair, tolerance, report_touching);
            // A filler in its host's opening: the opening's chord error,
            // measured where the filler reaches in, is no clash.
            let host = match (&a.identity.fills, &b.identity.fills) {
                (Some(h), _) if *h == b.identity.id => Some((b, 1)),
                (_, Some(h)) if *h == a.identity.id => Some((a, 0)),
                _ => None,
            };
            match (found, host) {
                (Some(f), Some((h, side))) if f.kind != ClashKind::Touch => {
                    let on_host = if side == 0 { f.point_a } else { f.point_b };
                    // With a tenth to spare, so that the depth search need
                    // not tell apart depths a hair from the sagitta.
                    let allowance = 1.1 * chord_allowance(h, on_host);
                    if allowance > 0.0 && -f.distance <= tolerance + allowance {
                        hard(&pair, tolerance + allowance, report_touching)
                    } else {
                        Some(f)
                    }
                }
                (found, _) => found,
            }
        }
        Mode::Clearance { distance } => clearance(&pair, distance),
        Mode::Duplicate { tolerance } => duplicate(&pair, tolerance),
    }
}

/// The pairs to test, sorted, each once, A side first.
fn candidate_pairs(model: &[Element], test: &ClashTest) -> Vec<(usize, usize)> {
    let reach = test.mode.reach();
    let in_region = |i: &usize| test.region.is_none_or(|r| r.overlaps(&model[*i].bounds()));
    let entry = |side: u8| {
        move |&i: &usize| Entry {
            element: i,
            side,
            // Growing one side by the full reach finds every pair within it.
            bounds: if side == 0 {
                model[i].bounds().grown(reach)
            } else {
                model[i].bounds()
            },
        }
    };
    let a = dedup(
        test.a
            .iter()
            .copied()
            .filter(|i| *i < model.len())
            .filter(in_region),
    );
    let mut pairs = match &test.b {
        None => overlapping_pairs(a.iter().map(entry(0)).collect(), true),
        Some(b) => {
            let b = dedup(
                b.iter()
                    .copied()
                    .filter(|i| *i < model.len())
                    .filter(in_region),
            );
            let entries = a
                .iter()
                .map(entry(0))
                .chain(b.iter().map(entry(1)))
                .collect();
            let in_a: HashSet<usize> = a.iter().copied().collect();
            let in_b: HashSet<usize> = b.iter().copied().collect();
            overlapping_pairs(entries, false)
                .into_iter()
                .map(|(x, y)| {
                    // Both in both sets: one test, lower index as A.
                    if in_a.contains(&y) && in_b.contains(&x) && y < x {
                        (y, x)
                    } else {
                        (x, y)
                    }
                })
                .collect()
        }
    };
    pairs.sort_unstable();
    pairs.dedup();
    let listed = test.ignore.listed(model);
    pairs.retain(|&(x, y)| {
        !listed.contains(&(x.min(y), x.max(y))) && !test.ignore.skips(&model[x], &model[y])
    });
    pairs
}

fn dedup(it: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut v: Vec<usize> = it.collect();
    v.sort_unstable();
    v.dedup();
    v
}
