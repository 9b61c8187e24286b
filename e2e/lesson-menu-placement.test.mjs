// Where the node menu goes (issue 30, item 6): beside its node and off every other node of the ring, so
// the node a learner clicks next is never under it, at 1280×720, 1440×900 and 1920×1080, on the playground
// and with a lesson open; and a click on another node while a menu is open acts on that node (its menu
// opens), never swallowed by the open one; in a lesson it also leaves the step in hand readable. On a 390×844 touch phone the menu stays on screen, off the
// tapped node, and a tap on another node opens that node's menu. Done by hand: real clicks and taps at
// the nodes' drawn centres.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, waitUntil } from './support/cluster.mjs';

const POPOVER = '[data-testid=node-popover]';
const LOADED = { timeout: 45_000 };
const NODES = ['n1', 'n2', 'n3', 'n4', 'n5'];

/** The menu's box, every node body's box and the window, read at one instant. */
function readBoxes(page) {
  return page.evaluate((popover) => {
    const box = (element) => {
      const { left, top, right, bottom } = element.getBoundingClientRect();
      return { left, top, right, bottom };
    };
    const menu = document.querySelector(popover);
    const step = document.querySelector('[data-testid=current-step]');
    const nodes = {};
    for (const node of document.querySelectorAll('[data-testid=cluster-view] g[data-testid^="node-n"]')) {
      nodes[node.getAttribute('data-testid').slice('node-'.length)] = box(node.querySelector('.node-body'));
    }
    return {
      menu: menu && box(menu),
      label: menu?.getAttribute('aria-label') ?? null,
      step: step && box(step),
      placed: menu?.style.opacity === '',
      nodes,
      window: { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight },
    };
  }, POPOVER);
}

const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const centre = (box) => ({ x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 });

/** Waits for `node`'s menu to be open and placed, then checks it covers no node and is on screen. */
async function assertMenuClearOfTheRing(page, node, where) {
  const boxes = await waitUntil(async () => {
    const read = await readBoxes(page);
    return read.label === `Actions on ${node}` && read.placed ? read : null;
  }, { ...LOADED, what: `${where}: ${node}'s menu to open and be placed`, detail: () => readBoxes(page) });
  const { menu, nodes, window } = boxes;
  assert.ok(menu.left >= 0 && menu.top >= 0 && menu.right <= window.width && menu.bottom <= window.height,
    `${where}: ${node}'s menu is on screen: ${JSON.stringify({ menu, window })}`);
  for (const [other, body] of Object.entries(nodes)) {
    assert.equal(overlaps(menu, body), false, `${where}: ${node}'s menu leaves ${other} visible: ${JSON.stringify({ menu, body })}`);
  }
  // In a lesson, the step in hand (whose words name the node to act on) stays readable beside it.
  if (boxes.step) assert.equal(overlaps(menu, boxes.step), false, `${where}: ${node}'s menu leaves the step in hand readable: ${JSON.stringify({ menu, step: boxes.step })}`);
  return boxes;
}

for (const { width, height } of [{ width: 1280, height: 720 }, { width: 1440, height: 900 }, { width: 1920, height: 1080 }]) {
  for (const { path, place } of [{ path: '/', place: 'playground' }, { path: '/#/lesson/leader-election', place: 'lesson 3' }]) {
    test(`${width}×${height}, ${place}: each node's menu covers no other node; a click on the next node opens its menu`, async () => {
      const app = await openApp({ width, height, path });
      const { page } = app;
      try {
        await page.waitForSelector('[data-testid=cluster-view] [data-testid=node-n5]', LOADED);
        await page.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
        // Round the ring and back to n1: each click lands while the previous node's menu is open.
        for (const node of [...NODES, 'n1']) {
          const { nodes } = await readBoxes(page);
          const { x, y } = centre(nodes[node]);
          await page.mouse.click(x, y);
          await assertMenuClearOfTheRing(page, node, `${width}×${height} ${place}`);
          if (node === 'n1') await app.screenshot(`lesson-menu-placement-${width}-${place.replace(' ', '-')}-n1`);
        }
        assertNoProblems(app);
      } finally {
        await app.close();
      }
    });
  }
}

test('390×844 touch phone: a node\'s menu is on screen and off the tapped node; a tap on another node opens its menu', async () => {
  const app = await openApp({ width: 390, height: 844, page: { hasTouch: true, isMobile: true } });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=cluster-view] [data-testid=node-n5]', LOADED);
    await page.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
    for (const [node, next] of [['n1', 'n3'], ['n3', 'n5']]) {
      let { nodes } = await readBoxes(page);
      if ((await page.locator(POPOVER).count()) === 0) {
        const { x, y } = centre(nodes[node]);
        await page.touchscreen.tap(x, y);
      }
      const placed = await waitUntil(async () => {
        const read = await readBoxes(page);
        return read.label === `Actions on ${node}` && read.placed ? read : null;
      }, { ...LOADED, what: `${node}'s menu on the phone` });
      const { menu, window } = placed;
      assert.ok(menu.left >= 0 && menu.right <= window.width && menu.top >= 0 && menu.bottom <= window.height,
        `the menu is on screen: ${JSON.stringify({ menu, window })}`);
      assert.equal(overlaps(menu, placed.nodes[node]), false, `the menu leaves ${node} visible`);
      await app.screenshot(`lesson-menu-placement-390-${node}`);
      // The next node: tapped where it is drawn, if the menu left it visible; its menu must open.
      nodes = placed.nodes;
      assert.equal(overlaps(menu, nodes[next]), false, `${node}'s menu leaves ${next} visible to tap`);
      const { x, y } = centre(nodes[next]);
      await page.touchscreen.tap(x, y);
      await waitUntil(async () => (await readBoxes(page)).label === `Actions on ${next}`, { ...LOADED, what: `a tap on ${next} to open its menu` });
    }
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
