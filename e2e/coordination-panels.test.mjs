// Coordination worlds speak their own language in every panel: partition chips carry the actors' names
// (A, B, store), the client panel says what drives the load, the ring shows who watches whom in the
// ZooKeeper recipe and each lock client's lease as a ring, and the work queue puts its two
// configurations side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, waitUntil } from './support/cluster.mjs';

async function pick(page, example, { fast = true } = {}) {
  await page.selectOption('[data-testid=protocol-picker]', example);
  if (fast) await setSpeedPosition(page);
}

async function chipTexts(page) {
  return (await page.locator('[data-testid=partition-chips] button').allTextContents()).map((text) => text.trim());
}

test('Redlock: chips name servers, clients and the store; no client box, and the verdict counts servers', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await pick(page, 'redlock-clock-jump.toml', { fast: false });
    const chips = await chipTexts(page);
    const names = chips.map((text) => text.split(' · ')[0]);
    assert.deepEqual(names.slice(0, 5), ['n1', 'n2', 'n3', 'n4', 'n5']);
    assert.ok(names.includes('A') && names.includes('B') && names.includes('store'), `named chips: ${names}`);
    assert.ok(!names.some((name) => /^n([6-9]|\d\d)$/.test(name)), `no server numbers past n5: ${names}`);
    assert.ok(chips.every((text) => / · group [ABC]$/.test(text)), `chips say "group": ${chips}`);
    // No leader to send to: the panel explains who makes the load instead of offering a menu.
    assert.equal(await page.locator('[data-testid=client-panel] select').count(), 0);
    assert.match(await page.textContent('[data-testid=client-load-note]'), /A, B make the load/);
    // Nor are there leader-aimed quick faults: the bar says why instead.
    assert.equal(await page.locator('button[aria-label="Crash leader (K)"]').count(), 0);
    assert.match(await page.textContent('[data-testid=no-leader-note]'), /elect no leader/);
    await page.click('[data-testid=apply-partition]');
    const badges = await page.locator('[data-testid=quorum-badges] li').allTextContents();
    assert.equal(badges.length, 2);
    assert.ok(badges.some((badge) => /\{n1, n2, A\}: 2\/5 servers — no server majority/.test(badge)), `badges: ${badges}`);
    assert.ok(badges.some((badge) => /3\/5 servers — can gather a majority/.test(badge)), `badges: ${badges}`);
    await page.locator('[data-testid=partition-panel]').scrollIntoViewIfNeeded();
    await app.screenshot('coordination-panels-redlock');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('Lock service: extra writes go to the service leader or a server; each worker wears a lease ring', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await pick(page, 'fencing-pause.toml', { fast: false });
    assert.equal(await page.locator('button[aria-label="Crash leader (K)"]').count(), 1, 'the service has a leader to crash');
    const options = await page.locator('[data-testid=request-target] option').allTextContents();
    assert.deepEqual(options, ['the service leader', 'n1', 'n2', 'n3']);
    assert.match(await page.textContent('[data-testid=client-load-note]'), /workers A, B make the load/);
    // The ring counts down on A's own clock: some lease time shows while A holds the lock.
    const label = await waitUntil(
      async () => {
        const text = await page.getAttribute('[data-testid=lease-ring-A]', 'aria-label');
        const own = Number(/(\d+)% left on its own clock/.exec(text ?? '')?.[1] ?? 0);
        return own > 0 ? text : null;
      },
      { timeout: 15_000, what: 'A to hold a lease' },
    );
    assert.match(label, /^A's lease: \d+% left on its own clock, \d+% on the service's$/);
    assert.equal(await page.locator('[data-testid=lease-ring-B] circle.lease-arc').count(), 2, 'two arcs: own clock and service');
    // The arcs are drawn by their dash length: a stylesheet dash pattern would draw a full ring instead.
    const dashes = await page.$$eval('[data-testid=lease-ring-A] circle.lease-arc', (arcs) =>
      arcs.map((arc) => ({ computed: getComputedStyle(arc).strokeDasharray, drawn: arc.getAttribute('stroke-dasharray') })),
    );
    for (const { computed, drawn } of dashes) assert.equal(parseFloat(computed), Number(drawn), `dash ${computed} is the arc's ${drawn}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('coordination-lease-ring');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

// The herd watches one znode, so every arrow ends at the same candidate; the sequential recipe makes a
// chain, so the arrows end at different candidates.
for (const [example, sameTarget] of [['zk-herd.toml', true], ['zk-sequential.toml', false]]) {
  test(`ZooKeeper ${example}: watch arrows on the ring`, async () => {
    const app = await openApp();
    const { page } = app;
    try {
      await pick(page, example, { fast: false });
      const arrows = await waitUntil(
        async () => {
          const found = await page.$$eval('[data-testid=watch-arrow]', (paths) =>
            paths.map((path) => ({ watcher: path.dataset.watcher, owner: path.dataset.owner })),
          );
          return found.length >= 2 ? found : null;
        },
        { timeout: 15_000, what: 'two or more watch arrows' },
      );
      const owners = new Set(arrows.map((arrow) => arrow.owner));
      assert.equal(owners.size === 1, sameTarget, `owners: ${JSON.stringify(arrows)}`);
      const captions = await page.$$eval('[data-testid=cluster-view] text.node-caption', (texts) => texts.map((text) => text.textContent.trim()));
      assert.equal(captions.filter((caption) => caption === 'candidate').length, 5, `the lettered actors are candidates: ${captions}`);
      assert.ok(arrows.every((arrow) => /^[A-Z]$/.test(arrow.watcher) && /^[A-Z]$/.test(arrow.owner)));
      assert.ok(arrows.every((arrow) => arrow.watcher !== arrow.owner));
      await page.evaluate(() => window.scrollTo(0, 0));
      await app.screenshot(`coordination-watches-${example.replace('.toml', '')}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('Work queue: partitioned and global-lock numbers side by side, correctness holding in both', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await pick(page, 'queue-global-lock.toml');
    const panel = page.locator('[data-testid=queue-compare]');
    await panel.waitFor();
    const cells = async (testid) =>
      (await page.locator(`[data-testid=${testid}] td`).allTextContents()).map((text) => text.trim());
    const [partitioned, global] = (await cells('queue-jobs-per-second')).map(Number);
    assert.ok(partitioned > 2 * global && global > 0, `jobs/s ${partitioned} vs ${global}`);
    const [partitionedLocks, globalLocks] = (await cells('queue-lock-requests')).map(Number);
    assert.equal(partitionedLocks, 0, 'no lock requests without a lock');
    assert.ok(globalLocks > 0);
    assert.deepEqual(await cells('queue-correctness'), ['holds ✓', 'holds ✓']);
    assert.match(await page.textContent('.queue-compare th.this-run'), /one global lock \(this run\)/);
    assert.match(await page.textContent('[data-testid=queue-speedup]'), /\d+\.\d× as fast/);
    await waitUntil(async () => /so far: [1-9]\d* jobs/.test(await page.textContent('[data-testid=queue-live]')), {
      what: 'this run to finish some jobs',
    });
    await panel.scrollIntoViewIfNeeded();
    await app.screenshot('coordination-queue-compare');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
