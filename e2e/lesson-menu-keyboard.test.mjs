// The node menu and the keyboard (issue 30, items 5 and 16): Space on a focused node plays and pauses, as
// everywhere, and only Enter opens the node's actions; inside them Space presses the focused action, and
// one Escape closes them and puts focus back on the node, also after the run redrew the row under the
// focus. Around them: after the "?" sheet closes, 2 then Enter opens n2's actions (not the sheet again);
// letters and arrows typed into the "Compare with…" picker neither open a comparison nor the lesson list.
// Done by hand with the keyboard at 1280×720, 1440×900 and 1920×1080.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, readNode, waitForLeader, waitUntil } from './support/cluster.mjs';

const POPOVER = '[data-testid=node-popover]';
const LOADED = { timeout: 45_000 };
const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];

const focusedLabel = (page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
const focusedTestId = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
const popoverCount = (page) => page.locator(POPOVER).count();

async function waitForFocus(page, label, what) {
  await waitUntil(async () => (await focusedLabel(page)) === label, { ...LOADED, what, detail: () => focusedLabel(page) });
}

/** Presses Space and waits for the play button to say the opposite of what it said. */
async function spaceToggles(page, where) {
  const before = await isPlaying(page);
  await page.keyboard.press(' ');
  await waitUntil(async () => (await isPlaying(page)) !== before, { ...LOADED, what: `${where}: Space to ${before ? 'pause' : 'play'}` });
  assert.equal(await popoverCount(page), 0, `${where}: Space opened no menu`);
}

for (const { width, height } of VIEWPORTS) {
  test(`${width}×${height}: Space on a focused node plays and pauses; Enter opens its menu; Space inside presses; one Esc closes`, async () => {
    const app = await openApp({ width, height });
    const { page } = app;
    try {
      await waitForLeader(page, LOADED);
      // A click opens the menu with focus on its first action; one Escape closes it and the node keeps focus.
      await page.click('[data-testid=node-n2]');
      await page.waitForSelector(POPOVER);
      await waitForFocus(page, 'Crash n2', 'focus on the first action');
      await page.keyboard.press('Escape');
      await waitUntil(async () => (await popoverCount(page)) === 0, { ...LOADED, what: 'one Escape to close the menu' });
      assert.equal(await focusedTestId(page), 'node-n2', 'focus is back on the node');
      assert.equal((await readNode(page, 'n2')).selected, true, 'the node stays selected');

      // Space on the focused node pauses and plays, like anywhere else, and never opens the menu.
      await spaceToggles(page, 'on n2');
      await spaceToggles(page, 'on n2 again');
      assert.equal(await focusedTestId(page), 'node-n2', 'focus stays on the node');
      if (!(await isPlaying(page))) await spaceToggles(page, 'back to playing');

      // Enter opens it; arrows move; Space presses the focused action.
      await page.keyboard.press('Enter');
      await page.waitForSelector(POPOVER);
      await waitForFocus(page, 'Crash n2', 'Enter to open the menu with focus on its first action');
      for (let press = 0; press < 4; press += 1) await page.keyboard.press('ArrowDown');
      assert.equal(await focusedLabel(page), 'Pause until resumed, n2');
      await page.keyboard.press(' ');
      await waitUntil(async () => (await readNode(page, 'n2')).status === 'paused', { ...LOADED, what: 'Space in the menu to pause n2' });
      await waitForFocus(page, 'Resume n2', 'focus on the undo, in place of the pressed action');
      assert.equal(await isPlaying(page), true, 'Space in the menu pressed the action and left playback alone');
      await page.keyboard.press(' ');
      await waitUntil(async () => (await readNode(page, 'n2')).status === 'up', { ...LOADED, what: 'Space to resume n2' });
      await waitForFocus(page, 'Pause 200 ms, n2', 'focus on the pause row again');

      // A pause that ends by itself redraws the row under the focus: focus stays in the menu, so one
      // Escape still closes it and returns to the node.
      await page.keyboard.press(' ');
      await waitUntil(async () => (await readNode(page, 'n2')).status === 'paused', { ...LOADED, what: 'a 200 ms pause' });
      await waitUntil(async () => (await readNode(page, 'n2')).status === 'up', { ...LOADED, what: 'the run to end the pause' });
      await waitForFocus(page, 'Pause 200 ms, n2', 'focus handed to the redrawn row, not dropped on the page');
      await app.screenshot(`lesson-menu-keyboard-${width}-menu`);
      await page.keyboard.press('Escape');
      await waitUntil(async () => (await popoverCount(page)) === 0, { ...LOADED, what: 'one Escape after the redraw' });
      assert.equal(await focusedTestId(page), 'node-n2', 'focus is back on the node after the redraw too');
      assert.equal((await readNode(page, 'n2')).selected, true, 'and it is still selected');
      await spaceToggles(page, 'after the menu closed');
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('after the "?" sheet closes, 2 then Enter opens n2\'s menu; the sheet hands focus in and back', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await waitForLeader(page, LOADED);
    const helpButton = 'button[aria-label="Keyboard shortcuts (?)"]';
    const sheet = '[data-testid=shortcut-sheet]';
    // Opened from its button: focus goes in to Close, Escape closes it and hands focus back to the button.
    await page.click(helpButton);
    await page.waitForSelector(sheet);
    await waitUntil(async () => (await focusedTestId(page)) === 'shortcut-sheet-close', { ...LOADED, what: 'focus on the sheet\'s Close' });
    await page.keyboard.press('Escape');
    await waitUntil(async () => (await page.locator(sheet).count()) === 0, { ...LOADED, what: 'one Escape to close the sheet' });
    assert.equal(await focusedLabel(page), 'Keyboard shortcuts (?)', 'focus is back on the button that opened it');
    await page.keyboard.press('2');
    assert.equal((await readNode(page, 'n2')).selected, true, '2 selects n2');
    assert.equal(await focusedTestId(page), 'node-n2', 'and focuses it');
    await page.keyboard.press('Enter');
    await page.waitForSelector(POPOVER);
    assert.equal(await page.getAttribute(POPOVER, 'aria-label'), 'Actions on n2', 'Enter opened n2\'s actions');
    assert.equal(await page.locator(sheet).count(), 0, 'and not the sheet again');
    await page.keyboard.press('Escape');
    await waitUntil(async () => (await popoverCount(page)) === 0, { ...LOADED, what: 'Escape to close n2\'s menu' });

    // Opened with ?, closed with its Close button: 3 then Enter opens n3's menu.
    await page.keyboard.press('?');
    await page.waitForSelector(sheet);
    await page.click(`${sheet} [data-testid=shortcut-sheet-close]`);
    await waitUntil(async () => (await page.locator(sheet).count()) === 0, { ...LOADED, what: 'Close to close the sheet' });
    await page.keyboard.press('3');
    await page.keyboard.press('Enter');
    await page.waitForSelector(POPOVER);
    assert.equal(await page.getAttribute(POPOVER, 'aria-label'), 'Actions on n3');
    assert.equal(await page.locator(sheet).count(), 0);
    await app.screenshot('lesson-menu-keyboard-after-help');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('letters and arrows typed into the Compare picker open no comparison and no lesson list; a pick does', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await waitForLeader(page, LOADED);
    const picker = '[data-testid=compare-picker]';
    const offered = await page.$$eval(`${picker} option`, (options) => options.map((option) => option.value).filter(Boolean));
    assert.ok(offered.length > 0, 'the playground offers something to compare');
    // Among them one starting with "l" or "p" would be picked by type-ahead, as "L" once picked one.
    await page.focus(picker);
    for (const key of ['l', 'L', 'p', 'f', 'ArrowDown', 'ArrowUp', 'End']) {
      await page.keyboard.press(key);
      assert.equal(await page.locator('[data-testid=compare-stage]').count(), 0, `${key} in the picker opened no comparison`);
      assert.equal(await page.locator('[data-testid=lesson-list]').count(), 0, `${key} in the picker opened no lesson list`);
      assert.equal(await page.$eval(picker, (select) => select.value), '', `${key} left the picker on its prompt`);
    }
    assert.equal(await focusedTestId(page), 'compare-picker', 'focus is still in the picker');
    // The look-alike that must work: choosing an option opens the comparison.
    await page.selectOption(picker, offered[0]);
    await page.waitForSelector('[data-testid=compare-stage]', LOADED);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
