//! The OBJ reader, then the mesh it read as a `TriMesh` and as clash elements.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(mesh) = peng_io::parse_obj_bytes(data, "fuzz.obj") {
        peng_fuzz::readers::check_mesh(&mesh, "fuzz.obj");
    }
});
