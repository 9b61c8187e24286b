// Frame and main-thread measurement of one animating page, for RaftScope and for Quorum Lab alike: each
// measurement opens a fresh headless Chromium (the project's flags) at 1440×900, starts the animation,
// waits out a warm-up and then records, over the measured seconds, requestAnimationFrame deltas (fps,
// p95 and worst frame) and the DevTools Performance.getMetrics deltas (TaskDuration = main thread busy,
// split into ScriptDuration, RecalcStyleDuration + LayoutDuration, and the rest: paint, raster, other).
// Used by scripts/bench/run.mjs (`./x bench`) and scripts/bench/profile.mjs; asserts nothing.
import { launchChromium } from '../../e2e/support/browser.mjs';
import { percentile, sleep } from './common.mjs';

export const VIEWPORT = { width: 1440, height: 900 };
export const WARM_UP_MS = 1_500;

/** Quorum Lab's cases: the default playground first (compared with RaftScope), then harder ones. */
export const OUR_CASES = [
  { key: 'nodes_5_speed_1', label: '5 nodes, 1× (default playground)', nodes: 5, speed: 1, playground: true },
  { key: 'nodes_51_speed_1', label: '51 nodes, 1×', nodes: 51, speed: 1 },
  { key: 'nodes_51_speed_20', label: '51 nodes, 20×', nodes: 51, speed: 20 },
  { key: 'nodes_5_speed_20', label: '5 nodes, 20×', nodes: 5, speed: 20 },
  // Compare mode: the playground beside itself with PreVote flipped, two 5-node worlds on one clock.
  { key: 'compare_5_5_speed_1', label: 'compare mode, 5+5 nodes, 1×', nodes: 5, speed: 1, playground: true, compare: 'pre-vote' },
];

/** Slider positions: the speed slider is logarithmic from 0.05× (0) to 20× (1000). */
const sliderPosition = (speed) => String(Math.round((1000 * Math.log(speed / 0.05)) / Math.log(20 / 0.05)));

/** A fresh browser and page at `url`, ready once `readySelector` shows; `problems` collects errors. */
export async function openPage(url, readySelector) {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: VIEWPORT });
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught exception: ${error.message}`));
  page.on('request', (request) => {
    const address = request.url();
    if (!address.startsWith('http://127.0.0.1:') && !address.startsWith('data:')) {
      problems.push(`request outside loopback: ${address}`);
    }
  });
  try {
    await page.goto(url);
    await page.waitForSelector(readySelector, { timeout: 20_000 });
  } catch (error) {
    await browser.close().catch(() => {});
    throw error;
  }
  return { browser, page, problems, close: () => browser.close() };
}

/** RaftScope starts playing on load (script.js: `paused = false`, a requestAnimationFrame loop). */
export async function startRaftScope(page) {
  await page.waitForFunction(() => window.state?.current && window.playback);
  if (await page.evaluate(() => window.playback.isPaused())) await page.click('#time-button');
}

/**
 * Quorum Lab: the playground as it opens (5 nodes, 1×, playing), or a fresh run of `nodes` at `speed`;
 * with `compare`, beside a second run with that option flipped (compare mode).
 */
export async function startQuorumLab(page, { nodes, speed, playground, compare }) {
  if (!playground) {
    await page.locator('[data-testid=setting-nodes]').fill(String(nodes));
    await page.click('[data-testid=apply-settings]');
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid=cluster-view] g[data-testid^="node-n"]').length === count,
      nodes,
    );
  }
  if (compare) {
    await page.selectOption('[data-testid=compare-picker]', compare);
    await page.waitForSelector('[data-testid=compare-right] [data-testid=cluster-view]');
  }
  const slider = page.locator('input[aria-label="Playback speed"]');
  if ((await slider.inputValue()) !== sliderPosition(speed)) await slider.fill(sliderPosition(speed));
  if (!(await page.textContent('[data-testid=play-toggle]')).includes('Pause')) {
    await page.click('[data-testid=play-toggle]');
  }
  await page.evaluate(() => document.activeElement?.blur());
}

const METRIC_NAMES = ['Timestamp', 'TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration'];

async function metricSeconds(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(METRIC_NAMES.map((name) => [name, metrics.find((metric) => metric.name === name)?.value ?? NaN]));
}

function frameFigures(stamps) {
  const deltas = stamps.slice(1).map((time, index) => time - stamps[index]);
  const sorted = [...deltas].sort((a, b) => a - b);
  const span_ms = stamps.at(-1) - stamps[0];
  return {
    frames: deltas.length,
    fps: (deltas.length * 1_000) / span_ms,
    frame_p95_ms: percentile(sorted, 95),
    frame_worst_ms: sorted.at(-1),
  };
}

/**
 * Measures an animating page for `seconds` after the warm-up. `simulatedClock` is a function run in the
 * page returning the simulation's own clock (a number or text), recorded before and after as a check
 * that the run really moved.
 */
export async function measureAnimation(page, seconds, simulatedClock) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
  await sleep(WARM_UP_MS);
  await page.evaluate(() => {
    window.__benchFrames = [];
    window.__benchRecording = true;
    const record = (time) => {
      window.__benchFrames.push(time);
      if (window.__benchRecording) requestAnimationFrame(record);
    };
    requestAnimationFrame(record);
  });
  const clock_before = await page.evaluate(simulatedClock);
  const before = await metricSeconds(cdp);
  await sleep(seconds * 1_000);
  const after = await metricSeconds(cdp);
  const stamps = await page.evaluate(() => {
    window.__benchRecording = false;
    return window.__benchFrames;
  });
  const clock_after = await page.evaluate(simulatedClock);
  const wall_seconds = after.Timestamp - before.Timestamp;
  const perSecond = (name) => ((after[name] - before[name]) * 1_000) / wall_seconds;
  const busy_ms_per_s = perSecond('TaskDuration');
  const script_ms_per_s = perSecond('ScriptDuration');
  const style_layout_ms_per_s = perSecond('RecalcStyleDuration') + perSecond('LayoutDuration');
  await cdp.detach().catch(() => {});
  return {
    ...frameFigures(stamps),
    wall_seconds,
    busy_ms_per_s,
    script_ms_per_s,
    style_layout_ms_per_s,
    other_ms_per_s: busy_ms_per_s - script_ms_per_s - style_layout_ms_per_s,
    clock_before,
    clock_after,
  };
}

/** RaftScope's simulated clock, in microseconds. */
export const raftScopeClock = () => window.state.current.time;
/** Quorum Lab's simulated clock as its toolbar shows it. */
export const quorumLabClock = () => document.querySelector('[data-testid=sim-time]')?.textContent?.trim();

/** One measurement of RaftScope in a fresh page. */
export async function measureRaftScope(url, seconds) {
  const opened = await openPage(url, '#servers');
  try {
    await startRaftScope(opened.page);
    const result = await measureAnimation(opened.page, seconds, raftScopeClock);
    return { ...result, problems: opened.problems };
  } finally {
    await opened.close();
  }
}

/** One measurement of one of Quorum Lab's cases in a fresh page (`ourCase.style`: CSS injected first). */
export async function measureQuorumLab(url, ourCase, seconds) {
  const opened = await openPage(url, '[data-testid=app-root]');
  try {
    await startQuorumLab(opened.page, ourCase);
    if (ourCase.style) await opened.page.addStyleTag({ content: ourCase.style });
    const result = await measureAnimation(opened.page, seconds, quorumLabClock);
    return { ...result, problems: opened.problems };
  } finally {
    await opened.close();
  }
}
