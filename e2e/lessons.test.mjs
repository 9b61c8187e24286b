// Lessons in the app: the list, the panel beside the cluster, steps the simulation ticks, "show me",
// deep links, sharing from inside a lesson, and mastery ticks that outlive a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, simTimeMs, waitUntil } from './support/cluster.mjs';
import { openFromList, selectActor, step, stepState, waitForStepState } from './support/lesson-steps.mjs';

test('lesson 6 walked as a learner: pause A while it holds the lock, then resume it; each step ticks', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await page.keyboard.press('L');
    // The lesson files are fetched when the list first opens.
    await page.waitForSelector('[data-testid=lesson-list] [data-testid=lesson-item]');
    const listed = await page.$$eval('[data-testid=lesson-item]', (items) => items.map((item) => item.getAttribute('data-lesson-id')));
    assert.ok(listed.includes('fencing-tokens'), `lesson 6 is listed: ${listed}`);
    await app.screenshot('lessons-list');
    await waitUntil(async () => (await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) === 'open-lesson', {
      what: 'the first Start button to have the keyboard focus',
    });
    await page.keyboard.press('Escape');
    await setSpeedPosition(page); // a fast playground, which the lesson must not inherit
    const playgroundSlider = await page.inputValue('input[aria-label="Playback speed"]');
    await openFromList(page, 'fencing-tokens');
    assert.equal(new URL(page.url()).hash, '#/lesson/fencing-tokens');
    assert.equal(await stepState(page, 1), 'open');
    assert.equal(await stepState(page, 2), 'locked');

    // The lesson waits, paused at its start, while the learner reads; play starts it.
    await page.waitForSelector('[data-testid=lesson-waiting]');
    const openedAtMs = await simTimeMs(page);
    await page.waitForTimeout(600);
    assert.equal(await simTimeMs(page), openedAtMs, 'the run does not move while the lesson waits');
    const lessonSlider = await page.inputValue('input[aria-label="Playback speed"]');
    assert.ok(Number(lessonSlider) < Number(playgroundSlider), `the lesson's own speed, not the playground's (${lessonSlider} vs ${playgroundSlider})`);
    await page.click('[data-testid=play-toggle]');
    assert.equal(await page.locator('[data-testid=lesson-waiting]').count(), 0);

    // Predict first: the pick is locked in, and its verdict waits for the run (or for "reveal now").
    const question = step(page, 1).locator('[data-testid=predict]').first();
    await question.locator('[data-testid=predict-option]').first().click();
    assert.match(await question.locator('[data-testid=predict-feedback]').textContent(), /Locked in/);
    assert.ok(await question.locator('[data-testid=predict-option]').nth(1).isDisabled(), 'a locked-in prediction stays');
    await question.locator('[data-testid=predict-reveal]').click();
    assert.match(await question.locator('[data-testid=predict-feedback]').textContent(), /Not quite/);

    // The real controls: select worker A, wait until it holds the lock and is modifying (it has read
    // the count, so the late access will be its write), pause it there.
    await selectActor(page, 'A');
    await waitUntil(
      async () => /^▢ A.*holds lock, token \d+.*— modifying/.test((await page.locator('[data-testid=lane-A]').textContent()) ?? ''),
      { timeout: 20_000, interval: 20, what: 'A to hold the lock while modifying' },
    );
    await page.locator('[data-testid=inspector] button', { hasText: /^Pause$/ }).click();
    assert.match(await page.locator('[data-testid=lane-A]').textContent(), /paused — still believes it holds lock.*\(stopped while modifying\)/);
    await setSpeedPosition(page);
    await waitForStepState(page, 1, 'done');
    assert.match(await step(page, 1).locator('[data-testid=step-result]').textContent(), /A is frozen and still sure it holds the lock .* two clients each believe the lock is theirs/);
    assert.equal(await stepState(page, 2), 'open');
    assert.equal(new URL(page.url()).hash, '#/lesson/fencing-tokens/step/2', 'the address follows the learner');
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('lessons-fencing-step1-done');

    await page.locator('[data-testid=inspector] button', { hasText: /^Resume$/ }).click();
    await waitForStepState(page, 2, 'done');
    assert.match(await step(page, 2).locator('[data-testid=step-result]').textContent(), /frozen holding token \d+ past its lease; it woke .* and the store refused it/);
    // Step 3, "can it break?", asks the search on a world of its own (e2e/can-it-break.test.mjs does it).
    assert.notEqual(await stepState(page, 3), 'done');
    assert.equal(await page.locator('[data-testid=lesson-complete]').count(), 0);
    assert.equal(await page.locator('[data-testid=show-me-log]').count(), 0, 'show me was never used');
    await app.screenshot('lessons-fencing-step2-done');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

// Every lesson finished with "show me": e2e/show-me-course-*.test.mjs.

test('a deep link opens step 2 with step 1 played; a share link from there reopens the same lesson, step and world', async () => {
  const app = await openApp({ path: '/#/lesson/fencing-tokens/step/2' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="fencing-tokens"]');
    assert.equal(await stepState(page, 1), 'done');
    assert.equal(await stepState(page, 2), 'open');
    assert.match(await page.locator('[data-testid=lane-A]').textContent(), /paused/, 'step 1 left A paused');
    await page.click('[data-testid=share-button]');
    const fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], {
      what: 'a v4 share link (carrying the lesson) in the address',
    });
    const hash = await page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');
    assertNoProblems(app);

    const reopened = await openApp({ path: `/${fragment}` });
    try {
      await reopened.page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="fencing-tokens"]');
      assert.equal(await stepState(reopened.page, 1), 'done');
      assert.equal(await stepState(reopened.page, 2), 'open');
      assert.equal(await reopened.page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash'), hash);
      assertNoProblems(reopened);
    } finally {
      await reopened.close();
    }
  } finally {
    await app.close();
  }
});

test('scrubbing back keeps done steps done; replaying forward and acting still ticks the open step', async () => {
  const app = await openApp({ path: '/#/lesson/fencing-tokens/step/2' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel]');
    // A lesson opens paused, so the end of the recorded run is where it stands.
    const endMs = await simTimeMs(page);
    await page.locator('[data-testid=scrubber]').fill('500000');
    await waitUntil(async () => (await simTimeMs(page)) === 500, { what: 'the clock at 500 ms' });
    assert.equal(await stepState(page, 1), 'done', 'a done step stays done before its moment');
    assert.equal(await stepState(page, 2), 'open');
    assert.doesNotMatch(await page.locator('[data-testid=lane-A]').textContent(), /paused/);
    // Forward again: the recorded pause of A replays, and resuming A is the learner's own move.
    await page.locator('[data-testid=scrubber]').fill(String(endMs * 1_000));
    await waitUntil(async () => /paused/.test(await page.locator('[data-testid=lane-A]').textContent()), {
      what: 'the replayed pause of A',
    });
    await selectActor(page, 'A');
    await page.locator('[data-testid=inspector] button', { hasText: /^Resume$/ }).click();
    await page.keyboard.press(' ');
    await setSpeedPosition(page);
    await waitForStepState(page, 2, 'done');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a lesson address that does not exist says so and changes nothing', async () => {
  for (const [path, reason] of [
    ['/#/lesson/no-such-lesson', /no lesson `no-such-lesson`/],
    ['/#/lesson/fencing-tokens/step/9', /has 3 steps, so there is no step 9/],
  ]) {
    const app = await openApp({ path });
    try {
      const notice = await app.page.textContent('[data-testid=notice]');
      assert.match(notice, /This lesson address could not be opened/);
      assert.match(notice, reason);
      assert.equal(await app.page.locator('[data-testid=lesson-panel]').count(), 0);
      assert.match(await app.page.textContent('[data-testid=scenario-title]'), /Raft playground/);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  }
});

test('mastery ticks survive a reload, and the projector-sized presenter view keeps the lesson beside the cluster', async () => {
  const app = await openApp({ width: 1280, height: 720, path: '/#/lesson/fencing-tokens' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel]');
    const items = page.locator('[data-testid=mastery-item]');
    assert.ok((await items.count()) >= 3);
    await items.nth(0).check();
    await items.nth(2).check();
    await page.reload();
    await page.waitForSelector('[data-testid=lesson-panel]');
    const ticked = await page.$$eval('[data-testid=mastery-item]', (boxes) => boxes.map((box) => box.checked));
    assert.deepEqual(ticked.slice(0, 3), [true, false, true]);
    await page.keyboard.press('F');
    await page.locator('[data-testid=lesson-step-1]').scrollIntoViewIfNeeded();
    await app.screenshot('lessons-presenter-1280x720');
    await page.click('[data-testid=lessons-button]');
    assert.match(
      await page.textContent('[data-testid=lesson-item][data-lesson-id="fencing-tokens"] [data-testid=lesson-item-progress]'),
      /2 of \d+ mastery items ticked/,
    );
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
