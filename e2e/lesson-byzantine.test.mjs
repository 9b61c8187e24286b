// Lesson 12, "When nodes lie", in the browser: it is listed and opens paused; step 1 is done by hand from
// n3's popover (its tick calls the liar's leadership a forged claim, as the ring shows it: a follower,
// its "lies" label on screen, clear of the caption and the tick's banner), the later Byzantine steps are
// walked by "show me", and the two steps that only need writes are done by hand with the client box's
// Write button (Raft's price per write leaves its heartbeats out, so PBFT's reads dearer), at both
// screen sizes the course is checked at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, sendWrite, setSpeedPosition, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';
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

const POPOVER = '[data-testid=node-popover]';

/** Makes `node` lie from its popover, as a learner does. */
async function makeLiar(page, node) {
  await page.click(`[data-testid=node-${node}]`);
  await page.waitForSelector(POPOVER);
  const button = page.locator(`${POPOVER} button[aria-label^="Lie, make ${node} Byzantine"]`);
  assert.equal(await button.count(), 1, `the popover offers Lie on ${node}`);
  await button.click();
  await page.keyboard.press('Escape');
}

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** "6.2" in "..., 6.2 per request (...", as a number. */
const perRequest = (text) => Number(/(\d+\.\d) per request \(/.exec(text)?.[1] ?? NaN);

/** The liar's words are on the stage, not under the caption band or the tick's banner. */
async function assertLiarWordsInView(page, node) {
  const words = await page.locator(`[data-testid=liar-${node}]`).boundingBox();
  const stage = await page.locator('[data-testid=cluster-view]').boundingBox();
  assert.ok(words && stage, 'the liar label and the stage are drawn');
  assert.ok(words.y >= stage.y && words.y + words.height <= stage.y + stage.height, `the label inside the stage: ${JSON.stringify({ words, stage })}`);
  for (const cover of ['[data-testid=narration-caption]', '[data-testid=lesson-toast]']) {
    const box = await page.locator(cover).boundingBox();
    if (box) assert.ok(!overlap(words, box), `${cover} covers the liar label: ${JSON.stringify({ words, box })}`);
  }
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

      // Step 1 by hand: n3's popover, Lie. Acting may start the waiting run; play only if it did not.
      await makeLiar(page, 'n3');
      if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
      await waitForStepState(page, 1, 'done', 30_000);
      const claim = await stepResult(page, 1);
      assert.match(claim, /n3 forged a claim to lead term \d+, which n\d won: n3 won no election and is still a follower/);
      assert.doesNotMatch(claim, /elected/);
      await waitForViolation(page, 'Election Safety');
      // The ring says the same: n3 a follower with its lie in words, the real leader starred.
      assert.match((await page.getAttribute('[data-testid=node-n3]', 'aria-label')) ?? '', /^n3 follower · term \d+, lies: forges/);
      await assertLiarWordsInView(page, 'n3');
      await app.screenshot(`lesson12-forged-claim-${width}`);

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
      // Heartbeats and their answers are named apart, not shared out among the writes: a write costs
      // an AppendEntries and an answer per follower, far less than a PBFT request.
      assert.match(raftCost, /besides, \d+ heartbeats and answers to them/);
      assert.ok(perRequest(raftCost) < 10, raftCost);
      assert.ok(perRequest(cost) > 2 * perRequest(raftCost), `PBFT ${cost} vs Raft ${raftCost}`);
      await page.waitForSelector('[data-testid=lesson-complete]');
      await shoot(app, 6, `lesson12-complete-${width}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
