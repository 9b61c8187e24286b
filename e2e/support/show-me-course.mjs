// A lesson finished with "show me" on each step, opened from the app's own list: each step ticks and
// says what happened, the lesson says it is complete and the list remembers it. Only a few lessons (one, today):
// "show me" on every step of every lesson is checked natively through the same tracker and driver
// (src/lesson/drive.rs, at two frame sizes, with the edge-case steps' sentences), and every step of every
// lesson is done in the browser by hand (e2e/lesson-walk.mjs); the whole course by "show me" here was
// the suite's longest test by far (9 minutes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './browser.mjs';
import { assertNoProblems, setSpeedPosition } from './cluster.mjs';
import { readCourse } from './lesson-script.mjs';
import { step, stepResult, waitForStepState } from './lesson-steps.mjs';

async function openFromList(page, id) {
  await page.click('[data-testid=lessons-button]');
  await page.locator(`[data-testid=lesson-item][data-lesson-id="${id}"] [data-testid=open-lesson]`).click();
  await page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${id}"]`);
}

async function finishWithShowMe(app, lesson) {
  const { page } = app;
  await openFromList(page, lesson.id);
  await setSpeedPosition(page);
  const steps = await page.locator('[data-testid^=lesson-step-]').count();
  assert.equal(steps, lesson.steps.length, `${lesson.id}: the panel shows every step of the file`);
  for (let number = 1; number <= steps; number += 1) {
    await waitForStepState(page, number, 'open', 20_000);
    await step(page, number).locator('[data-testid=show-me]').click();
    await waitForStepState(page, number, 'done', 60_000).catch(async (error) => {
      const verdict = await step(page, number).locator('[data-testid=step-verdict]').textContent().catch(() => '');
      throw new Error(`${lesson.id} step ${number}: ${error.message} (${verdict})`);
    });
    assert.ok((await stepResult(page, number)).trim().length > 0, `${lesson.id} step ${number} says what happened`);
  }
  assert.match(await page.textContent('[data-testid=lesson-complete]'), /every step was seen/);
  assert.ok((await page.locator('[data-testid=show-me-log] li').count()) >= 1, `${lesson.id}: show me says what it did`);
  await page.click('[data-testid=lessons-button]');
  const progress = await page.textContent(`[data-testid=lesson-item][data-lesson-id="${lesson.id}"] [data-testid=lesson-item-progress]`);
  assert.match(progress, new RegExp(`✓ ${steps} of ${steps} steps`), `${lesson.id} progress is stored`);
  await page.keyboard.press('Escape');
}

/**
 * One test per lesson named in `ids` (lesson ids): finished from the list with "show me" on each step.
 * The first also checks that the list shows the course, in order.
 */
export function showMeLessons(ids) {
  const course = readCourse();
  ids.forEach((id, order) => {
    const lesson = course.find((each) => each.id === id);
    test(`lesson ${course.indexOf(lesson) + 1} (${id}) completes with "show me" on each step, opened from the list`, async () => {
      assert.ok(lesson, `${id} is a lesson of the course`);
      const app = await openApp();
      try {
        if (order === 0) {
          await app.page.click('[data-testid=lessons-button]');
          await app.page.waitForSelector('[data-testid=lesson-item]');
          const listed = await app.page.$$eval('[data-testid=lesson-item]', (items) => items.map((item) => item.getAttribute('data-lesson-id')));
          assert.deepEqual(listed, course.map((each) => each.id), 'the list shows the course in order');
          await app.page.keyboard.press('Escape');
        }
        await finishWithShowMe(app, lesson);
        assertNoProblems(app);
      } finally {
        await app.close();
      }
    });
  });
}
