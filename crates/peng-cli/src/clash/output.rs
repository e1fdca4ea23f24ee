//! Writing the report into the output directory: `report.json`,
//! `clashes.csv`, `report.html` (pictures inline, or beyond
//! [`INLINE_UP_TO`] clashes in `pictures/`) and `clashes.bcf` (BCF 2.1,
//! pictures as snapshots).

use super::date;
use anyhow::{Context, Result};
use peng_clash::report::{
    draw_pictures, picture_file, to_bcf, to_csv, to_html_with, PictureLinks, Pictures, Report,
    Topics,
};
use peng_clash::Element;
use rayon::prelude::*;
use std::collections::HashSet;
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
    // Many pictures go into a folder, loaded as the page scrolls, so that
    // the page opens at once; a few stay inline, in one file to pass on.
    let folder = dir.join(PICTURE_FOLDER);
    let as_files = pictures.len() > INLINE_UP_TO;
    let keep: HashSet<String> = if as_files {
        pictures
            .keys()
            .map(|(t, id)| picture_file(*t, id))
            .collect()
    } else {
        HashSet::new()
    };
    clear_pictures(&folder, &keep)?;
    let links = if as_files {
        write_pictures(&folder, &pictures)?;
        PictureLinks::Folder(PICTURE_FOLDER)
    } else {
        PictureLinks::Inline
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
            to_html_with(report, &pictures, links).into_bytes(),
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

/// Up to this many pictures are inline in `report.html`; more are files.
pub const INLINE_UP_TO: usize = 200;

/// The folder of `report.html`'s pictures when they are files.
const PICTURE_FOLDER: &str = "pictures";

/// Removes the pictures an earlier report left in `folder`, if any, but
/// those named in `keep` (about to be overwritten: cheaper for the file
/// system than removing and creating them again).
fn clear_pictures(folder: &Path, keep: &HashSet<String>) -> Result<()> {
    let Ok(old) = std::fs::read_dir(folder) else {
        return Ok(());
    };
    for entry in old.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('t') && name.ends_with(".png") && !keep.contains(name.as_ref()) {
            std::fs::remove_file(entry.path())
                .with_context(|| format!("cannot remove {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Writes each picture into `folder` (created if needed), on all cores.
fn write_pictures(folder: &Path, pictures: &Pictures) -> Result<()> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let all: Vec<_> = pictures.iter().collect();
    all.par_iter().try_for_each(|((t, id), picture)| {
        let path = folder.join(picture_file(*t, id));
        std::fs::write(&path, &picture.png)
            .with_context(|| format!("cannot write {}", path.display()))
    })
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
