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
  // The lesson machinery (checkpoints, driver, parser) comes with the course.
  { address: '#/lesson/leader-election/step/2', shown: '[data-testid=lesson-panel]' },
  // A link made by the first version: its reader is in the link readers' part.
  {
    address: '#/run/v1/B3YxIHJhZnQAAwew6gGWAawCMgUPAKCcAegHAgAD4NwqSgUAtZguZAoDkE6rri1cB4C-kgE8jtrl',
    shown: '[data-testid=notice]:has-text("Opened a shared run: v1 raft")',
  },
  // A coordination world's panels, from a gallery card's address.
  { address: '#/gallery/redis-unsafe-release', shown: '[data-testid=kv-servers]' },
  // Compare mode's stage and the compare link's reader.
  {
    address: '#/compare/v1/BnBpbm5lZAADAZBOlgGsAjIFDwAA6AcAAAAAAAAAU27pSg.BnBpbm5lZAADAZBOlgGsAjIFDwAA6AcAAAAAAAAAU27pSg',
    shown: '[data-testid=compare-stage]',
  },
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
        // The course too: a lesson address needs its files (fetched a few seconds after start).
        const courseKept = kept.filter((path) => path.endsWith('.md')).length >= 10;
        return courseKept && parts.every((part) => kept.some((path) => path.endsWith('/' + part))) ? kept : null;
      },
      { timeout: 30_000, interval: 250, what: `every part and the course kept: ${parts.join(', ')}` },
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

test('a part that cannot be fetched says so, the page keeps running, and Try again fetches it', async () => {
  const app = await openApp({ serviceWorkers: 'block' });
  const { page } = app;
  try {
    let refusing = true;
    await page.route(/\/split_gallery_sheet[\w-]*\.wasm$/, (route) => (refusing ? route.abort('internetdisconnected') : route.continue()));
    await page.click('[data-testid=gallery-button]');
    const missing = page.locator('[data-testid=lazy-missing]');
    await missing.waitFor({ timeout: 20_000 });
    assert.match(await missing.innerText(), /Could not load the scenario gallery/);
    // The rest of the page still runs: the clock moves and a fault still applies.
    const before = await page.locator('[data-testid=sim-time]').innerText();
    await waitUntil(async () => (await page.locator('[data-testid=sim-time]').innerText()) !== before, {
      timeout: 10_000, interval: 100, what: 'the clock moving while the part is missing',
    });
    refusing = false;
    await page.click('[data-testid=lazy-retry]');
    await page.waitForSelector('[data-testid=gallery]', { timeout: 20_000 });
    assert.equal(await missing.count(), 0, 'the message is gone once the part is in');
    assert.ok(!app.problems.some((problem) => /panicked|unreachable|RuntimeError/.test(problem)), `no panic: ${app.problems.join('; ')}`);
  } finally {
    await app.close();
  }
});

test('the panels beside the cluster arrive after it; if they cannot, the cluster runs and one Try again fills them all in', async () => {
  const app = await openApp({ serviceWorkers: 'block' });
  const { page } = app;
  try {
    let refusing = true;
    await page.route(/\/split_page_panels[\w-]*\.wasm$/, (route) => (refusing ? route.abort('internetdisconnected') : route.continue()));
    await page.goto('about:blank');
    await page.goto(app.url + '/');
    await page.waitForSelector('[data-testid=cluster-view] g[data-testid^="node-n"]', { timeout: 20_000 });
    // The schedule editor, the run's details and the side panels wait for the same part.
    await waitUntil(async () => (await page.locator('[data-testid=lazy-missing]').count()) === 3 || null, {
      timeout: 20_000, interval: 100, what: 'three places saying their part is missing',
    });
    assert.equal(await page.locator('[data-testid=settings-panel]').count(), 0, 'no settings while their part is missing');
    // The cluster still runs and takes a fault from the playback bar.
    await page.getByRole('button', { name: 'Crash leader' }).waitFor({ timeout: 20_000 });
    refusing = false;
    await page.locator('[data-testid=lazy-retry]').first().click();
    await page.waitForSelector('[data-testid=settings-panel]', { timeout: 20_000 });
    await page.waitForSelector('[data-testid=spacetime]', { timeout: 20_000 });
    await page.waitForSelector('[data-testid=schedule-toggle]', { timeout: 20_000 });
    assert.equal(await page.locator('[data-testid=lazy-missing]').count(), 0, 'every missing-part message is gone');
    assert.ok(!app.problems.some((problem) => /panicked|unreachable|RuntimeError/.test(problem)), `no panic: ${app.problems.join('; ')}`);
  } finally {
    await app.close();
  }
});

test('the picker\'s examples come with the scenario reader; without it the playground runs, and the picker and a gallery address say why', async () => {
  const app = await openApp({ serviceWorkers: 'block' });
  const { page } = app;
  try {
    const offered = () => page.$$eval('[data-testid=protocol-picker] option:not([disabled])', (options) => options.map((option) => option.value));
    assert.ok((await offered()).includes('fencing-pause.toml'), 'with the reader here, the picker lists the examples');
    let refusing = true;
    await page.route(/\/split_scenario_reader[\w-]*\.wasm$/, (route) => (refusing ? route.abort('internetdisconnected') : route.continue()));
    await page.goto('about:blank');
    await page.goto(app.url + '/');
    await page.waitForSelector('[data-testid=cluster-view] g[data-testid^="node-n"]', { timeout: 20_000 });
    await page.waitForSelector('[data-testid=picker-examples-missing]', { state: 'attached', timeout: 20_000 });
    assert.deepEqual(await offered(), ['raft'], 'only the playground is offered without the reader');
    const before = await page.locator('[data-testid=sim-time]').innerText();
    await waitUntil(async () => (await page.locator('[data-testid=sim-time]').innerText()) !== before, {
      timeout: 10_000, interval: 100, what: 'the playground running without the reader',
    });
    await page.goto(app.url + '/#/gallery/redis-unsafe-release');
    const notice = page.locator('[data-testid=notice]');
    await notice.filter({ hasText: 'could not be opened' }).waitFor({ timeout: 20_000 });
    assert.match(await notice.innerText(), /gallery address could not be opened: the code that reads scenario files could not be loaded/);
    assert.equal(await page.locator('[data-testid=kv-servers]').count(), 0, 'nothing else opened');
    refusing = false;
    await page.goto('about:blank');
    await page.goto(app.url + '/#/gallery/redis-unsafe-release');
    await page.waitForSelector('[data-testid=kv-servers]', { timeout: 20_000 });
    await page.waitForSelector('[data-testid=protocol-picker] option[value="fencing-pause.toml"]', { state: 'attached', timeout: 20_000 });
    assert.ok(!app.problems.some((problem) => /panicked|unreachable|RuntimeError/.test(problem)), `no panic: ${app.problems.join('; ')}`);
  } finally {
    await app.close();
  }
});
