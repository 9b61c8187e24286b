// After one visit the app works with the network gone (public/sw.js): reload offline, open a lesson, make
// a share link and open it. The manifest and icons that make it installable are served from the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitUntil } from './support/cluster.mjs';

/** Paths the service worker's cache holds. */
const cachedPaths = (page) =>
  page.evaluate(async () => {
    const keys = await (await caches.open('quorumlab-v1')).keys();
    return keys.map((request) => new URL(request.url).pathname);
  });

test('after one visit the app reloads offline, opens a lesson, and makes and opens a share link', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 15_000 });
    // The course is fetched a few seconds after start when a service worker keeps it.
    const paths = await waitUntil(
      async () => {
        const paths = await cachedPaths(page);
        return paths.filter((path) => path.endsWith('.md')).length >= 10 ? paths : null;
      },
      { timeout: 20_000, interval: 250, what: 'the lesson files to be kept' },
    );
    assert.ok(paths.some((path) => path.endsWith('_bg.wasm')), `the wasm is kept: ${paths}`);
    const manifest = await page.evaluate(async () => (await fetch('/manifest.webmanifest')).json());
    assert.equal(manifest.name, 'Quorum Lab');
    for (const icon of manifest.icons) {
      assert.equal(await page.evaluate(async (src) => (await fetch(src)).status, icon.src), 200, icon.src);
    }

    await page.context().setOffline(true);
    await page.reload();
    await page.waitForSelector('[data-testid=app-root]');
    await page.click('[data-testid=lessons-button]');
    await page.locator('[data-testid=lesson-item][data-lesson-id=leader-election] [data-testid=open-lesson]').click();
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id=leader-election]');
    await page.click('[data-testid=share-button]');
    await page.waitForFunction(() => location.hash.length > 20);
    const link = await page.evaluate(() => location.href);
    await page.goto('about:blank');
    await page.goto(link);
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id=leader-election]');
    assert.match(await page.textContent('[data-testid=notice]'), /Opened a shared run/);
    // Offline, the page's own failed requests (none are expected) would show up as console errors.
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
