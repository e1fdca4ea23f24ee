//! The inclusion search: the earliest parameter box that may hold a zero of
//! the contact function.
//!
//! Branch and bound over boxes of `(t, s, r)` (after Wang et al., ACM TOG
//! 2021, "Tight-Inclusion", §4), with three changes that bound the work and
//! cut false positives:
//!
//! - depth first with a fixed stack (no allocation; the stack holds at most
//!   one box per level), earlier time halves first, and a bound: once a box
//!   is reported at time `T`, boxes starting after `T − tolerance/2` are
//!   dropped, and the answer is the earliest start of the reported and the
//!   dropped boxes (so it is still a lower bound of any contact, and within
//!   the tolerance of the contact in the reported box, whose time width is at
//!   most half the tolerance);
//! - the split goes to the parameter that accounts for the largest share of
//!   the range widths of the axes of `F` that can still exclude the box (not
//!   yet inside the band `[−slack, slack]`), ignoring variations below the
//!   rounding-error bound, so boxes shrink in the co-domain, where the
//!   exclusion test works, not just in time (see `choose_split`);
//! - a box is reported when all axes are inside the band (contact up to
//!   rounding), or when its time width is below half the tolerance *and* no
//!   surface parameter can usefully be split any more (variations at the
//!   error bound, or widths below `MIN_PARAM_WIDTH`), so near misses are
//!   refined until the rounding error, not the tolerance, decides.
//!
//! A work budget caps the boxes examined; when it runs out the answer is the
//! earliest start time of any box not yet excluded (a conservative hit).

use super::precise::Precise;
use super::system::{Corners, ParamBox, System};

/// A box is "converged" in a direction when `F` changes by at most this many
/// error bounds along it.
const CONVERGED: f64 = 1.0;
/// The weight of time against the surface parameters when choosing a split.
const TIME_WEIGHT: f64 = 2.0;
/// Boxes verified in double-double arithmetic per query; later candidates
/// are reported without the second look (bounding the work of long sliding
/// contacts, where every time slab yields a candidate).
const MAX_VERIFICATIONS: u32 = 16;
/// Surface parameter intervals narrower than this are not split further.
const MIN_PARAM_WIDTH: f64 = 1.0 / (1u64 << 40) as f64;
/// Stack capacity: one box per level of splitting (at most 41 in time, as
/// boxes are split down to half the time tolerance, which is at least
/// 1e-12 ≈ 2⁻⁴⁰, and 40 per surface parameter) plus slack.
const STACK: usize = 160;

/// The earliest time, within `intervals` (sorted, disjoint), at which `F` may
/// vanish; `None` when it certainly does not. `precise_system` builds the
/// double-double evaluator (only when a box would be reported). `work` counts the boxes
/// examined, across calls.
pub(crate) fn earliest_zero(
    sys: &System,
    precise_system: impl Fn() -> Precise,
    intervals: &[[f64; 2]],
    time_tolerance: f64,
    max_work: u32,
    work: &mut u32,
) -> Option<f64> {
    let mut stack = [ParamBox {
        t: [0.0; 2],
        s: [0.0; 2],
        r: [0.0; 2],
    }; STACK];
    // Half the tolerance goes to the reported box's width, half to the
    // pruning margin below it.
    let half = time_tolerance * 0.5;
    // The start of the reported box, and the earliest start of a box dropped
    // because it starts within `half` of it (not excluded: the answer must
    // not exceed it).
    let mut best = f64::INFINITY;
    let mut dropped = f64::INFINITY;
    let mut precise: Option<Precise> = None;
    let mut verifications = 0u32;
    for iv in intervals {
        if iv[0] >= best - half {
            dropped = dropped.min(iv[0]);
            break;
        }
        stack[0] = ParamBox {
            t: *iv,
            s: [0.0, 1.0],
            r: [0.0, 1.0],
        };
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let b = stack[len];
            if b.t[0] >= best - half {
                dropped = dropped.min(b.t[0]);
                continue;
            }
            *work += 1;
            if *work > max_work {
                // Out of budget: the earliest time not yet ruled out. Later
                // intervals start after this one's boxes.
                let earliest = stack[..=len]
                    .iter()
                    .fold(best.min(dropped), |m, b| m.min(b.t[0]));
                return Some(earliest);
            }
            let c = sys.corners(&b);
            if !sys.may_vanish(&c) {
                continue;
            }
            let dim = match choose_split(sys, &b, &c, half) {
                Some(dim) if len + 2 <= STACK => dim,
                // Settled or converged (or, never in practice, out of
                // stack): report.
                _ => {
                    // A second look in double-double arithmetic, once per
                    // box that would be reported: near misses within the
                    // double-precision error bound are excluded there.
                    verifications += 1;
                    let held = verifications > MAX_VERIFICATIONS || {
                        let precise = precise.get_or_insert_with(&precise_system);
                        precise.may_hold_contact(&b, work, max_work)
                    };
                    if held {
                        best = best.min(b.t[0]);
                    }
                    if *work > max_work {
                        let earliest = stack[..len]
                            .iter()
                            .fold(best.min(dropped), |m, b| m.min(b.t[0]));
                        return Some(earliest);
                    }
                    continue;
                }
            };
            let (lo, hi) = split(&b, dim);
            // Earlier time first (popped first); for s and r the order is
            // free.
            stack[len] = hi;
            stack[len + 1] = lo;
            len += 2;
        }
    }
    // Everything before min(best, dropped) is excluded; if the reported box
    // holds a contact, it is before best + half, so the answer is within the
    // tolerance of it.
    let earliest = best.min(dropped);
    best.is_finite().then_some(earliest)
}

/// The parameter to split a box that may hold a zero (0: t, 1: s, 2: r), or
/// `None` to report it.
///
/// An axis of `F` whose range lies inside the band `[−slack, slack]` is
/// *settled*: splitting cannot exclude the box through it. When every axis is
/// settled, every point of the box is a contact up to rounding, so the box is
/// reported at once (its start is the earliest contact in it). Otherwise the
/// parameter that accounts for the largest share of the unsettled axes'
/// range widths (counting only variations above the rounding error, time
/// weighted by `TIME_WEIGHT`) is split, if it can still be split; else time,
/// until the time tolerance is met.
#[inline]
fn choose_split(sys: &System, b: &ParamBox, c: &Corners, time_tolerance: f64) -> Option<usize> {
    let (lo, hi) = sys.range(c);
    let slack = sys.slack();
    let settled = lo.cmpge(-slack) & hi.cmple(slack);
    if settled.all() {
        return None;
    }
    let splittable = [
        b.t[1] - b.t[0] > time_tolerance,
        b.s[1] - b.s[0] > MIN_PARAM_WIDTH,
        b.r[1] - b.r[0] > MIN_PARAM_WIDTH,
    ];
    let var = sys.variations(c);
    let floor = sys.error() * CONVERGED;
    // Per unsettled axis, the share of its range width due to each parameter;
    // the parameter with the largest total share (time weighted up) is split.
    // (The error, not the minimum separation, pads the width: a wide band
    // would hide the axis that separates.)
    let width = (hi - lo + sys.error() * 2.0).to_array();
    let settled = settled.bitmask();
    let mut best = None;
    let mut best_score = 0.0;
    for k in 0..3 {
        if !splittable[k] {
            continue;
        }
        let mut score = 0.0;
        for a in 0..3 {
            let v = var[k][a];
            if settled & (1 << a) == 0 && (v > floor[a] || v.is_nan()) {
                score += v / width[a];
            }
        }
        if k == 0 {
            score *= TIME_WEIGHT;
        }
        // NaN scores are picked too (split; the budget or the width limits
        // end the search conservatively).
        if score > best_score || score.is_nan() {
            best = Some(k);
            best_score = score;
            if score.is_nan() {
                break;
            }
        }
    }
    if best.is_some() {
        return best;
    }
    splittable[0].then_some(0)
}

/// The two halves of `b` along `dim` (0: t, 1: s, 2: r). The midpoint is
/// shared, so the halves cover the box exactly whatever its rounding.
#[inline]
fn split(b: &ParamBox, dim: usize) -> (ParamBox, ParamBox) {
    let mut lo = *b;
    let mut hi = *b;
    let (l, h) = match dim {
        0 => (&mut lo.t, &mut hi.t),
        1 => (&mut lo.s, &mut hi.s),
        _ => (&mut lo.r, &mut hi.r),
    };
    let mid = l[0] + (l[1] - l[0]) * 0.5;
    l[1] = mid;
    h[0] = mid;
    (lo, hi)
}
