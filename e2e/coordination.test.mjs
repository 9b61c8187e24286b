// Coordination worlds in the app, chosen from the protocol picker.
//
// The fencing argument (Kleppmann, "How to do distributed locking", 2016): a lock service alone cannot
// stop a holder that was paused past its lease, because the holder does not know it lost the lock. The
// store can: every grant carries a token that only grows, and a store that refuses any token lower than
// the highest it has seen turns the paused holder's late write into a refusal instead of a lost update.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, violatedInvariants, waitUntil } from './support/cluster.mjs';

async function pick(page, example, { fast = true } = {}) {
  await page.selectOption('[data-testid=protocol-picker]', example);
  if (fast) await setSpeedPosition(page);
}

async function ledgerRows(page) {
  return page.$$eval('[data-testid=resource-ledger] li.ledger-row', (rows) =>
    rows.map((row) => ({ rejected: row.classList.contains('rejected'), text: row.textContent })),
  );
}

test('with fencing, the paused holder\'s stale write is rejected at the store and every invariant holds', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await pick(page, 'fencing-pause.toml', { fast: false });
    assert.match(await page.textContent('[data-testid=scenario-title]'), /Fencing/);
    // The ring names the actors: workers A and B, the resource store.
    for (const name of ['A', 'B', 'store']) {
      assert.equal(await page.locator('[data-testid=cluster-view] text.node-id', { hasText: new RegExp(`^${name}$`) }).count(), 1);
    }
    // At 1x: A freezes at 0.95 s holding the lock; frozen, it cannot notice its lease running out.
    const paused = await waitUntil(
      async () => {
        const text = await page.locator('[data-testid=lane-A]').textContent();
        return /paused — still believes it holds lock, token \d+/.test(text) ? text : null;
      },
      { timeout: 15_000, what: 'lane A to show the paused holder\'s belief' },
    );
    assert.match(paused, /on its clock/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('coordination-fencing-paused');
    await setSpeedPosition(page);
    const rejected = await waitUntil(
      async () => (await ledgerRows(page)).find((row) => row.rejected),
      { timeout: 20_000, what: 'a rejected access in the resource ledger' },
    );
    const [, presented, highest] = /stale: (\d+) < (\d+)/.exec(rejected.text) ?? [];
    assert.ok(presented && Number(presented) < Number(highest), `the refusal names both tokens: ${rejected.text}`);
    assert.match(rejected.text, /^.?A /, 'the paused holder A is the one refused');
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('coordination-fencing');
    assert.equal(await page.locator('[data-testid=worker-lanes] li.lane').count(), 2);
    const badges = await page.$$eval('[data-testid=checker-badges] li.badge', (items) => items.map((item) => item.getAttribute('data-invariant')));
    for (const name of ['Mutual Exclusion', 'Token Monotonicity', 'No Lost Updates', 'Election Safety']) {
      assert.ok(badges.includes(name), `${name} is shown for the lock service`);
    }
    assert.deepEqual(await violatedInvariants(page), [], 'fencing keeps every invariant green');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('without fencing, the same pause turns red: the store accepted a stale write', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await pick(page, 'no-fencing-pause.toml');
    const violated = await waitUntil(
      async () => {
        const names = await violatedInvariants(page);
        return names.includes('Mutual Exclusion') ? names : null;
      },
      { timeout: 20_000, what: 'a red Mutual Exclusion badge' },
    );
    assert.ok(violated.includes('No Lost Updates'), `lost update reported: ${violated}`);
    assert.equal((await ledgerRows(page)).filter((row) => row.rejected).length, 0, 'nothing is refused without fencing');
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('coordination-no-fencing');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('Redlock after a clock jump: a banner shows two clients both believing they hold the lock', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await pick(page, 'redlock-clock-jump.toml');
    const badges = await page.$$eval('[data-testid=checker-badges] li.badge', (items) => items.map((item) => item.getAttribute('data-invariant')));
    assert.ok(!badges.includes('Election Safety'), 'Redis-style servers run no Raft, so no Raft badges');
    // The banner shows only while both clients believe it, and the run plays on: read it in the same
    // instant it is seen (a second lookup once missed it on a loaded machine).
    const banner = await (await page.waitForFunction(
      () => document.querySelector('[data-testid=double-holder-banner]')?.textContent ?? null,
      null,
      { timeout: 20_000 },
    )).jsonValue();
    assert.match(banner, /[A-Z] and [A-Z] both believe/);
    // Five servers, each listed with its own clock; n3's jumped clock runs four seconds ahead.
    assert.equal(await page.locator('[data-testid=kv-servers] li').count(), 5);
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('coordination-redlock');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

// ZooKeeper's recipe advice, in our words: if every candidate watches the leader znode, each change
// wakes them all (the herd); if each watches only the candidate just before it (ephemeral-sequential
// znodes), a change wakes one. Same crashes in both files: A, then the next leader.
for (const [example, notifications] of [['zk-herd.toml', 7], ['zk-sequential.toml', 2]]) {
  test(`ZooKeeper ${example}: ${notifications} watch notifications after two leader crashes`, async () => {
    const app = await openApp();
    const { page } = app;
    try {
      await pick(page, example);
      await page.locator('[data-testid=znode-tree]').waitFor();
      await waitUntil(
        async () => (await page.textContent('[data-testid=notification-count]')).startsWith(`${notifications} watch notifications`),
        { timeout: 20_000, what: `${notifications} notifications` },
      );
      // The run goes on past the crashes; the count must not grow.
      await page.waitForTimeout(500);
      assert.match(await page.textContent('[data-testid=notification-count]'), new RegExp(`^${notifications} watch`));
      assert.ok((await page.locator('[data-testid=znode-tree] ul.znodes li').count()) >= 1, 'the live znodes are listed');
      await page.evaluate(() => window.scrollTo(0, 0));
      await app.screenshot(`coordination-${example.replace('.toml', '')}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
