// Issue 11 as a learner meets it: lessons 3 and 6 done by hand through the node popover (never "show
// me"), each lesson opened paused, and the narration saying what each move meant: the crash, the
// follower that timed out, the election won with its term, the store refusing a stale token with both
// numbers. Screenshots of each narrated moment go to e2e/screenshots/learner-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, simTimeMs, waitForLeader, waitUntil } from './support/cluster.mjs';

const POPOVER = '[data-testid=node-popover]';
const NORMAL_SPEED_POSITION = '500';

const stepState = (page, number) => page.locator(`[data-testid=lesson-step-${number}]`).getAttribute('data-state');

async function waitForStep(page, number, timeout = 30_000) {
  await waitUntil(async () => (await stepState(page, number)) === 'done', { timeout, what: `step ${number} to tick` });
}

const narration = (page) => page.$$eval('[data-testid=narration-line] .narration-text', (lines) => lines.map((line) => line.textContent));

async function waitForLine(page, pattern, what) {
  return waitUntil(async () => (await narration(page)).find((line) => pattern.test(line)), { timeout: 20_000, what });
}

async function assertOpensPaused(page) {
  await page.waitForSelector('[data-testid=lesson-waiting]');
  const openedAt = await simTimeMs(page);
  await page.waitForTimeout(500);
  assert.equal(await simTimeMs(page), openedAt, 'the lesson waits, paused, while the learner reads');
}

/** The ring node whose name is `name` (n3, A, store). */
function ringNode(page, name) {
  return page.locator('[data-testid=cluster-view] g[data-testid^="node-"]', {
    has: page.locator('text.node-id', { hasText: new RegExp(`^${name}$`) }),
  });
}

async function act(page, name, label) {
  await ringNode(page, name).click();
  await page.waitForSelector(POPOVER);
  await page.click(`${POPOVER} button[aria-label="${label}"]`);
}

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];

for (const { width, height } of VIEWPORTS) {
const size = `${width}x${height}`;

test(`lesson 3 by hand at ${size}: crash the leader from its popover; the narration tells the crash, the timeout and the won election`, async () => {
  const app = await openApp({ width, height, path: '/#/lesson/leader-election' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="leader-election"]');
    await assertOpensPaused(page);
    // What to do now is in view beside the cluster, without scrolling past the lesson's text.
    const { top, bottom } = await page.locator('[data-testid=current-step]').boundingBox().then((box) => ({ top: box.y, bottom: box.y + box.height }));
    assert.ok(top >= 0 && bottom <= height, `the open step is on screen at ${size} (${top}–${bottom})`);
    assert.match(await page.textContent('[data-testid=current-step]'), /Now: step 1[\s\S]*Crash the leader/);
    const leader = await waitForLeader(page);
    await act(page, leader.id, `Crash ${leader.id}`);
    const crash = await waitForLine(page, new RegExp(`^Crash ${leader.id}\\. ${leader.id} was the leader`), 'the crash told');
    assert.match(crash, /election timer runs out will ask for votes/);
    assert.match(await page.textContent('[data-testid=narration-caption]'), new RegExp(`Crash ${leader.id}`), 'the caption tells the move at once');
    await app.screenshot(`learner-1-crash-told-${size}`);
    const newerTerm = (line) => Number(/raises its term to (\d+)/.exec(line)?.[1] ?? 0) > leader.term;
    const timeout = await waitUntil(
      async () => (await narration(page)).find((line) => /heard no leader before its election timer ran out/.test(line) && newerTerm(line)),
      { timeout: 20_000, what: 'a follower timing out after the crash' },
    );
    await waitForStep(page, 1);
    const won = await waitForLine(page, /wins the election for term (\d+) with \d of 5 votes, a majority/, 'the won election');
    const wonTerm = Number(/term (\d+)/.exec(won)[1]);
    assert.ok(wonTerm > leader.term, `the new leader's term ${wonTerm} is above the crashed one's ${leader.term}`);
    assert.match(timeout, new RegExp(`term to ${wonTerm}\\b`), 'the timed-out follower campaigned for the term that was won');
    await page.click('[data-testid=play-toggle]');
    await app.screenshot(`learner-2-election-won-${size}`);
    assert.match(await page.textContent('[data-testid=narration-caption]'), /\S/, 'the caption says something');
    assert.equal(await page.locator('[data-testid=show-me-log]').count(), 0, 'show me was never used');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test(`lesson 6 by hand at ${size}: pause A from its popover while it holds the lock, resume it; the store refuses its stale token, both numbers told`, async () => {
  const app = await openApp({ width, height, path: '/#/lesson/fencing-tokens' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="fencing-tokens"]');
    await assertOpensPaused(page);
    await page.click('[data-testid=play-toggle]');
    // The step asks for the pause while A is modifying: paused while reading, writing or releasing, A's
    // resumed job sends no late write (or only a read), and step 2 waits for a refused write. The run is
    // held still between seeing "modifying" and the click, so a slow machine cannot let the phase pass.
    const modifying = async () => /^▢ A.*holds lock, token \d+.*— modifying/.test((await page.locator('[data-testid=lane-A]').textContent()) ?? '');
    for (let attempt = 1; ; attempt += 1) {
      await waitUntil(modifying, { timeout: 20_000, what: 'A to hold the lock and be modifying' });
      await page.click('[data-testid=play-toggle]');
      if (await modifying()) break;
      assert.ok(attempt < 5, 'the run could be held still while A was modifying');
      await page.click('[data-testid=play-toggle]');
    }
    await act(page, 'A', 'Pause until resumed, A');
    await page.click('[data-testid=play-toggle]');
    await waitForLine(page, /^Pause A$/, 'the pause told');
    await app.screenshot(`learner-3-A-paused-${size}`);
    await setSpeedPosition(page);
    await waitForStep(page, 1);
    await waitForLine(page, /^A's lease [0-9a-f]+ \(fencing token \d+\) expired/, "A's lease running out, told");
    await setSpeedPosition(page, NORMAL_SPEED_POSITION);
    await act(page, 'A', 'Resume A');
    await waitForStep(page, 2);
    await page.click('[data-testid=play-toggle]');
    const refused = await waitForLine(page, /refuses A's (write|read): its token (\d+) is below (\d+)/, 'the stale token refused');
    const [, presented, highest] = /token (\d+) is below (\d+)/.exec(refused).map(Number);
    assert.ok(presented < highest, `the refusal names both numbers: ${refused}`);
    await app.screenshot(`learner-4-stale-token-refused-${size}`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
}
