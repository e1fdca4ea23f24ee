#!/usr/bin/env bash
# Builds peng's WebAssembly package from the crate crates/peng-wasm:
#   web/pkg/       the ES module for pages (wasm-bindgen --target web), shrunk
#                  with wasm-opt (npm's binaryen, installed into
#                  web/node_modules with the other packages of package.json);
#   web/pkg-node/  the same module for Node (the binding tests);
#   web/pkg-physics/  the module with the physics world (feature "physics").
# Installs what is missing: the wasm32 target and the wasm-bindgen tool at
# the version the crate pins.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' crates/peng-wasm/Cargo.toml)
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
    cargo install wasm-bindgen-cli --version "$version"
fi

target=${CARGO_TARGET_DIR:-target}
wasm=$target/wasm32-unknown-unknown/wasm/peng_wasm.wasm
rm -rf web/pkg web/pkg-node web/pkg-physics

# wasm-opt from npm's binaryen (web/package-lock.json pins it); Debian 12's
# binaryen 108 breaks the reference-type tables wasm-bindgen writes.
# (Again whenever package-lock.json is newer than the installed packages.)
if [ ! web/node_modules/.package-lock.json -nt web/package-lock.json ]; then
    npm ci --prefix web --no-audit --no-fund
fi
shrink() {
    # Flattening and re-looping before the size passes: 1 KB less gzipped.
    web/node_modules/.bin/wasm-opt --flatten --rereloop -Oz -Oz --enable-reference-types --enable-bulk-memory \
        --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
        --enable-multivalue "$1" -o "$1"
}

# The physics build (its own profile, see Cargo.toml), then the collision
# build.
cargo build --profile wasm-physics --target wasm32-unknown-unknown -p peng-wasm --features physics
wasm-bindgen --target web --out-dir web/pkg-physics "$target/wasm32-unknown-unknown/wasm-physics/peng_wasm.wasm"
shrink web/pkg-physics/peng_wasm_bg.wasm

cargo build --profile wasm --target wasm32-unknown-unknown -p peng-wasm
wasm-bindgen --target web --out-dir web/pkg "$wasm"
wasm-bindgen --target nodejs --out-dir web/pkg-node "$wasm"
# Node's module is CommonJS; web/package.json makes .js files ES modules.
echo '{ "type": "commonjs" }' > web/pkg-node/package.json
shrink web/pkg/peng_wasm_bg.wasm

# The size budgets, gzipped: 100 KB for the collision build, 250 KB with
# physics (a page that only needs triggers should load less than an image).
over=0
for p in pkg:100000 pkg-physics:250000; do
    dir=${p%%:*} budget=${p##*:}
    size=$(gzip -9 -c web/$dir/peng_wasm_bg.wasm | wc -c)
    echo "web/$dir: $size bytes gzipped (budget $budget)"
    [ "$size" -le "$budget" ] || { echo "web/$dir is over its size budget" >&2; over=1; }
done
exit $over
