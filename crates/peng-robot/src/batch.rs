//! Batches of configurations and of motions, on all cores. Each answer is
//! computed on its own (no state shared between items), and rayon's
//! indexed collect keeps the input order, so the results do not depend on
//! the number of threads.

use crate::check::{Checker, PairReport, Stop};
use crate::error::RobotError;
use crate::motion::MotionResult;
use rayon::prelude::*;

impl Checker {
    /// [`check`](Checker::check) for every configuration, in order.
    pub fn check_batch(
        &self,
        configurations: &[Vec<f64>],
        stop: Stop,
    ) -> Vec<Result<Vec<PairReport>, RobotError>> {
        configurations
            .par_iter()
            .map(|q| self.check(q, stop))
            .collect()
    }

    /// [`check_motion`](Checker::check_motion) for every segment, in order.
    pub fn check_motion_batch(
        &self,
        segments: &[(Vec<f64>, Vec<f64>)],
    ) -> Vec<Result<MotionResult, RobotError>> {
        segments
            .par_iter()
            .map(|(a, b)| self.check_motion(a, b))
            .collect()
    }
}
