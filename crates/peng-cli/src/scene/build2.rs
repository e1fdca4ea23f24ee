//! Builds 2D peng shapes and poses from their scene definitions.

use super::defs::{
    BoxDef, CapsuleDef, CompoundDef, Part2, PointsDef, PolylineDef, RadiusDef, SegmentDef,
    TriangleDef, V2,
};
use super::error::Located;
use super::locate::Seg;
use super::typed::{
    capsule_core, fields, index, key, position, shape_type, unknown_type, CapsuleCore,
};
use peng::d2::{
    Capsule, Circle, Compound, ConvexPolygon, Polyline, Pose2, Rect, Segment, Shape, Triangle, Vec2,
};
use peng::shape::decompose::convex_decomposition;
use serde_json::Value;

/// The 2D shape type names, in the order the help lists them.
pub const TYPES: &[&str] = &[
    "circle",
    "capsule",
    "rect",
    "segment",
    "triangle",
    "polygon",
    "simple_polygon",
    "polyline",
    "compound",
];

/// The pose from `position` and `angle_deg` of the element at `path`.
pub fn pose(pos: Option<V2>, angle_deg: Option<f32>, path: &[Seg]) -> Result<Pose2, Located> {
    let t = position(pos.map(|p| p.0), path)?;
    let a = angle_deg.unwrap_or(0.0);
    if !a.is_finite() {
        return Err(Located::new(
            key(path, "angle_deg"),
            "angle_deg is not finite",
        ));
    }
    Pose2::try_new(t, a.to_radians())
        .map_err(|e| Located::new(key(path, "position"), e.to_string()))
}

/// Builds the shape whose definition is `v`, found at `path`.
pub fn shape(v: &Value, path: &[Seg]) -> Result<Shape, Located> {
    let geo = |e: peng::GeometryError| Located::geometry(path, &e);
    let t = shape_type(v, path, 2, TYPES)?;
    Ok(match t {
        "circle" => {
            let d: RadiusDef = fields(v, path)?;
            Circle::new(d.radius).map_err(geo)?.into()
        }
        "capsule" => {
            let d: CapsuleDef<V2> = fields(v, path)?;
            match capsule_core(&d, path)? {
                CapsuleCore::Vertical(h) => Capsule::vertical(h, d.radius),
                CapsuleCore::Ends(a, b) => Capsule::new(a.0, b.0, d.radius),
            }
            .map_err(geo)?
            .into()
        }
        "rect" => {
            let d: BoxDef<V2> = fields(v, path)?;
            Rect::new(d.half_extents.0).map_err(geo)?.into()
        }
        "segment" => {
            let d: SegmentDef<V2> = fields(v, path)?;
            Segment::new(d.a.0, d.b.0).map_err(geo)?.into()
        }
        "triangle" => {
            let d: TriangleDef<V2> = fields(v, path)?;
            Triangle::new(d.a.0, d.b.0, d.c.0).map_err(geo)?.into()
        }
        "polygon" => {
            let d: PointsDef<V2> = fields(v, path)?;
            let pts: Vec<Vec2> = d.points.iter().map(|p| p.0).collect();
            ConvexPolygon::from_points(&pts).map_err(geo)?.into()
        }
        "simple_polygon" => {
            // A non-convex outline becomes a compound of convex pieces (ear
            // clipping + Hertel–Mehlhorn, peng::shape::decompose).
            let d: PointsDef<V2> = fields(v, path)?;
            let pts: Vec<Vec2> = d.points.iter().map(|p| p.0).collect();
            let pieces = convex_decomposition(&pts).map_err(geo)?;
            let parts = pieces
                .into_iter()
                .map(|p| {
                    (
                        Pose2::IDENTITY,
                        ConvexPolygon::from_hull_unchecked(p).into(),
                    )
                })
                .collect();
            Compound::new(parts).map_err(geo)?.into()
        }
        "polyline" => {
            let d: PolylineDef = fields(v, path)?;
            let pts: Vec<Vec2> = d.points.iter().map(|p| p.0).collect();
            let n = pts.len();
            let segments = if d.closed {
                if n < 3 {
                    return Err(Located::new(
                        key(path, "points"),
                        format!("a closed polyline needs at least 3 points, got {n}"),
                    ));
                }
                Some((0..n as u32).map(|i| [i, (i + 1) % n as u32]).collect())
            } else {
                None
            };
            Polyline::new(pts, segments).map_err(geo)?.into()
        }
        "compound" => {
            let d: CompoundDef<Part2> = fields(v, path)?;
            let mut parts = Vec::with_capacity(d.parts.len());
            for (j, p) in d.parts.iter().enumerate() {
                let pp = index(&key(path, "parts"), j);
                let s = shape(&p.shape, &key(&pp, "shape"))?;
                parts.push((pose(p.position, p.angle_deg, &pp)?, s));
            }
            Compound::new(parts).map_err(geo)?.into()
        }
        // `shape_type` only returns names from TYPES.
        other => return Err(unknown_type(path, other)),
    })
}
