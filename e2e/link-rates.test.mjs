// The network per link (issue 15): a drop rate and a duplicate rate typed into one link's menu. Stepping
// the run event by event, the messages drawn in flight on that link are lost (drawn as lost) and sent
// twice (two dots with consecutive ids, same kind and ends), and on no other link; the narration names
// the setting; a share link made afterwards reopens on the same run with the link menu holding the rates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, readNodes, setSpeedPosition, waitForLeader, waitUntil } from './support/cluster.mjs';

const traceHash = (page) => page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');
const byNumber = (a, b) => Number(a.slice(1)) - Number(b.slice(1));
const linkKey = (one, other) => [one, other].sort(byNumber).join('-');

async function pause(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
  assert.equal(await isPlaying(page), false);
}

/** Opens the menu of the link between `low` and `high` by keyboard, as the existing link tests do. */
async function openLinkMenu(page, key) {
  await page.locator(`[data-testid=link-${key}]`).focus();
  await page.keyboard.press('Enter');
  const menu = page.locator('[data-testid=link-menu]');
  await menu.waitFor();
  return menu;
}

/** Every message dot drawn now: id, kind, ends, and whether it is drawn as lost. */
async function messagesDrawn(page) {
  return page.$$eval('[data-testid=cluster-view] g.message[data-message-id]', (dots) =>
    dots.map((dot) => {
      const [, kind, from, to] = /^(.+) from (n\d+) to (n\d+)/.exec(dot.getAttribute('aria-label')) ?? [];
      return { id: Number(dot.dataset.messageId), kind, from, to, dropped: dot.classList.contains('dropped') };
    }),
  );
}

/** Steps `steps` events, noting every message seen in flight (each is in flight for at least one step). */
async function watchMessages(page, steps) {
  const seen = new Map();
  for (let step = 0; step < steps; step += 1) {
    for (const message of await messagesDrawn(page)) if (!seen.has(message.id)) seen.set(message.id, message);
    await page.click('[data-testid=step-forward]');
  }
  return [...seen.values()].sort((a, b) => a.id - b.id);
}

/** Per link: messages seen, how many were lost, and how many were the second copy of the one before. */
function tally(messages) {
  const links = new Map();
  const entry = (key) => links.get(key) ?? links.set(key, { sent: 0, dropped: 0, copies: 0 }).get(key);
  const byId = new Map(messages.map((message) => [message.id, message]));
  for (const message of messages) {
    const link = entry(linkKey(message.from, message.to));
    link.sent += 1;
    link.dropped += Number(message.dropped);
    const before = byId.get(message.id - 1);
    if (before && before.kind === message.kind && before.from === message.from && before.to === message.to) link.copies += 1;
  }
  return Object.fromEntries([...links.entries()].sort());
}

test('a link with its own drop and duplicate rates loses and doubles messages on it alone, and a share link keeps the rates', async () => {
  let fragment;
  let shared;
  const app = await openApp({ width: 1440, height: 900 });
  try {
    const { page } = app;
    await setSpeedPosition(page);
    const leader = await waitForLeader(page);
    await pause(page);
    const follower = (await readNodes(page)).map((node) => node.id).find((id) => id !== leader.id);
    const key = linkKey(leader.id, follower);

    const menu = await openLinkMenu(page, key);
    assert.equal(await menu.locator('[data-testid=link-drop]').inputValue(), '0', 'the run itself drops nothing');
    assert.equal(await menu.locator('[data-testid=link-duplicate]').inputValue(), '0', 'nor duplicates');
    await menu.locator('[data-testid=link-drop]').fill('40');
    await menu.locator('[data-testid=link-duplicate]').fill('50');
    await menu.locator('[data-testid=link-apply]').click();
    assert.equal(await menu.count(), 0, 'applying closes the menu');
    const [low, high] = key.split('-');
    assert.match(await page.getAttribute(`[data-testid=link-${key}]`, 'aria-label'), /its own network: drops 40%, duplicates 50%/);
    assert.match(await page.getAttribute(`[data-testid=link-${key}]`, 'class'), /\btuned\b/);
    assert.match(await page.textContent('[data-testid=narration-log]'), new RegExp(`Link ${low} ↔ ${high}: drops 40%, duplicates 50%`));

    const seen = await watchMessages(page, 220);
    const links = tally(seen);
    console.log(`# per link after 220 steps: ${JSON.stringify(links)}`);
    const tuned = links[key];
    assert.ok(tuned && tuned.sent >= 20, `enough traffic on ${key}: ${JSON.stringify(tuned)}`);
    const originals = tuned.sent - tuned.copies;
    assert.ok(tuned.dropped >= 0.15 * tuned.sent && tuned.dropped <= 0.65 * tuned.sent, `about 40% lost on ${key}: ${JSON.stringify(tuned)}`);
    assert.ok(tuned.copies >= 0.25 * originals && tuned.copies <= 0.75 * originals, `about half sent twice on ${key}: ${JSON.stringify(tuned)}`);
    const others = Object.entries(links).filter(([other]) => other !== key);
    assert.ok(others.reduce((sum, [, link]) => sum + link.sent, 0) >= 20, 'the other links carried messages too');
    for (const [other, link] of others) {
      assert.deepEqual({ dropped: link.dropped, copies: link.copies }, { dropped: 0, copies: 0 }, `link ${other} keeps the run's network`);
    }
    await app.screenshot('link-rates-1-after-steps');

    await page.click('[data-testid=share-button]');
    fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], { what: 'the link in the address bar' });
    shared = { hash: await traceHash(page), key };
    assertNoProblems(app);
  } finally {
    await app.close();
  }

  const viewer = await openApp({ width: 1440, height: 900, path: `/${fragment}` });
  try {
    const { page } = viewer;
    await waitUntil(async () => (await traceHash(page)) === shared.hash, { what: `the shared run to reach ${shared.hash}` });
    await pause(page);
    assert.match(await page.getAttribute(`[data-testid=link-${shared.key}]`, 'aria-label'), /its own network: drops 40%, duplicates 50%/);
    const menu = await openLinkMenu(page, shared.key);
    assert.equal(await menu.locator('[data-testid=link-drop]').inputValue(), '40', 'the drop rate came along');
    assert.equal(await menu.locator('[data-testid=link-duplicate]').inputValue(), '50', 'the duplicate rate came along');
    assert.equal(await menu.locator('[data-testid=link-clear]').isDisabled(), false, 'the link has settings of its own to clear');
    await viewer.screenshot('link-rates-2-shared-menu');
    // Another link still follows the run's network.
    const other = (await readNodes(page)).map((node) => node.id).filter((id) => !shared.key.split('-').includes(id)).slice(0, 2);
    await menu.getByRole('button', { name: 'Close' }).click();
    const plain = await openLinkMenu(page, linkKey(...other));
    assert.equal(await plain.locator('[data-testid=link-drop]').inputValue(), '0');
    assert.equal(await plain.locator('[data-testid=link-duplicate]').inputValue(), '0');
    assertNoProblems(viewer);
  } finally {
    await viewer.close();
  }
});
