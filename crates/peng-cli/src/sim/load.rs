//! Loads a simulation scene: JSON text to checked [`SimScene`] values.
//!
//! As for `peng check` scene files ([`crate::scene`]): `serde_json` reads the
//! text (syntax errors carry its line and column), typed definitions
//! ([`super::defs`]) and peng's validating constructors build the values,
//! and every later error knows the path of the bad element, which
//! [`locate`] finds in the text. So each error names file, line, column and
//! field, and the body or joint it belongs to. Bodies are checked in
//! [`super::body`], joints in [`super::joint`], time stepping and the
//! picture in [`super::settings`].

use super::body::{check_mass, check_still, BodyDef};
use super::defs::{Body2Def, Body3Def, SimDef};
use super::joint::joint;
use super::model::{SimScene, Timing, ViewSpec, World, Worlds};
use super::settings::{timing, view};
use crate::scene::defs::{V2, V3};
use crate::scene::error::{Located, SceneError};
use crate::scene::locate::{line_col, locate, path_to_string, Seg};
use peng::d2::Vec2;
use peng::d3::Vec3;
use peng::math::Vector;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;

/// Gravity's size when the scene gives none (straight down, -y).
pub const DEFAULT_GRAVITY: f32 = 9.81;

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

/// Parses the simulation scene `text`, read from `file` (used in messages).
pub fn parse(file: &str, text: &str) -> Result<SimScene, SceneError> {
    let root: Value = serde_json::from_str(text).map_err(|e| syntax_error(file, &e))?;
    build(file, &root).map_err(|e| place(file, text, &root, e))
}

/// A `serde_json` syntax error, with its own line and column.
fn syntax_error(file: &str, e: &serde_json::Error) -> SceneError {
    let full = e.to_string();
    // serde_json appends " at line L column C"; they are printed in front.
    let message = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    SceneError {
        file: file.to_string(),
        line: e.line().max(1),
        column: e.column().max(1),
        path: String::new(),
        shape_name: None,
        message: format!("invalid JSON: {message}"),
    }
}

/// Places a [`Located`] error in the text and names the body or joint it
/// belongs to.
fn place(file: &str, text: &str, root: &Value, e: Located) -> SceneError {
    let (line, column) = line_col(text, locate(text, &e.path));
    let name = |list: &str, i: usize| {
        root.get(list)?
            .get(i)?
            .get("name")?
            .as_str()
            .map(str::to_string)
    };
    let owner = match e.path.as_slice() {
        [Seg::Key(k), Seg::Index(i), ..] if k == "bodies" => {
            name("bodies", *i).map(|n| format!(" (in body {n:?})"))
        }
        [Seg::Key(k), Seg::Index(i), ..] if k == "joints" => {
            name("joints", *i).map(|n| format!(" (in joint {n:?})"))
        }
        _ => None,
    };
    SceneError {
        file: file.to_string(),
        line,
        column,
        path: path_to_string(&e.path),
        shape_name: None,
        message: format!("{}{}", e.message, owner.unwrap_or_default()),
    }
}

fn build(file: &str, root: &Value) -> Result<SimScene, Located> {
    let obj = root.as_object().ok_or_else(|| {
        Located::new(
            vec![],
            "a simulation scene is a JSON object {\"dimension\": 2, \"bodies\": [...]}",
        )
    })?;
    let dim = obj
        .get("dimension")
        .ok_or_else(|| Located::new(vec![], "missing field `dimension` (2 or 3)"))?;
    let (worlds, timing, view) = match dim.as_u64() {
        Some(2) => {
            let (w, t, v) = world::<Body2Def, V2>(root, Vec2::new(0.0, -DEFAULT_GRAVITY))?;
            (Worlds::D2(w), t, v)
        }
        Some(3) => {
            let (w, t, v) = world::<Body3Def, V3>(root, Vec3::new(0.0, -DEFAULT_GRAVITY, 0.0))?;
            (Worlds::D3(w), t, v)
        }
        _ => {
            return Err(Located::new(
                vec![Seg::Key("dimension".into())],
                format!("dimension must be 2 or 3, got {dim}"),
            ))
        }
    };
    Ok(SimScene {
        source: file.to_string(),
        timing,
        view,
        worlds,
    })
}

/// A vector as written in the file (`[x, y]` or `[x, y, z]`).
pub trait VecDef: DeserializeOwned + Copy {
    /// The vector.
    type V: Vector;
    /// Its value.
    fn get(self) -> Self::V;
}

impl VecDef for V2 {
    type V = Vec2;
    fn get(self) -> Vec2 {
        self.0
    }
}

impl VecDef for V3 {
    type V = Vec3;
    fn get(self) -> Vec3 {
        self.0
    }
}

/// The value of the optional number `field` of the element at `path`, or
/// `default`; `ok` says which values are allowed and `what` says so in words.
pub fn number(
    v: Option<f32>,
    default: f32,
    path: &[Seg],
    field: &str,
    what: &str,
    ok: impl Fn(f32) -> bool,
) -> Result<f32, Located> {
    let x = v.unwrap_or(default);
    if x.is_finite() && ok(x) {
        Ok(x)
    } else {
        Err(Located::new(
            key(path, field),
            format!("{field} must be {what}, got {x}"),
        ))
    }
}

/// A finite number >= 0 (`default` when absent).
pub fn non_negative(
    v: Option<f32>,
    default: f32,
    path: &[Seg],
    field: &str,
) -> Result<f32, Located> {
    number(v, default, path, field, "a finite number >= 0", |x| {
        x >= 0.0
    })
}

/// A finite vector (`default` when absent).
pub fn finite_vec<V: Vector>(
    v: Option<V>,
    default: V,
    path: &[Seg],
    field: &str,
) -> Result<V, Located> {
    let x = v.unwrap_or(default);
    if x.is_finite() {
        Ok(x)
    } else {
        Err(Located::new(
            key(path, field),
            format!("{field} must be finite"),
        ))
    }
}

/// Bodies, timing and view of a scene whose bodies are `B` and vectors `W`.
fn world<B, W>(
    root: &Value,
    default_gravity: W::V,
) -> Result<(World<B::D>, Timing, ViewSpec), Located>
where
    B: BodyDef,
    W: VecDef<V = <B::D as peng::world::Dim>::V>,
{
    let def: SimDef<B, W> =
        serde_path_to_error::deserialize(root).map_err(|e| Located::from_serde(&[], e))?;
    let gravity = finite_vec(def.gravity.map(W::get), default_gravity, &[], "gravity")?;
    let timing = timing(&def)?;
    let view = view(def.view.as_ref())?;
    let at = vec![Seg::Key("bodies".into())];
    let mut bodies = Vec::with_capacity(def.bodies.len());
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, b) in def.bodies.iter().enumerate() {
        let path = index(&at, i);
        let name_at = key(&path, "name");
        if b.name().is_empty() {
            return Err(Located::new(name_at, "body name must not be empty"));
        }
        if let Some(j) = by_name.insert(b.name(), i) {
            return Err(Located::new(
                name_at,
                format!(
                    "duplicate body name {:?} (also used by bodies[{j}])",
                    b.name()
                ),
            ));
        }
        let body = b.build(&path)?;
        check_mass(&body, &path)?;
        check_still(b, &body, &path)?;
        bodies.push(body);
    }
    let at = vec![Seg::Key("joints".into())];
    let joints = def
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| joint::<B::D, W>(j, &index(&at, i), i, &bodies, &by_name))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((
        World {
            gravity,
            bodies,
            joints,
        },
        timing,
        view,
    ))
}
