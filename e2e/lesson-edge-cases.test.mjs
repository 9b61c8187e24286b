// The source's edge cases as lesson steps (issue 16), in the browser: lesson 7's writes without a majority
// and lesson 4's crashed lock holder done by hand through the inspector, and the steps photographed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, waitUntil } from './support/cluster.mjs';
import { selectActor, showMe, step, stepResult as result, waitForStepState } from './support/lesson-steps.mjs';

async function openStep(id, number) {
  const app = await openApp({ width: 1440, height: 900, path: `/#/lesson/${id}/step/${number}` });
  await app.page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${id}"]`);
  await setSpeedPosition(app.page);
  return app;
}

// Each new step through "show me", with what its result says: e2e/show-me-course-*.test.mjs.

test('lesson 7 step 5 by hand: crash three of five, send a write, and see it come back refused or unknown', async () => {
  const app = await openStep('quorum-availability', 4);
  const { page } = app;
  try {
    await showMe(page, 4);
    for (const name of ['n3', 'n4', 'n5']) {
      await selectActor(page, name);
      await page.locator('[data-testid=inspector] button', { hasText: /^Crash$/ }).click();
    }
    await page.click('[data-testid=send-write]');
    await waitForStepState(page, 5, 'done');
    assert.match(await result(page, 5), /came back (refused|unknown)/);
    assert.equal(await page.locator('[data-testid=show-me-log] li', { hasText: /crash/i }).count(), 0, 'the crashes were the learner\'s');
    await step(page, 5).scrollIntoViewIfNeeded();
    await app.screenshot('lesson7-refused-or-unknown-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('lesson 4 steps 6 and 7 by hand: crash the holder B, restart it, and it asks again holding nothing', async () => {
  const app = await openStep('leases', 5);
  const { page } = app;
  try {
    await showMe(page, 5);
    await selectActor(page, 'B');
    // As the step suggests: freeze the run the moment B's lane says it holds the lock, crash B while
    // nothing moves, then play on. A lane read while playing may be a frame behind a short job.
    await waitUntil(
      async () => /holds lock, token \d+/.test((await page.locator('[data-testid=lane-B]').textContent()) ?? ''),
      { timeout: 30_000, interval: 20, what: 'B to hold the lock' },
    );
    if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => !(await isPlaying(page)), { what: 'the run to stand still' });
    if (!/holds lock, token \d+/.test((await page.locator('[data-testid=lane-B]').textContent()) ?? '')) {
      // B let go between the read and the click: wait for its next turn, one step at a time.
      await waitUntil(
        async () => {
          await page.click('[data-testid=step-forward]');
          return /holds lock, token \d+/.test((await page.locator('[data-testid=lane-B]').textContent()) ?? '');
        },
        { timeout: 30_000, what: 'B to hold the lock again' },
      );
    }
    await page.locator('[data-testid=inspector] button', { hasText: /^Crash$/ }).click();
    await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => isPlaying(page), { what: 'the run to play on' });
    await waitForStepState(page, 6, 'done');
    await waitUntil(
      async () => /holds lock, token \d+/.test((await page.locator('[data-testid=lane-A]').textContent()) ?? ''),
      { timeout: 30_000, interval: 20, what: 'A to take the lock' },
    );
    await selectActor(page, 'B');
    await page.locator('[data-testid=inspector] button', { hasText: /^Restart$/ }).click();
    await waitForStepState(page, 7, 'done');
    assert.match(await result(page, 7), /B restarted remembering no lock/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
