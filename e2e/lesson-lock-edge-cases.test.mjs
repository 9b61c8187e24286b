// The lock edge cases of issue 16 still missing before: lesson 5's worker that asks again after a lost
// OK and finds the key already holding its own value, and the contention step read off the Workers
// panel's grants-per-second line. Both through "show me" at 1440x900; the lost OK also by hand at
// 1920x1080, dropping n1's first OK from its message menu; the results and the narration photographed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, waitUntil } from './support/cluster.mjs';
import { dropFirstOkFromN1, showMe, step, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const FOUND_HELD = /(\S+)'s SET NX reply was lost; \1 asked again and found the key already holds its own value \(value …\d+\): it holds the lock$/;
const NARRATED = /SET NX reply was lost; \S+ asked again and found the key already holds its own value: it holds the lock/;
const CONTENTION = /^Lock: \d+ grants? in the last second · \d of 8 workers waiting$/;
const QUEUEING = /· [3-8] of 8 workers waiting$/;

async function openStep(number, width, height) {
  const app = await openApp({ width, height, path: `/#/lesson/distributed-locks/step/${number}` });
  await app.page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="distributed-locks"]');
  await setSpeedPosition(app.page);
  return app;
}

test('show me at 1440x900: lesson 5 step 6 shows contention in the Workers panel, step 7 finds the key already held', async () => {
  const app = await openStep(6, 1440, 900);
  const { page } = app;
  try {
    // The queue is read while it stands: once step 6 ticks, step 7 opens on a world of its own.
    await waitForStepState(page, 6, 'open', 20_000);
    await step(page, 6).locator('[data-testid=show-me]').click();
    const line = page.locator('[data-testid=lock-contention]');
    // Watched and paused inside the page, frame by frame: a round trip per poll could miss the queue.
    await page.waitForFunction(
      (pattern) => {
        const text = document.querySelector('[data-testid=lock-contention]')?.textContent?.trim() ?? '';
        if (!new RegExp(pattern).test(text)) return false;
        document.querySelector('[data-testid=play-toggle]').click();
        return true;
      },
      QUEUEING.source,
      { polling: 'raf', timeout: 30_000 },
    );
    assert.match(((await line.textContent()) ?? '').trim(), CONTENTION);
    await line.scrollIntoViewIfNeeded();
    await app.screenshot('lesson5-contention-line-1440');
    await page.click('[data-testid=play-toggle]');
    await waitForStepState(page, 6, 'done');
    assert.match(await stepResult(page, 6), /queued behind one holder at once while the grants in the last second fell to \d+/);

    await showMe(page, 7);
    const result = await stepResult(page, 7);
    assert.match(result, FOUND_HELD);
    assert.match(await page.locator('[data-testid=narration-log]').textContent(), NARRATED);
    await step(page, 7).scrollIntoViewIfNeeded();
    await app.screenshot('lesson5-found-already-held-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test("lesson 5 step 7 by hand at 1920x1080: drop n1's first OK from its menu, and the retry finds the key already held", async () => {
  const app = await openStep(7, 1920, 1080);
  const { page } = app;
  try {
    await waitForStepState(page, 7, 'open', 20_000);
    await dropFirstOkFromN1(page);
    await page.click('[data-testid=play-toggle]');
    await waitForStepState(page, 7, 'done');
    const result = await stepResult(page, 7);
    assert.match(result, FOUND_HELD);
    assert.equal(await page.locator('[data-testid=show-me-log] li').count(), 0, 'the drop was the learner\'s');
    await step(page, 7).scrollIntoViewIfNeeded();
    await app.screenshot('lesson5-found-already-held-by-hand-1920');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
