//! The bundled example, checked through the code the command runs and
//! against peng-robot directly: every waypoint free, one segment sweeping
//! the gripper through the part between two of them.

use super::analysis::{analyse, lerp, SegmentCheck};
use super::args::{MeshesArg, RobotArgs};
use super::load::{load, Inputs};
use super::report;
use peng_robot::{MotionResult, Other, Stop};

/// The arguments of a plain `peng robot`.
fn no_args() -> RobotArgs {
    RobotArgs {
        urdf: None,
        srdf: None,
        scene: None,
        trajectory: None,
        package: Vec::new(),
        meshes: MeshesArg::Hull,
        png: None,
        gif: None,
        width: 640,
        height: 480,
        json: false,
    }
}

fn bundled() -> Inputs {
    load(&no_args()).expect("the bundled example loads")
}

#[test]
fn the_bundled_files_load() {
    let i = bundled();
    let r = &i.checker.robot;
    assert_eq!(r.name, "peng_arm");
    let joints: Vec<&str> = r
        .active_joints()
        .iter()
        .map(|&j| r.joints[j].name.as_str())
        .collect();
    assert_eq!(
        joints,
        ["base_yaw", "shoulder", "elbow", "wrist_pitch", "wrist_roll"]
    );
    assert_eq!(i.objects, ["table", "part", "post"]);
    assert_eq!(i.trajectory.waypoints.len(), 5);
    // The SRDF's three pairs are left out.
    let finger = |n: &str| r.link(n).unwrap();
    let pair = (finger("finger_left"), finger("finger_right"));
    assert!(!i.checker.self_pairs().contains(&pair));
    assert!(i.srdf.is_some() && i.scene.is_some() && i.trajectory_source.is_some());
}

/// Every waypoint is free; segment 1 (waypoint 1 to 2) alone meets
/// something: the gripper touches the part at s strictly inside the
/// segment, and is in contact a little later; sampling the segment at
/// tenths (as a coarse sampling planner would) finds every sample free.
#[test]
fn the_bundled_motion_hits_the_part_between_free_waypoints() {
    let i = bundled();
    let c = &i.checker;
    let w = &i.trajectory.waypoints;
    for (k, q) in w.iter().enumerate() {
        assert!(c.check(q, Stop::Never).unwrap().is_empty(), "waypoint {k}");
    }
    let a = analyse(c, w).unwrap();
    assert_eq!(a.waypoints_free(), 5);
    assert_eq!(a.segments_free(), 3);
    let (seg, first) = a.first_contact().expect("a contact");
    assert_eq!(seg, 1);
    let (link, other) = report::pair_names(c, &i.objects, &first.pair);
    assert_eq!((link, other), ("gripper", "part"));
    assert!(matches!(first.pair.other, Other::Object(1)));
    assert!(first.s > 0.0 && first.s < 1.0, "s = {}", first.s);
    assert!((first.s - 0.413).abs() < 0.01, "s = {}", first.s);
    // peng-robot directly agrees.
    match c.check_motion(&w[1], &w[2]).unwrap() {
        MotionResult::Contact { s, .. } => assert_eq!(s, first.s),
        free => panic!("{free:?}"),
    }
    // Just before: free; a little after: in contact with the part.
    let before = c
        .check(&lerp(&w[1], &w[2], first.s - 0.01), Stop::Never)
        .unwrap();
    assert!(before.is_empty(), "{before:?}");
    let after = c
        .check(&lerp(&w[1], &w[2], first.s + 0.02), Stop::Never)
        .unwrap();
    assert!(
        after
            .iter()
            .any(|p| p.other == Other::Object(1) && p.distance < 0.0),
        "{after:?}"
    );
    // Eleven samples (s = 0, 0.1, ..., 1) miss it.
    for k in 0..=10 {
        let q = lerp(&w[1], &w[2], k as f64 / 10.0);
        assert!(c.check(&q, Stop::Never).unwrap().is_empty(), "sample {k}");
    }
    // The other segments are free with a positive clearance.
    for (k, s) in a.segments.iter().enumerate() {
        if k != 1 {
            assert!(
                matches!(s, SegmentCheck::Free(Some(d)) if *d > 0.01),
                "{k}: {s:?}"
            );
        }
    }
    // The samples past the contact: some in contact, some past it free.
    let after = &first.after;
    assert_eq!(after.samples, 50);
    assert!(after.in_contact >= 3 && after.in_contact < 50, "{after:?}");
    let (ds, deepest) = after.deepest.unwrap();
    assert!(deepest.distance < -0.01 && ds > first.s, "{after:?}");
    let last = after.last_contact_s.unwrap();
    assert!(last > ds && last < 0.5, "{after:?}");
}

#[test]
fn the_text_report_says_what_happened() {
    let i = bundled();
    let a = analyse(&i.checker, &i.trajectory.waypoints).unwrap();
    let t = report::text(&i, &a);
    for want in [
        "waypoint 1 (line 4)  free",
        "segment 0 (0 → 1)  free, least distance measured along the way",
        "segment 1 (1 → 2)  CONTACT: gripper hits object part at s = 0.413 (first touch)\n",
        "      joints at s = 0.413: base_yaw -1.361, shoulder 0.730, elbow 0.878, \
         wrist_pitch 1.533, wrist_roll 1.571\n",
        "      sampled past it (50 points to s = 1): ",
        "\nsummary: 5 of 5 waypoints free, 3 of 4 segments free\n  first contact: segment 1 \
         (1 → 2) hits part at s = 0.413, between two free waypoints (checking the \
         waypoints alone misses it)\n  least clearance of the free part: ",
    ] {
        assert!(t.contains(want), "{want:?} not in\n{t}");
    }
}

#[test]
fn the_json_report_follows_its_schema() {
    let i = bundled();
    let a = analyse(&i.checker, &i.trajectory.waypoints).unwrap();
    let v: serde_json::Value = serde_json::from_str(&report::json(&i, &a)).unwrap();
    assert_eq!(v["format"], "peng-robot/1");
    assert_eq!(v["robot"], "peng_arm");
    assert_eq!(v["joints"].as_array().unwrap().len(), 5);
    assert_eq!(v["waypoints"].as_array().unwrap().len(), 5);
    assert_eq!(v["waypoints"][1]["line"], 4);
    assert_eq!(v["waypoints"][1]["free"], true);
    let seg = &v["segments"][1];
    assert_eq!(
        (seg["from"].as_u64(), seg["to"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(seg["free"], false);
    assert!(seg["clearance"].is_null());
    let contact = &seg["contact"];
    assert_eq!(contact["pair"]["link"], "gripper");
    assert_eq!(contact["pair"]["other"], "part");
    assert_eq!(contact["pair"]["other_kind"], "object");
    assert_eq!(contact["q"].as_array().unwrap().len(), 5);
    assert_eq!(contact["after"]["samples"], 50);
    assert!(v["segments"][0]["clearance"].as_f64().unwrap() > 0.0);
    let sum = &v["summary"];
    assert_eq!(sum["waypoints_free"], 5);
    assert_eq!(sum["segments_free"], 3);
    assert_eq!(sum["first_contact"]["segment"], 1);
    assert!(sum["min_clearance"].as_f64().unwrap() > 0.0);
}
