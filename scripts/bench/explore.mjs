#!/usr/bin/env node
// The bounded search's speed (issue 32's targets, reported, never asserted): distinct states per second
// of one search on the 3-node lock service (sim/scenarios/fencing-pause.toml without its steps: 3
// servers, 2 workers, a store; depth 2, 2 faults, pauses of 250/1000/2000 ms, 50 ms grain, a 4 s
// horizon, no shrinking), natively and compiled to wasm in headless Chromium, in the same run, the
// two sides' order swapped each round. Natively it is `target/sweep/quorumlab explore … --bench`
// (opt-level 3, as `./x sweep` builds it); in the page it is sim/bench-wasm's `explore_search`, built
// with the app's release profile (the engine at opt-level "s"), timed with performance.now(). Both
// sides must count the same states and duplicates (the search is deterministic), or the run says so.
// `--wasm-profile sweep` builds the page's wasm with the sweep profile instead (the engine at
// opt-level 3): what a search worker built for speed rather than size would run at.
//   node scripts/bench/explore.mjs [--rounds 3] [--states 200000] [--wasm-profile release|sweep]
//   (or ./x bench --explore)
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist } from '../../e2e/support/server.mjs';
import { openPage } from './frames.mjs';
import { REPO_ROOT, median, option, positiveNumberOption } from './common.mjs';

const ROUNDS = Math.round(positiveNumberOption('rounds', 3));
const STATES = Math.round(positiveNumberOption('states', 200_000));
const DEPTH = 2;
const HORIZON_MS = 4_000;
const SCENARIO = join(REPO_ROOT, 'sim', 'scenarios', 'fencing-pause.toml');
const NATIVE_BINARY = join(REPO_ROOT, 'target', 'sweep', 'quorumlab');
const WASM_PROFILE = option('wasm-profile', 'release');
if (!['release', 'sweep'].includes(WASM_PROFILE)) throw new Error('--wasm-profile: release or sweep');
const WASM_FILE = join(REPO_ROOT, 'target', 'wasm32-unknown-unknown', WASM_PROFILE, 'quorumlab_bench_wasm.wasm');
const WASM_LABEL = WASM_PROFILE === 'release' ? 'release profile, opt-level "s"' : 'sweep profile, opt-level 3';
const log = (line) => console.error(`explore: ${line}`);

const PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>explore bench</title></head>
<body><script type="module">
import init, { explore_search } from './quorumlab_bench_wasm.js';
await init();
window.explore_search = explore_search;
document.body.insertAdjacentHTML('beforeend', '<p id="ready">ready</p>');
</script></body></html>`;

function cargo(args) {
  execFileSync('cargo', args, { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}

async function build() {
  cargo(['build', '--profile', 'sweep', '--locked', '-p', 'quorumlab-sim', '--bin', 'quorumlab']);
  cargo(['build', '--profile', WASM_PROFILE, '--locked', '--target', 'wasm32-unknown-unknown', '-p', 'quorumlab-bench-wasm']);
  const folder = await mkdtemp(join(tmpdir(), 'quorumlab-bench-explore-'));
  execFileSync('wasm-bindgen', ['--target', 'web', '--out-dir', folder, WASM_FILE], { stdio: 'inherit' });
  await writeFile(join(folder, 'index.html'), PAGE);
  return folder;
}

function natively() {
  const args = ['explore', SCENARIO, '--without-steps', '--depth', String(DEPTH), '--faults', String(DEPTH),
    '--states', String(STATES), '--horizon-ms', String(HORIZON_MS), '--no-shrink', '--bench'];
  const result = JSON.parse(execFileSync(NATIVE_BINARY, args, { encoding: 'utf8' }));
  return { states: result.states, duplicates: result.duplicates, seconds: result.search_seconds };
}

async function inPage(page, toml) {
  const timed = await page.evaluate(({ toml, depth, states, horizon }) => {
    const started = performance.now();
    const counts = window.explore_search(toml, depth, states, horizon);
    return { counts: Array.from(counts), ms: performance.now() - started };
  }, { toml, depth: DEPTH, states: STATES, horizon: HORIZON_MS });
  if (timed.counts.length !== 2) throw new Error('the page refused the search');
  return { states: timed.counts[0], duplicates: timed.counts[1], seconds: timed.ms / 1_000 };
}

async function main() {
  log(`building the native command (sweep profile) and sim/bench-wasm (${WASM_PROFILE}, wasm32)`);
  const folder = await build();
  const toml = await readFile(SCENARIO, 'utf8');
  const server = await serveDist(folder);
  const opened = await openPage(server.url, '#ready');
  const samples = { native: [], wasm: [] };
  try {
    await opened.page.evaluate((text) => window.explore_search(text, 1, 5_000, 1_000), toml);
    for (let round = 0; round < ROUNDS; round += 1) {
      const sides = round % 2 === 0 ? ['native', 'wasm'] : ['wasm', 'native'];
      for (const side of sides) {
        const result = side === 'native' ? natively() : await inPage(opened.page, toml);
        samples[side].push(result);
        log(`round ${round + 1}, ${side}: ${result.states} states in ${result.seconds.toFixed(2)} s = ${Math.round(result.states / result.seconds)} states/s`);
      }
    }
  } finally {
    await opened.close();
    await server.close();
    await rm(folder, { recursive: true, force: true });
  }
  const same = [...samples.native, ...samples.wasm].every((sample) =>
    sample.states === samples.native[0].states && sample.duplicates === samples.native[0].duplicates);
  const rate = (side) => median(samples[side].map((sample) => sample.states / sample.seconds));
  console.log(`| search (fenced lock service, depth ${DEPTH}, ${STATES} states, ${HORIZON_MS} ms) | median states/s of ${ROUNDS} |`);
  console.log('| --- | ---: |');
  console.log(`| native (sweep build, opt-level 3) | ${Math.round(rate('native')).toLocaleString('en-US')} |`);
  console.log(`| wasm in Chromium (${WASM_LABEL}) | ${Math.round(rate('wasm')).toLocaleString('en-US')} |`);
  console.log(`\nwasm / native: ${(rate('wasm') / rate('native')).toFixed(2)}; both sides counted the same states and duplicates: ${same ? 'yes' : 'NO'} (${samples.native[0].states} states, ${samples.native[0].duplicates} duplicates)`);
  if (opened.problems.length > 0) console.log(`page problems: ${opened.problems.join('; ')}`);
}

await main();
