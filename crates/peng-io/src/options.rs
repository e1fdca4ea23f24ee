//! Bounds on the memory and work a reader may spend on one file.

/// What a reader may spend on one file. A file past a limit is an error
/// ([`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded)) naming the
/// file, where it went past, and the limit; raise the limit to read it.
///
/// The defaults hold any real model of a few hundred megabytes while keeping
/// a small malformed file from asking for gigabytes or minutes: a glTF file
/// can declare millions of vertices without storing them (an accessor with no
/// buffer view reads as zeros) and instance a mesh many times, and a text face
/// can list any number of vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Most vertices of the mesh read (all glTF mesh instances together).
    pub max_vertices: usize,
    /// Most triangles of the mesh read (all glTF mesh instances together).
    pub max_triangles: usize,
    /// Most vertices of one polygonal face (OBJ `f`, ASCII STL loop).
    pub max_face_vertices: usize,
}

impl ReadOptions {
    /// Default of [`ReadOptions::max_vertices`]: 2^24 (16,777,216; 192 MiB
    /// of positions).
    pub const DEFAULT_MAX_VERTICES: usize = 1 << 24;
    /// Default of [`ReadOptions::max_triangles`]: 2^24 (16,777,216; 192 MiB
    /// of indices).
    pub const DEFAULT_MAX_TRIANGLES: usize = 1 << 24;
    /// Default of [`ReadOptions::max_face_vertices`]: 65,536.
    pub const DEFAULT_MAX_FACE_VERTICES: usize = 1 << 16;
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_vertices: Self::DEFAULT_MAX_VERTICES,
            max_triangles: Self::DEFAULT_MAX_TRIANGLES,
            max_face_vertices: Self::DEFAULT_MAX_FACE_VERTICES,
        }
    }
}

/// The message of a limit error: `what` went past `limit` (`unit`s); says
/// which option raises it.
pub(crate) fn over(what: &str, limit: usize, unit: &str, option: &str) -> String {
    format!(
        "{what} is more than the limit of {limit} {unit} \
         (raise ReadOptions::{option}; in `peng clash`, --{})",
        option.replace('_', "-")
    )
}
