// Membership change in the browser (issue 14): a server added from the cluster's button and from the
// leader's menu arrives as a learner (dotted ring and the word, not colour alone), then votes, and the
// quorum badge counts from its configuration entry, which the log strip marks; the leader removed from
// its own menu hands over and leaves the ring. Done by hand at both projector sizes; then lesson 13 via
// "show me", where sharing the unsafe hand-edited run says why it cannot be a link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, currentLeader, isPlaying, readNodes, setSpeedPosition, waitForLeader, waitUntil } from './support/cluster.mjs';
import { showMe, step, stepState, waitForStepState } from './support/lesson-steps.mjs';

const POPOVER = '[data-testid=node-popover]';
const badge = (page) => page.textContent('[data-testid=quorum-badge]');

async function play(page) {
  if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
}

async function pause(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
}

for (const [width, height] of [
  [1440, 900],
  [1920, 1080],
]) {
  test(`at ${width}x${height}: add servers by hand, watch them join, remove the leader and see it leave the ring`, async () => {
    const app = await openApp({ width, height });
    const { page } = app;
    try {
      await setSpeedPosition(page);
      await waitForLeader(page);
      assert.equal((await readNodes(page)).length, 5, 'the default cluster has five servers');
      assert.equal(await badge(page), 'quorum 3 of 5 (starting config)');

      // From the cluster's own button, with the keyboard.
      await pause(page);
      await page.focus('[data-testid=add-server]');
      await page.keyboard.press('Enter');
      await waitUntil(async () => (await readNodes(page)).length === 6, { what: 'n6 to be drawn' });
      const n6 = (await readNodes(page)).find((node) => node.id === 'n6');
      assert.match(n6.label, /^n6 learner · term \d+/, 'the newcomer says it is a learner');
      assert.ok(await page.isVisible('[data-testid=learner-n6]'), 'and has the dotted learner ring');
      await app.screenshot(`membership-1-learner-${width}`);
      await play(page);
      await waitUntil(async () => /^quorum 4 of 6 \(config at index \d+\)$/.test(await badge(page)), { what: 'the badge to count six voters', timeout: 20_000 });
      const joined = (await readNodes(page)).find((node) => node.id === 'n6');
      assert.doesNotMatch(joined.label, /learner/, 'n6 is a voter now');
      const leader = currentLeader(await readNodes(page));
      const configEntries = page.locator(`[data-testid=log-${leader.id}] .entry.config`);
      // The panels redraw from a snapshot taken at most ten times a second, a frame or two behind the ring's badge.
      await waitUntil(async () => (await configEntries.count()) >= 1, { what: "the leader's log strip to mark the configuration entry", timeout: 5_000 });
      assert.match(await configEntries.last().getAttribute('title'), /configuration entry .*counts n1, n2, n3, n4, n5, n6/);

      // From the leader's own menu: add one more, then remove the leader.
      await pause(page);
      await page.click(`[data-testid=node-${leader.id}]`);
      await page.waitForSelector(POPOVER);
      await page.click(`${POPOVER} button:has-text("Add a server")`);
      await waitUntil(async () => (await readNodes(page)).length === 7, { what: 'n7 to be drawn' });
      await play(page);
      await waitUntil(async () => /^quorum 4 of 7 /.test(await badge(page)), { what: 'seven voters', timeout: 20_000 });
      await pause(page);
      await page.click(`[data-testid=node-${leader.id}]`);
      await page.waitForSelector(POPOVER);
      await page.click(`${POPOVER} button[aria-label^="Remove this server, ${leader.id}"]`);
      await play(page);
      const next = await waitForLeader(page, { among: (await readNodes(page)).map((node) => node.id).filter((id) => id !== leader.id), timeout: 20_000 });
      await waitUntil(async () => /^quorum 4 of 6 /.test(await badge(page)), { what: 'six voters without the old leader', timeout: 20_000 });
      await waitUntil(async () => /not a member/.test((await readNodes(page)).find((node) => node.id === leader.id).label), { what: `${leader.id} to leave`, timeout: 20_000 });
      await pause(page);
      const ring = await page.evaluate((id) => {
        const svg = document.querySelector('[data-testid=cluster-view]');
        const node = svg.querySelector(`[data-testid=node-${id}] .node-body`).getBoundingClientRect();
        const circle = svg.querySelector('.cluster-ring').getBoundingClientRect();
        const cx = (circle.left + circle.right) / 2;
        const cy = (circle.top + circle.bottom) / 2;
        const x = (node.left + node.right) / 2;
        const y = (node.top + node.bottom) / 2;
        return { distance: Math.hypot(x - cx, y - cy), radius: circle.width / 2 };
      }, leader.id);
      assert.ok(ring.distance > ring.radius * 1.1, `${leader.id} sits off the ring: ${JSON.stringify(ring)}`);
      assert.notEqual(next.id, leader.id);
      await app.screenshot(`membership-2-leader-removed-${width}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('lesson 13 by "show me": a learner joins, the leader hands over, the hand-edited switch elects two leaders', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/membership' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="membership"]');
    assert.equal(await stepState(page, 1), 'open');
    await setSpeedPosition(page);
    await showMe(page, 1);
    await showMe(page, 2);
    await app.screenshot('membership-3-lesson-step-2');
    await showMe(page, 3);
    await waitForStepState(page, 3, 'done');
    await step(page, 3).scrollIntoViewIfNeeded();
    await app.screenshot('membership-4-lesson-two-leaders');
    await pause(page);
    await page.click('[data-testid=share-button]');
    await waitUntil(async () => /hand-edited files/.test((await page.textContent('[data-testid=notice]').catch(() => '')) ?? ''), { what: 'the share refusal to say why' });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
