# The test stages of `./x test`, in the order they run. Sourced by ./x.
# Every stage runs even if an earlier one failed (except where it needs an earlier stage's output), and a
# summary closes the run; the exit status is non-zero if anything failed.

ALL_STAGES=(fmt clippy-native clippy-wasm native fuzz build wasm e2e seed-overlap serve)

# The fuzz stage: a short run of tests/fuzz.rs (`./x fuzz` is the long one). The seed is the one the
# issue that made this a stage used for its 100,000-input run, so these inputs are that run's first ones;
# the count keeps the stage near a minute on a 2-core machine (a few thousand inputs for each parser).
FUZZ_STAGE_SEED=20261205
FUZZ_STAGE_INPUTS=40000

stage_fmt() { cargo fmt --all --check; }
stage_clippy-native() { cargo clippy --workspace --all-targets --locked -- -D warnings; }
stage_clippy-wasm() { cargo clippy -p quorumlab --target wasm32-unknown-unknown --all-targets --locked -- -D warnings; }
# The fuzz test is the fuzz stage's, optimised: here, unoptimised, it would run its 1,000 inputs for ~30 s.
stage_native() { cargo test --workspace --locked -- --skip every_parser_survives_the_fuzzer; }
stage_fuzz() {
  QUORUMLAB_FUZZ_INPUTS=$FUZZ_STAGE_INPUTS QUORUMLAB_FUZZ_SEED=$FUZZ_STAGE_SEED QUORUMLAB_FUZZ_LIMIT_MS=1500 \
    cargo test --profile fuzz -p quorumlab --test fuzz --locked -- --nocapture
}
stage_build() { trunk build --release; }
stage_wasm() { CHROMEDRIVER=/usr/bin/chromedriver cargo test -p quorumlab --target wasm32-unknown-unknown --locked; }
# Two test files at a time: most of a test is waiting for simulated time to pass in a page, so two share
# this 2-core machine well (ten files: 148 s one at a time, 102-105 s two or three at a time, measured
# alternately under load on 2026-12-06). Every test waits on what the page shows, with deadlines meant for
# a loaded machine. QUORUMLAB_E2E_JOBS=1 runs them one at a time.
stage_e2e() {
  [ -f dist/index.html ] || { echo "dist/ is missing: run the build stage first"; return 1; }
  # The lesson walk (every step of every lesson by hand, each lesson at one of the four sizes in turn)
  # must start first: its four files are the longest, and a long file started last is the stage's tail.
  # Node runs test files in sorted order, whatever order they are given in: hence the folder's "0-".
  node --test --test-concurrency="${QUORUMLAB_E2E_JOBS:-2}" e2e/0-walk/*.test.mjs e2e/*.test.mjs
}
# On request: the lesson walk alone (e2e/lesson-walk.mjs, files in e2e/0-walk/), which the e2e stage also
# runs. QUORUMLAB_WALK=every-size walks every lesson at every size (about four times as long).
stage_walk() {
  [ -f dist/index.html ] || { echo "dist/ is missing: run the build stage first"; return 1; }
  node --test --test-concurrency="${QUORUMLAB_E2E_JOBS:-2}" e2e/0-walk/*.test.mjs
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
    declare -F "stage_$stage" >/dev/null || { echo "unknown stage: $stage (stages: ${ALL_STAGES[*]}; on request: walk)" >&2; exit 2; }
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
