#!/usr/bin/env node
// How fast the linearizability checker judges a history (issue 33's targets, reported, never asserted):
// a 200-operation history of 5 clients on 3 keys checked in the page (wasm in Chromium, the history
// panel's Import, read and checked with the app's budget), and 10,000 operations of the same shape
// checked natively by `quorumlab history check` (the native budget). The histories come from
// `quorumlab history generate` (tooling::history_bench): linearizable by construction, so the search
// has to find the order, with up to 5 operations overlapping and one write in twenty unknown.
//   node scripts/bench/history.mjs [--rounds 5]     (or ./x bench --history)
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist } from '../../e2e/support/server.mjs';
import { launchChromium } from '../../e2e/support/browser.mjs';
import { REPO_ROOT, machineNote, median, positiveNumberOption } from './common.mjs';

const ROUNDS = Math.round(positiveNumberOption('rounds', 5));
const DIST_DIR = process.env.QUORUMLAB_DIST ?? join(REPO_ROOT, 'dist');
const CLI = join(REPO_ROOT, 'target', 'release', 'quorumlab');
const log = (line) => console.error(`history: ${line}`);

function generate(ops) {
  return execFileSync(CLI, ['history', 'generate', '--ops', String(ops), '--clients', '5', '--keys', '3', '--seed', '33'], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** `quorumlab history check` on `text`: the check's own time and the whole process's. */
async function natively(text) {
  const folder = await mkdtemp(join(tmpdir(), 'ql-history-'));
  const file = join(folder, 'history.edn');
  await writeFile(file, text);
  const started = process.hrtime.bigint();
  const output = execFileSync(CLI, ['history', 'check', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const processMs = Number(process.hrtime.bigint() - started) / 1e6;
  const report = JSON.parse(output);
  return { checkMs: report.check_ms, processMs, verdict: report.verdict, ops: report.ops };
}

/** Each round pastes `text` into the history panel's Import and reads the time the page reports. */
async function inBrowser(browser, url, text) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const rounds = [];
  try {
    await page.goto(`${url}/#/gallery/lease-reads/demo`);
    await page.waitForSelector('[data-testid=history-toggle]', { timeout: 30_000 });
    await page.click('[data-testid=history-toggle]');
    await page.click('[data-testid=history-import] summary');
    await page.fill('[data-testid=history-import-text]', text);
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = Date.now();
      await page.click('[data-testid=history-import-button]');
      await page.waitForSelector('[data-testid=history-import-time]:has-text("checked in")', { timeout: 60_000 });
      const drawnMs = Date.now() - started;
      const said = await page.textContent('[data-testid=history-import-time]');
      const verdict = await page.textContent('[data-testid=history-verdict]');
      rounds.push({ checkMs: parseFloat(/checked in ([\d.]+) ms/.exec(said)?.[1] ?? 'NaN'), drawnMs, verdict: verdict.trim() });
      log(`page round ${round + 1}: ${rounds.at(-1).checkMs} ms in the page, ${drawnMs} ms click to drawn; ${verdict.trim().slice(0, 60)}`);
      await page.click('[data-testid=history-back-to-run]');
      await page.waitForSelector('[data-testid=history-imported]', { state: 'detached' });
    }
  } finally {
    await context.close();
  }
  return rounds;
}

async function main() {
  log('building the native CLI (cargo build --release -p quorumlab-sim --bin quorumlab)');
  execFileSync('cargo', ['build', '--release', '-p', 'quorumlab-sim', '--bin', 'quorumlab'], { cwd: REPO_ROOT, stdio: 'inherit' });
  const machine = machineNote();
  const small = generate(200);
  const large = generate(10_000);
  const server = await serveDist(DIST_DIR);
  const browser = await launchChromium();
  let page;
  try {
    page = await inBrowser(browser, server.url, small);
  } finally {
    await browser.close();
    await server.close();
  }
  const nativeSmall = [];
  const nativeLarge = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    nativeSmall.push(await natively(small));
    nativeLarge.push(await natively(large));
    log(`native round ${round + 1}: 200 ops ${nativeSmall.at(-1).checkMs.toFixed(2)} ms, 10,000 ops ${nativeLarge.at(-1).checkMs.toFixed(1)} ms (${nativeLarge.at(-1).verdict})`);
  }
  const mid = (rounds, name) => median(rounds.map((round) => round[name]));
  console.log(`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`./x bench --history --rounds ${ROUNDS}\`; ${machine.cores} cores (${machine.cpu_model}), load average ${machine.load_average_1_min}.\n`);
  console.log(`| history (5 clients, 3 keys, seed 33) | median of ${ROUNDS} | verdict |`);
  console.log('| --- | ---: | --- |');
  console.log(`| 200 ops in the page (wasm, Chromium): read and checked, as the panel reports | ${mid(page, 'checkMs').toFixed(1)} ms | ${page[0].verdict.split(':')[0].replace(/^\W+/, '')} |`);
  console.log(`| 200 ops in the page: click on Check to the lanes drawn | ${mid(page, 'drawnMs').toFixed(0)} ms | |`);
  console.log(`| 200 ops natively, \`quorumlab history check\` (read and checked) | ${mid(nativeSmall, 'checkMs').toFixed(2)} ms | ${nativeSmall[0].verdict} |`);
  console.log(`| 10,000 ops natively, read and checked | ${mid(nativeLarge, 'checkMs').toFixed(1)} ms | ${nativeLarge[0].verdict} |`);
  console.log(`| 10,000 ops natively, whole process | ${mid(nativeLarge, 'processMs').toFixed(1)} ms | |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
