// Actions on the node (issue 11): a click, a tap or Enter on a node opens its actions beside it, so a
// lesson never sends the learner scrolling to the Inspector to break a node. The popover applies its
// actions through the same path as every other control (the timeline marks them), stays on screen and
// off the node, and is driven wholly from the keyboard. Also here: the labels that issue made honest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, readNode, waitForLeader, waitUntil } from './support/cluster.mjs';

const POPOVER = '[data-testid=node-popover]';

/** The popover's box, the node's drawn body and the viewport, all in page pixels. */
async function boxes(page, id) {
  return page.evaluate(({ popover, id }) => {
    const box = (element) => {
      const { left, top, right, bottom } = element.getBoundingClientRect();
      return { left, top, right, bottom };
    };
    return {
      popover: box(document.querySelector(popover)),
      node: box(document.querySelector(`[data-testid=node-${id}] .node-body`)),
      viewport: { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight },
    };
  }, { popover: POPOVER, id });
}

async function assertBesideTheNode(page, id, where) {
  // Placed once measured: wait for it to be opaque.
  await page.waitForFunction((selector) => document.querySelector(selector)?.style.opacity === '', POPOVER);
  const { popover, node, viewport } = await boxes(page, id);
  assert.ok(popover.left >= 0 && popover.top >= 0, `${where}: the popover starts on screen: ${JSON.stringify(popover)}`);
  assert.ok(popover.right <= viewport.width && popover.bottom <= viewport.height, `${where}: it ends on screen: ${JSON.stringify(popover)} in ${JSON.stringify(viewport)}`);
  const covers = popover.left < node.right && node.left < popover.right && popover.top < node.bottom && node.top < popover.bottom;
  assert.equal(covers, false, `${where}: it leaves ${id} visible: ${JSON.stringify({ popover, node })}`);
}

const focusedLabel = (page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
const focusedTestId = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');

test('a node\'s popover pauses it, closes on Escape, opens from the keyboard and crashes it', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    assert.match(await page.textContent('[data-testid=speed-label]'), /^0\.1× real time$/, 'the speed says how it compares with real time');
    await waitForLeader(page);
    if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');

    await page.click('[data-testid=node-n2]');
    await page.waitForSelector(POPOVER);
    await assertBesideTheNode(page, 'n2', '1440×900');
    await waitUntil(async () => (await focusedLabel(page)) === 'Crash n2', { what: 'focus to move to the first action, Crash n2', detail: () => focusedLabel(page) });
    assert.equal(await page.locator(`${POPOVER} button[aria-label="Send a write here, to n2"]`).count(), 1, 'a Raft server takes writes');
    await app.screenshot('popover-1-open-beside-n2');

    await page.click(`${POPOVER} button[aria-label="Pause until resumed, n2"]`);
    assert.equal((await readNode(page, 'n2')).status, 'paused', 'the node is drawn paused');
    assert.ok(await page.isVisible('[data-testid=node-n2] .pause-mark'), 'with its pause glyph');
    const tips = await page.$$eval('[data-testid=timeline] .mark-fault .mark-tip', (tips) => tips.map((tip) => tip.textContent));
    assert.ok(tips.some((tip) => /n2/.test(tip)), `the pause is on the timeline: ${JSON.stringify(tips)}`);
    assert.equal(await page.locator(`${POPOVER} button[aria-label="Resume n2"]`).count(), 1, 'the popover now offers the undo');
    assert.match(await page.textContent(`${POPOVER} [data-testid=popover-status]`), /paused/);

    await page.keyboard.press('Escape');
    await waitUntil(async () => (await page.locator(POPOVER).count()) === 0, { what: 'Escape to close the popover' });
    assert.equal(await focusedTestId(page), 'node-n2', 'focus goes back to the node');
    assert.equal((await readNode(page, 'n2')).selected, true, 'Escape in the popover keeps the selection');

    // From the keyboard alone: focus a node, Enter, arrows, Enter.
    await page.focus('[data-testid=node-n3]');
    await page.keyboard.press('Enter');
    await page.waitForSelector(POPOVER);
    // The popover hands focus to its first action once it is drawn, a frame after it appears.
    await waitUntil(async () => (await focusedLabel(page)) === 'Crash n3', { what: 'focus on the first action, Crash n3', detail: () => focusedLabel(page) });
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedLabel(page), 'Pause 200 ms, n3', 'arrows move between the actions');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Shift+Tab');
    assert.match(await focusedLabel(page), /^Close the actions on n3$/, 'Tab wraps inside the popover');
    await page.keyboard.press('Tab');
    assert.equal(await focusedLabel(page), 'Crash n3');
    await page.keyboard.press('Enter');
    await waitUntil(async () => (await readNode(page, 'n3')).status === 'crashed', { what: 'n3 to crash' });
    assert.equal((await page.textContent('[data-testid=node-n3] .node-caption')).trim(), 'crashed', 'the ring says crashed, not a role');
    assert.match(await page.textContent('[data-testid=inspector]'), /role\s*none — crashed/, 'so does the Inspector');
    // The row is drawn anew with the run's next frame, and the focus handed to it two frames later.
    await waitUntil(async () => (await focusedLabel(page)) === 'Restart n3', { what: 'focus to stay where the crash button was (now Restart n3)' });
    await app.screenshot('popover-2-crashed-n3');

    // A press outside closes it.
    await page.mouse.click(5, 300);
    await waitUntil(async () => (await page.locator(POPOVER).count()) === 0, { what: 'a click outside to close the popover' });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('the popover stays on screen and off its node at 1920×1080, in presenter mode and in a lesson', async () => {
  for (const { width, height, path, presenter, node, name } of [
    { width: 1920, height: 1080, path: '/', presenter: false, node: 'n2', name: '1920' },
    { width: 1440, height: 900, path: '/', presenter: true, node: 'n3', name: 'presenter' },
    { width: 1440, height: 900, path: '/#/lesson/distributed-locks', presenter: false, node: 'n4', name: 'lesson' },
  ]) {
    const app = await openApp({ width, height, path });
    const { page } = app;
    try {
      await page.waitForSelector(`[data-testid=node-${node}]`);
      if (presenter) await page.click('[data-testid=presenter-toggle]');
      await page.click(`[data-testid=node-${node}]`);
      await page.waitForSelector(POPOVER);
      await assertBesideTheNode(page, node, name);
      await app.screenshot(`popover-3-${name}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  }
});
