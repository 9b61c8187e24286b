// An instructor's demo from the keyboard (issue 35, items 1, 2 and 8): after a slider was used from the
// keyboard the shortcuts still work, Esc lets go of it, Home and End jump to the run's ends, − and +
// change the speed, and a node chosen with its digit opens its actions with Enter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, readNode, simTimeMs, waitForLeader, waitUntil } from './support/cluster.mjs';

const SPEED = 'input[aria-label="Playback speed"]';
const TIMELINE = 'input[aria-label="Timeline: drag to travel back in time"]';
const focusedLabel = (page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName ?? '');
const speedLabel = (page) => page.textContent('[data-testid=speed-label]');

test('shortcuts keep working after the speed and timeline sliders are used from the keyboard', async () => {
  const app = await openApp({ width: 1920, height: 1080 });
  const { page } = app;
  try {
    await waitUntil(async () => (await simTimeMs(page)) > 0, { what: 'the clock to run' });

    // The speed slider by keyboard: its own keys move it ...
    await page.focus(SPEED);
    const slowest = await speedLabel(page);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('PageUp');
    assert.notEqual(await speedLabel(page), slowest, 'the slider keeps its own arrow keys');
    assert.equal(await focusedLabel(page), 'Playback speed');
    // ... and every other key is a shortcut again: Space pauses, though the slider still has focus.
    assert.equal(await isPlaying(page), true);
    await page.keyboard.press(' ');
    assert.equal(await isPlaying(page), false, 'Space pauses with the speed slider focused');
    await page.keyboard.press(' ');
    assert.equal(await isPlaying(page), true, 'and plays again');
    const leader = await waitForLeader(page);
    await page.keyboard.press('k');
    assert.equal((await readNode(page, leader.id)).status, 'crashed', 'K crashes the leader from the slider');

    // Esc lets go of the slider; the next Tab and Space do not land on whatever followed it.
    await page.keyboard.press('Escape');
    assert.notEqual(await focusedLabel(page), 'Playback speed', 'Esc leaves the slider');
    await page.keyboard.press(' ');
    assert.equal(await isPlaying(page), false, 'Space after Esc pauses the run');

    // The timeline slider: the same.
    await page.focus(TIMELINE);
    await page.keyboard.press(' ');
    assert.equal(await isPlaying(page), true, 'Space plays with the timeline focused');
    await page.keyboard.press(' ');
    assert.equal(await isPlaying(page), false);
    await page.keyboard.press('Escape');
    assert.notEqual(await focusedLabel(page), 'Timeline: drag to travel back in time', 'Esc leaves the timeline');

    // Home goes back to the start, End to the latest moment run so far; both leave the run paused.
    const latest = await simTimeMs(page);
    assert.ok(latest > 0);
    await page.keyboard.press('Home');
    await waitUntil(async () => (await simTimeMs(page)) === 0, { what: 'Home to go back to 0 ms', detail: () => simTimeMs(page) });
    assert.equal(await isPlaying(page), false, 'Home leaves the run paused');
    await page.keyboard.press('End');
    await waitUntil(async () => (await simTimeMs(page)) === latest, {
      what: `End to come back to ${latest} ms`,
      detail: () => simTimeMs(page),
    });
    assert.equal((await readNode(page, leader.id)).status, 'crashed', 'End is the same run, the crash included');

    // − halves the speed and + doubles it, within the slider's limits.
    await page.keyboard.press('-');
    const halved = await speedLabel(page);
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    const doubled = await speedLabel(page);
    assert.notEqual(halved, doubled, `− and + change the speed (${halved} → ${doubled})`);
    const share = (label) => Number(/^([\d.]+)×/.exec(label)[1]);
    assert.ok(Math.abs(share(doubled) / share(halved) - 4) < 0.2, `+ + is four times − (${halved}, ${doubled})`);

    // A digit chooses a node and focuses it; Enter opens its actions beside it.
    const other = leader.id === 'n3' ? '2' : '3';
    await page.keyboard.press(other);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=node-popover]');
    await waitUntil(async () => /^Crash n\d$|^Restart n\d$/.test(await focusedLabel(page)), {
      what: 'focus on the chosen node\'s first action',
      detail: () => focusedLabel(page),
    });
    assert.match(await focusedLabel(page), new RegExp(`n${other}$`), 'the actions are the chosen node\'s');
    await app.screenshot('keyboard-after-sliders-popover');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
