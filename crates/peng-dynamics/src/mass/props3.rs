//! [`MassProperties3`]: mass, centre of mass and inertia tensor in 3D.

use std::iter::Sum;
use std::ops::{Add, AddAssign};

use glam::{Mat3, Quat, Vec3};
use peng::math::Pose3;

use peng::bound::symmetric_eigen3;

/// Mass properties of a 3D body: mass, centre of mass and inertia tensor
/// about the centre of mass, both in the body's local frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MassProperties3 {
    /// The mass (`>= 0`).
    pub mass: f32,
    /// The centre of mass, in the local frame.
    pub local_com: Vec3,
    /// The inertia tensor about the centre of mass, axes of the local frame.
    /// Symmetric positive semi-definite.
    pub inertia: Mat3,
}

impl Default for MassProperties3 {
    fn default() -> Self {
        MassProperties3::ZERO
    }
}

/// `|d|² E − d dᵀ`: the parallel-axis term per unit mass for an offset `d`.
pub(crate) fn shift_tensor(d: Vec3) -> Mat3 {
    Mat3::from_diagonal(Vec3::splat(d.length_squared())) - outer(d, d)
}

/// The outer product `a bᵀ`.
pub(crate) fn outer(a: Vec3, b: Vec3) -> Mat3 {
    Mat3::from_cols(a * b.x, a * b.y, a * b.z)
}

impl MassProperties3 {
    /// No mass, centre at the origin, no inertia (the identity of `+`).
    pub const ZERO: MassProperties3 = MassProperties3 {
        mass: 0.0,
        local_com: Vec3::ZERO,
        inertia: Mat3::ZERO,
    };

    /// `1 / mass`, or 0 for a massless body (which then cannot be moved by forces).
    pub fn inv_mass(&self) -> f32 {
        if self.mass > 0.0 {
            1.0 / self.mass
        } else {
            0.0
        }
    }

    /// The principal moments of inertia and the rotation from the principal
    /// frame to the local frame: `inertia = R diag(moments) Rᵀ` with `R` the
    /// matrix of the returned rotation. Moments are sorted ascending.
    pub fn principal_inertia(&self) -> (Vec3, Quat) {
        let m = self.inertia;
        let mut a = [[0.0f64; 3]; 3];
        for (i, row) in a.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                // Symmetrise: the tensor is symmetric up to round-off.
                *x = 0.5 * (m.col(j)[i] as f64 + m.col(i)[j] as f64);
            }
        }
        // peng's Jacobi solver: `v[k]` is the unit eigenvector of `l[k]`.
        let (l, v) = symmetric_eigen3(a);
        let mut order = [0usize, 1, 2];
        order.sort_by(|&x, &y| l[x].total_cmp(&l[y]));
        let col = |k: usize| Vec3::new(v[k][0] as f32, v[k][1] as f32, v[k][2] as f32);
        let (c0, c1) = (col(order[0]), col(order[1]));
        // A right-handed frame: the third axis from the first two.
        let c2 = c0.cross(c1);
        let rot = Quat::from_mat3(&Mat3::from_cols(c0, c1, c2)).normalize();
        let moments = Vec3::new(l[order[0]] as f32, l[order[1]] as f32, l[order[2]] as f32);
        (moments, rot)
    }

    /// The same body placed by `pose`: centre moved by the pose and the
    /// tensor rotated, `I' = R I Rᵀ`.
    pub fn transformed(&self, pose: &Pose3) -> MassProperties3 {
        let r = Mat3::from_quat(pose.rotation);
        MassProperties3 {
            mass: self.mass,
            local_com: pose.transform_point(self.local_com),
            inertia: r * self.inertia * r.transpose(),
        }
    }

    /// The inertia tensor about an arbitrary `point` (local frame), by the
    /// parallel-axis theorem: `I_p = I + m (|d|² E − d dᵀ)`, `d = com − point`.
    pub fn inertia_about(&self, point: Vec3) -> Mat3 {
        self.inertia + shift_tensor(self.local_com - point) * self.mass
    }
}

impl Add for MassProperties3 {
    type Output = MassProperties3;

    /// The union of two bodies given in the same frame: masses add, the
    /// centre is the mass-weighted mean and each tensor is moved to the new
    /// centre by the parallel-axis theorem,
    /// `I = Σ (I_i + m_i (|d_i|² E − d_i d_iᵀ))`, `d_i = c_i − c`.
    /// Two massless bodies give a massless body centred between them.
    fn add(self, o: MassProperties3) -> MassProperties3 {
        let mass = self.mass + o.mass;
        let com = if mass > 0.0 {
            // Interpolated from one centre (not Σ m c / m) so that bodies far
            // from the origin keep the digits of their offset.
            self.local_com + (o.local_com - self.local_com) * (o.mass / mass)
        } else {
            (self.local_com + o.local_com) * 0.5
        };
        let inertia = self.inertia_about(com) + o.inertia_about(com);
        MassProperties3 {
            mass,
            local_com: com,
            inertia,
        }
    }
}

impl AddAssign for MassProperties3 {
    fn add_assign(&mut self, o: MassProperties3) {
        *self = *self + o;
    }
}

impl Sum for MassProperties3 {
    fn sum<I: Iterator<Item = MassProperties3>>(iter: I) -> Self {
        iter.fold(MassProperties3::ZERO, |a, b| a + b)
    }
}
