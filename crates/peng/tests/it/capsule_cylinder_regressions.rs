//! Capsules against cylinders whose normal was 1e-4 to 3e-4 rad off a cap
//! normal or a rim direction (found by the differential test against parry
//! on fresh seeds): `distance` had the right value, but the support planes
//! along its normal were up to 4.4e-4 closer than that distance (at a flat
//! face the gap falls off linearly with the normal's error), and `contact`
//! measured its depth along such a normal (the overlap along any direction
//! is at least the penetration depth: 4.8e-4 too deep).
//!
//! Truth, in f64 from the same f32 inputs and no peng query: the capsule's
//! core is apart from the cylinder, so the signed distance is the minimum
//! over the core parameter `s` of the distance from `p(s)` to the cylinder
//! (a convex function of `s`: golden-section search) minus the radius, and
//! the normal is the direction between the closest points.

use glam::{DQuat, DVec3};
use peng::d3::*;

/// A pose from its f32 fields, as printed by the failing run.
fn pose(t: [f32; 3], q: [f32; 4]) -> Pose3 {
    Pose3::new(Vec3::from(t), Quat::from_xyzw(q[0], q[1], q[2], q[3]))
}

fn rot(p: &Pose3) -> DQuat {
    let q = p.rotation;
    DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize()
}

/// The closest point of a cylinder (half height `h`, radius `r`, axis Y, its
/// own frame) to the outside point `c`.
fn cylinder_closest(h: f64, r: f64, c: DVec3) -> DVec3 {
    let rho = c.x.hypot(c.z);
    let k = if rho > r { r / rho } else { 1.0 };
    DVec3::new(c.x * k, c.y.clamp(-h, h), c.z * k)
}

/// One capsule-cylinder case: shapes and world poses.
struct Case {
    cyl: (f32, f32),
    cap: ([f32; 3], [f32; 3], f32),
    pose_cyl: Pose3,
    pose_cap: Pose3,
}

/// The f64 truth: signed distance and the unit normal from the cylinder to
/// the capsule (world).
struct Truth {
    distance: f64,
    normal: DVec3,
}

impl Case {
    fn shapes(&self) -> (Shape, Shape) {
        let cyl = Cylinder::new(self.cyl.0, self.cyl.1).unwrap().into();
        let (a, b, r) = self.cap;
        let cap = Capsule::new(Vec3::from(a), Vec3::from(b), r)
            .unwrap()
            .into();
        (cyl, cap)
    }

    /// The capsule's core ends in the cylinder's frame.
    fn core_in_cylinder(&self) -> (DVec3, DVec3) {
        let (qc, qk) = (rot(&self.pose_cyl), rot(&self.pose_cap));
        let (tc, tk) = (
            self.pose_cyl.translation.as_dvec3(),
            self.pose_cap.translation.as_dvec3(),
        );
        let local = |p: [f32; 3]| qc.inverse() * (qk * Vec3::from(p).as_dvec3() + tk - tc);
        (local(self.cap.0), local(self.cap.1))
    }

    fn truth(&self) -> Truth {
        let (h, r) = (self.cyl.0 as f64, self.cyl.1 as f64);
        let (p0, p1) = self.core_in_cylinder();
        let at = |s: f64| p0 + (p1 - p0) * s;
        let f = |s: f64| at(s).distance(cylinder_closest(h, r, at(s)));
        // Golden-section search of the convex f on [0, 1].
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..200 {
            let (x1, x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
            if f(x1) <= f(x2) {
                hi = x2;
            } else {
                lo = x1;
            }
        }
        let s = [0.0, 1.0, 0.5 * (lo + hi)]
            .into_iter()
            .min_by(|x, y| f(*x).total_cmp(&f(*y)))
            .unwrap();
        let p = at(s);
        let q = cylinder_closest(h, r, p);
        assert!(
            p.distance(q) > 1e-3,
            "the core must be apart from the cylinder"
        );
        Truth {
            distance: p.distance(q) - self.cap.2 as f64,
            normal: rot(&self.pose_cyl) * (p - q).normalize(),
        }
    }

    /// The separation of the support planes along `n` (world, from the
    /// cylinder to the capsule): `min_B n·x − max_A n·x`. It equals the
    /// signed distance at the true normal and is smaller at any other.
    fn separation(&self, n: DVec3) -> f64 {
        let (h, r) = (self.cyl.0 as f64, self.cyl.1 as f64);
        let v = rot(&self.pose_cyl).inverse() * n;
        let max_cyl =
            r * v.x.hypot(v.z) + h * v.y.abs() + n.dot(self.pose_cyl.translation.as_dvec3());
        let (qk, tk) = (rot(&self.pose_cap), self.pose_cap.translation.as_dvec3());
        let end = |p: [f32; 3]| n.dot(qk * Vec3::from(p).as_dvec3() + tk);
        let min_cap = end(self.cap.0).min(end(self.cap.1)) - self.cap.2 as f64 * n.length();
        min_cap - max_cyl
    }

    /// Checks `distance` and `contact` in both argument orders.
    fn check(&self) {
        let t = self.truth();
        let (cyl, cap) = self.shapes();
        // (A, pose A, B, pose B, sign turning the normal into cylinder→capsule)
        let orders = [
            (
                &cyl,
                &self.pose_cyl,
                &cap,
                &self.pose_cap,
                1.0,
                "cylinder, capsule",
            ),
            (
                &cap,
                &self.pose_cap,
                &cyl,
                &self.pose_cyl,
                -1.0,
                "capsule, cylinder",
            ),
        ];
        for (a, pa, b, pb, sign, name) in orders {
            let d = distance(a, pa, b, pb);
            self.check_answer(
                &t,
                d.distance as f64,
                d.normal,
                sign,
                &format!("distance({name})"),
            );
            if t.distance < 0.0 {
                let m = contact(a, pa, b, pb, 0.0).expect("overlapping pair has a contact");
                let what = format!("contact({name})");
                self.check_answer(&t, -m.depth() as f64, m.normal, sign, &what);
            }
        }
    }

    fn check_answer(&self, t: &Truth, sd: f64, n: Vec3, sign: f64, what: &str) {
        let n = n.as_dvec3() * sign;
        let ang = n.normalize().angle_between(t.normal);
        let sep = self.separation(n.normalize());
        assert!(
            (sd - t.distance).abs() < 2e-6,
            "{what}: signed distance {sd} vs truth {}",
            t.distance
        );
        assert!(
            ang < 1e-4,
            "{what}: normal {n} is {ang:.3e} rad off {}",
            t.normal
        );
        assert!(
            (sep - t.distance).abs() < 1e-5,
            "{what}: separation along the normal {sep} vs truth {}",
            t.distance
        );
    }
}

/// Seed 343366483, pair #30334 of `diff3d capsule_cylinder` (scale 4): the
/// capsule's end sphere overlaps the cylinder's cap by 0.1096; `contact`
/// said 0.1101 along a normal 1.35e-4 rad off the cap normal.
#[test]
fn overlapping_capsule_contact_has_the_true_depth_and_normal() {
    Case {
        cyl: (1.770_364_5, 1.773_503_2),
        cap: (
            [-0.071_645_215, -0.899_994_43, -0.216_109_72],
            [0.412_481_78, 1.029_475, 0.277_247_13],
            0.777_102,
        ),
        pose_cyl: pose(
            [-0.364_717_96, -3.561_701_3, 1.693_117_6],
            [-0.325_982_06, 0.150_175_45, -0.891_379_8, 0.276_812_43],
        ),
        pose_cap: pose(
            [0.892_182_6, -4.271_383_3, -1.736_753],
            [0.618_681_6, 0.049_700_37, 0.120_963_365, -0.774_681_1],
        ),
    }
    .check();
}

/// Seed 343366481, pair #20600: a thin capsule's end 0.2094 over a
/// cylinder's cap; `distance(capsule, cylinder)` had the value but a normal
/// 8.3e-5 rad off the cap normal (its support planes 0.20922 apart).
#[test]
fn thin_capsule_near_cylinder_has_the_true_normal() {
    Case {
        cyl: (1.003_432_8, 1.267_214_9),
        cap: (
            [-0.369_185_15, -0.032_003_835, 0.772_893_3],
            [0.075_445_71, 0.180_154_3, -0.839_036_35],
            0.183_079_06,
        ),
        pose_cyl: pose(
            [1.233_404_9, -1.876_638_5, -4.659_869],
            [-0.253_912_96, 0.675_725_8, 0.367_570_52, -0.586_357_3],
        ),
        pose_cap: pose(
            [0.248_278_14, -0.167_320_73, -3.010_791_8],
            [0.136_864_08, 0.235_516_62, 0.941_230_6, -0.199_712_75],
        ),
    }
    .check();
}

/// Seed 193171061, pair #15396: a fat capsule's end 0.2803 from a
/// cylinder's rim; `distance(capsule, cylinder)` had the value but a normal
/// 3.3e-4 rad off (its support planes 0.27989 apart).
#[test]
fn fat_capsule_near_cylinder_has_the_true_normal() {
    Case {
        cyl: (1.808_007_8, 1.426_102_9),
        cap: (
            [-1.056_617_3, -0.091_425_374, 0.536_630_15],
            [1.296_069_6, 0.061_531_495, -0.783_006_4],
            0.910_969_6,
        ),
        pose_cyl: pose(
            [2.317_561_1, -5.304_031, -5.687_410_4],
            [-0.412_285_36, -0.476_353_97, -0.762_311_5, -0.148_286_49],
        ),
        pose_cap: pose(
            [1.850_469_1, -3.923_531_5, -1.991_191_9],
            [-0.398_332_54, 0.340_614_53, 0.534_065_2, -0.663_390_76],
        ),
    }
    .check();
}
