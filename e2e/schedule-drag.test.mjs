// The fault-schedule lane by mouse (issue 15, "a fault schedule you can edit"): a pause placed from the
// lane's form is stretched by dragging its right edge and moved by dragging its body, each change the
// size the pointer travelled (read back from the mark and from the exported TOML); the run then pauses
// the node for exactly that window; back before it, the pause is deleted and leaves the TOML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, readNode, setSpeedPosition, simTimeMs, waitUntil } from './support/cluster.mjs';

const PAUSE = '[data-testid=schedule-mark].schedule-pause';

async function pause(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
  assert.equal(await isPlaying(page), false);
}

/** The pause mark's start and end in ms, as the lane holds them. */
async function pauseMark(page) {
  const marks = await page.$$eval(PAUSE, (buttons) =>
    buttons.map((button) => ({ at: Number(button.dataset.atMs), end: Number(button.dataset.endMs), editable: button.dataset.editable })),
  );
  assert.equal(marks.length, 1, `one pause on the lane: ${JSON.stringify(marks)}`);
  return marks[0];
}

/** The ms one pixel of the track stands for, and the shift a drag of `px` pixels should make. */
async function trackScale(page) {
  const box = await page.locator('[data-testid=schedule-track]').boundingBox();
  const span = Number(await page.getAttribute('[data-testid=schedule-track]', 'data-span-ms'));
  const msPerPx = span / box.width;
  return { msPerPx, shiftFor: (px) => Math.round((px * msPerPx) / 10) * 10 };
}

/** Where `locator` is in the viewport, once scrolled into it (the pointer acts on what is shown). */
async function onScreenBox(locator) {
  await locator.scrollIntoViewIfNeeded();
  return locator.boundingBox();
}

/** A screenshot with the lane in view (the Export button scrolls the page away from it). */
async function shoot(app, name) {
  await app.page.locator('.schedule-lane-card').scrollIntoViewIfNeeded();
  await app.screenshot(name);
}

/** Presses at (x, y) and drags `dx` pixels right in small moves, as a hand would. */
async function drag(page, x, y, dx) {
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let part = 1; part <= 8; part += 1) await page.mouse.move(x + (dx * part) / 8, y);
  await page.mouse.up();
}

/** The scenario as the Export menu saves it, and its pause steps as { at, node, duration }. */
async function exportedPauses(page) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-toml]')]);
  const text = await readFile(await file.path(), 'utf8');
  const steps = text.split('[[step]]').slice(1);
  return steps
    .filter((step) => /do = "pause"/.test(step))
    .map((step) => ({
      at: Number(/at_ms = (\d+)/.exec(step)?.[1]),
      node: /target = "([^"]+)"/.exec(step)?.[1],
      duration: Number(/duration_ms = (\d+)/.exec(step)?.[1]),
    }));
}

async function seek(page, ms) {
  await page.locator('[data-testid=scrubber]').fill(String(ms * 1_000));
  await page.evaluate(() => document.activeElement?.blur());
  await waitUntil(async () => (await simTimeMs(page)) === ms, { what: `the timeline at ${ms} ms` });
}

test('a pause on the lane stretches and moves by mouse by the distance dragged, runs as edited, and deletes', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await pause(page);
    await page.click('[data-testid=schedule-toggle]');
    await page.waitForSelector('[data-testid=schedule-lane]');
    assert.equal(await page.locator(PAUSE).count(), 0, 'the playground schedules no pause');
    await page.selectOption('[data-testid=schedule-kind]', 'pause');
    await page.selectOption('[data-testid=schedule-node]', '1');
    await page.fill('[data-testid=schedule-at]', '3000');
    await page.fill('[data-testid=schedule-amount]', '1000');
    await page.click('[data-testid=schedule-add]');
    await page.waitForSelector(`${PAUSE}[data-at-ms="3000"][data-end-ms="4000"]`);
    assert.deepEqual(await exportedPauses(page), [{ at: 3000, node: 'n2', duration: 1000 }]);
    const { msPerPx, shiftFor } = await trackScale(page);
    const tolerance = msPerPx + 10; // a pixel of rounding in the pointer's position, and the 10 ms grid

    // Drag the right edge ~80 px to the right: the pause lasts that much longer, from the same start.
    const edge = await onScreenBox(page.locator(`${PAUSE} [data-testid=schedule-resize]`));
    const stretchPx = 80;
    await drag(page, edge.x + edge.width / 2, edge.y + edge.height / 2, stretchPx);
    await waitUntil(async () => (await pauseMark(page)).end !== 4000, { what: 'the pause to get longer' });
    const stretched = await pauseMark(page);
    const longer = stretched.end - 4000;
    assert.equal(stretched.at, 3000, 'stretching keeps the start');
    assert.ok(Math.abs(longer - shiftFor(stretchPx)) <= tolerance, `${stretchPx} px is ${shiftFor(stretchPx)} ms; the pause grew by ${longer} ms`);
    assert.ok(longer >= 500, `a visible stretch: ${longer} ms`);
    const duration = stretched.end - stretched.at;
    console.log(`# ${msPerPx.toFixed(2)} ms per px; +${stretchPx} px stretched the pause by ${longer} ms`);
    assert.deepEqual(await exportedPauses(page), [{ at: 3000, node: 'n2', duration }], 'the TOML holds the new length');
    await shoot(app, 'schedule-drag-1-stretched');

    // Drag the body ~60 px to the left: it starts earlier and keeps its length.
    const body = await onScreenBox(page.locator(PAUSE));
    const movePx = -60;
    await drag(page, body.x + 20, body.y + body.height / 2, movePx);
    await waitUntil(async () => (await pauseMark(page)).at !== 3000, { what: 'the pause to move' });
    const moved = await pauseMark(page);
    const shift = moved.at - 3000;
    assert.ok(Math.abs(shift - shiftFor(movePx)) <= tolerance, `${movePx} px is ${shiftFor(movePx)} ms; the pause moved by ${shift} ms`);
    console.log(`# ${movePx} px moved the pause by ${shift} ms`);
    assert.ok(shift <= -300, `a visible move earlier: ${shift} ms`);
    assert.equal(moved.end - moved.at, duration, 'moving keeps the length');
    assert.deepEqual(await exportedPauses(page), [{ at: moved.at, node: 'n2', duration }], 'the TOML holds the new time');
    assert.match(await page.textContent('[data-testid=schedule-selected]'), /n2/);
    assert.equal(await page.locator('[data-testid=schedule-error]').count(), 0);
    await shoot(app, 'schedule-drag-2-moved');

    // The run does what the lane says: n2 is paused inside the window, up on either side of it.
    await setSpeedPosition(page);
    await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await simTimeMs(page)) > moved.end + 300, { timeout: 30_000, what: `the run to pass ${moved.end} ms` });
    await pause(page);
    for (const [at, status] of [[moved.at - 50, 'up'], [moved.at + 50, 'paused'], [moved.end - 50, 'paused'], [moved.end + 100, 'up']]) {
      await seek(page, at);
      assert.equal((await readNode(page, 'n2')).status, status, `n2 at ${at} ms`);
    }
    assert.equal((await pauseMark(page)).editable, 'false', 'a pause in the past is fixed');

    // Back before it, the pause is the future again: select it by a click and delete it.
    await seek(page, moved.at - 500);
    await waitUntil(async () => (await pauseMark(page)).editable === 'true', { what: 'the pause to be editable again' });
    const again = await onScreenBox(page.locator(PAUSE));
    await page.mouse.click(again.x + 20, again.y + again.height / 2);
    await page.click('[data-testid=schedule-delete]');
    await waitUntil(async () => (await page.locator(PAUSE).count()) === 0, { what: 'the pause to be deleted' });
    assert.deepEqual(await exportedPauses(page), [], 'the TOML has no pause left');
    await shoot(app, 'schedule-drag-3-deleted');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
