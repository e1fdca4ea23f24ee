//! Serde definitions of the scene format (see `docs/scene-format.md`).
//!
//! Shapes are not serde enums: an internally tagged enum (`{"type": ...}`)
//! buffers its content, which loses the field path of errors inside it. Instead
//! a shape is kept as a `serde_json::Value`, its `type` is read by hand and the
//! rest is deserialized into the matching `*Def` struct below, so an error still
//! names the field (`shapes[2].shape.radius`).

use peng::d2::Vec2;
use peng::d3::Vec3;
use serde::de::{Deserializer, Error as _};
use serde::Deserialize;
use serde_json::Value;

/// A 2D vector written `[x, y]`.
#[derive(Debug, Clone, Copy)]
pub struct V2(pub Vec2);

/// A 3D vector written `[x, y, z]`.
#[derive(Debug, Clone, Copy)]
pub struct V3(pub Vec3);

/// A quaternion written `[x, y, z, w]`.
#[derive(Debug, Clone, Copy)]
pub struct V4(pub [f32; 4]);

/// Reads an array of exactly `N` numbers, with a message that says what was meant.
fn fixed<'de, D: Deserializer<'de>, const N: usize>(
    d: D,
    expected: &'static str,
) -> Result<[f32; N], D::Error> {
    let v = Vec::<f32>::deserialize(d)?;
    <[f32; N]>::try_from(v.as_slice()).map_err(|_| D::Error::invalid_length(v.len(), &expected))
}

impl<'de> Deserialize<'de> for V2 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let [x, y] = fixed(d, "an array of 2 numbers [x, y]")?;
        Ok(V2(Vec2::new(x, y)))
    }
}

impl<'de> Deserialize<'de> for V3 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let [x, y, z] = fixed(d, "an array of 3 numbers [x, y, z]")?;
        Ok(V3(Vec3::new(x, y, z)))
    }
}

impl<'de> Deserialize<'de> for V4 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(V4(fixed(d, "an array of 4 numbers [x, y, z, w]")?))
    }
}

/// The top level of a scene; `E` is the entry type of the dimension.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneDef<E> {
    /// 2 or 3 (already checked before this is read).
    #[allow(dead_code)]
    pub dimension: u8,
    /// Default `--distance` for this scene.
    #[serde(default)]
    pub distance: Option<f32>,
    /// Default `--fps` for `peng check --frames` (frames per second).
    #[serde(default)]
    pub fps: Option<f32>,
    /// The named shapes.
    pub shapes: Vec<E>,
}

/// A named, placed 2D shape.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry2 {
    /// Unique name.
    pub name: String,
    /// The shape (see [`super::build2`]).
    pub shape: Value,
    /// Position `[x, y]`, default origin.
    #[serde(default)]
    pub position: Option<V2>,
    /// Counter-clockwise rotation in degrees, default 0.
    #[serde(default)]
    pub angle_deg: Option<f32>,
    /// Scripted motion over time (see [`super::motion`]).
    #[serde(default)]
    pub motion: Option<MotionDef<Key2Def>>,
}

/// A named, placed 3D shape.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry3 {
    /// Unique name.
    pub name: String,
    /// The shape (see [`super::build3`]).
    pub shape: Value,
    /// Position `[x, y, z]`, default origin.
    #[serde(default)]
    pub position: Option<V3>,
    /// Orientation, default identity.
    #[serde(default)]
    pub rotation: Option<RotationDef>,
    /// Scripted motion over time (see [`super::motion`]).
    #[serde(default)]
    pub motion: Option<MotionDef<Key3Def>>,
}

/// `{"keyframes": [...], "loop": false}`: a shape's pose over time.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotionDef<K> {
    /// The keyframes, times strictly increasing.
    pub keyframes: Vec<K>,
    /// Repeat the keyframes' time span forever (default: hold the last pose).
    #[serde(default, rename = "loop")]
    pub looped: bool,
}

/// A 2D keyframe `{"t": s, "position": [x, y], "angle_deg": a}`; a missing
/// position or angle is the shape's own.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Key2Def {
    /// Time in seconds.
    pub t: f32,
    /// Position at that time.
    #[serde(default)]
    pub position: Option<V2>,
    /// Counter-clockwise rotation at that time, degrees (not wrapped: 0 to 360
    /// is one full turn).
    #[serde(default)]
    pub angle_deg: Option<f32>,
}

/// A 3D keyframe `{"t": s, "position": [x, y, z], "rotation": {...}}`; a
/// missing position or rotation is the shape's own.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Key3Def {
    /// Time in seconds.
    pub t: f32,
    /// Position at that time.
    #[serde(default)]
    pub position: Option<V3>,
    /// Orientation at that time.
    #[serde(default)]
    pub rotation: Option<RotationDef>,
}

/// A 3D orientation: `{"axis": [x, y, z], "angle_deg": a}` or
/// `{"quaternion": [x, y, z, w]}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RotationDef {
    /// Rotation axis (any non-zero length).
    #[serde(default)]
    pub axis: Option<V3>,
    /// Angle about the axis in degrees (right-hand rule).
    #[serde(default)]
    pub angle_deg: Option<f32>,
    /// Unit quaternion `[x, y, z, w]` (normalized when read).
    #[serde(default)]
    pub quaternion: Option<V4>,
}

/// A part of a 2D compound.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part2 {
    /// The part's shape.
    pub shape: Value,
    /// Position relative to the compound.
    #[serde(default)]
    pub position: Option<V2>,
    /// Rotation relative to the compound, degrees.
    #[serde(default)]
    pub angle_deg: Option<f32>,
}

/// A part of a 3D compound.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part3 {
    /// The part's shape.
    pub shape: Value,
    /// Position relative to the compound.
    #[serde(default)]
    pub position: Option<V3>,
    /// Rotation relative to the compound.
    #[serde(default)]
    pub rotation: Option<RotationDef>,
}

/// `{"type": "circle" | "ball", "radius": r}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RadiusDef {
    /// Radius.
    pub radius: f32,
}

/// `{"type": "capsule", "radius": r, "half_height": h}` or with ends `a`, `b`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapsuleDef<V> {
    /// Radius.
    pub radius: f32,
    /// Half the length of the core segment along local y.
    #[serde(default)]
    pub half_height: Option<f32>,
    /// First end of the core segment (a missing `Option` field reads as `None`).
    pub a: Option<V>,
    /// Second end of the core segment.
    pub b: Option<V>,
}

/// `{"type": "rect" | "cuboid", "half_extents": [...]}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxDef<V> {
    /// Half the size along each local axis.
    pub half_extents: V,
}

/// `{"type": "segment", "a": [...], "b": [...]}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SegmentDef<V> {
    /// First end.
    pub a: V,
    /// Second end.
    pub b: V,
}

/// `{"type": "triangle", "a": [...], "b": [...], "c": [...]}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriangleDef<V> {
    /// First vertex.
    pub a: V,
    /// Second vertex.
    pub b: V,
    /// Third vertex.
    pub c: V,
}

/// `{"type": "polygon" | "polyhedron", "points": [[...], ...]}`: the convex hull.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointsDef<V> {
    /// The points whose convex hull is the shape.
    pub points: Vec<V>,
}

/// `{"type": "polyline", "points": [[x, y], ...], "closed": bool}`: a chain
/// of segments through the points in order (joined back to the first when
/// `closed`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolylineDef {
    /// The vertices, in chain order.
    pub points: Vec<V2>,
    /// Whether a last segment joins the last point to the first (default no).
    #[serde(default)]
    pub closed: bool,
}

/// `{"type": "cylinder" | "cone", "half_height": h, "radius": r}` (axis local y).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundDef {
    /// Half the height along local y.
    pub half_height: f32,
    /// Radius of the base.
    pub radius: f32,
}

/// `{"type": "halfspace", "normal": [x, y, z]}`: the plane through the pose's
/// position; the solid side is opposite the normal.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HalfSpaceDef {
    /// Outward normal of the boundary plane (any non-zero length).
    pub normal: V3,
}

/// `{"type": "compound", "parts": [...]}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompoundDef<P> {
    /// The parts.
    pub parts: Vec<P>,
}
