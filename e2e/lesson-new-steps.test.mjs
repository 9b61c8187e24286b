// A step issue 16 added, in the browser: lesson 7's way out of quorum loss walked by hand (restart a
// server from the inspector, send writes with the Write button). Lesson 10's redone batch and the other
// new steps' results are checked through "show me" in e2e/show-me-course-*.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, waitUntil } from './support/cluster.mjs';
import { selectActor, showMe, step, stepState } from './support/lesson-steps.mjs';

test('lesson 7 step 3 by hand: restart a crashed server, send writes, and the cluster commits again', async () => {
  const app = await openApp({ path: '/#/lesson/quorum-availability' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="quorum-availability"]');
    await setSpeedPosition(page);
    await showMe(page, 1);
    await showMe(page, 2);
    assert.equal(await stepState(page, 3), 'open');
    // The verdict is the evaluator's answer on its next pass over the run, not the instant step 3 opens.
    const verdict = step(page, 3).locator('[data-testid=step-verdict]');
    await waitUntil(async () => /no majority/.test(await verdict.textContent()), {
      timeout: 20_000,
      what: "step 3's verdict to say why it has not happened",
      detail: () => verdict.textContent(),
    });
    // Checked before step 3 ticks: the lesson's step 4 opens a world of its own, which starts a new log.
    assert.equal(await page.locator('[data-testid=show-me-log]').count(), 1, 'show me was used for steps 1 and 2 only');
    // By hand: pick a crashed server and restart it from the inspector.
    await selectActor(page, 'n3');
    await page.locator('[data-testid=inspector] button', { hasText: /^Restart$/ }).click();
    // Writes sent while the new election runs may be refused; the learner sends them again.
    await waitUntil(
      async () => {
        await page.click('[data-testid=send-write]');
        return (await stepState(page, 3)) === 'done';
      },
      { timeout: 60_000, interval: 500, what: 'a write to commit after the quorum came back' },
    );
    assert.match(
      await step(page, 3).locator('[data-testid=step-result]').textContent(),
      /leads again and the cluster has committed up to index \d+/,
    );
    await step(page, 3).scrollIntoViewIfNeeded();
    await app.screenshot('lesson7-quorum-regained-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
