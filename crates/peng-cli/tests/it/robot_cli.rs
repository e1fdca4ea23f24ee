//! `peng robot`: the bundled run, its pictures, user files and errors.

use crate::common::{fails, fresh_dir, gif_frames, ok, peng};
use std::path::Path;

/// The bundled arm (examples/robot/), read from the repository.
fn example(name: &str) -> String {
    format!("{}/../../examples/robot/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// (orange, blue) pixel counts of a decoded RGB(A) picture: shades of the
/// clash colours (232, 120, 40) and (52, 120, 210).
fn orange_blue(rgb: &[u8], channels: usize) -> (usize, usize) {
    let (mut o, mut b) = (0, 0);
    for p in rgb.chunks(channels) {
        let (r, g, bl) = (p[0] as i32, p[1] as i32, p[2] as i32);
        o += (r > g + 30 && g > bl + 20) as usize;
        b += (bl > r + 60) as usize;
    }
    (o, b)
}

/// Decodes a PNG file: (width, height, pixels, channels).
fn decode_png(path: &Path) -> (u32, u32, Vec<u8>, usize) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    (info.width, info.height, buf, channels)
}

/// The plain run: the report says that the waypoints are free and that
/// segment 1 hits the part between them; nothing is written.
#[test]
fn the_bundled_run_reports_the_contact_between_free_waypoints() {
    let d = fresh_dir("robot_default");
    let out = ok(&peng(&d, "robot", &[]));
    for want in [
        "robot peng_arm (<bundled examples/robot/arm.urdf>): 8 links, 5 joints",
        "objects (<bundled examples/robot/cell.json>): table, part, post",
        "trajectory <bundled examples/robot/motion.csv>: 5 waypoints, 4 segments",
        "segment 1 (1 → 2)  CONTACT: gripper hits object part at s = 0.413 (first touch)",
        "summary: 5 of 5 waypoints free, 3 of 4 segments free\n  \
         first contact: segment 1 (1 → 2) hits part at s = 0.413",
        "(add --png robot.png --gif robot.gif to draw it)",
    ] {
        assert!(out.contains(want), "{want:?} not in\n{out}");
    }
    assert_eq!(out.matches("  free, closest").count(), 5, "{out}");
    assert_eq!(out.matches("CONTACT").count(), 1, "{out}");
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "wrote a file");
    // The same files given by name give the same report, but for the names.
    let named = ok(&peng(
        &d,
        "robot",
        &[
            &example("arm.urdf"),
            "--srdf",
            &example("arm.srdf"),
            "--scene",
            &example("cell.json"),
            "--trajectory",
            &example("motion.csv"),
        ],
    ));
    let body = |s: &str| s.lines().skip(3).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&named), body(&out));
}

#[test]
fn the_pictures_show_the_contact_and_the_motion() {
    let d = fresh_dir("robot_pictures");
    let out = ok(&peng(
        &d,
        "robot",
        &[
            "--png", "r.png", "--gif", "r.gif", "--width", "320", "--height", "240",
        ],
    ));
    assert!(out.contains("wrote r.png\n"), "{out}");
    // 16 pictures for each of the 4 segments, the first contact, the end.
    assert!(out.contains("wrote r.gif (66 pictures)\n"), "{out}");
    assert!(!out.contains("(add --png"), "{out}");
    let (w, h, px, channels) = decode_png(&d.join("r.png"));
    assert_eq!((w, h), (320, 240));
    let (o, b) = orange_blue(&px, channels);
    assert!(o > 30 && b > 30, "orange {o}, blue {b}");
    let (w, h, images, delays) = gif_frames(&std::fs::read(d.join("r.gif")).unwrap());
    assert_eq!((w, h, images), (320, 240, 66));
    // The first contact is held 1.5 s, the waypoints 0.4 s, the rest 8 cs.
    assert_eq!(
        delays.iter().filter(|&&c| c == 150).count(),
        1,
        "{delays:?}"
    );
    assert!(
        delays.iter().filter(|&&c| c == 8).count() > 50,
        "{delays:?}"
    );
}

#[test]
fn json_goes_alone_to_standard_output() {
    let d = fresh_dir("robot_json");
    let out = ok(&peng(&d, "robot", &["--json", "--png", "r.png"]));
    let v: serde_json::Value = serde_json::from_str(&out).expect("only JSON");
    assert_eq!(v["format"], "peng-robot/1");
    assert_eq!(v["summary"]["first_contact"]["segment"], 1);
    assert_eq!(v["segments"][1]["contact"]["pair"]["other"], "part");
    assert!(d.join("r.png").is_file());
}

/// A user trajectory for the bundled arm, with a reordering header and
/// comments, that stays clear: every segment free, and the PNG shows where
/// it comes closest (both colours).
#[test]
fn a_free_trajectory_with_a_header_in_another_order() {
    let d = fresh_dir("robot_free");
    std::fs::write(
        d.join("m.csv"),
        "# wrist first\nwrist_roll,wrist_pitch,elbow,shoulder,base_yaw\n\
         0,0,0,0,0\n\n0.5,0.3,0.4,0.2,1.0\n# back\n0,0,0,0,0\n",
    )
    .unwrap();
    let out = ok(&peng(
        &d,
        "robot",
        &["--trajectory", "m.csv", "--png", "f.png"],
    ));
    assert!(
        out.contains("trajectory m.csv: 3 waypoints, 2 segments"),
        "{out}"
    );
    assert!(out.contains("waypoint 1 (line 5)  free"), "{out}");
    assert!(out.contains("joints (base_yaw, shoulder, elbow, wrist_pitch, wrist_roll)"));
    assert!(
        out.contains("summary: 3 of 3 waypoints free, 2 of 2 segments free\n  least clearance: "),
        "{out}"
    );
    let (_, _, px, channels) = decode_png(&d.join("f.png"));
    let (o, b) = orange_blue(&px, channels);
    assert!(o > 30 && b > 30, "orange {o}, blue {b}");
}

/// A URDF of its own, without a trajectory: its zero configuration, clamped
/// into the limits, is the only waypoint.
#[test]
fn a_urdf_alone_checks_its_zero_configuration() {
    let d = fresh_dir("robot_zero");
    std::fs::write(
        d.join("two.urdf"),
        r#"<robot name="two">
  <link name="a"><collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <link name="b"><collision><origin xyz="0.5 0 0"/><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="c"><collision><origin xyz="0.3 0 0"/><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="lift" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="0.3" upper="1"/></joint>
  <joint name="turn" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1"/></joint>
</robot>"#,
    )
    .unwrap();
    let out = ok(&peng(&d, "robot", &["two.urdf", "--gif", "z.gif"]));
    assert!(
        out.contains(
            "trajectory (the zero configuration; no --trajectory): 1 waypoint, 0 segments"
        ),
        "{out}"
    );
    assert!(out.contains("objects: none (no --scene)"), "{out}");
    // Only a and c are checked (b is adjacent to both). The lift clamped
    // to 0.3 puts c's ball at (0.3, 0, 0.3): 0.2 √2 - 0.1 from the box (at
    // lift 0 it would be 0.1).
    assert!(
        out.contains("waypoint 0  free, closest 0.1828 m: a — c\n"),
        "{out}"
    );
    assert!(
        out.contains("summary: 1 of 1 waypoint free\n  least clearance: 0.1828 m (waypoint 0)\n"),
        "{out}"
    );
    let (_, _, images, _) = gif_frames(&std::fs::read(d.join("z.gif")).unwrap());
    assert_eq!(images, 1);
}

#[test]
fn bad_input_names_the_file() {
    let d = fresh_dir("robot_errors");
    let err = fails(&peng(&d, "robot", &["missing.urdf"]));
    assert!(
        err.starts_with("error: missing.urdf: cannot read the file"),
        "{err}"
    );

    std::fs::write(
        d.join("bad.urdf"),
        "<robot name=\"x\"><link name=\"a\"/><joint/></robot>",
    )
    .unwrap();
    let err = fails(&peng(&d, "robot", &["bad.urdf"]));
    assert!(err.starts_with("error: bad.urdf:1: "), "{err}");

    let err = fails(&peng(&d, "robot", &["--scene", "nowhere.json"]));
    assert!(err.contains("cannot read scene file nowhere.json"), "{err}");
    let err = fails(&peng(&d, "robot", &["--trajectory", "nowhere.csv"]));
    assert!(
        err.contains("cannot read trajectory file nowhere.csv"),
        "{err}"
    );
    let err = fails(&peng(&d, "robot", &["--srdf", "nowhere.srdf"]));
    assert!(err.contains("nowhere.srdf: cannot read the file"), "{err}");

    std::fs::write(
        d.join("flat.json"),
        r#"{"dimension": 2, "shapes": [{"name": "c", "shape": {"type": "circle", "radius": 1}}]}"#,
    )
    .unwrap();
    let err = fails(&peng(&d, "robot", &["--scene", "flat.json"]));
    assert!(err.contains("flat.json: a 2D scene"), "{err}");

    std::fs::write(d.join("far.csv"), "0,0,0,0,0\n0,0,9,0,0\n").unwrap();
    let err = fails(&peng(&d, "robot", &["--trajectory", "far.csv"]));
    assert_eq!(
        err.trim(),
        "error: far.csv:2: joint \"elbow\": value 9 is outside its limits [-2.5, 2.5]"
    );
    std::fs::write(d.join("nan.csv"), "0,0,0,0,0\n0,0,x,0,0\n").unwrap();
    let err = fails(&peng(&d, "robot", &["--trajectory", "nan.csv"]));
    assert_eq!(
        err.trim(),
        "error: nan.csv:2: column 3 (elbow): \"x\" is not a number"
    );

    // A picture that cannot be written names its file.
    let err = fails(&peng(&d, "robot", &["--png", "no/such/dir/r.png"]));
    assert!(err.contains("no/such/dir/r.png"), "{err}");

    // A usage error is status 2.
    let out = peng(&d, "robot", &["--meshes", "voxels"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The Panda from the reference data: meshes found through `--package`,
/// as hulls and as triangle meshes, along a two-waypoint trajectory.
#[test]
fn the_panda_with_package_meshes() {
    let d = fresh_dir("robot_panda");
    let data = format!("{}/../../data/robots", env!("CARGO_MANIFEST_DIR"));
    let panda = format!("{data}/example-robot-data/robots/panda_description");
    std::fs::write(
        d.join("p.csv"),
        "panda_joint1,panda_joint2,panda_joint3,panda_joint4,panda_joint5,panda_joint6,\
         panda_joint7,panda_finger_joint1\n0,0,0,-1.5,0,1.5,0.78,0.02\n0,1.2,0,-0.5,0,1.5,0.78,0.02\n",
    )
    .unwrap();
    let urdf = format!("{panda}/urdf/panda.urdf");
    let srdf = format!("{panda}/srdf/panda.srdf");
    let args = [
        &urdf,
        "--srdf",
        &srdf,
        "--package",
        &data,
        "--trajectory",
        "p.csv",
    ];
    for meshes in ["hull", "mesh"] {
        let mut a: Vec<&str> = args.to_vec();
        a.extend(["--meshes", meshes, "--png", "p.png"]);
        let out = ok(&peng(&d, "robot", &a));
        assert!(out.contains("robot panda ("), "{out}");
        assert!(out.contains("13 links, 8 joints"), "{out}");
        assert!(
            out.contains("summary: 2 of 2 waypoints free, 1 of 1 segment free"),
            "{out}"
        );
        assert!(d.join("p.png").is_file());
    }
    // Without the package folder the mesh is not found, and the error says
    // where it looked.
    let err = fails(&peng(&d, "robot", &[&urdf]));
    assert!(
        err.contains("panda.urdf: link \"panda_link0\": mesh \"package://example-robot-data/"),
        "{err}"
    );
    assert!(err.contains("none given"), "{err}");
}
