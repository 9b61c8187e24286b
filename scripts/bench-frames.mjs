#!/usr/bin/env node
// Frame-rate and main-thread benchmark for the Quality bar of issue 4, measured the way the issue asks:
// headless Chromium with --disable-gpu, requestAnimationFrame deltas (fps, p95 frame time) and the
// DevTools Performance metric TaskDuration per second of animation, at 5 and at 51 nodes, plus the
// first-load transfer size (gzip) of what the page fetches from dist/.
//
//   node scripts/bench-frames.mjs [--seconds 8] [--speeds 1,20] [--nodes 5,51]
//
// Uses the release build in dist/ (build it first: `trunk build --release`). Prints a table; asserts
// nothing. Numbers depend on the machine: run it on an otherwise idle one.
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openApp, REPO_ROOT } from '../e2e/support/browser.mjs';

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

const SECONDS = Number(option('seconds', '8'));
const SPEEDS = option('speeds', '1,20').split(',').map(Number);
const NODE_COUNTS = option('nodes', '5,51').split(',').map(Number);
const WARM_UP_MS = 1_500;
/** Slider positions: the speed slider is logarithmic from 0.05× (0) to 20× (1000). */
const sliderPosition = (speed) => String(Math.round((1000 * Math.log(speed / 0.05)) / Math.log(20 / 0.05)));

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function startRun(page, nodes, speed) {
  const field = page.locator('[data-testid=setting-nodes]');
  await field.fill(String(nodes));
  await page.click('[data-testid=apply-settings]');
  await page.waitForFunction(
    (count) => document.querySelectorAll('[data-testid=cluster-view] g[data-testid^="node-n"]').length === count,
    nodes,
  );
  await page.locator('input[aria-label="Playback speed"]').fill(sliderPosition(speed));
  if (!(await page.textContent('[data-testid=play-toggle]')).includes('Pause')) {
    await page.click('[data-testid=play-toggle]');
  }
  await page.evaluate(() => document.activeElement?.blur());
}

async function measure(page, cdp) {
  await page.waitForTimeout(WARM_UP_MS);
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration').value;
  await page.evaluate(() => {
    window.__frames = [];
    const record = (time) => {
      window.__frames.push(time);
      if (window.__recording) requestAnimationFrame(record);
    };
    window.__recording = true;
    requestAnimationFrame(record);
  });
  const taskBefore = await taskSeconds();
  const wallBefore = performance.now();
  await page.waitForTimeout(SECONDS * 1_000);
  const taskAfter = await taskSeconds();
  const wallSeconds = (performance.now() - wallBefore) / 1_000;
  const stamps = await page.evaluate(() => {
    window.__recording = false;
    return window.__frames;
  });
  const deltas = stamps.slice(1).map((time, index) => time - stamps[index]);
  const sorted = [...deltas].sort((a, b) => a - b);
  const spanMs = stamps.at(-1) - stamps[0];
  return {
    fps: (deltas.length * 1_000) / spanMs,
    p95: percentile(sorted, 95),
    worst: sorted.at(-1),
    busy: ((taskAfter - taskBefore) * 1_000) / wallSeconds,
    simTime: (await page.textContent('[data-testid=sim-time]')).trim(),
  };
}

async function firstLoadBytes() {
  const app = await openApp();
  const paths = new Set();
  app.page.on('request', (request) => paths.add(new URL(request.url()).pathname));
  await app.page.reload();
  await app.page.waitForSelector('[data-testid=app-root]');
  await app.page.waitForLoadState('networkidle');
  await app.close();
  const files = [];
  for (const path of [...paths].sort()) {
    const file = join(REPO_ROOT, 'dist', path === '/' ? 'index.html' : decodeURIComponent(path));
    const body = await readFile(file).catch(() => null);
    if (body) files.push({ path, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  return files;
}

const app = await openApp({ width: 1440, height: 900 });
const cdp = await app.page.context().newCDPSession(app.page);
await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
const rows = [];
try {
  for (const nodes of NODE_COUNTS) {
    for (const speed of SPEEDS) {
      await startRun(app.page, nodes, speed);
      rows.push({ nodes, speed, ...(await measure(app.page, cdp)) });
      const last = rows.at(-1);
      console.error(`measured ${nodes} nodes at ${speed}×: ${last.fps.toFixed(1)} fps`);
    }
  }
  if (app.problems.length > 0) console.error(`problems during the run:\n  ${app.problems.join('\n  ')}`);
} finally {
  await app.close();
}

const files = await firstLoadBytes();
const kb = (bytes) => (bytes / 1024).toFixed(1);

console.log(`Quorum Lab frame benchmark — headless Chromium --disable-gpu, 1440×900, ${SECONDS} s per row after ${WARM_UP_MS / 1000} s warm-up`);
console.log('');
console.log('| nodes | speed | fps | p95 frame (ms) | worst frame (ms) | main thread busy (ms/s) | sim time at end |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(
    `| ${row.nodes} | ${row.speed}× | ${row.fps.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.worst.toFixed(1)} | ${row.busy.toFixed(0)} | ${row.simTime} |`,
  );
}
console.log('');
console.log('| first load | raw (KB) | gzip -9 (KB) |');
console.log('| --- | ---: | ---: |');
for (const file of files) console.log(`| ${file.path} | ${kb(file.raw)} | ${kb(file.gzip)} |`);
const total = files.reduce((sum, file) => ({ raw: sum.raw + file.raw, gzip: sum.gzip + file.gzip }), { raw: 0, gzip: 0 });
console.log(`| **total** | ${kb(total.raw)} | **${kb(total.gzip)}** |`);
