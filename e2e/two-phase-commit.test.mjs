// The two-phase-commit world in the app (issue 31's proof that a world lives in one folder): its
// gallery card opens it, its card shows each participant in doubt after the coordinator crashes and
// committed after it restarts, each node's caption says the same, and Atomicity holds throughout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';

const CARD = '[data-testid=two-phase-commit-panel]';

test('two-phase commit from the gallery: blocked in doubt, unblocked by the restart', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await page.click('[data-testid=gallery-button]');
    const card = page.locator('[data-testid=gallery-item][data-gallery-id="two-phase-commit/coordinator-crash"]');
    assert.match(await card.textContent(), /in doubt/);
    await card.locator('[data-testid=gallery-open]').click();
    await waitUntil(async () => (await page.locator('[data-testid=gallery]').count()) === 0, { what: 'the gallery to close' });
    assert.match(await page.textContent('[data-testid=scenario-title]'), /Two-phase commit/);
    assert.equal(await isPlaying(page), true, '"Open" plays the card (its Demo button opens it paused)');
    await setSpeedPosition(page, '500');
    const inDoubt = async () => ((await page.textContent(CARD)) ?? '').match(/in doubt/g)?.length ?? 0;
    await waitUntil(async () => (await inDoubt()) === 3, { timeout: 45_000, what: 'A, B and C to be in doubt' });
    assert.match(await page.textContent(CARD), /coordinator/);
    assert.match(await page.textContent('[data-testid=cluster-view]'), /in doubt/);
    await app.screenshot('two-phase-commit-in-doubt-1440');
    await waitUntil(async () => (await simTimeMs(page)) > 1_800, { timeout: 60_000, what: 'the run to pass the restart' });
    await waitUntil(async () => ((await page.textContent(CARD)).match(/committed/g)?.length ?? 0) === 3, {
      timeout: 30_000,
      what: 'every participant to commit after the restart',
    });
    assert.equal(await inDoubt(), 0);
    assert.deepEqual(await violatedInvariants(page), []);
    await app.screenshot('two-phase-commit-committed-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
