// Seeks and memory over a long run, in headless Chromium: a 5-node Raft scenario one hour long, played
// at top speed (20×) with the release build. At 1, 10 and 30 simulated minutes (and at the end) the run
// is paused and the scrubber is moved to several earlier instants: each seek is timed from the input
// event to the first animation frame whose clock shows the new instant. Every ~10 s of wall time the
// tab's memory is sampled: the renderer process's resident set (from the DevTools process list and
// /proc), the wasm's linear memory, the JS heap and the DOM's node and listener counts, so a growth
// can be placed in the wasm, the JS or the document. Reports, never asserts.
//   node scripts/bench/memory.mjs [--simulated-minutes 60] [--seeks 6] [--height 900]   (or ./x bench --memory)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../../e2e/support/browser.mjs';
import { serveDist } from '../../e2e/support/server.mjs';
import { REPO_ROOT, machineNote, median, positiveNumberOption, sleep } from './common.mjs';

const SIMULATED_MINUTES = positiveNumberOption('simulated-minutes', 60);
const SEEKS = positiveNumberOption('seeks', 6);
// A taller window (e.g. --height 1800) keeps the space-time diagram and the charts on screen, following
// the run, where at 900 px they sit below the fold and pause.
const HEIGHT_PX = Math.round(positiveNumberOption('height', 900));
const CHECKPOINT_MINUTES = [1, 10, 30, 60].filter((minutes) => minutes <= SIMULATED_MINUTES);
const SAMPLE_EVERY_MS = 10_000;
const SCENARIO = `title = "An hour of Raft"
protocol = "raft"
nodes = 5
seed = 1
duration_ms = ${SIMULATED_MINUTES * 60_000}
`;

const clockUs = (text) => {
  const seconds = /^(\d+)\.(\d{3}) s$/.exec(text.trim());
  if (seconds) return (Number(seconds[1]) * 1000 + Number(seconds[2])) * 1000;
  const ms = /^(\d+) ms$/.exec(text.trim());
  return ms ? Number(ms[1]) * 1000 : NaN;
};

/** The page's renderer (the busiest one: the others are Chromium's spare and blank renderers): its
 * resident set and its anonymous (private: heap, wasm memory) part, in MB. */
async function rendererMemoryMb(browserSession) {
  const { processInfo } = await browserSession.send('SystemInfo.getProcessInfo');
  const renderers = processInfo.filter((info) => info.type === 'renderer').sort((a, b) => b.cpuTime - a.cpuTime);
  try {
    const status = readFileSync(`/proc/${renderers[0].id}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
    return { resident: field('VmRSS'), anonymous: field('RssAnon') };
  } catch {
    return { resident: NaN, anonymous: NaN };
  }
}

async function sample(page, pageSession, browserSession, startedMs) {
  const { metrics } = await pageSession.send('Performance.getMetrics');
  const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? NaN;
  const dom = await pageSession.send('Memory.getDOMCounters').catch(() => ({}));
  const wasmMb = await page.evaluate(() => (window.__quorumlabWasmMemory?.buffer.byteLength ?? NaN) / 2 ** 20);
  return {
    wasm_memory_mb: wasmMb,
    dom_nodes: dom.nodes ?? NaN,
    listeners: dom.jsEventListeners ?? NaN,
    wall_s: (Date.now() - startedMs) / 1000,
    simulated_min: clockUs(await page.textContent('[data-testid=sim-time]')) / 60e6,
    ...(await rendererMemoryMb(browserSession).then((memory) => ({ renderer_rss_mb: memory.resident, renderer_anon_mb: memory.anonymous }))),
    js_heap_mb: heap / 2 ** 20,
  };
}

/** Moves the paused run to `targetUs` through the scrubber; ms until a frame shows it. */
function timedSeek(page, targetUs) {
  return page.evaluate(async (target) => {
    const scrubber = document.querySelector('[data-testid=scrubber]');
    const clock = document.querySelector('[data-testid=sim-time]');
    const ms = Math.floor(target / 1000);
    const expected = ms >= 1000 ? `${Math.floor(ms / 1000)}.${String(ms % 1000).padStart(3, '0')} s` : `${ms} ms`;
    const started = performance.now();
    scrubber.value = String(target);
    scrubber.dispatchEvent(new Event('input', { bubbles: true }));
    const deadline = started + 20_000;
    await new Promise((resolve) => {
      const check = () => (clock.textContent.trim() === expected || performance.now() > deadline ? resolve() : requestAnimationFrame(check));
      check();
    });
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    return { ms: performance.now() - started, reached: clock.textContent.trim() === expected };
  }, targetUs);
}

async function playing(page) {
  return (await page.textContent('[data-testid=play-toggle]')).includes('Pause');
}

async function seekRound(page, atMinutes) {
  if (await playing(page)) await page.click('[data-testid=play-toggle]');
  const nowUs = clockUs(await page.textContent('[data-testid=sim-time]'));
  const times = [];
  for (let index = 0; index < SEEKS; index++) {
    // Spread over the recorded run, whole milliseconds (the scrubber's step), the last back to the end.
    const target = index === SEEKS - 1 ? Math.floor(nowUs / 1000) * 1000 : Math.floor((nowUs * (index + 0.5)) / SEEKS / 1000) * 1000;
    times.push(await timedSeek(page, target));
  }
  await page.evaluate(() => document.activeElement?.blur());
  await page.click('[data-testid=play-toggle]');
  const ms = times.map((time) => time.ms);
  return { at_min: atMinutes, seeks: ms.length, median_ms: median(ms), worst_ms: Math.max(...ms), all_reached: times.every((time) => time.reached) };
}

const server = await serveDist(join(REPO_ROOT, 'dist'));
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1440, height: HEIGHT_PX } });
const problems = [];
page.on('pageerror', (error) => problems.push(error.message));
// Trunk's loader announces the started module; its exports hold the linear memory.
await page.addInitScript(() =>
  addEventListener('TrunkApplicationStarted', (event) => {
    window.__quorumlabWasmMemory = event.detail.wasm.memory;
  }),
);
await page.goto(server.url + '/');
await page.waitForSelector('[data-testid=app-root]');
await page.fill('[data-testid=import-text]', SCENARIO);
await page.click('[data-testid=import-button]');
await page.locator('input[aria-label="Playback speed"]').fill('1000');
await page.evaluate(() => document.activeElement?.blur());
if (!(await playing(page))) await page.click('[data-testid=play-toggle]');
const pageSession = await page.context().newCDPSession(page);
await pageSession.send('Performance.enable');
const browserSession = await browser.newBrowserCDPSession();
const startedMs = Date.now();
const samples = [];
const seekRounds = [];
let nextSampleMs = 0;
let checkpoint = 0;
// The top speed is 2 simulated seconds per wall second; a slower machine gets room, not forever.
const wallCapMs = (SIMULATED_MINUTES * 60_000) / 2 * 1.5 + 60_000;
while (Date.now() - startedMs < wallCapMs) {
  const simulatedMin = clockUs(await page.textContent('[data-testid=sim-time]')) / 60e6;
  if (Date.now() - startedMs >= nextSampleMs) {
    samples.push(await sample(page, pageSession, browserSession, startedMs));
    nextSampleMs += SAMPLE_EVERY_MS;
  }
  if (checkpoint < CHECKPOINT_MINUTES.length && simulatedMin >= CHECKPOINT_MINUTES[checkpoint] - 0.01) {
    seekRounds.push(await seekRound(page, CHECKPOINT_MINUTES[checkpoint]));
    checkpoint += 1;
  }
  if (checkpoint >= CHECKPOINT_MINUTES.length) break;
  await sleep(250);
}
samples.push(await sample(page, pageSession, browserSession, startedMs));
await browser.close();
await server.close();

const machine = machineNote();
console.log(`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${machine.cores} cores (${machine.cpu_model}), load average ${machine.load_average_1_min}.`);
console.log(`5-node Raft, ${SIMULATED_MINUTES} simulated minutes at the top speed (20× on the slider: 2 simulated s per wall s; 1440×${HEIGHT_PX}, release build).\n`);
console.log('| seek, paused at | seeks | median (ms) | worst (ms) | every seek reached its instant |');
console.log('| --- | ---: | ---: | ---: | --- |');
for (const round of seekRounds) {
  console.log(`| ${round.at_min} min | ${round.seeks} | ${round.median_ms.toFixed(1)} | ${round.worst_ms.toFixed(1)} | ${round.all_reached ? 'yes' : 'NO'} |`);
}
console.log('\n| wall (s) | simulated (min) | tab renderer resident (MB) | of it private (MB) | wasm memory (MB) | JS heap (MB) | DOM nodes | listeners |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of samples.filter((_, index) => index % 3 === 0 || index === samples.length - 1)) {
  console.log(`| ${row.wall_s.toFixed(0)} | ${row.simulated_min.toFixed(1)} | ${row.renderer_rss_mb.toFixed(0)} | ${row.renderer_anon_mb.toFixed(0)} | ${row.wasm_memory_mb.toFixed(0)} | ${row.js_heap_mb.toFixed(1)} | ${row.dom_nodes} | ${row.listeners} |`);
}
const peak = Math.max(...samples.map((row) => row.renderer_rss_mb));
const peakPrivate = Math.max(...samples.map((row) => row.renderer_anon_mb));
console.log(`\nPeak tab renderer resident set ${peak.toFixed(0)} MB (private ${peakPrivate.toFixed(0)} MB).${problems.length ? ` Page errors: ${problems.join('; ')}` : ' No page errors.'}`);
