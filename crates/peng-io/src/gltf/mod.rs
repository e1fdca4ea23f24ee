//! glTF 2.0 reader (`.gltf` JSON with external or embedded buffers, and `.glb`),
//! geometry only, on `serde_json` (no image or material decoding).
//!
//! After the Khronos glTF 2.0 specification:
//! - every mesh instance reachable from the scene (see [`scene`]) is output in
//!   world space: positions transformed by the node's world matrix; when that
//!   matrix has a negative determinant (a mirror) the triangle winding is
//!   reversed so that front faces stay counter-clockwise (section 3.7.2.1);
//! - primitives of mode TRIANGLES (4, the default), TRIANGLE_STRIP (5) and
//!   TRIANGLE_FAN (6) are read; points and lines (0-3) are skipped;
//! - POSITION is a `VEC3` accessor of FLOAT (or quantized integers); indices
//!   are UNSIGNED_BYTE/SHORT/INT, or absent (vertices taken in order); sparse
//!   accessors are applied;
//! - skins and morph targets are ignored (the bind pose is read), and a file
//!   requiring mesh compression (Draco, meshopt) is rejected as unsupported.
//!
//! Each instance gets its own copy of the vertices; one [`Group`] per instance
//! names it (node name, else mesh name, else `nodes[i]`).
//!
//! # Bounded work
//! An accessor without a buffer view reads as zeros, so a tiny file can
//! declare millions of vertices and instance them on many nodes. Counts are
//! checked against [`ReadOptions`] before anything is allocated, the totals
//! over all instances too (the error names the mesh and the node). A
//! primitive whose positions (or indices) are all zero, having no buffer view
//! and no sparse data, has only degenerate triangles: it is left out with a
//! warning (in [`MeshData::warnings`]), without reading it; with sparse data,
//! the triangles whose three corners coincide are left out the same way, and
//! only the vertices the others use are kept.
//!
//! [`Group`]: crate::Group

mod accessor;
mod buffers;
mod glb;
mod json;
mod scene;

use crate::error::{read_bytes, ErrorKind, Location, ReadError};
use crate::mesh_data::{GroupKind, MeshData};
use crate::options::{over, ReadOptions};
use buffers::Buffers;
use glam::Vec3;
use json::Ctx;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// Extensions that change how geometry is stored; a file that requires one
/// cannot be read without it.
const UNSUPPORTED_REQUIRED: [&str; 3] = [
    "KHR_draco_mesh_compression",
    "EXT_meshopt_compression",
    "KHR_meshopt_compression",
];

/// A UTF-8 byte-order mark, which some editors put before JSON; glTF files
/// must not have one, but it is skipped here rather than rejected.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Reads a `.gltf` or `.glb` file (told apart by content). External buffers
/// are resolved relative to the file's directory.
pub fn read_gltf(path: impl AsRef<Path>) -> Result<MeshData, ReadError> {
    let path = path.as_ref();
    let bytes = read_bytes(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    parse_gltf(&bytes, &path.display().to_string(), Some(dir))
}

/// [`parse_gltf`] within the limits of `options`.
pub fn parse_gltf_with(
    bytes: &[u8],
    source_name: &str,
    base_dir: Option<&Path>,
    options: &ReadOptions,
) -> Result<MeshData, ReadError> {
    parse(bytes, source_name, base_dir, options)
}

/// Parses glTF JSON or GLB bytes (told apart by the GLB magic). External
/// buffers are resolved relative to `base_dir`; with `None`, only embedded
/// (`data:`) and GLB buffers can be read. `source_name` names the input in errors.
pub fn parse_gltf(
    bytes: &[u8],
    source_name: &str,
    base_dir: Option<&Path>,
) -> Result<MeshData, ReadError> {
    parse(bytes, source_name, base_dir, &ReadOptions::default())
}

fn parse(
    bytes: &[u8],
    source_name: &str,
    base_dir: Option<&Path>,
    options: &ReadOptions,
) -> Result<MeshData, ReadError> {
    let ctx = Ctx { file: source_name };
    let first = bytes.iter().copied().find(|b| !b.is_ascii_whitespace());
    let glb_name = Path::new(source_name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
    // GLB by its magic; also when the content is not JSON and either the name
    // says `.glb` or the first byte is binary, so a damaged GLB header gets a
    // GLB error rather than a JSON one.
    let looks_glb = is_glb(bytes)
        || (first != Some(b'{')
            && !bytes.starts_with(UTF8_BOM)
            && (glb_name || first.is_some_and(|b| !(0x20..0x80).contains(&b))));
    let (json_bytes, bin, in_glb) = if looks_glb {
        let g = glb::split(bytes, source_name)?;
        (g.json, g.bin, true)
    } else {
        (bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes), None, false)
    };
    let doc: Value = serde_json::from_slice(json_bytes).map_err(|e| {
        let (loc, what) = if in_glb {
            (
                Location::Element("JSON chunk".into()),
                format!("line {} column {}", e.line(), e.column()),
            )
        } else {
            (Location::Line(e.line()), format!("column {}", e.column()))
        };
        ReadError::new(
            source_name,
            loc,
            ErrorKind::Syntax,
            format!("invalid JSON at {what}: {e}"),
        )
    })?;
    if !doc.is_object() {
        return Err(ctx.err(
            "document",
            ErrorKind::Invalid,
            "top level is not a JSON object",
        ));
    }
    check_header(ctx, &doc)?;
    let mut bufs = Buffers::new(ctx, &doc, bin, base_dir)?;
    let (instances, name) = scene::instances(ctx, &doc)?;

    let mut mesh = MeshData {
        name,
        ..MeshData::default()
    };
    let mut stats = Stats::default();
    let mut cache = Cache::default();
    for inst in &instances {
        let mesh_path = format!("meshes[{}]", inst.mesh);
        let referrer = inst
            .node
            .map_or(mesh_path.clone(), |n| format!("nodes[{n}].mesh"));
        let m = ctx.item(&doc, "meshes", inst.mesh, &referrer)?;
        let start = mesh.triangles.len();
        let mirrored = inst.world.determinant() < 0.0;
        for (j, prim) in ctx.array(m, "primitives", &mesh_path)?.iter().enumerate() {
            let path = format!("{mesh_path}.primitives[{j}]");
            let mut reader = Reader {
                ctx,
                doc: &doc,
                bufs: &mut bufs,
                cache: &mut cache,
                stats: &mut stats,
                options,
                warnings: &mut mesh.warnings,
            };
            let Some((positions, tris)) = reader.primitive(prim, &path)? else {
                continue;
            };
            let base = mesh.positions.len() as u64;
            if base + positions.len() as u64 > u32::MAX as u64 {
                return Err(ctx.err(&path, ErrorKind::Unsupported, "more than 2^32 - 1 vertices"));
            }
            // The totals over every instance, before copying this one.
            let instance = inst
                .node
                .map_or(String::new(), |n| format!(" (instance of nodes[{n}])"));
            if mesh.positions.len() + positions.len() > options.max_vertices {
                let what = format!("the vertex count of all mesh instances{instance}");
                return Err(ctx.err(
                    &path,
                    ErrorKind::LimitExceeded,
                    over(&what, options.max_vertices, "vertices", "max_vertices"),
                ));
            }
            if mesh.triangles.len() + tris.len() > options.max_triangles {
                let what = format!("the triangle count of all mesh instances{instance}");
                return Err(ctx.err(
                    &path,
                    ErrorKind::LimitExceeded,
                    over(&what, options.max_triangles, "triangles", "max_triangles"),
                ));
            }
            for p in positions.iter() {
                let w = inst.world.transform_point3(*p);
                if !w.is_finite() {
                    return Err(ctx.err(
                        &path,
                        ErrorKind::NonFinite,
                        "a transformed position is not finite",
                    ));
                }
                mesh.positions.push(w);
            }
            let b = base as u32;
            mesh.triangles.extend(tris.iter().map(|&[a, c, d]| {
                if mirrored {
                    [a + b, d + b, c + b]
                } else {
                    [a + b, c + b, d + b]
                }
            }));
        }
        let node_name = match inst.node {
            Some(n) => ctx
                .item(&doc, "nodes", n, "scene")?
                .get("name")
                .and_then(Value::as_str),
            None => None,
        };
        let label = node_name
            .or_else(|| m.get("name").and_then(Value::as_str))
            .map(str::to_string)
            .unwrap_or_else(|| match inst.node {
                Some(n) => format!("nodes[{n}]"),
                None => mesh_path.clone(),
            });
        mesh.close_group(&label, GroupKind::Mesh, start);
    }
    if mesh.triangles.is_empty() {
        return Err(ReadError::new(
            source_name,
            Location::File,
            ErrorKind::Empty,
            format!(
                "no triangles: {} mesh instances in the scene, {} primitives read, \
                 {} point/line primitives skipped, {} primitives of degenerate triangles \
                 left out{}",
                instances.len(),
                stats.read,
                stats.skipped,
                stats.degenerate,
                mesh.warnings
                    .first()
                    .map_or(String::new(), |w| format!(" (the first: {w})"))
            ),
        ));
    }
    Ok(mesh)
}

/// True when `bytes` start with the GLB magic `glTF`.
pub(crate) fn is_glb(bytes: &[u8]) -> bool {
    bytes.starts_with(&glb::MAGIC.to_le_bytes())
}

#[derive(Default)]
struct Stats {
    read: usize,
    skipped: usize,
    degenerate: usize,
}

/// Decoded accessors, shared between instances of the same mesh.
/// (POSITION accessor, indices accessor, mode).
type TriKey = (u64, Option<u64>, u64);

#[derive(Default)]
struct Cache {
    positions: HashMap<u64, std::rc::Rc<Vec<Vec3>>>,
    primitives: HashMap<TriKey, Primitive>,
    warned: std::collections::HashSet<String>,
}

/// `asset.version` must be 2.x when present; required extensions that store
/// geometry differently are rejected.
fn check_header(ctx: Ctx<'_>, doc: &Value) -> Result<(), ReadError> {
    if let Some(asset) = doc.get("asset") {
        if let Some(v) = ctx.string(asset, "version", "asset")? {
            if v.split('.').next() != Some("2") {
                return Err(ctx.err(
                    "asset.version",
                    ErrorKind::Unsupported,
                    format!("glTF version {v:?} is not supported (only 2.x)"),
                ));
            }
        }
    }
    for (k, e) in ctx.array(doc, "extensionsRequired", "")?.iter().enumerate() {
        if let Some(name) = e.as_str().filter(|n| UNSUPPORTED_REQUIRED.contains(n)) {
            return Err(ctx.err(
                &format!("extensionsRequired[{k}]"),
                ErrorKind::Unsupported,
                format!("required extension {name} (compressed geometry) is not supported"),
            ));
        }
    }
    Ok(())
}

type Primitive = (std::rc::Rc<Vec<Vec3>>, std::rc::Rc<Vec<[u32; 3]>>);

/// What reading one primitive needs.
struct Reader<'r, 'a> {
    ctx: Ctx<'a>,
    doc: &'r Value,
    bufs: &'r mut Buffers<'a>,
    cache: &'r mut Cache,
    stats: &'r mut Stats,
    options: &'r ReadOptions,
    warnings: &'r mut Vec<String>,
}

impl Reader<'_, '_> {
    /// Reads one primitive: its local positions and triangles, or `None` for
    /// a point or line primitive, or one whose triangles are all degenerate.
    fn primitive(&mut self, prim: &Value, path: &str) -> Result<Option<Primitive>, ReadError> {
        let (ctx, doc) = (self.ctx, self.doc);
        if !prim.is_object() {
            return Err(ctx.err(path, ErrorKind::Invalid, "expected a JSON object"));
        }
        let mode = ctx.uint(prim, "mode", path)?.unwrap_or(4);
        match mode {
            0..=3 => {
                self.stats.skipped += 1;
                return Ok(None);
            }
            4..=6 => {}
            _ => {
                return Err(ctx.err(
                    &format!("{path}.mode"),
                    ErrorKind::Invalid,
                    format!("unknown primitive mode {mode} (expected 0..=6)"),
                ))
            }
        }
        let attrs = prim
            .get("attributes")
            .filter(|a| a.is_object())
            .ok_or_else(|| ctx.err(path, ErrorKind::Invalid, "missing `attributes` object"))?;
        let apath = format!("{path}.attributes");
        let pos = ctx
            .uint(attrs, "POSITION", &apath)?
            .ok_or_else(|| ctx.err(path, ErrorKind::Invalid, "has no POSITION attribute"))?;
        let pos_path = format!("{apath}.POSITION");
        let indices_acc = ctx.uint(prim, "indices", path)?;
        // All-zero data (no buffer view, no sparse data): every triangle is
        // degenerate, so nothing is read.
        let zero = if accessor::all_zero(ctx, doc, pos, &pos_path)? {
            Some(format!("POSITION accessors[{pos}]"))
        } else if let Some(i) = indices_acc {
            accessor::all_zero(ctx, doc, i, &format!("{path}.indices"))?
                .then(|| format!("indices accessors[{i}]"))
        } else {
            None
        };
        if let Some(what) = zero {
            self.stats.degenerate += 1;
            self.warn(format!(
                "{path}: {what} has no bufferView and no sparse data, so all its values are \
                 zero and every triangle is degenerate; the primitive is left out"
            ));
            return Ok(None);
        }
        let key = (pos, indices_acc, mode);
        if let Some(p) = self.cache.primitives.get(&key) {
            self.stats.read += 1;
            return Ok(Some(p.clone()));
        }
        let positions = match self.cache.positions.get(&pos) {
            Some(p) => p.clone(),
            None => {
                let p = std::rc::Rc::new(accessor::read_positions(
                    ctx,
                    doc,
                    self.bufs,
                    pos,
                    &pos_path,
                    self.options,
                )?);
                self.cache.positions.insert(pos, p.clone());
                p
            }
        };
        let n = positions.len();
        let indices: Vec<u32> = match indices_acc {
            Some(i) => {
                let idx = accessor::read_indices(
                    ctx,
                    doc,
                    self.bufs,
                    i,
                    &format!("{path}.indices"),
                    self.options,
                )?;
                if let Some((k, &bad)) = idx.iter().enumerate().find(|(_, &v)| v as usize >= n) {
                    return Err(ctx.err(
                        path,
                        ErrorKind::IndexOutOfRange,
                        format!(
                            "index {bad} (entry {k} of accessors[{i}]) is out of range: \
                             POSITION has {n} vertices"
                        ),
                    ));
                }
                idx
            }
            None => (0..n as u32).collect(),
        };
        let mut tris = assemble(ctx, path, mode, &indices)?;
        let mut positions = positions;
        if accessor::has_no_view(ctx, doc, pos, &pos_path)? {
            // Zeros with sparse data: keep the triangles with some area and
            // only the vertices they use.
            let before = tris.len();
            tris.retain(|t| {
                let [a, b, c] = t.map(|i| positions[i as usize]);
                !(a == b && b == c)
            });
            if tris.len() < before {
                self.warn(format!(
                    "{path}: {} of {before} triangles have three coincident corners (POSITION \
                     accessors[{pos}] has no bufferView) and are left out",
                    before - tris.len()
                ));
            }
            let mut remap = vec![u32::MAX; n];
            let mut used = Vec::new();
            for t in tris.iter_mut() {
                for i in t.iter_mut() {
                    let slot = &mut remap[*i as usize];
                    if *slot == u32::MAX {
                        *slot = used.len() as u32;
                        used.push(positions[*i as usize]);
                    }
                    *i = *slot;
                }
            }
            positions = std::rc::Rc::new(used);
            if tris.is_empty() {
                self.stats.degenerate += 1;
                return Ok(None);
            }
        }
        let p = (positions, std::rc::Rc::new(tris));
        self.cache.primitives.insert(key, p.clone());
        self.stats.read += 1;
        Ok(Some(p))
    }

    fn warn(&mut self, message: String) {
        // Once per message: the same mesh may be instanced many times.
        if self.cache.warned.insert(message.clone()) {
            self.warnings.push(message);
        }
    }
}

/// Section 3.7.2.1: triangles from a vertex sequence. For strips, triangle `i`
/// is `(v[i], v[i+1+i%2], v[i+2-i%2])` so every triangle keeps the strip's
/// winding; for fans, `(v[i+1], v[i+2], v[0])`. Strip and fan triangles with a
/// repeated vertex are the zero-area joins of stitched strips and are dropped.
fn assemble(ctx: Ctx<'_>, path: &str, mode: u64, v: &[u32]) -> Result<Vec<[u32; 3]>, ReadError> {
    let distinct = |t: &[u32; 3]| t[0] != t[1] && t[1] != t[2] && t[0] != t[2];
    Ok(match mode {
        4 => {
            if !v.len().is_multiple_of(3) {
                return Err(ctx.err(
                    path,
                    ErrorKind::Invalid,
                    format!(
                        "TRIANGLES primitive has {} vertices, not a multiple of 3",
                        v.len()
                    ),
                ));
            }
            v.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()
        }
        5 => (0..v.len().saturating_sub(2))
            .map(|i| {
                let o = i % 2;
                [v[i], v[i + 1 + o], v[i + 2 - o]]
            })
            .filter(distinct)
            .collect(),
        _ => (0..v.len().saturating_sub(2))
            .map(|i| [v[i + 1], v[i + 2], v[0]])
            .filter(distinct)
            .collect(),
    })
}
