// Compare mode (issue 15): the same run twice, one option different, on one clock. Opened from the
// picker (fencing on and off: the fenced side refuses the stale write, the other loses an update, and
// the line above says where they part), from a share link carrying both sides (both reproduced), and
// from a lesson; the main-thread cost of 5+5 nodes against the single-world playground.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, waitUntil } from './support/cluster.mjs';
import { measureAnimation, quorumLabClock } from '../scripts/bench/frames.mjs';

const side = (name) => `[data-testid=compare-${name}]`;
const difference = (page) => page.textContent('[data-testid=compare-difference]');
const sideHash = (page, name) => page.getAttribute(`${side(name)} [data-testid=side-trace-hash]`, 'data-trace-hash');
const violated = (page, name) =>
  page.$$eval(`${side(name)} [data-testid=checker-badges] li.badge.violated`, (badges) =>
    badges.map((badge) => badge.getAttribute('data-invariant')),
  );

/** The fenced lock service, compared with itself with fencing off, from the two pickers. */
async function openFencingComparison(page) {
  await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
  await page.selectOption('[data-testid=compare-picker]', 'fencing');
  await page.waitForSelector('[data-testid=compare-stage]');
}

async function waitForParting(page) {
  return waitUntil(
    async () => {
      const line = await difference(page);
      return line.startsWith('left: StaleToken refused at') ? line : null;
    },
    { timeout: 30_000, what: 'the difference line to name the stale write' },
  );
}

test('fencing on and off from the picker: StaleToken refused on the left, a lost update on the right', async () => {
  let fragment;
  let shared;
  const app = await openApp({ width: 1920, height: 1080 });
  try {
    const { page } = app;
    await openFencingComparison(page);
    assert.match(await page.textContent(`${side('left')} .compare-side-title`), /fencing on/);
    assert.match(await page.textContent(`${side('right')} .compare-side-title`), /fencing off/);
    await setSpeedPosition(page);
    const line = await waitForParting(page);
    assert.match(line, / · right: .*lost update at \d+\.\d\d s/);
    await waitUntil(async () => (await violated(page, 'right')).includes('No Lost Updates'), {
      what: 'the right side to flag the lost update',
    });
    assert.deepEqual(await violated(page, 'left'), [], 'the fenced side breaks nothing');
    // Both sides are drawn, each with its own cluster and caption.
    assert.equal(await page.locator(`${side('left')} [data-testid=cluster-view]`).count(), 1);
    assert.equal(await page.locator(`${side('right')} [data-testid=cluster-view]`).count(), 1);
    // One clock: space pauses both; stepping moves both to the same instant.
    await page.keyboard.press(' ');
    assert.equal(await isPlaying(page), false);
    const pausedAt = await simTimeMs(page);
    const before = [await sideHash(page, 'left'), await sideHash(page, 'right')];
    await page.click('[data-testid=step-forward]');
    // A step goes to the next instant either side has events at, which may be the right side's alone.
    await waitUntil(async () => (await sideHash(page, 'left')) !== before[0] || (await sideHash(page, 'right')) !== before[1], {
      what: 'a step to change one of the runs',
    });
    assert.ok((await simTimeMs(page)) >= pausedAt, 'a step never moves the shared clock back');
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('compare-fencing-1920');
    await page.setViewportSize({ width: 1440, height: 900 });
    await app.screenshot('compare-fencing-1440');
    await page.keyboard.press('f');
    await app.screenshot('compare-fencing-presenter');
    await page.keyboard.press('f');
    // Share both sides.
    await page.click('[data-testid=compare-share]');
    fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/compare\/v1\/.+/)?.[0], {
      what: 'the compare link in the address bar',
    });
    shared = {
      left: await sideHash(page, 'left'),
      right: await sideHash(page, 'right'),
      time: await simTimeMs(page),
      line: await difference(page),
    };
    assert.notEqual(shared.left, shared.right);
    assert.equal(shared.left, await page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash'));
    assertNoProblems(app);
  } finally {
    await app.close();
  }

  const viewer = await openApp({ path: `/${fragment}` });
  try {
    const { page } = viewer;
    await page.waitForSelector('[data-testid=compare-stage]');
    await waitUntil(async () => (await sideHash(page, 'left')) === shared.left && (await sideHash(page, 'right')) === shared.right, {
      what: `both sides to reach ${shared.left} and ${shared.right}`,
    });
    assert.equal(await simTimeMs(page), shared.time);
    assert.equal(await difference(page), shared.line);
    assert.equal(await isPlaying(page), false, 'a shared comparison opens paused');
    assertNoProblems(viewer);
  } finally {
    await viewer.close();
  }
});

test('a tampered compare link says why and leaves the default run', async () => {
  const app = await openApp({ path: '/#/compare/v1/AAAA.BBBB' });
  try {
    const { page } = app;
    const notice = await page.textContent('[data-testid=notice]');
    assert.match(notice, /compare link could not be opened: the left side/);
    assert.equal(await page.locator('[data-testid=compare-stage]').count(), 0);
  } finally {
    await app.close();
  }
});

test('lesson 6 opens the fencing comparison from its text', async () => {
  const app = await openApp();
  try {
    const { page } = app;
    await page.click('[data-testid=lessons-button]');
    await page.locator('[data-testid=lesson-item][data-lesson-id="fencing-tokens"] [data-testid=open-lesson]').click();
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="fencing-tokens"]');
    const link = page.locator('[data-testid=lesson-panel] [data-testid=lesson-compare][data-scope=prose]').first();
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await page.waitForSelector('[data-testid=compare-stage]');
    assert.match(await page.textContent(`${side('right')} .compare-side-title`), /fencing off/);
    await setSpeedPosition(page);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    await waitForParting(page);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('main-thread time at 5+5 nodes against the single-world playground', async (t) => {
  const app = await openApp();
  try {
    const { page } = app;
    await page.evaluate(() => document.activeElement?.blur());
    const single = await measureAnimation(page, 5, quorumLabClock);
    await page.selectOption('[data-testid=compare-picker]', 'pre-vote');
    await page.waitForSelector('[data-testid=compare-stage]');
    await page.evaluate(() => document.activeElement?.blur());
    const pair = await measureAnimation(page, 5, quorumLabClock);
    const figures = (run) => `${run.busy_ms_per_s.toFixed(0)} ms/s busy, ${run.fps.toFixed(1)} fps, p95 frame ${run.frame_p95_ms.toFixed(1)} ms`;
    const ratio = pair.busy_ms_per_s / single.busy_ms_per_s;
    t.diagnostic(`single world: ${figures(single)}`);
    t.diagnostic(`compare 5+5: ${figures(pair)}; busy ratio ${ratio.toFixed(2)}`);
    assert.notEqual(pair.clock_before, pair.clock_after, 'the compared runs moved while measured');
    assert.ok(pair.fps > 20, `compare mode keeps animating (${pair.fps.toFixed(1)} fps)`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
