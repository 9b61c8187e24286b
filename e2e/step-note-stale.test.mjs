// The "Step: Back one event, to ..." note over the cluster says where a single step left the
// run (issue 30, item 11): it must go once the learner drags the timeline or acts, and stay while it is
// still true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, readNodes, simTimeMs, waitForLeader, waitUntil } from './support/cluster.mjs';

const POPOVER = '[data-testid=node-popover]';
const caption = (page) => page.textContent('[data-testid=narration-caption]');

async function stepBack(page) {
  await page.click('[data-testid=step-back]');
  await waitUntil(async () => /^Step: Back one event, to /.test(await caption(page)), { what: 'the step note' });
}

for (const viewport of [
  { name: '1440x900', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844, page: { hasTouch: true, isMobile: true } },
]) {
  test(`at ${viewport.name}: the step-back note goes after dragging the timeline and after acting`, async () => {
    const app = await openApp(viewport);
    const { page } = app;
    try {
      await waitForLeader(page, { timeout: 30_000 });
      await waitUntil(async () => (await simTimeMs(page)) > 1_500, { timeout: 30_000, what: 'some history' });
      if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');

      // Still true after a second step back: the note stays (and says the new instant).
      await stepBack(page);
      await stepBack(page);
      assert.match(await caption(page), /^Step: Back one event, to /);

      // Dragging the timeline moves the run elsewhere: the note goes.
      const scrubber = page.locator('[data-testid=scrubber]');
      const horizonUs = Number(await scrubber.evaluate((input) => input.max));
      await scrubber.fill(String(Math.floor(horizonUs / 2_000) * 1_000));
      await waitUntil(async () => !/^Step: /.test(await caption(page)), { what: 'the note to go after the drag' });

      // Acting in the past: the note goes too.
      await stepBack(page);
      const follower = (await readNodes(page)).find((node) => !/leader/.test(node.label));
      await page.click(`[data-testid=node-${follower.id}]`);
      await page.waitForSelector(POPOVER);
      await page.click(`${POPOVER} button[aria-label^="Crash"]`);
      await waitUntil(async () => !/^Step: Back one event, to /.test(await caption(page)), { what: 'the note to go after acting' });
      await app.screenshot(`step-note-gone-${viewport.name}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
