// Completion codes (issue 35, part E): a learner does a lesson step through visible controls, copies
// the lesson's completion code, and the "Check completion codes" sheet replays it and lists the step
// met "by hand"; a step done with "show me" is reported as such, and a malformed code among good ones
// gets its own error without spoiling the others. Served from a sub-path, as a course would host it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { Hand } from './support/hand.mjs';
import { assertNoProblems, currentLeader, readNodes, setSpeedPosition, waitUntil } from './support/cluster.mjs';
import { step, waitForStepState } from './support/lesson-steps.mjs';

const POPOVER = '[data-testid=node-popover]';
const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

/**
 * Presses "Completion code", then "Copy" (with the keyboard: Enter on the button, Tab past the code to
 * Copy, Enter); returns the code as the clipboard holds it.
 */
async function copyCode(app, hand, { keyboard = false } = {}) {
  const { page } = app;
  const button = page.locator('[data-testid=completion-code-button]');
  if (keyboard) {
    await button.focus();
    await page.keyboard.press('Enter');
  } else {
    await hand.press(button, 'the Completion code button');
  }
  const field = page.locator('[data-testid=completion-code-text]');
  await field.waitFor();
  const shown = await field.inputValue();
  assert.match(shown, /^QLC1\.[A-Za-z0-9_-]+$/, 'one copyable line');
  if (keyboard) {
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'completion-code-text');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'completion-code-copy');
    await page.keyboard.press('Enter');
  } else {
    await hand.press(page.locator('[data-testid=completion-code-copy]'), 'the Copy button');
  }
  await waitUntil(async () => /Copied/.test(await page.textContent('[data-testid=completion-code-status]')), {
    what: 'the copy to be confirmed',
  });
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, shown, 'the clipboard holds the code shown');
  return copied;
}

/** Opens the checker from the lesson list, pastes `text` and checks it; returns the results. */
async function checkFromList(page, hand, text) {
  await hand.press(page.locator('[data-testid=lessons-button]'), 'the Lessons button');
  await hand.press(page.locator('[data-testid=open-verify]'), 'Check completion codes');
  await page.waitForSelector('[data-testid=verify-sheet]');
  assert.equal(new URL(page.url()).hash, '#/verify', 'the checker has an address');
  await page.locator('[data-testid=verify-input]').fill(text);
  await hand.press(page.locator('[data-testid=verify-check]'), 'the Check button');
  await waitUntil(async () => /^Checked/.test(await page.textContent('[data-testid=verify-summary]')), {
    timeout: 30_000,
    what: 'the codes to be checked',
  });
  return page.locator('[data-testid=verify-result]');
}

const stepVerdict = (result, number) =>
  result.locator('[data-testid=verify-step]').nth(number - 1);

test('a step done by hand travels in a code and is checked as met by hand', async () => {
  const viewport = { width: 1280, height: 720, page: CLIPBOARD };
  const app = await openApp({ ...viewport, prefix: '/courses/ql/', path: '/#/lesson/leader-election' });
  const { page } = app;
  const hand = new Hand(page, viewport);
  try {
    await page.waitForSelector('[data-testid=lesson-waiting]');
    // Step 1 by hand: the leader, chosen on the ring and crashed from its popover.
    const leader = currentLeader(await readNodes(page));
    assert.ok(leader, 'a leader leads when the lesson opens');
    await hand.press(page.locator(`[data-testid=node-${leader.id}]`), `node ${leader.id}`);
    await hand.press(page.locator(`${POPOVER} button[aria-label^="Crash"]`), 'Crash');
    await setSpeedPosition(page);
    await waitForStepState(page, 1, 'done');
    await hand.press(page.locator('[data-testid=play-toggle]'), 'Pause');
    const code = await copyCode(app, hand, { keyboard: true });

    const results = await checkFromList(page, hand, code);
    assert.equal(await results.count(), 1);
    const result = results.first();
    assert.equal(await result.getAttribute('data-lesson-id'), 'leader-election');
    assert.match(await result.locator('h3').textContent(), /1 of \d+ steps met/);
    const first = stepVerdict(result, 1);
    assert.equal(await first.getAttribute('data-status'), 'met');
    assert.equal(await first.locator('[data-testid=verify-step-verdict]').textContent(), 'met by hand');
    assert.equal(await stepVerdict(result, 2).getAttribute('data-status'), 'not-met');
    assert.equal(await result.locator('[data-testid=verify-mismatches]').count(), 0, 'no claim goes unmet');
    await app.screenshot('completion-code-by-hand-1280');
    // Closing gives the lesson its address back, and the lesson is as it was.
    await hand.press(page.locator('[data-testid=verify-close]'), 'Close');
    assert.equal(await page.evaluate(() => window.location.hash), '#/lesson/leader-election/step/2');
    assert.equal(await step(page, 1).getAttribute('data-state'), 'done');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('"show me" is reported as such, and a malformed code spoils only itself', async () => {
  const viewport = { width: 390, height: 844, page: { ...CLIPBOARD, hasTouch: true, isMobile: true } };
  const app = await openApp({ ...viewport, path: '/#/lesson/leader-election' });
  const { page } = app;
  const hand = new Hand(page, viewport);
  try {
    await page.waitForSelector('[data-testid=lesson-waiting]');
    await setSpeedPosition(page);
    // On a phone the step in hand is the "Now" card over the cluster.
    await hand.press(page.locator('[data-testid=current-step] [data-testid=show-me]'), 'Show me');
    await waitForStepState(page, 1, 'done');
    await hand.press(page.locator('[data-testid=play-toggle]'), 'Pause');
    const code = await copyCode(app, hand);
    // The checker by its address, with a broken line before the code.
    await page.evaluate(() => { window.location.hash = '#/verify'; });
    await page.waitForSelector('[data-testid=verify-sheet]');
    await page.locator('[data-testid=verify-input]').fill(`QLC1.not-a-real-code\n${code}`);
    await hand.press(page.locator('[data-testid=verify-check]'), 'the Check button');
    await waitUntil(async () => /^Checked 2/.test(await page.textContent('[data-testid=verify-summary]')), {
      timeout: 30_000,
      what: 'both codes to be checked',
    });
    const results = page.locator('[data-testid=verify-result]');
    const broken = results.nth(0);
    assert.equal(await broken.getAttribute('data-malformed'), 'true');
    assert.match(await broken.locator('[data-testid=verify-error]').textContent(), /damaged/);
    const shown = results.nth(1);
    assert.equal(await shown.getAttribute('data-malformed'), 'false');
    assert.equal(
      await stepVerdict(shown, 1).locator('[data-testid=verify-step-verdict]').textContent(),
      'met with “show me”',
    );
    await app.screenshot('completion-code-show-me-390');
    // Closing the sheet leaves the lesson as it was.
    await hand.press(page.locator('[data-testid=verify-close]'), 'Close');
    await page.waitForSelector('[data-testid=verify-sheet]', { state: 'detached' });
    assert.equal(await step(page, 1).getAttribute('data-state'), 'done');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
