// The app shell loads from the release build and mounts without a single console error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';

test('the app mounts: title, empty cluster area, no console errors', async () => {
  const app = await openApp();
  try {
    await app.page.waitForSelector('[data-testid=app-root]', { timeout: 20_000 });
    assert.equal(await app.page.title(), 'Quorum Lab');
    assert.equal(await app.page.textContent('.brand'), 'Quorum Lab');
    assert.ok(await app.page.isVisible('[data-testid=cluster-view]'), 'cluster area is visible');
    await app.screenshot('shell');
    assert.deepEqual(app.problems, []);
  } finally {
    await app.close();
  }
});
