// Compare mode inside a lesson, and a right side made in the past (issue 15): a compare link in a lesson
// step sets a twin beside the lesson's own run and the lesson goes on, checked on the left side, while
// "show me" (or the learner's own clicks) reach both sides at the same instant; a comparison opened from
// the picker after a seek back gives the right side the left's recorded future too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, waitUntil } from './support/cluster.mjs';
import { showMe, step, waitForStepState } from './support/lesson-steps.mjs';

const side = (name) => `[data-testid=compare-${name}]`;
const violated = (page, name) => page.locator(`${side(name)} .badge.violated`).count();
const crashed = (page, name) => page.locator(`${side(name)} [data-testid=cluster-view] g[data-testid^="node-"].status-crashed`).count();
const stepLink = (page) => page.locator('[data-testid=current-step] [data-testid=lesson-compare][data-scope=step]');

async function openTwinFromStep(page, lessonId, number) {
  await waitForStepState(page, number, 'open', 20_000);
  await stepLink(page).click();
  await page.waitForSelector('[data-testid=compare-stage]');
  // The lesson is still open, on the same step, and says which side it checks.
  await page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${lessonId}"]`);
  assert.equal(await step(page, number).getAttribute('data-state'), 'open');
  assert.match(await page.textContent('[data-testid=notice]'), /lesson goes on and is checked on the left run/);
}

test('lesson 6, step 2: the fencing-off twin beside the lesson, "show me" wakes A in both, the left is checked', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/fencing-tokens' });
  try {
    const { page } = app;
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="fencing-tokens"]');
    await setSpeedPosition(page);
    await showMe(page, 1);
    await openTwinFromStep(page, 'fencing-tokens', 2);
    const judged = await page.textContent('[data-testid=current-step] [data-testid=lesson-compare-side]');
    assert.match(judged, /Checked on the left run \(fencing on\)\. The right run \(fencing off\)/, judged);
    assert.match(await page.textContent(`${side('right')} .compare-side-title`), /fencing off/);
    assert.equal(await violated(page, 'right'), 0, 'nothing is broken on the right before A wakes');
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('compare-lesson-6-step-2-1440');
    await showMe(page, 2);
    await waitUntil(async () => (await violated(page, 'right')) > 0, { timeout: 20_000, what: 'the fencing-off side to break' });
    assert.equal(await violated(page, 'left'), 0, 'the fenced side, which the lesson checks, breaks nothing');
    const log = await page.textContent('[data-testid=lesson-panel]');
    assert.match(log, /Show me: .*resume/i, 'the show-me log names the action it performed');
    assert.match(await page.textContent('[data-testid=compare-difference]'), /left: .* · right: /);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('compare-lesson-6-done-1920');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('lesson 8, step 2 by hand: crashes made on either side reach both, the partitioned queue ticks the step', async () => {
  const app = await openApp({ width: 1920, height: 1080, path: '/#/lesson/avoiding-coordination/step/2' });
  try {
    const { page } = app;
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="avoiding-coordination"]');
    await openTwinFromStep(page, 'avoiding-coordination', 2);
    assert.match(await page.textContent(`${side('right')} .compare-side-title`), /global lock/);
    // The leader from the keyboard (on the left), then n1 from the right drawing's own node menu.
    await page.keyboard.press('k');
    await waitUntil(async () => (await crashed(page, 'right')) === 1 && (await crashed(page, 'left')) === 1, {
      what: 'the leader to be down on both sides',
    });
    await page.click(`${side('right')} [data-testid=node-n1]`);
    await page.click('[data-testid=node-popover] button[aria-label="Crash n1"]');
    await waitUntil(async () => (await crashed(page, 'left')) === 2 && (await crashed(page, 'right')) === 2, {
      what: 'n1 to be down on both sides',
    });
    await setSpeedPosition(page);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    await waitForStepState(page, 2, 'done');
    assert.match(await step(page, 2).locator('[data-testid=step-result]').textContent(), /job/i);
    await page.waitForSelector('[data-testid=compare-stage]');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a prose link (an example told in the lesson text) opens that example and says the lesson closed', async () => {
  const app = await openApp({ path: '/#/lesson/zookeeper-election' });
  try {
    const { page } = app;
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="zookeeper-election"]');
    const prose = page.locator('[data-testid=lesson-panel] [data-testid=lesson-compare][data-scope=prose]').first();
    await prose.scrollIntoViewIfNeeded();
    await prose.click();
    await page.waitForSelector('[data-testid=compare-stage]');
    assert.match(await page.textContent('[data-testid=notice]'), /lesson is closed: this comparison runs the example zk-herd\.toml/);
    assert.equal(await page.locator('[data-testid=lesson-panel]').count(), 0);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('compare from the picker after a seek back: the right side gets the recorded future and one link holds both', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  let fragment;
  try {
    const { page } = app;
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    await setSpeedPosition(page);
    await waitUntil(async () => (await simTimeMs(page)) > 1_500, { what: 'the run to pass 1.5 s' });
    await page.click('[data-testid=play-toggle]');
    const crashAt = await simTimeMs(page);
    await page.keyboard.press('k');
    await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await simTimeMs(page)) > crashAt + 1_000, { what: 'the run to go on past the crash' });
    await page.click('[data-testid=play-toggle]');
    // Back before everything: the crash (and the scripted pause) are now the recorded future.
    await page.locator('[data-testid=scrubber]').fill('300000');
    await page.evaluate(() => document.activeElement?.blur());
    await waitUntil(async () => (await simTimeMs(page)) === 300, { what: 'the clock to read 300 ms' });
    await page.selectOption('[data-testid=compare-picker]', 'fencing');
    await page.waitForSelector('[data-testid=compare-stage]');
    assert.equal(await simTimeMs(page), 300);
    assert.equal(await crashed(page, 'right'), 0);
    // Forward through the recorded future: the right side replays the same crash.
    await page.locator('[data-testid=scrubber]').fill(String((crashAt + 500) * 1_000));
    await page.evaluate(() => document.activeElement?.blur());
    await waitUntil(async () => (await simTimeMs(page)) === crashAt + 500, { what: 'the clock past the crash' });
    await waitUntil(async () => (await crashed(page, 'right')) === 1, { what: 'the crash on the right side too' });
    assert.equal(await crashed(page, 'left'), 1);
    // A compare link is refused unless both sides hold the same actions at the same instants.
    await page.click('[data-testid=compare-share]');
    fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/compare\/v1\/.+/)?.[0], {
      what: 'the compare link in the address bar',
    });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
  const viewer = await openApp({ path: `/${fragment}` });
  try {
    const { page } = viewer;
    await page.waitForSelector('[data-testid=compare-stage]');
    assert.match(await page.textContent('[data-testid=notice]'), /Opened two runs side by side/);
    assert.equal(await crashed(page, 'right'), 1);
    assertNoProblems(viewer);
  } finally {
    await viewer.close();
  }
});
