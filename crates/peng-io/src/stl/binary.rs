//! Binary STL: an 80-byte header, a little-endian `u32` triangle count at byte
//! 80, then per triangle 50 bytes: normal (3 × f32, ignored), three vertices
//! (3 × f32 each), a `u16` attribute count (ignored). Bytes after the last
//! triangle are ignored.

use super::Welder;
use crate::error::{ErrorKind, Location, ReadError};
use crate::options::ReadOptions;
use crate::MeshData;
use glam::Vec3;

const HEADER: usize = 84;
const RECORD: usize = 50;

/// True when the size is exactly `84 + 50·n` for the count `n` at byte 80.
pub(super) fn size_matches(bytes: &[u8]) -> bool {
    count(bytes)
        .is_some_and(|n| (bytes.len() as u64).checked_sub(HEADER as u64) == Some(n * RECORD as u64))
}

fn count(bytes: &[u8]) -> Option<u64> {
    let c: [u8; 4] = bytes.get(80..84)?.try_into().ok()?;
    Some(u32::from_le_bytes(c) as u64)
}

/// Parses a binary STL file. `source_name` names the input in errors.
pub fn parse_stl_binary(bytes: &[u8], source_name: &str) -> Result<MeshData, ReadError> {
    parse(bytes, source_name, &ReadOptions::default())
}

/// [`parse_stl_binary`] within the limits of `options`.
pub(super) fn parse(
    bytes: &[u8],
    source_name: &str,
    options: &ReadOptions,
) -> Result<MeshData, ReadError> {
    let err = |offset: usize, kind: ErrorKind, msg: String| {
        ReadError::new(source_name, Location::Byte(offset as u64), kind, msg)
    };
    let Some(n) = count(bytes) else {
        return Err(err(
            0,
            ErrorKind::Truncated,
            format!(
                "binary STL truncated: the header needs 84 bytes, the file has {}",
                bytes.len()
            ),
        ));
    };
    let need = HEADER as u64 + n * RECORD as u64;
    if (bytes.len() as u64) < need {
        let have = (bytes.len() - HEADER) / RECORD;
        return Err(err(
            HEADER + have * RECORD,
            ErrorKind::Truncated,
            format!(
                "binary STL truncated: the header says {n} triangles ({need} bytes), \
                 the file has {} bytes ({have} complete triangles)",
                bytes.len()
            ),
        ));
    }
    let mut w = Welder::new(options);
    if let Some(msg) = w.triangle_limit(usize::try_from(n).unwrap_or(usize::MAX)) {
        return Err(err(
            80,
            ErrorKind::LimitExceeded,
            format!("{n} triangles: {msg}"),
        ));
    }
    let n = n as usize;
    w.mesh.triangles.reserve(n);
    for t in 0..n {
        let rec = HEADER + t * RECORD;
        let mut tri = [0u32; 3];
        for (k, slot) in tri.iter_mut().enumerate() {
            let at = rec + 12 + 12 * k;
            let mut c = [0.0f32; 3];
            for (axis, v) in c.iter_mut().enumerate() {
                let o = at + 4 * axis;
                *v = f32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
            }
            if !c.iter().all(|v| v.is_finite()) {
                return Err(err(
                    at,
                    ErrorKind::NonFinite,
                    format!(
                        "triangle {t} vertex {k} has a non-finite coordinate ({}, {}, {})",
                        c[0], c[1], c[2]
                    ),
                ));
            }
            let Some(v) = w.vertex(Vec3::from_array(c)) else {
                return Err(err(at, ErrorKind::LimitExceeded, w.vertex_limit()));
            };
            *slot = v;
        }
        w.mesh.triangles.push(tri);
    }
    w.finish(source_name)
}
