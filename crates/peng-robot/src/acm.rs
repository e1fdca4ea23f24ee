//! The allowed-collision matrix, generated as MoveIt's setup assistant
//! does: links that are adjacent, that collide in every sampled
//! configuration ("Default": the model's own overlap) or in none ("Never")
//! are never checked against each other; the result is written as SRDF.

use crate::check::Checker;
use crate::model::Robot;
use crate::shapes::LinkShape;
use rayon::prelude::*;

/// Why a pair of links is not checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DisableReason {
    /// One is the other's nearest ancestor with shapes.
    Adjacent,
    /// In collision in every sampled configuration.
    Default,
    /// In collision in none of them.
    Never,
}

impl DisableReason {
    /// The SRDF `reason` attribute.
    pub fn as_str(self) -> &'static str {
        match self {
            DisableReason::Adjacent => "Adjacent",
            DisableReason::Default => "Default",
            DisableReason::Never => "Never",
        }
    }
}

/// The pairs of links with shapes that need not be checked, sorted, from
/// `samples` random configurations within the joint limits (continuous
/// joints over one turn), drawn from `seed`.
pub fn generate(
    robot: &Robot,
    shapes: &[Vec<LinkShape>],
    samples: usize,
    seed: u64,
) -> Vec<((usize, usize), DisableReason)> {
    let all = Checker::new(robot.clone(), shapes.to_vec(), None);
    let adjacent = Checker::adjacent_pairs(robot, shapes);
    let pairs = all.self_pairs().to_vec();
    // For each sample, which of `pairs` collide; counted per pair.
    let configurations: Vec<Vec<f64>> = (0..samples as u64)
        .map(|k| random_configuration(robot, seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
        .collect();
    let counts = configurations
        .par_iter()
        .map(|q| all.colliding_self_pairs(q))
        .fold(
            || vec![0usize; pairs.len()],
            |mut acc, hits| {
                for (c, h) in acc.iter_mut().zip(hits) {
                    *c += usize::from(h);
                }
                acc
            },
        )
        .reduce(
            || vec![0usize; pairs.len()],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    let mut out: Vec<((usize, usize), DisableReason)> = adjacent
        .into_iter()
        .map(|p| (p, DisableReason::Adjacent))
        .collect();
    for (p, n) in pairs.iter().zip(counts) {
        if n == samples {
            out.push((*p, DisableReason::Default));
        } else if n == 0 {
            out.push((*p, DisableReason::Never));
        }
    }
    out.sort();
    out
}

/// The generated pairs as an SRDF document for `robot`.
pub fn to_srdf(robot: &Robot, disabled: &[((usize, usize), DisableReason)]) -> String {
    let mut s = format!("<?xml version=\"1.0\"?>\n<robot name=\"{}\">\n", robot.name);
    for ((a, b), why) in disabled {
        s += &format!(
            "    <disable_collisions link1=\"{}\" link2=\"{}\" reason=\"{}\"/>\n",
            robot.links[*a].name,
            robot.links[*b].name,
            why.as_str()
        );
    }
    s + "</robot>\n"
}

/// A configuration drawn uniformly within the limits (a SplitMix64 stream
/// from `seed`; continuous joints over `[-π, π]`).
fn random_configuration(robot: &Robot, seed: u64) -> Vec<f64> {
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    robot
        .active_joints()
        .iter()
        .map(|&j| {
            let (lo, hi) = match robot.joints[j].limits {
                Some(l) if robot.joints[j].kind != crate::model::JointKind::Continuous => {
                    (l.lower, l.upper)
                }
                _ => (-std::f64::consts::PI, std::f64::consts::PI),
            };
            lo + (hi - lo) * next()
        })
        .collect()
}
