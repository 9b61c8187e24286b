// Lesson 13 (membership) done by hand through the visible controls, never "show me" (issue 30):
// step 3's two servers are added while the run stays paused, so they arrive at one instant and the
// hand-edited cluster elects two leaders (item 1); a prediction locked in before opening step 3's own
// world is still there when the step ticks, with its verdict (item 2); step 1 stops the run just after
// n4 arrives, says "look now" and brings the cluster into view (item 9).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, currentLeader, isPlaying, readNodes, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';
import { openStepWorld, step, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const POPOVER = '[data-testid=node-popover]';
const VIEWPORTS = [
  { name: '1280x720', width: 1280, height: 720 },
  { name: '1440x900', width: 1440, height: 900 },
  { name: '1920x1080', width: 1920, height: 1080 },
  { name: 'phone', width: 390, height: 844, page: { hasTouch: true, isMobile: true } },
];

const waitingText = (page) => page.textContent('[data-testid=lesson-waiting]');

/** Adds the two servers of step 3 from the cluster's own button, checking the run waits for both. */
async function addTwoServersWhilePaused(page) {
  await page.waitForSelector('[data-testid=lesson-waiting]');
  assert.match(await waitingText(page), /needs 2 moves at the same instant/, 'the step says it waits for both');
  const before = (await readNodes(page)).length;
  await page.click('[data-testid=add-server]');
  await waitUntil(async () => (await readNodes(page)).length === before + 1, { what: 'the first new server to be drawn' });
  assert.equal(await isPlaying(page), false, 'the first click leaves the run paused');
  assert.match(await waitingText(page), /your next one is the last/);
  await page.click('[data-testid=add-server]');
  await waitUntil(async () => (await readNodes(page)).length === before + 2, { what: 'the second new server' });
  await waitUntil(() => isPlaying(page), { timeout: 5_000, what: 'the second click to start the run' });
}

// At 1440 and on a phone; the lesson walk (e2e/lesson-walk.mjs) does the same step by hand at 1280.
for (const viewport of [VIEWPORTS[1], VIEWPORTS[3]]) {
  test(`membership step 3 by hand at ${viewport.name}: two servers added while paused elect two leaders`, async () => {
    const app = await openApp({ ...viewport, path: '/#/lesson/membership/step/3' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="membership"]');
      await waitForStepState(page, 3, 'open', 20_000);
      assert.equal((await readNodes(page)).length, 3, 'the hand-edited world starts with three servers');
      await addTwoServersWhilePaused(page);
      await waitForStepState(page, 3, 'done', 60_000);
      assert.match(await stepResult(page, 3), /leader/);
      const broken = await violatedInvariants(page);
      assert.ok(broken.some((name) => /election/i.test(name)), `Election Safety broke: ${broken}`);
      await step(page, 3).scrollIntoViewIfNeeded();
      await app.screenshot(`by-hand-membership-step3-${viewport.name}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('membership step 2 then 3 by hand at 1440x900: the prediction locked in before opening step 3 keeps its verdict', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/membership/step/2' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="membership"]');
    await waitForStepState(page, 2, 'open', 20_000);
    const leader = currentLeader(await readNodes(page));
    assert.ok(leader, 'a leader to remove');
    await page.click(`[data-testid=node-${leader.id}]`);
    await page.waitForSelector(POPOVER);
    await page.click(`${POPOVER} button[aria-label^="Remove this server, ${leader.id}"]`);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    await waitForStepState(page, 2, 'done', 60_000);

    // Predict step 3 while the finished run is still on screen, then open step 3's world.
    const question = step(page, 3).locator('[data-testid=predict]').first();
    const options = question.locator('[data-testid=predict-option]');
    await options.nth(1).click();
    assert.match(await question.locator('[data-testid=predict-feedback]').textContent(), /^Locked in\./);
    await openStepWorld(page, 3);
    assert.equal(await options.nth(1).getAttribute('aria-pressed'), 'true', 'the pick survives the new world');
    assert.match(await question.locator('[data-testid=predict-feedback]').textContent(), /^Locked in\./);

    await addTwoServersWhilePaused(page);
    await waitForStepState(page, 3, 'done', 60_000);
    const feedback = question.locator('[data-testid=predict-feedback]');
    assert.match(await feedback.textContent(), /^✓ Right: /, 'the finished step judges the locked-in pick');
    assert.match(await feedback.getAttribute('class'), /\bright\b/);
    await question.scrollIntoViewIfNeeded();
    await app.screenshot('by-hand-membership-prediction-kept-1440x900');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

for (const viewport of VIEWPORTS.slice(0, 2).concat(VIEWPORTS.slice(3))) {
  test(`membership step 1 by hand at ${viewport.name}: the run stops while n4 is a learner and says look now`, async () => {
    const app = await openApp({ ...viewport, path: '/#/lesson/membership' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-waiting]');
      await page.click('[data-testid=add-server]');
      const look = page.locator('[data-testid=look-now]');
      await look.waitFor({ timeout: 30_000 });
      assert.equal(await isPlaying(page), false, 'the run is paused at the moment');
      assert.match(await look.textContent(), /Look now\..*n4 has just arrived/s);
      const n4 = (await readNodes(page)).find((node) => node.id === 'n4');
      assert.match(n4.label, /learner/, 'n4 is still a learner at the moment the step points at');
      assert.match(await page.textContent('[data-testid=quorum-badge]'), /^quorum 2 of 3/);
      // The learner ring is what the moment is about: n4 must be on screen, whole, and not under the
      // playback bar where that sticks to the window's foot (as on a phone). The page scrolls to it
      // once the note is drawn, a frame after the note appears.
      const uncovered = () => page.evaluate(() => {
        const ring = document.querySelector('[data-testid=node-n4]').getBoundingClientRect();
        const bar = document.querySelector('.playback').getBoundingClientRect();
        const foot = bar.bottom >= window.innerHeight - 1 && bar.top > window.innerHeight / 2 ? bar.top : window.innerHeight;
        return { top: ring.top, bottom: ring.bottom, foot, whole: ring.top >= 0 && ring.bottom <= foot };
      });
      await waitUntil(async () => (await uncovered()).whole, {
        timeout: 5_000,
        what: 'n4 on screen, above the playback bar',
        detail: uncovered,
      });
      assert.equal(await isPlaying(page), false, 'still paused at the moment');
      await app.screenshot(`by-hand-membership-look-now-${viewport.name}`);
      await page.click('[data-testid=look-now-go-on]');
      assert.equal(await look.count(), 0, 'the note goes when the run goes on');
      await waitForStepState(page, 1, 'done', 60_000);
      assert.match(await page.textContent('[data-testid=quorum-badge]'), /^quorum 3 of 4/);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('membership step 1: a move of another kind does not stop the run for the look', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/membership' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-waiting]');
    const follower = (await readNodes(page)).find((node) => !/leader/.test(node.label));
    await page.click(`[data-testid=node-${follower.id}]`);
    await page.waitForSelector(POPOVER);
    await page.click(`${POPOVER} button[aria-label^="Crash"]`);
    await waitUntil(() => isPlaying(page), { timeout: 5_000, what: 'the move to start the run' });
    // Well past the 3 ms after a move at which an add would have stopped the run.
    const crashedAt = await simTimeMs(page);
    await waitUntil(async () => (await simTimeMs(page)) > crashedAt + 300, { timeout: 30_000, what: '300 ms of the run' });
    assert.equal(await page.locator('[data-testid=look-now]').count(), 0, 'no look moment for a crash');
    assert.equal(await isPlaying(page), true, 'the run goes on');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
