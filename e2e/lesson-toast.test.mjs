// The tick's banner by the cluster ("✓ Step N done · Next, …") at the four sizes the lessons are checked
// at: it shows when a step ticks, tells the next step, reads the simulation's sentence out to a screen
// reader, and covers no node of the ring, nor any node's label: a learner who just acted is watching them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, setSpeedPosition } from './support/cluster.mjs';
import { showMe, stepResult, toastLineAsDrawn } from './support/lesson-steps.mjs';

const SIZES = [
  { name: '1280x720', width: 1280, height: 720 },
  { name: '1440x900', width: 1440, height: 900 },
  { name: '1920x1080', width: 1920, height: 1080 },
  { name: 'phone', width: 390, height: 844, page: { hasTouch: true, isMobile: true } },
];

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const size of SIZES) {
  test(`at ${size.name}, the tick's banner says the step is done and what is next, and covers no node`, async () => {
    const app = await openApp({ ...size, path: '/#/lesson/leader-election' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="leader-election"]');
      await setSpeedPosition(page);
      // On a phone the list of steps is folded away: "show me" is pressed in the step in hand.
      if (size.page) await page.locator('[data-testid=current-step] [data-testid=show-me]').tap();
      else await showMe(page, 1);
      const toast = page.locator('[data-testid=lesson-toast]');
      await toast.waitFor({ timeout: 20_000 });
      // Frozen, so nothing moves between the measurements.
      if ((await page.textContent('[data-testid=play-toggle]')).includes('Pause')) await page.click('[data-testid=play-toggle]');
      await page.locator('[data-testid=cluster-view]').scrollIntoViewIfNeeded();
      const shown = await toastLineAsDrawn(page);
      // On a phone the step in hand sits right above the cluster, so the banner is one line there.
      if (size.page) assert.match(shown, /^✓ Step 1 done · Read step 2\s*$/);
      else assert.match(shown, /^✓ Step 1 done · Next, step 2: Pause the new leader for 1\.5 seconds Read step 2\s*$/);
      const sentence = (await page.textContent('[data-testid=toast-what-happened]')).trim();
      assert.ok(sentence.length > 20 && sentence.startsWith(':'), `the sentence for screen readers: ${sentence}`);
      assert.ok((await stepResult(page, 1)).includes(sentence.slice(2, 30)), 'it is the step card\'s "what happened"');
      const banner = await toast.boundingBox();
      const nodes = await page.$$eval('[data-testid=cluster-view] g[data-testid^="node-n"]', (groups) =>
        groups.map((group) => {
          const { x, y, width, height } = group.getBoundingClientRect();
          return { id: group.getAttribute('data-testid'), x, y, width, height };
        }),
      );
      assert.ok(nodes.length >= 5, 'the ring is drawn');
      for (const node of nodes) assert.ok(!overlap(banner, node), `the banner covers ${node.id}: ${JSON.stringify({ banner, node })}`);
      await app.screenshot(`lesson-toast-${size.name}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}
