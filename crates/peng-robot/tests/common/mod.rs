//! What the robot tests (and the Pinocchio bench) share: the Panda of
//! `data/robots` with its SRDF, the 20-box cell of the reference scripts,
//! their SplitMix64 configurations, and the planar capsule arms whose
//! distances have closed forms.

// Each test file uses a part of this.
#![allow(dead_code)]

use glam::{DQuat, DVec3};
use peng::d3::Cuboid;
use peng_robot::{link_shapes, srdf, urdf, Checker, MeshMode, MeshSource, Robot, Transform};
use std::path::PathBuf;

/// The radius of the planar arms' capsules.
pub const R: f64 = 0.1;

/// `data/robots` of the repository.
pub fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/robots")
}

/// The Panda's URDF and SRDF folder.
pub fn panda_dir() -> PathBuf {
    data().join("example-robot-data/robots/panda_description")
}

/// The Panda (meshes as `mode`), its SRDF's pairs removed.
pub fn panda(mode: MeshMode) -> Checker {
    let r = urdf::read_file(panda_dir().join("urdf/panda.urdf")).unwrap();
    let s = srdf::read_file(panda_dir().join("srdf/panda.srdf"), &r).unwrap();
    let source = MeshSource {
        search_paths: vec![data()],
        base: None,
        mode,
    };
    Checker::new(r.clone(), link_shapes(&r, &source).unwrap(), Some(&s))
}

/// Adds the reference scripts' 20 boxes (`panda_boxes.csv`: centre, half
/// sides, a turn about z) as environment objects.
pub fn add_cell_boxes(c: &mut Checker) {
    let text = std::fs::read_to_string(data().join("reference/panda_boxes.csv")).unwrap();
    for line in text.lines().skip(1) {
        let v: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        let pose = Transform {
            rotation: DQuat::from_rotation_z(v[6]),
            translation: DVec3::new(v[0], v[1], v[2]),
        };
        let half = glam::Vec3::new(v[3] as f32, v[4] as f32, v[5] as f32);
        let cuboid = Cuboid::new(half).unwrap();
        c.environment.push((cuboid.into(), pose.to_pose()));
    }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014), as the reference scripts draw with it.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1) from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 * 2f64.powi(-53)
    }

    /// A configuration uniform within the limits of every active joint:
    /// `lower + (upper - lower) * u`, joint by joint (the scripts' order).
    pub fn config(&mut self, r: &Robot) -> Vec<f64> {
        r.active_joints()
            .iter()
            .map(|&j| {
                let l = r.joints[j].limits.unwrap();
                l.lower + (l.upper - l.lower) * self.unit()
            })
            .collect()
    }
}

/// The reference scripts' configurations, bit for bit (seed 20261130).
pub fn reference_configs(r: &Robot, count: usize) -> Vec<Vec<f64>> {
    let mut rng = SplitMix64(20261130);
    (0..count).map(|_| rng.config(r)).collect()
}

/// Uniform numbers in [0, 1) from a 64-bit LCG (Knuth's MMIX constants).
pub fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
    move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` unit links in the x-y plane, joints about z, each a capsule of
/// radius [`R`] along its link (URDF capsules stand along z: turned onto x).
pub fn planar_arm(n: usize) -> Checker {
    let mut x = String::from("<robot name=\"arm\"><link name=\"base\"/>");
    let mut parent = "base".to_string();
    for i in 0..n {
        x += &format!(
            "<link name=\"l{i}\"><collision><origin xyz=\"0.5 0 0\" rpy=\"0 1.5707963267948966 0\"/>\
             <geometry><capsule radius=\"{R}\" length=\"1\"/></geometry></collision></link>\
             <joint name=\"j{i}\" type=\"revolute\"><parent link=\"{parent}\"/><child link=\"l{i}\"/>\
             <origin xyz=\"{} 0 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-3.14\" upper=\"3.14\"/></joint>",
            if i == 0 { 0.0 } else { 1.0 }
        );
        parent = format!("l{i}");
    }
    x += "</robot>";
    let r = urdf::parse(&x).unwrap();
    let shapes = link_shapes(&r, &MeshSource::default()).unwrap();
    Checker::new(r, shapes, None)
}
