#!/usr/bin/env node
// The floor under the default playground's main-thread time: how busy the page stays while the run plays
// with nothing of it drawn. Each round measures, in fresh pages and in rotating order, RaftScope, our
// default playground as it is, and the same playground with `<main>` hidden by an injected style (the
// engine, the reactive graph and every effect still run; nothing is laid out or painted). Busy time is
// DevTools' TaskDuration, as in `./x bench`. Reports the medians and each one's ratio to the same round's
// RaftScope; asserts nothing. Needs RaftScope (../shared beside this workspace's clone) and dist/.
//   node scripts/bench/floor.mjs [--rounds 3] [--seconds 8]     (or ./x bench --floor)
import { join } from 'node:path';
import { serveDist } from '../../e2e/support/server.mjs';
import { OUR_CASES, measureQuorumLab, measureRaftScope } from './frames.mjs';
import { RAFTSCOPE_DIR, REPO_ROOT, machineNote, median, positiveNumberOption, raftScopeAvailable } from './common.mjs';

const ROUNDS = Math.round(positiveNumberOption('rounds', 3));
const SECONDS = positiveNumberOption('seconds', 8);
const DIST_DIR = process.env.QUORUMLAB_DIST ?? join(REPO_ROOT, 'dist');
const PLAYGROUND = OUR_CASES[0];
const log = (line) => console.error(`floor: ${line}`);

const VARIANTS = [
  { key: 'raftscope', label: 'RaftScope, 5 nodes' },
  { key: 'playground', label: `Quorum Lab, ${PLAYGROUND.label}` },
  { key: 'undrawn', label: 'the same playground with <main> hidden (nothing drawn)', style: 'main { display: none !important; }' },
];

function measure(variant, urls) {
  if (variant.key === 'raftscope') return measureRaftScope(urls.raftscope, SECONDS);
  return measureQuorumLab(urls.quorumlab, { ...PLAYGROUND, style: variant.style }, SECONDS);
}

async function main() {
  if (!raftScopeAvailable()) {
    console.log(`SKIPPED: RaftScope is not at ${RAFTSCOPE_DIR} (it lives in ../shared beside this workspace's clone only).`);
    return;
  }
  const machine = machineNote();
  const ours = await serveDist(DIST_DIR);
  const theirs = await serveDist(RAFTSCOPE_DIR);
  const samples = Object.fromEntries(VARIANTS.map((variant) => [variant.key, []]));
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = VARIANTS.map((_, index) => VARIANTS[(index + round) % VARIANTS.length]);
      for (const variant of order) {
        const result = await measure(variant, { quorumlab: ours.url, raftscope: theirs.url });
        if (result.problems.length > 0) throw new Error(`${variant.label}: ${result.problems.join('; ')}`);
        samples[variant.key].push(result);
        log(`round ${round + 1}: ${variant.label}: ${result.busy_ms_per_s.toFixed(0)} ms/s busy, ${result.fps.toFixed(1)} fps`);
      }
    }
  } finally {
    await ours.close();
    await theirs.close();
  }
  const ratio = (key) => median(samples[key].map((result, round) => result.busy_ms_per_s / samples.raftscope[round].busy_ms_per_s));
  console.log(`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`./x bench --floor --rounds ${ROUNDS}\`; ${machine.cores} cores (${machine.cpu_model}), load average ${machine.load_average_1_min}.\n`);
  console.log('| page | busy / RaftScope, same round | busy (ms/s) | script | style and layout | paint, raster, other | fps |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const variant of VARIANTS) {
    const figure = (name) => median(samples[variant.key].map((result) => result[name])).toFixed(1);
    console.log(`| ${variant.label} | ${ratio(variant.key).toFixed(2)}× | ${figure('busy_ms_per_s')} | ${figure('script_ms_per_s')} | ${figure('style_layout_ms_per_s')} | ${figure('other_ms_per_s')} | ${figure('fps')} |`);
  }
}

await main();
