// Resume where you left off (issue 30): a lesson half done by hand offers "Continue at step N" in the
// lesson list, first, and opens there; it is still there after a reload (the progress is kept in
// localStorage). A lesson not begun (the look-alike) offers only "Start". "Start over" opens step 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems } from './support/cluster.mjs';
import { selectActor, stepState, waitForStepState } from './support/lesson-steps.mjs';

const entry = (page, id) => page.locator(`[data-testid=lesson-item][data-lesson-id="${id}"]`);

test('lesson 1 half done by hand: the list offers "Continue at step 2" and opens there, after a reload too', async () => {
  const app = await openApp({ width: 1280, height: 720, path: '/#/lesson/exactly-once' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-waiting]');
    await page.click('[data-testid=lesson-play]');
    await selectActor(page, 'B');
    await page.click('[data-testid=node-popover] button[aria-label="Crash B"]');
    await waitForStepState(page, 1, 'done');

    await page.reload();
    // The address (step 2) reopens the lesson, which closes the list: wait for it before opening the list.
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="exactly-once"]');
    await page.click('[data-testid=lessons-button]');
    await entry(page, 'exactly-once').waitFor();
    assert.match(await entry(page, 'exactly-once').locator('[data-testid=lesson-item-progress]').textContent(), /^1 of 4 steps/);
    const buttons = await entry(page, 'exactly-once').locator('button').allTextContents();
    assert.deepEqual(buttons, ['Continue at step 2', 'Start over'], 'going on comes first');
    assert.equal(await entry(page, 'exactly-once').locator('button.primary').textContent(), 'Continue at step 2');
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Continue at step 2',
      'the keyboard lands on it: it is the first lesson and it is half done',
    );
    // The look-alike: a lesson never begun offers only Start.
    assert.deepEqual(await entry(page, 'consensus-and-quorums').locator('button').allTextContents(), ['Start']);
    await app.screenshot('lesson-resume-list');

    await entry(page, 'exactly-once').locator('[data-testid=continue-lesson]').click();
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="exactly-once"]');
    assert.equal(await page.textContent('[data-testid=lesson-progress]'), 'Lesson 1 · step 2 of 4');
    assert.equal(await stepState(page, 1), 'done');
    assert.equal(await stepState(page, 2), 'open');
    assert.equal(new URL(page.url()).hash, '#/lesson/exactly-once/step/2');
    await app.screenshot('lesson-resume-opened');

    await page.click('[data-testid=lessons-button]');
    await entry(page, 'exactly-once').locator('[data-testid=restart-lesson]').click();
    await page.waitForSelector('[data-testid=lesson-progress]');
    assert.equal(await page.textContent('[data-testid=lesson-progress]'), 'Lesson 1 · step 1 of 4', 'Start over opens step 1');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
