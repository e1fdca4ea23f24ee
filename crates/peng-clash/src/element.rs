//! Elements: a mesh in its own local frame plus who the element is.
//!
//! Building models sit in project or survey coordinates, often hundreds of
//! metres to kilometres from the origin, where f32 keeps only millimetres or
//! worse. Each element therefore keeps an f64 origin (the centre of its
//! bounding box) and f32 vertices relative to it: a 100 m element keeps
//! sub-micrometre resolution wherever it stands. Two elements are compared in
//! the first one's frame, after their origins' difference is taken in f64.

use crate::error::ClashError;
use glam::{DVec3, Vec3};
use peng::mesh::TriMesh;
use serde::{Deserialize, Serialize};

/// Who an element is: what a report names it by.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Identity {
    /// The element's id: the IFC GlobalId, or for mesh files the node or
    /// object name (made unique within the file).
    pub id: String,
    /// The IFC class (`IfcWall`, `IfcDuctSegment`, ...); for mesh files the
    /// file format's word for a part (`node`, `object`, `solid`).
    pub class: String,
    /// The element's name ("" when it has none).
    pub name: String,
    /// The building storey that contains it, by name, where the model says.
    pub storey: Option<String>,
    /// The file it came from, as the user named it.
    pub file: String,
    /// The id of the assembly or parent element it belongs to, if any
    /// (IFC `IfcRelAggregates`/`IfcRelNests`, a glTF parent node).
    pub parent: Option<String>,
    /// The id of the element whose opening this one fills (a door's or a
    /// window's wall: IFC `IfcRelFillsElement` and `IfcRelVoidsElement`).
    pub fills: Option<String>,
    /// The id of the element this one covers (a cladding's or a lining's
    /// wall, a screed's slab: IFC `IfcRelCoversBldgElements`).
    pub covers: Option<String>,
}

/// An axis-aligned box in world coordinates (f64 metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The lowest corner.
    pub min: DVec3,
    /// The highest corner.
    pub max: DVec3,
}

impl Bounds {
    /// The box around the points; `None` for no points.
    pub fn around(points: impl IntoIterator<Item = DVec3>) -> Option<Bounds> {
        let mut it = points.into_iter();
        let first = it.next()?;
        let mut b = Bounds {
            min: first,
            max: first,
        };
        for p in it {
            b.min = b.min.min(p);
            b.max = b.max.max(p);
        }
        Some(b)
    }

    /// The centre.
    pub fn center(&self) -> DVec3 {
        (self.min + self.max) * 0.5
    }

    /// The box grown by `d` on every side.
    pub fn grown(&self, d: f64) -> Bounds {
        Bounds {
            min: self.min - DVec3::splat(d),
            max: self.max + DVec3::splat(d),
        }
    }

    /// Whether the two boxes overlap or touch.
    pub fn overlaps(&self, o: &Bounds) -> bool {
        self.min.cmple(o.max).all() && o.min.cmple(self.max).all()
    }

    /// The smallest box holding both.
    pub fn merged(&self, o: &Bounds) -> Bounds {
        Bounds {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

/// An open element's winding number at which a point counts as inside it: a
/// point at the centre of a box without its lid has 5/6, one in the lid's
/// plane 1/2, one within a closed box 1.
const OPEN_INSIDE: f64 = 0.9;

/// One element of a model: its identity and its triangle mesh, stored around
/// an f64 origin.
#[derive(Debug, Clone)]
pub struct Element {
    /// Who the element is.
    pub identity: Identity,
    origin: DVec3,
    mesh: TriMesh,
    bounds: Bounds,
    closed: bool,
}

impl Element {
    /// An element from world-space vertices (f64 metres) and triangles. The
    /// origin is the centre of the vertices' bounding box.
    ///
    /// Errors name the element: no triangles, a non-finite vertex, an index
    /// past the vertex list.
    pub fn from_world(
        identity: Identity,
        vertices: &[DVec3],
        triangles: Vec<[u32; 3]>,
    ) -> Result<Element, ClashError> {
        let Some(b) = Bounds::around(vertices.iter().copied()) else {
            return Err(element_error(&identity, "the mesh has no vertices"));
        };
        let origin = if b.min.is_finite() && b.max.is_finite() {
            b.center()
        } else {
            DVec3::ZERO
        };
        let local = vertices.iter().map(|&v| (v - origin).as_vec3()).collect();
        Element::from_local(identity, origin, local, triangles)
    }

    /// An element from vertices relative to `origin` and triangles.
    ///
    /// A mesh left open by small tessellation defects is mended first (see
    /// [`Element::is_closed`]): boundary vertices within 0.01 mm (a millionth
    /// of the element's size beyond 10 m) are welded, edges split where a
    /// neighbour's vertex lies on them, missing triangles and small flat
    /// holes filled, these three kept only if together they close the mesh;
    /// closed pieces touching along an edge are given their own vertices, and
    /// every closed shell is wound outward.
    pub fn from_local(
        identity: Identity,
        origin: DVec3,
        vertices: Vec<Vec3>,
        triangles: Vec<[u32; 3]>,
    ) -> Result<Element, ClashError> {
        if !origin.is_finite() {
            return Err(element_error(&identity, "the mesh origin is not finite"));
        }
        let (mut vertices, mut triangles) = (vertices, triangles);
        let n = vertices.len();
        if vertices.iter().all(|v| v.is_finite())
            && triangles.iter().flatten().all(|&i| (i as usize) < n)
        {
            let tol = crate::repair::tolerance(extent(&vertices));
            crate::repair::close_mesh(&mut vertices, &mut triangles, tol);
        }
        let (vertices, triangles) = drop_unused(vertices, triangles);
        let mesh = TriMesh::new(vertices, triangles)
            .map_err(|e| element_error(&identity, &format!("bad mesh: {e}")))?;
        let local = mesh.local_aabb();
        let bounds = Bounds {
            min: origin + local.min.as_dvec3(),
            max: origin + local.max.as_dvec3(),
        };
        let closed = mesh.topology().is_closed();
        Ok(Element {
            identity,
            origin,
            mesh,
            bounds,
            closed,
        })
    }

    /// The f64 origin the mesh's vertices are relative to.
    pub fn origin(&self) -> DVec3 {
        self.origin
    }

    /// Whether `p` (the element's frame) lies inside its volume; points on
    /// the surface count as inside. A closed mesh decides by ray parity; an
    /// open one bounds no volume exactly, and its generalized winding number
    /// decides: inside where the surface surrounds the point from nearly every
    /// direction (a winding number of at least 0.9). A small hole leaves that
    /// near 1 except right at the hole; an open side (a cabinet without its
    /// lid) leaves the region near it outside, so a countertop resting in the
    /// opening does not count as inside.
    pub fn contains_local_point(&self, p: Vec3) -> bool {
        if self.closed {
            self.mesh.contains_local_point(p)
        } else {
            self.mesh.local_aabb().contains_point(p)
                && self.mesh.winding_number(p).abs() >= OPEN_INSIDE
        }
    }

    /// The mesh, in the element's local frame. Every vertex is used by some
    /// triangle.
    pub fn mesh(&self) -> &TriMesh {
        &self.mesh
    }

    /// The world-space bounding box of the mesh's triangles.
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    /// The warning for an element whose mesh is open, `None` when closed.
    pub(crate) fn open_warning(&self) -> Option<String> {
        if self.closed {
            return None;
        }
        let t = self.mesh.topology();
        Some(format!(
            "its mesh stays open after mending ({} edges met by one triangle, {} by three \
             or more): it is checked by its surface only, never as containing another",
            t.boundary_edges(),
            t.non_manifold_edges()
        ))
    }

    /// Whether the mesh is closed (every edge shared by exactly two triangles),
    /// so that it bounds a volume other elements can lie inside.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// A vertex in world coordinates.
    pub fn world_point(&self, local: Vec3) -> DVec3 {
        self.origin + local.as_dvec3()
    }
}

/// The mesh without the vertices no triangle uses (a stray vertex is no
/// geometry), renumbered; unchanged when every vertex is used or an index is
/// out of range (which [`TriMesh::new`] then reports).
fn drop_unused(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    const UNUSED: u32 = u32::MAX;
    let mut new_index = vec![UNUSED; vertices.len()];
    for t in &triangles {
        for &i in t {
            match new_index.get_mut(i as usize) {
                Some(n) => *n = 0,
                None => return (vertices, triangles),
            }
        }
    }
    if new_index.iter().all(|&n| n != UNUSED) {
        return (vertices, triangles);
    }
    let mut kept = Vec::new();
    for (i, n) in new_index.iter_mut().enumerate() {
        if *n != UNUSED {
            *n = kept.len() as u32;
            kept.push(vertices[i]);
        }
    }
    let triangles = triangles
        .into_iter()
        .map(|t| t.map(|i| new_index[i as usize]))
        .collect();
    (kept, triangles)
}

fn element_error(identity: &Identity, what: &str) -> ClashError {
    ClashError::Element {
        file: identity.file.clone(),
        element: describe(identity),
        what: what.to_string(),
    }
}

/// How an error message names an element: class, id and name where known.
pub(crate) fn describe(identity: &Identity) -> String {
    let mut s = String::new();
    for part in [&identity.class, &identity.id] {
        if !part.is_empty() {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(part);
        }
    }
    if !identity.name.is_empty() {
        s.push_str(&format!(" \"{}\"", identity.name));
    }
    if s.is_empty() {
        s.push_str("(unnamed)");
    }
    s
}

/// The diagonal of the vertices' box (0 for none).
fn extent(vertices: &[Vec3]) -> f32 {
    let (lo, hi) = vertices.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), &v| (lo.min(v), hi.max(v)),
    );
    let d = (hi - lo).length();
    if d.is_finite() {
        d
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> Identity {
        Identity {
            id: name.into(),
            class: "IfcWall".into(),
            file: "model.ifc".into(),
            ..Identity::default()
        }
    }

    #[test]
    fn far_from_origin_keeps_micrometres() {
        // A 1 m tetrahedron 3 km from the origin: f32 world coordinates would
        // round to 0.24 mm there; local ones keep the exact offsets.
        let base = DVec3::new(3_000_000.125, -2_500_000.0, 412.0);
        let pts = [
            base,
            base + DVec3::new(1.0, 0.0, 0.0),
            base + DVec3::new(0.0, 1.0, 0.0),
            base + DVec3::new(0.0, 0.0, 1.000_001),
        ];
        let tris = vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let e = Element::from_world(id("t"), &pts, tris).unwrap();
        assert!(e.is_closed());
        let top = e.mesh().vertices()[3];
        let err = (e.world_point(top) - pts[3]).length();
        assert!(err < 1e-7, "error {err} m");
        assert!((e.bounds().max.z - pts[3].z).abs() < 1e-7);
    }

    #[test]
    fn empty_and_bad_meshes_name_the_element() {
        let e = Element::from_world(id("A1"), &[], vec![]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "model.ifc: element IfcWall A1: the mesh has no vertices"
        );
        let pts = [DVec3::ZERO, DVec3::X, DVec3::Y];
        let e = Element::from_world(id("A2"), &pts, vec![]).unwrap_err();
        assert!(
            e.to_string().contains("element IfcWall A2: bad mesh"),
            "{e}"
        );
        let e = Element::from_world(id("A3"), &pts, vec![[0, 1, 7]]).unwrap_err();
        assert!(e.to_string().contains("A3"), "{e}");
        let nan = [DVec3::ZERO, DVec3::X, DVec3::new(f64::NAN, 0.0, 0.0)];
        assert!(Element::from_world(id("A4"), &nan, vec![[0, 1, 2]]).is_err());
    }

    #[test]
    fn unused_vertices_are_no_geometry() {
        // A stray vertex far away: neither in the bounds nor in the mesh.
        let pts = [DVec3::ZERO, DVec3::new(500.0, 0.0, 0.0), DVec3::X, DVec3::Y];
        let e = Element::from_world(id("u"), &pts, vec![[0, 2, 3]]).unwrap();
        assert_eq!(e.mesh().vertices().len(), 3);
        assert_eq!(e.mesh().indices(), &[[0, 1, 2]]);
        assert_eq!(e.bounds().max, DVec3::new(1.0, 1.0, 0.0));
    }

    #[test]
    fn open_mesh_is_not_closed() {
        let pts = [DVec3::ZERO, DVec3::X, DVec3::Y];
        let e = Element::from_world(id("p"), &pts, vec![[0, 1, 2]]).unwrap();
        assert!(!e.is_closed());
        assert_eq!(e.bounds().min, DVec3::ZERO);
        assert_eq!(e.bounds().max, DVec3::new(1.0, 1.0, 0.0));
    }
}
