//! The STL reader (ASCII and binary), then the mesh it read as a `TriMesh` and
//! as clash elements.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(mesh) = peng_io::parse_stl(data, "fuzz.stl") {
        peng_fuzz::readers::check_mesh(&mesh, "fuzz.stl");
    }
});
