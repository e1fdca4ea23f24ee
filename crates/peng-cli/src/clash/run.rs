//! Running the clash tests over the model into a report.

use super::progress::Progress;
use peng_clash::report::{group_clashes, mark_status, GroupBy, Report, TestReport};
use peng_clash::{run_with_progress, Bounds, ClashTest, Element, IgnoreRules, Mode, Selection};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Everything that shapes the tests, checked and read.
pub struct Plan {
    /// The tests, by name and mode.
    pub tests: Vec<(&'static str, Mode)>,
    /// Set A.
    pub a: Selection,
    /// Set B; `None` tests A against itself.
    pub b: Option<Selection>,
    /// Pairs to skip.
    pub ignore: IgnoreRules,
    /// Only elements meeting this box.
    pub region: Option<Bounds>,
    /// How to group each test's clashes.
    pub group: GroupBy,
    /// The earlier report, for new/active/resolved.
    pub previous: Option<Report>,
}

/// The indices of the elements `selection` picks within `region`.
pub fn members(model: &[Element], selection: &Selection, region: Option<&Bounds>) -> Vec<usize> {
    selection
        .indices(model)
        .into_iter()
        .filter(|&i| region.is_none_or(|r| r.overlaps(&model[i].bounds())))
        .collect()
}

/// Runs every test of `plan` on `model` and adds its report to `report`.
pub fn run_tests(model: &[Element], plan: &Plan, report: &mut Report) {
    let a = members(model, &plan.a, plan.region.as_ref());
    let b = plan
        .b
        .as_ref()
        .map(|s| members(model, s, plan.region.as_ref()));
    for &(name, mode) in &plan.tests {
        let test = ClashTest {
            a: a.clone(),
            b: b.clone(),
            mode,
            ignore: plan.ignore.clone(),
            region: plan.region,
        };
        let bar = Progress::new(name);
        let pairs = AtomicUsize::new(0);
        let clashes = run_with_progress(model, &test, &|done, total| {
            pairs.store(total, Ordering::Relaxed);
            bar.update(done, total);
        });
        bar.finish();
        let mut t = TestReport::new(
            name,
            mode,
            a.len(),
            b.as_ref().map(Vec::len),
            pairs.load(Ordering::Relaxed),
            model,
            &clashes,
        );
        group_clashes(&mut t, plan.group);
        if let Some(previous) = &plan.previous {
            mark_status(&mut t, previous);
        }
        report.tests.push(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use peng_clash::{example_model, Selector};

    fn plan(tests: Vec<(&'static str, Mode)>) -> Plan {
        Plan {
            tests,
            a: Selection::all(),
            b: None,
            ignore: IgnoreRules::default(),
            region: None,
            group: GroupBy::Proximity(1.0),
            previous: None,
        }
    }

    #[test]
    fn example_tests_count_pairs_and_group() {
        let model = example_model();
        let mut report = Report::new(vec![], vec![]);
        run_tests(
            &model,
            &plan(vec![
                ("hard", Mode::INTERSECTION),
                ("duplicate", Mode::Duplicate { tolerance: 0.001 }),
            ]),
            &mut report,
        );
        let hard = &report.tests[0];
        assert_eq!(hard.clashes.len(), 4);
        assert_eq!(hard.set_a, 20);
        assert_eq!(hard.set_b, None);
        assert!(hard.pairs_tested >= 3, "{}", hard.pairs_tested);
        assert!(hard.clashes.iter().all(|c| c.group.is_some()));
        assert_eq!(report.tests[1].clashes.len(), 1);
    }

    #[test]
    fn sets_and_region_narrow_the_pairs() {
        let model = example_model();
        let mut p = plan(vec![("clearance", Mode::Clearance { distance: 0.05 })]);
        p.a = Selection {
            include: vec![Selector::Class("IfcPipeSegment".into())],
            exclude: vec![],
        };
        p.b = Some(Selection {
            include: vec![Selector::Class("IfcBeam".into())],
            exclude: vec![],
        });
        let mut report = Report::new(vec![], vec![]);
        run_tests(&model, &p, &mut report);
        let t = &report.tests[0];
        assert_eq!((t.set_a, t.set_b), (3, Some(2)));
        let names: Vec<(&str, &str)> = t
            .clashes
            .iter()
            .map(|c| (c.a.name.as_str(), c.b.name.as_str()))
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names.contains(&("Pipe P1", "Beam B1")), "{names:?}");
        assert!(names.contains(&("Pipe P2", "Beam B2")), "{names:?}");
        // The east half only: beam B2 and pipe P2 remain.
        p.region = Some(Bounds {
            min: [7.0, 0.0, 0.0].into(),
            max: [12.0, 8.0, 3.0].into(),
        });
        let mut report = Report::new(vec![], vec![]);
        run_tests(&model, &p, &mut report);
        let t = &report.tests[0];
        assert_eq!((t.set_a, t.set_b), (2, Some(1)));
        assert_eq!(t.clashes.len(), 1);
        assert_eq!(t.clashes[0].b.name, "Beam B2");
    }
}
