// Lesson 14, "Sessions and lock-delay", in the browser: the whole lesson by "show me" at 1440x900, its
// first step by hand at 1920x1080 (A paused from its popover while the lesson waits), and the etcd words
// the lock service now speaks in: messages named LeaseGrant + Txn and Watch, the Workers panel's lock key under
// /lock/jobs/ and its "held back until" line, and the narration's LeaseGrant, Txn and expiry. Screenshots
// go to e2e/screenshots/lesson14-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';
import { showMe, step, stepResult, stepState, waitForStepState } from './support/lesson-steps.mjs';

const LESSON = 'sessions-lock-delay';
const POPOVER = '[data-testid=node-popover]';
const DELAY_LINE = '[data-testid=lock-delay-line]';

const narration = (page) => page.$$eval('[data-testid=narration-line] .narration-text', (lines) => lines.map((line) => line.textContent));

async function waitForLine(page, pattern, what) {
  return waitUntil(async () => (await narration(page)).find((line) => pattern.test(line)), { timeout: 20_000, what });
}

function ringNode(page, name) {
  return page.locator('[data-testid=cluster-view] g[data-testid^="node-"]', {
    has: page.locator('text.node-id', { hasText: new RegExp(`^${name}$`) }),
  });
}

async function openFromList(page) {
  await page.click('[data-testid=lessons-button]');
  await page.waitForSelector('[data-testid=lesson-list] [data-testid=lesson-item]');
  await page.locator(`[data-testid=lesson-item][data-lesson-id="${LESSON}"] [data-testid=open-lesson]`).click();
  await page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${LESSON}"]`);
}

async function shoot(app, number, name) {
  await step(app.page, number).scrollIntoViewIfNeeded();
  await app.screenshot(name);
}

test('lesson 14 at 1440x900 by "show me": lock-delay covers a short pause, a long one overlaps, fencing refuses it', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await openFromList(page);
    assert.equal(new URL(page.url()).hash, `#/lesson/${LESSON}`);
    assert.equal(await stepState(page, 1), 'open');
    await page.waitForSelector('[data-testid=lesson-waiting]');
    await app.screenshot('lesson14-opened-1440');
    await setSpeedPosition(page);

    await showMe(page, 1);
    assert.match(await stepResult(page, 1), /lock-delay held \/lock\/jobs back from \d+\.\d{3} s .*only then was B/);
    await shoot(app, 1, 'lesson14-held-back-1440');

    await showMe(page, 2);
    // Step 3 runs on a world of its own, but the run where the overlap happened stays on screen,
    // paused, until the learner opens the next one: its badge still says what broke.
    assert.match(await stepResult(page, 2), /yet two holders overlapped: .*\b(A|B)\b/);
    await page.waitForSelector('[data-testid=open-step-world]');
    assert.equal(await isPlaying(page), false, 'the finished run waits, paused');
    assert.ok((await violatedInvariants(page)).length > 0, 'the overlap is still on screen');
    await shoot(app, 2, 'lesson14-overlap-1440');
    await page.click('[data-testid=open-step-world]');
    assert.match((await page.textContent('[data-testid=notice]')) ?? '', /Step 3 runs on a new world/);
    assert.deepEqual(await violatedInvariants(page), [], 'step 3 starts on a fresh world');

    await showMe(page, 3);
    assert.match(await stepResult(page, 3), /frozen holding token \d+ past its lease; it woke .* and the store refused it/);
    assert.deepEqual(await violatedInvariants(page), [], 'with fencing the late write breaks nothing');

    // Step 4 by hand: the lock service's leader crashes while the workers keep asking; one request for
    // the lock goes unanswered, times out, and is asked again elsewhere.
    await page.click('button[aria-label="Crash leader (K)"]');
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    await waitForStepState(page, 4, 'done', 60_000);
    assert.match(await stepResult(page, 4), /got no answer within \d+ ms/);
    await page.waitForSelector('[data-testid=lesson-complete]');
    await shoot(app, 3, 'lesson14-complete-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('lesson 14 step 1 by hand at 1920x1080: the panels and the narration speak etcd', async () => {
  const app = await openApp({ width: 1920, height: 1080, path: `/#/lesson/${LESSON}` });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-waiting]');
    const openedAt = await simTimeMs(page);
    // While the lesson waits, A holds the lock: the panel names its etcd key.
    const laneA = page.locator('[data-testid=lane-A]');
    assert.match((await laneA.textContent()) ?? '', /holds it with key \/lock\/jobs\/[0-9a-f]+, token \d+/);

    // The lock calls of the run so far travel under etcd's names: the space-time diagram's last 500 ms
    // hold the asks and a watch firing. It sits below the fold and follows the run only while seen, so
    // it is scrolled to first, as a learner would.
    await page.locator('[data-testid=spacetime]').scrollIntoViewIfNeeded();
    for (const kind of ['LeaseGrant + Txn', 'Watch: predecessor deleted']) {
      await waitUntil(async () => (await page.locator(`[data-testid=spacetime] [data-kind="${kind}"]`).count()) > 0, {
        timeout: 10_000,
        what: `a ${kind} arrow in the space-time diagram`,
      });
    }

    await ringNode(page, 'A').click();
    await page.waitForSelector(POPOVER);
    await page.click(`${POPOVER} button[aria-label="Pause 1 s, A"]`);
    // A learner's action in a waiting lesson may start the run itself; play only if it did not.
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await simTimeMs(page)) > openedAt, { timeout: 5_000, what: 'the run to go on' });
    const delay = page.locator(DELAY_LINE);
    await delay.waitFor({ timeout: 10_000 });
    // Words only, starting the line: no glyph a browser without an emoji font draws as a box.
    const delayText = (await delay.textContent()) ?? '';
    const [, shownUntil] = delayText.match(
      /^lock \/lock\/jobs held back until (\d+\.\d{3} s): the old session's holder may still be acting$/,
    ) ?? assert.fail(`the delay line: ${delayText}`);
    await app.screenshot('lesson14-delay-line-1920');

    // Seen what the step shows; the rest is waiting for simulated time, so it passes at top speed (at the
    // lesson's 0.1x it took more than 20 s of a loaded machine's wall time).
    await setSpeedPosition(page);
    await waitForStepState(page, 1, 'done', 60_000);
    assert.match(await stepResult(page, 1), /only then was B \(fencing token \d+\) granted it/);
    // The tick and the Workers panel state one fact, the delay's end, with one number.
    assert.ok((await stepResult(page, 1)).includes(`until ${shownUntil};`), `${await stepResult(page, 1)} vs the panel's ${shownUntil}`);
    await waitUntil(async () => (await delay.count()) === 0, { timeout: 5_000, what: 'the line to go when the delay ends' });

    await waitForLine(page, /asks for the lock: LeaseGrant, then a Txn that creates its key under \/lock\/jobs\//, 'an ask told in etcd calls');
    await waitForLine(page, /^A's lease [0-9a-f]+ \(fencing token \d+\) expired, so the service deletes its key \/lock\/jobs\/[0-9a-f]+, but lock-delay keeps \/lock\/jobs from everyone for 2 s/, 'the expiry told');
    await waitForLine(page, /^Lock-delay is over: the service may grant \/lock\/jobs again/, 'the delay ending told');
    await waitForLine(page, /grants the lock to B with fencing token \d+ \(the revision of this grant, its key's mod_revision\): its key \/lock\/jobs\/[0-9a-f]+ is now the oldest/, 'the grant told');
    await shoot(app, 1, 'lesson14-by-hand-1920');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('lesson 14 opens lock-delay on and off from its text: the same pause overlaps only without the delay', async () => {
  const app = await openApp({ width: 1440, height: 900, path: `/#/lesson/${LESSON}` });
  const { page } = app;
  const side = (name) => `[data-testid=compare-${name}]`;
  const violated = (name) =>
    page.$$eval(`${side(name)} [data-testid=checker-badges] li.badge.violated`, (badges) =>
      badges.map((badge) => badge.getAttribute('data-invariant')),
    );
  try {
    await page.waitForSelector('[data-testid=lesson-waiting]');
    const link = page
      .locator('[data-testid=lesson-panel] [data-testid=lesson-compare][data-scope=prose]', { hasText: /lock-delay on and off/ })
      .first();
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await page.waitForSelector('[data-testid=compare-stage]');
    assert.match((await page.textContent(`${side('right')} .compare-side-title`)) ?? '', /lock-delay off/);
    await setSpeedPosition(page);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    // A's 2.5 s pause begins at 0.95 s: without the delay B is granted the lock while A is frozen
    // mid-job, and A's late write lands on B's work.
    const broken = await waitUntil(async () => {
      const names = await violated('right');
      return names.length > 0 ? names : null;
    }, { timeout: 30_000, what: 'the side without lock-delay to break' });
    assert.ok(broken.some((name) => /mutual/i.test(name)), `Mutual Exclusion broke on the right (${broken})`);
    await waitUntil(async () => (await simTimeMs(page)) > 5_000, { timeout: 30_000, what: 'both runs to pass the delay' });
    assert.deepEqual(await violated('left'), [], 'with lock-delay the same pause overlaps nobody');
    assert.match((await page.textContent('[data-testid=compare-difference]')) ?? '', /right: /);
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('lesson14-compare-lock-delay-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
