// The first HTML paints at once: the app's header and a loading state that counts the wasm's bytes, which
// the app replaces without moving the header; a load that fails says why in words instead of a blank page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdir, stat } from 'node:fs/promises';
import { launchChromium, REPO_ROOT } from './support/browser.mjs';
import { serveDist } from './support/server.mjs';
import { waitUntil } from './support/cluster.mjs';

/** A page on the built app whose wasm requests go through `route` (to hold them back or refuse them). */
async function openRouted(route, { width = 1440, height = 900, init } = {}) {
  const server = await serveDist(process.env.QUORUMLAB_DIST ?? join(REPO_ROOT, 'dist'));
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width, height }, serviceWorkers: 'block' });
  if (init) await page.addInitScript(init);
  await page.route(/_bg\.wasm$/, route);
  return {
    page,
    url: server.url + '/',
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

const headerBox = (page, selector) => page.locator(selector).boundingBox();

for (const [width, height] of [[1440, 900], [1280, 720], [1920, 1080]]) {
  test(`at ${width}×${height} the header and a loading state paint before the wasm, and the app replaces them in place`, async () => {
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const opened = await openRouted(async (route) => {
      await held;
      await route.continue();
    }, { width, height });
    const { page } = opened;
    try {
      await page.goto(opened.url);
      await page.waitForSelector('[data-testid=boot]');
      assert.equal(await page.locator('[data-testid=app-root]').count(), 0, 'the app has not started yet');
      assert.match(await page.textContent('#boot-title'), /Loading the simulator/);
      assert.ok(await page.locator('#boot .brand').isVisible(), 'the name is painted while loading');
      const paints = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length);
      assert.equal(paints, 1, 'a first contentful paint happened before the wasm arrived');
      const before = await headerBox(page, '#boot .app-header');

      release();
      await page.waitForSelector('[data-testid=app-root]');
      await waitUntil(async () => (await page.locator('[data-testid=boot]').count()) === 0, { what: 'the loading state to go' });
      const after = await headerBox(page, '[data-testid=app-root] .app-header');
      assert.equal(after.y, before.y, 'the header stays where it was');
      assert.ok(Math.abs(after.height - before.height) <= 1, `the header keeps its height (${before.height} → ${after.height})`);
    } finally {
      release();
      await opened.close();
    }
  });
}

test('the loading state counts the bytes of the wasm as they arrive', async () => {
  // The page's own wasm (the experiments' worker has a `_bg.wasm` of its own beside it).
  const wasmName = (await readdir(join(REPO_ROOT, 'dist'))).find((name) => name.startsWith('quorumlab-app-') && name.endsWith('_bg.wasm'));
  const wasmBytes = (await stat(join(REPO_ROOT, 'dist', wasmName))).size;
  const opened = await openRouted((route) => route.continue(), {
    // Every count the loading state shows, kept where the test can read it after the state is gone.
    init: () => {
      window.__counts = [];
      new MutationObserver(() => {
        const bar = document.getElementById('boot-progress');
        const detail = document.getElementById('boot-detail');
        if (bar && bar.max > 1) window.__counts.push({ value: bar.value, max: bar.max, text: detail?.textContent });
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    },
  });
  const { page } = opened;
  try {
    await page.goto(opened.url);
    await page.waitForSelector('[data-testid=app-root]');
    const counts = await page.evaluate(() => window.__counts);
    assert.ok(counts.length > 0, 'the loading state showed a count');
    const last = counts.at(-1);
    assert.equal(last.max, wasmBytes, 'the bar counts towards the size of the wasm');
    assert.equal(last.value, wasmBytes, 'the count reaches the whole file');
    const megabytes = (wasmBytes / 1_000_000).toFixed(1);
    assert.equal(last.text, `${megabytes} of ${megabytes} MB of the simulator received.`);
  } finally {
    await opened.close();
  }
});

test('a wasm that does not arrive is said in words, not left as a blank page', async () => {
  const opened = await openRouted((route) => route.fulfill({ status: 404, body: 'not found' }));
  const { page } = opened;
  try {
    await page.goto(opened.url);
    await waitUntil(async () => /could not/.test((await page.textContent('#boot-title')) ?? ''), {
      timeout: 20_000,
      what: 'the loading state to say the load failed',
    });
    assert.ok(await page.locator('#boot-detail').isVisible());
    assert.equal(await page.locator('#boot-progress').isVisible(), false, 'no progress bar on a failed load');
    assert.equal(await page.locator('[data-testid=app-root]').count(), 0);
  } finally {
    await opened.close();
  }
});

test('a browser without WebAssembly is told so', async () => {
  const opened = await openRouted((route) => route.continue(), {
    init: () => {
      delete globalThis.WebAssembly;
    },
  });
  const { page } = opened;
  try {
    await page.goto(opened.url);
    await waitUntil(async () => /cannot run Quorum Lab/.test((await page.textContent('#boot-title')) ?? ''), {
      timeout: 20_000,
      what: 'the loading state to say the browser cannot run the app',
    });
    assert.match(await page.textContent('#boot-detail'), /WebAssembly/);
  } finally {
    await opened.close();
  }
});
