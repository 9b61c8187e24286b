#!/usr/bin/env node
// Where the time goes, before anyone optimises: profiles of Quorum Lab's 5-node and 51-node runs at 1×
// (and of RaftScope, for its rendering work, when it is there) in headless Chromium, and of the engine
// natively with perf.
//   - Page: a DevTools trace (categories devtools.timeline) and a CPU profile (the Profiler domain) over
//     the measured seconds, summarised as the main thread's self time per trace event (script, style,
//     layout, paint, ...) and the top self-time functions (JS and wasm). The release wasm in dist/ has no
//     names (wasm-opt drops them), so the page is served from a copy of dist/ whose wasm is Trunk's
//     wasm-bindgen output before wasm-opt (target/wasm-bindgen/release/, same code and JS glue, with
//     its name section); it is a little slower than the -Oz file, and its names are what count here.
//   - Engine: `perf record` (software cpu-clock event, so it also works where hardware counters are not
//     exposed; DWARF call graphs) on `quorumlab bench` built with CARGO_PROFILE_RELEASE_DEBUG=true in
//     target/perf/: the top self-time symbols, and the share of samples with chosen frames on the stack.
// Writes the raw files to target/bench/profile/ and prints markdown. Reports, never asserts.
//
//   ./x bench --profile [--seconds 8] [--no-perf]      (or: node scripts/bench/profile.mjs ...)
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist } from '../../e2e/support/server.mjs';
import { OUR_CASES, measureAnimation, openPage, quorumLabClock, raftScopeClock, startQuorumLab, startRaftScope } from './frames.mjs';
import { RAFTSCOPE_DIR, REPO_ROOT, flag, positiveNumberOption, raftScopeAvailable, rounded, sleep } from './common.mjs';

const SECONDS = positiveNumberOption('seconds', 8);
const OUTPUT_DIR = join(REPO_ROOT, 'target', 'bench', 'profile');
const NAMED_WASM = join(REPO_ROOT, 'target', 'wasm-bindgen', 'release', 'quorumlab-app_bg.wasm');
const TOP_ROWS = 15;
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'];

/** What is profiled: our two 1× cases, and RaftScope (its own code is JS) to compare the rendering work. */
function profiledPages(ourUrl, raftScopeUrl) {
  const ours = OUR_CASES.filter((ourCase) => ourCase.speed === 1).map((ourCase) => ({
    key: ourCase.key,
    label: `Quorum Lab, ${ourCase.label}`,
    url: ourUrl,
    ready: '[data-testid=app-root]',
    start: (page) => startQuorumLab(page, ourCase),
    clock: quorumLabClock,
  }));
  if (!raftScopeUrl) return ours;
  const reference = { key: 'raftscope', label: 'RaftScope, 5 nodes', url: raftScopeUrl, ready: '#servers', start: startRaftScope, clock: raftScopeClock };
  return [reference, ...ours];
}
const PERF_WORKLOADS = [
  { nodes: 5, simulated_seconds: 100, repeats: 4 },
  { nodes: 51, simulated_seconds: 30, repeats: 2 },
];
/** Frames whose share of the engine's samples (inclusive: anywhere on the stack) the profile reports. */
const PERF_STACK_MARKERS = [
  ['quorumlab_sim::runner::ScenarioRun::run_to_end', 'the whole run'],
  ['quorumlab_sim::world::World::step', 'World::step (one event)'],
  ['quorumlab_sim::trace::TraceLog::record', 'TraceLog::record (keep a trace record, hash it)'],
  ['quorumlab_sim::engine::fingerprint::Fingerprint::add', '… of which the run fingerprint (Fingerprint::add)'],
  ['quorumlab_sim::raft::', 'Raft (quorumlab_sim::raft)'],
  ['quorumlab_sim::checker::', 'checkers (quorumlab_sim::checker)'],
  ['BinaryHeap', 'the event queue (BinaryHeap)'],
];
const log = (line) => console.error(`profile: ${line}`);

/** A copy of dist/ whose wasm keeps its function names (see the header). */
async function namedDist() {
  const folder = join(OUTPUT_DIR, 'dist-with-names');
  await cp(join(REPO_ROOT, 'dist'), folder, { recursive: true });
  // A split build's first module (scripts/build/split-app.mjs) has no unsplit twin with names that its
  // glue could load: it is profiled as shipped, its functions unnamed.
  if ((await readFile(join(folder, 'index.html'), 'utf8')).includes('name="quorumlab-parts"')) {
    console.error('profile.mjs: a split build; its wasm keeps no function names, so the tables name none');
    return folder;
  }
  const wasmFile = (await readdir(folder)).find((name) => name.startsWith('quorumlab-app-') && name.endsWith('_bg.wasm'));
  await cp(NAMED_WASM, join(folder, wasmFile));
  return folder;
}

/** Self time per event name on the renderer's main thread, from a Chrome trace's complete events. */
function traceSelfTimes(trace) {
  const mainThreads = new Set(
    trace.traceEvents
      .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const events = trace.traceEvents
    .filter((event) => event.ph === 'X' && mainThreads.has(`${event.pid}:${event.tid}`) && event.dur > 0)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const selfUs = new Map();
  const stack = [];
  for (const event of events) {
    while (stack.length > 0 && stack.at(-1).end <= event.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) selfUs.set(parent.name, selfUs.get(parent.name) - event.dur);
    selfUs.set(event.name, (selfUs.get(event.name) ?? 0) + event.dur);
    stack.push({ name: event.name, end: event.ts + event.dur });
  }
  return selfUs;
}

const SPECIAL_NODES = new Set(['(program)', '(idle)', '(garbage collector)', '(root)']);

/** The crate a Rust function name belongs to ("<indexmap::inner::Core<K,V> as ...>::clone" -> indexmap). */
function crateOf(functionName) {
  return functionName.match(/^<?([a-z_][a-z0-9_]*)(\[[0-9a-f]+\])?::/)?.[1] ?? '(other)';
}

/**
 * Self time from a CPU profile's samples, three ways: per function, per kind of code (wasm, the JS glue,
 * the browser's built-ins called from them, and the profiler's own buckets: "(program)" is the browser's
 * native work outside any script, such as style, layout and paint), and per crate for the wasm.
 */
function profileSelfTimes(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map();
  const byKind = new Map();
  const byCrate = new Map();
  const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
  profile.samples.forEach((id, index) => {
    const us = profile.timeDeltas[index] ?? 0;
    const frame = nodes.get(id).callFrame;
    const name = (frame.functionName || '(anonymous)').replace(/::h[0-9a-f]{16}$/, '');
    const isWasm = frame.url.endsWith('.wasm') || frame.url.startsWith('wasm://');
    const kind = SPECIAL_NODES.has(name) ? name : isWasm ? 'wasm' : frame.url ? 'JS (glue)' : 'browser built-ins called from script';
    add(byFunction, `${name} [${isWasm ? 'wasm' : frame.url ? 'JS' : 'browser'}]`, us);
    add(byKind, kind, us);
    if (isWasm) add(byCrate, crateOf(name), us);
  });
  return { byFunction, byKind, byCrate };
}

function topRows(selfUs, wallSeconds) {
  const total = [...selfUs.values()].reduce((sum, value) => sum + value, 0);
  return [...selfUs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_ROWS)
    .map(([name, us]) => ({ name, ms_per_s: us / 1_000 / wallSeconds, share: us / total }));
}

function profileTables({ byFunction, byKind, byCrate }, seconds) {
  byFunction.delete('(idle) [browser]');
  byFunction.delete('(program) [browser]');
  return {
    kinds_self: topRows(byKind, seconds),
    crates_self: topRows(byCrate, seconds),
    functions_self: topRows(byFunction, seconds),
  };
}

async function profilePage(target) {
  const opened = await openPage(target.url, target.ready);
  try {
    await target.start(opened.page);
    await sleep(1_500);
    const cdp = await opened.page.context().newCDPSession(opened.page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await opened.browser.startTracing(opened.page, { categories: TRACE_CATEGORIES });
    await cdp.send('Profiler.start');
    const measured = await measureAnimation(opened.page, SECONDS, target.clock);
    const { profile } = await cdp.send('Profiler.stop');
    const trace = JSON.parse((await opened.browser.stopTracing()).toString('utf8'));
    await writeFile(join(OUTPUT_DIR, `${target.key}.cpuprofile`), JSON.stringify(profile));
    await writeFile(join(OUTPUT_DIR, `${target.key}.trace.json`), JSON.stringify(trace));
    // The trace and profile also cover measureAnimation's warm-up: divide by the whole profiled span.
    const profiledSeconds = (profile.endTime - profile.startTime) / 1e6;
    return {
      key: target.key,
      label: target.label,
      measured,
      profiled_seconds: profiledSeconds,
      trace_self: topRows(traceSelfTimes(trace), profiledSeconds),
      ...profileTables(profileSelfTimes(profile), profiledSeconds),
      problems: opened.problems,
    };
  } finally {
    await opened.close();
  }
}

/** perf on the native engine; the top self-time symbols as perf report prints them. */
function perfEngine({ nodes, simulated_seconds: simulatedSeconds, repeats }) {
  // Its own target folder, so that the benchmark's binary in target/release/ is not rebuilt each time.
  const targetDir = join(REPO_ROOT, 'target', 'perf');
  execFileSync('cargo', ['build', '--profile', 'sweep', '--locked', '-p', 'quorumlab-sim', '--bin', 'quorumlab', '--target-dir', targetDir], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CARGO_PROFILE_SWEEP_DEBUG: 'true' },
  });
  const data = join(OUTPUT_DIR, `perf-nodes-${nodes}.data`);
  const binary = join(targetDir, 'sweep', 'quorumlab');
  // A scenario holds at most 100 simulated seconds of this load: the run is repeated for more samples.
  const command = `for run in $(seq ${repeats}); do '${binary}' bench --nodes ${nodes} --seconds ${simulatedSeconds}; done`;
  const record = ['record', '-e', 'cpu-clock', '-F', '1000', '--call-graph', 'dwarf,16384', '-o', data];
  execFileSync('perf', [...record, '--', 'sh', '-c', command], { stdio: 'ignore' });
  return { top: perfSelf(data), stack_shares: perfStackShares(data) };
}

/** The share of samples with each of PERF_STACK_MARKERS anywhere on their call stack. */
function perfStackShares(data) {
  const script = execFileSync('perf', ['script', '-i', data, '-F', 'ip,sym'], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const engineSamples = script.split('\n\n').filter((sample) => sample.includes('quorumlab_sim'));
  return PERF_STACK_MARKERS.map(([marker, label]) => ({
    label,
    share: engineSamples.filter((sample) => sample.includes(marker)).length / engineSamples.length,
  }));
}

/** The top self-time symbols as perf report prints them. */
function perfSelf(data) {
  const report = execFileSync(
    'perf',
    ['report', '-i', data, '--stdio', '--no-children', '--sort', 'symbol', '-g', 'none', '--percent-limit', '1.5'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  return report
    .split('\n')
    .filter((line) => /^\s+[0-9.]+%/.test(line))
    .slice(0, TOP_ROWS)
    .map((line) => {
      const [, percent, symbol] = line.match(/^\s+([0-9.]+)%\s+\[\.\]\s+(.*)$/) ?? [null, line.trim().split(/\s+/)[0], line.trim()];
      return { share: Number(percent) / 100, symbol: symbol.replace(/\s+-\s+-\s*$/, '').trim() };
    });
}

function printTable(title, rows, quote = false) {
  console.log(`| ${title} | ms/s | share |`);
  console.log('| --- | ---: | ---: |');
  for (const row of rows) {
    const name = quote ? `\`${row.name}\`` : row.name;
    console.log(`| ${name} | ${rounded(row.ms_per_s)} | ${(row.share * 100).toFixed(1)}% |`);
  }
  console.log('');
}

function printPage(result) {
  console.log(`#### ${result.label}: ${rounded(result.measured.busy_ms_per_s)} ms/s busy, ${rounded(result.measured.fps)} fps`);
  console.log('');
  printTable('main-thread trace event (self)', result.trace_self);
  printTable('CPU profile, by kind of code (self)', result.kinds_self);
  if (result.crates_self.length > 0) printTable('wasm, by crate (self)', result.crates_self);
  printTable('function (self; shares exclude idle and "(program)")', result.functions_self, true);
}

async function main() {
  await mkdir(OUTPUT_DIR, { recursive: true });
  if (!existsSync(NAMED_WASM)) throw new Error(`${NAMED_WASM} is missing: run trunk build --release first`);
  const server = await serveDist(await namedDist());
  const reference = raftScopeAvailable() ? await serveDist(RAFTSCOPE_DIR) : null;
  if (!reference) log(`RaftScope SKIPPED: it is not at ${RAFTSCOPE_DIR}`);
  const pages = [];
  try {
    for (const target of profiledPages(server.url, reference?.url)) {
      log(`profiling ${target.label}`);
      pages.push(await profilePage(target));
    }
  } finally {
    await server.close();
    await reference?.close();
  }
  const engine = [];
  if (!flag('no-perf')) {
    for (const workload of PERF_WORKLOADS) {
      log(`perf on the engine, ${workload.nodes} nodes`);
      engine.push({ ...workload, ...perfEngine(workload) });
    }
  }
  await writeFile(join(OUTPUT_DIR, 'summary.json'), `${JSON.stringify({ date: new Date().toISOString(), pages, engine }, null, 2)}\n`);
  console.log(`Profiles of ${new Date().toISOString().slice(0, 10)}, ${SECONDS} s per page (the wasm with names: see profile.mjs)`);
  console.log('');
  pages.forEach(printPage);
  for (const run of engine) {
    console.log(`| engine, ${run.nodes} nodes, ${run.repeats} × ${run.simulated_seconds} simulated s (perf, self) | share |`);
    console.log('| --- | ---: |');
    for (const row of run.top) console.log(`| \`${row.symbol}\` | ${(row.share * 100).toFixed(1)}% |`);
    console.log('');
    console.log(`| engine, ${run.nodes} nodes: on the stack (inclusive), of the samples in quorumlab_sim | share |`);
    console.log('| --- | ---: |');
    for (const row of run.stack_shares) console.log(`| ${row.label} | ${(row.share * 100).toFixed(1)}% |`);
    console.log('');
  }
  log(`raw files: ${OUTPUT_DIR}`);
}

await main();
