//! The plain mesh every reader returns.

use glam::Vec3;
use std::ops::Range;

/// What a [`Group`] came from in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupKind {
    /// An OBJ `o` statement.
    Object,
    /// An OBJ `g` statement.
    Group,
    /// One `solid ... endsolid` block of an ASCII STL file.
    Solid,
    /// One instance of a glTF mesh: a node that references it (or the mesh
    /// itself when the file has no nodes).
    Mesh,
}

/// A named, contiguous run of triangles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The name in the file (OBJ `o`/`g` argument, STL solid name, glTF node or
    /// mesh name, or `nodes[i]` / `meshes[i]` when unnamed).
    pub name: String,
    /// Where the name came from.
    pub kind: GroupKind,
    /// The triangles, as a range of indices into [`MeshData::triangles`].
    pub triangles: Range<usize>,
}

/// An indexed triangle mesh as read from a file, before any validation beyond
/// the file format's own: triangles may be degenerate (repeated or collinear
/// vertices) and vertices may be unused. Every coordinate is finite and every
/// index is in range.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshData {
    /// The mesh name, if the format has one (STL solid name, glTF scene name).
    pub name: Option<String>,
    /// Vertex positions (world space for glTF).
    pub positions: Vec<Vec3>,
    /// Triangles as indices into `positions`, in the file's winding order
    /// (counter-clockwise seen from the front for every format here).
    pub triangles: Vec<[u32; 3]>,
    /// Named triangle runs. OBJ objects and groups are recorded separately, so
    /// a group range may lie inside an object range. Empty runs are left out.
    pub groups: Vec<Group>,
    /// What the reader dropped or worked around without failing, one message
    /// each, naming the element (e.g. degenerate glTF triangles left out).
    pub warnings: Vec<String>,
}

impl MeshData {
    /// Adds a group for `start..self.triangles.len()` if it is not empty.
    pub(crate) fn close_group(&mut self, name: &str, kind: GroupKind, start: usize) {
        let end = self.triangles.len();
        if end > start {
            self.groups.push(Group {
                name: name.to_string(),
                kind,
                triangles: start..end,
            });
        }
    }
}
