// dist/ works unchanged from a sub-folder of a static host (README, Deploy): served only under
// /courses/ql/, with every other path a 404, the playground, a lesson, a share link and an offline reload
// all work, and no request reaches for the origin's root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition, waitForLeader, waitUntil } from './support/cluster.mjs';

const PREFIX = '/courses/ql/';

test('served from a sub-folder: playground, lesson, share link and offline reload', async () => {
  const app = await openApp({ prefix: PREFIX });
  const { page } = app;
  const outside = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!request.url().startsWith('data:') && !path.startsWith(PREFIX)) outside.push(path);
  });
  try {
    // The playground runs (it plays as it opens): a leader is elected and drawn.
    await setSpeedPosition(page);
    await waitForLeader(page, { timeout: 30_000 });

    // A lesson is fetched from lessons/ beside the page, not from the origin's root.
    await page.click('[data-testid=lessons-button]');
    await page.locator('[data-testid=lesson-item][data-lesson-id=leader-election] [data-testid=open-lesson]').click();
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id=leader-election]');

    // A share link keeps the folder in its address and opens there.
    await page.click('[data-testid=share-button]');
    const link = await waitUntil(async () => (/#\/run\/v4\/.+/.test(page.url()) ? page.url() : null), { what: 'the share link' });
    assert.ok(new URL(link).pathname.startsWith(PREFIX), `the link stays in the folder: ${link}`);
    await page.goto('about:blank');
    await page.goto(link);
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id=leader-election]');
    assert.match(await page.textContent('[data-testid=notice]'), /Opened a shared run/);

    // The service worker's scope is the folder, and it keeps what an offline reload needs.
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 20_000 });
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    assert.equal(new URL(scope).pathname, PREFIX);
    await waitUntil(
      () =>
        page.evaluate(async () => {
          const keys = await (await caches.open('quorumlab-v1')).keys();
          const paths = keys.map((request) => new URL(request.url).pathname);
          return paths.some((path) => path.endsWith('_bg.wasm')) && paths.filter((path) => path.endsWith('.md')).length >= 10;
        }),
      { timeout: 30_000, interval: 250, what: 'the wasm and the lessons to be kept for offline use' },
    );
    const manifest = await page.evaluate(async () => (await fetch('manifest.webmanifest')).json());
    for (const icon of manifest.icons) {
      assert.equal(await page.evaluate(async (src) => (await fetch(src)).status, icon.src), 200, `icon ${icon.src}`);
    }

    await page.context().setOffline(true);
    await page.reload();
    await page.waitForSelector('[data-testid=app-root]');
    await page.click('[data-testid=lessons-button]');
    await page.locator('[data-testid=lesson-item][data-lesson-id=fencing-tokens] [data-testid=open-lesson]').click();
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id=fencing-tokens]');

    assert.deepEqual(outside, [], 'no request left the folder the app is served from');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
