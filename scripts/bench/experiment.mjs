#!/usr/bin/env node
// How fast an experiment runs in the page's worker (wasm in Chromium) beside the same experiment run
// natively by the CLI, in the same round, and whether the page keeps drawing while it runs. Each round:
// the "5 ms or 50 ms of randomness?" preset at 500 trials per value (1,000 trials) in a fresh page of
// dist/, timed by the worker itself and from the click to the drawn result, with the page's animation
// frames counted meanwhile; then the experiment file the page offers for download, run by
// `target/release/quorumlab experiment`. Reports medians and the wasm/native ratio; asserts nothing.
//   node scripts/bench/experiment.mjs [--rounds 3] [--trials 500]     (or ./x bench --experiment)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist } from '../../e2e/support/server.mjs';
import { launchChromium } from '../../e2e/support/browser.mjs';
import { REPO_ROOT, machineNote, median, positiveNumberOption } from './common.mjs';

const ROUNDS = Math.round(positiveNumberOption('rounds', 3));
const TRIALS = Math.round(positiveNumberOption('trials', 500));
const DIST_DIR = process.env.QUORUMLAB_DIST ?? join(REPO_ROOT, 'dist');
const CLI = join(REPO_ROOT, 'target', 'release', 'quorumlab');
const log = (line) => console.error(`experiment: ${line}`);

async function downloadText(page, testId) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testId}]`)]);
  return readFile(await file.path(), 'utf8');
}

/** One run in the browser: worker time, click-to-result time, frames per second meanwhile, the files. */
async function inBrowser(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(`${url}/#/experiment/randomness`);
    await page.waitForSelector('[data-testid=experiment]', { timeout: 30_000 });
    await page.fill('[data-testid=experiment-trials]', String(TRIALS));
    await page.press('[data-testid=experiment-trials]', 'Tab');
    await page.evaluate(() => {
      window.__frames = 0;
      const count = () => { window.__frames += 1; requestAnimationFrame(count); };
      requestAnimationFrame(count);
    });
    // The same page's frames for a second before the run: the baseline the run's frames compare with
    // (the playground plays behind the sheet either way).
    const idleFrames = await page.evaluate(async () => {
      const before = window.__frames;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return window.__frames - before;
    });
    const started = await page.evaluate(() => { window.__framesAtStart = window.__frames; return performance.now(); });
    await page.click('[data-testid=experiment-run]');
    await page.waitForSelector('[data-testid=experiment-result]', { timeout: 300_000 });
    const { ended, frames } = await page.evaluate(() => ({ ended: performance.now(), frames: window.__frames - window.__framesAtStart }));
    const said = await page.textContent('[data-testid=experiment-said]');
    const workerSeconds = parseFloat(/ran in ([\d.]+) s/.exec(said)?.[1] ?? 'NaN');
    const pageSeconds = (ended - started) / 1000;
    const experimentToml = await downloadText(page, 'experiment-file');
    return { workerSeconds, pageSeconds, fps: frames / pageSeconds, idleFps: idleFrames, experimentToml };
  } finally {
    await context.close();
  }
}

/** The same experiment natively: the CLI's wall time for it. */
async function natively(experimentToml) {
  const folder = await mkdtemp(join(tmpdir(), 'ql-experiment-'));
  await writeFile(join(folder, 'experiment.toml'), experimentToml);
  await writeFile(join(folder, 'scenario.toml'), await readFile(join(REPO_ROOT, 'sim', 'experiments', 'raft-figure16', 'cluster.toml')));
  const started = process.hrtime.bigint();
  const run = spawnSync(CLI, ['experiment', join(folder, 'experiment.toml'), '--json', join(folder, 'out.json')], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`quorumlab experiment failed: ${run.stderr}`);
  return seconds;
}

async function main() {
  log('building the native CLI (cargo build --release -p quorumlab-sim --bin quorumlab)');
  execFileSync('cargo', ['build', '--release', '-p', 'quorumlab-sim', '--bin', 'quorumlab'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const machine = machineNote();
  const server = await serveDist(DIST_DIR);
  const browser = await launchChromium();
  const rounds = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const browserRun = await inBrowser(browser, server.url);
      const nativeSeconds = await natively(browserRun.experimentToml);
      rounds.push({ ...browserRun, nativeSeconds });
      log(`round ${round + 1}: worker ${browserRun.workerSeconds.toFixed(2)} s, click to chart ${browserRun.pageSeconds.toFixed(2)} s, ${browserRun.fps.toFixed(1)} fps (${browserRun.idleFps} before the run); native ${nativeSeconds.toFixed(2)} s`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const figure = (name) => median(rounds.map((round) => round[name]));
  const ratio = median(rounds.map((round) => round.workerSeconds / round.nativeSeconds));
  console.log(`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`./x bench --experiment --rounds ${ROUNDS} --trials ${TRIALS}\`; ${machine.cores} cores (${machine.cpu_model}), load average ${machine.load_average_1_min}.\n`);
  console.log(`| ${2 * TRIALS} trials, 5 servers (randomness preset) | median of ${ROUNDS} |`);
  console.log('| --- | ---: |');
  console.log(`| in the page's worker (wasm, Chromium), the worker's own time | ${figure('workerSeconds').toFixed(2)} s |`);
  console.log(`| click on Run to the chart drawn | ${figure('pageSeconds').toFixed(2)} s |`);
  console.log(`| the page's animation frames meanwhile / in the second before | ${figure('fps').toFixed(1)} / ${figure('idleFps').toFixed(1)} fps |`);
  console.log(`| natively, \`quorumlab experiment\` (whole process) | ${figure('nativeSeconds').toFixed(2)} s |`);
  console.log(`| worker / native, same round | ${ratio.toFixed(2)}× |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
