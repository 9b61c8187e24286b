// Opening a class demo from the gallery (issue 35, items 5, 6 and 7): "Open" plays and "Demo" opens
// paused on every card; a demo opens at the top of the page (header, cluster and play bar in view) and
// presenter mode keeps it there; and nothing on the page still says "paused, press play" once it plays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, simTimeMs, waitUntil } from './support/cluster.mjs';

const title = (page) => page.textContent('[data-testid=scenario-title]');
const scrollY = (page) => page.evaluate(() => window.scrollY);
const top = (page, selector) => page.evaluate((css) => document.querySelector(css)?.getBoundingClientRect().top, selector);

test('every card: Open plays, Demo opens paused', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await page.click('[data-testid=gallery-button]');
    // The gallery is a part of the app loaded on first use: its cards come once that part has arrived.
    await page.waitForSelector('[data-testid=gallery-item]', { timeout: 60_000 });
    const ids = await page.locator('[data-testid=gallery-item]').evaluateAll((cards) => cards.map((card) => card.dataset.galleryId));
    await page.keyboard.press('Escape');
    assert.ok(ids.length >= 5, `the gallery lists its cards (${ids.length})`);
    for (const id of ids.slice(0, 6)) {
      for (const demo of [false, true]) {
        await page.click('[data-testid=gallery-button]');
        await page.click(`[data-testid=gallery-item][data-gallery-id="${id}"] [data-testid=${demo ? 'gallery-demo' : 'gallery-open'}]`);
        await waitUntil(async () => (await page.locator('[data-testid=gallery]').count()) === 0, { what: `${id} to open` });
        assert.equal(await isPlaying(page), !demo, `${id}: ${demo ? 'Demo opens paused' : 'Open plays'}`);
      }
    }
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

for (const { width, height } of [{ width: 1440, height: 900 }, { width: 1920, height: 1080 }, { width: 1280, height: 720 }]) {
  test(`a demo link opens at the top of the page at ${width}×${height}, in presenter mode too`, async () => {
    const app = await openApp({ width, height, path: '/#/gallery/leader-crash/demo' });
    const { page } = app;
    try {
      await waitUntil(async () => (await title(page)).includes('Leader crash'), { what: 'leader-crash to open' });
      await page.waitForSelector('[data-testid=schedule-lane]');
      // The lane is drawn a frame or two after opening: give any scroll the time to happen.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      assert.equal(await scrollY(page), 0, 'the page is not scrolled');
      assert.ok((await top(page, '[data-testid=cluster-view]')) >= 0, 'the cluster\'s top is on screen');
      assert.match(await page.textContent('[data-testid=notice]'), /paused.*press Play or Space to start/, 'the notice says how to start');
      assert.match(await page.textContent('[data-testid=narration-caption]'), /Press play/);
      await app.screenshot(`gallery-demo-top-${width}`);

      await page.keyboard.press('f');
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      assert.equal(await scrollY(page), 0, 'presenter mode starts at the top too');
      assert.ok((await top(page, '[data-testid=cluster-view]')) >= 0, 'with the cluster\'s top on screen');
      await app.screenshot(`gallery-demo-top-${width}-presenter`);

      // Playing: the paused notice goes, and the empty caption no longer says "Press play".
      await page.keyboard.press(' ');
      assert.equal(await isPlaying(page), true);
      await waitUntil(async () => (await page.locator('[data-testid=notice]').count()) === 0, {
        what: 'the "paused, press Space" notice to go once the run plays',
      });
      await waitUntil(async () => !/Press play/.test(await page.textContent('[data-testid=narration-caption]')), {
        what: 'the caption to stop saying "Press play" while playing',
      });
      await waitUntil(async () => (await simTimeMs(page)) > 0, { what: 'the clock to run' });
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
