//! Writing the report: `report.json` and `clashes.csv` in the output
//! directory.

use anyhow::{Context, Result};
use peng_clash::report::{to_csv, Report};
use std::path::{Path, PathBuf};

/// Creates `dir` (and its parents) if needed; the error names it.
pub fn prepare(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the report directory {}", dir.display()))
}

/// Writes `report` into `dir`; returns the files written.
pub fn write(dir: &Path, report: &Report) -> Result<Vec<PathBuf>> {
    let files = [
        (dir.join("report.json"), report.to_json() + "\n"),
        (dir.join("clashes.csv"), to_csv(report)),
    ];
    let mut written = Vec::new();
    for (path, text) in files {
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}
