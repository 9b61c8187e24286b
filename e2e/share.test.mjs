// Share links (issue 4): "Opening it replays to the same state exactly. Bad or tampered URLs show a clear
// message and fall back to the default scenario." Two pages agree on the run when their trace hashes do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import {
  assertNoProblems,
  isPlaying,
  readNodes,
  sendWrite,
  setSpeedPosition,
  simTimeMs,
  waitForLeader,
  waitUntil,
} from './support/cluster.mjs';

const traceHash = (page) => page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');

test('a share link reopens the same run, paused at the same moment, with the same trace hash', async (t) => {
  const sharer = await openApp();
  let fragment;
  let shared;
  try {
    const { page } = sharer;
    if ((await page.locator('[data-testid=share-button]').count()) === 0) {
      t.skip('no Share button in this build yet');
      return;
    }
    await setSpeedPosition(page);
    const first = await waitForLeader(page);
    await page.keyboard.press('k');
    await waitForLeader(page, { aboveTerm: first.term });
    await sendWrite(page, 'leader');
    await waitUntil(async () => (await page.locator('[data-testid=request-list] li.outcome-committed').count()) > 0, {
      what: 'the write to commit',
    });
    await page.click('[data-testid=share-button]');
    assert.equal(await isPlaying(page), false, 'sharing pauses at the shared instant');
    fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], {
      what: 'the link in the address bar',
    });
    shared = {
      hash: await traceHash(page),
      time: await simTimeMs(page),
      nodes: await readNodes(page),
      title: await page.textContent('[data-testid=scenario-title]'),
      log: await page.textContent('[data-testid=log-strips]'),
    };
    assert.match(shared.hash, /^[0-9a-f]{16}$/);
    await sharer.screenshot('share-1-sharer');
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
    assert.equal(await isPlaying(page), false, 'the link opens paused');
    assert.equal(await simTimeMs(page), shared.time, 'at the shared instant');
    assert.deepEqual(await readNodes(page), shared.nodes, 'every node drawn as the sharer saw it');
    assert.equal(await page.textContent('[data-testid=scenario-title]'), shared.title);
    assert.equal(await page.textContent('[data-testid=log-strips]'), shared.log, 'the same logs');
    assert.match(await page.textContent('[data-testid=notice]'), /Opened a shared run/);
    await viewer.screenshot('share-2-viewer');

    // Playing on from a shared run works like any other run.
    await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await simTimeMs(page)) > shared.time, { what: 'the opened run to play on' });
    assertNoProblems(viewer);
  } finally {
    await viewer.close();
  }
});

test('a tampered or truncated share link says so and falls back to the default scenario', async (t) => {
  const probe = await openApp();
  let fragment;
  let defaultTitle;
  try {
    if ((await probe.page.locator('[data-testid=share-button]').count()) === 0) {
      t.skip('no Share button in this build yet');
      return;
    }
    await probe.page.click('[data-testid=share-button]');
    fragment = await waitUntil(async () => new URL(probe.page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], {
      what: 'a link to tamper with',
    });
    defaultTitle = await probe.page.textContent('[data-testid=scenario-title]');
  } finally {
    await probe.close();
  }
  const middle = Math.floor(fragment.length / 2);
  const flipped = fragment[middle] === 'A' ? 'B' : 'A';
  const broken = {
    tampered: fragment.slice(0, middle) + flipped + fragment.slice(middle + 1),
    truncated: fragment.slice(0, middle),
    'unknown version': fragment.replace("/v4/", "/v9/"),
  };
  for (const [kind, bad] of Object.entries(broken)) {
    const app = await openApp({ path: `/${bad}` });
    try {
      const notice = app.page.locator('[data-testid=notice].error');
      await notice.waitFor({ timeout: 5_000 });
      assert.match(await notice.textContent(), /could not be opened/, `${kind}: a clear message`);
      assert.equal(await app.page.textContent('[data-testid=scenario-title]'), defaultTitle, `${kind}: default scenario`);
      assert.equal((await readNodes(app.page)).length, 5);
      if (kind === 'tampered') await app.screenshot('share-3-tampered-link');
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  }
});
