//! The model: the bundled example, or the elements of every file given.
//!
//! Per-element problems are warnings (the other elements are still
//! checked). A file that cannot be read at all is an error naming it, unless
//! other files loaded: then it is a warning and the run goes on without it.

use anyhow::{bail, Result};
use peng_clash::report::FileEntry;
use peng_clash::{
    example_model, read_ifc_with, read_mesh_elements_with, ClashError, Element, LoadOptions,
};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What the run checks.
pub struct Model {
    /// Every element of every file, in file order.
    pub elements: Vec<Element>,
    /// The files and how many elements each gave.
    pub files: Vec<FileEntry>,
    /// What could not be used, one message each (also printed as warnings).
    pub problems: Vec<String>,
    /// How the summary names the input.
    pub source: String,
}

/// The kind of file, by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ifc,
    Mesh,
}

fn kind(path: &Path) -> Result<Kind> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("ifc") => Ok(Kind::Ifc),
        Some("gltf" | "glb" | "obj" | "stl") => Ok(Kind::Mesh),
        _ => bail!(
            "{}: unknown kind of file (expected .ifc, .gltf, .glb, .obj or .stl)",
            path.display()
        ),
    }
}

/// Loads the model of `files` within the limits of `options`, or the
/// bundled example when there are none; `warn` receives each warning line.
pub fn load(files: &[PathBuf], options: &LoadOptions, warn: &mut dyn FnMut(&str)) -> Result<Model> {
    if files.is_empty() {
        let elements = example_model();
        let file = elements
            .first()
            .map_or(String::new(), |e| e.identity.file.clone());
        return Ok(Model {
            files: vec![FileEntry {
                file: file.clone(),
                elements: elements.len(),
            }],
            elements,
            problems: Vec::new(),
            source: format!("the bundled example storey ({file})"),
        });
    }
    // Every file's kind first: a typo in the last name fails before any
    // reading.
    let mut seen = HashSet::new();
    let mut jobs = Vec::new();
    for f in files {
        let k = kind(f)?;
        if seen.insert(f.clone()) {
            jobs.push((f, k));
        } else {
            warn(&format!("{}: given twice, read once", f.display()));
        }
    }
    let mut model = Model {
        elements: Vec::new(),
        files: Vec::new(),
        problems: Vec::new(),
        source: String::new(),
    };
    let mut failed: Vec<ClashError> = Vec::new();
    for (path, k) in jobs {
        let loaded = match k {
            Kind::Ifc => read_ifc_with(path, options).map(|l| (l.elements, l.problems)),
            Kind::Mesh => read_mesh_elements_with(path, options).map(|l| (l.elements, l.problems)),
        };
        match loaded {
            Ok((elements, problems)) => {
                for p in problems {
                    warn(&p.to_string());
                    model.problems.push(p.to_string());
                }
                model.files.push(FileEntry {
                    file: path.display().to_string(),
                    elements: elements.len(),
                });
                model.elements.extend(elements);
            }
            Err(e) => failed.push(e),
        }
    }
    if model.files.is_empty() {
        let messages: Vec<String> = failed.iter().map(ToString::to_string).collect();
        bail!("{}", messages.join("\nerror: "));
    }
    for e in failed {
        let message = format!("{e} (left out; the other files are checked)");
        warn(&message);
        model.problems.push(message);
    }
    if let Some(w) = repeated_ids(&model.elements) {
        warn(&w);
    }
    let names: Vec<String> = model.files.iter().map(|f| f.file.clone()).collect();
    model.source = names.join(", ");
    Ok(model)
}

/// A warning when element ids repeat (the same model loaded twice, mesh
/// nodes of the same name in two files): the clash ids of their pairs repeat
/// too, and --previous cannot tell them apart.
fn repeated_ids(elements: &[Element]) -> Option<String> {
    let mut files: HashMap<&str, Vec<&str>> = HashMap::new();
    for e in elements {
        files
            .entry(e.identity.id.as_str())
            .or_default()
            .push(e.identity.file.as_str());
    }
    let mut repeated: Vec<(&str, &Vec<&str>)> = files
        .iter()
        .filter(|(_, f)| f.len() > 1)
        .map(|(id, f)| (*id, f))
        .collect();
    if repeated.is_empty() {
        return None;
    }
    repeated.sort();
    let (id, where_) = repeated[0];
    let mut in_files: Vec<&str> = where_.clone();
    in_files.sort_unstable();
    in_files.dedup();
    Some(format!(
        "{} element id{} appear{} more than once (first: \"{id}\" in {}); clashes of such \
         elements share ids",
        repeated.len(),
        if repeated.len() == 1 { "" } else { "s" },
        if repeated.len() == 1 { "s" } else { "" },
        in_files.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_extension() {
        assert_eq!(kind(Path::new("a/B.IFC")).unwrap(), Kind::Ifc);
        for f in ["x.glb", "x.gltf", "x.obj", "x.Stl"] {
            assert_eq!(kind(Path::new(f)).unwrap(), Kind::Mesh, "{f}");
        }
        let e = kind(Path::new("plan.dwg")).unwrap_err().to_string();
        assert!(e.starts_with("plan.dwg: unknown kind of file"), "{e}");
        assert!(kind(Path::new("noext")).is_err());
    }

    #[test]
    fn no_files_is_the_example() {
        let mut warnings = Vec::new();
        let m = load(&[], &LoadOptions::default(), &mut |w| {
            warnings.push(w.to_string())
        })
        .unwrap();
        assert_eq!(m.elements.len(), 20);
        assert_eq!(m.files.len(), 1);
        assert_eq!(m.files[0].elements, 20);
        assert!(warnings.is_empty());
        assert_eq!(repeated_ids(&m.elements), None);
        let mut twice = m.elements.clone();
        twice.extend(m.elements.iter().take(2).cloned());
        let w = repeated_ids(&twice).unwrap();
        assert!(w.starts_with("2 element ids appear more than once"), "{w}");
    }

    #[test]
    fn missing_files_name_themselves() {
        let dir = std::env::temp_dir();
        let missing = dir.join("peng-clash-no-such-file.ifc");
        let mut warnings = Vec::new();
        let Err(e) = load(
            std::slice::from_ref(&missing),
            &LoadOptions::default(),
            &mut |w| warnings.push(w.to_string()),
        ) else {
            panic!("a missing file loaded");
        };
        let e = e.to_string();
        assert!(e.contains(&missing.display().to_string()), "{e}");
    }
}
