// Lesson 11 (Paxos) step 1 by hand (issue 30, item 12): the value already chosen and C's own value
// differ, so watching C's new ballot tells the two predictions apart: C asks the acceptors to accept
// the chosen "banana", never its own "cherry".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, waitUntil } from './support/cluster.mjs';
import { selectActor, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const POPOVER = '[data-testid=node-popover]';
const paxosRows = (page) => page.$$eval('[data-testid=paxos-panel] li', (items) => items.map((item) => item.textContent.trim()));
const row = async (page, label) => (await paxosRows(page)).find((text) => text.startsWith(label)) ?? '';

for (const viewport of [
  { name: '1440x900', width: 1440, height: 900 },
  { name: '1920x1080', width: 1920, height: 1080 },
  { name: 'phone', width: 390, height: 844, page: { hasTouch: true, isMobile: true } },
]) {
  test(`paxos step 1 by hand at ${viewport.name}: C carries the chosen "banana" forward, not its own "cherry"`, async () => {
    const app = await openApp({ ...viewport, path: '/#/lesson/paxos' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-waiting]');
      assert.match(await row(page, 'Chosen'), /“banana”/, 'the race at the start chose banana');
      assert.doesNotMatch(await row(page, 'Chosen'), /cherry/);

      await selectActor(page, 'C');
      await page.waitForSelector(POPOVER);
      await page.click(`${POPOVER} button[aria-label^="Crash"]`);
      if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
      await selectActor(page, 'C');
      await page.waitForSelector(POPOVER);
      await page.click(`${POPOVER} button[aria-label^="Restart"]`);
      if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');

      // What a learner watching sees: C's new ballot asks for the chosen value.
      await waitUntil(async () => /asked to accept “banana”|knows “banana” is chosen/.test(await row(page, '▢ C')), {
        timeout: 60_000,
        what: 'C to ask for banana',
      });
      await waitForStepState(page, 1, 'done', 60_000);
      assert.match(await stepResult(page, 1), /carried an accepted value into a new ballot/);
      assert.doesNotMatch(await row(page, '▢ C'), /cherry/, 'C never proposes its own value');
      assert.match(await row(page, 'Chosen'), /“banana”/);
      await page.locator('[data-testid=paxos-panel]').scrollIntoViewIfNeeded();
      await app.screenshot(`paxos-values-${viewport.name}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
