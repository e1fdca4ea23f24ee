//! Link collision geometry as peng shapes: primitives stay primitives; a
//! mesh becomes its convex hull by default (as MoveIt's simplified meshes
//! do) or the triangle mesh itself when asked. Mesh files are found through
//! `package://` search paths or relative to the URDF file.

use crate::error::RobotError;
use crate::model::{Geometry, Robot};
use crate::transform::Transform;
use glam::{DQuat, DVec3, Vec3};
use peng::d3::{Ball, Capsule, ConvexPolyhedron, Cuboid, Cylinder, Shape};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How mesh geometry becomes a shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MeshMode {
    /// The convex hull of the mesh's vertices (the default).
    #[default]
    ConvexHull,
    /// The triangle mesh itself.
    TriMesh,
}

/// Where mesh files are looked for.
#[derive(Debug, Clone, Default)]
pub struct MeshSource {
    /// Folders searched for `package://NAME/rest`: each is tried as
    /// `folder/NAME/rest`, then as `folder/rest`.
    pub search_paths: Vec<PathBuf>,
    /// The folder of the URDF file, against which relative file names and
    /// `file://` URIs without a leading `/` resolve.
    pub base: Option<PathBuf>,
    /// How meshes become shapes.
    pub mode: MeshMode,
}

/// One collision shape of a link: the shape and its pose in the link's
/// frame.
#[derive(Debug, Clone)]
pub struct LinkShape {
    /// The shape.
    pub shape: Shape,
    /// Its pose in the link's frame.
    pub pose: Transform,
}

impl MeshSource {
    /// The file a mesh `filename` names.
    pub fn resolve(&self, filename: &str) -> Result<PathBuf, String> {
        if let Some(rest) = filename.strip_prefix("package://") {
            let (package, inner) = rest.split_once('/').unwrap_or((rest, ""));
            for folder in &self.search_paths {
                for candidate in [folder.join(package).join(inner), folder.join(inner)] {
                    if candidate.is_file() {
                        return Ok(candidate);
                    }
                }
            }
            return Err(format!(
                "package \"{package}\" is not found in the search paths ({})",
                if self.search_paths.is_empty() {
                    "none given".to_string()
                } else {
                    self.search_paths
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ));
        }
        let path = Path::new(filename.strip_prefix("file://").unwrap_or(filename));
        let full = match (&self.base, path.is_absolute()) {
            (Some(base), false) => base.join(path),
            _ => path.to_path_buf(),
        };
        if full.is_file() {
            Ok(full)
        } else {
            Err(format!("{} is not a file", full.display()))
        }
    }
}

/// Every link's collision shapes, in [`Robot::links`] order; errors name
/// the link and, for meshes, the file.
pub fn link_shapes(robot: &Robot, source: &MeshSource) -> Result<Vec<Vec<LinkShape>>, RobotError> {
    robot
        .links
        .iter()
        .map(|link| {
            link.collisions
                .iter()
                .map(|c| {
                    let element = format!("link \"{}\"", link.name);
                    let (shape, local) =
                        shape_of(&c.geometry, source).map_err(|m| RobotError::new(element, m))?;
                    Ok(LinkShape {
                        shape,
                        pose: c.origin.mul(&local),
                    })
                })
                .collect()
        })
        .collect()
}

/// A peng shape for `g` and the transform from the URDF geometry's frame to
/// the shape's (peng's cylinders stand along y, URDF's along z).
fn shape_of(g: &Geometry, source: &MeshSource) -> Result<(Shape, Transform), String> {
    let bad = |e: peng::math::policy::GeometryError| e.to_string();
    let to_y = Transform {
        rotation: DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2),
        translation: DVec3::ZERO,
    };
    Ok(match g {
        Geometry::Box { size } => (
            Cuboid::new((*size * 0.5).as_vec3()).map_err(bad)?.into(),
            Transform::IDENTITY,
        ),
        Geometry::Sphere { radius } => (
            Ball::new(*radius as f32).map_err(bad)?.into(),
            Transform::IDENTITY,
        ),
        Geometry::Cylinder { radius, length } => (
            Cylinder::new((*length * 0.5) as f32, *radius as f32)
                .map_err(bad)?
                .into(),
            to_y,
        ),
        Geometry::Capsule { radius, length } => {
            let h = (*length * 0.5) as f32;
            (
                Capsule::new(
                    Vec3::new(0.0, 0.0, -h),
                    Vec3::new(0.0, 0.0, h),
                    *radius as f32,
                )
                .map_err(bad)?
                .into(),
                Transform::IDENTITY,
            )
        }
        Geometry::Mesh { filename, scale } => {
            let path = source
                .resolve(filename)
                .map_err(|m| format!("mesh \"{filename}\": {m}"))?;
            let data = peng_io::read_mesh(&path).map_err(|e| e.to_string())?;
            let s = scale.as_vec3();
            let points: Vec<Vec3> = data.positions.iter().map(|p| *p * s).collect();
            let shape: Shape = match source.mode {
                MeshMode::ConvexHull => ConvexPolyhedron::from_points(&points)
                    .map_err(|e| format!("{}: the convex hull: {e}", path.display()))?
                    .into(),
                MeshMode::TriMesh => {
                    let mut scaled = data.clone();
                    scaled.positions = points;
                    let mesh = scaled
                        .to_trimesh()
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    // The hull settles most distance queries.
                    Shape::TriMesh(Arc::new(mesh.with_convex_hull()))
                }
            };
            (shape, Transform::IDENTITY)
        }
    })
}
