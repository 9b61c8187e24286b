// The parts of the app that arrive on first use (src/lazy_part.rs, scripts/build/split-app.mjs): an
// address that opens straight into one shows a loading state, then the part; a second opening needs no
// fetch; and after one visit every part is in the service worker's cache, so each opens offline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitUntil } from './support/cluster.mjs';

/** Each part reachable by an address, and what shows once it has arrived. */
const ADDRESSED_PARTS = [
  { address: '#/gallery', shown: '[data-testid=gallery]' },
  { address: '#/experiment/messages-per-commit', shown: '[data-testid=experiment]' },
  { address: '#/verify', shown: '[data-testid=verify-sheet]' },
  { address: '#/deck/gallery', shown: '[data-testid=deck-title]' },
];

const partRequest = (url) => /\/split_[\w-]+\.wasm$/.test(new URL(url).pathname);

/** The parts index.html lists for the service worker. */
const listedParts = (page) =>
  page.evaluate(() => document.querySelector('meta[name=quorumlab-parts]')?.content.split(' ').filter(Boolean) ?? []);

test('an address opening straight into a part shows a loading state, then the part; reopening fetches nothing', async () => {
  const app = await openApp({ serviceWorkers: 'block' });
  const { page } = app;
  try {
    assert.ok((await listedParts(page)).length >= 4, 'the build lists its parts');
    // Held back a little, so the loading state is there to be seen.
    await page.route(partRequest, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    for (const { address, shown } of ADDRESSED_PARTS) {
      await page.goto('about:blank');
      await page.goto(app.url + '/' + address);
      await page.waitForSelector('[data-testid=lazy-loading]', { timeout: 10_000 });
      await page.waitForSelector(shown, { timeout: 20_000 });
      assert.equal(await page.locator('[data-testid=lazy-loading]').count(), 0, `${address}: the loading state is gone`);
    }
    // In one page: the gallery opened, closed and opened again fetches its part once.
    let fetched = 0;
    page.on('request', (request) => { if (partRequest(request.url())) fetched += 1; });
    await page.goto('about:blank');
    await page.goto(app.url + '/#/gallery');
    await page.waitForSelector('[data-testid=gallery]');
    await page.click('[data-testid=gallery-close]');
    await page.waitForSelector('[data-testid=gallery]', { state: 'detached' });
    const afterFirst = fetched;
    await page.click('[data-testid=gallery-button]');
    await page.waitForSelector('[data-testid=gallery]');
    assert.ok(afterFirst >= 1, 'the first opening fetched the part');
    assert.equal(fetched, afterFirst, 'the second opening fetched nothing');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('after one visit every part is kept and opens offline', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 15_000 });
    const parts = (await listedParts(page)).map((part) => part.replace(/^\.\//, ''));
    await waitUntil(
      async () => {
        const kept = await page.evaluate(async () => {
          const keys = await (await caches.open('quorumlab-v1')).keys();
          return keys.map((request) => new URL(request.url).pathname);
        });
        return parts.every((part) => kept.some((path) => path.endsWith('/' + part))) ? kept : null;
      },
      { timeout: 20_000, interval: 250, what: `every part kept: ${parts.join(', ')}` },
    );
    await page.context().setOffline(true);
    for (const { address, shown } of ADDRESSED_PARTS) {
      await page.goto('about:blank');
      await page.goto(app.url + '/' + address);
      await page.waitForSelector(shown, { timeout: 20_000 });
    }
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
