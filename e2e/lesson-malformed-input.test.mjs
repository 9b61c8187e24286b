// Lesson 10's invalid-input step (issue 30: "add a malformed-input step"), done by hand through the
// visible controls, never "show me": predict, play, press "Send a malformed write" under the worker
// lanes, and the step ticks because the store refused the write *as malformed* and changed nothing.
// At 1440x900 with a mouse and at 390x844 on a touch phone. Screenshots:
// e2e/screenshots/lesson10-malformed-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, waitUntil } from './support/cluster.mjs';
import { step, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const STEP = 8;
const RESULT = /the store refused A's write as malformed \(no fencing token\) and changed nothing: the count stayed at \d+ and the highest token seen at \d+/;
const LEDGER_ROW = 'A write · rejected as malformed: no fencing token; nothing changed';
const NARRATED = "refuses A's write as malformed: it carries no fencing token";
const BUTTON = '[data-testid=send-malformed-write]';

/** Whether the element is wholly inside the window. */
async function inWindow(page, selector, height) {
  const box = await page.locator(selector).first().boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

async function doStepByHand(app, { width, height, touch }) {
  const { page } = app;
  const press = (locator) => (touch ? locator.tap() : locator.click());
  await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="guided-lab"]');
  await waitForStepState(page, STEP, 'open', 20_000);
  assert.match(await page.textContent('[data-testid=current-step]'), /Send a malformed write/);

  // Predict first, through the link the step in hand offers (the steps are folded on a phone).
  await press(page.locator('[data-testid=current-step] [data-testid=go-to-predict]'));
  const options = step(page, STEP).locator('[data-testid=predict-option]');
  await options.nth(2).scrollIntoViewIfNeeded();
  assert.match(await options.nth(2).textContent(), /Refuse it as malformed before any token comparison/);
  await press(options.nth(2));
  assert.match(await step(page, STEP).locator('[data-testid=predict-feedback]').textContent(), /Locked in/);

  if (await page.locator('[data-testid=lesson-play]').isVisible()) {
    await press(page.locator('[data-testid=lesson-play]'));
  } else if (!(await isPlaying(page))) {
    await press(page.locator('[data-testid=play-toggle]'));
  }

  // The control sits under the worker lanes, just below the cluster; the line beside it names A.
  const button = page.locator(BUTTON);
  await button.scrollIntoViewIfNeeded();
  assert.ok(await inWindow(page, BUTTON, height), `the button is on screen at ${width}x${height}`);
  await waitUntil(async () => /^A sends the store a write with no fencing token$/.test(
    ((await page.textContent('[data-testid=malformed-write-sender]')) ?? '').trim()), {
    timeout: 20_000,
    what: 'the line beside the button to name A',
  });
  assert.equal(await step(page, STEP).getAttribute('data-state'), 'open', 'nothing ticked before the write');
  await app.screenshot(`lesson10-malformed-before-${width}`);
  await press(button);

  await waitForStepState(page, STEP, 'done');
  assert.match(await stepResult(page, STEP), RESULT);
  assert.equal(await page.locator('[data-testid=show-me-log] li').count(), 0, 'the write was the learner\'s, not "show me"\'s');
  assert.match(await step(page, STEP).locator('[data-testid=predict-feedback]').textContent(), /✓ Right/);
  await waitUntil(async () => ((await page.textContent('[data-testid=resource-ledger]')) ?? '').includes(LEDGER_ROW), {
    timeout: 10_000,
    what: 'the ledger row for the malformed write',
  });
  assert.match(await page.textContent('[data-testid=resource-ledger] .ledger-totals'), /· 1 malformed/);
  assert.ok(((await page.textContent('[data-testid=narration-log]')) ?? '').includes(NARRATED), 'the narration says why');
  const toast = page.locator('[data-testid=lesson-toast]');
  await toast.waitFor({ timeout: 10_000 });
  assert.match(await toast.textContent(), /✓ Step 8 done/);
  // Opened at step 8 from its address: the lesson is finished, but steps 1–7 never happened here.
  const complete = (await page.textContent('[data-testid=lesson-complete]')) ?? '';
  assert.match(complete, /Steps 1–7 were skipped/);
  assert.doesNotMatch(complete, /every step was seen/);
  await app.screenshot(`lesson10-malformed-ticked-${width}`);
  await page.locator('[data-testid=resource-ledger]').scrollIntoViewIfNeeded();
  await app.screenshot(`lesson10-malformed-ledger-${width}`);
}

test('lesson 10 step 8 by hand at 1440x900: a write with no token is refused as malformed', async () => {
  const app = await openApp({ width: 1440, height: 900, path: `/#/lesson/guided-lab/step/${STEP}` });
  try {
    await doStepByHand(app, { width: 1440, height: 900, touch: false });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('lesson 10 step 8 by hand on a 390x844 touch phone: the same, with taps only', async () => {
  const app = await openApp({
    width: 390,
    height: 844,
    path: `/#/lesson/guided-lab/step/${STEP}`,
    page: { hasTouch: true, isMobile: true },
  });
  try {
    await doStepByHand(app, { width: 390, height: 844, touch: true });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
