//! What the reader targets check on a mesh a reader accepted.

use peng_io::MeshData;

/// The reader's contract (finite coordinates, indices in range), then the
/// conversions downstream code makes: a `TriMesh` and the clash elements.
pub fn check_mesh(mesh: &MeshData, file: &str) {
    let n = mesh.positions.len();
    for p in &mesh.positions {
        assert!(p.is_finite(), "{file}: non-finite vertex {p:?}");
    }
    for t in &mesh.triangles {
        assert!(
            t.iter().all(|&i| (i as usize) < n),
            "{file}: index out of range in {t:?}"
        );
    }
    for g in &mesh.groups {
        assert!(
            g.triangles.end <= mesh.triangles.len(),
            "{file}: group past the end"
        );
    }
    let _ = mesh.to_trimesh();
    let _ = peng_clash::mesh_elements(file, mesh);
}
