// "What the clients saw" (issue 33, S9): the Raft world's client operations on lanes, under the
// linearizability verdict. A stale lease read is refused with the engine's sentence, its witness marked,
// and a click on the read seeks the run to the instant it began; a calm run says linearizable, and
// before any request the panel says there is nothing to judge yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, waitUntil } from './support/cluster.mjs';

const verdict = (page) => page.textContent('[data-testid=history-verdict]');
const rolesOf = (page, role) =>
  page.$$eval(`[data-testid=history-op][data-role=${role}]`, (bars) => bars.map((bar) => bar.textContent.trim()));

/** Plays through the visible play button at top speed until the clock passes `ms`, then pauses. */
async function playPast(page, ms) {
  await setSpeedPosition(page);
  await page.click('[data-testid=play-toggle]');
  await waitUntil(async () => (await simTimeMs(page)) > ms, { timeout: 60_000, what: `the run to pass ${ms} ms` });
  await page.click('[data-testid=play-toggle]');
  await waitUntil(async () => !(await isPlaying(page)), { timeout: 30_000, what: 'the run to pause' });
}

test('a stale lease read: not linearizable, the witness marked, a click goes to the read', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/gallery/stale-lease-read/demo' });
  const { page } = app;
  try {
    await waitUntil(async () => /stale lease read/i.test(await page.textContent('[data-testid=scenario-title]')), {
      timeout: 30_000,
      what: 'the example to open',
    });
    assert.equal(await page.locator('[data-testid=history-verdict]').count(), 0, 'the panel starts folded');
    await playPast(page, 2_200);
    // The way a learner finds it: from the red Linearizable Reads badge.
    await page.click('[data-invariant="Linearizable Reads"] [data-testid=badge-history-link]');
    await waitUntil(async () => /Not linearizable/.test((await verdict(page)) ?? ''), {
      timeout: 30_000,
      what: 'the verdict "Not linearizable"',
      detail: async () => verdict(page),
    });
    assert.equal(await page.getAttribute('[data-testid=history-toggle]', 'aria-expanded'), 'true');
    const inView = await page.$eval('[data-testid=history-view]', (panel) => panel.getBoundingClientRect().top < window.innerHeight);
    assert.ok(inView, 'the badge\'s link brings the panel into view');
    const words = await verdict(page);
    assert.match(words, /"get key 1 → 1" began after "put key 1 = 17" had returned, yet returned the older value/);
    assert.deepEqual(await rolesOf(page, 'stuck'), ['get k1 → 1']);
    assert.deepEqual((await rolesOf(page, 'witness')).sort(), ['put k1=1', 'put k1=17']);
    const plain = await page.locator('[data-testid=history-op][data-role=plain]').count();
    assert.equal(plain, 30, 'the other 30 operations are drawn, unmarked');
    await app.screenshot('history-refused');

    const stuck = page.locator('[data-testid=history-op][data-role=stuck]');
    const invokedUs = Number(await stuck.getAttribute('data-invoked-us'));
    assert.equal(invokedUs, 1_800_000);
    await stuck.click();
    await waitUntil(async () => (await simTimeMs(page)) === invokedUs / 1_000, {
      timeout: 30_000,
      what: 'the clock to move to the read\'s invocation',
      detail: async () => page.textContent('[data-testid=sim-time]'),
    });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a calm run: nothing to judge before any request, linearizable after', async () => {
  const app = await openApp({ width: 1280, height: 720, path: '/#/gallery/lease-reads/demo' });
  const { page } = app;
  try {
    await waitUntil(async () => /lease/i.test(await page.textContent('[data-testid=scenario-title]')), {
      timeout: 30_000,
      what: 'the example to open',
    });
    await page.click('[data-testid=history-toggle]');
    await waitUntil(async () => /No client operation to judge yet/.test((await verdict(page)) ?? ''), {
      timeout: 30_000,
      what: 'nothing to judge yet',
      detail: async () => verdict(page),
    });
    await playPast(page, 3_300);
    await waitUntil(async () => /^\s*✓\s*Linearizable: \d+ operations over \d+ keys fit one order/.test((await verdict(page)) ?? ''), {
      timeout: 30_000,
      what: 'the verdict "Linearizable"',
      detail: async () => verdict(page),
    });
    assert.equal(await page.locator('[data-testid=history-op][data-role=stuck]').count(), 0);
    assert.equal(await page.locator('[data-testid=history-op][data-role=witness]').count(), 0);
    assert.ok((await page.locator('[data-testid=history-op]').count()) > 0, 'operations are drawn');
    await app.screenshot('history-calm');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
