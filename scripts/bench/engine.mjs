// Engine throughput, native and in wasm, in the same run: the steady Raft load of `quorumlab bench`
// (a put to the leader every 10 ms) at 5 and 51 nodes, and the bare event-queue loop (a binary heap of
// (time, sequence) events, pop one, push one: the physical floor of one event's cost). Both workloads
// are `quorumlab_sim::bench`; natively `target/sweep/quorumlab bench` (the command built for speed, opt-level 3, as `./x sweep`
// builds it; the app's release profile is opt-level "z" for size) times them with Instant, and in
// headless Chromium the crate sim/bench-wasm (built with cargo and wasm-bindgen --target web, served
// from a temporary folder) is timed with performance.now(). Used by scripts/bench/run.mjs (`./x bench`).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist } from '../../e2e/support/server.mjs';
import { openPage } from './frames.mjs';
import { REPO_ROOT } from './common.mjs';

/**
 * Sized so each sample takes a few tenths of a second natively on the 2-core dev machine. A scenario holds
 * at most 10,000 steps (100 simulated seconds of this load), so the 5-node sample is `repeats` runs.
 */
export const ENGINE_WORKLOADS = [
  { key: 'steady_load_nodes_5', label: 'Raft steady load, 5 nodes', nodes: 5, simulated_seconds: 100, repeats: 3 },
  { key: 'steady_load_nodes_51', label: 'Raft steady load, 51 nodes', nodes: 51, simulated_seconds: 30, repeats: 1 },
  { key: 'bare_loop', label: 'bare event-queue loop', events: 20_000_000, repeats: 1 },
];

/** Adds up `repeats` timed calls into one sample (the same work each time: the engine is deterministic). */
async function repeated(workload, once) {
  const calls = [];
  for (let call = 0; call < workload.repeats; call += 1) calls.push(await once());
  const events = calls.reduce((sum, result) => sum + result.events, 0);
  const wall_seconds = calls.reduce((sum, result) => sum + result.wall_seconds, 0);
  return { events, wall_seconds, events_per_second: events / wall_seconds, checksum_low_32: calls[0].checksum_low_32 };
}

const NATIVE_BINARY = join(REPO_ROOT, 'target', 'sweep', 'quorumlab');
const WASM_FILE = join(REPO_ROOT, 'target', 'wasm32-unknown-unknown', 'release', 'quorumlab_bench_wasm.wasm');

const PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>engine bench</title></head>
<body><script type="module">
import init, { steady_load, bare_loop } from './quorumlab_bench_wasm.js';
await init();
window.engine = { steady_load, bare_loop };
document.body.insertAdjacentHTML('beforeend', '<p id="ready">ready</p>');
</script></body></html>`;

function cargo(args) {
  execFileSync('cargo', args, { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Builds the native command and the wasm crate (both incremental), and the wasm page's folder. */
export async function buildEngineBenches() {
  cargo(['build', '--profile', 'sweep', '--locked', '-p', 'quorumlab-sim', '--bin', 'quorumlab']);
  cargo(['build', '--release', '--locked', '--target', 'wasm32-unknown-unknown', '-p', 'quorumlab-bench-wasm']);
  const folder = await mkdtemp(join(tmpdir(), 'quorumlab-bench-wasm-'));
  execFileSync('wasm-bindgen', ['--target', 'web', '--out-dir', folder, WASM_FILE], { stdio: 'inherit' });
  await writeFile(join(folder, 'index.html'), PAGE);
  return folder;
}

function runNative(workload) {
  const args = workload.events
    ? ['bench', '--bare-loop', '--events', String(workload.events)]
    : ['bench', '--nodes', String(workload.nodes), '--seconds', String(workload.simulated_seconds)];
  const [result] = JSON.parse(execFileSync(NATIVE_BINARY, args, { encoding: 'utf8' }));
  return {
    events: result.events_processed,
    wall_seconds: result.wall_seconds,
    // The page sees the low 32 bits of the bare loop's checksum.
    checksum_low_32: result.checksum ? Number(BigInt(`0x${result.checksum}`) & 0xffffffffn) : undefined,
  };
}

async function runWasm(page, workload) {
  const timed = await page.evaluate((work) => {
    const started = performance.now();
    const value = work.events ? window.engine.bare_loop(work.events) : window.engine.steady_load(work.nodes, work.simulated_seconds);
    return { value, wall_ms: performance.now() - started };
  }, workload);
  const events = workload.events ?? timed.value;
  const wall_seconds = timed.wall_ms / 1_000;
  return { events, wall_seconds, checksum_low_32: workload.events ? timed.value : undefined };
}

/**
 * `rounds` rounds; each runs every workload natively and in the page, the two sides' order swapped on
 * odd rounds. The page is opened once and warmed up (one small call of each export) before round 1.
 */
export async function measureEngine(folder, rounds, log) {
  const server = await serveDist(folder);
  const opened = await openPage(server.url, '#ready');
  const samples = Object.fromEntries(ENGINE_WORKLOADS.map((workload) => [workload.key, { native: [], wasm: [] }]));
  try {
    await opened.page.evaluate(() => {
      window.engine.steady_load(5, 20);
      window.engine.bare_loop(1_000_000);
    });
    for (let round = 0; round < rounds; round += 1) {
      for (const workload of ENGINE_WORKLOADS) {
        const sides = round % 2 === 0 ? ['native', 'wasm'] : ['wasm', 'native'];
        for (const side of sides) {
          const once = side === 'native' ? async () => runNative(workload) : () => runWasm(opened.page, workload);
          const result = await repeated(workload, once);
          samples[workload.key][side].push(result);
          log(`engine round ${round + 1}: ${workload.label}, ${side}: ${(result.events_per_second / 1e6).toFixed(2)} M events/s`);
        }
      }
    }
  } finally {
    await opened.close();
    await server.close();
    await rm(folder, { recursive: true, force: true });
  }
  const labels = Object.fromEntries(ENGINE_WORKLOADS.map((workload) => [workload.key, workload.label]));
  return { workloads: ENGINE_WORKLOADS, labels, samples, problems: opened.problems };
}
