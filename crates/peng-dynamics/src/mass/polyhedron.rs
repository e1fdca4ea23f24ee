//! Mass properties of a closed triangulated surface by the divergence
//! theorem.
//!
//! Mirtich (1996), "Fast and accurate computation of polyhedral mass
//! properties", and Eberly, "Polyhedral Mass Properties (Revisited)", turn
//! the volume integrals of 1, x and x xᵀ into sums over the boundary
//! triangles. Equivalently (Tonon 2004; Blow & Binstock 2004), each oriented
//! triangle `(a, b, c)` spans with a reference point `o` a signed tetrahedron
//! whose integrals are closed forms; the signed sum over a closed surface is
//! the solid's integral. With `a, b, c` relative to `o` and `D = det[a b c]`:
//!
//! - volume `D / 6`,
//! - first moment `∫ x dV = D (a + b + c) / 24`,
//! - second moment `∫ x xᵀ dV = D / 120 (a aᵀ + b bᵀ + c cᵀ + s sᵀ)`,
//!   `s = a + b + c` (the canonical tetrahedron has `∫ x² = 1/60`,
//!   `∫ x y = 1/120`; map it linearly by `[a b c]`).
//!
//! `o` is a point inside (the vertex mean), so coordinates stay small when
//! the shape is far from the origin; sums are in f64.

use glam::{DMat3, DVec3, Mat3, Vec3};

use super::props3::MassProperties3;

/// Integrals of a solid relative to a reference point, accumulated in f64.
pub(crate) struct Integrals {
    volume: f64,
    first: DVec3,
    second: DMat3,
}

impl Default for Integrals {
    // Not derived: glam's `DMat3::default()` is the identity, not zero.
    fn default() -> Self {
        Integrals {
            volume: 0.0,
            first: DVec3::ZERO,
            second: DMat3::ZERO,
        }
    }
}

fn douter(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

impl Integrals {
    /// Adds the signed tetrahedron of the triangle `(a, b, c)` (relative to
    /// the reference point, counter-clockwise seen from outside).
    pub(crate) fn add_triangle(&mut self, a: DVec3, b: DVec3, c: DVec3) {
        let d = a.dot(b.cross(c));
        let s = a + b + c;
        self.volume += d / 6.0;
        self.first += s * (d / 24.0);
        self.second += (douter(a, a) + douter(b, b) + douter(c, c) + douter(s, s)) * (d / 120.0);
    }

    /// The enclosed volume so far (signed: negative for a surface wound
    /// inward).
    pub(crate) fn volume(&self) -> f64 {
        self.volume
    }

    /// The mass properties for `density`, the integrals having been taken
    /// relative to `origin`. A surface wound inward (negative volume) is
    /// taken as the same solid.
    pub(crate) fn finish(self, origin: DVec3, density: f64) -> MassProperties3 {
        let (vol, first, second) = if self.volume < 0.0 {
            (-self.volume, -self.first, -self.second)
        } else {
            (self.volume, self.first, self.second)
        };
        if vol <= 0.0 || !vol.is_finite() {
            return MassProperties3 {
                mass: 0.0,
                local_com: origin.as_vec3(),
                inertia: Mat3::ZERO,
            };
        }
        let com = first / vol;
        // Second moment about the centre: C_c = C − V c cᵀ.
        let cc = second - douter(com, com) * vol;
        // Inertia from the covariance: I = ρ (tr(C) E − C).
        let trace = cc.x_axis.x + cc.y_axis.y + cc.z_axis.z;
        let inertia = (DMat3::from_diagonal(DVec3::splat(trace)) - cc) * density;
        MassProperties3 {
            mass: (vol * density) as f32,
            local_com: (origin + com).as_vec3(),
            inertia: inertia.as_mat3(),
        }
    }
}

/// The mean of `points` in f64 (the reference point of the integrals).
pub(crate) fn mean(points: &[Vec3]) -> DVec3 {
    if points.is_empty() {
        return DVec3::ZERO;
    }
    points.iter().map(|p| p.as_dvec3()).sum::<DVec3>() / points.len() as f64
}
