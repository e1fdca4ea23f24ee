//! File readers for peng. The core crate does no I/O; this crate turns files
//! into peng's types and reports bad files with the file, line and element.
//!
//! Every reader returns a plain [`MeshData`] (positions, triangles, named
//! groups), from a path (`read_*`) or from memory (`parse_*`, with a source
//! name for messages):
//!
//! | format | path | memory |
//! |---|---|---|
//! | Wavefront OBJ | [`read_obj`] | [`parse_obj`], [`parse_obj_bytes`] |
//! | STL, ASCII or binary | [`read_stl`] | [`parse_stl`], [`parse_stl_ascii`], [`parse_stl_binary`] |
//! | glTF 2.0 / GLB | [`read_gltf`] | [`parse_gltf`] |
//! | any of these | [`read_mesh`] | [`parse_mesh`] |
//!
//! Memory and work are bounded by [`ReadOptions`] (vertices, triangles, and
//! vertices per face); the functions above use the defaults, and the `_with`
//! variants ([`read_mesh_with`], [`parse_mesh_with`], [`parse_obj_with`],
//! [`parse_stl_with`], [`parse_gltf_with`]) take them.
//!
//! Errors are [`ReadError`]s that display as `file: where: what`, e.g.
//! `cube.obj: line 12: face has 2 vertices, needs at least 3` or
//! `scene.gltf: accessors[3]: buffer too short: ...`. No input makes a reader
//! panic (a fuzz test feeds thousands of mutated files to each).

#![warn(missing_docs)]

mod error;
mod gltf;
mod mesh_data;
mod obj;
mod options;
mod polygon;
mod stl;
mod to_trimesh;

pub use error::{ErrorKind, Location, ReadError};
pub use gltf::{parse_gltf, parse_gltf_with, read_gltf};
pub use mesh_data::{Group, GroupKind, MeshData};
pub use obj::{parse_obj, parse_obj_bytes, parse_obj_with, read_obj};
pub use options::ReadOptions;
pub use stl::{parse_stl, parse_stl_ascii, parse_stl_binary, parse_stl_with, read_stl};
pub use to_trimesh::ToTriMeshError;

use std::path::Path;

/// A mesh file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Wavefront OBJ.
    Obj,
    /// STL, ASCII or binary.
    Stl,
    /// glTF 2.0 JSON or GLB.
    Gltf,
}

/// Guesses the format of a file from its name and first bytes.
///
/// Content wins where it is unambiguous: the GLB magic `glTF`, or a JSON object
/// (`{` first) is glTF. Otherwise the extension decides (`.obj`, `.stl`,
/// `.gltf`, `.glb`, any case). Without a known extension: `solid` first, or a
/// size of exactly `84 + 50·n` for the count at byte 80, is STL; text with a
/// `v` or `f` statement is OBJ.
pub fn detect_format(name: &str, bytes: &[u8]) -> Option<Format> {
    let first = bytes.iter().copied().find(|b| !b.is_ascii_whitespace());
    if gltf::is_glb(bytes) || first == Some(b'{') {
        return Some(Format::Gltf);
    }
    let ext = Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("obj") => return Some(Format::Obj),
        Some("stl") => return Some(Format::Stl),
        Some("gltf") | Some("glb") => return Some(Format::Gltf),
        _ => {}
    }
    if stl::starts_with_solid(bytes) || stl::looks_binary(bytes) {
        return Some(Format::Stl);
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 16)]);
    let has_obj_statement = head.lines().any(|l| {
        let t = l.trim_start();
        t.starts_with("v ") || t.starts_with("f ") || t.starts_with("v\t") || t.starts_with("f\t")
    });
    has_obj_statement.then_some(Format::Obj)
}

/// Reads a mesh file of any supported format (see [`detect_format`]).
pub fn read_mesh(path: impl AsRef<Path>) -> Result<MeshData, ReadError> {
    read_mesh_with(path, &ReadOptions::default())
}

/// [`read_mesh`] within the limits of `options`.
pub fn read_mesh_with(
    path: impl AsRef<Path>,
    options: &ReadOptions,
) -> Result<MeshData, ReadError> {
    let path = path.as_ref();
    let bytes = error::read_bytes(path)?;
    let name = path.display().to_string();
    let dir = path.parent().unwrap_or(Path::new("."));
    parse_any(&bytes, &name, Some(dir), options)
}

/// Parses a mesh of any supported format from memory (see [`detect_format`];
/// `source_name` may carry the extension). glTF external buffers cannot be
/// resolved from memory; use [`parse_gltf`] with a base directory for those.
pub fn parse_mesh(bytes: &[u8], source_name: &str) -> Result<MeshData, ReadError> {
    parse_mesh_with(bytes, source_name, &ReadOptions::default())
}

/// [`parse_mesh`] within the limits of `options`.
pub fn parse_mesh_with(
    bytes: &[u8],
    source_name: &str,
    options: &ReadOptions,
) -> Result<MeshData, ReadError> {
    parse_any(bytes, source_name, None, options)
}

fn parse_any(
    bytes: &[u8],
    name: &str,
    dir: Option<&Path>,
    options: &ReadOptions,
) -> Result<MeshData, ReadError> {
    match detect_format(name, bytes) {
        Some(Format::Obj) => parse_obj_with(&String::from_utf8_lossy(bytes), name, options),
        Some(Format::Stl) => parse_stl_with(bytes, name, options),
        Some(Format::Gltf) => parse_gltf_with(bytes, name, dir, options),
        None => Err(ReadError::new(
            name,
            Location::File,
            ErrorKind::UnknownFormat,
            "unknown mesh format (expected OBJ, STL, glTF or GLB; \
             neither the extension nor the content says which)",
        )),
    }
}
