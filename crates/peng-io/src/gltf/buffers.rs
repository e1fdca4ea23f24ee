//! glTF buffers and buffer views: `data:` URIs (base64), external files next to
//! the `.gltf`, and the GLB BIN chunk. Buffers are loaded on first use, so an
//! external file only needed for, say, animations may be missing.

use super::json::Ctx;
use crate::error::{ErrorKind, ReadError};
use base64::engine::{general_purpose, GeneralPurpose};
use base64::{DecodeError, Engine};
use serde_json::Value;
use std::borrow::Cow;
use std::path::Path;

/// The buffers of a document, loaded lazily.
pub(super) struct Buffers<'a> {
    ctx: Ctx<'a>,
    doc: &'a Value,
    bin: Option<&'a [u8]>,
    base_dir: Option<&'a Path>,
    loaded: Vec<Option<Cow<'a, [u8]>>>,
}

/// A resolved byte range of a buffer view.
pub(super) struct View<'b> {
    pub(super) bytes: &'b [u8],
    pub(super) stride: Option<u64>,
}

impl<'a> Buffers<'a> {
    pub(super) fn new(
        ctx: Ctx<'a>,
        doc: &'a Value,
        bin: Option<&'a [u8]>,
        base_dir: Option<&'a Path>,
    ) -> Result<Self, ReadError> {
        let n = ctx.array(doc, "buffers", "")?.len();
        Ok(Buffers {
            ctx,
            doc,
            bin,
            base_dir,
            loaded: (0..n).map(|_| None).collect(),
        })
    }

    /// The bytes of `bufferViews[index]`, loading its buffer if needed.
    pub(super) fn view(&mut self, index: u64, referrer: &str) -> Result<View<'_>, ReadError> {
        let ctx = self.ctx;
        let path = format!("bufferViews[{index}]");
        let bv = ctx.item(self.doc, "bufferViews", index, referrer)?;
        let buffer = ctx.req_uint(bv, "buffer", &path)?;
        let offset = ctx.uint(bv, "byteOffset", &path)?.unwrap_or(0);
        let length = ctx.req_uint(bv, "byteLength", &path)?;
        let stride = ctx.uint(bv, "byteStride", &path)?;
        if let Some(s) = stride {
            if !(4..=252).contains(&s) || s % 4 != 0 {
                return Err(ctx.err(
                    &format!("{path}.byteStride"),
                    ErrorKind::Invalid,
                    format!("byteStride {s} must be a multiple of 4 in 4..=252"),
                ));
            }
        }
        let data = self.buffer(buffer, &path)?;
        let end = offset
            .checked_add(length)
            .filter(|&e| e <= data.len() as u64);
        let Some(end) = end else {
            return Err(ctx.err(
                &path,
                ErrorKind::OutOfBounds,
                format!(
                    "byteOffset {offset} + byteLength {length} exceeds buffers[{buffer}] ({} bytes)",
                    data.len()
                ),
            ));
        };
        Ok(View {
            bytes: &data[offset as usize..end as usize],
            stride,
        })
    }

    /// The bytes of `buffers[index]` (at most its `byteLength`).
    fn buffer(&mut self, index: u64, referrer: &str) -> Result<&[u8], ReadError> {
        let ctx = self.ctx;
        let buf = ctx.item(self.doc, "buffers", index, referrer)?;
        let i = index as usize;
        if self.loaded[i].is_none() {
            let path = format!("buffers[{index}]");
            let declared = ctx.req_uint(buf, "byteLength", &path)?;
            let data = self.load(buf, index, &path)?;
            if (data.len() as u64) < declared {
                return Err(ctx.err(
                    &path,
                    ErrorKind::OutOfBounds,
                    format!(
                        "byteLength is {declared}, but the data has only {} bytes",
                        data.len()
                    ),
                ));
            }
            let data = match data {
                Cow::Borrowed(b) => Cow::Borrowed(&b[..declared as usize]),
                Cow::Owned(mut v) => {
                    v.truncate(declared as usize);
                    Cow::Owned(v)
                }
            };
            self.loaded[i] = Some(data);
        }
        Ok(self.loaded[i].as_deref().unwrap_or(&[]))
    }

    fn load(&self, buf: &Value, index: u64, path: &str) -> Result<Cow<'a, [u8]>, ReadError> {
        let ctx = self.ctx;
        let Some(uri) = ctx.string(buf, "uri", path)? else {
            // Section 4.4.3.3: buffers[0] without a uri is the GLB BIN chunk.
            return match (index, self.bin) {
                (0, Some(bin)) => Ok(Cow::Borrowed(bin)),
                (0, None) => Err(ctx.err(
                    path,
                    ErrorKind::Invalid,
                    "has no uri and the file has no GLB BIN chunk",
                )),
                _ => Err(ctx.err(path, ErrorKind::Invalid, "has no uri")),
            };
        };
        let uri_path = format!("{path}.uri");
        if let Some(rest) = uri.strip_prefix("data:") {
            let Some(comma) = rest.find(',') else {
                return Err(ctx.err(&uri_path, ErrorKind::Invalid, "data URI has no comma"));
            };
            if !rest[..comma].ends_with(";base64") {
                return Err(ctx.err(
                    &uri_path,
                    ErrorKind::Unsupported,
                    "only base64 data URIs are supported",
                ));
            }
            return BASE64
                .decode(&rest.as_bytes()[comma + 1..])
                .map(Cow::Owned)
                .map_err(|e| ctx.err(&uri_path, ErrorKind::Syntax, base64_message(e)));
        }
        if uri.contains("://") || uri.starts_with('/') || uri.starts_with('\\') {
            return Err(ctx.err(
                &uri_path,
                ErrorKind::Unsupported,
                format!("{uri:?}: only relative file paths and data URIs are supported"),
            ));
        }
        let rel = percent_decode(uri).ok_or_else(|| {
            ctx.err(
                &uri_path,
                ErrorKind::Syntax,
                format!("{uri:?} has a bad percent escape"),
            )
        })?;
        let Some(dir) = self.base_dir else {
            return Err(ctx.err(
                path,
                ErrorKind::Io,
                format!(
                    "external buffer {rel:?} cannot be loaded: no base directory \
                     (parsed from memory)"
                ),
            ));
        };
        let full = dir.join(&rel);
        std::fs::read(&full).map(Cow::Owned).map_err(|e| {
            ReadError::io(
                ctx.file,
                crate::error::Location::Element(path.to_string()),
                &format!(
                    "external buffer {} is missing or unreadable",
                    full.display()
                ),
                e,
            )
        })
    }
}

/// Standard base64 (RFC 4648, section 4); the padding `=` may be left out,
/// as some writers do.
const BASE64: GeneralPurpose = general_purpose::STANDARD_PAD_INDIFFERENT;

/// What is wrong with the base64 of a data URI, with the offset (in
/// characters after the comma) where the decoder found it.
fn base64_message(e: DecodeError) -> String {
    match e {
        DecodeError::InvalidByte(at, b) => format!(
            "invalid base64 at character {at} of the data: {:?} {}",
            char::from(b),
            if b == b'=' {
                "before the end"
            } else {
                "is not a base64 character"
            }
        ),
        DecodeError::InvalidLength(n) => format!(
            "invalid base64: the data ends with a lone character (at character {})",
            n.saturating_sub(1)
        ),
        DecodeError::InvalidLastSymbol { offset, symbol, .. } => format!(
            "invalid base64 at character {offset} of the data: {:?} has bits beyond \
             the end of the data (truncated or corrupted)",
            char::from(symbol)
        ),
        DecodeError::InvalidPadding => "invalid base64: wrong padding at the end".to_string(),
    }
}

/// Decodes `%XX` escapes of a URI path (RFC 3986, 2.1).
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut k = 0;
    while k < b.len() {
        if b[k] == b'%' {
            let hex = std::str::from_utf8(b.get(k + 1..k + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            k += 3;
        } else {
            out.push(b[k]);
            k += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::percent_decode;

    #[test]
    fn percent_escapes() {
        assert_eq!(percent_decode("a%20b.bin").as_deref(), Some("a b.bin"));
        assert_eq!(percent_decode("plain.bin").as_deref(), Some("plain.bin"));
        assert_eq!(percent_decode("bad%2"), None);
        assert_eq!(percent_decode("bad%zz"), None);
    }
}
