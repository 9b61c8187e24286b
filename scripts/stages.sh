# The test stages of `./x test`, in the order they run. Sourced by ./x.
# Every stage runs even if an earlier one failed (except where it needs an earlier stage's output), and a
# summary closes the run; the exit status is non-zero if anything failed.

ALL_STAGES=(fmt clippy-native clippy-wasm native build wasm e2e seed-overlap serve)

stage_fmt() { cargo fmt --all --check; }
stage_clippy-native() { cargo clippy --workspace --all-targets --locked -- -D warnings; }
stage_clippy-wasm() { cargo clippy -p quorumlab --target wasm32-unknown-unknown --all-targets --locked -- -D warnings; }
stage_native() { cargo test --workspace --locked; }
stage_build() { trunk build --release; }
stage_wasm() { CHROMEDRIVER=/usr/bin/chromedriver cargo test -p quorumlab --target wasm32-unknown-unknown --locked; }
stage_e2e() {
  [ -f dist/index.html ] || { echo "dist/ is missing: run the build stage first"; return 1; }
  node --test --test-concurrency=1 e2e/*.test.mjs
}
# No sentence of the project may repeat the source texts the lessons are built from.
stage_seed-overlap() {
  local tool="$REPO_ROOT/../shared/tools/seed-overlap"
  if [ ! -x "$tool" ]; then
    # A clone outside this workspace has no ../shared: the check needs the source texts, so it is skipped.
    echo "seed-overlap: SKIPPED — $tool is not here (it and the source texts live in ../shared, beside this"
    echo "workspace's clone only); nothing to compare the lessons against"
    return 0
  fi
  "$tool" "$REPO_ROOT" --words 10
}

# The README's first command from a fresh clone: serves, survives a flood of file events, and says so and
# serves again when Trunk dies (scripts/serve-check.mjs).
stage_serve() { node scripts/serve-check.mjs; }

run_test_stages() {
  local stages=("$@")
  [ ${#stages[@]} -gt 0 ] || stages=("${ALL_STAGES[@]}")
  local passed=() failed=() started elapsed
  for stage in "${stages[@]}"; do
    declare -F "stage_$stage" >/dev/null || { echo "unknown stage: $stage (stages: ${ALL_STAGES[*]})" >&2; exit 2; }
    say "stage $stage"
    started=$(date +%s)
    if "stage_$stage"; then
      elapsed=$(($(date +%s) - started)); passed+=("$stage (${elapsed}s)")
    else
      elapsed=$(($(date +%s) - started)); failed+=("$stage (${elapsed}s)")
    fi
  done
  echo
  echo "Quorum Lab test summary"
  for stage in "${passed[@]}"; do echo "  ok    $stage"; done
  for stage in "${failed[@]}"; do echo "  FAIL  $stage"; done
  echo "stages: ${#passed[@]} passed, ${#failed[@]} failed"
  # A full disk once failed every stage after clippy; say how much the run used and what is left.
  echo "disk: target/ holds $(du -sh target 2>/dev/null | cut -f1), $(df -h --output=avail . | tail -1 | tr -d ' ') free here"
  [ ${#failed[@]} -eq 0 ]
}
