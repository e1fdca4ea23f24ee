//! `peng clash [FILES...]`: clash detection on building models (peng-clash).
//!
//! The steps, one file each: [`options`] and [`selectors`] check the
//! arguments, [`ignore`] reads `--ignore-pairs`, [`load`] reads the model
//! (or takes the bundled example), [`run`] runs the tests (with a
//! [`progress`] bar on a terminal), [`output`] writes `report.json`,
//! `clashes.csv`, `report.html` and `clashes.bcf` (with pictures of the
//! clashes drawn from the model, and a creation time from [`date`]), and
//! [`summary`] prints what was found.

mod date;
mod ignore;
mod load;
mod options;
mod output;
mod progress;
mod run;
mod selectors;
mod summary;

use crate::cli::{BcfTopics, ClashArgs};
use anyhow::{Context, Result};
use peng_clash::report::{Report, Topics};
use peng_clash::IgnoreRules;
use run::Plan;

/// Runs `peng clash`.
pub fn run_cli(args: &ClashArgs) -> Result<()> {
    let plan = plan(args)?;
    let output = output_options(args)?;
    let limits = peng_clash::LoadOptions {
        max_vertices: args.max_vertices,
        max_triangles: args.max_triangles,
        max_face_vertices: args.max_face_vertices,
        max_boolean_depth: args.max_boolean_depth,
        max_cut_work: args.max_cut_work,
    };
    let model = load::load(&args.files, &limits, &mut |w| eprintln!("warning: {w}"))?;
    warn_empty_sets(&model.elements, &plan, args);
    output::prepare(&args.out)?;
    let mut report = Report::new(model.files.clone(), model.problems.clone());
    run::run_tests(&model.elements, &plan, &mut report);
    let written = output::write(&args.out, &report, &model.elements, &output)?;
    if args.json {
        println!("{}", report.to_json());
    } else {
        let modes: Vec<_> = plan.tests.iter().map(|&(_, m)| m).collect();
        let written: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        print!(
            "{}",
            summary::text(&report, &modes, &model.source, &written)
        );
    }
    Ok(())
}

/// Checks every option and reads the small input files (ignore list,
/// earlier report) before the model is loaded.
fn plan(args: &ClashArgs) -> Result<Plan> {
    let tests = options::tests(args)?;
    let a = selectors::selection("--a", &args.a, &args.a_not)?;
    let b = if args.b.is_empty() && args.b_not.is_empty() {
        None
    } else {
        Some(selectors::selection("--b", &args.b, &args.b_not)?)
    };
    let region = args.region.as_deref().map(options::region).transpose()?;
    let group = options::group(&args.group)?;
    let pairs = match &args.ignore_pairs {
        Some(p) => ignore::read_pairs(p)?,
        None => Default::default(),
    };
    let previous = match &args.previous {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read --previous report {}", p.display()))?;
            let r = Report::from_json(&text).map_err(|e| {
                anyhow::anyhow!("--previous {}: not a peng clash report: {e}", p.display())
            })?;
            Some(r)
        }
        None => None,
    };
    Ok(Plan {
        tests,
        a,
        b,
        ignore: IgnoreRules {
            same_parent: args.ignore_same_parent,
            same_file: args.ignore_same_file,
            pairs,
            fillers_in_hosts: args.ignore_fillers || args.typical_rules,
            coverings_on_hosts: args.ignore_coverings || args.typical_rules,
            embedded_parts: args.ignore_embedded || args.typical_rules,
        },
        region,
        group,
        previous,
    })
}

/// How the HTML page and the BCF topics are made: `--picture-size`,
/// `--no-pictures`, `--bcf-topics`.
fn output_options(args: &ClashArgs) -> Result<output::Options> {
    let size = options::picture_size(&args.picture_size)?;
    Ok(output::Options {
        pictures: (!args.no_pictures).then_some(size),
        topics: match args.bcf_topics {
            BcfTopics::Clash => Topics::PerClash,
            BcfTopics::Group => Topics::PerGroup,
        },
    })
}

/// Warns when a set (within the region) has no elements: every test would
/// find nothing.
fn warn_empty_sets(model: &[peng_clash::Element], plan: &Plan, args: &ClashArgs) {
    let region = plan.region.as_ref();
    let mut sets = vec![("A", &plan.a, &args.a, &args.a_not)];
    if let Some(b) = &plan.b {
        sets.push(("B", b, &args.b, &args.b_not));
    }
    for (name, selection, inc, exc) in sets {
        if model.is_empty() || !run::members(model, selection, region).is_empty() {
            continue;
        }
        let mut how: Vec<String> = inc.iter().map(|s| format!("{s:?}")).collect();
        how.extend(exc.iter().map(|s| format!("not {s:?}")));
        if region.is_some() {
            how.push("in --region".into());
        }
        eprintln!(
            "warning: set {name} has no elements ({}): nothing to check",
            how.join(", ")
        );
    }
}
