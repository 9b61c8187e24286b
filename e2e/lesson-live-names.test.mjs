// Instructions that name actors from the live run (issue 11): lesson 5 done by hand through the node
// popover at 1280×720. Which worker wins the lock is the run's business, so step 1 names
// the holder as it changes, and step 2 names the worker the learner actually paused — whichever it was.
// At 1280×720 the open step and the cluster must be on screen together. Screenshots go to
// e2e/screenshots/live-names-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitUntil } from './support/cluster.mjs';

const POPOVER = '[data-testid=node-popover]';
const CURRENT = '[data-testid=current-step]';
const live = (page, name) => page.locator(`${CURRENT} [data-testid=live-name][data-live=${name}]`);

function ringNode(page, name) {
  return page.locator('[data-testid=cluster-view] g[data-testid^="node-"]', {
    has: page.locator('text.node-id', { hasText: new RegExp(`^${name}$`) }),
  });
}

async function onScreen(page, selector, height) {
  const box = await page.locator(selector).boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

// At 1280 only, where the open step and the cluster must share a small window; the lesson walk
// (e2e/lesson-walk.mjs) does lesson 5 by hand too.
for (const { width, height } of [{ width: 1280, height: 720 }]) {
  const size = `${width}x${height}`;
  test(`lesson 5 by hand at ${size}: the instruction names the worker holding the lock, then the one you paused`, async () => {
    const app = await openApp({ width, height, path: '/#/lesson/distributed-locks' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-waiting]');
      assert.equal(await live(page, 'lock_holder').textContent(), 'nobody', 'before the run plays nobody holds it');
      assert.ok(await onScreen(page, CURRENT, height), `the open step is on screen at ${size}`);
      assert.ok(await onScreen(page, '[data-testid=cluster-view]', height), `the cluster is on screen at ${size}`);
      // The play control is in the waiting note, beside the step (the playback bar may be below the fold).
      assert.ok(await onScreen(page, '[data-testid=lesson-play]', height), `the play button is on screen at ${size}`);
      await page.click('[data-testid=lesson-play]');
      await page.waitForSelector('[data-testid=lesson-waiting]', { state: 'detached' });
      // As the instruction says: the holder is paused while its lane says modifying (it has read the
      // count), since frozen before its read comes back it drops the job and writes nothing late.
      const holder = await waitUntil(
        async () => {
          const name = await live(page, 'lock_holder').textContent();
          if (!['A', 'B', 'C'].includes(name)) return null;
          const lane = (await page.locator(`[data-testid=lane-${name}]`).textContent()) ?? '';
          return lane.includes('modifying') ? name : null;
        },
        { timeout: 20_000, what: 'a worker named in the instruction to hold the lock and be modifying' },
      );
      await app.screenshot(`live-names-1-holder-${size}`);
      await ringNode(page, holder).click();
      await page.waitForSelector(POPOVER);
      await page.click(`${POPOVER} button[aria-label="Pause until resumed, ${holder}"]`);
      await waitUntil(async () => (await page.locator('[data-testid=lesson-step-1]').getAttribute('data-state')) === 'done', {
        timeout: 60_000,
        what: 'step 1 to tick once the frozen holder\'s key expires',
      });
      assert.equal(await live(page, 'paused').textContent(), holder, 'step 2 names the worker the learner paused');
      // Step 1 is done: its words stay as they were at its tick (two workers believed they held the
      // lock), however the run goes on.
      const stepOneHolder = page.locator('[data-testid=lesson-step-1] [data-testid=live-name][data-live=lock_holder]');
      const atTick = await stepOneHolder.textContent();
      assert.match(atTick, / and /, `at step 1's tick two workers believe they hold the lock: ${atTick}`);
      assert.ok(await onScreen(page, CURRENT, height), `step 2 is on screen at ${size}`);
      await app.screenshot(`live-names-2-paused-${size}`);
      await ringNode(page, holder).click();
      await page.waitForSelector(POPOVER);
      await page.click(`${POPOVER} button[aria-label="Resume ${holder}"]`);
      await waitUntil(async () => (await page.locator('[data-testid=lesson-step-2]').getAttribute('data-state')) === 'done', {
        timeout: 30_000,
        what: 'step 2 to tick: the late write is lost',
        // On a miss, the step's own verdict says why (e.g. the worker froze before its read came back).
        detail: async () => page.locator('[data-testid=step-verdict]').first().textContent(),
      });
      assert.equal(await live(page, 'paused').count(), 0, 'step 3 is open, and names no paused worker');
      // Once the resumed worker knows it lost the lock, at most one believes it holds it: a name that
      // followed the run would now say so; the done step's does not.
      await waitUntil(async () => (await page.locator('[data-testid=double-holder-banner]').count()) === 0, {
        timeout: 20_000,
        what: 'the two-holder belief to end',
      });
      assert.equal(await stepOneHolder.textContent(), atTick, 'the done step still says who held it at its tick');
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
