//! Command-line arguments and help texts.

use clap::{Parser, Subcommand, ValueEnum};
use peng_clash::LoadOptions;
use std::path::PathBuf;

pub use crate::robot::args::{RobotArgs, ROBOT_ABOUT, ROBOT_AFTER};

/// peng (碰, "to bump into"): collision detection in 2D and 3D.
#[derive(Debug, Parser)]
#[command(
    name = "peng",
    version,
    about = "peng (碰, \"to bump into\"): collision detection in 2D and 3D.",
    long_about = "peng (碰, \"to bump into\"): collision detection in 2D and 3D.\n\n\
        `peng check` reads a scene file (JSON: named shapes with poses), reports every \
        overlapping pair with its contact normal, depth and points, and every pair closer \
        than a distance; it can also draw the scene to a PNG.\n\n\
        `peng demo` runs a ball-and-paddle scene on peng's collision world, prints every \
        contact event and draws the scene to an animated GIF.\n\n\
        `peng sim` runs a scene of rigid bodies (JSON: bodies with colliders, joints) on \
        peng's physics world and writes an animated GIF and a log of contact events.\n\n\
        `peng clash` checks building models (IFC, glTF/GLB, OBJ, STL) for hard clashes, \
        clearance violations and duplicates and writes a report (JSON, CSV, an HTML page \
        with a picture of each clash, and BCF topics for BIM tools).\n\n\
        `peng robot` checks a robot arm (URDF, with its SRDF) along a trajectory of \
        waypoints in a cell of objects: every waypoint, and every motion between two \
        waypoints continuously (a contact between waypoints is never missed); it can \
        draw the first contact to a PNG and the motion to an animated GIF.\n\n\
        Try `peng check` (runs a bundled 2D example) or `peng check --help`.",
    arg_required_else_help = true
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a scene for overlapping and nearby pairs of shapes.
    #[command(long_about = CHECK_ABOUT, after_long_help = CHECK_AFTER)]
    Check(CheckArgs),
    /// Run the ball-and-paddle scene: print its contact events, draw a GIF.
    #[command(long_about = DEMO_ABOUT)]
    Demo(DemoArgs),
    /// Simulate a scene of rigid bodies: write an animated GIF and an event log.
    #[command(long_about = SIM_ABOUT, after_long_help = SIM_AFTER)]
    Sim(SimArgs),
    /// Check building models for clashes: hard, clearance, duplicates.
    #[command(long_about = CLASH_ABOUT, after_long_help = CLASH_AFTER)]
    // Boxed: its many options would make every `Command` as large.
    Clash(Box<ClashArgs>),
    /// Check a robot arm along a trajectory: waypoints and the motions between.
    #[command(long_about = ROBOT_ABOUT, after_long_help = ROBOT_AFTER)]
    Robot(RobotArgs),
}

/// A bundled example scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Example {
    /// examples/scene2d.json
    Scene2d,
    /// examples/scene3d.json
    Scene3d,
}

/// Arguments of `peng check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Scene file (JSON; `-` reads standard input). Without it, the bundled
    /// example chosen by --example runs.
    #[arg(value_name = "SCENE")]
    pub scene: Option<PathBuf>,

    /// Also report separated pairs at most D apart (0 reports only overlapping
    /// and touching pairs). Default: the scene's "distance" field, else 0.
    #[arg(long, short, value_name = "D", allow_negative_numbers = true)]
    pub distance: Option<f32>,

    /// Print the report as JSON (schema in `peng check --help`).
    #[arg(long)]
    pub json: bool,

    /// Draw the scene to a PNG file (3D: orthographic front view, x right, y up).
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,

    /// PNG width in pixels.
    #[arg(long, value_name = "PX", default_value_t = 900, value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub width: u32,

    /// PNG height in pixels.
    #[arg(long, value_name = "PX", default_value_t = 600, value_parser = clap::value_parser!(u32).range(16..=8192))]
    pub height: u32,

    /// Bundled example to run when no SCENE is given.
    #[arg(long, value_enum, value_name = "NAME", default_value_t = Example::Scene2d)]
    pub example: Example,

    /// Run the scene's motions for N frames (frame k at time k / fps) and
    /// report contacts beginning and ending over time.
    #[arg(long, value_name = "N")]
    pub frames: Option<u64>,

    /// Frames per second for --frames. Default: the scene's "fps" field, else 30.
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub fps: Option<f32>,

    /// With --frames, also list a "persisted" event for every frame a pair
    /// keeps touching.
    #[arg(long)]
    pub persist: bool,

    /// With --frames, sweep moving shapes between frames (continuous
    /// detection): a fast shape cannot pass through a thin one unseen, and a
    /// began event gives the time of impact.
    #[arg(long)]
    pub ccd: bool,
}

const CHECK_ABOUT: &str = "\
Check a scene for overlapping and nearby pairs of shapes.

Every pair of shapes whose bounding boxes (grown by D) meet goes to peng's narrow \
phase. A pair that overlaps or touches is listed with its penetration depth, the unit \
normal pointing from the first shape (A, earlier in the file) to the second (B: moving \
B by normal * depth separates them) and its contact points (a point on each surface). \
With --distance D > 0, separated pairs at most D apart are listed too, with their \
distance, the direction from A to B and the closest point on each shape.

With --frames N, the shapes move along their scripted motion keyframes: frame k \
sets every pose at time t = k / fps, a collision world (peng::world) updates, and the \
events are listed over time: when a pair begins touching (with its depth, or its \
distance when it is only within D), when it stops (and with --persist every frame it \
keeps touching), then a summary per pair: first and last frame in contact and the \
number of contact intervals. Shapes without motion stay still; a scene without any \
motion gives its static pairs as one interval from frame 0. D counts as in the \
static check (a pair touches when its distance is at most D). With --ccd, every shape \
is also swept from its pose at the previous frame to the current one, so a shape that \
passes through another between two frames is reported (began, with the time of \
impact, then ended at the next frame).

Exit status: 0 when the scene was checked (whatever was found); 1 on an error (unreadable \
file, invalid scene, bad option value: an invalid scene's message names \
file:line:column and the field); 2 on a command-line usage error.";

const CHECK_AFTER: &str = r#"SCENE FORMAT (full reference: docs/scene-format.md)
  {
    "dimension": 2,                  2 or 3
    "distance": 0.5,                 optional default for --distance
    "shapes": [
      {"name": "floor",              unique, non-empty
       "shape": {"type": "rect", "half_extents": [5, 0.5]},
       "position": [0, -1],          optional, default origin ([x, y, z] in 3D)
       "angle_deg": 0}               2D only, optional, counter-clockwise
    ]
  }
  3D poses use "rotation": {"axis": [x, y, z], "angle_deg": a}
                        or {"quaternion": [x, y, z, w]} (optional, default none).

  2D shape types and fields:
    circle    radius
    capsule   radius, and half_height (along local y) or ends a, b
    rect      half_extents [hx, hy]
    segment   a, b
    triangle  a, b, c
    polygon   points [[x, y], ...]  (their convex hull)
    simple_polygon  points [[x, y], ...]  (a non-convex outline, split into convex
              parts; it must not cross itself)
    polyline  points [[x, y], ...], closed (optional, default false): a chain of
              segments through the points (a curve with no inside)
    compound  parts [{"shape": {...}, "position": [..], "angle_deg": ..}, ...]
  3D shape types and fields:
    ball      radius
    capsule   radius, and half_height (along local y) or ends a, b
    cuboid    half_extents [hx, hy, hz]
    cylinder  half_height, radius   (axis along local y)
    cone      half_height, radius   (apex at +half_height on local y)
    segment   a, b
    triangle  a, b, c
    polyhedron points [[x, y, z], ...]  (their convex hull)
    halfspace normal [x, y, z]   (plane through the position; solid below it)
    compound  parts [{"shape": {...}, "position": [..], "rotation": {..}}, ...]
  Sizes must be >= 0 (zero is allowed); hull points must span an area (2D) or a
  volume (3D).

MOTION (for --frames; any shape may have one):
  "fps": 30,                         top level, optional default for --fps
  "motion": {"keyframes": [
               {"t": 0, "position": [-4, 0], "angle_deg": 0},
               {"t": 2, "position": [4, 0], "angle_deg": 90}],
             "loop": false}
  t in seconds: finite, >= 0, strictly increasing. Positions move linearly between
  keyframes; 2D angles turn linearly (not wrapped), 3D "rotation" ({"axis", "angle_deg"}
  or {"quaternion"}) is slerped along the shorter arc. A keyframe without position or
  rotation takes the shape's own. Before the first keyframe the first pose holds, after
  the last the last pose holds; "loop": true repeats the span from the first to the
  last keyframe. Without --frames shapes stand at their "position".

JSON OUTPUT (--json), keys in this order:
  {"format": "peng-check/1", "scene": NAME, "dimension": 2|3, "shapes": N,
   "distance": D, "pairs": N(N-1)/2, "pairs_tested": M,
   "overlaps": [{"a": NAME, "b": NAME, "depth": d, "normal": [..],
                 "points": [{"point_a": [..], "point_b": [..], "depth": d,
                             "normal": [..], "part_a": i, "part_b": j}, ..]}, ..],
   "near": [{"a": NAME, "b": NAME, "distance": d, "normal": [..],
             "point_a": [..], "point_b": [..]}, ..]}
  Vectors have 2 or 3 numbers; pairs are in scene order. The pair's depth and normal
  are those of its deepest point; each point carries the normal of its own manifold
  (they differ only when compounds touch at several parts; part_a/part_b index the
  touching parts, 0 for other shapes), and point_a - point_b = normal * depth.

FRAMES OUTPUT (--frames N):
  frame 31  t=3.100  began  ball — box  depth 0.0500
  frame 71  t=7.100  ended  ball — box
  frame 12  t=0.400  began  bullet — wall  distance 0.0000  impact t=0.3712   (--ccd)
  then per pair: first and last frame in contact, number of intervals. A pair only
  within --distance shows "distance d" instead of "depth d". With --json:
  {"format": "peng-check-frames/1", "scene": NAME, "dimension": 2|3, "shapes": N,
   "frames": N, "fps": F, "distance": D,
   "events": [{"frame": k, "t": t, "kind": "began"|"persisted"|"ended",
               "a": NAME, "b": NAME, "depth": d|null, "impact_t": t}, ..],
   "pairs": [{"a": NAME, "b": NAME, "first_contact": k, "last_contact": k,
              "intervals": n, "spans": [[began, ended|null], ..]}, ..]}
  depth is the deepest contact point's (negative: separated by that much, within D),
  null on ended events. impact_t (only with --ccd, when the pair met between the
  previous frame and this one) is the time of first contact, seconds. A span's ended frame is the first frame out of contact, null
  when still touching at the last frame. Pairs are in scene order (A earlier).

PNG (--png FILE):
  Shapes are filled in distinct colours; shapes that overlap another are outlined
  in red; contact points are magenta dots (#ff00ff) with a black ring and a thin
  black line between the two surface points; contact normals are dark-blue arrows;
  near pairs are joined by a green dashed line. The view fits the scene with a
  margin; light grey lines are the axes through the origin. 3D scenes are drawn as
  an orthographic front view (x right, y up, looking along -z); a halfspace is drawn
  only when its plane is seen edge-on.

EXAMPLES:
  peng check                                 bundled 2D example
  peng check --example scene3d --json        bundled 3D example as JSON
  peng check my_scene.json --distance 0.1 --png out.png
  peng check examples/moving2d.json --frames 120 --fps 30"#;

/// Arguments of `peng demo`.
#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// Number of simulation frames (60 per second).
    #[arg(long, value_name = "N", default_value_t = 480, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub frames: u32,

    /// The animated GIF to write.
    #[arg(long, value_name = "FILE", default_value = "peng-demo.gif")]
    pub out: PathBuf,

    /// Write numbered PNGs (frame-00000.png, ...) into this directory instead
    /// of a GIF.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["no_picture", "out"])]
    pub png_dir: Option<PathBuf>,

    /// Draw every K-th simulation frame (3: 20 pictures per second).
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=600))]
    pub every: u32,

    /// Picture width in pixels.
    #[arg(long, value_name = "PX", default_value_t = 480, value_parser = clap::value_parser!(u32).range(64..=4096))]
    pub width: u32,

    /// Picture height in pixels.
    #[arg(long, value_name = "PX", default_value_t = 360, value_parser = clap::value_parser!(u32).range(64..=4096))]
    pub height: u32,

    /// Only print the events; draw nothing.
    #[arg(long, conflicts_with = "out")]
    pub no_picture: bool,
}

const DEMO_ABOUT: &str = "\
Run the ball-and-paddle scene: print its contact events and draw it.

A ball (circle, radius 0.25) is dropped again and again from rest at y = 2.6 under \
gravity (9.81) while a paddle (rectangle 1.8 x 0.3 at y = -2) slides along \
x = 2.5 sin(2 pi t / 4 s). Each drop aims at where the paddle will be when the ball \
gets there, plus a scripted offset: most hit, some clip an end, some miss. A wide \
sensor under the view (the floor) catches the ball; the next frame drops a new one. \
The motion is scripted at a fixed step of 1/60 s (the same output every run); the \
only feedback is that a began contact with the paddle reflects the ball's velocity \
relative to the paddle about the contact normal (restitution 0.8).

peng's collision world (World2) finds every contact: the ball, the paddle and the \
floor are colliders, and a watched set \"ball against paddle and floor\" reports \
began and ended events, ball first. Each event prints as one line:
  frame N  t=SECONDSs  began|ended  ball-paddle|ball-floor (sensor)
a began contact with the paddle adds the contact point (midway between the two \
surface points), the unit normal from the ball to the paddle and the depth. A \
summary line follows.

The picture (a looping GIF, or numbered PNGs with --png-dir) shows every K-th frame \
(--every) in real time: the paddle (blue), the ball (orange) and its trail, the \
floor (grey band). For a quarter second after each touch, the ball and the paddle \
turn red, the contact point is a magenta dot, the normal a dark-blue arrow, with a \
CONTACT label. A frame counter and the number of touches are at the top.

Exit status: 0 on success; 1 on an error (an output file or directory that cannot \
be written is named); 2 on a command-line usage error.";

/// A bundled simulation scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimExample {
    /// examples/sim/pyramid.json: 55 boxes stacked on a base of 10
    Pyramid,
    /// examples/sim/cradle.json: Newton's cradle, 5 balls on strings
    Cradle,
    /// examples/sim/car.json: a car with spring suspension over bumps
    Car,
    /// examples/sim/tower3d.json: a ball knocks over a tower of 5 crates (3D)
    Tower3d,
}

impl SimExample {
    /// The name of the bundled scene (as in `crate::sim::BUNDLED`).
    pub fn name(self) -> &'static str {
        match self {
            SimExample::Pyramid => "pyramid",
            SimExample::Cradle => "cradle",
            SimExample::Car => "car",
            SimExample::Tower3d => "tower3d",
        }
    }
}

/// Arguments of `peng sim`.
#[derive(Debug, clap::Args)]
pub struct SimArgs {
    /// Simulation scene file (JSON; `-` reads standard input). Without it,
    /// the bundled example chosen by --example runs.
    #[arg(value_name = "SCENE")]
    pub scene: Option<PathBuf>,

    /// Bundled example to run when no SCENE is given.
    #[arg(long, value_enum, value_name = "NAME", default_value_t = SimExample::Pyramid)]
    pub example: SimExample,

    /// The animated GIF to write.
    #[arg(long, value_name = "FILE", default_value = "peng-sim.gif")]
    pub out: PathBuf,

    /// The event log to write (contacts that begin and end, step by step).
    #[arg(long, value_name = "FILE", default_value = "peng-sim-events.txt")]
    pub log: PathBuf,

    /// Number of steps. Default: the scene's "steps" or "seconds" (else 5 s).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub steps: Option<u64>,

    /// Pictures per second of simulated time. Default: the scene's
    /// view.fps, else 30.
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub fps: Option<f32>,

    /// Draw nothing (write only the event log).
    #[arg(long, conflicts_with = "out")]
    pub no_picture: bool,

    /// Do not mark the contact points in the pictures.
    #[arg(long)]
    pub no_contacts: bool,
}

const SIM_ABOUT: &str = "\
Simulate a scene of rigid bodies: write an animated GIF and an event log.

The scene file (JSON, format below) lists bodies (dynamic, kinematic or static, each \
with one or more colliders: a shape as in `peng check` scene files, a pose in the \
body's frame, density, friction and restitution) and joints, with gravity, the time \
step and the duration. peng's physics world (peng-dynamics: soft-step contact and \
joint solver with sub-steps, warm starting, Coulomb friction, restitution) runs it \
step by step.

Every k-th step is drawn into the GIF (k = the steps per picture at --fps, played in \
simulated time; 2D as is, 3D as the front view of `peng check --png`: x right, y up). \
Dynamic bodies are coloured, static ones grey, kinematic ones slate blue; joints are \
lines between their anchors, springs zigzags; contact points are magenta dots \
(--no-contacts leaves them out). The event log lists every contact that \
began or ended, with step, time and the two colliders (body name, with #k for the \
k-th collider of a body with several). Standard output gets a summary: steps, \
simulated and wall time, bodies, contacts begun and ended; runs longer than 2 s \
report progress on standard error.

Joints (revolute, prismatic, distance with an optional spring, weld; limits and \
motors) are peng-dynamics' soft-step joints (Box2D v3's); their anchors and axes are \
given in world space at the start.

Exit status: 0 on success; 1 on an error (an invalid scene names file:line:column, \
the field, and the body or joint; an output file that cannot be written is named); \
2 on a command-line usage error.";

const SIM_AFTER: &str = r#"SCENE FORMAT
  {
    "dimension": 2,                 2 or 3
    "gravity": [0, -9.81],          optional, default [0, -9.81] ([0, -9.81, 0] in 3D)
    "dt": 0.016667,                 optional step in seconds, > 0, default 1/60
    "substeps": 4,                  optional solver substeps per step, >= 1, default 4
    "seconds": 5,                   optional simulated time, default 5; or
    "steps": 300,                   the number of steps (not both)
    "bodies": [
      {"name": "box",               unique, non-empty
       "kind": "dynamic",           dynamic (default) | kinematic | static
       "position": [0, 2],          optional, default origin
       "angle_deg": 0,              2D, optional; 3D: "rotation": {"axis": [x, y, z],
                                    "angle_deg": a} or {"quaternion": [x, y, z, w]}
       "linvel": [1, 0],            optional initial velocity of the centre of mass
       "angvel_deg": 90,            optional, degrees/s (3D: [x, y, z], axis * deg/s);
                                    no velocity on a static body; a kinematic
                                    body keeps its velocities
       "linear_damping": 0,         optional, 1/s, >= 0
       "angular_damping": 0,        optional, 1/s, >= 0
       "colliders": [               at least one
         {"shape": {"type": "rect", "half_extents": [0.5, 0.5]},
          "position": [0, 0],       optional, in the body's frame
          "angle_deg": 0,           optional (3D: "rotation")
          "density": 1,             optional, >= 0, default 1
          "friction": 0.6,          optional, >= 0, default 0.6
          "restitution": 0}         optional, 0 to 1, default 0
       ]}
    ],
    "joints": [                     optional
      {"type": "revolute",          revolute | prismatic | distance | weld
       "name": "hinge",             optional, default joints[i]
       "body_a": "box", "body_b": "ground",
       "anchor": [0, 3],            world point at the start (both anchors), or
       "anchor_a": [..], "anchor_b": [..]  one world point on each body; default:
                                    distance: the body origins; others: B's origin
       "axis": [0, 1],              prismatic: slide direction (required);
                                    3D revolute: hinge axis (default z); else an error
       "limits": [-45, 45],         revolute: degrees; prismatic: length along the
                                    axis; distance: [min, max] length; not on weld
       "motor": {"speed": 90, "max_force": 50}  revolute (deg/s, torque),
                                    prismatic or distance (length/s, force); not weld
       "rest_length": 1,            distance only, default the start distance
       "hertz": 5,                  distance only: a spring of this natural frequency
                                    (Hz, as Box2D; absent: a rigid rod)
       "damping_ratio": 0.7,        distance only, needs hertz (1 = critical)
       "collide_connected": false}  whether the two bodies still collide
    ],
    "view": {                       optional
      "width": 480, "height": 360,  pixels, 16 to 4096
      "min": [-5, -1], "max": [5, 6],  region shown (3D: front view x, y); default:
                                    every body at the start, with a margin
      "fps": 30}                    pictures per simulated second
  }
  Shape types and fields are those of `peng check --help` (2D: circle, capsule, rect,
  segment, triangle, polygon, simple_polygon, polyline, compound; 3D: ball, capsule,
  cuboid, cylinder, cone, segment, triangle, polyhedron, halfspace, compound). A
  dynamic body needs a mass > 0: a collider with density > 0 and an area (2D) or a
  volume (3D); no halfspace.

EVENT LOG (--log FILE)
  # peng sim pyramid.json: 2D, 56 bodies, 0 joints, dt 0.016667 s, 4 substeps, 240 steps
  step 1  t=0.0167  began  ground — box0_0
  step 95  t=1.5833  ended  ball — wall#1

EXAMPLES
  peng sim                                    bundled pyramid: peng-sim.gif
  peng sim --example cradle --out cradle.gif
  peng sim my_scene.json --steps 600 --fps 20 --log events.txt"#;

/// A clash test of `peng clash`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClashMode {
    /// Surfaces crossing by more than --tolerance, or one element inside another
    Hard,
    /// Any penetration deeper than the meshes' rounding (10 µm)
    Collision,
    /// As collision, and surfaces that only touch are reported too
    Touching,
    /// Elements closer than --clearance (and any touching or crossing)
    Clearance,
    /// The same geometry within --duplicate-tolerance
    Duplicate,
}

impl ClashMode {
    /// The test's name in reports (what `--previous` matches tests by).
    pub fn name(self) -> &'static str {
        match self {
            ClashMode::Hard => "hard",
            ClashMode::Collision => "collision",
            ClashMode::Touching => "touching",
            ClashMode::Clearance => "clearance",
            ClashMode::Duplicate => "duplicate",
        }
    }
}

/// How `peng clash` makes BCF topics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BcfTopics {
    /// One topic per clash
    Clash,
    /// One topic per group of clashes (see --group)
    Group,
}

/// Arguments of `peng clash`.
#[derive(Debug, clap::Args)]
pub struct ClashArgs {
    /// Model files: IFC (.ifc), glTF (.gltf, .glb), OBJ (.obj), STL (.stl).
    /// Several files form one model. Without any, the bundled example storey
    /// runs.
    #[arg(value_name = "FILES")]
    pub files: Vec<PathBuf>,

    /// A clash test to run; repeat for several (one test each). Default:
    /// hard, clearance and duplicate.
    #[arg(long = "mode", value_enum, value_name = "MODE")]
    pub modes: Vec<ClashMode>,

    /// Hard test: how deep (metres) one element must reach into another to
    /// clash; shallower contacts are touches, not clashes.
    #[arg(
        long,
        value_name = "M",
        default_value_t = 0.002,
        allow_negative_numbers = true
    )]
    pub tolerance: f64,

    /// Clearance test: the distance (metres) elements must keep.
    #[arg(
        long,
        value_name = "M",
        default_value_t = 0.05,
        allow_negative_numbers = true
    )]
    pub clearance: f64,

    /// Duplicate test: the largest deviation (metres) between two copies.
    #[arg(
        long,
        value_name = "M",
        default_value_t = 0.001,
        allow_negative_numbers = true
    )]
    pub duplicate_tolerance: f64,

    /// Set A: elements matching KEY=VALUE (repeatable: any of them). Keys:
    /// class, name, storey, file, id. Default: every element.
    #[arg(long = "a", value_name = "KEY=VALUE")]
    pub a: Vec<String>,

    /// Leave out of set A the elements matching KEY=VALUE (repeatable).
    #[arg(long = "a-not", value_name = "KEY=VALUE")]
    pub a_not: Vec<String>,

    /// Set B, as --a. Without --b and --b-not, set A is checked against
    /// itself.
    #[arg(long = "b", value_name = "KEY=VALUE")]
    pub b: Vec<String>,

    /// Leave out of set B the elements matching KEY=VALUE (repeatable).
    #[arg(long = "b-not", value_name = "KEY=VALUE")]
    pub b_not: Vec<String>,

    /// Skip pairs of the same assembly (same parent), and an element against
    /// its own parent.
    #[arg(long)]
    pub ignore_same_parent: bool,

    /// Skip pairs of elements from the same file.
    #[arg(long)]
    pub ignore_same_file: bool,

    /// Skip a door or window against the element whose opening it fills
    /// (IFC IfcRelFillsElement and IfcRelVoidsElement).
    #[arg(long)]
    pub ignore_fillers: bool,

    /// Skip a covering against the element it covers (IFC
    /// IfcRelCoversBldgElements).
    #[arg(long)]
    pub ignore_coverings: bool,

    /// Skip reinforcement, tendons, fasteners and discrete accessories
    /// against a beam, column, slab, wall, footing, pile, member or plate
    /// whose box holds theirs (within 10 mm): parts cast into it.
    #[arg(long)]
    pub ignore_embedded: bool,

    /// The typical rule set: --ignore-fillers, --ignore-coverings and
    /// --ignore-embedded together.
    #[arg(long)]
    pub typical_rules: bool,

    /// Skip the pairs listed in FILE: one pair of element ids per line,
    /// separated by spaces, or by a tab for ids with spaces; lines starting
    /// with # are comments.
    #[arg(long, value_name = "FILE")]
    pub ignore_pairs: Option<PathBuf>,

    /// Check only elements whose bounding boxes meet this box (metres, world
    /// coordinates).
    #[arg(
        long,
        value_name = "MINX,MINY,MINZ,MAXX,MAXY,MAXZ",
        allow_hyphen_values = true
    )]
    pub region: Option<String>,

    /// An earlier report.json: mark each clash new or active, and list the
    /// earlier clashes no longer found as resolved.
    #[arg(long, value_name = "REPORT")]
    pub previous: Option<PathBuf>,

    /// How to group clashes: proximity:D (clashes within D metres, chained),
    /// type (by the pair of classes) or storey.
    #[arg(long, value_name = "HOW", default_value = "proximity:1.0")]
    pub group: String,

    /// The directory to write report.json, clashes.csv, report.html and
    /// clashes.bcf into (created if needed).
    #[arg(long, value_name = "DIR", default_value = "peng-report")]
    pub out: PathBuf,

    /// The topics of clashes.bcf: one per clash, or one per group of clashes
    /// (the group's first clash gives the snapshot).
    #[arg(
        long,
        value_enum,
        value_name = "PER",
        default_value_t = BcfTopics::Clash
    )]
    pub bcf_topics: BcfTopics,

    /// Draw no pictures: report.html and clashes.bcf without them (faster on
    /// runs with very many clashes).
    #[arg(long)]
    pub no_pictures: bool,

    /// The size of each clash picture in pixels, WxH (each 64 to 4096).
    #[arg(long, value_name = "WxH", default_value = "480x360")]
    pub picture_size: String,

    /// Most vertices one mesh file may hold (all glTF mesh instances
    /// together); past it the file is an error naming the limit.
    #[arg(long, value_name = "N", default_value_t = LoadOptions::default().max_vertices)]
    pub max_vertices: usize,

    /// Most triangles one mesh file may hold (all glTF mesh instances
    /// together); past it the file is an error naming the limit.
    #[arg(long, value_name = "N", default_value_t = LoadOptions::default().max_triangles)]
    pub max_triangles: usize,

    /// Most vertices of one polygonal face of an OBJ or STL file; past it
    /// the file is an error naming the line.
    #[arg(long, value_name = "N", default_value_t = LoadOptions::default().max_face_vertices)]
    pub max_face_vertices: usize,

    /// Deepest nesting of IFC boolean operations in one element's body;
    /// a deeper element is left out with a warning.
    #[arg(long, value_name = "N", default_value_t = LoadOptions::default().max_boolean_depth)]
    pub max_boolean_depth: usize,

    /// Most exact-arithmetic evaluations spent cutting one IFC element's
    /// openings (about 50,000 a second); past it the element's remaining
    /// cuts are made as boxes, with a warning.
    #[arg(long, value_name = "N", default_value_t = LoadOptions::default().max_cut_work)]
    pub max_cut_work: u64,

    /// Print the report as JSON on standard output instead of the summary
    /// (the files are written too).
    #[arg(long)]
    pub json: bool,
}

const CLASH_ABOUT: &str = "\
Check building models for clashes: hard, clearance, duplicates.

The files (IFC 2x3, 4 and 4x3; glTF/GLB, OBJ and STL, where every node, object or \
solid is an element) are read into one model of elements, each a triangle mesh with an \
identity: id (IFC GlobalId, or the mesh node's name), class, name, storey, file. \
Without files, a bundled example storey runs: walls, slabs, columns, beams, pipes and \
ducts with one clash of each kind planted on purpose.

Each test checks set A against set B (--a, --b and their -not forms; without any B \
selector, A against itself), pair by pair where bounding boxes meet:
  hard        surfaces crossing deeper than --tolerance (protrusion: a corner inside \
the other; pierce: one runs through the other), or one element wholly inside a closed \
other (containment);
  collision   any penetration deeper than the meshes' rounding (10 µm);
  touching    as collision, and surfaces that only meet (touch);
  clearance   elements closer than --clearance (clearance), and any pair touching or \
crossing (with its hard kind);
  duplicate   the same geometry within --duplicate-tolerance.
Every clash has a stable id made from the two element ids, a signed distance (negative: \
penetration depth) and a point on each element. Clashes are grouped (--group), and \
with --previous marked new or active against an earlier report, whose clashes not found \
now are listed as resolved.

The report goes to DIR (--out, default peng-report): report.json (the whole report), \
clashes.csv (one row per clash), report.html (one self-contained page, pictures inline, \
that opens in any browser offline) and clashes.bcf (BCF 2.1 topics, one per clash or, \
with --bcf-topics group, per group, each with a viewpoint selecting both elements and a \
snapshot). Each clash's picture (--picture-size, default 480x360) looks at the clash \
from above and to the side, element A orange and B blue, the clash ringed; \
--no-pictures leaves them out. Standard output gets a summary: per test, the \
clashes by kind and the worst ones with their elements and distances in millimetres. \
Elements that cannot be used (bad geometry) are warnings naming the file and the \
element; the others are still checked. On a terminal, long runs show progress on \
standard error.

Exit status: 0 when the model was checked (whatever was found); 1 on an error (no file \
could be read: the message names it; a bad option value: the message names the \
option); 2 on a command-line usage error.";

const CLASH_AFTER: &str = r#"SELECTORS (--a, --a-not, --b, --b-not; KEY=VALUE)
  class=IfcWall        the IFC class and its subclasses named by extension
                       (IfcWallStandardCase); case-insensitive; a trailing * is allowed
  name=Duct*           the element name: * any run of characters, ? any one;
                       case-insensitive
  storey=Level 1       the storey name, exactly
  file=mep.ifc         the file, as given or by its last path component
  id=ID[,ID...]        element ids (IFC GlobalIds, mesh node names)
  An element is in a set when it matches any of its selectors (every element when
  there are none) and none of its -not selectors.

REPORT (report.json, "schema": "peng-clash-report/1"; lengths in metres)
  {"schema", "generator", "files": [{"file", "elements"}], "problems": [str],
   "tests": [{"name": "hard"|"collision"|"touching"|"clearance"|"duplicate",
              "mode": {..},
              "set_a": n, "set_b": n|null, "pairs_tested": n,
              "clashes": [{"id", "kind", "distance", "point_a", "point_b",
                           "a": element, "b": element, "group": i|null,
                           "status": "new"|"active"}],
              "groups": [{"name", "clashes": [id], "center"}],
              "resolved": [clash]}]}
  element: {"id", "class", "name", "storey", "file", "parent"}
  kind: protrusion, pierce, containment, touch, clearance, duplicate.
  --previous matches tests by name and clashes by id.

CSV (clashes.csv, RFC 4180, one row per clash, resolved ones last)
  test,id,kind,status,distance,point_a_x,point_a_y,point_a_z,point_b_x,point_b_y,
  point_b_z,group,a_id,a_class,a_name,a_storey,a_file,b_id,b_class,b_name,b_storey,b_file

HTML AND BCF (report.html, clashes.bcf)
  report.html   per test: its groups, and per clash its picture, kind, status,
                distance, points and both elements; resolved clashes last
  clashes.bcf   a BCF 2.1 zip: bcf.version, and per topic a folder (its GUID,
                stable across runs) holding markup.bcf (title, status Open for new
                clashes, Active otherwise, the creation time in UTC, a description
                of each clash), viewpoint.bcfv (a camera on the clash, both
                elements selected: IFC elements by IfcGuid, mesh parts by
                AuthoringToolId) and snapshot.png (not with --no-pictures)

EXAMPLES
  peng clash                                   the bundled example storey
  peng clash arch.ifc mep.ifc --a 'class=IfcDuct' --a 'class=IfcPipe' --b 'file=arch.ifc'
  peng clash model.ifc --mode clearance --clearance 0.1 --a 'storey=Level 2'
  peng clash model.ifc --previous peng-report/report.json --out peng-report-2
  peng clash plant.glb --mode hard --tolerance 0.001 --region 0,0,0,20,20,5 --json
  peng clash model.ifc --bcf-topics group --picture-size 800x600
  peng clash big.ifc --no-pictures"#;
