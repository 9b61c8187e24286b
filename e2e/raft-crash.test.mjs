// "If followers receive no communication over a period of time called the election timeout, then they
// assume there is no viable leader and begin an election to choose a new leader." — Raft §5.2
// Crash the leader from the quick-fault bar: the survivors elect a new leader in a higher term.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import {
  assertNoProblems,
  readNode,
  setSpeedPosition,
  violatedInvariants,
  waitForLeader,
} from './support/cluster.mjs';

test('crashing the leader: a new leader with a higher term appears (Raft §5.2)', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await setSpeedPosition(page);
    const first = await waitForLeader(page);
    assert.match(await page.textContent('[data-testid=leader-chip]'), new RegExp(`leader: ${first.id}\\b`));
    await app.screenshot('crash-1-leader-elected');

    await page.click('button[aria-label="Crash leader (K)"]');
    const crashed = await readNode(page, first.id);
    assert.equal(crashed.status, 'crashed', `${first.id} is drawn as crashed`);
    assert.match(crashed.label, /crashed/);
    await app.screenshot('crash-2-leader-crashed');

    const second = await waitForLeader(page, { aboveTerm: first.term });
    assert.notEqual(second.id, first.id, 'the crashed node does not lead');
    assert.ok(second.term > first.term, `new term ${second.term} > old term ${first.term}`);
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid=leader-chip]')?.textContent === `leader: ${id}`,
      second.id,
    );
    assert.equal((await readNode(page, first.id)).status, 'crashed', 'the old leader stays down');
    await app.screenshot('crash-3-new-leader', { fullPage: true });

    assert.deepEqual(await violatedInvariants(page), [], 'every invariant still holds');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
