//! Scripted motion: a shape's pose over time from keyframes.
//!
//! A motion is a list of keyframes `(t, pose)` with strictly increasing,
//! finite, non-negative times. Between two keyframes the position moves
//! linearly and the rotation turns at a constant rate: in 2D the angle is
//! interpolated linearly (so 0° to 360° is one full turn), in 3D the
//! quaternions are slerped (the shorter arc, constant angular speed; Shoemake,
//! "Animating rotation with quaternion curves", SIGGRAPH 1985). Before the
//! first keyframe the first pose holds; after the last one the last pose holds,
//! or with `loop` the span from the first to the last keyframe repeats (the
//! pose jumps back to the first keyframe: repeat it at the end for a closed
//! path).

use super::build2;
use super::build3;
use super::defs::{Key2Def, Key3Def, MotionDef, RotationDef, V2, V3};
use super::error::Located;
use super::locate::Seg;
use super::typed::{index, key};
use peng::d2::{Pose2, Vec2};
use peng::d3::{Pose3, Quat, Vec3};

/// A keyframe's pose in a form that interpolates.
pub trait Key: Copy {
    /// The dimension's pose.
    type Pose;
    /// The value a fraction `s` in `[0, 1]` of the way from `self` to `o`.
    fn lerp(&self, o: &Self, s: f32) -> Self;
    /// The pose.
    fn pose(&self) -> Self::Pose;
}

/// A 2D keyframe pose: position and angle in radians (not wrapped).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key2 {
    /// Position.
    pub position: Vec2,
    /// Counter-clockwise angle, radians.
    pub angle: f32,
}

impl Key for Key2 {
    type Pose = Pose2;
    fn lerp(&self, o: &Self, s: f32) -> Self {
        Key2 {
            position: self.position.lerp(o.position, s),
            angle: self.angle + (o.angle - self.angle) * s,
        }
    }
    fn pose(&self) -> Pose2 {
        Pose2::new(self.position, self.angle)
    }
}

/// A 3D keyframe pose: position and unit quaternion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key3 {
    /// Position.
    pub position: Vec3,
    /// Orientation (unit).
    pub rotation: Quat,
}

impl Key for Key3 {
    type Pose = Pose3;
    fn lerp(&self, o: &Self, s: f32) -> Self {
        Key3 {
            position: self.position.lerp(o.position, s),
            // glam's slerp takes the shorter arc and falls back to a
            // normalized lerp for nearly equal rotations.
            rotation: self.rotation.slerp(o.rotation, s).normalize(),
        }
    }
    fn pose(&self) -> Pose3 {
        Pose3::new(self.position, self.rotation)
    }
}

/// A shape's motion: keyframes and whether they loop.
#[derive(Debug, Clone, PartialEq)]
pub struct Motion<K> {
    /// Keyframe times, strictly increasing, finite, >= 0 (at least one).
    times: Vec<f32>,
    /// The keyframe poses.
    keys: Vec<K>,
    /// Whether the span repeats.
    looped: bool,
}

impl<K: Key> Motion<K> {
    /// A motion from `(t, key)` pairs; `None` unless the times are finite,
    /// non-negative and strictly increasing and there is at least one.
    pub fn new(frames: Vec<(f32, K)>, looped: bool) -> Option<Self> {
        let ok = !frames.is_empty()
            && frames.iter().all(|(t, _)| t.is_finite() && *t >= 0.0)
            && frames.windows(2).all(|w| w[0].0 < w[1].0);
        ok.then(|| {
            let (times, keys) = frames.into_iter().unzip();
            Motion {
                times,
                keys,
                looped,
            }
        })
    }

    /// The interpolated key at time `t` (seconds).
    pub fn key_at(&self, t: f32) -> K {
        let (first, last) = (self.times[0], self.times[self.times.len() - 1]);
        let span = last - first;
        let t = if self.looped && span > 0.0 && t > last {
            first + (t - first).rem_euclid(span)
        } else {
            t
        };
        // The first keyframe at or after t (binary search on sorted times).
        let i = self.times.partition_point(|&k| k < t);
        if i == 0 {
            return self.keys[0];
        }
        if i == self.times.len() {
            return self.keys[i - 1];
        }
        let (t0, t1) = (self.times[i - 1], self.times[i]);
        let s = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
        self.keys[i - 1].lerp(&self.keys[i], s)
    }

    /// The pose at time `t` (seconds).
    pub fn pose_at(&self, t: f32) -> K::Pose {
        self.key_at(t).pose()
    }
}

/// Checks the keyframe times of the motion at `path`: finite, >= 0 and
/// strictly increasing, and at least one keyframe.
fn check_times(times: &[f32], path: &[Seg]) -> Result<(), Located> {
    let frames = key(path, "keyframes");
    if times.is_empty() {
        return Err(Located::new(frames, "a motion needs at least one keyframe"));
    }
    for (k, &t) in times.iter().enumerate() {
        let at = key(&index(&frames, k), "t");
        if !(t.is_finite() && t >= 0.0) {
            return Err(Located::new(
                at,
                format!("keyframe time must be a finite number >= 0, got {t}"),
            ));
        }
        if k > 0 && t <= times[k - 1] {
            return Err(Located::new(
                at,
                format!(
                    "keyframe times must be strictly increasing: {t} follows {}",
                    times[k - 1]
                ),
            ));
        }
    }
    Ok(())
}

/// The 2D motion defined at `path` (a shape's `motion`); keyframes without a
/// position or angle take the shape's own `position` / `angle_deg`.
pub fn motion2(
    d: &MotionDef<Key2Def>,
    position: Option<V2>,
    angle_deg: Option<f32>,
    path: &[Seg],
) -> Result<Motion<Key2>, Located> {
    let times: Vec<f32> = d.keyframes.iter().map(|k| k.t).collect();
    check_times(&times, path)?;
    let mut frames = Vec::with_capacity(d.keyframes.len());
    for (k, f) in d.keyframes.iter().enumerate() {
        let at = index(&key(path, "keyframes"), k);
        let deg = f.angle_deg.or(angle_deg);
        // Validates position and angle with the errors of a static pose.
        let pose = build2::pose(f.position.or(position), deg, &at)?;
        let key = Key2 {
            position: pose.translation,
            angle: deg.unwrap_or(0.0).to_radians(),
        };
        frames.push((f.t, key));
    }
    Motion::new(frames, d.looped).ok_or_else(|| Located::new(path.to_vec(), "invalid motion"))
}

/// The 3D motion defined at `path` (a shape's `motion`); keyframes without a
/// position or rotation take the shape's own.
pub fn motion3(
    d: &MotionDef<Key3Def>,
    position: Option<V3>,
    rotation: Option<&RotationDef>,
    path: &[Seg],
) -> Result<Motion<Key3>, Located> {
    let times: Vec<f32> = d.keyframes.iter().map(|k| k.t).collect();
    check_times(&times, path)?;
    let mut frames = Vec::with_capacity(d.keyframes.len());
    for (k, f) in d.keyframes.iter().enumerate() {
        let at = index(&key(path, "keyframes"), k);
        let rot = f.rotation.as_ref().or(rotation);
        let pose = build3::pose(f.position.or(position), rot, &at)?;
        let key = Key3 {
            position: pose.translation,
            rotation: pose.rotation,
        };
        frames.push((f.t, key));
    }
    Motion::new(frames, d.looped).ok_or_else(|| Located::new(path.to_vec(), "invalid motion"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k2(x: f32, deg: f32) -> Key2 {
        Key2 {
            position: Vec2::new(x, 0.0),
            angle: deg.to_radians(),
        }
    }

    #[test]
    fn piecewise_linear_held_at_the_ends() {
        let m =
            Motion::new(vec![(1.0, k2(0.0, 0.0)), (3.0, k2(4.0, 360.0))], false).expect("valid");
        assert_eq!(m.key_at(0.0), k2(0.0, 0.0));
        let mid = m.key_at(2.0);
        assert!((mid.position.x - 2.0).abs() < 1e-6);
        // Not wrapped: half of a full turn.
        assert!((mid.angle - std::f32::consts::PI).abs() < 1e-5);
        assert_eq!(m.key_at(10.0), k2(4.0, 360.0));
    }

    #[test]
    fn loops_repeat_the_span() {
        let m = Motion::new(vec![(1.0, k2(0.0, 0.0)), (3.0, k2(4.0, 0.0))], true).expect("valid");
        // t = 4 is 1 s into the second pass, like t = 2.
        assert!((m.key_at(4.0).position.x - 2.0).abs() < 1e-5);
        assert!((m.key_at(0.5).position.x).abs() < 1e-6);
    }

    #[test]
    fn slerp_turns_at_a_constant_rate() {
        let a = Key3 {
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
        };
        let b = Key3 {
            position: Vec3::X,
            rotation: Quat::from_rotation_z(120f32.to_radians()),
        };
        let m = Motion::new(vec![(0.0, a), (1.2, b)], false).expect("valid");
        let q = m.key_at(0.77).rotation;
        let (axis, angle) = q.to_axis_angle();
        assert!((angle.to_degrees() - 77.0).abs() < 1e-3, "{angle}");
        assert!((axis - Vec3::Z).length() < 1e-4);
    }

    #[test]
    fn bad_times_are_refused() {
        assert!(Motion::<Key2>::new(vec![], false).is_none());
        let k = k2(0.0, 0.0);
        assert!(Motion::new(vec![(1.0, k), (1.0, k)], false).is_none());
        assert!(Motion::new(vec![(-1.0, k)], false).is_none());
        assert!(Motion::new(vec![(f32::NAN, k)], false).is_none());
        let e = check_times(&[0.0, 2.0, 1.0], &[Seg::Key("motion".into())]).unwrap_err();
        assert_eq!(
            super::super::locate::path_to_string(&e.path),
            "motion.keyframes[2].t"
        );
    }
}
