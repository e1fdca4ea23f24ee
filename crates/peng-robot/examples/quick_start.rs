//! The README's robot example as a complete program: the Franka Panda from
//! `data/robots` (hulls of its meshes, its SRDF), one configuration checked
//! and measured, and one motion certified (run from the repository root or
//! anywhere: the data path is the crate's).
//!
//! ```text
//! cargo run -p peng-robot --example quick_start
//! ```
//! Exits non-zero if what it shows no longer holds.

use peng_robot::{link_shapes, srdf, urdf, Checker, MeshSource, MotionResult, Stop};
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/robots");
    let dir = data.join("example-robot-data/robots/panda_description");
    let robot = urdf::read_file(dir.join("urdf/panda.urdf"))?;
    let pairs = srdf::read_file(dir.join("srdf/panda.srdf"), &robot)?;
    let source = MeshSource {
        search_paths: vec![data],
        ..Default::default()
    };
    let checker = Checker::new(robot.clone(), link_shapes(&robot, &source)?, Some(&pairs));

    // The SRDF's first named pose: free, and how close it comes.
    let mut q = vec![0.0; robot.active_joints().len()];
    for (joint, value) in &pairs.states[0].values {
        let k = robot
            .active_joints()
            .iter()
            .position(|a| a == joint)
            .unwrap();
        q[k] = *value;
    }
    let contacts = checker.check(&q, Stop::AtFirst)?;
    let (closest, near) = checker.distance(&q, 0.05)?;
    let closest = closest.expect("pairs are checked");
    let name = |l: usize| robot.links[l].name.as_str();
    println!(
        "{}: {} contacts; closest {:.4} m, {} pairs within 5 cm",
        pairs.states[0].name,
        contacts.len(),
        closest.distance,
        near.len()
    );
    assert!(contacts.is_empty() && closest.distance > 0.0);

    // Leaning forward and folding the elbow all the way: the straight move
    // there brings the hand down onto the base.
    let mut folded = q.clone();
    folded[1] = 1.7;
    folded[3] = -3.0;
    match checker.check_motion(&q, &folded)? {
        MotionResult::Free { clearance } => {
            return Err(format!("expected a contact; free, {clearance:.4} m").into())
        }
        MotionResult::Contact { s, pair } => {
            let other = match pair.other {
                peng_robot::Other::Link(b) => name(b).to_string(),
                peng_robot::Other::Object(o) => format!("object {o}"),
            };
            println!(
                "first contact at s = {s:.3}: {} and {other}",
                name(pair.link)
            );
        }
    }
    Ok(())
}
