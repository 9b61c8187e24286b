// Lesson 1's "Invoices per minute" strip tells the story (issue 30, item 3): every minute has a column,
// so the minute a crash leaves uninvoiced is there, hatched and marked ✕, and the minute a pause gets
// invoiced twice is marked 2×. Both steps done by hand at 1440×900 through the node's popover, the pause
// typed into its "any length" field. A calm run (the look-alike) marks no minute missed. The missed
// minutes in the strip are the ones the tick names. Screenshots: e2e/screenshots/invoice-strip-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, simTimeMs, waitUntil } from './support/cluster.mjs';
import { selectActor, stepResult, waitForStepState } from './support/lesson-steps.mjs';


const POPOVER = '[data-testid=node-popover]';

/** The strip's columns as drawn: minute number and outcome, left to right. */
const columns = (page) =>
  page.$$eval('[data-testid=strip-minute]', (cells) =>
    cells.map((cell) => ({ minute: Number(cell.dataset.minute), outcome: cell.dataset.outcome, mark: cell.textContent })));

async function pauseThePlayback(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
}

test('lesson 1 by hand: the strip shows the missed minutes and the doubled one, numbered, as the ticks say', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/exactly-once' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-waiting]');
    await page.click('[data-testid=lesson-play]');
    // The look-alike: a calm run for a few minutes marks nothing missed, and has a column per minute.
    await waitUntil(async () => (await simTimeMs(page)) > 4_050, { timeout: 40_000, what: 'minute 3 to end' });
    const calm = await columns(page);
    assert.deepEqual(calm.slice(0, 3).map((column) => column.minute), [1, 2, 3], 'columns start at minute 1, one per minute');
    assert.equal(calm.filter((column) => column.outcome === 'missed').length, 0, `a calm run misses no minute: ${JSON.stringify(calm)}`);
    assert.match(await page.textContent('[data-testid=strip-summary]'), /^no minute missed · no minute invoiced twice$/);

    // Step 1: crash the instance marked ★ (B with this seed), by hand.
    await selectActor(page, 'B');
    await page.click(`${POPOVER} button[aria-label="Crash B"]`);
    await waitForStepState(page, 1, 'done');
    const tick = await stepResult(page, 1);
    const said = /minutes? ([\d, ]+) went by without an invoice/.exec(tick);
    assert.ok(said, tick);
    const missed = (await columns(page)).filter((column) => column.outcome === 'missed');
    assert.ok(missed.length > 0, 'a missed minute has a column');
    for (const minute of said[1].split(',').map((text) => Number(text.trim()))) {
      assert.ok(missed.some((column) => column.minute === minute && column.mark === '✕'), `minute ${minute}, missed in the tick, is marked ✕ in the strip`);
    }
    const numbers = (await columns(page)).map((column) => column.minute);
    assert.deepEqual(numbers, numbers.map((_, index) => numbers[0] + index), 'no minute is left out of the strip');
    assert.match(await page.textContent('[data-testid=strip-summary]'), /minutes? [\d, –]+ missed/);
    await page.locator('[data-testid=scheduler-strip]').scrollIntoViewIfNeeded();
    await app.screenshot('invoice-strip-1-missed');

    // Step 2: restart B, then pause A mid-run for 2500 ms typed into the popover's "any length" field.
    // B "now queues behind A": A has taken the lease over (★ in the strip) before B comes back.
    await waitUntil(async () => (await page.$$eval('.strip-name', (names) => names.map((name) => name.textContent))).includes('▢ A ★'), {
      timeout: 40_000,
      what: 'A to hold the lease',
    });
    // A's runs begin with the minute after it took over: wait for its first, so "busy with a run" holds.
    await waitUntil(async () => /A ★\s*[1-9]\d* runs/.test(await page.textContent('[data-testid=scheduler-strip]')), {
      timeout: 40_000,
      what: 'A to finish its first run',
    });
    await selectActor(page, 'B');
    await page.click(`${POPOVER} button[aria-label="Restart B"]`);
    // B's actions, now longer, may cover A: close them first, as a learner would.
    await page.keyboard.press('Escape');
    await page.waitForSelector(POPOVER, { state: 'detached' });
    await selectActor(page, 'A');
    await page.waitForSelector(POPOVER);
    // As the instruction says: stop the playback while the clock reads x.0 to x.6 s (a run is under way).
    for (let tries = 0; ; tries += 1) {
      await waitUntil(async () => (await simTimeMs(page)) % 1_000 < 400, { timeout: 30_000, interval: 20, what: 'early in a minute' });
      await pauseThePlayback(page);
      if ((await simTimeMs(page)) % 1_000 < 600) break;
      assert.ok(tries < 5, 'stopped inside a run within five tries');
      await page.click('[data-testid=play-toggle]');
    }
    if ((await page.locator(POPOVER).count()) === 0) await selectActor(page, 'A');
    const field = page.locator(`${POPOVER} [data-testid=pause-ms]`);
    const fieldBox = await field.boundingBox();
    assert.ok(fieldBox && fieldBox.y >= 0 && fieldBox.y + fieldBox.height <= 900, `the pause length field is on screen beside A: ${JSON.stringify(fieldBox)}`);
    await field.fill('2500');
    await page.click(`${POPOVER} [data-testid=pause-for-ms]`);
    await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await page.locator('[data-testid=lesson-step-2]').getAttribute('data-state')) === 'done', {
      timeout: 60_000,
      what: 'step 2 to tick',
      detail: async () => ({
        verdict: await page.locator('[data-testid=step-verdict]').first().textContent(),
        strip: await page.textContent('[data-testid=strip-summary]'),
        time: await page.textContent('[data-testid=sim-time]'),
        lanes: await page.textContent('[data-testid=scheduler-strip]'),
      }),
    });
    const doubled = (await columns(page)).filter((column) => column.outcome === 'doubled');
    assert.ok(doubled.length > 0 && doubled.every((column) => /^[23]×$/.test(column.mark)), `a doubled minute is marked with its count: ${JSON.stringify(doubled)}`);
    assert.match(await page.textContent('[data-testid=strip-summary]'), /minutes? [\d, –]+ invoiced twice or more/);
    assert.match(await stepResult(page, 2), /recorded a minute twice/, 'the tick says what the strip shows');
    await page.locator('[data-testid=scheduler-strip]').scrollIntoViewIfNeeded();
    await app.screenshot('invoice-strip-2-doubled');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
