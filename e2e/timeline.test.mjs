// Time travel: scrub back to before a crash and the picture is the old one exactly; scrub forward and the
// recorded future replays to the same state; act in the past and the old future is replaced, and kept as a
// branch the learner can bring back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import {
  assertNoProblems,
  currentLeader,
  readNode,
  readNodes,
  setSpeedPosition,
  simTimeMs,
  waitForLeader,
  waitUntil,
} from './support/cluster.mjs';

async function scrubTo(page, ms) {
  await page.locator('[data-testid=scrubber]').fill(String(ms * 1_000));
  await page.evaluate(() => document.activeElement?.blur());
  await waitUntil(async () => (await simTimeMs(page)) === ms, { timeout: 2_000, what: `the clock to read ${ms} ms after scrubbing` });
}

const marks = (page, kind) => page.locator(`[data-testid=timeline] .mark-${kind}`).count();

test('timeline: scrub back before a crash, forward to the same future, and branch from the past', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await setSpeedPosition(page);
    const first = await waitForLeader(page);
    // Read the clock once paused: while playing, the clock text refreshes ten times a second.
    await page.click('[data-testid=play-toggle]');
    const crashAtMs = (await simTimeMs(page)) + 1;
    await page.click('button[aria-label="Crash leader (K)"]');
    await page.click('[data-testid=play-toggle]');
    const second = await waitForLeader(page, { aboveTerm: first.term });
    const electedBy = await simTimeMs(page);
    await waitUntil(async () => (await simTimeMs(page)) > electedBy + 600, { what: 'the new leader to settle in' });
    await page.click('[data-testid=play-toggle]');
    const endMs = Math.floor((await simTimeMs(page)) / 250) * 250;
    await scrubTo(page, endMs);
    const endNodes = await readNodes(page);
    assert.equal(currentLeader(endNodes).id, second.id);
    assert.equal(await marks(page, 'fault'), 1, 'one fault mark');
    assert.ok((await marks(page, 'leader')) >= 2, 'a mark per elected leader');

    // Back to before the crash: the first leader is up and leading again.
    await scrubTo(page, crashAtMs - 5);
    const before = await readNode(page, first.id);
    assert.equal(before.status, 'up');
    assert.equal(before.role, 'leader');
    assert.equal(await page.textContent('[data-testid=leader-chip]'), `leader: ${first.id}`);
    await app.screenshot('timeline-1-before-the-crash');

    // Forward again: the same crash, the same successor, the same picture.
    await scrubTo(page, endMs);
    assert.deepEqual(await readNodes(page), endNodes, 'the replayed future draws exactly as before');
    assert.equal(currentLeader(await readNodes(page)).id, second.id);

    // Act in the past: the recorded crash (and everything after it) is discarded.
    await scrubTo(page, crashAtMs - 5);
    await page.click('button[aria-label="Write to leader (W)"]');
    assert.equal(await marks(page, 'fault'), 1, 'the write is the one action left');
    const now = (await page.textContent('[data-testid=sim-time]')).trim();
    assert.match(await page.textContent('[data-testid=timeline]'), new RegExp(`recorded up to ${now}`), 'no future left');
    assert.match(await page.textContent('[data-testid=replaced-future]'), /in the past: the run recorded up to .* was replaced/, 'and the page says so');
    await app.screenshot('timeline-2-new-branch');

    // The old future is a branch to go back to: the crash and its successor return, exactly.
    await page.click('[data-testid=restore-future]');
    assert.equal(await page.locator('[data-testid=replaced-future]').count(), 0);
    assert.equal(await simTimeMs(page), crashAtMs - 5, 'back where the learner acted');
    assert.equal(await marks(page, 'fault'), 1, 'the old crash is recorded again');
    await scrubTo(page, endMs);
    assert.deepEqual(await readNodes(page), endNodes, 'the old future, exactly');
    await page.click('[data-testid=play-toggle]');
    await page.waitForTimeout(300);

    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

// Regression test (fixed in c8bfe63): the marks were recomputed when an action was recorded, not when a
// leader was elected, so a new leader's mark appeared only at the next user action.
test('timeline: a newly elected leader gets its mark without waiting for another action', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await setSpeedPosition(page);
    const first = await waitForLeader(page);
    await page.click('button[aria-label="Crash leader (K)"]');
    const second = await waitForLeader(page, { aboveTerm: first.term });
    await page.waitForFunction(
      (label) => [...document.querySelectorAll('[data-testid=timeline] .mark-leader')].some((mark) => mark.textContent.includes(label)),
      `${second.id} leads term ${second.term}`,
      { timeout: 3_000 },
    );
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

// Regression test (fixed in 4d72470): the horizon was the last snapshot or action, not the furthest time
// reached, so after scrubbing back the scrubber could not return to where playback stopped.
test('timeline: after scrubbing back, the scrubber reaches the moment playback stopped', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await setSpeedPosition(page);
    await waitUntil(async () => (await simTimeMs(page)) % 250 > 50 && (await simTimeMs(page)) > 1_000, { what: 'a time between snapshots' });
    await page.click('[data-testid=play-toggle]');
    const stoppedAt = await simTimeMs(page);
    await scrubTo(page, 500);
    await scrubTo(page, stoppedAt);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
