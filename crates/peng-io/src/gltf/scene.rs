//! The node hierarchy (glTF 2.0 section 3.5): local transforms, either a
//! column-major `matrix` or translation/rotation/scale composed as `T·R·S`,
//! multiplied from the root down (`world = parent_world · local`).

use super::json::Ctx;
use crate::error::{ErrorKind, ReadError};
use glam::{Mat4, Quat, Vec3};
use serde_json::Value;

/// One mesh instance found by walking the scene.
pub(super) struct Instance {
    /// `nodes[i]`, or `None` when the file has no nodes (every mesh once).
    pub(super) node: Option<u64>,
    pub(super) mesh: u64,
    pub(super) world: Mat4,
}

/// The node's local transform.
fn local(ctx: Ctx<'_>, node: &Value, path: &str) -> Result<Mat4, ReadError> {
    if let Some(m) = ctx.floats::<16>(node, "matrix", path)? {
        return Ok(Mat4::from_cols_array(&m));
    }
    let t = ctx
        .floats::<3>(node, "translation", path)?
        .unwrap_or([0.0; 3]);
    let s = ctx.floats::<3>(node, "scale", path)?.unwrap_or([1.0; 3]);
    let r = ctx
        .floats::<4>(node, "rotation", path)?
        .unwrap_or([0.0, 0.0, 0.0, 1.0]);
    // The specification requires a unit quaternion; normalise so that small
    // export rounding does not shear, and reject a zero one.
    let q = Quat::from_array(r);
    let len = q.length();
    if !(len > 1e-6 && len.is_finite()) {
        return Err(ctx.err(
            &format!("{path}.rotation"),
            ErrorKind::Invalid,
            format!("rotation {r:?} is not a unit quaternion"),
        ));
    }
    Ok(Mat4::from_scale_rotation_translation(
        Vec3::from_array(s),
        q / len,
        Vec3::from_array(t),
    ))
}

/// Walks the scene and returns every mesh instance with its world transform.
/// Roots: `scenes[scene]` if `scene` is given, else every node that is no
/// node's child. A file without nodes gives every mesh with the identity.
/// Returns the scene name too.
pub(super) fn instances(
    ctx: Ctx<'_>,
    doc: &Value,
) -> Result<(Vec<Instance>, Option<String>), ReadError> {
    let nodes = ctx.array(doc, "nodes", "")?;
    if nodes.is_empty() {
        let meshes = ctx.array(doc, "meshes", "")?;
        let all = (0..meshes.len() as u64)
            .map(|mesh| Instance {
                node: None,
                mesh,
                world: Mat4::IDENTITY,
            })
            .collect();
        return Ok((all, None));
    }
    let mut roots: Vec<u64> = Vec::new();
    let mut name = None;
    if let Some(s) = ctx.uint(doc, "scene", "")? {
        let path = format!("scenes[{s}]");
        let scene = ctx.item(doc, "scenes", s, "scene")?;
        name = ctx.string(scene, "name", &path)?.map(str::to_string);
        for (k, r) in ctx.array(scene, "nodes", &path)?.iter().enumerate() {
            roots.push(super::json::as_uint(r).ok_or_else(|| {
                ctx.err(
                    &format!("{path}.nodes[{k}]"),
                    ErrorKind::Invalid,
                    "expected a node index",
                )
            })?);
        }
    } else {
        let mut is_child = vec![false; nodes.len()];
        for (i, node) in nodes.iter().enumerate() {
            for c in children(ctx, node, i)? {
                if let Some(flag) = is_child.get_mut(c as usize) {
                    *flag = true;
                }
            }
        }
        roots.extend((0..nodes.len() as u64).filter(|&i| !is_child[i as usize]));
    }

    // Depth-first walk with an explicit stack. Each node may be reached once:
    // the hierarchy must be a set of disjoint trees (section 3.5.1), and this
    // also stops cycles and exponential blow-up through shared children.
    let mut reached = vec![false; nodes.len()];
    let mut out = Vec::new();
    let mut stack: Vec<(u64, Mat4, String)> = roots
        .iter()
        .rev()
        .map(|&r| (r, Mat4::IDENTITY, "scene root".to_string()))
        .collect();
    while let Some((i, parent, referrer)) = stack.pop() {
        let path = format!("nodes[{i}]");
        let node = ctx.item(doc, "nodes", i, &referrer)?;
        if std::mem::replace(&mut reached[i as usize], true) {
            return Err(ctx.err(
                &path,
                ErrorKind::Invalid,
                format!(
                    "reached twice (from {referrer}): the node hierarchy must be a tree without cycles"
                ),
            ));
        }
        let world = parent * local(ctx, node, &path)?;
        if !world.is_finite() {
            return Err(ctx.err(
                &path,
                ErrorKind::NonFinite,
                "the world transform overflows to a non-finite value",
            ));
        }
        if let Some(mesh) = ctx.uint(node, "mesh", &path)? {
            out.push(Instance {
                node: Some(i),
                mesh,
                world,
            });
        }
        for c in children(ctx, node, i as usize)?.into_iter().rev() {
            stack.push((c, world, format!("{path}.children")));
        }
    }
    Ok((out, name))
}

fn children(ctx: Ctx<'_>, node: &Value, i: usize) -> Result<Vec<u64>, ReadError> {
    let path = format!("nodes[{i}]");
    ctx.array(node, "children", &path)?
        .iter()
        .enumerate()
        .map(|(k, c)| {
            super::json::as_uint(c).ok_or_else(|| {
                ctx.err(
                    &format!("{path}.children[{k}]"),
                    ErrorKind::Invalid,
                    "expected a node index",
                )
            })
        })
        .collect()
}
