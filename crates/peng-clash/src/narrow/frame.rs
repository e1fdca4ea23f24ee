//! Two elements in element A's frame.

use crate::element::Element;
use glam::{DVec3, Vec3};
use peng::math::Pose3;
use peng::mesh::TriMesh;

/// Element A at the identity and element B moved by the difference of their
/// origins, both in A's local frame.
pub(crate) struct PairFrame<'a> {
    pub a: &'a Element,
    pub b: &'a Element,
    /// B's pose in A's frame: a pure translation.
    pub pose_b: Pose3,
}

impl<'a> PairFrame<'a> {
    pub fn new(a: &'a Element, b: &'a Element) -> Self {
        let offset = (b.origin() - a.origin()).as_vec3();
        PairFrame {
            a,
            b,
            pose_b: Pose3::from_translation(offset),
        }
    }

    /// A point of A's frame in world coordinates.
    pub fn world(&self, p: Vec3) -> DVec3 {
        self.a.origin() + p.as_dvec3()
    }

    /// The pair the other way round (B's frame, A moved).
    pub fn swapped(&self) -> PairFrame<'a> {
        PairFrame::new(self.b, self.a)
    }

    pub fn mesh_a(&self) -> &TriMesh {
        self.a.mesh()
    }

    pub fn mesh_b(&self) -> &TriMesh {
        self.b.mesh()
    }

    /// Whether `p` (A's frame) lies inside B's volume (on its surface counts;
    /// see [`Element::contains_local_point`]).
    pub fn inside_b(&self, p: Vec3) -> bool {
        self.b.contains_local_point(p - self.pose_b.translation)
    }

    /// Whether `p` (A's frame) lies inside A's volume.
    pub fn inside_a(&self, p: Vec3) -> bool {
        self.a.contains_local_point(p)
    }

    /// Distance from `p` (A's frame) to A's surface, and the nearest point.
    pub fn to_surface_a(&self, p: Vec3) -> (f32, Vec3) {
        let proj = self.a.mesh().project_local_point(p);
        (proj.distance, proj.point)
    }

    /// Distance from `p` (A's frame) to B's surface, and the nearest point of
    /// B's surface (A's frame).
    pub fn to_surface_b(&self, p: Vec3) -> (f32, Vec3) {
        let q = p - self.pose_b.translation;
        let proj = self.b.mesh().project_local_point(q);
        (proj.distance, proj.point + self.pose_b.translation)
    }
}
