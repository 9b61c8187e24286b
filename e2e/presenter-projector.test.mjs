// Presenter mode on a projector (issue 35, items 4 and 8): at 1920 x 1080 and at 1280 x 720 scaled 1.5x
// (853 x 480 CSS px, a common classroom setup) the cluster, the caption, the clock, the leader and the play
// bar are all on screen at once, none under another; the header keeps the title on one line; at 1920 no
// words are smaller than 20 px; and a node is acted on from the keyboard alone (its digit, Enter).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, readNodes, waitForLeader, waitUntil } from './support/cluster.mjs';

const PROJECTORS = [
  { name: '1920x1080', width: 1920, height: 1080, scale: 1 },
  { name: '1280x720-at-1.5', width: 853, height: 480, scale: 1.5 },
];

/** The boxes of what a room must see, in CSS px. */
const boxes = (page) =>
  page.evaluate(() => {
    const box = (selector) => {
      const rect = document.querySelector(selector)?.getBoundingClientRect();
      return rect && { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right, height: rect.height };
    };
    return {
      header: box('.app-header'),
      brand: box('.brand'),
      cluster: box('[data-testid=cluster-view]'),
      caption: box('.narration-caption'),
      playback: box('.playback'),
      clock: box('[data-testid=sim-time]'),
      leader: box('[data-testid=leader-chip]'),
      play: box('[data-testid=play-toggle]'),
    };
  });

/** Visible words outside the drawing that are smaller than `minimum_px`, as "size: text". */
const smallWords = (page, minimumPx) =>
  page.evaluate((minimumPx) => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const text = walker.currentNode;
      const element = text.parentElement;
      if (!text.textContent.trim() || element.closest('svg')) continue;
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.bottom <= 0 || rect.top >= innerHeight) continue;
      const size = parseFloat(getComputedStyle(element).fontSize);
      if (size < minimumPx) found.push(`${size}px: ${text.textContent.trim().slice(0, 30)}`);
    }
    return found;
  }, minimumPx);

for (const projector of PROJECTORS) {
  test(`presenter mode at ${projector.name}: cluster, caption, clock, leader and play bar all on screen; a node acted on by keyboard`, async () => {
    const app = await openApp({ width: projector.width, height: projector.height, page: { deviceScaleFactor: projector.scale } });
    try {
      const { page } = app;
      await page.keyboard.press('f');
      await waitUntil(async () => /\bpresenter\b/.test(await page.getAttribute('[data-testid=app-root]', 'class')), { what: 'presenter mode' });
      await waitForLeader(page);
      const seen = await boxes(page);
      const onScreen = (name) => {
        const box = seen[name];
        assert.ok(box && box.height > 0, `${name} is drawn`);
        assert.ok(box.top >= 0 && box.bottom <= projector.height + 0.5, `${name} is on screen: ${box.top}–${box.bottom} of ${projector.height}`);
      };
      for (const name of ['brand', 'cluster', 'caption', 'playback', 'clock', 'leader', 'play']) onScreen(name);
      assert.ok(seen.caption.bottom <= seen.playback.top + 0.5, `the play bar does not cover the caption (${seen.caption.bottom} vs ${seen.playback.top})`);
      assert.ok(seen.header.height < 70, `the header is one line (${seen.header.height} px tall)`);
      assert.ok(seen.cluster.height >= 170, `the cluster keeps a useful size (${seen.cluster.height} px)`);
      assert.equal(await page.locator('[data-testid=schedule-lane]').count(), 0, 'the schedule editor is not shown unasked');
      if (projector.width >= 1920) {
        assert.deepEqual(await smallWords(page, 20), [], 'no words under 20 px at 1920 wide');
      }
      await app.screenshot(`presenter-projector-${projector.name}`);

      // The third node, then Enter: its actions open beside it with the first one focused; Enter crashes it.
      await page.keyboard.press('3');
      await page.keyboard.press('Enter');
      await waitUntil(async () => (await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) === 'Crash n3', {
        what: 'the actions of n3 to open with Crash focused',
      });
      await page.keyboard.press('Enter');
      await waitUntil(async () => (await readNodes(page)).find((node) => node.id === 'n3')?.status === 'crashed', { what: 'n3 to crash' });
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('outside presenter mode the header stays on one line at 1280 x 720 once the run has a fingerprint', async () => {
  const app = await openApp({ width: 1280, height: 720, path: '/#/lesson/distributed-locks' });
  try {
    const { page } = app;
    await waitUntil(async () => /^[0-9a-f]{16}$/.test((await page.textContent('[data-testid=trace-hash]')) ?? ''), {
      what: 'the run fingerprint to show',
    });
    const height = await page.evaluate(() => document.querySelector('.app-header').getBoundingClientRect().height);
    assert.ok(height < 60, `one line (${height} px)`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
