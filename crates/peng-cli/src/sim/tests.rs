//! Tests of simulation scenes: the bundled ones load, bad values are
//! reported at their line, column and field, and bodies are drawn where they
//! are.

use super::load::parse;
use super::model::{BodyKind, JointKind, SimScene, Worlds};
use super::render::{render, viewport, Viewport, BACKGROUND};
use super::BUNDLED;
use crate::scene::error::SceneError;
use peng::d2::Vec2;
use peng::d3::Vec3;
use peng::world::{Dim2, Dim3};

fn load(text: &str) -> SimScene {
    parse("t.json", text).unwrap_or_else(|e| panic!("{e}"))
}

/// Loads `text`, which must fail with an error at `field` whose line and
/// column point at `token`, and whose message holds `message`.
fn fails(text: &str, field: &str, token: &str, message: &str) -> SceneError {
    let e = match parse("bad.json", text) {
        Ok(_) => panic!("loaded; expected an error at {field}"),
        Err(e) => e,
    };
    assert_eq!(e.file, "bad.json");
    assert_eq!(e.path, field, "{e}");
    assert!(e.message.contains(message), "{message:?} not in {e}");
    let line = text.lines().nth(e.line - 1).unwrap_or("");
    let at: String = line.chars().skip(e.column - 1).collect();
    assert!(
        at.starts_with(token),
        "{e}: {}:{} points at {at:?}, not {token:?}",
        e.line,
        e.column
    );
    e
}

/// A 2D scene with a ground, a box and a ball, `extra` spliced into the
/// box's collider and `joints` as the joints list.
fn scene2(collider_extra: &str, joints: &str) -> String {
    format!(
        r#"{{
  "dimension": 2,
  "bodies": [
    {{"name": "ground", "kind": "static",
     "colliders": [{{"shape": {{"type": "rect", "half_extents": [5, 0.5]}}}}]}},
    {{"name": "box", "position": [0, 2],
     "colliders": [{{"shape": {{"type": "rect", "half_extents": [0.5, 0.5]}}{collider_extra}}}]}},
    {{"name": "ball", "position": [2, 2],
     "colliders": [{{"shape": {{"type": "circle", "radius": 0.5}}}}]}}
  ],
  "joints": [{joints}]
}}"#
    )
}

#[test]
fn bundled_scenes_load() {
    for (name, file, text) in BUNDLED {
        let s = parse(file, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(s.dimension(), if name == "tower3d" { 3 } else { 2 });
        let (bodies, joints) = s.counts();
        match name {
            // A base of 10 boxes: 55 boxes and the ground; 4 s at 60 Hz.
            "pyramid" => {
                assert_eq!((bodies, joints, s.timing.steps), (56, 0, 240));
            }
            "cradle" => {
                assert_eq!((bodies, joints, s.timing.steps), (6, 5, 360));
                let Worlds::D2(w) = &s.worlds else {
                    panic!("2D")
                };
                // Every string is 3 long, the pulled-out first one too.
                for j in &w.joints {
                    let l = j.rest_length.unwrap_or(0.0);
                    assert!((l - 3.0).abs() < 1e-3, "{}: {l}", j.name);
                    assert_eq!(j.kind, JointKind::Distance);
                    assert!(j.spring.is_none());
                }
            }
            "car" => {
                assert_eq!((bodies, joints), (6, 6));
                let Worlds::D2(w) = &s.worlds else {
                    panic!("2D")
                };
                let axle = w.joints.iter().find(|j| j.name == "rear_axle").unwrap();
                let m = axle.motor.unwrap();
                assert!((m.speed + std::f32::consts::TAU).abs() < 1e-5);
                let slider = &w.joints[0];
                assert_eq!(slider.kind, JointKind::Prismatic);
                assert_eq!(slider.local_axis_a, Some(Vec2::Y));
                assert!(w.joints[1].spring.is_some());
            }
            "tower3d" => assert_eq!((bodies, joints, s.timing.steps), (7, 0, 240)),
            other => panic!("unexpected bundled scene {other}"),
        }
    }
}

#[test]
fn defaults_and_units() {
    let s = load(&scene2("", ""));
    assert_eq!(s.timing.dt, 1.0 / 60.0);
    assert_eq!(s.timing.substeps, 4);
    assert_eq!(s.timing.steps, 300);
    assert_eq!((s.view.width, s.view.height, s.view.fps), (480, 360, 30.0));
    let Worlds::D2(w) = &s.worlds else {
        panic!("2D")
    };
    assert_eq!(w.gravity, Vec2::new(0.0, -9.81));
    assert_eq!(w.bodies[0].kind, BodyKind::Static);
    let c = &w.bodies[1].colliders[0];
    assert_eq!((c.density, c.friction, c.restitution), (1.0, 0.6, 0.0));
    // Degrees per second in the file, radians per second loaded.
    let t = r#"{"dimension": 2, "seconds": 0.5, "dt": 0.1, "bodies": [
        {"name": "w", "angvel_deg": 180, "linvel": [1, 2],
         "colliders": [{"shape": {"type": "circle", "radius": 1}}]}]}"#;
    let s = load(t);
    assert_eq!(s.timing.steps, 5);
    let Worlds::D2(w) = &s.worlds else {
        panic!("2D")
    };
    assert!((w.bodies[0].angvel - std::f32::consts::PI).abs() < 1e-6);
    assert_eq!(w.bodies[0].linvel, Vec2::new(1.0, 2.0));
}

#[test]
fn joint_anchors_are_stored_in_body_frames() {
    // Body B turned a quarter counter-clockwise at (2, 2): the world anchor
    // (2, 3) is one unit along B's local -x.
    let t = r#"{"dimension": 2, "bodies": [
        {"name": "a", "kind": "static", "colliders": [{"shape": {"type": "circle", "radius": 1}}]},
        {"name": "b", "position": [2, 2], "angle_deg": 90,
         "colliders": [{"shape": {"type": "circle", "radius": 1}}]}],
      "joints": [{"type": "revolute", "body_a": "a", "body_b": "b", "anchor": [2, 3],
                  "limits": [-90, 45]}]}"#;
    let s = load(t);
    let Worlds::D2(w) = &s.worlds else {
        panic!("2D")
    };
    let j = &w.joints[0];
    assert_eq!(j.name, "joints[0]");
    assert_eq!(j.local_anchor_a, Vec2::new(2.0, 3.0));
    assert!(
        (j.local_anchor_b - Vec2::new(1.0, 0.0)).length() < 1e-5,
        "{j:?}"
    );
    let (lo, hi) = j.limits.unwrap();
    assert!(
        (lo + std::f32::consts::FRAC_PI_2).abs() < 1e-6
            && (hi - std::f32::consts::FRAC_PI_4).abs() < 1e-6
    );
    assert!(j.local_axis_a.is_none() && j.rest_length.is_none());
}

#[test]
fn scenes_3d_load() {
    let t = r#"{"dimension": 3, "gravity": [0, 0, -10], "steps": 10, "bodies": [
        {"name": "floor", "kind": "static",
         "colliders": [{"shape": {"type": "halfspace", "normal": [0, 0, 1]}}]},
        {"name": "crate", "position": [0, 0, 2], "angvel_deg": [0, 0, 90],
         "rotation": {"axis": [0, 0, 1], "angle_deg": 90},
         "colliders": [{"shape": {"type": "cuboid", "half_extents": [1, 0.5, 0.5]},
                        "rotation": {"quaternion": [0, 0, 0, 1]}, "density": 2}]},
        {"name": "lid", "position": [0, 1, 2],
         "colliders": [{"shape": {"type": "ball", "radius": 0.5}}]}],
      "joints": [{"type": "revolute", "body_a": "crate", "body_b": "lid", "anchor": [0, 1, 2]}]}"#;
    let s = load(t);
    assert_eq!((s.dimension(), s.counts(), s.timing.steps), (3, (3, 1), 10));
    let Worlds::D3(w) = &s.worlds else {
        panic!("3D")
    };
    assert_eq!(w.gravity, Vec3::new(0.0, 0.0, -10.0));
    assert!((w.bodies[1].angvel.z - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    // The default hinge axis is world z, seen from the crate turned about z.
    let axis = w.joints[0].local_axis_a.unwrap();
    assert!((axis - Vec3::Z).length() < 1e-6, "{axis}");
    // World anchor (0, 1, 2) seen from the crate turned a quarter about z:
    // local (1, 0, 0).
    assert!((w.joints[0].local_anchor_a - Vec3::X).length() < 1e-5);
}

#[test]
fn unknown_body_in_joint() {
    let t = scene2(
        "",
        r#"{"type": "weld", "name": "glue", "body_a": "box",
      "body_b": "bal"}"#,
    );
    let e = fails(
        &t,
        "joints[0].body_b",
        "\"bal\"",
        "unknown body \"bal\" (bodies: ground, box, ball)",
    );
    assert!(e.message.ends_with("(in joint \"glue\")"), "{e}");
    assert!(e.to_string().starts_with("bad.json:12:"), "{e}");
}

#[test]
fn bad_materials() {
    let e = fails(
        &scene2(r#", "density": -2"#, ""),
        "bodies[1].colliders[0].density",
        "-2",
        "density must be a finite number >= 0, got -2",
    );
    assert!(e.message.ends_with("(in body \"box\")"), "{e}");
    fails(
        &scene2(r#", "friction": -0.1"#, ""),
        "bodies[1].colliders[0].friction",
        "-0.1",
        "friction must be a finite number >= 0",
    );
    fails(
        &scene2(r#", "restitution": 1.5"#, ""),
        "bodies[1].colliders[0].restitution",
        "1.5",
        "restitution must be a number from 0 to 1, got 1.5",
    );
    // Beyond f32 range reads as infinity.
    fails(
        &scene2(r#", "density": 1e39"#, ""),
        "bodies[1].colliders[0].density",
        "1e39",
        "density must be a finite number >= 0, got inf",
    );
    fails(
        &scene2(r#", "densty": 1"#, ""),
        "bodies[1].colliders[0].densty",
        "1",
        "unknown field `densty`",
    );
}

#[test]
fn bad_shapes_name_their_field_and_body() {
    let t = r#"{"dimension": 2, "bodies": [
  {"name": "wheel", "colliders": [
    {"shape": {"type": "circle", "radius": -1}}]}]}"#;
    let e = fails(
        t,
        "bodies[0].colliders[0].shape.radius",
        "-1",
        "radius must not be negative, got -1 (in body \"wheel\")",
    );
    assert_eq!((e.line, e.column), (3, 44));
    let t = r#"{"dimension": 3, "bodies": [
  {"name": "w", "colliders": [{"shape": {"type": "rect", "half_extents": [1, 1]}}]}]}"#;
    fails(
        t,
        "bodies[0].colliders[0].shape.type",
        "\"rect\"",
        "unknown shape type \"rect\" for a 3D scene",
    );
}

#[test]
fn bad_timing() {
    let with = |top: &str| scene2("", "").replacen("\"dimension\": 2,", top, 1);
    fails(
        &with("\"dimension\": 2, \"dt\": 0,"),
        "dt",
        "0",
        "dt must be a finite number > 0, got 0",
    );
    fails(
        &with("\"dimension\": 2, \"substeps\": 0,"),
        "substeps",
        "0",
        "substeps must be at least 1",
    );
    fails(
        &with("\"dimension\": 2, \"steps\": 10, \"seconds\": 2,"),
        "seconds",
        "2",
        "give either steps or seconds, not both",
    );
    fails(
        &with("\"dimension\": 2, \"seconds\": -1,"),
        "seconds",
        "-1",
        "seconds must be a finite number > 0",
    );
    fails(
        &with("\"dimension\": 2, \"steps\": 0,"),
        "steps",
        "0",
        "the scene must run from 1 to",
    );
    fails(
        &with("\"dimension\": 2, \"gravity\": [0, 1e39],"),
        "gravity",
        "[0, 1e39]",
        "gravity must be finite",
    );
    fails(
        &with("\"dimension\": 4,"),
        "dimension",
        "4",
        "dimension must be 2 or 3",
    );
    fails(
        &with("\"dimension\": 2, \"view\": {\"min\": [0, 0], \"max\": [1, -1]},"),
        "view.max",
        "[1, -1]",
        "max must be finite and above min",
    );
    fails(
        &with("\"dimension\": 2, \"view\": {\"width\": 5},"),
        "view.width",
        "5",
        "width must be from 16 to 4096 pixels, got 5",
    );
}

#[test]
fn bad_bodies() {
    let t = scene2("", "").replacen("\"name\": \"ball\"", "\"name\": \"box\"", 1);
    fails(
        &t,
        "bodies[2].name",
        "\"box\"",
        "duplicate body name \"box\" (also used by bodies[1])",
    );
    let t = scene2("", "").replacen("\"kind\": \"static\"", "\"kind\": \"fixed\"", 1);
    fails(
        &t,
        "bodies[0].kind",
        "\"fixed\"",
        "unknown body kind \"fixed\", expected dynamic, kinematic or static",
    );
    let t = r#"{"dimension": 2, "bodies": [{"name": "x", "colliders": []}]}"#;
    fails(
        t,
        "bodies[0].colliders",
        "[]",
        "a body needs at least one collider",
    );
    let t = r#"{"dimension": 2, "bodies": [{"name": "x", "kind": "static",
        "colliders": [{"shape": {"type": "circle", "radius": 1}}], "angvel_deg": 5}]}"#;
    fails(
        t,
        "bodies[0].angvel_deg",
        "5",
        "a static body never moves: angvel_deg applies to dynamic and kinematic bodies",
    );
    let t = r#"{"dimension": 2, "bodies": [{"name": "x", "linear_damping": -1,
        "colliders": [{"shape": {"type": "circle", "radius": 1}}]}]}"#;
    fails(
        t,
        "bodies[0].linear_damping",
        "-1",
        "linear_damping must be a finite number >= 0",
    );
}

#[test]
fn bad_joints() {
    let j = |s: &str| scene2("", s);
    fails(
        &j(r#"{"type": "hinge", "body_a": "box", "body_b": "ball"}"#),
        "joints[0].type",
        "\"hinge\"",
        "unknown joint type \"hinge\", expected one of: revolute, prismatic, distance, weld",
    );
    fails(
        &j(
            r#"{"type": "weld", "body_a": "box", "body_b": "ball", "motor": {"speed": 1, "max_force": 1}}"#,
        ),
        "joints[0].motor",
        "{\"speed\"",
        "a weld joint has no motor",
    );
    fails(
        &j(r#"{"type": "revolute", "body_a": "box", "body_b": "ball", "axis": [0, 1]}"#),
        "joints[0].axis",
        "[0, 1]",
        "a revolute joint has no axis",
    );
    fails(
        &j(r#"{"type": "prismatic", "body_a": "box", "body_b": "ball"}"#),
        "joints[0]",
        "{\"type\": \"prismatic\"",
        "a prismatic joint needs an axis",
    );
    fails(
        &j(r#"{"type": "prismatic", "body_a": "box", "body_b": "ball", "axis": [0, 0]}"#),
        "joints[0].axis",
        "[0, 0]",
        "axis must be finite and non-zero",
    );
    fails(
        &j(r#"{"type": "revolute", "body_a": "box", "body_b": "box"}"#),
        "joints[0].body_b",
        "\"box\"",
        "a joint joins two different bodies",
    );
    fails(
        &j(r#"{"type": "revolute", "body_a": "box", "body_b": "ball", "limits": [10, -10]}"#),
        "joints[0].limits",
        "[10, -10]",
        "limits must be finite with lower <= upper",
    );
    fails(
        &j(r#"{"type": "distance", "body_a": "box", "body_b": "ball", "hertz": -5}"#),
        "joints[0].hertz",
        "-5",
        "hertz must be a finite number >= 0",
    );
    fails(
        &j(r#"{"type": "distance", "body_a": "box", "body_b": "ball", "damping_ratio": 5}"#),
        "joints[0].damping_ratio",
        "5",
        "damping_ratio needs hertz",
    );
    fails(
        &j(r#"{"type": "weld", "body_a": "box", "body_b": "ball", "hertz": 5}"#),
        "joints[0].hertz",
        "5",
        "a weld joint has no hertz",
    );
    fails(
        &j(
            r#"{"type": "weld", "body_a": "box", "body_b": "ball", "anchor": [0, 0], "anchor_b": [1, 1]}"#,
        ),
        "joints[0].anchor_b",
        "[1, 1]",
        "give either anchor or anchor_b, not both",
    );
    fails(
        &j(
            r#"{"type": "revolute", "body_a": "box", "body_b": "ball", "motor": {"speed": 1, "max_force": -1}}"#,
        ),
        "joints[0].motor.max_force",
        "-1",
        "max_force must be a finite number >= 0",
    );
}

#[test]
fn invalid_json_has_its_position() {
    let e = parse("s.json", "{\"dimension\": 2,\n \"bodies\": [}").unwrap_err();
    assert_eq!((e.line, e.column), (2, 13), "{e}");
    assert!(e.message.starts_with("invalid JSON"), "{e}");
}

/// A pixel of a canvas as (r, g, b).
fn pixel(c: &crate::raster::Canvas, p: crate::raster::P) -> [u8; 3] {
    c.get(p.x as i64, p.y as i64).unwrap()
}

#[test]
fn bodies_are_drawn_where_they_are() {
    // Region x in [0, 10], y in [0, 10] on 100 x 100 pixels: 10 px per unit.
    let t = r#"{"dimension": 2, "view": {"width": 100, "height": 100, "min": [0, 0], "max": [10, 10]},
      "bodies": [
        {"name": "box", "position": [3, 7], "colliders": [{"shape": {"type": "rect", "half_extents": [1, 1]}}]},
        {"name": "floor", "kind": "static", "position": [5, 1],
         "colliders": [{"shape": {"type": "rect", "half_extents": [5, 0.5]}}]}]}"#;
    let s = load(t);
    let Worlds::D2(w) = &s.worlds else {
        panic!("2D")
    };
    let vp = viewport(w, &s.view);
    assert_eq!(
        vp,
        Viewport::region(Vec2::ZERO, Vec2::splat(10.0), 100, 100)
    );
    let poses: Vec<_> = w.bodies.iter().map(|b| b.pose).collect();
    let c = render::<Dim2>(w, &poses, &[], &vp, "");
    // The box covers pixels x 20..40, y 20..40 (y down); the floor y 85..95.
    let inside = pixel(&c, vp.px(Vec2::new(3.0, 7.0)));
    assert_ne!(inside, BACKGROUND);
    assert_eq!(c.get(35, 25), Some(inside));
    assert_eq!(c.get(45, 30), Some(BACKGROUND));
    assert_eq!(c.get(30, 45), Some(BACKGROUND));
    let floor = pixel(&c, vp.px(Vec2::new(5.0, 1.0)));
    assert_ne!(floor, BACKGROUND);
    assert_ne!(floor, inside, "static bodies have their own colour");
    assert_eq!(c.get(50, 80), Some(BACKGROUND));

    // Moved by a pose: the box drawn at (7, 3) instead.
    let moved = vec![
        peng::d2::Pose2::from_translation(Vec2::new(7.0, 3.0)),
        poses[1],
    ];
    let c = render::<Dim2>(w, &moved, &[Vec2::new(5.0, 5.0)], &vp, "");
    assert_eq!(pixel(&c, vp.px(Vec2::new(7.0, 3.0))), inside);
    assert_eq!(pixel(&c, vp.px(Vec2::new(3.0, 7.0))), BACKGROUND);
    // A contact point is a magenta dot.
    assert_eq!(pixel(&c, vp.px(Vec2::new(5.0, 5.0))), crate::draw::CONTACT);
}

#[test]
fn the_default_view_fits_every_body() {
    let s = load(&scene2("", ""));
    let Worlds::D2(w) = &s.worlds else {
        panic!("2D")
    };
    let vp = viewport(w, &s.view);
    // The ground spans x in [-5, 5]: both ends and the ball are in the picture.
    for p in [
        Vec2::new(-5.0, 0.0),
        Vec2::new(5.0, -0.5),
        Vec2::new(2.5, 2.5),
    ] {
        let q = vp.px(p);
        assert!(q.x > 0.0 && q.x < 480.0 && q.y > 0.0 && q.y < 360.0, "{p}");
    }
}

#[test]
fn front_view_of_3d_bodies() {
    let t = r#"{"dimension": 3, "view": {"width": 100, "height": 100, "min": [-5, -5], "max": [5, 5]},
      "bodies": [{"name": "ball", "position": [2, 2, 0],
                  "colliders": [{"shape": {"type": "ball", "radius": 1}}]},
                 {"name": "cube", "kind": "kinematic", "position": [-2, -2, 3],
                  "colliders": [{"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}}]}]}"#;
    let s = load(t);
    let Worlds::D3(w) = &s.worlds else {
        panic!("3D")
    };
    let vp = viewport(w, &s.view);
    let poses: Vec<_> = w.bodies.iter().map(|b| b.pose).collect();
    let c = render::<Dim3>(w, &poses, &[], &vp, "t=0");
    assert_ne!(pixel(&c, vp.px(Vec2::new(2.0, 2.0))), BACKGROUND);
    assert_ne!(pixel(&c, vp.px(Vec2::new(-2.0, -2.0))), BACKGROUND);
    assert_eq!(pixel(&c, vp.px(Vec2::new(2.0, -2.0))), BACKGROUND);
    // A corner of the ball's bounding square is outside its circle.
    assert_eq!(pixel(&c, vp.px(Vec2::new(2.85, 2.85))), BACKGROUND);
}

#[test]
fn dynamic_bodies_need_mass() {
    let t = r#"{"dimension": 2, "bodies": [
  {"name": "ghost", "colliders": [
    {"shape": {"type": "circle", "radius": 1}, "density": 0}]}]}"#;
    fails(
        t,
        "bodies[0].colliders",
        "[",
        "a dynamic body needs a mass > 0, got 0",
    );
    let t = r#"{"dimension": 2, "bodies": [
  {"name": "stick", "colliders": [{"shape": {"type": "segment", "a": [0, 0], "b": [1, 0]}}]}]}"#;
    fails(
        t,
        "bodies[0].colliders",
        "[",
        "a dynamic body needs a mass > 0",
    );
    // Static, the same body is fine.
    load(&t.replace("\"stick\",", "\"stick\", \"kind\": \"static\","));
    let t = r#"{"dimension": 3, "bodies": [
  {"name": "plane", "colliders": [{"shape": {"type": "halfspace", "normal": [0, 1, 0]}}]}]}"#;
    fails(
        t,
        "bodies[0].colliders[0].shape",
        "{\"type\": \"halfspace\"",
        "a dynamic body's collider needs a finite mass",
    );
}
