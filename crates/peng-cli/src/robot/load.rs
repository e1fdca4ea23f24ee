//! Loading `peng robot`'s inputs: the robot (URDF) and its link shapes, the
//! SRDF, the scene's objects and the trajectory; the bundled example for
//! whatever is not given.

use super::args::{MeshesArg, RobotArgs};
use super::trajectory::{self, Trajectory};
use crate::scene::{self, Shapes};
use anyhow::{bail, Context, Result};
use peng_robot::{link_shapes, srdf, urdf, Checker, MeshMode, MeshSource, RobotError};
use std::path::Path;

/// The bundled example, built into the binary so that `peng robot` runs
/// from any directory.
pub mod bundled {
    /// The arm (examples/robot/arm.urdf).
    pub const URDF: &str = include_str!("../../../../examples/robot/arm.urdf");
    /// Its disabled link pairs (examples/robot/arm.srdf).
    pub const SRDF: &str = include_str!("../../../../examples/robot/arm.srdf");
    /// The cell around it (examples/robot/cell.json).
    pub const CELL: &str = include_str!("../../../../examples/robot/cell.json");
    /// Its motion (examples/robot/motion.csv).
    pub const MOTION: &str = include_str!("../../../../examples/robot/motion.csv");
    /// The name each is reported under.
    pub const URDF_NAME: &str = "<bundled examples/robot/arm.urdf>";
    /// The name each is reported under.
    pub const SRDF_NAME: &str = "<bundled examples/robot/arm.srdf>";
    /// The name each is reported under.
    pub const CELL_NAME: &str = "<bundled examples/robot/cell.json>";
    /// The name each is reported under.
    pub const MOTION_NAME: &str = "<bundled examples/robot/motion.csv>";
}

/// Everything a check needs, with the names of its sources.
pub struct Inputs {
    /// The robot with its shapes, disabled pairs and environment objects.
    pub checker: Checker,
    /// The environment objects' names (in [`Checker::environment`] order).
    pub objects: Vec<String>,
    /// The waypoints.
    pub trajectory: Trajectory,
    /// Where the robot came from.
    pub urdf: String,
    /// Where the SRDF came from, if any.
    pub srdf: Option<String>,
    /// Where the scene came from, if any.
    pub scene: Option<String>,
    /// Where the trajectory came from, if any (none: the zero
    /// configuration).
    pub trajectory_source: Option<String>,
}

/// Reads a text file, naming it in the error.
fn read(path: &Path, what: &str) -> Result<(String, String)> {
    let name = path.display().to_string();
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {what} file {name}"))?;
    Ok((name, text))
}

/// Loads the inputs the arguments name, the bundled example's for the
/// robot, SRDF, scene and trajectory when no URDF is given.
pub fn load(args: &RobotArgs) -> Result<Inputs> {
    let bundled = args.urdf.is_none();
    let (urdf_name, robot, base) = match &args.urdf {
        Some(p) => {
            let robot = urdf::read_file(p)?;
            let base = p.parent().map(|d| {
                if d.as_os_str().is_empty() {
                    Path::new(".").to_path_buf()
                } else {
                    d.to_path_buf()
                }
            });
            (p.display().to_string(), robot, base)
        }
        None => {
            let robot = urdf::parse(bundled::URDF).map_err(|e| in_file(e, bundled::URDF_NAME))?;
            (bundled::URDF_NAME.to_string(), robot, None)
        }
    };
    let source = MeshSource {
        search_paths: args.package.clone(),
        base,
        mode: match args.meshes {
            MeshesArg::Hull => MeshMode::ConvexHull,
            MeshesArg::Mesh => MeshMode::TriMesh,
        },
    };
    let shapes = link_shapes(&robot, &source).map_err(|e| in_file(e, &urdf_name))?;

    let srdf = match (&args.srdf, bundled) {
        (Some(p), _) => Some((p.display().to_string(), srdf::read_file(p, &robot)?)),
        (None, true) => Some((
            bundled::SRDF_NAME.to_string(),
            srdf::parse(bundled::SRDF, &robot).map_err(|e| in_file(e, bundled::SRDF_NAME))?,
        )),
        (None, false) => None,
    };

    let scene_text = match (&args.scene, bundled) {
        (Some(p), _) => Some(read(p, "scene")?),
        (None, true) => Some((bundled::CELL_NAME.to_string(), bundled::CELL.to_string())),
        (None, false) => None,
    };
    let mut environment = Vec::new();
    let mut objects = Vec::new();
    if let Some((name, text)) = &scene_text {
        let scene = scene::parse(name, text)?;
        let Shapes::D3(shapes) = scene.shapes else {
            bail!(
                "{name}: a 2D scene; the objects around a robot need a 3D scene (\"dimension\": 3)"
            );
        };
        for s in shapes {
            environment.push((s.shape, s.pose));
            objects.push(s.name);
        }
    }

    let trajectory_text = match (&args.trajectory, bundled) {
        (Some(p), _) => Some(read(p, "trajectory")?),
        (None, true) => Some((
            bundled::MOTION_NAME.to_string(),
            bundled::MOTION.to_string(),
        )),
        (None, false) => None,
    };
    let trajectory = match &trajectory_text {
        Some((name, text)) => trajectory::parse(name, text, &robot)?,
        None => Trajectory::zero(&robot),
    };

    let mut checker = Checker::new(robot, shapes, srdf.as_ref().map(|(_, s)| s));
    checker.environment = environment;
    Ok(Inputs {
        checker,
        objects,
        trajectory,
        urdf: urdf_name,
        srdf: srdf.map(|(n, _)| n),
        scene: scene_text.map(|(n, _)| n),
        trajectory_source: trajectory_text.map(|(n, _)| n),
    })
}

/// `e` as an error of the file `name` (kept if it names one already).
fn in_file(mut e: RobotError, name: &str) -> RobotError {
    if e.file.is_none() {
        e.file = Some(name.into());
    }
    e
}
