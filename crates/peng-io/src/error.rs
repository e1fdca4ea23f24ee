//! The one error type of this crate: which file, where in it, and what is wrong.

use std::fmt;

/// Where in a file a problem was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// The file as a whole (missing file, empty mesh, unknown format).
    File,
    /// A 1-based line of a text format (OBJ, ASCII STL).
    Line(usize),
    /// A JSON element of a glTF document, e.g. `accessors[3]` or
    /// `meshes[0].primitives[1]`.
    Element(String),
    /// A byte offset from the start of a binary file (binary STL, GLB).
    Byte(u64),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File => Ok(()),
            Location::Line(n) => write!(f, "line {n}: "),
            Location::Element(e) => write!(f, "{e}: "),
            Location::Byte(o) => write!(f, "byte {o}: "),
        }
    }
}

/// What kind of problem, for callers that want to branch on it. The message of
/// the error says the same in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file (or an external buffer it names) could not be read.
    Io,
    /// Unknown file format.
    UnknownFormat,
    /// A statement or token is malformed (text formats, JSON syntax).
    Syntax,
    /// A number that should be a coordinate or index is not a number.
    NotANumber,
    /// A coordinate or transform is NaN or infinite.
    NonFinite,
    /// A vertex index points outside the vertex list.
    IndexOutOfRange,
    /// A face has fewer than three vertices.
    TooFewVertices,
    /// The file holds no triangles.
    Empty,
    /// A binary file ends before the data it announces.
    Truncated,
    /// A binary header is wrong (GLB magic, version or chunk lengths).
    BadHeader,
    /// A glTF accessor or buffer view reaches past the end of its data.
    OutOfBounds,
    /// A valid feature this reader does not handle (component type,
    /// compression extension, non-base64 data URI, ...).
    Unsupported,
    /// A glTF element is missing a required property or has a wrong one.
    Invalid,
    /// The file needs more vertices, triangles or face vertices than the
    /// [`ReadOptions`](crate::ReadOptions) allow.
    LimitExceeded,
}

/// A mesh file could not be read. Displays as `file: location: what`, e.g.
/// `cube.obj: line 12: face has 2 vertices, needs at least 3`.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {location}{message}")]
pub struct ReadError {
    /// The file name as given (or the source name given to a `parse_*` function).
    pub file: String,
    /// Where in the file.
    pub location: Location,
    /// The kind of problem.
    pub kind: ErrorKind,
    /// What is wrong, in words.
    pub message: String,
    /// The underlying I/O error, if any.
    #[source]
    pub source: Option<std::io::Error>,
}

impl ReadError {
    /// A new error without an underlying I/O error.
    pub fn new(
        file: impl Into<String>,
        location: Location,
        kind: ErrorKind,
        message: impl Into<String>,
    ) -> Self {
        ReadError {
            file: file.into(),
            location,
            kind,
            message: message.into(),
            source: None,
        }
    }

    /// An I/O error on `file` (which may be an external buffer of a glTF file:
    /// then `location` names the buffer).
    pub fn io(
        file: impl Into<String>,
        location: Location,
        what: &str,
        err: std::io::Error,
    ) -> Self {
        ReadError {
            file: file.into(),
            location,
            kind: ErrorKind::Io,
            message: format!("{what}: {err}"),
            source: Some(err),
        }
    }
}

/// Reads a whole file, mapping failure to a [`ReadError`] naming it.
pub(crate) fn read_bytes(path: &std::path::Path) -> Result<Vec<u8>, ReadError> {
    std::fs::read(path).map_err(|e| {
        ReadError::io(
            path.display().to_string(),
            Location::File,
            "cannot read file",
            e,
        )
    })
}
