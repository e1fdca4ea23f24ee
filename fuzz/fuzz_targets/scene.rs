//! The scene loader of the `peng` tool (JSON scenes, 2D and 3D), then the
//! pair checks of `peng check` on what it loaded.
#![no_main]
#![allow(dead_code, missing_docs)]

use libfuzzer_sys::fuzz_target;

// The loader and the checks live in the binary crate; compiled here as they are.
#[path = "../../crates/peng-cli/src/check.rs"]
mod check;
#[path = "../../crates/peng-cli/src/scene/mod.rs"]
mod scene;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match scene::parse_timeline("fuzz.json", text) {
        Ok((s, _timeline)) => {
            let report = check::check(&s, s.distance.unwrap_or(0.5).clamp(0.0, 1e6));
            let _ = report;
        }
        Err(e) => {
            // Every error names a place in the text.
            assert!(e.line >= 1 && e.column >= 1, "{e:?}");
            assert!(!e.message.is_empty(), "{e:?}");
        }
    }
});
