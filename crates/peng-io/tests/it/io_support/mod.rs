//! Helpers shared by the `io_*` integration tests.
#![allow(dead_code)]

use glam::Vec3;
use peng_io::{MeshData, ReadError};
use std::path::PathBuf;

/// A fixture under `tests/data`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A scratch path for files written by a test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("peng-io-tests");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

/// Signed volume by the divergence theorem: the sum over triangles of
/// `a · (b × c) / 6`; positive for a closed mesh with outward winding.
pub fn signed_volume(m: &MeshData) -> f64 {
    m.triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| m.positions[i as usize].as_dvec3());
            a.dot(b.cross(c)) / 6.0
        })
        .sum()
}

/// Every undirected edge used by exactly two triangles, in opposite directions.
pub fn is_closed_manifold(m: &MeshData) -> bool {
    let mut edges = std::collections::HashMap::new();
    for t in &m.triangles {
        for k in 0..3 {
            *edges.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
        }
    }
    edges
        .iter()
        .all(|(&(a, b), &n)| n == 1 && edges.get(&(b, a)) == Some(&1))
}

/// The unit tetrahedron `(0,0,0), x, y, z`, outward counter-clockwise.
pub fn tetra() -> Vec<[Vec3; 3]> {
    let p = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
        .iter()
        .map(|t| t.map(|i: usize| p[i]))
        .collect()
}

/// A binary STL with the given 80-byte header text (padded with spaces).
pub fn binary_stl(header: &str, tris: &[[Vec3; 3]]) -> Vec<u8> {
    let mut out = vec![b' '; 80];
    out[..header.len()].copy_from_slice(header.as_bytes());
    out.extend((tris.len() as u32).to_le_bytes());
    for t in tris {
        // A deliberately wrong normal: readers must ignore it.
        for v in [Vec3::new(9.0, 9.0, 9.0), t[0], t[1], t[2]] {
            for c in v.to_array() {
                out.extend(c.to_le_bytes());
            }
        }
        out.extend(0u16.to_le_bytes());
    }
    out
}

/// A GLB container around `json` and an optional BIN chunk, padded to 4 bytes
/// (JSON with spaces, BIN with zeros) as section 4.4.3 requires.
pub fn glb(json: &str, bin: Option<&[u8]>) -> Vec<u8> {
    let mut j = json.as_bytes().to_vec();
    while !j.len().is_multiple_of(4) {
        j.push(b' ');
    }
    let mut chunks = Vec::new();
    chunks.extend((j.len() as u32).to_le_bytes());
    chunks.extend(0x4E4F_534Au32.to_le_bytes());
    chunks.extend(&j);
    if let Some(bin) = bin {
        let mut b = bin.to_vec();
        while !b.len().is_multiple_of(4) {
            b.push(0);
        }
        chunks.extend((b.len() as u32).to_le_bytes());
        chunks.extend(0x004E_4942u32.to_le_bytes());
        chunks.extend(&b);
    }
    let mut out = Vec::new();
    out.extend(b"glTF");
    out.extend(2u32.to_le_bytes());
    out.extend((12 + chunks.len() as u32).to_le_bytes());
    out.extend(chunks);
    out
}

/// Little-endian f32s as bytes.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Asserts that `r` is an error whose message contains every part.
pub fn expect_err<T: std::fmt::Debug>(r: Result<T, ReadError>, parts: &[&str]) -> ReadError {
    let e = r.expect_err("expected an error");
    let msg = e.to_string();
    for p in parts {
        assert!(msg.contains(p), "message {msg:?} lacks {p:?}");
    }
    e
}

/// The mesh's positions as a sorted list, for comparing vertex sets.
pub fn sorted_positions(m: &MeshData) -> Vec<[f32; 3]> {
    let mut v: Vec<[f32; 3]> = m.positions.iter().map(|p| p.to_array()).collect();
    v.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    v
}

/// Standard base64 with padding (RFC 4648, section 4), for building data URIs.
pub fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A `data:` URI holding `bytes`.
pub fn data_uri(bytes: &[u8]) -> String {
    format!("data:application/octet-stream;base64,{}", base64(bytes))
}
