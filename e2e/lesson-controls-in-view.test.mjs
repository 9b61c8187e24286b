// Nothing a step needs is below the fold (issue 30, item 14), at 1280×720, 1440×900 and 1920×1080 with
// the lesson open, done by hand: lesson 1 step 2's "any length" pause field is in the node's popover,
// beside the node; a banner (an error notice) does not push the playback bar out of the window (it
// sticks to the window's foot); lesson 11 step 4's remedy is brought on screen by the "Run settings"
// link in the step itself, with "Start fresh run" beside it, and the step then ticks by hand.
// Screenshots: e2e/screenshots/controls-in-view-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, waitUntil } from './support/cluster.mjs';
import { openStepWorld, selectActor, step, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const POPOVER = '[data-testid=node-popover]';
const SIZES = [{ width: 1280, height: 720 }, { width: 1440, height: 900 }, { width: 1920, height: 1080 }];

/** Throws unless the element is wholly inside the window. */
async function assertInWindow(page, selector, { width, height }, what) {
  const found = await page.locator(selector).first().boundingBox();
  assert.ok(
    found && found.x >= 0 && found.y >= 0 && found.x + found.width <= width && found.y + found.height <= height,
    `${what} is inside the ${width}×${height} window: ${JSON.stringify(found)}`,
  );
}

for (const size of SIZES) {
  const name = `${size.width}x${size.height}`;

  test(`lesson 1 step 2 at ${name}: the pause length field beside the node, the playback bar under a banner`, async () => {
    const app = await openApp({ ...size, path: '/#/lesson/exactly-once/step/2' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-waiting]');
      await selectActor(page, 'A');
      await page.waitForSelector(POPOVER);
      await assertInWindow(page, `${POPOVER} [data-testid=pause-ms]`, size, 'the "any length" pause field');
      await assertInWindow(page, `${POPOVER} [data-testid=pause-for-ms]`, size, 'its Pause button');
      // A wrong length is refused with a banner at the top, which pushes the page down.
      await page.fill(`${POPOVER} [data-testid=pause-ms]`, '25oo');
      await page.click(`${POPOVER} [data-testid=pause-for-ms]`);
      assert.match(await page.textContent('[data-testid=notice]'), /Pause length `25oo` must be a whole number/);
      assert.equal(await page.textContent(`${POPOVER} [data-testid=popover-status]`), 'up', 'nothing was paused');
      await assertInWindow(page, '[data-testid=play-toggle]', size, 'the playback bar\'s play button, with the banner up');
      await app.screenshot(`controls-in-view-pause-${name}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });

  test(`lesson 11 step 4 at ${name}: the step's "Run settings" link brings the remedy on screen; it ticks by hand`, async () => {
    const app = await openApp({ ...size, path: '/#/lesson/paxos/step/4' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="paxos"]');
      if ((await step(page, 4).locator('[data-testid=open-step-world]').count()) > 0) await openStepWorld(page, 4);
      await waitForStepState(page, 4, 'open', 20_000);
      const remedy = '[data-testid=world-option-paxos-remedy]';
      await page.click('[data-testid=current-step] [data-testid=lesson-control-link]');
      await waitUntil(async () => {
        const found = await page.locator('[data-testid=apply-settings]').boundingBox();
        return found && found.y >= 0 && found.y + found.height <= size.height;
      }, { what: 'the settings to scroll on screen' });
      assert.ok(await page.evaluate(() => document.activeElement?.closest('[data-testid=world-options]') !== null), 'the keyboard is at the world\'s options');
      await assertInWindow(page, remedy, size, 'the remedy field');
      await assertInWindow(page, '[data-testid=apply-settings]', size, '"Start fresh run"');
      await page.selectOption(remedy, 'backoff');
      await page.click('[data-testid=apply-settings]');
      await waitUntil(async () => (await page.inputValue(remedy)) === 'backoff', { what: 'the fresh run to keep the remedy' });
      await assertInWindow(page, '[data-testid=play-toggle]', size, 'the play button, after scrolling down to the settings');
      await app.screenshot(`controls-in-view-remedy-${name}`);
      await setSpeedPosition(page);
      if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
      await waitForStepState(page, 4, 'done', 40_000);
      assert.match(await stepResult(page, 4), /after [1-6] ballots?, within the 6 allowed/);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
