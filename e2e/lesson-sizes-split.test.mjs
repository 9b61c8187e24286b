// The split vote (lesson 3's last step) and the smallest and largest clusters (lesson 7's steps 6 and 7),
// done by hand through the visible controls as a learner would, at both screen sizes: the crash from the
// keyboard or the "Crash leader" button, the step ticking on what the simulation saw, and the verdict
// saying what happened. Screenshots go to e2e/screenshots/lesson3-split-vote-*.png and lesson7-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition } from './support/cluster.mjs';
import { openStepWorld, step, stepResult, stepState, waitForStepState } from './support/lesson-steps.mjs';

/** Opens lesson `id` at step `number` (earlier steps played for us) on the step's own world. */
async function openOwnWorld(page, id, number) {
  await page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${id}"]`);
  if ((await step(page, number).locator('[data-testid=open-step-world]').count()) > 0) {
    await openStepWorld(page, number);
  }
  await waitForStepState(page, number, 'open', 20_000);
  await setSpeedPosition(page);
}

async function play(page) {
  if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
}

async function crashLeaderByButton(page) {
  await page.click('button[aria-label="Crash leader (K)"]');
}

for (const [width, height] of [[1440, 900], [1920, 1080]]) {
  test(`lesson 3's split vote by hand at ${width}x${height}: crash the leader of near-equal timers`, async () => {
    const app = await openApp({ width, height, path: '/#/lesson/leader-election/step/5' });
    const { page } = app;
    try {
      await openOwnWorld(page, 'leader-election', 5);
      await page.evaluate(() => document.activeElement?.blur());
      await page.keyboard.press('k');
      await play(page);
      await waitForStepState(page, 5, 'done', 30_000);
      const verdict = await stepResult(page, 5);
      assert.match(verdict, /split/i, verdict);
      await step(page, 5).scrollIntoViewIfNeeded();
      await app.screenshot(`lesson3-split-vote-${width}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('lesson 7 by hand at 1440x900 and 1920x1080: one server stops everything; 51 elect with 26 votes', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/quorum-availability/step/6' });
  const { page } = app;
  try {
    await openOwnWorld(page, 'quorum-availability', 6);
    // Two writes, the crash, two more: through the Client card and the Crash leader button.
    await play(page);
    for (let write = 0; write < 2; write += 1) await page.click('[data-testid=send-write]');
    await crashLeaderByButton(page);
    for (let write = 0; write < 2; write += 1) await page.click('[data-testid=send-write]');
    await waitForStepState(page, 6, 'done', 30_000);
    assert.equal(await stepState(page, 7), 'open');
    await step(page, 6).scrollIntoViewIfNeeded();
    await app.screenshot('lesson7-one-node-1440');

    await page.setViewportSize({ width: 1920, height: 1080 });
    await openStepWorld(page, 7);
    await crashLeaderByButton(page);
    await play(page);
    await waitForStepState(page, 7, 'done', 30_000);
    const verdict = await stepResult(page, 7);
    assert.match(verdict, /26/, verdict);
    await step(page, 7).scrollIntoViewIfNeeded();
    await app.screenshot('lesson7-fifty-one-1920');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
