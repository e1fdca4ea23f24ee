//! Typed access to the glTF JSON with errors that name the element, e.g.
//! `accessors[3].count: expected a non-negative integer, found "x"`.

use crate::error::{ErrorKind, Location, ReadError};
use serde_json::Value;

/// The file name, for errors.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'a> {
    pub(super) file: &'a str,
}

impl Ctx<'_> {
    pub(super) fn err(&self, element: &str, kind: ErrorKind, msg: impl Into<String>) -> ReadError {
        ReadError::new(self.file, Location::Element(element.to_string()), kind, msg)
    }

    /// `doc[key][index]`, an object, or an error naming `key[index]`.
    pub(super) fn item<'v>(
        &self,
        doc: &'v Value,
        key: &str,
        index: u64,
        referrer: &str,
    ) -> Result<&'v Value, ReadError> {
        let list = self.array(doc, key, "")?;
        match list.get(index as usize) {
            Some(v) if v.is_object() => Ok(v),
            Some(_) => Err(self.err(
                &format!("{key}[{index}]"),
                ErrorKind::Invalid,
                "expected a JSON object",
            )),
            None => Err(self.err(
                referrer,
                ErrorKind::IndexOutOfRange,
                format!(
                    "refers to {key}[{index}], but the file has {} {key}",
                    list.len()
                ),
            )),
        }
    }

    /// `obj[key]` as an array; absent gives an empty slice.
    pub(super) fn array<'v>(
        &self,
        obj: &'v Value,
        key: &str,
        path: &str,
    ) -> Result<&'v [Value], ReadError> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(a)) => Ok(a),
            Some(other) => Err(self.err(
                &join(path, key),
                ErrorKind::Invalid,
                format!("expected an array, found {}", brief(other)),
            )),
        }
    }

    /// `obj[key]` as a non-negative integer, if present.
    pub(super) fn uint(
        &self,
        obj: &Value,
        key: &str,
        path: &str,
    ) -> Result<Option<u64>, ReadError> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => as_uint(v).map(Some).ok_or_else(|| {
                self.err(
                    &join(path, key),
                    ErrorKind::Invalid,
                    format!("expected a non-negative integer, found {}", brief(v)),
                )
            }),
        }
    }

    /// `obj[key]` as a non-negative integer, required.
    pub(super) fn req_uint(&self, obj: &Value, key: &str, path: &str) -> Result<u64, ReadError> {
        self.uint(obj, key, path)?.ok_or_else(|| {
            self.err(
                path,
                ErrorKind::Invalid,
                format!("missing required property `{key}`"),
            )
        })
    }

    /// `obj[key]` as a string, if present.
    pub(super) fn string<'v>(
        &self,
        obj: &'v Value,
        key: &str,
        path: &str,
    ) -> Result<Option<&'v str>, ReadError> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(self.err(
                &join(path, key),
                ErrorKind::Invalid,
                format!("expected a string, found {}", brief(v)),
            )),
        }
    }

    /// `obj[key]` as exactly `N` finite numbers, if present.
    pub(super) fn floats<const N: usize>(
        &self,
        obj: &Value,
        key: &str,
        path: &str,
    ) -> Result<Option<[f32; N]>, ReadError> {
        let Some(v) = obj.get(key) else {
            return Ok(None);
        };
        let at = join(path, key);
        let arr = v.as_array().filter(|a| a.len() == N).ok_or_else(|| {
            self.err(
                &at,
                ErrorKind::Invalid,
                format!("expected an array of {N} numbers, found {}", brief(v)),
            )
        })?;
        let mut out = [0.0f32; N];
        for (k, (slot, x)) in out.iter_mut().zip(arr).enumerate() {
            let f = x.as_f64().ok_or_else(|| {
                self.err(
                    &format!("{at}[{k}]"),
                    ErrorKind::NotANumber,
                    format!("expected a number, found {}", brief(x)),
                )
            })? as f32;
            if !f.is_finite() {
                return Err(self.err(
                    &format!("{at}[{k}]"),
                    ErrorKind::NonFinite,
                    format!("{x} is not finite in f32"),
                ));
            }
            *slot = f;
        }
        Ok(Some(out))
    }
}

/// A non-negative integer, also when written as an integral float (`3.0`).
pub(super) fn as_uint(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 9.0e15)
            .map(|f| f as u64)
    })
}

/// `path.key`, or `key` when `path` is empty.
pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A short rendering of a JSON value for messages.
pub(super) fn brief(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 {
        let mut cut = 40;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}...", &s[..cut])
    } else {
        s
    }
}
