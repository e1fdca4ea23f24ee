//! One view of the two triangle surfaces (triangle mesh, height field) for the
//! mesh queries: candidate triangles under a box, corners, vertex ids and the
//! triangle across each edge.

use crate::bound::Aabb3;
use crate::math::Vec3;
use crate::mesh::{HeightField, TriMesh};
use crate::shape::d3::Shape;

/// What the mesh queries need of a triangle surface (local frame).
pub(crate) trait MeshView {
    /// Calls `f(triangle, corners)` for each triangle whose box meets `aabb`.
    fn for_each_candidate<F: FnMut(u32, &[Vec3; 3])>(&self, aabb: &Aabb3, f: F);
    /// The vertex ids of triangle `t`'s corners (shared between triangles).
    fn vertex_ids(&self, t: u32) -> [u32; 3];
    /// The position of vertex `id`.
    fn position(&self, id: u32) -> Vec3;
    /// The triangle across edge `e` (corner `e` to corner `e + 1`) of `t`.
    fn neighbour(&self, t: u32, e: usize) -> Option<u32>;
    /// The box around the surface.
    fn bounds(&self) -> Aabb3;
    /// Whether contacts push out of the front sides only.
    fn one_sided(&self) -> bool {
        false
    }
}

impl MeshView for TriMesh {
    #[inline]
    fn for_each_candidate<F: FnMut(u32, &[Vec3; 3])>(&self, aabb: &Aabb3, f: F) {
        self.for_each_triangle_in_aabb(aabb, f)
    }
    #[inline]
    fn vertex_ids(&self, t: u32) -> [u32; 3] {
        self.indices()[t as usize]
    }
    #[inline]
    fn position(&self, id: u32) -> Vec3 {
        self.vertices()[id as usize]
    }
    #[inline]
    fn neighbour(&self, t: u32, e: usize) -> Option<u32> {
        self.topology().adjacent(t, e)
    }
    #[inline]
    fn bounds(&self) -> Aabb3 {
        self.local_aabb()
    }
    #[inline]
    fn one_sided(&self) -> bool {
        self.is_one_sided()
    }
}

impl MeshView for HeightField {
    #[inline]
    fn for_each_candidate<F: FnMut(u32, &[Vec3; 3])>(&self, aabb: &Aabb3, f: F) {
        self.for_each_triangle_in_aabb(aabb, f)
    }
    #[inline]
    fn vertex_ids(&self, t: u32) -> [u32; 3] {
        self.triangle_vertex_ids(t).unwrap_or([0; 3])
    }
    #[inline]
    fn position(&self, id: u32) -> Vec3 {
        self.vertex_by_id(id)
    }
    #[inline]
    fn neighbour(&self, t: u32, e: usize) -> Option<u32> {
        self.triangle_neighbour(t, e)
    }
    #[inline]
    fn bounds(&self) -> Aabb3 {
        self.local_aabb()
    }
}

/// A mesh shape seen through [`MeshView`].
#[derive(Clone, Copy)]
pub(crate) enum AnyMesh<'a> {
    /// A triangle mesh.
    Tri(&'a TriMesh),
    /// A height field.
    Field(&'a HeightField),
}

impl<'a> AnyMesh<'a> {
    /// The mesh of a [`Shape::TriMesh`] or [`Shape::HeightField`].
    pub(crate) fn of(s: &'a Shape) -> Option<Self> {
        match s {
            Shape::TriMesh(m) => Some(AnyMesh::Tri(m)),
            Shape::HeightField(h) => Some(AnyMesh::Field(h)),
            _ => None,
        }
    }
}

/// Runs `$body` with `$m` bound to the concrete mesh type of an [`AnyMesh`].
macro_rules! with_mesh {
    ($any:expr, $m:ident => $body:expr) => {
        match $any {
            $crate::query::d3::mesh::view::AnyMesh::Tri($m) => $body,
            $crate::query::d3::mesh::view::AnyMesh::Field($m) => $body,
        }
    };
}
pub(crate) use with_mesh;
