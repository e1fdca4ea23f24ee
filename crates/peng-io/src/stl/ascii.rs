//! ASCII STL: `solid name`, then facets
//! `facet normal nx ny nz / outer loop / vertex x y z (x3) / endloop / endfacet`,
//! then `endsolid`; several solids may follow one another. Keywords are matched
//! case-insensitively; the facet normal is skipped unread (exporters write NaN
//! there for degenerate facets). A loop with more than three vertices is
//! triangulated like an OBJ face.

use super::Welder;
use crate::error::{ErrorKind, Location, ReadError};
use crate::mesh_data::GroupKind;
use crate::options::{over, ReadOptions};
use crate::polygon::triangulate_face;
use crate::MeshData;
use glam::Vec3;

/// Parses an ASCII STL file. `source_name` names the input in errors.
pub fn parse_stl_ascii(bytes: &[u8], source_name: &str) -> Result<MeshData, ReadError> {
    parse(bytes, source_name, &ReadOptions::default())
}

/// [`parse_stl_ascii`] within the limits of `options`.
pub(super) fn parse(
    bytes: &[u8],
    source_name: &str,
    options: &ReadOptions,
) -> Result<MeshData, ReadError> {
    let mut lx = Lexer {
        bytes,
        pos: 0,
        line: 1,
        file: source_name,
    };
    let mut w = Welder::new(options);
    let mut loop_idx: Vec<u32> = Vec::new();
    let mut solids = 0usize;
    loop {
        let Some((tok, line)) = lx.next() else {
            if solids == 0 {
                return Err(lx.err(lx.line, ErrorKind::Syntax, "no `solid` keyword"));
            }
            break;
        };
        if !tok.eq_ignore_ascii_case(b"solid") {
            return Err(lx.err(
                line,
                ErrorKind::Syntax,
                format!("expected `solid`, found {}", show(tok)),
            ));
        }
        solids += 1;
        let name = lx.rest_of_line();
        if w.mesh.name.is_none() && !name.is_empty() {
            w.mesh.name = Some(name.clone());
        }
        let start = w.mesh.triangles.len();
        loop {
            let (tok, line) = lx.need("`facet` or `endsolid`")?;
            if tok.eq_ignore_ascii_case(b"endsolid") {
                lx.rest_of_line();
                break;
            }
            if !tok.eq_ignore_ascii_case(b"facet") {
                return Err(lx.err(
                    line,
                    ErrorKind::Syntax,
                    format!("expected `facet` or `endsolid`, found {}", show(tok)),
                ));
            }
            facet(&mut lx, &mut w, &mut loop_idx)?;
        }
        w.mesh.close_group(&name, GroupKind::Solid, start);
    }
    w.finish(source_name)
}

/// One facet after its `facet` keyword.
fn facet(lx: &mut Lexer<'_>, w: &mut Welder, idx: &mut Vec<u32>) -> Result<(), ReadError> {
    let (mut tok, mut line) = lx.need("`normal` or `outer`")?;
    if tok.eq_ignore_ascii_case(b"normal") {
        for _ in 0..3 {
            lx.need("a normal component")?;
        }
        (tok, line) = lx.need("`outer`")?;
    }
    lx.expect(tok, line, "outer")?;
    let (tok, line) = lx.need("`loop`")?;
    lx.expect(tok, line, "loop")?;
    idx.clear();
    let loop_line = line;
    loop {
        let (tok, line) = lx.need("`vertex` or `endloop`")?;
        if tok.eq_ignore_ascii_case(b"endloop") {
            break;
        }
        if !tok.eq_ignore_ascii_case(b"vertex") {
            return Err(lx.err(
                line,
                ErrorKind::Syntax,
                format!("expected `vertex` or `endloop`, found {}", show(tok)),
            ));
        }
        let limit = w.options().max_face_vertices;
        if idx.len() >= limit {
            return Err(lx.err(
                line,
                ErrorKind::LimitExceeded,
                over(
                    "the facet loop's vertex count",
                    limit,
                    "vertices",
                    "max_face_vertices",
                ),
            ));
        }
        let mut c = [0.0f32; 3];
        for (axis, slot) in c.iter_mut().enumerate() {
            let name = ["x", "y", "z"][axis];
            let (tok, line) = lx.need("a vertex coordinate")?;
            let value: f32 = std::str::from_utf8(tok)
                .ok()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| {
                    lx.err(
                        line,
                        ErrorKind::NotANumber,
                        format!("vertex {name} coordinate {} is not a number", show(tok)),
                    )
                })?;
            if !value.is_finite() {
                return Err(lx.err(
                    line,
                    ErrorKind::NonFinite,
                    format!("vertex {name} coordinate {} is not finite", show(tok)),
                ));
            }
            *slot = value;
        }
        let Some(v) = w.vertex(Vec3::from_array(c)) else {
            return Err(lx.err(line, ErrorKind::LimitExceeded, w.vertex_limit()));
        };
        idx.push(v);
    }
    if idx.len() < 3 {
        return Err(lx.err(
            loop_line,
            ErrorKind::TooFewVertices,
            format!("facet loop has {} vertices, needs at least 3", idx.len()),
        ));
    }
    if let Some(msg) = w.triangle_limit(idx.len() - 2) {
        return Err(lx.err(loop_line, ErrorKind::LimitExceeded, msg));
    }
    triangulate_face(&w.mesh.positions, idx, &mut w.mesh.triangles);
    let (tok, line) = lx.need("`endfacet`")?;
    lx.expect(tok, line, "endfacet")
}

/// A token as text for messages (lossy, shortened).
fn show(tok: &[u8]) -> String {
    let s = String::from_utf8_lossy(&tok[..tok.len().min(40)]).into_owned();
    let dots = if tok.len() > 40 { "..." } else { "" };
    format!("{s:?}{dots}")
}

/// Whitespace-separated tokens with their 1-based line numbers.
struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    file: &'a str,
}

impl<'a> Lexer<'a> {
    fn err(&self, line: usize, kind: ErrorKind, msg: impl Into<String>) -> ReadError {
        ReadError::new(self.file, Location::Line(line), kind, msg)
    }

    fn next(&mut self) -> Option<(&'a [u8], usize)> {
        while let Some(&b) = self.bytes.get(self.pos) {
            if !b.is_ascii_whitespace() {
                break;
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        let start = self.pos;
        while self
            .bytes
            .get(self.pos)
            .is_some_and(|b| !b.is_ascii_whitespace())
        {
            self.pos += 1;
        }
        (self.pos > start).then(|| (&self.bytes[start..self.pos], self.line))
    }

    /// The next token, or an error saying the file ended while `what` was expected.
    fn need(&mut self, what: &str) -> Result<(&'a [u8], usize), ReadError> {
        self.next().ok_or_else(|| {
            self.err(
                self.line,
                ErrorKind::Truncated,
                format!("file ends where {what} was expected"),
            )
        })
    }

    fn expect(&self, tok: &[u8], line: usize, keyword: &str) -> Result<(), ReadError> {
        if tok.eq_ignore_ascii_case(keyword.as_bytes()) {
            Ok(())
        } else {
            Err(self.err(
                line,
                ErrorKind::Syntax,
                format!("expected `{keyword}`, found {}", show(tok)),
            ))
        }
    }

    /// The rest of the current line, trimmed (the solid name).
    fn rest_of_line(&mut self) -> String {
        let start = self.pos;
        while self.bytes.get(self.pos).is_some_and(|&b| b != b'\n') {
            self.pos += 1;
        }
        String::from_utf8_lossy(&self.bytes[start..self.pos])
            .trim()
            .to_string()
    }
}
