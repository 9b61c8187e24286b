# Installs the tools Quorum Lab builds and tests with, each only when it is missing or the wrong version.
# Sourced by ./x. Only package registries are used (crates.io, npm, Debian); nothing else is downloaded.

TRUNK_VERSION=0.21.14
export PATH="$HOME/.cargo/bin:$REPO_ROOT/node_modules/.bin:$PATH"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# The wasm-bindgen CLI must match the library version recorded in Cargo.lock exactly.
locked_wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

ensure_rust_parts() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown || {
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  }
  cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
  cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
}

ensure_trunk() {
  if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
    say "installing trunk $TRUNK_VERSION (takes about ten minutes, once)"
    cargo install trunk --version "$TRUNK_VERSION" --locked
  fi
}

ensure_wasm_bindgen_cli() {
  local version
  version=$(locked_wasm_bindgen_version)
  [ -n "$version" ] || { echo "Cargo.lock names no wasm-bindgen version" >&2; exit 1; }
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    say "installing wasm-bindgen-cli $version"
    # Not --locked: the registry mirror lacks one of its locked dependencies.
    cargo install wasm-bindgen-cli --version "$version" --force
  fi
}

# npm packages: wasm-opt (binaryen 132, which Trunk.toml pins) and playwright-core. Reinstalled only when
# package-lock.json changes.
ensure_node_modules() {
  local stamp=node_modules/.quorumlab-lock-sha
  local wanted
  wanted=$(sha256sum package-lock.json | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    say "installing npm packages (npm ci)"
    npm ci --no-audit --no-fund
    echo "$wanted" >"$stamp"
  fi
}

ensure_chromium() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing Debian's chromium and chromium-driver"
    as_root apt-get update
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y --no-install-recommends chromium chromium-driver
  fi
}

bootstrap_build_tools() {
  ensure_rust_parts
  ensure_trunk
  ensure_wasm_bindgen_cli
  ensure_node_modules
}

bootstrap_browser_tools() {
  ensure_chromium
}
