// A stop-the-world pause longer than the election timeout. The paused leader does not know it was
// paused: "If a leader or candidate discovers that its term is out of date, it immediately reverts to
// follower state" (Raft §5.1) — but only once it hears the newer term, which takes one delivered message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import {
  assertNoProblems,
  isPlaying,
  readNode,
  setSpeedPosition,
  violatedInvariants,
  waitForLeader,
  waitUntil,
} from './support/cluster.mjs';

/** Steps (→ key) one event at a time until `done(node)` holds for `id`; returns the steps taken. */
async function stepUntil(page, id, done, limit = 50) {
  for (let steps = 1; steps <= limit; steps += 1) {
    await page.keyboard.press('ArrowRight');
    if (done(await readNode(page, id))) return steps;
  }
  throw new Error(`${id} did not reach the expected state within ${limit} steps`);
}

test('a paused leader still believes it leads its old term, and steps down once it hears the new one (Raft §5.1)', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await setSpeedPosition(page);
    const old = await waitForLeader(page);
    await page.click('button[aria-label="Pause leader (P)"]');
    const paused = await readNode(page, old.id);
    assert.equal(paused.status, 'paused');
    assert.equal(paused.role, 'leader', 'a pause is invisible to the paused node');

    // Beyond the election timeout: the others elect a new leader in a higher term.
    const successor = await waitForLeader(page, { aboveTerm: old.term });
    assert.notEqual(successor.id, old.id);
    const frozen = await waitUntil(
      async () => {
        const node = await readNode(page, old.id);
        return /[1-9]\d* inputs waiting, paused/.test(node.label) ? node : null;
      },
      { what: `messages queued at the paused ${old.id}` },
    );
    assert.equal(frozen.status, 'paused');
    assert.equal(frozen.role, 'leader', 'still drawn as leader while paused');
    assert.equal(frozen.term, old.term, 'still in its old term');
    assert.ok(await page.isVisible(`[data-testid=node-${old.id}] .pause-mark`), 'pause glyph shown');
    await app.screenshot('pause-1-paused-leader-and-successor');

    // Freeze playback, resume the node from the inspector, and watch event by event.
    await page.click('[data-testid=play-toggle]');
    assert.equal(await isPlaying(page), false);
    await page.click(`[data-testid=node-${old.id}]`);
    await page.click('[data-testid=inspector] button:text-is("Resume")');
    const resumed = await readNode(page, old.id);
    assert.equal(resumed.status, 'up');
    assert.equal(resumed.role, 'leader', 'right after resume it still believes it leads…');
    assert.equal(resumed.term, old.term, '…the old term');
    await app.screenshot('pause-2-resumed-still-believes');

    const steps = await stepUntil(page, old.id, (node) => node.role === 'follower');
    const after = await readNode(page, old.id);
    assert.ok(after.term >= successor.term, `it adopted the newer term (${after.term} ≥ ${successor.term})`);
    assert.equal(await isPlaying(page), false, 'stepping leaves playback paused');
    assert.match(await page.textContent('[data-testid=inspector] .inspector-title'), new RegExp(`${old.id} — up`));
    await app.screenshot('pause-3-stepped-down', { fullPage: true });
    console.log(`${old.id} stepped down ${steps} event(s) after resuming`);

    assert.deepEqual(await violatedInvariants(page), []);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
