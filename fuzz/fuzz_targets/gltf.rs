//! The glTF reader, JSON and binary (GLB: chosen by the content's magic), then
//! the mesh it read as a `TriMesh` and as clash elements. No base directory:
//! external buffers are refused, never read from disk.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(mesh) = peng_io::parse_gltf(data, "fuzz.gltf", None) {
        peng_fuzz::readers::check_mesh(&mesh, "fuzz.gltf");
    }
});
