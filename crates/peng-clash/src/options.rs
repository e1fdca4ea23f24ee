//! Limits on the memory and work of reading model files.

use peng_io::ReadOptions;

/// How model files are read: limits that keep a malformed or hostile file
/// from taking unbounded memory or time. Past a limit, a mesh file is an
/// error naming the file, the place and the limit; an IFC element is left
/// out with a problem naming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadOptions {
    /// Most vertices of one mesh file (see [`ReadOptions::max_vertices`]).
    pub max_vertices: usize,
    /// Most triangles of one mesh file (see [`ReadOptions::max_triangles`]).
    pub max_triangles: usize,
    /// Most vertices of one polygonal face of an OBJ or STL file.
    pub max_face_vertices: usize,
    /// Deepest nesting of IFC boolean operations (`IfcBooleanResult`,
    /// `IfcBooleanClippingResult` whose operands are booleans) in one
    /// element's body; a deeper element is left out. Each level costs the
    /// IFC geometry milliseconds, and a file may nest thousands.
    pub max_boolean_depth: usize,
}

impl LoadOptions {
    /// Default of [`LoadOptions::max_boolean_depth`]: 64.
    pub const DEFAULT_MAX_BOOLEAN_DEPTH: usize = 64;

    /// The mesh readers' options.
    pub fn mesh(&self) -> ReadOptions {
        ReadOptions {
            max_vertices: self.max_vertices,
            max_triangles: self.max_triangles,
            max_face_vertices: self.max_face_vertices,
        }
    }
}

impl Default for LoadOptions {
    fn default() -> Self {
        let mesh = ReadOptions::default();
        LoadOptions {
            max_vertices: mesh.max_vertices,
            max_triangles: mesh.max_triangles,
            max_face_vertices: mesh.max_face_vertices,
            max_boolean_depth: Self::DEFAULT_MAX_BOOLEAN_DEPTH,
        }
    }
}
