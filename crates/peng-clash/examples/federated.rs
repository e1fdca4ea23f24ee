//! Writes the generated federated model (`peng_clash::federated`):
//! `architecture.ifc`, `structure.ifc` and `services.ifc`, and
//! `planted.json`, the clashes planted in them, into a directory.
//!
//! ```sh
//! cargo run --release -p peng-clash --example federated -- [DIR [ELEMENTS]]
//! peng clash DIR/architecture.ifc DIR/structure.ifc DIR/services.ifc
//! ```
//!
//! DIR defaults to `target/federated-ELEMENTS` in the workspace; ELEMENTS
//! (default 100000) is the least number of regular elements; about one in 64
//! more are planted. `planted.json` lists each planted pair: its
//! kind, the two GlobalIds (host first), where it is, and what each clash
//! test should report for it.

use peng_clash::federated::{federated_model, FederatedSize};
use peng_clash::Mode;
use std::path::PathBuf;

fn main() {
    if let Err(e) = run() {
        eprintln!("federated: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: federated [DIR [ELEMENTS]]";
    let dir = args.next().map(PathBuf::from);
    let elements = match args.next() {
        Some(n) => n
            .parse::<usize>()
            .map_err(|_| format!("ELEMENTS {n:?} is not a whole number\n{usage}"))?,
        None => 100_000,
    };
    let dir = dir.unwrap_or_else(|| {
        let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target");
        target
            .canonicalize()
            .unwrap_or(target)
            .join(format!("federated-{elements}"))
    });
    let size = FederatedSize::for_elements(elements);
    let model = federated_model(size);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for f in &model.files {
        let path = dir.join(f.name);
        std::fs::write(&path, &f.text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!(
            "{}: {} elements, {:.1} MB",
            path.display(),
            f.elements,
            f.text.len() as f64 / 1e6
        );
    }
    let modes = [
        ("intersection", Mode::INTERSECTION),
        ("collision", Mode::COLLISION),
        ("touching", Mode::TOUCHING),
        ("clearance", Mode::Clearance { distance: 0.05 }),
        ("duplicate", Mode::Duplicate { tolerance: 0.001 }),
    ];
    let planted: Vec<serde_json::Value> = model
        .planted
        .iter()
        .map(|p| {
            let expected: serde_json::Map<String, serde_json::Value> = modes
                .iter()
                .map(|(name, mode)| {
                    let kind = p.expected(*mode).map(|k| k.as_str());
                    (name.to_string(), serde_json::json!(kind))
                })
                .collect();
            serde_json::json!({
                "kind": p.kind.as_str(),
                "host": p.host,
                "planted": p.planted,
                "what": p.what,
                "expected": expected,
            })
        })
        .collect();
    let path = dir.join("planted.json");
    let text = serde_json::to_string_pretty(&serde_json::json!({
        "bays_x": size.bays_x,
        "bays_y": size.bays_y,
        "storeys": size.storeys,
        "elements": size.elements(),
        "planted": planted,
    }))
    .map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "{}: {} planted clashes ({} bays × {} bays × {} storeys, {} elements)",
        path.display(),
        model.planted.len(),
        size.bays_x,
        size.bays_y,
        size.storeys,
        size.elements()
    );
    Ok(())
}
