// "A candidate wins an election if it receives votes from a majority of the servers in the full cluster
// for the same term" (Raft §5.2), and "a log entry is committed once the leader that created the entry has
// replicated it on a majority of the servers" (Raft §5.3). Split five nodes 2|3 with the old leader on the
// small side: the two cannot commit anything, the three elect a leader of their own and commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import {
  assertNoProblems,
  chooseGroups,
  readLog,
  readNode,
  readRequests,
  sendWrite,
  setSpeedPosition,
  violatedInvariants,
  waitForLeader,
  waitUntil,
} from './support/cluster.mjs';

const NODES = ['n1', 'n2', 'n3', 'n4', 'n5'];

/** The newest request row sent to `target`, once it is no longer waiting. */
function settledRequestTo(page, target) {
  return waitUntil(
    async () => {
      const row = (await readRequests(page)).find((request) => request.what.endsWith(`→ ${target}`));
      return row && row.kind !== 'pending' ? row : null;
    },
    { what: `the write to ${target} to settle` },
  );
}

test('partition 2|3: the minority cannot commit, the majority elects and commits (Raft §5.2, §5.3)', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await setSpeedPosition(page);
    const oldLeader = await waitForLeader(page);
    const partner = NODES.find((id) => id !== oldLeader.id);
    const minority = [oldLeader.id, partner].sort();
    const majority = NODES.filter((id) => !minority.includes(id));

    await chooseGroups(page, { A: minority, B: majority });
    await page.click('[data-testid=apply-partition]');
    const badges = (await page.locator('[data-testid=quorum-badges] li').allTextContents()).sort();
    assert.deepEqual(badges, [
      `{${majority.join(', ')}}: 3/5 — can commit`,
      `{${minority.join(', ')}}: 2/5 — no quorum`,
    ].sort());

    const newLeader = await waitForLeader(page, { aboveTerm: oldLeader.term, among: majority });
    const stale = await readNode(page, oldLeader.id);
    assert.equal(stale.role, 'leader', 'the cut-off leader still believes it leads');
    assert.equal(stale.term, oldLeader.term, '…in its old term');
    const minorityCommits = {};
    for (const id of minority) minorityCommits[id] = (await readLog(page, id)).commit;
    const majorityCommitBefore = (await readLog(page, newLeader.id)).commit;

    await sendWrite(page, oldLeader.id);
    await sendWrite(page, partner);
    await sendWrite(page, newLeader.id);

    const toOldLeader = await settledRequestTo(page, oldLeader.id);
    assert.equal(toOldLeader.kind, 'unknown', `the stale leader accepts but cannot commit: ${toOldLeader.outcome}`);
    const toPartner = await settledRequestTo(page, partner);
    assert.equal(toPartner.kind, 'failed', `a minority follower turns the write away: ${toPartner.outcome}`);
    assert.match(toPartner.outcome, /^rejected: not the leader/);
    const toNewLeader = await settledRequestTo(page, newLeader.id);
    assert.equal(toNewLeader.kind, 'committed', `the majority commits: ${toNewLeader.outcome}`);

    for (const id of minority) {
      assert.equal((await readLog(page, id)).commit, minorityCommits[id], `${id}'s commit index stays put`);
    }
    assert.ok((await readLog(page, newLeader.id)).commit > majorityCommitBefore, 'the majority leader commits');
    assert.ok((await readLog(page, oldLeader.id)).len > minorityCommits[oldLeader.id], 'the stale leader appended it uncommitted');
    await app.screenshot('partition-1-minority-stuck-majority-commits', { fullPage: true });

    // Heal: the old leader hears the higher term and steps down (Raft §5.1).
    await page.click('button[aria-label="Heal all (H)"]');
    await waitUntil(
      async () => {
        const node = await readNode(page, oldLeader.id);
        return node.role === 'follower' && node.term >= newLeader.term ? node : null;
      },
      { what: `${oldLeader.id} to step down after healing` },
    );
    assert.equal(await page.locator('[data-testid=quorum-badges] li').count(), 0, 'no groups after healing');
    await app.screenshot('partition-2-healed');

    assert.deepEqual(await violatedInvariants(page), []);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
