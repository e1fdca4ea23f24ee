//! Reading a shape object: its `type` tag, then the rest into a typed definition.

use super::defs::CapsuleDef;
use super::error::Located;
use super::locate::Seg;
use peng::math::Vector;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// `path` extended by one key.
pub fn key(path: &[Seg], k: &str) -> Vec<Seg> {
    let mut p = path.to_vec();
    p.push(Seg::Key(k.to_string()));
    p
}

/// `path` extended by one index.
pub fn index(path: &[Seg], i: usize) -> Vec<Seg> {
    let mut p = path.to_vec();
    p.push(Seg::Index(i));
    p
}

/// The `type` of the shape object at `path`, checked against `known`.
pub fn shape_type<'v>(
    v: &'v Value,
    path: &[Seg],
    dim: u8,
    known: &[&str],
) -> Result<&'v str, Located> {
    let obj = v.as_object().ok_or_else(|| {
        Located::new(
            path.to_vec(),
            format!(
                "expected a shape object such as {{\"type\": \"{}\", ...}}, got {}",
                known[0],
                kind_of(v)
            ),
        )
    })?;
    let t = obj.get("type").ok_or_else(|| {
        Located::new(
            path.to_vec(),
            format!("missing field `type` (one of: {})", known.join(", ")),
        )
    })?;
    let t = t.as_str().ok_or_else(|| {
        Located::new(
            key(path, "type"),
            format!("invalid type: {}, expected a shape type name", kind_of(t)),
        )
    })?;
    if known.contains(&t) {
        Ok(t)
    } else {
        Err(Located::new(
            key(path, "type"),
            format!(
                "unknown shape type {t:?} for a {dim}D scene, expected one of: {}",
                known.join(", ")
            ),
        ))
    }
}

/// Deserializes the shape object at `path` (without its `type`) into `T`.
pub fn fields<T: DeserializeOwned>(v: &Value, path: &[Seg]) -> Result<T, Located> {
    let mut obj = v.as_object().cloned().unwrap_or_default();
    obj.remove("type");
    serde_path_to_error::deserialize(&Value::Object(obj)).map_err(|e| Located::from_serde(path, e))
}

/// A short description of a JSON value's kind, for messages.
pub fn kind_of(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// How a capsule definition gives its core segment.
pub enum CapsuleCore<V> {
    /// `half_height` alone: a vertical segment along local y.
    Vertical(f32),
    /// Both ends `a` and `b`.
    Ends(V, V),
}

/// The core segment of the capsule definition at `path`: `half_height` alone
/// or both ends, nothing else.
pub fn capsule_core<V: Copy>(d: &CapsuleDef<V>, path: &[Seg]) -> Result<CapsuleCore<V>, Located> {
    match (d.half_height, d.a, d.b) {
        (Some(h), None, None) => Ok(CapsuleCore::Vertical(h)),
        (None, Some(a), Some(b)) => Ok(CapsuleCore::Ends(a, b)),
        _ => Err(Located::new(
            path.to_vec(),
            "a capsule needs either `half_height` or both ends `a` and `b`",
        )),
    }
}

/// The `position` of the element at `path` (default origin), which must be
/// finite.
pub fn position<V: Vector>(p: Option<V>, path: &[Seg]) -> Result<V, Located> {
    let t = p.unwrap_or(V::ZERO);
    if t.is_finite() {
        Ok(t)
    } else {
        Err(Located::new(
            key(path, "position"),
            "position is not finite",
        ))
    }
}

/// The error for a shape `type` outside the dimension's list (`shape_type`
/// returns only listed names, so this is a guard).
pub fn unknown_type(path: &[Seg], t: &str) -> Located {
    Located::new(key(path, "type"), format!("unknown shape type {t:?}"))
}
