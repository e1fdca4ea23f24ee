//! URDF and SRDF reading and forward kinematics: the Franka Panda from the
//! project's data, closed forms on small planar arms, and the errors for
//! bad input (each naming its line and element).

use glam::DVec3;
use peng_robot::{srdf, urdf, JointKind, Robot};
use std::f64::consts::FRAC_PI_2;
use std::path::PathBuf;

fn panda_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/robots/example-robot-data/robots/panda_description")
}

fn panda() -> Robot {
    urdf::read_file(panda_dir().join("urdf/panda.urdf")).expect("the Panda reads")
}

#[test]
fn panda_links_joints_and_configuration_order() {
    let r = panda();
    assert_eq!(r.name, "panda");
    assert_eq!((r.links.len(), r.joints.len()), (13, 12));
    assert_eq!(r.links[r.root()].name, "panda_link0");
    let active: Vec<&str> = r
        .active_joints()
        .iter()
        .map(|&j| r.joints[j].name.as_str())
        .collect();
    assert_eq!(
        active,
        [
            "panda_joint1",
            "panda_joint2",
            "panda_joint3",
            "panda_joint4",
            "panda_joint5",
            "panda_joint6",
            "panda_joint7",
            "panda_finger_joint1"
        ]
    );
    let f2 = &r.joints[r.joint("panda_finger_joint2").unwrap()];
    assert_eq!(f2.kind, JointKind::Prismatic);
    assert_eq!(
        f2.mimic.map(|m| r.joints[m.joint].name.as_str()),
        Some("panda_finger_joint1")
    );
    let j4 = &r.joints[r.joint("panda_joint4").unwrap()].limits.unwrap();
    assert_eq!((j4.lower, j4.upper), (-3.0718, -0.0698));
    // Nine links carry meshes, the fingers four boxes each.
    let left = &r.links[r.link("panda_leftfinger").unwrap()];
    assert_eq!(left.collisions.len(), 4);
}

#[test]
fn panda_flange_in_the_x_z_plane() {
    // Joint 4's limits exclude 0, so q4 sits at its upper limit; with every
    // other joint at 0 the arm is a chain in the x-z plane, and its flange
    // has a closed form.
    let r = panda();
    let q4 = -0.0698f64;
    let q = [0.0, 0.0, 0.0, q4, 0.0, 0.0, 0.0, 0.0];
    let poses = r.link_poses(&q).unwrap();
    let flange = poses[r.link("panda_link8").unwrap()].translation;
    // Up 0.333 + 0.316 to joint 4 at x = 0.0825; beyond it the forearm
    // (-0.0825 along x, 0.384 up), the wrist offset 0.088 and the flange
    // 0.107 down, all turned by q4 about joint 4's axis (-y in the world).
    let (s, c) = q4.sin_cos();
    // A turn by q4 about -y is a turn by -q4 about +y.
    let turn = |x: f64, z: f64| DVec3::new(c * x - s * z, 0.0, s * x + c * z);
    let expected = DVec3::new(0.0825, 0.0, 0.649) + turn(-0.0825 + 0.088, 0.384 - 0.107);
    assert!(
        (flange - expected).length() < 1e-12,
        "{flange} vs {expected}"
    );
}

#[test]
fn panda_fingers_follow_the_mimic_joint() {
    let r = panda();
    for w in [0.0, 0.013, 0.04] {
        let q = [0.0, 0.0, 0.0, -1.5, 0.0, 1.5, 0.0, w];
        let p = r.link_poses(&q).unwrap();
        let (l, rt) = (
            p[r.link("panda_leftfinger").unwrap()],
            p[r.link("panda_rightfinger").unwrap()],
        );
        assert!((l.translation.distance(rt.translation) - 2.0 * w).abs() < 1e-12);
    }
}

#[test]
fn panda_srdf_groups_states_and_disabled_pairs() {
    let r = panda();
    let s = srdf::read_file(panda_dir().join("srdf/panda.srdf"), &r).unwrap();
    let names: Vec<&str> = s.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["arm", "hand", "arm_and_hand"]);
    assert_eq!(s.groups[0].joints.len(), 7);
    assert_eq!(s.groups[2].joints.len(), 8);
    assert_eq!(s.states.len(), 1);
    assert_eq!(s.states[0].values.len(), 8);
    assert_eq!(s.disabled.len(), 35);
    let (hand, left, l3) = (
        r.link("panda_hand").unwrap(),
        r.link("panda_leftfinger").unwrap(),
        r.link("panda_link3").unwrap(),
    );
    assert!(s.is_disabled(left, hand) && s.is_disabled(hand, l3));
    assert!(!s.is_disabled(r.link("panda_link0").unwrap(), hand));
}

/// A planar arm of `lengths` along x, each joint revolute about z.
fn planar_arm(lengths: &[f64]) -> Robot {
    let mut x = String::from("<robot name=\"planar\"><link name=\"l0\"/>");
    let mut prev = 0.0;
    for (i, l) in lengths.iter().enumerate() {
        x += &format!(
            "<link name=\"l{}\"/><joint name=\"j{i}\" type=\"revolute\"><parent link=\"l{i}\"/><child link=\"l{}\"/>\
             <origin xyz=\"{prev} 0 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-3.2\" upper=\"3.2\" effort=\"1\" velocity=\"1\"/></joint>",
            i + 1,
            i + 1
        );
        prev = *l;
    }
    x += &format!("<link name=\"tip\"/><joint name=\"tip\" type=\"fixed\"><parent link=\"l{}\"/><child link=\"tip\"/><origin xyz=\"{prev} 0 0\"/></joint></robot>", lengths.len());
    urdf::parse(&x).unwrap()
}

#[test]
fn planar_arms_reach_their_closed_form_tips() {
    for lengths in [&[1.0, 0.5][..], &[1.0, 0.8, 0.5][..]] {
        let r = planar_arm(lengths);
        let tip = r.link("tip").unwrap();
        let mut seed = 7u64;
        for _ in 0..200 {
            let q: Vec<f64> = lengths
                .iter()
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 11) as f64 / (1u64 << 53) as f64) * 6.2 - 3.1
                })
                .collect();
            let p = r.link_poses(&q).unwrap()[tip].translation;
            let (mut a, mut want) = (0.0, DVec3::ZERO);
            for (l, qi) in lengths.iter().zip(&q) {
                a += qi;
                want += DVec3::new(a.cos(), a.sin(), 0.0) * *l;
            }
            assert!((p - want).length() < 1e-12, "{q:?}: {p} vs {want}");
        }
        // Straight up at the first joint, folded back at the second.
        let mut q = vec![0.0; lengths.len()];
        q[0] = FRAC_PI_2;
        let p = r.link_poses(&q).unwrap()[tip].translation;
        assert!((p - DVec3::new(0.0, lengths.iter().sum(), 0.0)).length() < 1e-12);
    }
}

/// The message of a parse error, with its line.
fn err(text: &str) -> String {
    urdf::parse(text).unwrap_err().to_string()
}

#[test]
fn bad_files_name_their_line_and_element() {
    let e = err("<robot name=\"r\">\n<link name=\"a\">\n</robot>");
    assert!(e.starts_with("line 3: XML:"), "{e}");
    let e = err("<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>\n<joint name=\"j\" type=\"screw\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>");
    assert_eq!(e, "line 2: <joint name=\"j\">: unknown joint type \"screw\" (revolute, continuous, prismatic or fixed)");
    let e = err("<robot name=\"r\"><link name=\"a\"/>\n<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/>\n<child link=\"nowhere\"/></joint></robot>");
    assert_eq!(
        e,
        "line 3: <child>: names link \"nowhere\", which the file does not define"
    );
    let e = err("<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>");
    assert!(
        e.contains("<joint name=\"j\">: is revolute and has no <limit>"),
        "{e}"
    );
    let e = err("<robot name=\"r\"><link name=\"a\"><collision><geometry><sphere radius=\"-1\"/></geometry></collision></link></robot>");
    assert!(
        e.contains("<sphere>: `radius` must be positive, got -1"),
        "{e}"
    );
    let e = err("<robot name=\"r\"><link name=\"a\"><collision><origin xyz=\"0 NaN 0\"/><geometry><sphere radius=\"1\"/></geometry></collision></link></robot>");
    assert!(e.contains("<origin>: `xyz` is not finite"), "{e}");
    let e = err("<robot name=\"r\"><link name=\"a\"/>\n<link name=\"a\"/></robot>");
    assert_eq!(
        e,
        "line 2: <link name=\"a\">: repeats the link name of line 1"
    );
    // Two joints into one link, a cycle, two trees.
    let two = "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\
        <joint name=\"x\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint>\
        <joint name=\"y\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint></robot>";
    assert!(
        err(two).contains("link \"c\": is the child of two joints, \"x\" and \"y\""),
        "{}",
        err(two)
    );
    let cycle = "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>\
        <joint name=\"x\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\
        <joint name=\"y\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint></robot>";
    assert!(err(cycle).contains("has no root link"), "{}", err(cycle));
    let apart = "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/></robot>";
    assert!(
        err(apart).contains("has 2 links that are no joint's child (a, b)"),
        "{}",
        err(apart)
    );
}

#[test]
fn bad_configurations_name_the_joint() {
    let r = panda();
    let e = r.link_poses(&[0.0; 7]).unwrap_err().to_string();
    assert_eq!(
        e,
        "configuration of robot \"panda\": has 7 values; the robot has 8 active joints"
    );
    let e = r.link_poses(&[0.0; 8]).unwrap_err().to_string();
    assert_eq!(
        e,
        "joint \"panda_joint4\": value 0 is outside its limits [-3.0718, -0.0698]"
    );
    let e = r
        .link_poses(&[f64::NAN, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0])
        .unwrap_err()
        .to_string();
    assert_eq!(e, "joint \"panda_joint1\": value NaN is not finite");
}

#[test]
fn missing_files_and_unknown_srdf_names_are_errors() {
    let e = urdf::read_file("/nonexistent/robot.urdf")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("/nonexistent/robot.urdf: cannot read the file"),
        "{e}"
    );
    let r = panda();
    let e = srdf::parse(
        "<robot name=\"panda\">\n<disable_collisions link1=\"panda_hand\" link2=\"wing\"/></robot>",
        &r,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "line 2: <disable_collisions>: names link \"wing\", which robot \"panda\" does not have"
    );
    let e = srdf::parse("<robot name=\"panda\"><group name=\"a\"><group name=\"b\"/></group>\n<group name=\"b\"><group name=\"a\"/></group></robot>", &r)
        .unwrap_err()
        .to_string();
    assert!(e.contains("contains itself through its subgroups"), "{e}");
}
