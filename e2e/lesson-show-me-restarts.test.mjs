// "Show me" on a step the learner already tried by hand (issue 30, item 13): it starts the step again
// from where it began, sets the learner's moves aside (offering them back) instead of piling its own
// actions on top, ticks the step, and its log gives the times the timeline shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, readNodes, simTimeMs, waitUntil } from './support/cluster.mjs';
import { step, waitForStepState } from './support/lesson-steps.mjs';

const POPOVER = '[data-testid=node-popover]';
const logLines = (page) => page.$$eval('[data-testid=show-me-log] li', (items) => items.map((item) => item.textContent));

/** `12.963 s` or `706 ms` as milliseconds. */
function ms(text) {
  const seconds = /(\d+)\.(\d{3}) s/.exec(text);
  if (seconds) return Number(seconds[1]) * 1000 + Number(seconds[2]);
  return Number(/(\d+) ms/.exec(text)[1]);
}

for (const [width, height] of [[1280, 720]]) {
  test(`at ${width}x${height}: show me after the learner's own moves restarts the step and ticks it`, async () => {
    const app = await openApp({ width, height, path: '/#/lesson/membership' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-waiting]');
      const began = await simTimeMs(page);
      // The learner tries something else first: crashes a follower, and lets the run go on a while.
      const follower = (await readNodes(page)).find((node) => !/leader/.test(node.label));
      await page.click(`[data-testid=node-${follower.id}]`);
      await page.waitForSelector(POPOVER);
      await page.click(`${POPOVER} button[aria-label^="Crash"]`);
      await waitUntil(() => isPlaying(page), { timeout: 5_000, what: 'the move to start the run' });
      await waitUntil(async () => (await simTimeMs(page)) > began + 600, { timeout: 30_000, what: 'the run to go on' });
      await page.click('[data-testid=play-toggle]');
      assert.match((await readNodes(page)).find((node) => node.id === follower.id).label, /crashed/);

      await step(page, 1).locator('[data-testid=show-me]').click();
      await waitForStepState(page, 1, 'done', 60_000);
      const lines = await logLines(page);
      const restart = lines.find((line) => /starts again from/.test(line));
      assert.ok(restart, `the log says the step starts again: ${lines}`);
      assert.match(restart, /your 1 move since then is set aside/);
      assert.equal(ms(restart), began, 'it starts again where the step began');
      const added = lines.find((line) => /^Show me: add a new server at /i.test(line));
      assert.ok(added, `the log tells the add: ${lines}`);
      assert.equal(ms(added), began + 100, "the add happened at the script's moment on the timeline");
      assert.ok((await simTimeMs(page)) >= ms(added), 'the clock is past the logged moment');

      const nodes = await readNodes(page);
      assert.equal(nodes.length, 4, 'one server added, nothing piled on');
      assert.doesNotMatch(nodes.find((node) => node.id === follower.id).label, /crashed/, 'the crash was set aside');
      assert.match(await page.textContent('[data-testid=replaced-future]'), /replaced/, 'the old run is offered back');
      await step(page, 1).scrollIntoViewIfNeeded();
      await app.screenshot(`show-me-restarts-${width}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
