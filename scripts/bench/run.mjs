#!/usr/bin/env node
// `./x bench`: Quorum Lab measured side by side with RaftScope in the same run, since this shared machine's
// speed drifts by ±40% between runs: what counts are same-run ratios and medians over rounds.
//   1. Frames: R rounds; each measures RaftScope (5 nodes, its default speed) and Quorum Lab's default
//      playground (5-node Raft at 1×) alternately, each in a fresh page (scripts/bench/frames.mjs), then
//      Quorum Lab's harder cases (51 nodes at 1× and 20×, 5 nodes at 20×).
//   2. First load: gzip -9 size of every file each app fetches while it opens (scripts/bench/load.mjs).
//   3. Engine: events/s natively and in wasm, against a bare event-queue loop (scripts/bench/engine.mjs).
// Prints markdown tables for docs/performance.md (the README keeps the newest) and writes the raw figures to
// target/bench/latest.json. Reports, never asserts.
//
//   ./x bench [--rounds 3] [--seconds 8] [--engine-rounds 7]
//                                  (builds dist/ first; or: node scripts/bench/run.mjs ... on a built dist/)
//
// Without RaftScope beside the clone (../shared/anchors/raftscope) its parts are skipped, saying why.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist } from '../../e2e/support/server.mjs';
import { launchChromium } from '../../e2e/support/browser.mjs';
import { OUR_CASES, WARM_UP_MS, VIEWPORT, measureQuorumLab, measureRaftScope } from './frames.mjs';
import { firstLoad } from './load.mjs';
import { buildEngineBenches, measureEngine } from './engine.mjs';
import { RAFTSCOPE_DIR, REPO_ROOT, machineNote, positiveNumberOption, raftScopeAvailable } from './common.mjs';
import { printReport } from './report.mjs';

const ROUNDS = Math.round(positiveNumberOption('rounds', 3));
/** Engine samples are short (under a second each), so they get more rounds than the frames. */
const ENGINE_ROUNDS = Math.round(positiveNumberOption('engine-rounds', 7));
const SECONDS = positiveNumberOption('seconds', 8);
const DIST_DIR = process.env.QUORUMLAB_DIST ?? join(REPO_ROOT, 'dist');
const OUTPUT_FILE = join(REPO_ROOT, 'target', 'bench', 'latest.json');

const log = (line) => console.error(`bench: ${line}`);

function commandLine() {
  const given = process.argv.slice(2);
  return ['./x bench', ...given].join(' ');
}

function logFrames(round, label, result) {
  const problems = result.problems.length > 0 ? ` (${result.problems.length} page problems)` : '';
  log(`round ${round + 1}: ${label}: ${result.fps.toFixed(1)} fps, ${result.busy_ms_per_s.toFixed(0)} ms/s busy${problems}`);
}

/** One round: RaftScope and our playground alternately (order swapped on odd rounds), then our harder cases. */
async function frameRound(round, urls) {
  const measured = { raftscope: null, quorumlab: {} };
  const [playground, ...harder] = OUR_CASES;
  const measurePlayground = async () => {
    measured.quorumlab[playground.key] = await measureQuorumLab(urls.quorumlab, playground, SECONDS);
    logFrames(round, `Quorum Lab ${playground.label}`, measured.quorumlab[playground.key]);
  };
  const measureReference = async () => {
    if (!urls.raftscope) return;
    measured.raftscope = await measureRaftScope(urls.raftscope, SECONDS);
    logFrames(round, 'RaftScope', measured.raftscope);
  };
  const pair = round % 2 === 0 ? [measureReference, measurePlayground] : [measurePlayground, measureReference];
  for (const step of pair) await step();
  for (const ourCase of harder) {
    measured.quorumlab[ourCase.key] = await measureQuorumLab(urls.quorumlab, ourCase, SECONDS);
    logFrames(round, `Quorum Lab ${ourCase.label}`, measured.quorumlab[ourCase.key]);
  }
  return measured;
}

async function chromiumVersion() {
  const browser = await launchChromium();
  const version = browser.version();
  await browser.close();
  return version;
}

async function main() {
  const raftscope = raftScopeAvailable()
    ? { available: true, folder: RAFTSCOPE_DIR }
    : { available: false, skipped_because: `RaftScope is not at ${RAFTSCOPE_DIR} (it lives in ../shared beside this workspace's clone only)` };
  if (!raftscope.available) log(`RaftScope parts SKIPPED: ${raftscope.skipped_because}`);
  const results = {
    date: new Date().toISOString(),
    command: commandLine(),
    machine: { ...machineNote(), chromium: await chromiumVersion() },
    settings: { rounds: ROUNDS, engine_rounds: ENGINE_ROUNDS, seconds_per_measurement: SECONDS, warm_up_ms: WARM_UP_MS, viewport: VIEWPORT },
    raftscope,
    our_cases: OUR_CASES,
  };
  log('building the engine benchmarks (native and wasm)');
  const engineFolder = await buildEngineBenches();

  const ours = await serveDist(DIST_DIR);
  const theirs = raftscope.available ? await serveDist(RAFTSCOPE_DIR) : null;
  try {
    const urls = { quorumlab: ours.url, raftscope: theirs?.url };
    results.frame_rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) results.frame_rounds.push(await frameRound(round, urls));
    log('first load');
    results.first_load = {
      quorumlab: await firstLoad(ours.url, DIST_DIR, '[data-testid=cluster-view] g[data-testid^="node-n"]'),
      raftscope: theirs ? await firstLoad(theirs.url, RAFTSCOPE_DIR, '#servers') : null,
    };
  } finally {
    await ours.close();
    await theirs?.close();
  }
  log('engine');
  results.engine = await measureEngine(engineFolder, ENGINE_ROUNDS, log);

  results.machine.load_average_1_min_at_end = machineNote().load_average_1_min;
  await mkdir(join(REPO_ROOT, 'target', 'bench'), { recursive: true });
  await writeFile(OUTPUT_FILE, `${JSON.stringify(results, null, 2)}\n`);
  printReport(results);
  log(`raw figures: ${OUTPUT_FILE}`);
}

if (process.argv.includes('--help')) {
  console.log('usage: ./x bench [--rounds 3] [--seconds 8] [--engine-rounds 7]   (./x bench --profile: scripts/bench/profile.mjs)');
} else {
  await main();
}
