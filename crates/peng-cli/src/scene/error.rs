//! Errors of scene loading, each naming the file, line, column and field.

use super::locate::{line_col, locate, path_to_string, Seg};
use peng::GeometryError;
use std::fmt;

/// A problem found at one element of the scene document, before its position in
/// the text is known.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// Path of the offending element (e.g. `shapes[2].shape.radius`).
    pub path: Vec<Seg>,
    /// What is wrong.
    pub message: String,
}

impl Located {
    /// An error at `path`.
    pub fn new(path: Vec<Seg>, message: impl Into<String>) -> Self {
        Located {
            path,
            message: message.into(),
        }
    }

    /// Converts a `serde_path_to_error` failure found while deserializing the
    /// element at `base`.
    pub fn from_serde(base: &[Seg], e: serde_path_to_error::Error<serde_json::Error>) -> Self {
        let mut path = base.to_vec();
        for seg in e.path().iter() {
            match seg {
                serde_path_to_error::Segment::Seq { index } => path.push(Seg::Index(*index)),
                serde_path_to_error::Segment::Map { key } => path.push(Seg::Key(key.clone())),
                serde_path_to_error::Segment::Enum { variant } => {
                    path.push(Seg::Key(variant.clone()))
                }
                serde_path_to_error::Segment::Unknown => {}
            }
        }
        let message = e.into_inner().to_string();
        // Point an unknown field at the field itself, whether or not the path
        // already ends with it.
        if let Some(rest) = message.strip_prefix("unknown field `") {
            if let Some(end) = rest.find('`') {
                let field = Seg::Key(rest[..end].to_string());
                if path.last() != Some(&field) {
                    path.push(field);
                }
            }
        }
        Located { path, message }
    }

    /// A geometry error raised by a peng constructor for the shape at `shape_path`;
    /// the field is guessed from the error's subject (e.g. "ball radius" → `radius`).
    pub fn geometry(shape_path: &[Seg], e: &GeometryError) -> Self {
        let mut path = shape_path.to_vec();
        if let Some(f) = geometry_field(e) {
            path.push(Seg::Key(f.to_string()));
        }
        Located {
            path,
            message: e.to_string(),
        }
    }
}

/// The scene field that a peng constructor's error subject refers to.
fn geometry_field(e: &GeometryError) -> Option<&'static str> {
    let what = match e {
        GeometryError::NonFinite { what }
        | GeometryError::Negative { what, .. }
        | GeometryError::Degenerate { what, .. }
        | GeometryError::TooFew { what, .. }
        | GeometryError::IndexOutOfRange { what, .. }
        | GeometryError::TooLarge { what, .. } => *what,
    };
    // Subject endings and the field each names, tried in this order.
    const BY_SUFFIX: [(&str, &str); 6] = [
        ("radius", "radius"),
        ("half height", "half_height"),
        ("half extents", "half_extents"),
        (" a", "a"),
        (" b", "b"),
        (" c", "c"),
    ];
    let field = if let Some(&(_, field)) = BY_SUFFIX.iter().find(|(end, _)| what.ends_with(end)) {
        field
    } else if what.starts_with("half-space") {
        "normal"
    } else if what.starts_with("compound") {
        "parts"
    } else if what.starts_with("polyline")
        || what.contains("polygon")
        || what.contains("polyhedron")
        || what.contains("hull")
    {
        "points"
    } else {
        return None;
    };
    Some(field)
}

/// A scene that cannot be loaded: where and why.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneError {
    /// The file name as given (or `<bundled ...>`, `<stdin>`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The offending field, e.g. `shapes[2].shape.radius`; empty for syntax errors.
    pub path: String,
    /// The name of the shape the field belongs to, when known.
    pub shape_name: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl SceneError {
    /// Places a [`Located`] error in the text; `name_of` gives the name of
    /// `shapes[i]` when there is one.
    pub fn place(
        file: &str,
        text: &str,
        e: Located,
        name_of: impl Fn(usize) -> Option<String>,
    ) -> Self {
        let (line, column) = line_col(text, locate(text, &e.path));
        let shape_name = match e.path.as_slice() {
            [Seg::Key(k), Seg::Index(i), ..] if k == "shapes" => name_of(*i),
            _ => None,
        };
        SceneError {
            file: file.to_string(),
            line,
            column,
            path: path_to_string(&e.path),
            shape_name,
            message: e.message,
        }
    }
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        write!(f, "{}", self.message)?;
        if let Some(n) = &self.shape_name {
            write!(f, " (in shape {n:?})")?;
        }
        Ok(())
    }
}

impl std::error::Error for SceneError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_errors_name_their_field() {
        let base = vec![
            Seg::Key("shapes".into()),
            Seg::Index(1),
            Seg::Key("shape".into()),
        ];
        let e = peng::d3::Ball::new(-1.0).unwrap_err();
        let l = Located::geometry(&base, &e);
        assert_eq!(path_to_string(&l.path), "shapes[1].shape.radius");
        assert_eq!(l.message, "ball radius must not be negative, got -1");
        let e = peng::d2::Segment::new(peng::d2::Vec2::ZERO, peng::d2::Vec2::NAN).unwrap_err();
        assert_eq!(
            path_to_string(&Located::geometry(&base, &e).path),
            "shapes[1].shape.b"
        );
        let e = peng::d2::ConvexPolygon::from_points(&[peng::d2::Vec2::ZERO; 3]).unwrap_err();
        assert_eq!(
            path_to_string(&Located::geometry(&base, &e).path),
            "shapes[1].shape.points"
        );
    }

    #[test]
    fn display_names_file_line_column_field_and_shape() {
        let text = "{\n  \"shapes\": [\n    {\"name\": \"w\", \"shape\": {\"radius\": -1}}\n  ]\n}";
        let path = vec![
            Seg::Key("shapes".into()),
            Seg::Index(0),
            Seg::Key("shape".into()),
            Seg::Key("radius".into()),
        ];
        let e = SceneError::place("s.json", text, Located::new(path, "bad"), |i| {
            (i == 0).then(|| "w".to_string())
        });
        assert_eq!(
            e.to_string(),
            "s.json:3:39: shapes[0].shape.radius: bad (in shape \"w\")"
        );
    }
}
