//! STL reader, ASCII and binary.
//!
//! Facet normals are ignored (a later stage recomputes them from the winding);
//! vertices are welded by exact position (`-0.0` and `0.0` are the same point)
//! into an indexed mesh, in order of first appearance.
//!
//! # ASCII or binary
//! A binary file starts with an 80-byte free-form header that some exporters
//! begin with `solid`, the ASCII keyword. A file starting with `solid` is parsed
//! as ASCII first; if that fails and the size is exactly `84 + 50·n` for the
//! triangle count `n` at byte 80, or the file holds control bytes that no text
//! has, it is binary (so a truncated binary file gets the binary error).
//! Otherwise the ASCII error is reported. A file not starting with `solid` is
//! binary.

mod ascii;
mod binary;

use crate::error::{read_bytes, ErrorKind, Location, ReadError};
use crate::mesh_data::MeshData;
use crate::options::{over, ReadOptions};
use glam::Vec3;
use std::collections::HashMap;
use std::path::Path;

pub use ascii::parse_stl_ascii;
pub use binary::parse_stl_binary;

/// Reads an STL file, ASCII or binary.
pub fn read_stl(path: impl AsRef<Path>) -> Result<MeshData, ReadError> {
    let path = path.as_ref();
    let bytes = read_bytes(path)?;
    parse_stl(&bytes, &path.display().to_string())
}

/// Parses STL bytes, deciding between ASCII and binary as described in the
/// module docs. `source_name` names the input in errors.
pub fn parse_stl(bytes: &[u8], source_name: &str) -> Result<MeshData, ReadError> {
    parse_stl_with(bytes, source_name, &ReadOptions::default())
}

/// [`parse_stl`] within the limits of `options`.
pub fn parse_stl_with(
    bytes: &[u8],
    source_name: &str,
    options: &ReadOptions,
) -> Result<MeshData, ReadError> {
    // A UTF-8 byte-order mark can only start a text file.
    if let Some(text) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return ascii::parse(text, source_name, options);
    }
    if !starts_with_solid(bytes) {
        return binary::parse(bytes, source_name, options);
    }
    match ascii::parse(bytes, source_name, options) {
        Ok(mesh) => Ok(mesh),
        // A limit is a verdict on the file as read, not a sign of binary.
        Err(e) if e.kind == ErrorKind::LimitExceeded => Err(e),
        Err(ascii_err) => {
            if binary::size_matches(bytes) || !looks_textual(bytes) {
                binary::parse(bytes, source_name, options)
            } else {
                Err(ascii_err)
            }
        }
    }
}

/// True when the file starts with `solid` (after optional whitespace).
pub(crate) fn starts_with_solid(bytes: &[u8]) -> bool {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    bytes[start..]
        .get(..5)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"solid"))
}

/// True when the first 4 KiB hold no control bytes other than whitespace, as
/// in any ASCII STL; binary coordinates almost always contain some.
fn looks_textual(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(4096)]
        .iter()
        .all(|&b| b >= 0x20 || b.is_ascii_whitespace())
}

/// True when the size is exactly that of a binary STL with the count at byte 80.
pub(crate) fn looks_binary(bytes: &[u8]) -> bool {
    binary::size_matches(bytes)
}

/// Welds vertices by exact position while triangles are added.
pub(crate) struct Welder {
    map: HashMap<[u32; 3], u32>,
    pub(crate) mesh: MeshData,
    options: ReadOptions,
}

impl Welder {
    pub(crate) fn new(options: &ReadOptions) -> Self {
        Welder {
            map: HashMap::new(),
            mesh: MeshData::default(),
            options: *options,
        }
    }

    /// The index of `p`, adding it if new; `None` past the vertex limit.
    /// `p` must be finite.
    pub(crate) fn vertex(&mut self, p: Vec3) -> Option<u32> {
        // `+ 0.0` turns -0.0 into 0.0 so both weld together.
        let key = [p.x + 0.0, p.y + 0.0, p.z + 0.0].map(f32::to_bits);
        let positions = &mut self.mesh.positions;
        let limit = self.options.max_vertices.min(u32::MAX as usize);
        match self.map.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
            std::collections::hash_map::Entry::Vacant(e) => {
                if positions.len() >= limit {
                    return None;
                }
                positions.push(p);
                Some(*e.insert((positions.len() - 1) as u32))
            }
        }
    }

    /// The limits this welder reads within.
    pub(crate) fn options(&self) -> &ReadOptions {
        &self.options
    }

    /// The message for a vertex past the limit.
    pub(crate) fn vertex_limit(&self) -> String {
        over(
            "the vertex count",
            self.options.max_vertices,
            "vertices",
            "max_vertices",
        )
    }

    /// The message for `more` triangles past the limit, if they are.
    pub(crate) fn triangle_limit(&self, more: usize) -> Option<String> {
        let limit = self.options.max_triangles;
        (self.mesh.triangles.len().saturating_add(more) > limit)
            .then(|| over("the triangle count", limit, "triangles", "max_triangles"))
    }

    pub(crate) fn finish(self, file: &str) -> Result<MeshData, ReadError> {
        if self.mesh.triangles.is_empty() {
            return Err(ReadError::new(
                file,
                Location::File,
                ErrorKind::Empty,
                "no facets: the mesh has no triangles",
            ));
        }
        Ok(self.mesh)
    }
}
