//! The IFC reader of the clash checker (from memory: no file is written).
//! libfuzzer's panic hook aborts on every panic, also one the reader catches
//! per element: both count as findings.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(loaded) = peng_clash::parse_ifc("fuzz.ifc", data) {
        for e in &loaded.elements {
            assert!(e.origin().is_finite(), "element origin {:?}", e.origin());
        }
    }
});
