//! Writing the report into the output directory: `report.json`,
//! `clashes.csv`, `report.html` (pictures inline) and `clashes.bcf` (BCF 2.1,
//! pictures as snapshots).

use super::date;
use anyhow::{Context, Result};
use peng_clash::report::{draw_pictures, to_bcf, to_csv, to_html, Pictures, Report, Topics};
use peng_clash::Element;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// How the HTML page and the BCF topics are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The pictures' width and height in pixels; `None` draws none.
    pub pictures: Option<(u32, u32)>,
    /// One BCF topic per clash or per group.
    pub topics: Topics,
}

/// Creates `dir` (and its parents) if needed; the error names it.
pub fn prepare(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the report directory {}", dir.display()))
}

/// Writes `report`, whose clashes were found among `model`, into `dir`;
/// returns the files written.
pub fn write(
    dir: &Path,
    report: &Report,
    model: &[Element],
    options: &Options,
) -> Result<Vec<PathBuf>> {
    let pictures = match options.pictures {
        Some((w, h)) => pictures(report, model, w, h),
        None => Pictures::new(),
    };
    let bcf_path = dir.join("clashes.bcf");
    let bcf = to_bcf(report, &pictures, options.topics, &date::now_utc())
        .with_context(|| format!("cannot write {}", bcf_path.display()))?;
    let files = [
        (
            dir.join("report.json"),
            (report.to_json() + "\n").into_bytes(),
        ),
        (dir.join("clashes.csv"), to_csv(report).into_bytes()),
        (
            dir.join("report.html"),
            to_html(report, &pictures).into_bytes(),
        ),
        (bcf_path, bcf),
    ];
    let mut written = Vec::new();
    for (path, bytes) in files {
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// Clashes from this many on get a note on a terminal while their pictures
/// are drawn.
const NOTE_FROM: usize = 500;

/// Draws the pictures of `report`'s clashes (on all cores), with a note on
/// standard error when there are many and it is a terminal.
fn pictures(report: &Report, model: &[Element], w: u32, h: u32) -> Pictures {
    let n: usize = report.tests.iter().map(|t| t.clashes.len()).sum();
    let note = n >= NOTE_FROM && std::io::stderr().is_terminal();
    if note {
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "drawing {} clash pictures (--no-pictures skips them)…",
            super::progress::thousands(n)
        );
        let _ = err.flush();
    }
    let pictures = draw_pictures(report, model, w, h);
    if note {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K");
        let _ = err.flush();
    }
    pictures
}
