//! The checks of a trajectory: every waypoint on its own, every segment
//! between two waypoints continuously (peng-robot's conservative
//! advancement), and samples of a colliding segment past its first
//! contact.

use anyhow::{Context, Result};
use peng_robot::{Checker, MotionResult, PairReport, Stop};

/// How many samples of a colliding segment follow its first contact.
pub const SAMPLES_AFTER: usize = 50;

/// A waypoint's check.
#[derive(Debug, Clone)]
pub struct WaypointCheck {
    /// Its configuration.
    pub q: Vec<f64>,
    /// Every pair in contact.
    pub contacts: Vec<PairReport>,
    /// The closest pair (`None` when no pair is checked).
    pub closest: Option<PairReport>,
}

impl WaypointCheck {
    /// Whether nothing touches.
    pub fn free(&self) -> bool {
        self.contacts.is_empty()
    }
}

/// What the samples of a colliding segment past its first contact found.
#[derive(Debug, Clone)]
pub struct After {
    /// The number of samples.
    pub samples: usize,
    /// How many are in contact.
    pub in_contact: usize,
    /// The deepest pair over the samples, with its `s`.
    pub deepest: Option<(f64, PairReport)>,
    /// The last sample in contact.
    pub last_contact_s: Option<f64>,
}

/// The first contact along a segment.
#[derive(Debug, Clone)]
pub struct FirstContact {
    /// The fraction of the segment (0 to 1).
    pub s: f64,
    /// The configuration there.
    pub q: Vec<f64>,
    /// The pair, measured at `s`.
    pub pair: PairReport,
    /// The samples of the rest of the segment.
    pub after: After,
}

/// A segment's check.
#[derive(Debug, Clone)]
pub enum SegmentCheck {
    /// Free: the least distance measured along the way (`None` when no pair
    /// is checked).
    Free(Option<f32>),
    /// The first contact.
    Contact(Box<FirstContact>),
}

/// The checks of a whole trajectory.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// One per waypoint.
    pub waypoints: Vec<WaypointCheck>,
    /// One per pair of consecutive waypoints.
    pub segments: Vec<SegmentCheck>,
}

/// Where the motion comes closest without contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Closest {
    /// At a waypoint.
    Waypoint(usize),
    /// Along a segment.
    Segment(usize),
}

impl Analysis {
    /// The number of free waypoints.
    pub fn waypoints_free(&self) -> usize {
        self.waypoints.iter().filter(|w| w.free()).count()
    }

    /// The number of free segments.
    pub fn segments_free(&self) -> usize {
        self.segments
            .iter()
            .filter(|s| matches!(s, SegmentCheck::Free(_)))
            .count()
    }

    /// The first segment with a contact, and its contact.
    pub fn first_contact(&self) -> Option<(usize, &FirstContact)> {
        self.segments.iter().enumerate().find_map(|(i, s)| match s {
            SegmentCheck::Contact(c) => Some((i, c.as_ref())),
            SegmentCheck::Free(_) => None,
        })
    }

    /// The least distance over the free waypoints and free segments, and
    /// where (the first place it is reached).
    pub fn min_clearance(&self) -> Option<(f32, Closest)> {
        let waypoints = self.waypoints.iter().enumerate().filter_map(|(i, w)| {
            let c = w.closest?;
            w.free().then_some((c.distance, Closest::Waypoint(i)))
        });
        let segments = self
            .segments
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s {
                SegmentCheck::Free(Some(d)) => Some((*d, Closest::Segment(i))),
                _ => None,
            });
        waypoints
            .chain(segments)
            .fold(None, |best: Option<(f32, Closest)>, x| match best {
                Some(b) if b.0 <= x.0 => Some(b),
                _ => Some(x),
            })
    }
}

/// The configuration at `s` along the segment from `q0` to `q1`.
pub fn lerp(q0: &[f64], q1: &[f64], s: f64) -> Vec<f64> {
    q0.iter().zip(q1).map(|(a, b)| a + s * (b - a)).collect()
}

/// Checks every waypoint and every segment of `waypoints`.
pub fn analyse(checker: &Checker, waypoints: &[Vec<f64>]) -> Result<Analysis> {
    let mut out = Analysis {
        waypoints: Vec::with_capacity(waypoints.len()),
        segments: Vec::with_capacity(waypoints.len().saturating_sub(1)),
    };
    for (i, q) in waypoints.iter().enumerate() {
        let ctx = || format!("waypoint {i}");
        let contacts = checker.check(q, Stop::Never).with_context(ctx)?;
        let (closest, _) = checker.distance(q, 0.0).with_context(ctx)?;
        out.waypoints.push(WaypointCheck {
            q: q.clone(),
            contacts,
            closest,
        });
    }
    for (i, w) in waypoints.windows(2).enumerate() {
        let ctx = || format!("segment {i} (waypoint {i} to {})", i + 1);
        let check = match checker.check_motion(&w[0], &w[1]).with_context(ctx)? {
            MotionResult::Free { clearance } => {
                SegmentCheck::Free(clearance.is_finite().then_some(clearance))
            }
            MotionResult::Contact { s, pair } => {
                let after = sample_after(checker, &w[0], &w[1], s).with_context(ctx)?;
                SegmentCheck::Contact(Box::new(FirstContact {
                    s,
                    q: lerp(&w[0], &w[1], s),
                    pair,
                    after,
                }))
            }
        };
        out.segments.push(check);
    }
    Ok(out)
}

/// Samples the segment from `q0` to `q1` at [`SAMPLES_AFTER`] evenly spaced
/// points past `s` (the last at 1).
fn sample_after(checker: &Checker, q0: &[f64], q1: &[f64], s: f64) -> Result<After> {
    let mut after = After {
        samples: SAMPLES_AFTER,
        in_contact: 0,
        deepest: None,
        last_contact_s: None,
    };
    for k in 1..=SAMPLES_AFTER {
        let t = s + (1.0 - s) * k as f64 / SAMPLES_AFTER as f64;
        let contacts = checker.check(&lerp(q0, q1, t), Stop::Never)?;
        if contacts.is_empty() {
            continue;
        }
        after.in_contact += 1;
        after.last_contact_s = Some(t);
        for c in contacts {
            if after.deepest.is_none_or(|(_, d)| c.distance < d.distance) {
                after.deepest = Some((t, c));
            }
        }
    }
    Ok(after)
}
