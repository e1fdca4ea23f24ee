//! Builds 3D peng shapes and poses from their scene definitions.

use super::defs::{
    BoxDef, CapsuleDef, CompoundDef, HalfSpaceDef, Part3, PointsDef, RadiusDef, RotationDef,
    RoundDef, SegmentDef, TriangleDef, V3,
};
use super::error::Located;
use super::locate::Seg;
use super::typed::{
    capsule_core, fields, index, key, position, shape_type, unknown_type, CapsuleCore,
};
use peng::d3::{
    Ball, Capsule, Compound, Cone, ConvexPolyhedron, Cuboid, Cylinder, HalfSpace, Pose3, Quat,
    Segment, Shape, Triangle, Vec3,
};
use serde_json::Value;

/// The 3D shape type names, in the order the help lists them.
pub const TYPES: &[&str] = &[
    "ball",
    "capsule",
    "cuboid",
    "cylinder",
    "cone",
    "segment",
    "triangle",
    "polyhedron",
    "halfspace",
    "compound",
];

/// The rotation given by `r` (at `path`).
fn rotation(r: &RotationDef, path: &[Seg]) -> Result<Quat, Located> {
    match (r.axis, r.angle_deg, r.quaternion) {
        (None, None, Some(q)) => {
            let [x, y, z, w] = q.0;
            let q = Quat::from_xyzw(x, y, z, w);
            // Any finite non-zero quaternion is a rotation: `Pose3::try_new`
            // normalizes it, also when its squared length over- or underflows.
            if !q.is_finite() || [x, y, z, w].iter().all(|&c| c == 0.0) {
                return Err(Located::new(
                    key(path, "quaternion"),
                    "quaternion must be finite and non-zero",
                ));
            }
            Ok(q)
        }
        (Some(axis), Some(deg), None) => {
            let a = axis.0;
            let m = a.abs().max_element();
            if !a.is_finite() || m == 0.0 {
                return Err(Located::new(
                    key(path, "axis"),
                    "rotation axis must be finite and non-zero",
                ));
            }
            // Divided by its largest component, the axis normalizes without
            // overflow or underflow of its squared length.
            let a = a / m;
            if !deg.is_finite() {
                return Err(Located::new(key(path, "angle_deg"), "angle_deg is not finite"));
            }
            Ok(Quat::from_axis_angle(a.normalize(), deg.to_radians()))
        }
        _ => Err(Located::new(
            path.to_vec(),
            "a rotation is either {\"axis\": [x, y, z], \"angle_deg\": a} or {\"quaternion\": [x, y, z, w]}",
        )),
    }
}

/// The pose from `position` and `rotation` of the element at `path`.
pub fn pose(pos: Option<V3>, rot: Option<&RotationDef>, path: &[Seg]) -> Result<Pose3, Located> {
    let t = position(pos.map(|p| p.0), path)?;
    let q = match rot {
        Some(r) => rotation(r, &key(path, "rotation"))?,
        None => Quat::IDENTITY,
    };
    Pose3::try_new(t, q).map_err(|e| {
        let field = match e {
            peng::GeometryError::TooLarge { .. } => "position",
            _ => "rotation",
        };
        Located::new(key(path, field), e.to_string())
    })
}

/// Builds the shape whose definition is `v`, found at `path`.
pub fn shape(v: &Value, path: &[Seg]) -> Result<Shape, Located> {
    let geo = |e: peng::GeometryError| Located::geometry(path, &e);
    let t = shape_type(v, path, 3, TYPES)?;
    Ok(match t {
        "ball" => {
            let d: RadiusDef = fields(v, path)?;
            Ball::new(d.radius).map_err(geo)?.into()
        }
        "capsule" => {
            let d: CapsuleDef<V3> = fields(v, path)?;
            match capsule_core(&d, path)? {
                CapsuleCore::Vertical(h) => Capsule::vertical(h, d.radius),
                CapsuleCore::Ends(a, b) => Capsule::new(a.0, b.0, d.radius),
            }
            .map_err(geo)?
            .into()
        }
        "cuboid" => {
            let d: BoxDef<V3> = fields(v, path)?;
            Cuboid::new(d.half_extents.0).map_err(geo)?.into()
        }
        "cylinder" => {
            let d: RoundDef = fields(v, path)?;
            Cylinder::new(d.half_height, d.radius).map_err(geo)?.into()
        }
        "cone" => {
            let d: RoundDef = fields(v, path)?;
            Cone::new(d.half_height, d.radius).map_err(geo)?.into()
        }
        "segment" => {
            let d: SegmentDef<V3> = fields(v, path)?;
            Segment::new(d.a.0, d.b.0).map_err(geo)?.into()
        }
        "triangle" => {
            let d: TriangleDef<V3> = fields(v, path)?;
            Triangle::new(d.a.0, d.b.0, d.c.0).map_err(geo)?.into()
        }
        "polyhedron" => {
            let d: PointsDef<V3> = fields(v, path)?;
            let pts: Vec<Vec3> = d.points.iter().map(|p| p.0).collect();
            ConvexPolyhedron::from_points(&pts).map_err(geo)?.into()
        }
        "halfspace" => {
            let d: HalfSpaceDef = fields(v, path)?;
            HalfSpace::new(d.normal.0).map_err(geo)?.into()
        }
        "compound" => {
            let d: CompoundDef<Part3> = fields(v, path)?;
            let mut parts = Vec::with_capacity(d.parts.len());
            for (j, p) in d.parts.iter().enumerate() {
                let pp = index(&key(path, "parts"), j);
                let s = shape(&p.shape, &key(&pp, "shape"))?;
                parts.push((pose(p.position, p.rotation.as_ref(), &pp)?, s));
            }
            Compound::new(parts).map_err(geo)?.into()
        }
        other => return Err(unknown_type(path, other)),
    })
}
