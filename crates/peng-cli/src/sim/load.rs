//! Loads a simulation scene: JSON text to checked [`SimScene`] values.
//!
//! As for `peng check` scene files ([`crate::scene`]): `serde_json` reads the
//! text (syntax errors carry its line and column), typed definitions
//! ([`super::defs`]) and peng's validating constructors build the values,
//! and every later error knows the path of the bad element, which
//! [`locate`] finds in the text. So each error names file, line, column and
//! field, and the body or joint it belongs to.

use super::defs::{Body2Def, Body3Def, Collider2Def, Collider3Def, JointDef, SimDef, ViewDef};
use super::model::{
    BodyKind, BodySpec, ColliderSpec, JointKind, JointSpec, Motor, SimScene, Spring, Timing,
    ViewSpec, World, Worlds,
};
use super::space::Space;
use crate::scene::defs::{V2, V3};
use crate::scene::error::{Located, SceneError};
use crate::scene::locate::{line_col, locate, path_to_string, Seg};
use crate::scene::{build2, build3};
use peng::d2::Vec2;
use peng::d3::Vec3;
use peng::math::Vector;
use peng::world::{Dim2, Dim3};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;

/// Time step when the scene gives none (seconds).
pub const DEFAULT_DT: f32 = 1.0 / 60.0;
/// Solver substeps when the scene gives none.
pub const DEFAULT_SUBSTEPS: u32 = 4;
/// Simulated time when the scene gives neither steps nor seconds.
pub const DEFAULT_SECONDS: f32 = 5.0;
/// Picture width when the scene gives none.
pub const DEFAULT_WIDTH: u32 = 480;
/// Picture height when the scene gives none.
pub const DEFAULT_HEIGHT: u32 = 360;
/// Pictures per simulated second when the scene gives none.
pub const DEFAULT_FPS: f32 = 30.0;
/// Density when a collider gives none.
pub const DEFAULT_DENSITY: f32 = 1.0;
/// Friction when a collider gives none.
pub const DEFAULT_FRICTION: f32 = 0.6;
/// Most steps a scene may ask for.
pub const MAX_STEPS: u64 = 10_000_000;
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

/// A body entry of one dimension.
pub trait BodyDef: DeserializeOwned {
    /// The dimension.
    type D: Space;
    /// The body's name.
    fn name(&self) -> &str;
    /// The checked body found at `path`.
    fn build(&self, path: &[Seg]) -> Result<BodySpec<Self::D>, Located>;
    /// Whether the entry gives a linear velocity.
    fn has_linvel(&self) -> bool;
    /// Whether the entry gives an angular velocity.
    fn has_angvel(&self) -> bool;
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
fn non_negative(v: Option<f32>, default: f32, path: &[Seg], field: &str) -> Result<f32, Located> {
    number(v, default, path, field, "a finite number >= 0", |x| {
        x >= 0.0
    })
}

/// A finite vector (`default` when absent).
fn finite_vec<V: Vector>(
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

/// The body kind named at `path.kind` (default dynamic).
fn body_kind(k: Option<&str>, path: &[Seg]) -> Result<BodyKind, Located> {
    match k.unwrap_or("dynamic") {
        "dynamic" => Ok(BodyKind::Dynamic),
        "kinematic" => Ok(BodyKind::Kinematic),
        "static" => Ok(BodyKind::Static),
        other => Err(Located::new(
            key(path, "kind"),
            format!("unknown body kind {other:?}, expected dynamic, kinematic or static"),
        )),
    }
}

/// The material of the collider at `path`: (density, friction, restitution).
fn material(
    density: Option<f32>,
    friction: Option<f32>,
    restitution: Option<f32>,
    path: &[Seg],
) -> Result<(f32, f32, f32), Located> {
    Ok((
        non_negative(density, DEFAULT_DENSITY, path, "density")?,
        non_negative(friction, DEFAULT_FRICTION, path, "friction")?,
        number(
            restitution,
            0.0,
            path,
            "restitution",
            "a number from 0 to 1",
            |x| (0.0..=1.0).contains(&x),
        )?,
    ))
}

/// The colliders at `path.colliders`, built by `one`; at least one.
fn colliders<C, D: Space>(
    list: &[C],
    path: &[Seg],
    one: impl Fn(&C, &[Seg]) -> Result<ColliderSpec<D>, Located>,
) -> Result<Vec<ColliderSpec<D>>, Located> {
    let at = key(path, "colliders");
    if list.is_empty() {
        return Err(Located::new(at, "a body needs at least one collider"));
    }
    list.iter()
        .enumerate()
        .map(|(i, c)| one(c, &index(&at, i)))
        .collect()
}

impl BodyDef for Body2Def {
    fn has_linvel(&self) -> bool {
        self.linvel.is_some()
    }
    fn has_angvel(&self) -> bool {
        self.angvel_deg.is_some()
    }
    type D = Dim2;
    fn name(&self) -> &str {
        &self.name
    }
    fn build(&self, path: &[Seg]) -> Result<BodySpec<Dim2>, Located> {
        let collider = |c: &Collider2Def, at: &[Seg]| {
            let (density, friction, restitution) =
                material(c.density, c.friction, c.restitution, at)?;
            Ok(ColliderSpec {
                shape: build2::shape(&c.shape, &key(at, "shape"))?,
                local_pose: build2::pose(c.position, c.angle_deg, at)?,
                density,
                friction,
                restitution,
            })
        };
        let angvel = number(
            self.angvel_deg,
            0.0,
            path,
            "angvel_deg",
            "a finite number",
            |_| true,
        )?;
        Ok(BodySpec {
            name: self.name.clone(),
            kind: body_kind(self.kind.as_deref(), path)?,
            pose: build2::pose(self.position, self.angle_deg, path)?,
            linvel: finite_vec(self.linvel.map(|v| v.0), Vec2::ZERO, path, "linvel")?,
            angvel: angvel.to_radians(),
            linear_damping: non_negative(self.linear_damping, 0.0, path, "linear_damping")?,
            angular_damping: non_negative(self.angular_damping, 0.0, path, "angular_damping")?,
            colliders: colliders(&self.colliders, path, collider)?,
        })
    }
}

impl BodyDef for Body3Def {
    fn has_linvel(&self) -> bool {
        self.linvel.is_some()
    }
    fn has_angvel(&self) -> bool {
        self.angvel_deg.is_some()
    }
    type D = Dim3;
    fn name(&self) -> &str {
        &self.name
    }
    fn build(&self, path: &[Seg]) -> Result<BodySpec<Dim3>, Located> {
        let collider = |c: &Collider3Def, at: &[Seg]| {
            let (density, friction, restitution) =
                material(c.density, c.friction, c.restitution, at)?;
            Ok(ColliderSpec {
                shape: build3::shape(&c.shape, &key(at, "shape"))?,
                local_pose: build3::pose(c.position, c.rotation.as_ref(), at)?,
                density,
                friction,
                restitution,
            })
        };
        let angvel = finite_vec(self.angvel_deg.map(|v| v.0), Vec3::ZERO, path, "angvel_deg")?;
        Ok(BodySpec {
            name: self.name.clone(),
            kind: body_kind(self.kind.as_deref(), path)?,
            pose: build3::pose(self.position, self.rotation.as_ref(), path)?,
            linvel: finite_vec(self.linvel.map(|v| v.0), Vec3::ZERO, path, "linvel")?,
            angvel: angvel * std::f32::consts::PI / 180.0,
            linear_damping: non_negative(self.linear_damping, 0.0, path, "linear_damping")?,
            angular_damping: non_negative(self.angular_damping, 0.0, path, "angular_damping")?,
            colliders: colliders(&self.colliders, path, collider)?,
        })
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

/// A dynamic body must have a mass: every collider a finite one (no
/// half-space) and some collider a positive one (the physics world would
/// otherwise leave it hanging in the air, untouched by gravity).
fn check_mass<D: Space>(b: &BodySpec<D>, path: &[Seg]) -> Result<(), Located> {
    if b.kind != BodyKind::Dynamic {
        return Ok(());
    }
    let at = key(path, "colliders");
    let mut total = 0.0;
    for (k, c) in b.colliders.iter().enumerate() {
        let m = D::mass_of(&c.shape, c.density).map_err(|e| {
            Located::new(
                key(&index(&at, k), "shape"),
                format!("a dynamic body's collider needs a finite mass: {e}"),
            )
        })?;
        total += D::mass_value(&m);
    }
    if total > 0.0 && total.is_finite() {
        Ok(())
    } else {
        Err(Located::new(
            at,
            format!(
                "a dynamic body needs a mass > 0, got {total}: give a collider density > 0 \
                 and a shape with an area (2D) or a volume (3D), or make the body static \
                 or kinematic"
            ),
        ))
    }
}

/// A static body never moves: an initial velocity on one is an error, not
/// ignored.
fn check_still<B: BodyDef>(def: &B, b: &BodySpec<B::D>, path: &[Seg]) -> Result<(), Located> {
    if b.kind != BodyKind::Static {
        return Ok(());
    }
    for (field, given) in [
        ("linvel", def.has_linvel()),
        ("angvel_deg", def.has_angvel()),
    ] {
        if given {
            return Err(Located::new(
                key(path, field),
                format!(
                    "a static body never moves: {field} applies to dynamic and kinematic bodies"
                ),
            ));
        }
    }
    Ok(())
}

/// The time stepping of a scene.
fn timing<B, W>(def: &SimDef<B, W>) -> Result<Timing, Located> {
    let dt = number(def.dt, DEFAULT_DT, &[], "dt", "a finite number > 0", |x| {
        x > 0.0
    })?;
    let substeps = def.substeps.unwrap_or(DEFAULT_SUBSTEPS);
    if substeps == 0 {
        return Err(Located::new(
            vec![Seg::Key("substeps".into())],
            "substeps must be at least 1, got 0",
        ));
    }
    let steps = match (def.steps, def.seconds) {
        (Some(_), Some(_)) => {
            return Err(Located::new(
                vec![Seg::Key("seconds".into())],
                "give either steps or seconds, not both",
            ))
        }
        (Some(n), None) => n,
        (None, s) => {
            let s = number(
                s,
                DEFAULT_SECONDS,
                &[],
                "seconds",
                "a finite number > 0",
                |x| x > 0.0,
            )?;
            // The smallest number of steps that covers the time (a hair of
            // slack so that 2 s at 1/60 s is 120 steps, not 121).
            ((s as f64 / dt as f64) - 1e-6).ceil().max(1.0) as u64
        }
    };
    if !(1..=MAX_STEPS).contains(&steps) {
        let field = if def.steps.is_some() {
            "steps"
        } else {
            "seconds"
        };
        return Err(Located::new(
            vec![Seg::Key(field.into())],
            format!("the scene must run from 1 to {MAX_STEPS} steps, got {steps}"),
        ));
    }
    Ok(Timing {
        dt,
        substeps,
        steps,
    })
}

/// The picture settings of a scene.
fn view(v: Option<&ViewDef>) -> Result<ViewSpec, Located> {
    let base = vec![Seg::Key("view".into())];
    let empty = ViewDef::default();
    let v = v.unwrap_or(&empty);
    let px = |n: Option<u32>, default: u32, field: &str| {
        let n = n.unwrap_or(default);
        if (16..=4096).contains(&n) {
            Ok(n)
        } else {
            Err(Located::new(
                key(&base, field),
                format!("{field} must be from 16 to 4096 pixels, got {n}"),
            ))
        }
    };
    let width = px(v.width, DEFAULT_WIDTH, "width")?;
    let height = px(v.height, DEFAULT_HEIGHT, "height")?;
    let fps = number(
        v.fps,
        DEFAULT_FPS,
        &base,
        "fps",
        "a finite number > 0",
        |x| x > 0.0,
    )?;
    let region = match (v.min, v.max) {
        (None, None) => None,
        (Some(lo), Some(hi)) => {
            let (lo, hi) = (Vec2::from(lo), Vec2::from(hi));
            if !lo.is_finite() {
                return Err(Located::new(key(&base, "min"), "min must be finite"));
            }
            if !(hi.is_finite() && hi.x > lo.x && hi.y > lo.y) {
                return Err(Located::new(
                    key(&base, "max"),
                    format!("max must be finite and above min on both axes, got {hi} (min {lo})"),
                ));
            }
            Some((lo, hi))
        }
        (Some(_), None) => {
            return Err(Located::new(
                key(&base, "min"),
                "give both min and max (or neither: fit all bodies)",
            ))
        }
        (None, Some(_)) => {
            return Err(Located::new(
                key(&base, "max"),
                "give both min and max (or neither: fit all bodies)",
            ))
        }
    };
    Ok(ViewSpec {
        width,
        height,
        region,
        fps,
    })
}

/// The index of the body named by field `field` of the joint at `path`.
fn body_index(
    name: &str,
    path: &[Seg],
    field: &str,
    by_name: &HashMap<&str, usize>,
) -> Result<usize, Located> {
    by_name.get(name).copied().ok_or_else(|| {
        let mut known: Vec<(&&str, &usize)> = by_name.iter().collect();
        known.sort_by_key(|(_, &i)| i);
        let list: Vec<&str> = known.iter().take(8).map(|(n, _)| **n).collect();
        let more = if known.len() > 8 { ", ..." } else { "" };
        Located::new(
            key(path, field),
            format!("unknown body {name:?} (bodies: {}{more})", list.join(", ")),
        )
    })
}

/// The joint at `path` (the `i`-th), checked against its type.
fn joint<D: Space, W: VecDef<V = D::V>>(
    j: &JointDef<W>,
    path: &[Seg],
    i: usize,
    bodies: &[BodySpec<D>],
    by_name: &HashMap<&str, usize>,
) -> Result<JointSpec<D>, Located> {
    let kind = JointKind::ALL
        .into_iter()
        .find(|k| k.name() == j.kind)
        .ok_or_else(|| {
            let names: Vec<&str> = JointKind::ALL.iter().map(|k| k.name()).collect();
            Located::new(
                key(path, "type"),
                format!(
                    "unknown joint type {:?}, expected one of: {}",
                    j.kind,
                    names.join(", ")
                ),
            )
        })?;
    let name = match &j.name {
        Some(n) if n.is_empty() => {
            return Err(Located::new(
                key(path, "name"),
                "joint name must not be empty",
            ))
        }
        Some(n) => n.clone(),
        None => format!("joints[{i}]"),
    };
    let a = body_index(&j.body_a, path, "body_a", by_name)?;
    let b = body_index(&j.body_b, path, "body_b", by_name)?;
    if a == b {
        return Err(Located::new(
            key(path, "body_b"),
            format!(
                "a joint joins two different bodies; both are {:?}",
                j.body_b
            ),
        ));
    }
    let t = kind.name();
    // Fields that do not belong to this joint type are errors, not ignored.
    let not_for = |field: &str, present: bool| {
        if present {
            Err(Located::new(
                key(path, field),
                format!("a {t} joint has no {field}"),
            ))
        } else {
            Ok(())
        }
    };
    let dim3 = <D::V as Vector>::DIM == 3;
    let has_axis = matches!(kind, JointKind::Prismatic) || (dim3 && kind == JointKind::Revolute);
    not_for("axis", j.axis.is_some() && !has_axis)?;
    not_for("limits", j.limits.is_some() && kind == JointKind::Weld)?;
    not_for(
        "motor",
        j.motor.is_some() && !matches!(kind, JointKind::Revolute | JointKind::Prismatic),
    )?;
    for (field, v) in [
        ("rest_length", j.rest_length),
        ("stiffness", j.stiffness),
        ("damping", j.damping),
    ] {
        not_for(field, v.is_some() && kind != JointKind::Distance)?;
    }
    if j.anchor.is_some() {
        for (field, given) in [
            ("anchor_a", j.anchor_a.is_some()),
            ("anchor_b", j.anchor_b.is_some()),
        ] {
            if given {
                return Err(Located::new(
                    key(path, field),
                    format!("give either anchor or {field}, not both"),
                ));
            }
        }
    }
    let (pa, pb) = (&bodies[a].pose, &bodies[b].pose);
    let (oa, ob) = (D::translation(pa), D::translation(pb));
    // Defaults: a distance joint joins the body origins; the others sit at
    // body B's origin.
    let default_a = if kind == JointKind::Distance { oa } else { ob };
    let anchor = j.anchor.map(W::get);
    let wa = finite_vec(
        j.anchor_a.map(W::get).or(anchor),
        default_a,
        path,
        if j.anchor.is_some() {
            "anchor"
        } else {
            "anchor_a"
        },
    )?;
    let wb = finite_vec(
        j.anchor_b.map(W::get).or(anchor),
        ob,
        path,
        if j.anchor.is_some() {
            "anchor"
        } else {
            "anchor_b"
        },
    )?;
    let local_axis_a = if has_axis {
        let mut default = <D::V as Vector>::ZERO;
        default.set(<D::V as Vector>::DIM - 1, 1.0);
        let given = j.axis.map(W::get);
        if given.is_none() && kind == JointKind::Prismatic {
            return Err(Located::new(
                path.to_vec(),
                "a prismatic joint needs an axis (the slide direction)",
            ));
        }
        let axis = given.unwrap_or(default);
        let len = axis.length();
        if !(axis.is_finite() && len > 1e-6) {
            return Err(Located::new(
                key(path, "axis"),
                "axis must be finite and non-zero",
            ));
        }
        Some(D::to_local_vector(pa, axis * (1.0 / len)))
    } else {
        None
    };
    let limits = match j.limits {
        None => None,
        Some([lo, hi]) => {
            if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                return Err(Located::new(
                    key(path, "limits"),
                    format!("limits must be finite with lower <= upper, got [{lo}, {hi}]"),
                ));
            }
            if kind == JointKind::Distance && lo < 0.0 {
                return Err(Located::new(
                    key(path, "limits"),
                    format!("distance limits must be >= 0, got [{lo}, {hi}]"),
                ));
            }
            Some(if kind == JointKind::Revolute {
                (lo.to_radians(), hi.to_radians())
            } else {
                (lo, hi)
            })
        }
    };
    let motor = match j.motor {
        None => None,
        Some(m) => {
            let at = key(path, "motor");
            let speed = number(Some(m.speed), 0.0, &at, "speed", "a finite number", |_| {
                true
            })?;
            let max_force = non_negative(Some(m.max_force), 0.0, &at, "max_force")?;
            Some(Motor {
                speed: if kind == JointKind::Revolute {
                    speed.to_radians()
                } else {
                    speed
                },
                max_force,
            })
        }
    };
    let rest_length = if kind == JointKind::Distance {
        Some(non_negative(
            j.rest_length,
            (wb - wa).length(),
            path,
            "rest_length",
        )?)
    } else {
        None
    };
    let spring = match (j.stiffness, j.damping) {
        (None, None) => None,
        (None, Some(_)) => {
            return Err(Located::new(
                key(path, "damping"),
                "damping needs a stiffness (a spring); a rod without one is rigid",
            ))
        }
        (Some(k), d) => Some(Spring {
            stiffness: non_negative(Some(k), 0.0, path, "stiffness")?,
            damping: non_negative(d, 0.0, path, "damping")?,
        }),
    };
    Ok(JointSpec {
        name,
        kind,
        body_a: a,
        body_b: b,
        local_anchor_a: D::to_local_point(pa, wa),
        local_anchor_b: D::to_local_point(pb, wb),
        local_axis_a,
        limits,
        motor,
        rest_length,
        spring,
        collide_connected: j.collide_connected,
    })
}
