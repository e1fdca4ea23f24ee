//! The GLB container (glTF 2.0 specification, section 4.4 "GLB File Format
//! Specification"): a 12-byte header (magic `glTF`, version 2, total length),
//! then chunks of (length, type, data): first the JSON chunk, then an optional
//! BIN chunk; chunks of unknown type are skipped. All integers little-endian.

use crate::error::{ErrorKind, Location, ReadError};

/// `glTF` read as a little-endian u32.
pub(super) const MAGIC: u32 = 0x4654_6C67;
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// The JSON and BIN chunks of a GLB file.
pub(super) struct Glb<'a> {
    pub(super) json: &'a [u8],
    pub(super) bin: Option<&'a [u8]>,
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Splits a GLB file into its chunks.
pub(super) fn split<'a>(bytes: &'a [u8], file: &str) -> Result<Glb<'a>, ReadError> {
    let err = |at: usize, kind: ErrorKind, msg: String| {
        ReadError::new(file, Location::Byte(at as u64), kind, msg)
    };
    if bytes.len() < 12 {
        return Err(err(
            0,
            ErrorKind::Truncated,
            format!(
                "GLB truncated: the header needs 12 bytes, the file has {}",
                bytes.len()
            ),
        ));
    }
    let magic = u32_at(bytes, 0).unwrap_or(0);
    if magic != MAGIC {
        return Err(err(
            0,
            ErrorKind::BadHeader,
            format!("bad GLB magic {magic:#010x} (expected 0x46546c67, \"glTF\")"),
        ));
    }
    let version = u32_at(bytes, 4).unwrap_or(0);
    if version != 2 {
        return Err(err(
            4,
            ErrorKind::BadHeader,
            format!("unsupported GLB version {version} (only version 2 is read)"),
        ));
    }
    let length = u32_at(bytes, 8).unwrap_or(0) as usize;
    if length > bytes.len() {
        return Err(err(
            8,
            ErrorKind::Truncated,
            format!(
                "GLB truncated: the header says {length} bytes, the file has {}",
                bytes.len()
            ),
        ));
    }
    if length < 20 {
        return Err(err(
            8,
            ErrorKind::BadHeader,
            format!("GLB length {length} is too small to hold a JSON chunk (at least 20)"),
        ));
    }
    let bytes = &bytes[..length];
    let mut at = 12usize;
    let mut json: Option<&[u8]> = None;
    let mut bin: Option<&[u8]> = None;
    let mut index = 0usize;
    while at < length {
        let (Some(len), Some(kind)) = (u32_at(bytes, at), u32_at(bytes, at + 4)) else {
            return Err(err(
                at,
                ErrorKind::BadHeader,
                format!(
                    "chunk {index} header needs 8 bytes, only {} left before the GLB length {length}",
                    length - at
                ),
            ));
        };
        let data_start = at + 8;
        let len = len as usize;
        if len > length - data_start {
            return Err(err(
                at,
                ErrorKind::BadHeader,
                format!(
                    "chunk {index} length {len} exceeds the {} bytes left before the GLB length {length}",
                    length - data_start
                ),
            ));
        }
        let data = &bytes[data_start..data_start + len];
        match (index, kind) {
            (0, CHUNK_JSON) => json = Some(data),
            (0, _) => {
                return Err(err(
                    at + 4,
                    ErrorKind::BadHeader,
                    format!("first chunk has type {kind:#010x}, expected JSON (0x4e4f534a)"),
                ))
            }
            (1, CHUNK_BIN) => bin = Some(data),
            (_, CHUNK_JSON) | (_, CHUNK_BIN) => {
                return Err(err(
                    at + 4,
                    ErrorKind::BadHeader,
                    format!("chunk {index} repeats a JSON or BIN chunk out of place"),
                ))
            }
            _ => {} // Unknown chunk types are skipped (section 4.4.3).
        }
        at = data_start + len;
        index += 1;
    }
    let json = json.ok_or_else(|| err(12, ErrorKind::BadHeader, "no JSON chunk".into()))?;
    Ok(Glb { json, bin })
}
