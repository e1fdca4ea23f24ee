//! Assemblies from mesh files (glTF/GLB, OBJ, STL): each node, object or
//! solid is an element.

use crate::element::{describe, Element, Identity};
use crate::error::ClashError;
use crate::loaded::Loaded;
use crate::options::LoadOptions;
use glam::DVec3;
use peng_io::{GroupKind, MeshData};
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

/// Reads a glTF/GLB, OBJ or STL file as an assembly of elements: one per glTF
/// node instance, OBJ object (`o`; else group, `g`) or STL solid; a file with
/// none of these is one element named after the file.
pub fn read_mesh_elements(path: &Path) -> Result<Loaded, ClashError> {
    read_mesh_elements_with(path, &LoadOptions::default())
}

/// [`read_mesh_elements`] within the limits of `options`.
pub fn read_mesh_elements_with(path: &Path, options: &LoadOptions) -> Result<Loaded, ClashError> {
    let file = path.display().to_string();
    let data = peng_io::read_mesh_with(path, &options.mesh()).map_err(|e| {
        // The reader's message starts with the file name already.
        let text = e.to_string();
        let what = text
            .strip_prefix(&format!("{file}: "))
            .unwrap_or(&text)
            .to_string();
        ClashError::File {
            file: file.clone(),
            what,
        }
    })?;
    Ok(mesh_elements(&file, &data))
}

/// [`read_mesh_elements`] for mesh data already read, from file `file`.
pub fn mesh_elements(file: &str, data: &MeshData) -> Loaded {
    let parts = parts(file, data);
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Loaded::default();
    // What the reader worked around: file-level problems, first.
    for w in &data.warnings {
        out.problems.push(ClashError::File {
            file: file.to_string(),
            what: w.clone(),
        });
    }
    for (name, class, range) in parts {
        // Ids unique within the file: a repeated name gets "#2", "#3", ...
        let n = seen.entry(name.clone()).or_insert(0);
        *n += 1;
        let id = if *n == 1 {
            name.clone()
        } else {
            format!("{name}#{n}")
        };
        let identity = Identity {
            id,
            class: class.to_string(),
            name,
            storey: None,
            file: file.to_string(),
            parent: None,
            ..Identity::default()
        };
        match element(identity, data, range) {
            Ok(e) => {
                if let Some(what) = e.open_warning() {
                    out.problems.push(ClashError::Element {
                        file: file.to_string(),
                        element: describe(&e.identity),
                        what,
                    });
                }
                out.elements.push(e)
            }
            Err(e) => out.problems.push(e),
        }
    }
    out
}

/// The triangle runs that become elements, with their names and kinds.
fn parts(file: &str, data: &MeshData) -> Vec<(String, &'static str, Range<usize>)> {
    let of = |kind: GroupKind| -> Vec<(String, Range<usize>)> {
        data.groups
            .iter()
            .filter(|g| g.kind == kind)
            .map(|g| (g.name.clone(), g.triangles.clone()))
            .collect()
    };
    for (kind, word) in [
        (GroupKind::Mesh, "node"),
        (GroupKind::Object, "object"),
        (GroupKind::Group, "group"),
        (GroupKind::Solid, "solid"),
    ] {
        let runs = of(kind);
        if !runs.is_empty() {
            return runs.into_iter().map(|(n, r)| (n, word, r)).collect();
        }
    }
    let stem = Path::new(file)
        .file_stem()
        .map_or(file.to_string(), |s| s.to_string_lossy().into_owned());
    vec![(stem, "mesh", 0..data.triangles.len())]
}

/// One element from a run of triangles, with only the vertices it uses.
fn element(
    identity: Identity,
    data: &MeshData,
    range: Range<usize>,
) -> Result<Element, ClashError> {
    let mut remap: HashMap<u32, u32> = HashMap::new();
    let mut vertices: Vec<DVec3> = Vec::new();
    let mut triangles = Vec::with_capacity(range.len());
    for t in &data.triangles[range] {
        triangles.push(t.map(|i| {
            *remap.entry(i).or_insert_with(|| {
                vertices.push(data.positions[i as usize].as_dvec3());
                (vertices.len() - 1) as u32
            })
        }));
    }
    Element::from_world(identity, &vertices, triangles)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_CUBES_OBJ: &str = "\
o first
v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1
f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8
o first
v 5 0 0\nv 6 0 0\nv 6 1 0
f 9 10 11
o empty
";

    #[test]
    fn obj_objects_become_elements_with_unique_ids() {
        let data = peng_io::parse_obj(TWO_CUBES_OBJ, "parts.obj").unwrap();
        let loaded = mesh_elements("parts.obj", &data);
        // The lone triangle is open: a warning naming it.
        assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
        let warning = loaded.problems[0].to_string();
        assert!(
            warning.contains("first#2")
                && warning.contains("stays open")
                && warning.contains("3 edges met by one triangle"),
            "{warning}"
        );
        let ids: Vec<&str> = loaded
            .elements
            .iter()
            .map(|e| e.identity.id.as_str())
            .collect();
        assert_eq!(ids, vec!["first", "first#2"]);
        assert_eq!(loaded.elements[0].identity.class, "object");
        assert!(loaded.elements[0].is_closed());
        // Only the vertices each part uses: the second is a lone triangle.
        assert_eq!(loaded.elements[1].mesh().vertices().len(), 3);
        assert_eq!(loaded.elements[1].bounds().min, DVec3::new(5.0, 0.0, 0.0));
    }

    #[test]
    fn a_file_without_parts_is_one_element_named_after_it() {
        let data =
            peng_io::parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "dir/plate.obj").unwrap();
        let loaded = mesh_elements("dir/plate.obj", &data);
        assert_eq!(loaded.elements.len(), 1);
        assert_eq!(loaded.elements[0].identity.id, "plate");
        assert_eq!(loaded.elements[0].identity.class, "mesh");
    }

    #[test]
    fn unreadable_file_is_an_error_naming_it() {
        let e = read_mesh_elements(Path::new("/nonexistent/dir/model.glb")).unwrap_err();
        let text = e.to_string();
        assert_eq!(
            text.matches("/nonexistent/dir/model.glb").count(),
            1,
            "{text}"
        );
    }
}
