//! Bodies and their colliders: from their definitions to checked
//! [`BodySpec`]s (kind, pose, velocities, damping, shapes, materials, mass).

use super::defs::{Body2Def, Body3Def, Collider2Def, Collider3Def};
use super::load::{finite_vec, index, key, non_negative, number};
use super::model::{BodyKind, BodySpec, ColliderSpec};
use super::space::Space;
use crate::scene::error::Located;
use crate::scene::locate::Seg;
use crate::scene::{build2, build3};
use peng::d2::Vec2;
use peng::d3::Vec3;
use peng::world::{Dim2, Dim3};
use serde::de::DeserializeOwned;

/// Density when a collider gives none.
pub const DEFAULT_DENSITY: f32 = 1.0;

/// Friction when a collider gives none.
pub const DEFAULT_FRICTION: f32 = 0.6;

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

/// A dynamic body must have a mass: every collider a finite one (no
/// half-space) and some collider a positive one (the physics world would
/// otherwise leave it hanging in the air, untouched by gravity).
pub fn check_mass<D: Space>(b: &BodySpec<D>, path: &[Seg]) -> Result<(), Located> {
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
pub fn check_still<B: BodyDef>(def: &B, b: &BodySpec<B::D>, path: &[Seg]) -> Result<(), Located> {
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
