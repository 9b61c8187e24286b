// A step that makes the learner wait seconds of simulated time plays faster and says so (issue 30,
// item 15): lesson 14 step 2 (A paused 5 s) opens at 0.5× and ticks by hand; the step before it, with
// nothing long to wait for, stays at the lesson's 0.1×.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, violatedInvariants, waitUntil } from './support/cluster.mjs';
import { selectActor, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const LESSON = 'sessions-lock-delay';
const POPOVER = '[data-testid=node-popover]';
const speed = (page) => page.textContent('[data-testid=speed-label]');

// At 1280; the lesson walk (e2e/lesson-walk.mjs) does lesson 14 by hand at 1440.
for (const viewport of [{ name: '1280x720', width: 1280, height: 720 }]) {
  test(`lesson 14 at ${viewport.name}: step 1 at 0.1×, step 2 at 0.5× done by hand`, async () => {
    const app = await openApp({ ...viewport, path: `/#/lesson/${LESSON}` });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-waiting]');
      assert.equal(await speed(page), '0.1× real time', 'a step without a speed plays at the lesson speed');
      assert.equal(await page.locator('[data-testid=step-speed]').count(), 0);
    } finally {
      await app.close();
    }
    const second = await openApp({ ...viewport, path: `/#/lesson/${LESSON}/step/2` });
    try {
      const page2 = second.page;
      await page2.waitForSelector('[data-testid=lesson-waiting]');
      await waitForStepState(page2, 2, 'open', 20_000);
      assert.equal(await speed(page2), '0.5× real time');
      assert.match(await page2.textContent('[data-testid=step-speed]'), /This step plays at 0\.5×/);
      // The learner types the length beside A, in the actions a click on A opens (the Inspector has
      // the same field further away; its Pause button and this one must not be mixed up).
      await selectActor(page2, 'A');
      await page2.waitForSelector(POPOVER);
      await page2.fill(`${POPOVER} [data-testid=pause-ms]`, '5000');
      await page2.click(`${POPOVER} [data-testid=pause-for-ms]`);
      const workerA = page2.locator('[data-testid=cluster-view] g[data-testid^="node-"]', {
        has: page2.locator('text.node-id', { hasText: /^A$/ }),
      });
      await waitUntil(async () => /\bstatus-paused\b/.test((await workerA.getAttribute('class')) ?? ''), {
        what: 'A to be drawn paused',
      });
      if (!(await isPlaying(page2))) await page2.click('[data-testid=play-toggle]');
      await waitForStepState(page2, 2, 'done', 60_000);
      assert.match(await stepResult(page2, 2), /overlapped/);
      assert.ok((await violatedInvariants(page2)).length > 0, 'the overlap is on the badges');
      await second.screenshot(`step-speed-lesson14-${viewport.name}`);
      assertNoProblems(second);
    } finally {
      await second.close();
    }
  });
}
