//! Apart pairs: a candidate pair found apart keeps a lower bound on its
//! distance, and is not tested again while its colliders cannot have moved
//! close enough to touch.
//!
//! When the narrow phase finds a pair apart, its separating-axis test has
//! measured a separation `gap` along some axis, and the shapes are at least
//! `gap` apart (the projections of the two shapes on any unit axis are at
//! least the distance apart). The pair keeps `gap` with its relative poses,
//! `A0⁻¹B0` and `B0⁻¹A0`. At a later update every point of B has moved
//! relative to A by at most `drift`, the bound of `reuse.rs` (`|t - t0| +
//! 2 sin(θ/2)·reach`), so the shapes are at least `gap - drift` apart. While
//!
//! `gap - drift > offset_now + rounding`,
//!
//! the pair cannot touch under the touching rule (distance at most its
//! offset), and its test is skipped: the answer, apart, is known. Unlike
//! manifold reuse this changes no result; it is always on.
//!
//! The gap is the separation of the axis on which the separating-axis test
//! stopped (the first found separating the shapes by more than the pair's
//! offset). Asking the test for a larger gap (going on to a better axis)
//! cost more in a settling pile of hulls than the longer skips saved. A
//! resting pile's pairs of neighbours that do not touch then cost a few
//! multiplications per update instead of a test.
//!
//! Only solid pairs of single-manifold shapes without a centre radius or
//! continuous detection keep a gap (the others measure none), and the
//! pairs a query can measure: convex polyhedra and boxes (`d3`), not two
//! boxes, whose closed-form test is cheap; two circles and two rects with
//! area (`d2`). A 2D pair's test is cheap too, but the narrow phase around
//! it is not: in the tumbler, two thirds of the pairs tested were apart,
//! and each cost some 500 instructions, a tenth of them the test.

use crate::par::*;

use super::collider::Collider;
use super::dim::Dim;
use super::merge::gallop;
use super::pairs::{centre_radius, offset, PairKey};
use super::reuse::drift_within;
use super::stretch;
use super::World;

/// The rounding allowed for the gap and the drift, relative to the smaller
/// reach plus the gap: the separating-axis test's rounding is a few ulps of
/// the coordinates (about `1e-7` relative), and the drift's about as much.
const ROUNDING_REL: f32 = 1e-5;

/// Records per task of [`World::skip_apart`].
const APART_CHUNK: usize = 512;

/// Fewest records for which [`World::skip_apart`] runs on rayon's threads.
const PARALLEL_APART_MIN: usize = 2048;

/// A chunk of [`World::skip_apart`]: records with their flags (used or
/// not), and the stretch of candidate pairs with their marks (skipped or
/// not).
type Chunk<'a, D> = (
    (&'a [(PairKey, Apart<D>)], &'a mut [bool]),
    (&'a [PairKey], &'a mut [bool]),
);

/// A pair's kept gap: its relative poses at the test that measured it.
pub(crate) struct Apart<D: Dim> {
    /// B's pose in A's frame at the test, `A0⁻¹B0`.
    b_in_a: D::Pose,
    /// A's pose in B's frame at the test, `B0⁻¹A0`.
    a_in_b: D::Pose,
    /// The lower bound on the shapes' distance the test measured.
    gap: f32,
}

/// Whether a pair may keep a gap: a solid pair without a centre radius or
/// continuous detection (the touching rule of those is not a distance
/// against the offset alone).
fn keeps_gap<D: Dim>(a: &Collider<D>, b: &Collider<D>) -> bool {
    !(a.sensor || b.sensor || a.ccd || b.ccd) && centre_radius(a, b).is_none()
}

/// The record of a pair just found apart with the measured `gap`, when it
/// keeps one and the gap exceeds its offset.
pub(crate) fn record<D: Dim>(a: &Collider<D>, b: &Collider<D>, gap: f32) -> Option<Apart<D>> {
    let off = offset(a, b).unwrap_or(0.0);
    (keeps_gap(a, b) && gap > off).then(|| Apart {
        b_in_a: D::inv_mul(&a.pose, &b.pose),
        a_in_b: D::inv_mul(&b.pose, &a.pose),
        gap,
    })
}

/// Whether the pair, kept apart by `rec`, still cannot touch at the
/// colliders' current poses (module docs). A NaN anywhere fails.
fn still_apart<D: Dim>(
    rec: &Apart<D>,
    a: &Collider<D>,
    b: &Collider<D>,
    reach_a: f32,
    reach_b: f32,
) -> bool {
    if !keeps_gap(a, b) {
        return false;
    }
    let off = offset(a, b).unwrap_or(0.0);
    let rounding = ROUNDING_REL * (reach_a.min(reach_b) + rec.gap.abs());
    let room = rec.gap - off - rounding;
    room > 0.0
        && drift_within::<D>(
            &rec.b_in_a,
            &rec.a_in_b,
            &a.pose,
            &b.pose,
            reach_a,
            reach_b,
            room,
        )
}

impl<D: Dim> World<D> {
    /// How many candidate pairs (boxes overlapping, an end changed) the
    /// last update did not test because they are certainly still apart: the
    /// separation their last test measured, less how far either collider
    /// has since moved relative to the other, still exceeds their offset.
    pub fn skipped_apart_pairs(&self) -> usize {
        self.skipped_apart
    }

    /// Takes out of `work` (sorted) the pairs whose kept gap proves them
    /// still apart, and marks those records as used (`kept`, one flag per
    /// record of `self.apart`). Nothing is skipped when every pair is to be
    /// tested again. Counts them in `skipped_apart`.
    ///
    /// The records are taken in chunks of [`APART_CHUNK`], on rayon's
    /// threads when there are many: each chunk finds its stretch of `work`
    /// by binary search, and looks each record's pair up in it by a
    /// galloping search from the last one (a few records, a resting
    /// pyramid's, cost a few searches, not a pass over every candidate).
    /// The pairs skipped are marked by their places in `work`, and taken
    /// out by those marks.
    pub(super) fn skip_apart(&mut self, work: &mut Vec<PairKey>) -> Vec<bool> {
        let mut kept = vec![false; self.apart.len()];
        if self.retest_all || self.apart.is_empty() || work.is_empty() {
            return kept;
        }
        let fresh_shape = |i: usize| self.reshaped.get(i).copied().unwrap_or(true);
        // Each chunk of the records with the stretch of `work` it can meet
        // and those pairs' marks.
        let mut skip = vec![false; work.len()];
        let stretches = stretch::stretches(&self.apart, |(k, _)| k, APART_CHUNK, work, &mut skip);
        // One chunk: its records with their flags, and its stretch of
        // `work` with the marks; returns how many pairs it skips.
        let chunk = |((records, kept), (keys, skip)): Chunk<'_, D>| {
            let (mut w, mut n) = (0, 0);
            for ((k, rec), keep) in records.iter().zip(kept) {
                w = gallop(keys, w, |x| x < k);
                if w == keys.len() {
                    break;
                }
                if keys[w] != *k {
                    continue;
                }
                let (i, j) = (k.0.index() as usize, k.1.index() as usize);
                if fresh_shape(i) || fresh_shape(j) {
                    continue;
                }
                let (Some(a), Some(b)) = (self.colliders.get(k.0), self.colliders.get(k.1)) else {
                    continue;
                };
                if still_apart(rec, a, b, self.reach[i], self.reach[j]) {
                    *keep = true;
                    skip[w] = true;
                    n += 1;
                }
            }
            n
        };
        let skipped: usize = if self.apart.len() >= PARALLEL_APART_MIN {
            self.apart
                .par_chunks(APART_CHUNK)
                .zip(kept.par_chunks_mut(APART_CHUNK))
                .zip(stretches.into_par_iter())
                .map(chunk)
                .sum()
        } else {
            self.apart
                .chunks(APART_CHUNK)
                .zip(kept.chunks_mut(APART_CHUNK))
                .zip(stretches)
                .map(chunk)
                .sum()
        };
        if skipped > 0 {
            stretch::drop_marked(work, &skip);
        }
        self.skipped_apart = skipped;
        kept
    }

    /// The records after this update, from the old ones (`kept`: those
    /// that skipped their pair's test) and the tested pairs `work` with
    /// their new records (`fresh`, one per pair of `work`). An old record
    /// stays while neither collider changed or its pair was skipped; a
    /// tested pair gets its new record or none; a pair whose collider
    /// changed but is no candidate any more (its boxes apart) loses it.
    pub(super) fn keep_apart(
        &mut self,
        work: &[PairKey],
        fresh: Vec<Option<Apart<D>>>,
        kept: Vec<bool>,
    ) {
        let mut old = core::mem::take(&mut self.apart);
        // The previous list's buffer (a fresh allocation of a large list
        // each update costs its page faults again).
        let mut now = core::mem::take(&mut self.apart_spare);
        now.clear();
        let mut new = work
            .iter()
            .zip(fresh)
            .filter_map(|(k, r)| r.map(|r| (*k, r)))
            .peekable();
        let mut w = 0;
        for ((k, rec), skipped) in old.drain(..).zip(kept) {
            while let Some((nk, _)) = new.peek() {
                if *nk >= k {
                    break;
                }
                now.extend(new.next());
            }
            while w < work.len() && work[w] < k {
                w += 1;
            }
            if work.get(w) == Some(&k) {
                // Tested: its new record, if any, comes from `new`.
                continue;
            }
            let alive =
                !self.removed_any || (self.colliders.contains(k.0) && self.colliders.contains(k.1));
            if alive && (skipped || !self.retested(k)) {
                now.push((k, rec));
            }
        }
        now.extend(new);
        self.apart = now;
        self.apart_spare = old;
    }
}
