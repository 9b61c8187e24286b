// A phone: 390×844 with a touch screen and no mouse. The layout fits the width (no sideways scrolling,
// every control on screen, the cluster's words large enough to read), and everything a mouse does by
// hovering has a tap: a message dot (its details on the stage, its arrow in the space-time diagram), an
// arrow, a timeline mark (its label written under the track), a node (its actions), the Export menu.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitUntil } from './support/cluster.mjs';

const WIDTH = 390;
const PHONE = { width: WIDTH, height: 844, page: { hasTouch: true, isMobile: true } };

/** Asserts `selector`'s element lies within the screen's width (it may be scrolled to vertically). */
async function assertWithinWidth(page, selector, what = selector) {
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${what} is shown`);
  assert.ok(box.x >= 0 && box.x + box.width <= WIDTH + 0.5, `${what} fits the width: ${JSON.stringify(box)}`);
}

test('at 390×844 the page fits the width, every control is on screen and the cluster stays readable', async () => {
  const app = await openApp(PHONE);
  const { page } = app;
  try {
    assert.equal(await page.evaluate(() => matchMedia('(hover: none)').matches), true, 'a screen without hover');
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= WIDTH, `no sideways scrolling (page is ${scrollWidth} px wide)`);
    const controls = await page.$$eval('header button, header select, main button, main select, main input', (elements) => elements
      .filter((element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden')
      .map((element) => {
        const box = element.getBoundingClientRect();
        return { name: element.getAttribute('aria-label') || element.textContent.trim().slice(0, 30) || element.tagName, left: box.left, right: box.right, width: box.width };
      }));
    assert.ok(controls.length > 30, `the controls are there: ${controls.length}`);
    const cut = controls.filter((control) => control.left < 0 || control.right > WIDTH + 0.5 || control.width < 1);
    assert.deepEqual(cut, [], 'no control is cut off at the edge');
    const cluster = await page.evaluate(() => {
      const svg = document.querySelector('[data-testid=cluster-view]');
      const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute('viewBox').split(' ')[2]);
      const size = (selector) => scale * parseFloat(getComputedStyle(svg.querySelector(selector)).fontSize);
      return { width: svg.getBoundingClientRect().width, name: size('.node-id'), caption: size('.node-caption') };
    });
    assert.ok(cluster.width > 300, `the cluster takes the width: ${cluster.width}`);
    assert.ok(cluster.name >= 11 && cluster.caption >= 9, `node names and captions readable on screen: ${JSON.stringify(cluster)}`);
    await app.screenshot('touch-390-top');
    await app.screenshot('touch-390-full', { fullPage: true });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('at 390×844 by touch: a message dot, an arrow, a timeline mark, a node and the Export menu each answer a tap', async () => {
  const app = await openApp(PHONE);
  const { page } = app;
  try {
    await page.locator('[data-testid=play-toggle]').tap();
    await waitUntil(async () => (await page.textContent('[data-testid=play-toggle]')).includes('Play'), { what: 'paused by a tap' });

    // Step until a message is in the air clear of the nodes, then tap its dot.
    const clearDot = () => page.evaluate(() => {
      for (const dot of document.querySelectorAll('[data-testid=cluster-view] g.message[data-message-id]:not(.dropped)')) {
        const box = dot.querySelector('circle:not(.message-hit)').getBoundingClientRect();
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
        if (document.elementFromPoint(x, y)?.closest('g.message') === dot) return { id: dot.dataset.messageId, x, y };
      }
      return null;
    });
    let flying = null;
    for (let step = 0; step < 120 && !(flying = await clearDot()); step += 1) await page.locator('[data-testid=step-forward]').tap();
    assert.ok(flying, 'a message is in flight between nodes');
    const { id } = flying;
    await page.touchscreen.tap(flying.x, flying.y);
    const detail = await waitUntil(async () => (await page.isVisible('[data-testid=message-detail]')) && page.textContent('[data-testid=message-detail]'), { what: 'the tapped message\'s details' });
    assert.match(detail, /→ .* · sent \d/, `the details name sender, receiver and times: ${detail}`);
    await assertWithinWidth(page, '[data-testid=message-detail]', 'the details');
    await app.screenshot('touch-390-message-tapped');
    // The diagram, far below on a phone, stops following the run while out of sight and catches up when
    // scrolled to: there the tapped message's arrow is picked out.
    await page.locator('[data-testid=spacetime]').scrollIntoViewIfNeeded();
    await waitUntil(async () => (await page.locator(`[data-testid=spacetime] g.st-arrow.hovered[data-message-id="${id}"]`).count()) === 1, { what: 'its arrow picked out in the space-time diagram, scrolled to' });
    assert.match(await page.textContent('.spacetime-caption'), /→/);
    await page.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
    const stage = await page.locator('[data-testid=cluster-view]').boundingBox();
    await page.touchscreen.tap(stage.x + 6, stage.y + 6);
    await waitUntil(async () => !(await page.isVisible('[data-testid=message-detail]')), { what: 'a tap elsewhere clears it' });

    // An arrow wholly in the past (inside the drawn window): tap the middle of its line.
    const pastArrow = async () => {
      await page.locator('[data-testid=spacetime]').scrollIntoViewIfNeeded();
      return page.evaluate(() => {
        // The drawn window: right of the lane names (78 px), left of the "now" line.
        const svg = document.querySelector('[data-testid=spacetime] svg.spacetime').getBoundingClientRect();
        const clip = { left: svg.left + 78, right: document.querySelector('[data-testid=spacetime] .st-now').getBoundingClientRect().left };
        for (const arrow of [...document.querySelectorAll('[data-testid=spacetime] g.st-arrow')].reverse()) {
          const line = arrow.querySelector('.st-hit').getBoundingClientRect();
          if (line.left > clip.left + 2 && line.right < clip.right - 2 && line.width + line.height > 10) {
            return { id: arrow.dataset.messageId, x: line.left + line.width / 2, y: line.top + line.height / 2 };
          }
        }
        return null;
      });
    };
    let target = null;
    for (let step = 0; step < 60 && !(target = await pastArrow()); step += 1) await page.locator('[data-testid=step-forward]').tap();
    assert.ok(target, 'an arrow to tap');
    await page.touchscreen.tap(target.x, target.y);
    const caption = await waitUntil(async () => {
      const text = await page.textContent('.spacetime-caption');
      return text.includes('→') && text;
    }, { what: 'the tapped arrow described' });
    assert.match(caption, / · sent \d/, caption);
    assert.ok((await page.locator('[data-testid=spacetime] g.st-arrow.hovered').count()) >= 1, 'the tapped arrow is picked out');
    await app.screenshot('touch-390-arrow-tapped');

    // A timeline mark: a tap seeks there and writes its label, which a mouse would see on hover.
    await page.locator('button', { hasText: 'Crash leader' }).tap();
    const mark = page.locator('[data-testid=timeline] .mark-fault').first();
    await mark.scrollIntoViewIfNeeded();
    await mark.tap();
    const label = await waitUntil(async () => (await page.isVisible('[data-testid=mark-chosen]')) && page.textContent('[data-testid=mark-chosen]'), { what: 'the mark\'s label' });
    assert.match(label, /crash/i, label);
    await assertWithinWidth(page, '[data-testid=mark-chosen]', 'the mark\'s label');
    await app.screenshot('touch-390-mark-tapped');
    await mark.tap();
    await waitUntil(async () => !(await page.isVisible('[data-testid=mark-chosen]')), { what: 'a second tap hides the label' });

    // A node: its actions open beside it, on screen.
    await page.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
    await page.locator('[data-testid=cluster-view] g[data-testid=node-n1]').tap();
    await page.waitForSelector('[data-testid=node-popover]');
    await assertWithinWidth(page, '[data-testid=node-popover]', 'the node\'s actions');
    await app.screenshot('touch-390-node-popover');
    await page.keyboard.press('Escape');

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('[data-testid=export-button]').tap();
    await page.waitForSelector('[data-testid=export-choices]');
    await assertWithinWidth(page, '[data-testid=export-choices]', 'the Export menu');
    await app.screenshot('touch-390-export-menu');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=export-cluster-png]').tap()]);
    assert.match(download.suggestedFilename(), /^quorumlab-raft-playground-cluster-\d+ms\.png$/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
