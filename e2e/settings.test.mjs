// Run settings: a bad value is refused with a message naming the field and changes nothing; a good one
// starts a fresh run (here the largest cluster, 51 nodes, drawn in its compact form); "New seed" starts
// another run with a different seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, readNodes, setSpeedPosition, waitForLeader } from './support/cluster.mjs';

test('settings: bad values are refused, 51 nodes start a fresh run that elects a leader, new seed', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    const nodes = page.locator('[data-testid=setting-nodes]');
    await nodes.fill('52');
    await page.click('[data-testid=apply-settings]');
    assert.match(await page.textContent('[data-testid=settings-error]'), /cluster size/);
    assert.equal((await readNodes(page)).length, 5, 'a refused setting changes nothing');

    await nodes.fill('5');
    await page.locator('[data-testid=setting-election-min]').fill('400');
    await page.locator('[data-testid=setting-election-max]').fill('300');
    await page.click('[data-testid=apply-settings]');
    assert.match(await page.textContent('[data-testid=settings-error]'), /election timeout: min 400 ms is above max 300 ms/);
    await page.locator('[data-testid=setting-election-min]').fill('150');

    await nodes.fill('51');
    await page.click('[data-testid=apply-settings]');
    assert.equal(await page.locator('[data-testid=settings-error]').count(), 0, 'the error clears');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=cluster-view] g[data-testid^="node-n"]').length === 51,
    );
    assert.equal(await page.locator('[data-testid=cluster-view] .node-caption').count(), 0, 'compact faces, no captions');
    await setSpeedPosition(page);
    const leader = await waitForLeader(page);
    assert.ok(leader.term >= 1);
    assert.equal((await page.locator('[data-testid=partition-panel] .chips button').count()), 51, 'a chip per node');
    await app.screenshot('settings-1-fifty-one-nodes', { fullPage: true });

    const title = await page.textContent('[data-testid=scenario-title]');
    await page.click('[data-testid=new-seed]');
    const notice = await page.textContent('[data-testid=notice]');
    assert.match(notice, /new seed/i);
    const newTitle = await page.textContent('[data-testid=scenario-title]');
    assert.notEqual(newTitle, title, 'the seed in the title changed');
    assert.equal((await readNodes(page)).length, 51, 'the cluster size is kept');

    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
