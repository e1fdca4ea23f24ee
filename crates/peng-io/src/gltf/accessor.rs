//! glTF accessors (specification section 3.6.2 and 5.1): typed views into
//! buffer views, with byte offsets, strides and sparse substitution.

use super::buffers::Buffers;
use super::json::Ctx;
use crate::error::{ErrorKind, ReadError};
use crate::options::{over, ReadOptions};
use glam::Vec3;
use serde_json::Value;

const BYTE: u64 = 5120;
const UNSIGNED_BYTE: u64 = 5121;
const SHORT: u64 = 5122;
const UNSIGNED_SHORT: u64 = 5123;
const UNSIGNED_INT: u64 = 5125;
const FLOAT: u64 = 5126;

fn component_name(c: u64) -> &'static str {
    match c {
        BYTE => "BYTE",
        UNSIGNED_BYTE => "UNSIGNED_BYTE",
        SHORT => "SHORT",
        UNSIGNED_SHORT => "UNSIGNED_SHORT",
        UNSIGNED_INT => "UNSIGNED_INT",
        FLOAT => "FLOAT",
        _ => "unknown",
    }
}

fn component_size(c: u64) -> u64 {
    match c {
        BYTE | UNSIGNED_BYTE => 1,
        SHORT | UNSIGNED_SHORT => 2,
        _ => 4,
    }
}

/// Reads component `k` of type `c` at `b` (little-endian) as f64, applying the
/// `normalized` mapping of section 3.11 for integer types.
fn component(b: &[u8], c: u64, normalized: bool) -> f64 {
    let raw = match c {
        BYTE => b[0] as i8 as f64,
        UNSIGNED_BYTE => b[0] as f64,
        SHORT => i16::from_le_bytes([b[0], b[1]]) as f64,
        UNSIGNED_SHORT => u16::from_le_bytes([b[0], b[1]]) as f64,
        UNSIGNED_INT => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
        _ => return f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
    };
    if !normalized {
        return raw;
    }
    match c {
        BYTE => (raw / 127.0).max(-1.0),
        UNSIGNED_BYTE => raw / 255.0,
        SHORT => (raw / 32767.0).max(-1.0),
        UNSIGNED_SHORT => raw / 65535.0,
        _ => raw / u32::MAX as f64,
    }
}

/// An accessor's header fields.
struct Header<'v> {
    path: String,
    json: &'v Value,
    component: u64,
    normalized: bool,
    count: u64,
}

fn header<'v>(
    ctx: Ctx<'_>,
    doc: &'v Value,
    index: u64,
    referrer: &str,
    want_type: &str,
) -> Result<Header<'v>, ReadError> {
    let path = format!("accessors[{index}]");
    let acc = ctx.item(doc, "accessors", index, referrer)?;
    let component = ctx.req_uint(acc, "componentType", &path)?;
    if component_name(component) == "unknown" {
        return Err(ctx.err(
            &path,
            ErrorKind::Unsupported,
            format!("unknown componentType {component}"),
        ));
    }
    let ty = ctx.string(acc, "type", &path)?.unwrap_or("");
    if ty != want_type {
        return Err(ctx.err(
            &path,
            ErrorKind::Invalid,
            format!("type is {ty:?}, expected {want_type:?} (used by {referrer})"),
        ));
    }
    let normalized = acc
        .get("normalized")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let count = ctx.req_uint(acc, "count", &path)?;
    Ok(Header {
        path,
        json: acc,
        component,
        normalized,
        count,
    })
}

/// Whether accessor `index` has neither a buffer view nor sparse data: then
/// every element is zero (section 3.6.2.2), and nothing need be read.
pub(super) fn all_zero(
    ctx: Ctx<'_>,
    doc: &Value,
    index: u64,
    referrer: &str,
) -> Result<bool, ReadError> {
    Ok(has_no_view(ctx, doc, index, referrer)?
        && ctx
            .item(doc, "accessors", index, referrer)?
            .get("sparse")
            .is_none())
}

/// Whether accessor `index` has no buffer view (zeros, maybe with sparse data).
pub(super) fn has_no_view(
    ctx: Ctx<'_>,
    doc: &Value,
    index: u64,
    referrer: &str,
) -> Result<bool, ReadError> {
    let acc = ctx.item(doc, "accessors", index, referrer)?;
    Ok(ctx
        .uint(acc, "bufferView", &format!("accessors[{index}]"))?
        .is_none())
}

/// Reads the `count` elements of an accessor with `n` (at most 3) components
/// each, converting each with `conv` (dense data, then sparse substitution).
/// Elements without a buffer view are `zero`; `max_count` bounds their number
/// (the file does not hold them, so its size does not).
fn read_elements<T: Copy>(
    ctx: Ctx<'_>,
    bufs: &mut Buffers<'_>,
    h: &Header<'_>,
    n: u64,
    (zero, max_count, limit): (T, usize, &str),
    conv: impl Fn(&[f64]) -> T,
) -> Result<Vec<T>, ReadError> {
    let csize = component_size(h.component);
    let elem = csize * n;
    if h.count > max_count as u64 {
        return Err(ctx.err(
            &h.path,
            ErrorKind::LimitExceeded,
            format!("count {}: {limit}", h.count),
        ));
    }
    let mut out: Vec<T>;
    match ctx.uint(h.json, "bufferView", &h.path)? {
        None => out = vec![zero; h.count as usize],
        Some(bv) => {
            let offset = ctx.uint(h.json, "byteOffset", &h.path)?.unwrap_or(0);
            let view = bufs.view(bv, &h.path)?;
            let stride = view.stride.unwrap_or(elem);
            if stride < elem {
                return Err(ctx.err(
                    &h.path,
                    ErrorKind::Invalid,
                    format!("bufferViews[{bv}].byteStride {stride} is less than the element size {elem}"),
                ));
            }
            // The last element ends at offset + stride·(count-1) + elem.
            let need = if h.count == 0 {
                Some(offset)
            } else {
                stride
                    .checked_mul(h.count - 1)
                    .and_then(|s| s.checked_add(elem))
                    .and_then(|s| s.checked_add(offset))
            };
            let have = view.bytes.len() as u64;
            if need.is_none_or(|need| need > have) {
                return Err(ctx.err(
                    &h.path,
                    ErrorKind::OutOfBounds,
                    format!(
                        "buffer too short: byteOffset {offset} + {} elements of {elem} bytes \
                         (stride {stride}) need {} bytes, bufferViews[{bv}] has {have}",
                        h.count,
                        need.map_or("more than 2^64".to_string(), |x| x.to_string())
                    ),
                ));
            }
            out = Vec::with_capacity(h.count as usize);
            let mut c = [0.0f64; 3];
            for e in 0..h.count {
                let start = (offset + e * stride) as usize;
                for k in 0..n {
                    let at = start + (k * csize) as usize;
                    c[k as usize] = component(&view.bytes[at..], h.component, h.normalized);
                }
                out.push(conv(&c[..n as usize]));
            }
        }
    }
    if let Some(sparse) = h.json.get("sparse") {
        apply_sparse(ctx, bufs, h, sparse, n, &mut out, conv)?;
    }
    Ok(out)
}

/// Section 3.6.2.3: `sparse.count` indices (strictly increasing element
/// numbers) and as many replacement elements, each tightly packed.
fn apply_sparse<T>(
    ctx: Ctx<'_>,
    bufs: &mut Buffers<'_>,
    h: &Header<'_>,
    sparse: &Value,
    n: u64,
    out: &mut [T],
    conv: impl Fn(&[f64]) -> T,
) -> Result<(), ReadError> {
    let sp = format!("{}.sparse", h.path);
    let count = ctx.req_uint(sparse, "count", &sp)?;
    let part = |key: &str| {
        sparse.get(key).filter(|v| v.is_object()).ok_or_else(|| {
            ctx.err(
                &sp,
                ErrorKind::Invalid,
                format!("missing required object `{key}`"),
            )
        })
    };
    let (ij, vj) = (part("indices")?, part("values")?);
    let (ip, vp) = (format!("{sp}.indices"), format!("{sp}.values"));
    let icomp = ctx.req_uint(ij, "componentType", &ip)?;
    if !matches!(icomp, UNSIGNED_BYTE | UNSIGNED_SHORT | UNSIGNED_INT) {
        return Err(ctx.err(
            &ip,
            ErrorKind::Unsupported,
            format!(
                "componentType {icomp} ({}) is not an index type",
                component_name(icomp)
            ),
        ));
    }
    let indices = read_packed(ctx, bufs, ij, &ip, count, icomp, 1, false)?;
    let values = read_packed(ctx, bufs, vj, &vp, count, h.component, n, h.normalized)?;
    for (k, &i) in indices.iter().enumerate() {
        if i >= h.count as f64 {
            return Err(ctx.err(
                &ip,
                ErrorKind::IndexOutOfRange,
                format!(
                    "index {i} (entry {k}) is out of range: the accessor has {} elements",
                    h.count
                ),
            ));
        }
        let src = k * n as usize;
        out[i as usize] = conv(&values[src..src + n as usize]);
    }
    Ok(())
}

/// Reads `count` tightly packed elements of `n` components at
/// `obj.bufferView` + `obj.byteOffset`.
#[allow(clippy::too_many_arguments)]
fn read_packed(
    ctx: Ctx<'_>,
    bufs: &mut Buffers<'_>,
    obj: &Value,
    path: &str,
    count: u64,
    comp: u64,
    n: u64,
    normalized: bool,
) -> Result<Vec<f64>, ReadError> {
    let bv = ctx.req_uint(obj, "bufferView", path)?;
    let offset = ctx.uint(obj, "byteOffset", path)?.unwrap_or(0);
    let view = bufs.view(bv, path)?;
    let elem = component_size(comp) * n;
    let need = count.checked_mul(elem).and_then(|s| s.checked_add(offset));
    let have = view.bytes.len() as u64;
    if need.is_none_or(|need| need > have) {
        return Err(ctx.err(
            path,
            ErrorKind::OutOfBounds,
            format!(
                "buffer too short: byteOffset {offset} + {count} elements of {elem} bytes \
                 exceed bufferViews[{bv}] ({have} bytes)"
            ),
        ));
    }
    let csize = component_size(comp) as usize;
    Ok((0..(count * n) as usize)
        .map(|k| component(&view.bytes[offset as usize + k * csize..], comp, normalized))
        .collect())
}

/// Reads a POSITION accessor: `VEC3` of FLOAT, or of integer types as allowed
/// by `KHR_mesh_quantization` (normalized or not). Every value must be finite.
pub(super) fn read_positions(
    ctx: Ctx<'_>,
    doc: &Value,
    bufs: &mut Buffers<'_>,
    index: u64,
    referrer: &str,
    options: &ReadOptions,
) -> Result<Vec<Vec3>, ReadError> {
    let h = header(ctx, doc, index, referrer, "VEC3")?;
    if h.component == UNSIGNED_INT {
        return Err(ctx.err(
            &h.path,
            ErrorKind::Unsupported,
            "componentType 5125 (UNSIGNED_INT) is not supported for POSITION",
        ));
    }
    let limit = over(
        "the vertex count",
        options.max_vertices,
        "vertices",
        "max_vertices",
    );
    let out = read_elements(
        ctx,
        bufs,
        &h,
        3,
        (Vec3::ZERO, options.max_vertices, &limit),
        |c| Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32),
    )?;
    if let Some((e, p)) = out.iter().enumerate().find(|(_, p)| !p.is_finite()) {
        return Err(ctx.err(
            &h.path,
            ErrorKind::NonFinite,
            format!("element {e} is not finite: {p}"),
        ));
    }
    Ok(out)
}

/// Reads an index accessor: `SCALAR` of UNSIGNED_BYTE, UNSIGNED_SHORT or
/// UNSIGNED_INT.
pub(super) fn read_indices(
    ctx: Ctx<'_>,
    doc: &Value,
    bufs: &mut Buffers<'_>,
    index: u64,
    referrer: &str,
    options: &ReadOptions,
) -> Result<Vec<u32>, ReadError> {
    let h = header(ctx, doc, index, referrer, "SCALAR")?;
    if !matches!(h.component, UNSIGNED_BYTE | UNSIGNED_SHORT | UNSIGNED_INT) {
        return Err(ctx.err(
            &h.path,
            ErrorKind::Unsupported,
            format!(
                "unsupported componentType {} ({}) for indices: expected UNSIGNED_BYTE, \
                 UNSIGNED_SHORT or UNSIGNED_INT",
                h.component,
                component_name(h.component)
            ),
        ));
    }
    let h = Header {
        normalized: false,
        ..h
    };
    // A strip of t triangles has t + 2 indices, a list 3t.
    let most = options.max_triangles.saturating_mul(3).saturating_add(2);
    let limit = format!(
        "more indices than {}",
        over(
            "a triangle count",
            options.max_triangles,
            "triangles",
            "max_triangles"
        )
    );
    read_elements(ctx, bufs, &h, 1, (0u32, most, &limit), |c| c[0] as u32)
}
