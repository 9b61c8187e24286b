// Share keeps how a run was shown (issue 35, item 9): an instructor who prepares a demo at another speed, in
// presenter mode, with the fault schedule open, gets a link that reopens it that way. The view options follow
// the run's payload (`?speed=…&presenter=on&schedule=open`) and change nothing about the run itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, readNodes, simTimeMs, waitUntil } from './support/cluster.mjs';

const traceHash = (page) => page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');
const speedLabel = (page) => page.textContent('[data-testid=speed-label]');
const inPresenterMode = (page) => page.evaluate(() => document.querySelector('[data-testid=app-root]').classList.contains('presenter'));
const scheduleOpen = async (page) => (await page.getAttribute('[data-testid=schedule-toggle]', 'aria-expanded')) === 'true';

test('a link shared at 1920 x 1080 reopens at the sharer speed, in presenter mode, with the schedule open', async () => {
  const sharer = await openApp({ width: 1920, height: 1080 });
  let link;
  let shown;
  try {
    const { page } = sharer;
    // By hand: the speed slider from the keyboard, the schedule's toggle, then the Presenter button.
    await page.focus('input[aria-label="Playback speed"]');
    for (let press = 0; press < 4; press += 1) await page.keyboard.press('PageUp');
    await page.keyboard.press('Escape');
    await page.click('[data-testid=schedule-toggle]');
    await page.click('[data-testid=presenter-toggle]');
    await waitUntil(async () => (await simTimeMs(page)) > 300, { what: 'the run to play a little' });
    await page.click('[data-testid=share-button]');
    link = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], { what: 'the link' });
    shown = { speed: await speedLabel(page), hash: await traceHash(page), time: await simTimeMs(page) };
    assert.notEqual(shown.speed, '0.1× real time', 'the speed was changed from the default');
    assert.match(link, /\?speed=[0-9.]+&presenter=on&schedule=open&engine=\d+&scenario=[0-9a-f]{16}&expect=[0-9a-f]{16}$/,
      'the link names the three view options, then where it was made');
    assertNoProblems(sharer);
  } finally {
    await sharer.close();
  }

  const viewer = await openApp({ width: 1920, height: 1080, path: `/${link}` });
  try {
    const { page } = viewer;
    await waitUntil(async () => (await traceHash(page)) === shown.hash, { what: 'the same run' });
    assert.equal(await simTimeMs(page), shown.time, 'at the shared instant');
    assert.equal(await isPlaying(page), false, 'paused, as every shared run opens');
    assert.equal(await speedLabel(page), shown.speed, 'at the sharer speed');
    assert.equal(await inPresenterMode(page), true, 'in presenter mode');
    assert.equal(await scheduleOpen(page), true, 'with the fault schedule open');
    await viewer.screenshot('share-view-1920-presenter');
    assertNoProblems(viewer);
  } finally {
    await viewer.close();
  }
});

test('a link without view options changes none of them; a bad one is refused by name and changes nothing', async () => {
  const probe = await openApp();
  let plain;
  let title;
  try {
    await probe.page.click('[data-testid=share-button]');
    plain = await waitUntil(async () => new URL(probe.page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], { what: 'a link' });
    assert.match(plain, /^#\/run\/v4\/[\w-]+\?engine=\d+&scenario=[0-9a-f]{16}&expect=[0-9a-f]{16}$/,
      'a fresh page adds no view options, only where the link was made');
    title = await probe.page.textContent('[data-testid=scenario-title]');
  } finally {
    await probe.close();
  }

  const bad = {
    'zoom=2': /view options: `zoom` is not one \(they are speed, presenter, schedule,/,
    'speed=900': /view options: speed 900 is outside/,
    'presenter=yes': /view options: presenter must be `on` or `off`, not `yes`/,
  };
  for (const [query, words] of Object.entries(bad)) {
    const app = await openApp({ path: `/${plain}&${query}` });
    try {
      const notice = app.page.locator('[data-testid=notice].error');
      await notice.waitFor({ timeout: 10_000 });
      assert.match(await notice.textContent(), words, `${query}: says which option is wrong`);
      assert.equal(await inPresenterMode(app.page), false, `${query}: presenter mode untouched`);
      assert.equal(await speedLabel(app.page), '0.1× real time', `${query}: speed untouched`);
      assert.equal(await isPlaying(app.page), true, `${query}: the default run plays on, unreplaced`);
      assert.equal((await readNodes(app.page)).length, 5);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  }

  // Pasted into a tab already in presenter mode, a plain link keeps presenter mode on.
  const tab = await openApp();
  try {
    const { page } = tab;
    await page.click('[data-testid=presenter-toggle]');
    await page.evaluate((fragment) => { window.location.hash = fragment; }, plain);
    await waitUntil(async () => /Opened a shared run/.test((await page.textContent('[data-testid=notice]')) ?? ''), {
      what: 'the pasted link to open',
    });
    assert.equal(await page.textContent('[data-testid=scenario-title]'), title);
    assert.equal(await inPresenterMode(page), true, 'presenter mode stays on');
    assertNoProblems(tab);
  } finally {
    await tab.close();
  }
});

test('a link whose run replays differently says so, naming the version that made it; never silently', async () => {
  const probe = await openApp();
  let link;
  try {
    await waitUntil(async () => (await simTimeMs(probe.page)) > 200, { what: 'a little of the run' });
    await probe.page.click('[data-testid=share-button]');
    link = await waitUntil(async () => new URL(probe.page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], { what: 'a link' });
  } finally {
    await probe.close();
  }
  const expect = /expect=([0-9a-f]{16})/.exec(link)[1];
  const other = expect.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
  const cases = [
    { name: 'as made', link, words: null },
    { name: 'another fingerprint', link: link.replace(expect, other), words: /replays into a different run than the one it recorded \(fingerprint [0-9a-f]{16} there, [0-9a-f]{16} here\): it was changed or damaged/ },
    { name: 'another engine', link: link.replace(/engine=\d+/, 'engine=99').replace(expect, other), words: /made by engine behaviour version 99, and this version \(\d+\) replays it into a different run/ },
  ];
  for (const { name, link: address, words } of cases) {
    const app = await openApp({ path: `/${address}` });
    try {
      const notice = app.page.locator('[data-testid=notice]');
      await waitUntil(async () => /Opened a shared run/.test((await notice.textContent().catch(() => '')) ?? ''), { what: `${name}: the run to open` });
      const text = await notice.textContent();
      if (words) {
        assert.match(text, words, `${name}: says how the run differs`);
        assert.match(text, /not exactly what was shared/);
        assert.equal(await app.page.locator('[data-testid=notice].error').count(), 1, `${name}: shown as a warning`);
      } else {
        assert.doesNotMatch(text, /different run/, `${name}: the same run, nothing to say`);
        assert.equal(await traceHash(app.page), expect, 'the fingerprint the link recorded');
      }
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  }
});
