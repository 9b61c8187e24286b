// A lesson finished with "show me" on each step, opened from the app's own list: each step ticks and
// says what happened, the lesson says it is complete and the list remembers it. One lesson only: "show me"
// on every step of every lesson is checked natively through the same tracker and driver
// (src/lesson/drive.rs, at two frame sizes, with the edge-case steps' sentences), and every step of every
// lesson is done in the browser by hand (e2e/lesson-walk.mjs). Paxos: its last step opens a world of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition } from './support/cluster.mjs';
import { readCourse } from './support/lesson-script.mjs';
import { openFromList, step, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const LESSON = 'paxos';

test(`the list shows the course in order, and lesson ${LESSON} completes with "show me" on each step`, async () => {
  const course = readCourse();
  const lesson = course.find((each) => each.id === LESSON);
  const app = await openApp();
  const { page } = app;
  try {
    await page.click('[data-testid=lessons-button]');
    await page.waitForSelector('[data-testid=lesson-item]');
    const listed = await page.$$eval('[data-testid=lesson-item]', (items) => items.map((item) => item.getAttribute('data-lesson-id')));
    assert.deepEqual(listed, course.map((each) => each.id), 'the list shows the course in order');
    await page.keyboard.press('Escape');
    await openFromList(page, LESSON);
    await setSpeedPosition(page);
    const steps = await page.locator('[data-testid^=lesson-step-]').count();
    assert.equal(steps, lesson.steps.length, 'the panel shows every step of the file');
    for (let number = 1; number <= steps; number += 1) {
      await waitForStepState(page, number, 'open', 20_000);
      await step(page, number).locator('[data-testid=show-me]').click();
      await waitForStepState(page, number, 'done', 60_000).catch(async (error) => {
        const verdict = await step(page, number).locator('[data-testid=step-verdict]').textContent().catch(() => '');
        throw new Error(`step ${number}: ${error.message} (${verdict})`);
      });
      assert.ok((await stepResult(page, number)).trim().length > 0, `step ${number} says what happened`);
    }
    assert.match(await page.textContent('[data-testid=lesson-complete]'), /every step was seen/);
    assert.ok((await page.locator('[data-testid=show-me-log] li').count()) >= 1, 'show me says what it did');
    await page.click('[data-testid=lessons-button]');
    const progress = await page.textContent(`[data-testid=lesson-item][data-lesson-id="${LESSON}"] [data-testid=lesson-item-progress]`);
    assert.match(progress, new RegExp(`✓ ${steps} of ${steps} steps`), 'the progress is stored');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
