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
    /// Most exact-arithmetic evaluations spent cutting one IFC element's
    /// openings and booleans (ifc-lite's per-element budget: about 50,000 a
    /// second; healthy elements need under 15,000). Past it the element's
    /// remaining cuts are made as boxes around the cutting solids, and a
    /// warning names it. Set for the whole process while a file is read.
    pub max_cut_work: u64,
}

impl LoadOptions {
    /// Default of [`LoadOptions::max_boolean_depth`]: 64.
    pub const DEFAULT_MAX_BOOLEAN_DEPTH: usize = 64;

    /// Default of [`LoadOptions::max_cut_work`]: 100,000 (ifc-lite's own
    /// per-element default, about 2 s).
    pub const DEFAULT_MAX_CUT_WORK: u64 = 100_000;

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
            max_cut_work: Self::DEFAULT_MAX_CUT_WORK,
        }
    }
}
