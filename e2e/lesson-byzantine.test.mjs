// Lesson 12, "When nodes lie", in the browser: it is listed and opens paused; the Byzantine steps are
// walked by "show me" (the node menu's Byzantine fault is another change's), and the two steps that only
// need writes are done by hand with the client box's Write button, at both screen sizes the course is
// checked at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, sendWrite, setSpeedPosition, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';
import { openStepWorld, showMe, step, stepResult, stepState, waitForStepState } from './support/lesson-steps.mjs';

const LESSON = 'byzantine';

async function openFromList(page) {
  await page.click('[data-testid=lessons-button]');
  await page.waitForSelector('[data-testid=lesson-list] [data-testid=lesson-item]');
  const listed = await page.$$eval('[data-testid=lesson-item]', (items) => items.map((item) => item.getAttribute('data-lesson-id')));
  assert.ok(listed.includes(LESSON), `lesson 12 is listed: ${listed}`);
  await page.locator(`[data-testid=lesson-item][data-lesson-id="${LESSON}"] [data-testid=open-lesson]`).click();
  await page.waitForSelector(`[data-testid=lesson-panel][data-lesson-id="${LESSON}"]`);
}

/** Writes through the client box until `number` ticks (a write sent mid-election may be refused). */
async function writeUntilDone(page, number, { pauseMs = 150, most = 40 } = {}) {
  for (let sent = 0; sent < most; sent += 1) {
    if ((await stepState(page, number)) === 'done') return;
    await sendWrite(page, 'leader');
    await page.waitForTimeout(pauseMs);
  }
  await waitForStepState(page, number, 'done', 20_000);
}

/** The badges follow the run a frame behind the step: wait for `invariant` to show as violated. */
async function waitForViolation(page, invariant) {
  await waitUntil(async () => (await violatedInvariants(page)).includes(invariant), {
    timeout: 10_000,
    what: `${invariant} to show as violated`,
  });
}

async function shoot(app, number, name) {
  await step(app.page, number).scrollIntoViewIfNeeded();
  await app.screenshot(name);
}

for (const [width, height] of [
  [1440, 900],
  [1920, 1080],
]) {
  test(`lesson 12 at ${width}x${height}: a liar breaks Raft, PBFT holds with 3f + 1, breaks with a quorum too small, and costs more per request`, async () => {
    const app = await openApp({ width, height });
    const { page } = app;
    try {
      await openFromList(page);
      assert.equal(new URL(page.url()).hash, `#/lesson/${LESSON}`);
      assert.equal(await stepState(page, 1), 'open');
      assert.equal(await stepState(page, 2), 'locked');
      // The lesson waits, paused at its start, while the learner reads.
      await page.waitForSelector('[data-testid=lesson-waiting]');
      const openedAtMs = await simTimeMs(page);
      await page.waitForTimeout(600);
      assert.equal(await simTimeMs(page), openedAtMs, 'the run does not move while the lesson waits');
      await app.screenshot(`lesson12-opened-${width}`);
      await setSpeedPosition(page);

      await showMe(page, 1);
      assert.match(await stepResult(page, 1), /n\d and n3 were both elected leader of term \d+/);
      await waitForViolation(page, 'Election Safety');

      // Step 2 by hand: one write through the client box.
      assert.equal(await stepState(page, 2), 'open');
      await writeUntilDone(page, 2);
      assert.match(await stepResult(page, 2), /honest servers committed different commands at one index/);
      // Step 3 has a world of its own; the broken Raft run stays on screen, paused, until it is opened
      // (here by step 3's "show me").
      await page.waitForSelector('[data-testid=open-step-world]');
      assert.ok((await violatedInvariants(page)).includes('Election Safety'), 'what broke is still on screen');
      await shoot(app, 2, `lesson12-raft-split-${width}`);

      await showMe(page, 3);
      const cost = await stepResult(page, 3);
      assert.match(cost, /10 requests committed while a node lied/);
      assert.match(cost, /\d+\.\d per request \(per request: .*Prepare .*Commit/);
      assert.match(cost, /honest replicas agree at every sequence number/);
      assert.deepEqual(await violatedInvariants(page), [], 'a fresh PBFT world, and the lying backup breaks nothing');
      await shoot(app, 3, `lesson12-pbft-liar-${width}`);

      await showMe(page, 4);
      assert.match(await stepResult(page, 4), /moved to view \d+, whose primary is n\d/);

      await showMe(page, 5);
      assert.match(await stepResult(page, 5), /n\d commits \w+ at sequence \d+, but n\d committed \w+ there/);
      await shoot(app, 5, `lesson12-pbft-split-${width}`);

      // Step 6 by hand: ten writes, one at a time, on a fresh Raft cluster, opened from the lesson panel.
      assert.equal(await stepState(page, 6), 'open');
      await openStepWorld(page, 6);
      await writeUntilDone(page, 6, { pauseMs: 200 });
      const raftCost = await stepResult(page, 6);
      assert.match(raftCost, /\d+ requests committed since this step began; the cluster sent \d+ messages/);
      assert.match(raftCost, /Heartbeat/);
      await page.waitForSelector('[data-testid=lesson-complete]');
      await shoot(app, 6, `lesson12-complete-${width}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
