// Embed (issue 35, part B): the header's Embed action gives an iframe snippet for the run at the moment on
// screen. Pasted into another page at 960 x 540 (a 16:9 slide), it shows the cluster as the largest thing,
// without the header or side panels; in the default "play and scrub only" mode (a kiosk) a viewer can play,
// step and scrub, but no key, click or button changes the world.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitForLeader, waitUntil } from './support/cluster.mjs';

/** The snippet's iframe address, read back from its HTML the way a browser would. */
function addressOf(snippet) {
  const match = /^<iframe src="([^"]+)" width="960" height="540" /.exec(snippet);
  assert.ok(match, `one iframe at slide size: ${snippet}`);
  return match[1].replaceAll('&amp;', '&');
}

const frameNodes = (frame) =>
  frame.locator('[data-testid=cluster-view] g[data-testid^="node-n"]').evaluateAll((nodes) =>
    nodes.map((node) => `${node.getAttribute('data-testid')}:${/\bstatus-([a-z]+)/.exec(node.getAttribute('class'))?.[1]}`),
  );

test('an embedded run at 960 x 540: cluster first, the viewer can play and scrub but not change the world', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  try {
    const { page } = app;
    await waitForLeader(page);
    await page.click('[data-testid=embed-button]');
    const snippet = await page.inputValue('[data-testid=embed-snippet]');
    assert.match(snippet, /controls=locked/, 'play and scrub only, unless asked otherwise');
    assert.match(snippet, /theme=light/, 'light for slides, unless asked otherwise');
    await page.selectOption('[data-testid=embed-theme]', 'dark');
    const dark = await page.inputValue('[data-testid=embed-snippet]');
    assert.match(dark, /theme=dark/, 'the snippet follows the choices');
    const shownMs = Number((await page.textContent('[data-testid=sim-time]')).replace(/[^0-9.]/g, ''));
    await app.screenshot('embed-1-panel');

    // The host page: nothing but the pasted snippet.
    const address = addressOf(snippet);
    await page.setViewportSize({ width: 1000, height: 600 });
    await page.setContent(`<!doctype html><title>slide</title><body style="margin:0">${snippet}</body>`);
    const frameElement = await page.waitForSelector('iframe');
    const frame = await frameElement.contentFrame();
    await frame.waitForSelector('[data-testid=app-root].embedded', { timeout: 20_000 });

    const sizes = await frame.evaluate(() => {
      const box = (selector) => {
        const element = document.querySelector(selector);
        const rect = element?.getBoundingClientRect();
        return rect && element.offsetParent !== null ? { top: rect.top, bottom: rect.bottom, area: rect.width * rect.height } : null;
      };
      return {
        width: innerWidth,
        height: innerHeight,
        cluster: box('[data-testid=cluster-view]'),
        playback: box('.playback'),
        header: box('.app-header'),
        sides: box('.side-column'),
        quickFaults: box('.quick-faults'),
      };
    });
    assert.deepEqual([sizes.width, sizes.height], [960, 540]);
    assert.equal(sizes.header, null, 'no header in an embed');
    assert.equal(sizes.sides, null, 'no side panels in an embed');
    assert.equal(sizes.quickFaults, null, 'no quick faults in a kiosk');
    assert.ok(sizes.cluster.area > 0.4 * 960 * 540, `the cluster is the largest thing (${Math.round(sizes.cluster.area)} px²)`);
    assert.ok(sizes.playback.bottom <= 540.5 && sizes.cluster.top >= 0, 'cluster and play bar inside the frame');
    await app.screenshot('embed-2-in-a-slide');

    // It opened paused at the shared moment; the viewer plays it from the frame's own play button.
    const frameTime = async () => Number((await frame.textContent('[data-testid=sim-time]')).replace(/[^0-9.]/g, ''));
    assert.equal(await frameTime(), shownMs, 'at the moment it was embedded from');
    const before = await frameNodes(frame);
    await frame.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await frameTime()) > shownMs + 50, { what: 'the embedded run to play' });
    // No key changes the world: K (crash the leader), digits with Enter (a node's actions), W, R.
    await frame.click('[data-testid=cluster-view]', { position: { x: 5, y: 5 } });
    for (const key of ['k', 'p', 'i', 'w', '2', 'Enter']) await page.keyboard.press(key);
    await frame.click('[data-testid=node-n1]');
    assert.equal(await frame.locator('[data-testid=node-popover]').count(), 0, 'a node offers no actions');
    await frame.click('[data-testid=play-toggle]');
    const after = await frameNodes(frame);
    assert.deepEqual(after, before, 'every node is as it was: nothing crashed, paused or isolated');
    assert.ok(after.every((node) => node.endsWith(':up')), `all nodes up: ${after}`);
    // Scrubbing back works.
    await frame.locator('[data-testid=timeline] input[type=range]').fill('0');
    await waitUntil(async () => (await frameTime()) === 0, { what: 'the scrub back to the start' });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a bad embed option is refused by name inside the frame, and an unlocked embed keeps its actions', async () => {
  const app = await openApp({ width: 960, height: 540 });
  try {
    const { page } = app;
    await page.click('[data-testid=embed-button]');
    await page.selectOption('[data-testid=embed-controls]', 'full');
    const full = addressOf(await page.inputValue('[data-testid=embed-snippet]'));
    assert.match(full, /controls=full/);

    await page.goto(full.replace('controls=full', 'controls=everything'));
    await page.waitForSelector('[data-testid=app-root]');
    const notice = page.locator('[data-testid=notice].error');
    await notice.waitFor({ timeout: 10_000 });
    assert.match(await notice.textContent(), /controls must be `full`, `locked` or `hidden`, not `everything`/);
    assert.equal(await page.locator('[data-testid=app-root].embedded').count(), 0, 'nothing of the link was applied');

    await page.goto('about:blank');
    await page.goto(full);
    await page.waitForSelector('[data-testid=app-root].embedded');
    await page.click('[data-testid=node-n2]');
    await page.waitForSelector('[data-testid=node-popover]');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
