// The network per link (issue 15): a link's own delay from its menu shows as a higher commit latency in
// the charts card than the same seed without it; the regions preset draws its long links; a message
// in flight opens Drop / Hold and the narration says what dropping it did; a share link brings back
// a run with all of these to the same trace hash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, readNodes, sendWrite, setSpeedPosition, waitForLeader, waitUntil } from './support/cluster.mjs';

const traceHash = (page) => page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');

async function pause(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
}

async function play(page) {
  if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
}

/** `commit latency 28 ms (mean of 5 writes)` from the charts card, as { ms, writes }, or null. */
async function commitLatency(page) {
  const text = await page.textContent('[data-testid=commit-latency]');
  const match = /commit latency (\d+) ms \((?:mean of )?(\d+) writes?\)/.exec(text ?? '');
  return match ? { ms: Number(match[1]), writes: Number(match[2]) } : null;
}

/** Sends `count` writes to the leader, then plays until all of them are acknowledged. */
async function writesAndLatency(page, count) {
  for (let index = 0; index < count; index += 1) await sendWrite(page, 'leader');
  await play(page);
  return waitUntil(async () => {
    const latency = await commitLatency(page);
    return latency && latency.writes >= count ? latency : null;
  }, { timeout: 20_000, what: `${count} acknowledged writes in the latency readout` });
}

/** Opens a link's menu by keyboard (focus, Enter) and gives it a delay range from the form. */
async function slowLink(page, low, high, [minMs, maxMs]) {
  const [a, b] = [low, high].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1)));
  await page.locator(`[data-testid=link-${a}-${b}]`).focus();
  await page.keyboard.press('Enter');
  const menu = page.locator('[data-testid=link-menu]');
  await menu.locator('[data-testid=link-delay-min]').fill(String(minMs));
  await menu.locator('[data-testid=link-delay-max]').fill(String(maxMs));
  await menu.locator('[data-testid=link-apply]').click();
  assert.equal(await menu.count(), 0, 'applying closes the menu');
  return `link-${a}-${b}`;
}

/** Steps event by event (at most `limit`) until a message that is not lost is drawn; returns its dot. */
async function messageInFlight(page, limit = 200) {
  for (let step = 0; step < limit; step += 1) {
    const dot = page.locator('[data-testid=cluster-view] g.message:not(.dropped)').first();
    if ((await dot.count()) > 0) return dot;
    await page.click('[data-testid=step-forward]');
  }
  throw new Error(`no message in flight within ${limit} steps`);
}

test('a slow link set from its menu shows a higher commit latency than the same seed without it', async () => {
  const measure = async (slow) => {
    const app = await openApp();
    const { page } = app;
    try {
      await setSpeedPosition(page);
      const leader = await waitForLeader(page);
      await pause(page);
      if (slow) {
        const followers = (await readNodes(page)).map((node) => node.id).filter((id) => id !== leader.id);
        // Under the 150 ms election timeout, so the leader keeps leading while every write waits longer.
        for (const follower of followers) await slowLink(page, leader.id, follower, [90, 120]);
        const drawn = await page.getAttribute(`[data-testid=link-${[leader.id, followers[0]].sort()[0]}-${[leader.id, followers[0]].sort()[1]}]`, 'class');
        assert.match(drawn, /\btuned\b/, 'a link with its own delay is drawn apart');
      }
      const latency = await writesAndLatency(page, 5);
      if (slow) await app.screenshot('network-1-slow-leader-links');
      assertNoProblems(app);
      return latency;
    } finally {
      await app.close();
    }
  };
  const usual = await measure(false);
  const slowed = await measure(true);
  console.log(`commit latency: ${usual.ms} ms usual, ${slowed.ms} ms with the leader's links at 90–120 ms`);
  assert.ok(slowed.ms >= usual.ms + 100, `slowed ${slowed.ms} ms vs usual ${usual.ms} ms (mean of ${slowed.writes} and ${usual.writes} writes)`);
});

test('the regions preset draws long dashed links with their delay written beside them', async () => {
  for (const [width, height] of [[1440, 900], [1920, 1080]]) {
    const app = await openApp({ width, height });
    const { page } = app;
    try {
      await waitForLeader(page);
      await pause(page);
      await page.click('[data-testid=regions-3]');
      const between = await page.getAttribute('[data-testid=link-n1-n3]', 'class');
      const within = await page.getAttribute('[data-testid=link-n1-n2]', 'class');
      assert.match(between, /\btuned\b/, 'n1 and n3 are in different regions');
      assert.doesNotMatch(within, /\btuned\b/, 'n1 and n2 share a region');
      assert.equal(await page.textContent('[data-testid=link-n1-n3] .link-label'), '40–80 ms');
      const dash = await page.$eval('[data-testid=link-n1-n3] .link-line', (line) => getComputedStyle(line).strokeDasharray);
      assert.notEqual(dash, 'none', 'told apart by its dash, not colour alone');
      assert.match(await page.getAttribute('[data-testid=link-n2-n5]', 'aria-label'), /its own network: 40–80 ms/);
      assert.match(await page.textContent('[data-testid=narration-log]'), /Regions \{n1, n2\} \| \{n3, n4\} \| \{n5\}/);
      await app.screenshot(`network-2-regions-${width}`);
      await page.click('[data-testid=regions-clear]');
      assert.doesNotMatch(await page.getAttribute('[data-testid=link-n1-n3]', 'class'), /\btuned\b/);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  }
});

test('a message in flight can be dropped by keyboard, the narration says what that did, and a share link replays it', async () => {
  const sharer = await openApp({ width: 1920, height: 1080 });
  let fragment;
  let shared;
  try {
    const { page } = sharer;
    await setSpeedPosition(page);
    await waitForLeader(page);
    await pause(page);
    await slowLink(page, 'n2', 'n4', [50, 70]);
    const dot = await messageInFlight(page);
    const id = await dot.getAttribute('data-message-id');
    const label = await dot.getAttribute('aria-label');
    const [, kind, from, to] = /^(.+) from (n\d+) to (n\d+):/.exec(label);
    await dot.focus();
    await page.keyboard.press('Enter');
    const menu = page.locator('[data-testid=message-menu]');
    await menu.waitFor();
    assert.match(await page.textContent('[data-testid=message-detail]'), new RegExp(`${kind} ${from} → ${to}`));
    await sharer.screenshot('network-3-message-menu-1920');
    await menu.locator('[data-testid=message-drop]').click();
    assert.equal(await page.locator(`[data-testid=cluster-view] g.message[data-message-id="${id}"]`).count(), 0, 'the dropped message is gone');
    const log = await page.textContent('[data-testid=narration-log]');
    assert.match(log, new RegExp(`You dropped ${from}'s ${kind} to ${to}; `), log.slice(0, 400));

    // Hold the next one back by touch-sized click, then share.
    const next = await messageInFlight(page);
    await next.dispatchEvent('click');
    await page.locator('[data-testid=message-hold-200]').click();
    assert.match(await page.textContent('[data-testid=narration-log]'), /held .+ back by 200 ms/);
    await sharer.screenshot('network-4-after-drop-and-hold');
    await page.click('[data-testid=share-button]');
    fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], {
      what: 'the link in the address bar',
    });
    shared = { hash: await traceHash(page), nodes: await readNodes(page) };
    assertNoProblems(sharer);
  } finally {
    await sharer.close();
  }

  const viewer = await openApp({ path: `/${fragment}` });
  try {
    const { page } = viewer;
    await waitUntil(async () => (await traceHash(page)) === shared.hash, {
      what: `the opened link to reach trace hash ${shared.hash}`,
    });
    assert.deepEqual(await readNodes(page), shared.nodes);
    assert.match(await page.getAttribute('[data-testid=link-n2-n4]', 'class'), /\btuned\b/, 'the slowed link came along');
    assert.match(await page.textContent('[data-testid=narration-log]'), /You dropped /);
    assertNoProblems(viewer);
  } finally {
    await viewer.close();
  }
});
