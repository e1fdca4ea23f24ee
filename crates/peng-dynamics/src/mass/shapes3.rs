//! [`MassProperties3::from_shape`]: closed forms for the primitives, the
//! divergence theorem for polyhedra and closed meshes, sums for compounds.

use std::f64::consts::PI;

use glam::{DVec3, Mat3, Vec3};
use peng::mesh::TriMesh;
use peng::shape::d3::{Capsule, ConvexPolyhedron, Shape};

use super::polyhedron::{mean, Integrals};
use super::props3::{outer, MassProperties3};
use super::{check_density, MassError};

/// A body centred at `com` with a diagonal tensor.
fn diagonal(mass: f64, com: Vec3, d: DVec3) -> MassProperties3 {
    MassProperties3 {
        mass: mass as f32,
        local_com: com,
        inertia: Mat3::from_diagonal(d.as_vec3()),
    }
}

/// A massless body at `com` (segments and triangles have no volume).
fn massless(com: Vec3) -> MassProperties3 {
    MassProperties3 {
        mass: 0.0,
        local_com: com,
        inertia: Mat3::ZERO,
    }
}

impl MassProperties3 {
    /// The mass properties of `shape` made of a material of uniform
    /// `density` (mass per unit volume).
    ///
    /// - Ball, cuboid, cylinder, cone, capsule: closed forms.
    /// - Convex polyhedron and closed triangle mesh: the divergence theorem
    ///   (Mirtich 1996) relative to the vertex mean. A mesh must be closed
    ///   (every edge shared by two triangles) and consistently wound; inward
    ///   winding is accepted.
    /// - Compound: the sum of its parts placed by their poses.
    /// - Segment, triangle: no volume, so mass 0 (centre at the centroid,
    ///   zero inertia).
    ///
    /// # Errors
    /// [`MassError::InvalidDensity`] for a negative or non-finite density;
    /// [`MassError::Unbounded`] for a half-space; [`MassError::NotClosed`]
    /// for a height field (an open surface) and for a triangle mesh that is
    /// open, non-manifold, inconsistently wound or flat (enclosing no
    /// volume); a compound fails if a part fails.
    pub fn from_shape(shape: &Shape, density: f32) -> Result<MassProperties3, MassError> {
        let rho = check_density(density)?;
        from_shape_f64(shape, rho)
    }
}

fn from_shape_f64(shape: &Shape, rho: f64) -> Result<MassProperties3, MassError> {
    Ok(match shape {
        Shape::Ball(b) => {
            let r = b.radius() as f64;
            let m = rho * 4.0 / 3.0 * PI * r * r * r;
            diagonal(m, Vec3::ZERO, DVec3::splat(0.4 * m * r * r))
        }
        Shape::Cuboid(c) => {
            let h = c.half_extents().as_dvec3();
            let m = rho * 8.0 * h.x * h.y * h.z;
            // (w² + l²) / 12 with w = 2 h: (h_y² + h_z²) / 3.
            let s = h * h;
            diagonal(
                m,
                Vec3::ZERO,
                DVec3::new(s.y + s.z, s.x + s.z, s.x + s.y) * (m / 3.0),
            )
        }
        Shape::Cylinder(c) => {
            let (h, r) = (c.half_height() as f64, c.radius() as f64);
            let m = rho * PI * r * r * 2.0 * h;
            // Axis (y): m r² / 2; across: m (3 r² + H²) / 12 with H = 2h.
            let across = m * (3.0 * r * r + 4.0 * h * h) / 12.0;
            diagonal(m, Vec3::ZERO, DVec3::new(across, 0.5 * m * r * r, across))
        }
        Shape::Cone(c) => {
            let (h, r) = (c.half_height() as f64, c.radius() as f64);
            let height = 2.0 * h;
            let m = rho * PI * r * r * height / 3.0;
            // Centre a quarter of the height above the base (base at y = −h).
            let com = Vec3::new(0.0, (-h + height / 4.0) as f32, 0.0);
            // About the centre: axis 3/10 m r², across 3/20 m r² + 3/80 m H².
            let across = m * (0.15 * r * r + 0.0375 * height * height);
            diagonal(m, com, DVec3::new(across, 0.3 * m * r * r, across))
        }
        Shape::Capsule(c) => capsule(c, rho),
        Shape::Segment(s) => massless((s.a() + s.b()) * 0.5),
        Shape::Triangle(t) => {
            let [a, b, c] = *t.vertices();
            massless((a + b + c) / 3.0)
        }
        Shape::Polyhedron(p) => polyhedron(p, rho),
        Shape::TriMesh(m) => trimesh(m, rho)?,
        Shape::Compound(c) => {
            let mut total = MassProperties3::ZERO;
            for (pose, part) in c.parts() {
                total += from_shape_f64(part, rho)?.transformed(pose);
            }
            total
        }
        Shape::HalfSpace(_) => return Err(MassError::Unbounded { kind: "half-space" }),
        Shape::HeightField(_) => {
            return Err(MassError::NotClosed {
                kind: "height field",
                why: "it is an open surface (its solid below is unbounded)",
            })
        }
    })
}

/// A capsule: a cylinder of length `L = |b − a|` plus two hemispheres.
/// A hemisphere of mass `m_h` has its centre `3r/8` from its flat face and,
/// across its axis, `2/5 m_h r²` about the face centre, hence
/// `(2/5 − 9/64) m_h r² = 83/320 m_h r²` about its own centre, moved by
/// `L/2 + 3r/8` to the capsule's centre (parallel-axis theorem).
fn capsule(c: &Capsule, rho: f64) -> MassProperties3 {
    let (a, b) = (c.a().as_dvec3(), c.b().as_dvec3());
    let r = c.radius() as f64;
    let axis = b - a;
    let len = axis.length();
    let m_cyl = rho * PI * r * r * len;
    let m_hemi = rho * 2.0 / 3.0 * PI * r * r * r;
    let along = 0.5 * m_cyl * r * r + 0.4 * (2.0 * m_hemi) * r * r;
    let off = 0.5 * len + 0.375 * r;
    let across = m_cyl * (3.0 * r * r + len * len) / 12.0
        + 2.0 * (83.0 / 320.0 * m_hemi * r * r + m_hemi * off * off);
    let com = ((a + b) * 0.5).as_vec3();
    let mass = (m_cyl + 2.0 * m_hemi) as f32;
    // I = across E + (along − across) u uᵀ with u the unit axis; a zero-length
    // axis has along == across (a ball), so any u does.
    let u = if len > 0.0 {
        (axis / len).as_vec3()
    } else {
        Vec3::Y
    };
    let inertia =
        Mat3::from_diagonal(Vec3::splat(across as f32)) + outer(u, u) * ((along - across) as f32);
    MassProperties3 {
        mass,
        local_com: com,
        inertia,
    }
}

/// A convex polyhedron: its faces, fanned into triangles.
fn polyhedron(p: &ConvexPolyhedron, rho: f64) -> MassProperties3 {
    let verts = p.vertices();
    let o = mean(verts);
    let rel = |i: u32| verts[i as usize].as_dvec3() - o;
    let mut acc = Integrals::default();
    for f in 0..p.faces().len() {
        let face = p.face_loop(f);
        if let Some((&first, rest)) = face.split_first() {
            for pair in rest.windows(2) {
                acc.add_triangle(rel(first), rel(pair[0]), rel(pair[1]));
            }
        }
    }
    acc.finish(o, rho)
}

/// A closed, consistently wound triangle mesh.
fn trimesh(m: &TriMesh, rho: f64) -> Result<MassProperties3, MassError> {
    let topo = m.topology();
    if topo.boundary_edges() > 0 {
        return Err(MassError::NotClosed {
            kind: "triangle mesh",
            why: "it has boundary edges (an open surface)",
        });
    }
    if topo.non_manifold_edges() > 0 {
        return Err(MassError::NotClosed {
            kind: "triangle mesh",
            why: "it has edges shared by more than two triangles",
        });
    }
    if !topo.is_consistently_oriented() {
        return Err(MassError::NotClosed {
            kind: "triangle mesh",
            why: "its triangles are not consistently wound",
        });
    }
    let verts = m.vertices();
    let o = mean(verts);
    let mut acc = Integrals::default();
    let mut size = 0.0f64;
    for tri in m.indices() {
        let [a, b, c] = tri.map(|i| verts[i as usize].as_dvec3() - o);
        size = size.max(a.abs().max_element());
        acc.add_triangle(a, b, c);
    }
    // Closed and consistently wound, yet flat (a triangle and its reverse,
    // two coincident sheets): no solid, and a body of zero mass. Below
    // 1e-9 of the cube of its size the volume is rounding.
    // (NaN compares false: refused too.)
    let solid = acc.volume().abs() > 1e-9 * size * size * size;
    if !solid {
        return Err(MassError::NotClosed {
            kind: "triangle mesh",
            why: "it encloses no volume (its surface folds flat)",
        });
    }
    Ok(acc.finish(o, rho))
}
