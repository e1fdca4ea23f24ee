//! The IFC reader of the clash checker (from memory: no file is written).
//! libfuzzer's panic hook aborts on every panic, also one the reader catches
//! per element: both count as findings.
//!
//! The exact cutting of openings is bounded by `max_cut_work`; at the
//! default (100,000 exact evaluations, about 2 s an element in a release
//! build) one slanted wall with a door takes 2 s under coverage
//! instrumentation, so the target lowers the limit to 20,000 to keep the
//! work it allows within the 2 s a hang is defined by.
#![no_main]

use libfuzzer_sys::fuzz_target;
use peng_clash::LoadOptions;

fuzz_target!(|data: &[u8]| {
    let options = LoadOptions {
        max_cut_work: 20_000,
        ..LoadOptions::default()
    };
    if let Ok(loaded) = peng_clash::parse_ifc_with("fuzz.ifc", data, &options) {
        for e in &loaded.elements {
            assert!(e.origin().is_finite(), "element origin {:?}", e.origin());
        }
    }
});
