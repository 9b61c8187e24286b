#!/usr/bin/env node
// Where the bounded search's time goes in wasm, before anyone optimises it: the benchmark search of
// scripts/bench/explore.mjs (the 3-node lock service, depth 2, 200,000 states, 4 s horizon) run once in
// headless Chromium under the DevTools CPU profiler (the Profiler domain, 200 µs sampling), from
// sim/bench-wasm built with the app's release profile. wasm-bindgen keeps the wasm's name section, so
// wasm frames carry Rust's (mangled) names. Prints the top self-time functions and the inclusive share
// of chosen frames (a sample counts once per frame name on its stack). Reports, never asserts.
//   cargo build --profile release --locked --target wasm32-unknown-unknown -p quorumlab-bench-wasm
//   node scripts/bench/explore-profile.mjs [--states 200000]
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist } from '../../e2e/support/server.mjs';
import { openPage } from './frames.mjs';
import { REPO_ROOT, positiveNumberOption } from './common.mjs';

const STATES = Math.round(positiveNumberOption('states', 200_000));
const SCENARIO = join(REPO_ROOT, 'sim', 'scenarios', 'fencing-pause.toml');
const WASM_FILE = join(REPO_ROOT, 'target', 'wasm32-unknown-unknown', 'release', 'quorumlab_bench_wasm.wasm');
const TOP_ROWS = 25;
/** Frames whose inclusive share is asked for: a substring of the (mangled) name, and a label. */
const FRAMES = [
  ['state_digest', 'World::state_digest (the whole digest)'],
  ['__multi3', 'compiler-rt\'s __multi3 (128-bit multiply)'],
  ['raft::log::Log', 'a Raft log hashed (raft::log::Log)'],
  ['World::step', 'World::step (simulation)'],
  ['choices::choices', 'explore::choices::choices'],
  ['as core::clone::Clone>::clone', 'clone (any)'],
  ['trace', 'anything named trace'],
];
const PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>explore profile</title></head>
<body><script type="module">
import init, { explore_search } from './quorumlab_bench_wasm.js';
await init();
window.explore_search = explore_search;
document.body.insertAdjacentHTML('beforeend', '<p id="ready">ready</p>');
</script></body></html>`;

/** Self samples per function name, and inclusive samples per chosen frame. */
function summarise(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const inclusive = new Map(FRAMES.map(([key]) => [key, 0]));
  let total = 0;
  const walk = (node, onStack) => {
    const name = node.callFrame.functionName || `(${node.callFrame.url || 'anonymous'})`;
    const stack = new Set(onStack).add(name);
    const hits = node.hitCount || 0;
    total += hits;
    self.set(name, (self.get(name) || 0) + hits);
    for (const [key] of FRAMES) {
      if (hits > 0 && [...stack].some((frame) => frame.includes(key))) inclusive.set(key, inclusive.get(key) + hits);
    }
    for (const child of node.children || []) walk(byId.get(child), stack);
  };
  walk(profile.nodes[0], new Set());
  return { self, inclusive, total };
}

async function main() {
  const folder = await mkdtemp(join(tmpdir(), 'quorumlab-explore-profile-'));
  execFileSync('wasm-bindgen', ['--target', 'web', '--out-dir', folder, WASM_FILE], { stdio: 'inherit' });
  await writeFile(join(folder, 'index.html'), PAGE);
  const toml = await readFile(SCENARIO, 'utf8');
  const server = await serveDist(folder);
  const opened = await openPage(server.url, '#ready');
  try {
    await opened.page.evaluate((text) => window.explore_search(text, 1, 5_000, 1_000), toml);
    const timed = await opened.page.evaluate(({ text, states }) => {
      const started = performance.now();
      const counts = Array.from(window.explore_search(text, 2, states, 4_000));
      return { counts, ms: performance.now() - started };
    }, { text: toml, states: STATES });
    console.log(`unprofiled: ${timed.counts[0]} states in ${(timed.ms / 1000).toFixed(2)} s (${Math.round(timed.counts[0] / (timed.ms / 1000))} states/s)`);
    const cdp = await opened.page.context().newCDPSession(opened.page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const run = await opened.page.evaluate(({ text, states }) => {
      const started = performance.now();
      const counts = Array.from(window.explore_search(text, 2, states, 4_000));
      return { counts, ms: performance.now() - started };
    }, { text: toml, states: STATES });
    const { profile } = await cdp.send('Profiler.stop');
    await writeFile(join(REPO_ROOT, 'target', 'explore-profile.cpuprofile'), JSON.stringify(profile));
    const { self, inclusive, total } = summarise(profile);
    const share = (hits) => `${((100 * hits) / total).toFixed(1)}%`;
    console.log(`${run.counts[0]} states, ${run.counts[1]} duplicates in ${(run.ms / 1000).toFixed(2)} s under the profiler (${Math.round(run.counts[0] / (run.ms / 1000))} states/s); ${total} samples`);
    console.log('\n| frame (inclusive) | share |\n| --- | ---: |');
    for (const [key, label] of FRAMES) console.log(`| ${label} | ${share(inclusive.get(key))} |`);
    console.log('\n| function (self) | share |\n| --- | ---: |');
    const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP_ROWS);
    for (const [name, hits] of top) console.log(`| \`${name.slice(0, 110)}\` | ${share(hits)} |`);
    if (opened.problems.length > 0) console.log(`page problems: ${opened.problems.join('; ')}`);
  } finally {
    await opened.close();
    await server.close();
    await rm(folder, { recursive: true, force: true });
  }
}

await main();
