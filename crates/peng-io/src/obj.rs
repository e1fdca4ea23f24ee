//! Wavefront OBJ reader (geometry only).
//!
//! Handled, after the Wavefront "Object Files (.obj)" appendix of the Advanced
//! Visualizer manual:
//! - `v x y z [w | r g b]`: the first three numbers are the position; a `w` or
//!   vertex colour after them is ignored.
//! - `f` with `v`, `v/vt`, `v//vn` or `v/vt/vn` references; only the position
//!   index is used. The `vt`/`vn` parts must be integers but are not
//!   range-checked (their data is not read). Indices are 1-based; negative ones
//!   count back from the last vertex defined so far (`-1` is the latest). A
//!   position index must refer to a vertex already defined.
//! - faces with more than three vertices: convex ones are fanned, non-convex
//!   ones ear-clipped in their best-fit plane (see [`crate::polygon`]).
//! - the vertex, triangle and face-vertex counts are bounded by
//!   [`ReadOptions`]: past a limit the line is reported.
//! - `o name` and `g name...`: recorded as [`GroupKind::Object`] and
//!   [`GroupKind::Group`] triangle runs.
//! - `#` comments, blank lines, a `\` at the end of a line joining it to the
//!   next; every other statement (`vt`, `vn`, `vp`, `usemtl`, `mtllib`, `s`,
//!   `l`, `p`, free-form geometry) is ignored.

use crate::error::{read_bytes, ErrorKind, Location, ReadError};
use crate::mesh_data::{GroupKind, MeshData};
use crate::options::{over, ReadOptions};
use crate::polygon::triangulate_face;
use glam::Vec3;
use std::path::Path;

/// Reads an OBJ file.
pub fn read_obj(path: impl AsRef<Path>) -> Result<MeshData, ReadError> {
    let path = path.as_ref();
    let bytes = read_bytes(path)?;
    parse_obj_bytes(&bytes, &path.display().to_string())
}

/// Parses OBJ bytes; invalid UTF-8 sequences are replaced (they can only occur
/// in names and comments of a valid file). `source_name` names the input in errors.
pub fn parse_obj_bytes(bytes: &[u8], source_name: &str) -> Result<MeshData, ReadError> {
    parse_obj(&String::from_utf8_lossy(bytes), source_name)
}

/// Parses OBJ text. `source_name` names the input in errors.
pub fn parse_obj(text: &str, source_name: &str) -> Result<MeshData, ReadError> {
    parse_obj_with(text, source_name, &ReadOptions::default())
}

/// [`parse_obj`] within the limits of `options`.
pub fn parse_obj_with(
    text: &str,
    source_name: &str,
    options: &ReadOptions,
) -> Result<MeshData, ReadError> {
    // A byte-order mark would otherwise hide the first statement's keyword.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut p = Parser {
        file: source_name,
        options: *options,
        mesh: MeshData::default(),
        face: Vec::new(),
        object: None,
        group: None,
    };
    let mut joined = String::new();
    let mut start_line = 0;
    for (k, raw) in text.lines().enumerate() {
        if joined.is_empty() {
            start_line = k + 1;
        }
        // A trailing backslash continues the statement on the next line.
        if let Some(head) = raw.strip_suffix('\\') {
            joined.push_str(head);
            joined.push(' ');
            continue;
        }
        if joined.is_empty() {
            p.statement(raw, start_line)?;
        } else {
            joined.push_str(raw);
            let stmt = std::mem::take(&mut joined);
            p.statement(&stmt, start_line)?;
        }
    }
    if !joined.is_empty() {
        let stmt = std::mem::take(&mut joined);
        p.statement(&stmt, start_line)?;
    }
    p.finish()
}

struct Parser<'a> {
    file: &'a str,
    options: ReadOptions,
    mesh: MeshData,
    /// Scratch: the current face's position indices.
    face: Vec<u32>,
    /// Current `o` name and its first triangle.
    object: Option<(String, usize)>,
    /// Current `g` name and its first triangle.
    group: Option<(String, usize)>,
}

impl Parser<'_> {
    fn err(&self, line: usize, kind: ErrorKind, msg: impl Into<String>) -> ReadError {
        ReadError::new(self.file, Location::Line(line), kind, msg)
    }

    fn statement(&mut self, stmt: &str, line: usize) -> Result<(), ReadError> {
        let stmt = match stmt.find('#') {
            Some(c) => &stmt[..c],
            None => stmt,
        };
        let mut tokens = stmt.split_ascii_whitespace();
        let Some(keyword) = tokens.next() else {
            return Ok(());
        };
        match keyword {
            "v" => self.vertex(tokens, line),
            "f" | "fo" => self.face(tokens, line),
            "o" => {
                let name = rest_name(tokens);
                if let Some((old, start)) = self.object.take() {
                    self.mesh.close_group(&old, GroupKind::Object, start);
                }
                self.object = Some((name, self.mesh.triangles.len()));
                Ok(())
            }
            "g" => {
                let name = rest_name(tokens);
                if let Some((old, start)) = self.group.take() {
                    self.mesh.close_group(&old, GroupKind::Group, start);
                }
                self.group = Some((name, self.mesh.triangles.len()));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn vertex<'t>(
        &mut self,
        mut tokens: impl Iterator<Item = &'t str>,
        line: usize,
    ) -> Result<(), ReadError> {
        let mut c = [0.0f32; 3];
        for (axis, slot) in c.iter_mut().enumerate() {
            let name = ["x", "y", "z"][axis];
            let tok = tokens.next().ok_or_else(|| {
                self.err(
                    line,
                    ErrorKind::Syntax,
                    format!("vertex has no {name} coordinate (needs x y z)"),
                )
            })?;
            let value: f32 = tok.parse().map_err(|_| {
                self.err(
                    line,
                    ErrorKind::NotANumber,
                    format!("vertex {name} coordinate {tok:?} is not a number"),
                )
            })?;
            if !value.is_finite() {
                return Err(self.err(
                    line,
                    ErrorKind::NonFinite,
                    format!("vertex {name} coordinate {tok:?} is not finite"),
                ));
            }
            *slot = value;
        }
        if self.mesh.positions.len() >= u32::MAX as usize {
            return Err(self.err(line, ErrorKind::Unsupported, "more than 2^32 - 1 vertices"));
        }
        let limit = self.options.max_vertices;
        if self.mesh.positions.len() >= limit {
            return Err(self.err(
                line,
                ErrorKind::LimitExceeded,
                over("the vertex count", limit, "vertices", "max_vertices"),
            ));
        }
        self.mesh.positions.push(Vec3::from_array(c));
        Ok(())
    }

    fn face<'t>(
        &mut self,
        tokens: impl Iterator<Item = &'t str>,
        line: usize,
    ) -> Result<(), ReadError> {
        let mut face = std::mem::take(&mut self.face);
        face.clear();
        let limit = self.options.max_face_vertices;
        for tok in tokens {
            if face.len() >= limit {
                self.face = face;
                return Err(self.err(
                    line,
                    ErrorKind::LimitExceeded,
                    over(
                        "the face's vertex count",
                        limit,
                        "vertices",
                        "max_face_vertices",
                    ),
                ));
            }
            face.push(self.face_vertex(tok, line)?);
        }
        if face.len() < 3 {
            let n = face.len();
            self.face = face;
            return Err(self.err(
                line,
                ErrorKind::TooFewVertices,
                format!("face has {n} vertices, needs at least 3"),
            ));
        }
        let limit = self.options.max_triangles;
        if self.mesh.triangles.len() + (face.len() - 2) > limit {
            self.face = face;
            return Err(self.err(
                line,
                ErrorKind::LimitExceeded,
                over("the triangle count", limit, "triangles", "max_triangles"),
            ));
        }
        triangulate_face(&self.mesh.positions, &face, &mut self.mesh.triangles);
        self.face = face;
        Ok(())
    }

    /// Resolves one `v[/vt][/vn]` reference to a 0-based position index.
    fn face_vertex(&self, tok: &str, line: usize) -> Result<u32, ReadError> {
        let mut parts = tok.split('/');
        let v = parts.next().unwrap_or("");
        let index: i64 = v.parse().map_err(|_| {
            self.err(
                line,
                ErrorKind::NotANumber,
                format!("face vertex {tok:?}: position index {v:?} is not an integer"),
            )
        })?;
        for (k, part) in parts.enumerate() {
            let what = ["texture", "normal"].get(k).copied().unwrap_or("extra");
            if k >= 2 {
                return Err(self.err(
                    line,
                    ErrorKind::Syntax,
                    format!("face vertex {tok:?} has more than three parts (v/vt/vn)"),
                ));
            }
            if !part.is_empty() && part.parse::<i64>().map_or(true, |i| i == 0) {
                return Err(self.err(
                    line,
                    ErrorKind::NotANumber,
                    format!("face vertex {tok:?}: {what} index {part:?} is not a non-zero integer"),
                ));
            }
        }
        let count = self.mesh.positions.len() as i64;
        let resolved = if index > 0 { index - 1 } else { count + index };
        if index == 0 || resolved < 0 || resolved >= count {
            return Err(self.err(
                line,
                ErrorKind::IndexOutOfRange,
                format!(
                    "face vertex index {index} out of range: {count} vertices defined so far \
                     (valid: 1..={count} or -{count}..=-1)"
                ),
            ));
        }
        Ok(resolved as u32)
    }

    fn finish(mut self) -> Result<MeshData, ReadError> {
        if let Some((name, start)) = self.object.take() {
            self.mesh.close_group(&name, GroupKind::Object, start);
        }
        if let Some((name, start)) = self.group.take() {
            self.mesh.close_group(&name, GroupKind::Group, start);
        }
        // Objects and groups were closed out of order; sort runs by start.
        self.mesh
            .groups
            .sort_by_key(|g| (g.triangles.start, g.kind != GroupKind::Object));
        if self.mesh.triangles.is_empty() {
            return Err(ReadError::new(
                self.file,
                Location::File,
                ErrorKind::Empty,
                format!(
                    "no faces: the mesh has no triangles ({} vertices)",
                    self.mesh.positions.len()
                ),
            ));
        }
        Ok(self.mesh)
    }
}

/// The rest of a statement as one name (`g a b` gives `"a b"`).
fn rest_name<'t>(tokens: impl Iterator<Item = &'t str>) -> String {
    tokens.collect::<Vec<_>>().join(" ")
}
