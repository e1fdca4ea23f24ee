//! The arguments and help texts of `peng robot` (re-exported by
//! [`crate::cli`], which holds the other subcommands').

use clap::ValueEnum;
use std::path::PathBuf;

/// How mesh geometry of the URDF becomes shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MeshesArg {
    /// The convex hull of each mesh (as MoveIt's simplified meshes; fast)
    Hull,
    /// The triangle mesh itself (exact surfaces, slower)
    Mesh,
}

/// Arguments of `peng robot`.
#[derive(Debug, clap::Args)]
pub struct RobotArgs {
    /// The robot (URDF). Without it, the bundled arm runs in its bundled
    /// cell along its bundled motion (examples/robot/).
    #[arg(value_name = "URDF")]
    pub urdf: Option<PathBuf>,

    /// The robot's semantic description (SRDF): its disabled link pairs are
    /// not checked.
    #[arg(long, value_name = "FILE")]
    pub srdf: Option<PathBuf>,

    /// A 3D scene file (the JSON of `peng check`): each named shape is an
    /// object of the robot's environment, in the robot's root frame.
    #[arg(long, value_name = "FILE")]
    pub scene: Option<PathBuf>,

    /// The waypoints (CSV: one row per waypoint, one column per active
    /// joint; format below). Without it, a URDF's trajectory is its zero
    /// configuration (clamped into the joint limits).
    #[arg(long, value_name = "CSV")]
    pub trajectory: Option<PathBuf>,

    /// A folder searched for `package://NAME/...` mesh files, as
    /// `DIR/NAME/...` then `DIR/...` (repeatable). The URDF's own folder
    /// resolves relative file names.
    #[arg(long, value_name = "DIR")]
    pub package: Vec<PathBuf>,

    /// How mesh files become collision shapes.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = MeshesArg::Hull)]
    pub meshes: MeshesArg,

    /// Draw the robot at the first contact (or, all free, where it comes
    /// closest) to a PNG file.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,

    /// Draw the whole motion to an animated GIF file.
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,

    /// Picture width in pixels (PNG and GIF).
    #[arg(long, value_name = "PX", default_value_t = 640, value_parser = clap::value_parser!(u32).range(64..=4096))]
    pub width: u32,

    /// Picture height in pixels (PNG and GIF).
    #[arg(long, value_name = "PX", default_value_t = 480, value_parser = clap::value_parser!(u32).range(64..=4096))]
    pub height: u32,

    /// Print the report as JSON (schema in `peng robot --help`).
    #[arg(long)]
    pub json: bool,
}

/// The long description of `peng robot`.
pub const ROBOT_ABOUT: &str = "\
Check a robot arm along a trajectory: the waypoints and the motions between them.

The robot is read from a URDF file (links with collision geometry: boxes, cylinders, \
spheres, capsules and meshes, as convex hulls by default; revolute, continuous, \
prismatic, fixed and mimic joints), with an optional SRDF whose disabled link pairs \
are not checked. Adjacent links are never checked against each other. A scene file \
(--scene, the 3D JSON of `peng check`) places objects around it: a table, parts, a \
fence. The trajectory (--trajectory) is a CSV file of waypoints, one configuration per \
row.

Every waypoint is checked on its own (self-collision and the objects; every pair in \
contact is listed with its depth). Every segment between two consecutive waypoints \
(a straight line in joint space) is checked continuously, by conservative \
advancement: peng bounds how fast any point of each link can move and steps along \
the segment no farther than the distance measured allows, so a contact between the \
waypoints is never missed, however thin the obstacle or fast the motion. A free \
segment reports the least distance measured along the way; a colliding one the \
first contact: the fraction s of the segment (0 at its first waypoint, 1 at its \
last), the joint values there and the pair (link names, or a link and an object's \
name), and what 50 samples of the rest of the segment find (how deep it goes, and \
the last sample still in contact). A summary follows: how many waypoints and \
segments are free, the first contact, and the least clearance of the free motion.

Without a URDF, the bundled example runs: a five-axis arm with a gripper beside a \
table with a part on it (examples/robot/arm.urdf, arm.srdf, cell.json, motion.csv, \
built into the binary). Every waypoint of its motion is free, but one segment sweeps \
the gripper through the part between two of them. Any of the four files may be \
replaced by its option.

--png draws the robot at the first contact, the touching link orange and what it \
touches blue, the contact ringed (all free: where the motion comes closest, among \
the waypoints and 16 samples per segment), framed on the robot there. --gif draws the \
whole motion (16 pictures per segment, fewer past 18 segments, plus each first \
contact held for 1.5 s), links and objects in contact red, with a timeline of the \
waypoints and the contacts, framed on the space the robot sweeps. Both look from \
above and to the side (azimuth 35°, elevation 30°, z up) and show the objects near \
the robot (floors and other large objects are cut to its region). Nothing is \
written without them.

Exit status: 0 when the trajectory was checked (whether or not anything collides); 1 \
on an error (an unreadable or invalid URDF, SRDF, scene or trajectory: the message \
names the file, the line and the element or column; a joint value outside its limits \
names the joint); 2 on a command-line usage error.";

/// The part of `peng robot --help` after the options.
pub const ROBOT_AFTER: &str = r#"TRAJECTORY (CSV)
  # comment lines and blank lines are skipped
  base_yaw, shoulder, elbow, wrist_pitch, wrist_roll      optional header
  0.0, 0.0, 0.0, 0.0, 0.0
  0.9, 0.4, 1.3, 1.4, 1.571
  One row per waypoint, one value per active joint (radians; metres for prismatic
  joints), separated by commas. Without a header, the columns follow the robot's
  configuration order (depth first from the root link, children in file order: for
  an arm, from the base out; the report's first lines list it). With a header (a
  first row holding no number), the columns are matched by joint name in any order;
  an unknown, repeated or missing name is an error. A value that is not a number
  names its line and column; a value outside its joint's limits names the joint.

JSON OUTPUT (--json), keys in this order:
  {"format": "peng-robot/1", "robot": NAME, "urdf": SOURCE, "srdf": SOURCE|null,
   "scene": SOURCE|null, "trajectory": SOURCE|null,
   "joints": [NAME, ..], "links": N, "objects": [NAME, ..], "self_pairs": N,
   "waypoints": [{"index": i, "line": L|null, "q": [..], "free": bool,
                  "closest": PAIR|null, "contacts": [PAIR, ..]}, ..],
   "segments": [{"index": i, "from": i, "to": i+1, "free": bool,
                 "clearance": d|null, "contact": null | {
                   "s": s, "q": [..], "pair": PAIR,
                   "after": {"samples": 50, "in_contact": n,
                             "deepest": {"s": s, "pair": PAIR}|null,
                             "last_contact_s": s|null}}}, ..],
   "summary": {"waypoints": n, "waypoints_free": n, "segments": n,
               "segments_free": n, "min_clearance": d|null,
               "first_contact": {"segment": i, "s": s}|null}}
  PAIR: {"link": NAME, "other": NAME, "other_kind": "link"|"object",
         "distance": d, "point_link": [x, y, z], "point_other": [x, y, z]}
  Lengths in metres, joint values as in the CSV, points in the root frame. distance
  is signed (negative: penetration depth). A waypoint's "closest" is its closest
  pair (null when no pair is checked). A free segment's "clearance" is the least
  distance measured at the steps of the advancement (null when no pair is checked).
  A contact's pair is measured at s, where it first touches (distance within 1e-4);
  "after" samples the rest of the segment at 50 evenly spaced points past s.
  min_clearance is the least distance over the free waypoints and free segments.

EXAMPLES
  peng robot                                   the bundled arm, cell and motion
  peng robot --png robot.png --gif robot.gif   ... and its pictures
  peng robot panda.urdf --srdf panda.srdf --package ./robots --scene cell.json \
             --trajectory pick.csv --json
  peng robot ur5.urdf --meshes mesh --trajectory path.csv --gif path.gif"#;
