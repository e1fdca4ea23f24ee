//! The event log of a simulation run: a header, then one line per contact
//! that began or ended, in step order.
//!
//! ```text
//! # peng sim examples/sim/pyramid.json: 2D, 56 bodies, 0 joints, dt 0.016667 s, 4 substeps, 240 steps
//! step 12  t=0.2000  began  box0_3 — ground
//! step 40  t=0.6667  ended  ball1 — ball2
//! ```
//!
//! A collider is named after its body, with `#k` (the collider's index in
//! the body's list) when the body has more than one.

use super::model::SimScene;
use std::fmt::Write as _;

/// One contact event of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEvent {
    /// The step after which it was seen (1 = after the first step).
    pub step: u64,
    /// Simulated time after that step, seconds.
    pub t: f64,
    /// Began (true) or ended (false).
    pub began: bool,
    /// The first collider's name (see the module documentation).
    pub a: String,
    /// The second collider's name.
    pub b: String,
}

/// The name of collider `k` of a body named `body` with `count` colliders.
pub fn collider_name(body: &str, k: usize, count: usize) -> String {
    if count > 1 {
        format!("{body}#{k}")
    } else {
        body.to_string()
    }
}

/// `n` and the noun, singular for 1 ("1 body", "2 bodies").
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "2D, N bodies, M joints" of a scene.
pub fn contents(s: &SimScene) -> String {
    let (bodies, joints) = s.counts();
    format!(
        "{}D, {}, {}",
        s.dimension(),
        count(bodies, "body", "bodies"),
        count(joints, "joint", "joints")
    )
}

/// The log's first line, for a run of `steps` steps.
pub fn header(s: &SimScene, steps: u64) -> String {
    format!(
        "# peng sim {}: {}, dt {:.6} s, {} substeps, {} steps",
        s.source,
        contents(s),
        s.timing.dt,
        s.timing.substeps,
        steps
    )
}

/// One event as a log line (no newline).
pub fn line(e: &LogEvent) -> String {
    let mut s = String::new();
    let kind = if e.began { "began" } else { "ended" };
    let _ = write!(
        s,
        "step {}  t={:.4}  {kind}  {} — {}",
        e.step, e.t, e.a, e.b
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_names() {
        let e = LogEvent {
            step: 12,
            t: 0.2,
            began: true,
            a: collider_name("box", 0, 1),
            b: collider_name("car", 1, 2),
        };
        assert_eq!(line(&e), "step 12  t=0.2000  began  box — car#1");
        let e = LogEvent { began: false, ..e };
        assert!(line(&e).contains("  ended  "));
    }

    #[test]
    fn header_names_the_scene() {
        let s = super::super::load::parse("p.json", super::super::BUNDLED[0].2).unwrap();
        assert_eq!(
            header(&s, 7),
            "# peng sim p.json: 2D, 56 bodies, 0 joints, dt 0.016667 s, 4 substeps, 7 steps"
        );
    }
}
