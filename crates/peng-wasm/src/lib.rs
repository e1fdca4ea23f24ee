//! peng in the browser: the 2D collision world ([`CollisionWorld`]) and,
//! with the `physics` feature, the 2D physics world (`PhysicsWorld`), for
//! WebAssembly through wasm-bindgen. The npm package in `web/` wraps it in
//! an ES module with TypeScript types and the page component.
//!
//! Errors reach JavaScript as `Error`s whose message names the argument or
//! the collider at fault; the world is left as it was. A Rust panic (a bug)
//! aborts the WebAssembly instance; its message is kept and read by
//! [`last_panic`] so that the JavaScript side can rethrow it as an `Error`.

mod core;
mod grid;
mod ids;
mod input;
#[cfg(feature = "physics")]
mod physics;
mod world;

#[cfg(feature = "physics")]
pub use physics::PhysicsWorld;
pub use world::CollisionWorld;

use std::sync::Mutex;
use wasm_bindgen::prelude::*;

/// The message of the last panic, for the JavaScript wrapper.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Installs the panic hook that keeps the panic's message (runs when the
/// module starts).
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = Some(info.to_string());
        }
    }));
}

/// Panics with `message`: the tests' way to check that a panic reaches
/// JavaScript as an `Error` with its message (not part of the API).
#[doc(hidden)]
#[wasm_bindgen(js_name = panicForTests)]
pub fn panic_for_tests(message: &str) {
    panic!("{message}");
}

/// The message of the last Rust panic, if any (then the module must be
/// loaded again: its state is lost).
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.lock().ok().and_then(|m| m.clone())
}
