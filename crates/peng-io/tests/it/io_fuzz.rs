//! Fuzz-style robustness: thousands of random mutations of valid files are fed
//! to every parser. No input may panic, and every mesh that is returned must
//! satisfy the `MeshData` contract (finite positions, indices in range,
//! non-empty, group ranges inside the triangle list).

use crate::io_support;

use io_support::*;
use peng_io::{
    parse_gltf, parse_mesh, parse_obj_bytes, parse_stl, parse_stl_ascii, parse_stl_binary,
    MeshData, ReadError,
};
use serde_json::json;

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): tiny, seeded, good enough to drive mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`; the modulo bias is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const BYTES: &[u8] = b"0123456789-+./\\\n\r \t{}[]\",:eE#fvgo\x00\xff";
const TOKENS: &[&str] = &[
    "nan",
    "inf",
    "-1",
    "0",
    "-0",
    "4294967295",
    "4294967296",
    "1e39",
    "99999999999999999999",
    "-2147483648",
    "f 1 2",
    "f -9 1 2 3",
    "v 1 2",
    "\\\n",
    "solid",
    "endsolid",
    "facet",
    "vertex 1 2",
    "endloop",
    "\"count\": 1000000000",
    "\"byteStride\": 3",
    "\"mode\": 5",
    "\"sparse\": {}",
    "\"children\": [0]",
    "\"scene\": 7",
    "\"matrix\": [0]",
    "null",
    "true",
    "\"uri\": \"x.bin\"",
    "\"bufferView\": 9",
    "\"byteOffset\": 4294967295",
    "\"componentType\": 5120",
    "data:,",
    "%",
    "\u{e9}",
    "\u{1F600}",
];

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut b = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = b.len();
        let at = if len == 0 { 0 } else { rng.below(len) };
        match rng.below(9) {
            0 if len > 0 => b[at] ^= 1 << rng.below(8),
            1 if len > 0 => b[at] = rng.next() as u8,
            2 if len > 0 => b[at] = BYTES[rng.below(BYTES.len())],
            3 if len > 0 => {
                let n = 1 + rng.below(16.min(len - at));
                b.drain(at..at + n);
            }
            4 if len > 0 => {
                let n = 1 + rng.below(32.min(len - at));
                let chunk = b[at..at + n].to_vec();
                let to = rng.below(len + 1);
                b.splice(to..to, chunk);
            }
            5 => b.truncate(at),
            6 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                b.splice(at..at, t.iter().copied());
            }
            7 if len >= 4 => {
                // Overwrite an aligned little-endian u32 (counts, lengths, types).
                let at = (at & !3).min(len - 4);
                let v: u32 = [
                    0,
                    1,
                    2,
                    3,
                    84,
                    0xFFFF_FFFF,
                    0x7FFF_FFFF,
                    len as u32,
                    len as u32 + 1,
                ][rng.below(9)];
                b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            _ => {
                // Replace a run of digits (a number in text) with another.
                if let Some(start) = (at..len).find(|&i| b[i].is_ascii_digit()) {
                    let end = (start..len)
                        .find(|&i| !b[i].is_ascii_digit())
                        .unwrap_or(len);
                    let t = [
                        "0", "1", "3", "7", "255", "65535", "5126", "5121", "1e30", "-5",
                    ][rng.below(10)];
                    b.splice(start..end, t.bytes());
                }
            }
        }
    }
    b
}

fn check_contract(m: &MeshData, what: &str) {
    assert!(!m.triangles.is_empty(), "{what}: empty mesh returned as Ok");
    assert!(
        m.positions.iter().all(|p| p.is_finite()),
        "{what}: non-finite position"
    );
    let n = m.positions.len() as u32;
    assert!(
        m.triangles.iter().flatten().all(|&i| i < n),
        "{what}: index out of range"
    );
    for g in &m.groups {
        assert!(
            g.triangles.start < g.triangles.end && g.triangles.end <= m.triangles.len(),
            "{what}: bad group range {:?}",
            g.triangles
        );
    }
}

type Parser = fn(&[u8]) -> Result<MeshData, ReadError>;

fn parsers() -> Vec<(&'static str, Parser)> {
    vec![
        ("obj", |b| parse_obj_bytes(b, "f.obj")),
        ("stl", |b| parse_stl(b, "f.stl")),
        ("stl ascii", |b| parse_stl_ascii(b, "f.stl")),
        ("stl binary", |b| parse_stl_binary(b, "f.stl")),
        ("gltf", |b| parse_gltf(b, "f.gltf", None)),
        ("glb", |b| parse_gltf(b, "f.glb", None)),
        ("any", |b| parse_mesh(b, "f")),
    ]
}

fn seeds() -> Vec<(&'static str, Vec<u8>)> {
    let read = |n: &str| std::fs::read(data(n)).expect("fixture");
    // A small GLB exercising strides, sparse data, strips and fans.
    let mut bin = Vec::new();
    for p in [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ] {
        bin.extend(f32_bytes(&p));
        bin.extend(0f32.to_le_bytes());
    }
    bin.extend([0u8, 1, 2, 3, 2, 0, 0, 0]);
    bin.extend(f32_bytes(&[0.0, 2.0, 0.0]));
    let doc = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": 84}],
        "bufferViews": [
            {"buffer": 0, "byteLength": 64, "byteStride": 16},
            {"buffer": 0, "byteOffset": 64, "byteLength": 4},
            {"buffer": 0, "byteOffset": 68, "byteLength": 2},
            {"buffer": 0, "byteOffset": 72, "byteLength": 12}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5121, "count": 4, "type": "SCALAR"},
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
             "sparse": {"count": 1, "indices": {"bufferView": 2, "componentType": 5123},
                        "values": {"bufferView": 3}}}
        ],
        "meshes": [
            {"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "mode": 5}]},
            {"primitives": [{"attributes": {"POSITION": 2}, "mode": 6}]}
        ],
        "nodes": [
            {"translation": [0, 0, 1], "children": [1], "mesh": 0},
            {"mesh": 1, "rotation": [0, 0, 0.6, 0.8], "scale": [1, -1, 1]}
        ],
        "scenes": [{"nodes": [0]}],
        "scene": 0
    });
    vec![
        ("cube.obj", read("cube.obj")),
        ("tetra_ascii.stl", read("tetra_ascii.stl")),
        ("binary stl", binary_stl("plain", &tetra())),
        ("solid binary stl", binary_stl("solid x", &tetra())),
        ("tetra_embedded.gltf", read("tetra_embedded.gltf")),
        ("glb", glb(&doc.to_string(), Some(&bin))),
    ]
}

#[test]
fn seeds_are_valid() {
    for (name, bytes) in seeds() {
        let m = parse_mesh(&bytes, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_contract(&m, name);
    }
}

#[test]
fn mutated_files_never_panic() {
    let parsers = parsers();
    let mut rng = Rng(0x5EED_0F9E);
    let mut ok = 0usize;
    let mut runs = 0usize;
    for (name, seed) in seeds() {
        for iter in 0..2500 {
            let input = mutate(&mut rng, &seed);
            // The matching parsers every time, the others now and then.
            for (pname, parse) in &parsers {
                let matching = match *pname {
                    "obj" => name.ends_with(".obj"),
                    "stl" | "stl ascii" | "stl binary" => name.contains("stl"),
                    "gltf" | "glb" => name.contains("gl"),
                    _ => true,
                };
                if !matching && iter % 10 != 0 {
                    continue;
                }
                runs += 1;
                let what = format!("{pname} on mutation {iter} of {name}");
                let result = std::panic::catch_unwind(|| parse(&input));
                match result {
                    Ok(Ok(m)) => {
                        check_contract(&m, &what);
                        ok += 1;
                    }
                    Ok(Err(e)) => {
                        let msg = e.to_string();
                        assert!(
                            msg.starts_with("f"),
                            "{what}: message {msg:?} lacks the file"
                        );
                    }
                    Err(_) => panic!(
                        "{what} panicked; input: {:?}",
                        String::from_utf8_lossy(&input)
                    ),
                }
            }
        }
    }
    // The mutations must leave a fair share of inputs readable, or the test
    // exercises only the first check of each parser.
    eprintln!("fuzz: {ok} of {runs} parses succeeded");
    assert!(runs > 30_000, "{runs} runs");
    assert!(ok > runs / 20, "only {ok} of {runs} mutated inputs parsed");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(7);
    let prefixes: [&[u8]; 5] = [b"", b"glTF\x02\x00\x00\x00", b"solid ", b"v 1 2 3\n", b"{"];
    for k in 0..3000 {
        let mut input = prefixes[k % prefixes.len()].to_vec();
        let n = rng.below(200);
        input.extend((0..n).map(|_| rng.next() as u8));
        for (pname, parse) in parsers() {
            if std::panic::catch_unwind(|| parse(&input)).is_err() {
                panic!("{pname} panicked on random input {input:?}");
            }
        }
    }
}
