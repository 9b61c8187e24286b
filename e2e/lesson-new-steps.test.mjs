// The steps issue 16 added, in the browser: lesson 7's way out of quorum loss walked by hand (restart a
// server from the inspector, send writes with the Write button), and lesson 10's redone batch, reached
// through "show me" at both screen sizes the course is checked at.
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
    assert.match(await step(page, 3).locator('[data-testid=step-verdict]').textContent(), /no majority/);
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

for (const [width, height] of [
  [1440, 900],
  [1920, 1080],
]) {
  test(`lesson 10's redone batch and lesson 7's return of the quorum at ${width}x${height}`, async () => {
    const app = await openApp({ width, height, path: '/#/lesson/guided-lab' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="guided-lab"]');
      await setSpeedPosition(page);
      for (const number of [1, 2, 3, 4]) await showMe(page, number);
      assert.match(
        await step(page, 4).locator('[data-testid=step-result]').textContent(),
        /recognised \d+ redos? of a batch it had already applied/,
      );
      await step(page, 4).scrollIntoViewIfNeeded();
      await app.screenshot(`lesson10-batch-redo-${width}`);
      await showMe(page, 5);
      // Step 5 checks every grant's token against the one before (tokens_rose_across_failover).
      assert.match(
        await step(page, 5).locator('[data-testid=step-result]').textContent(),
        /after the failover \w+ was granted token \d+; \d+ grants since the step began, each above the one before, none repeated/,
      );
      assertNoProblems(app);
    } finally {
      await app.close();
    }
    const quorum = await openApp({ width, height, path: '/#/lesson/quorum-availability/step/3' });
    try {
      await quorum.page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="quorum-availability"]');
      await setSpeedPosition(quorum.page);
      await showMe(quorum.page, 3);
      await step(quorum.page, 3).scrollIntoViewIfNeeded();
      await quorum.screenshot(`lesson7-quorum-regained-${width}`);
      assertNoProblems(quorum);
    } finally {
      await quorum.close();
    }
  });
}
