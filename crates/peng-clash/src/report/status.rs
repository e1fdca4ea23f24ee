//! Status across runs: new, active or resolved against an earlier report.

use super::{Report, Status, TestReport};
use std::collections::HashSet;

/// Marks each of `test`'s clashes active when the test of the same name in
/// `previous` had a clash with the same id, new otherwise, and lists that
/// test's clashes not found now under `test.resolved` (status resolved).
/// Without a test of that name in `previous`, every clash is new.
pub fn mark_status(test: &mut TestReport, previous: &Report) {
    let Some(before) = previous.tests.iter().find(|t| t.name == test.name) else {
        for c in &mut test.clashes {
            c.status = Status::New;
        }
        test.resolved.clear();
        return;
    };
    let old: HashSet<&str> = before.clashes.iter().map(|c| c.id.as_str()).collect();
    let now: HashSet<String> = test.clashes.iter().map(|c| c.id.clone()).collect();
    for c in &mut test.clashes {
        c.status = if old.contains(c.id.as_str()) {
            Status::Active
        } else {
            Status::New
        };
    }
    test.resolved = before
        .clashes
        .iter()
        .filter(|c| !now.contains(&c.id))
        .map(|c| {
            let mut c = c.clone();
            c.status = Status::Resolved;
            c.group = None;
            c
        })
        .collect();
}
