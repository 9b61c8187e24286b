// Compare mode in lockstep (issue 15): a single step advances both sides on one clock, changing the compared option keeps the moment shown,
// the side column's panels show either side behind an obvious switch, and opening and closing compare
// mode twenty times frees each right side (the count of live right sides comes back to zero).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, simTimeMs, waitUntil } from './support/cluster.mjs';

const side = (name) => `[data-testid=compare-${name}]`;
const sideHash = (page, name) => page.getAttribute(`${side(name)} [data-testid=side-trace-hash]`, 'data-trace-hash');
const caption = (page, name) => page.textContent(`${side(name)} [data-testid=narration-caption]`);
async function pause(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
  assert.equal(await isPlaying(page), false);
}

test('a single step moves both sides to the next instant either has, each caption saying what it did', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  try {
    const { page } = app;
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    await pause(page);
    await page.selectOption('[data-testid=compare-picker]', 'fencing');
    await page.waitForSelector('[data-testid=compare-stage]');
    let quietSides = 0;
    let last = await simTimeMs(page);
    for (let index = 0; index < 12; index += 1) {
      const before = [await sideHash(page, 'left'), await sideHash(page, 'right')];
      await page.click('[data-testid=step-forward]');
      await waitUntil(
        async () => (await sideHash(page, 'left')) !== before[0] || (await sideHash(page, 'right')) !== before[1],
        { what: 'a step to change one side' },
      );
      const [leftWords, rightWords] = [await caption(page, 'left'), await caption(page, 'right')];
      assert.match(leftWords, /^Step: /, leftWords);
      assert.match(rightWords, /^Step: /, rightWords);
      quietSides += [leftWords, rightWords].filter((words) => /nothing happened on this side/.test(words)).length;
      const now = await simTimeMs(page);
      assert.ok(now >= last, 'a step never moves the shared clock back');
      last = now;
    }
    assert.equal(await isPlaying(page), false);
    console.log(`# steps where one side had nothing to do: ${quietSides} of 12`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('changing the compared option keeps the moment shown on both sides', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  try {
    const { page } = app;
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    await waitUntil(async () => (await simTimeMs(page)) > 300, { what: 'the run to play a little' });
    await pause(page);
    const at = await simTimeMs(page);
    const leftHash = await page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');
    await page.selectOption('[data-testid=compare-picker]', 'fencing');
    await page.waitForSelector('[data-testid=compare-stage]');
    assert.equal(await simTimeMs(page), at, 'the comparison opens at the moment shown');
    assert.equal(await sideHash(page, 'left'), leftHash, 'the left run is the run that was shown');
    assert.match(await page.textContent('[data-testid=notice]'), /Compared from .*same actions to this moment/);
    const fencingOff = await sideHash(page, 'right');
    await page.selectOption('[data-testid=compare-picker]', 'redlock');
    await waitUntil(async () => /Redlock/.test(await page.textContent(`${side('right')} .compare-side-title`)), {
      what: 'the right side to become Redlock',
    });
    assert.equal(await simTimeMs(page), at, 'a second option keeps the moment too');
    assert.equal(await sideHash(page, 'left'), leftHash);
    assert.notEqual(await sideHash(page, 'right'), fencingOff);
    const prompt = await page.$eval('[data-testid=compare-picker] option[value=""]', (option) => option.textContent);
    assert.match(prompt, /Compare: fencing \+ redlock/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('the side column shows either run behind a switch, legible at 1920 and 1440', async () => {
  const app = await openApp({ width: 1920, height: 1080 });
  try {
    const { page } = app;
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    await page.selectOption('[data-testid=compare-picker]', 'fencing');
    await page.waitForSelector('[data-testid=details-switch]');
    assert.equal(await page.getAttribute('[data-testid=details-panels]', 'data-side'), 'left');
    await page.click('[data-testid=details-right]');
    assert.equal(await page.getAttribute('[data-testid=details-panels]', 'data-side'), 'right');
    assert.equal(await page.getAttribute('[data-testid=details-right]', 'aria-pressed'), 'true');
    assert.match(await page.textContent('[data-testid=details-right]'), /fencing off/);
    await pause(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.screenshot('compare-details-right-1920');
    await page.setViewportSize({ width: 1440, height: 900 });
    await app.screenshot('compare-details-right-1440');
    await page.click('[data-testid=details-left]');
    assert.equal(await page.getAttribute('[data-testid=details-panels]', 'data-side'), 'left');
    await page.click('[data-testid=compare-end]');
    assert.equal(await page.locator('[data-testid=details-switch]').count(), 0);
    assert.equal(await page.getAttribute('[data-testid=details-panels]', 'data-side'), 'left');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('opening and closing compare mode twenty times frees every right side', async (t) => {
  const app = await openApp();
  try {
    const { page } = app;
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    const alive = () => page.getAttribute('.compare-picker', 'data-right-sides-alive');
    const heap = () => page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
    const heapAtStart = await heap();
    const aliveWhileOpen = [];
    for (let round = 0; round < 20; round += 1) {
      await page.selectOption('[data-testid=compare-picker]', 'fencing');
      await page.waitForSelector('[data-testid=compare-stage]');
      aliveWhileOpen.push(Number(await alive()));
      await page.click('[data-testid=compare-end]');
      await page.waitForSelector('[data-testid=compare-stage]', { state: 'detached' });
    }
    await waitUntil(async () => (await alive()) === '0', { what: 'every right side to be freed' });
    const heapAtEnd = await heap();
    t.diagnostic(`live right sides while open: ${aliveWhileOpen.join(',')}; after 20 closes: ${await alive()}`);
    t.diagnostic(`JS heap: ${(heapAtStart / 1e6).toFixed(1)} MB before, ${(heapAtEnd / 1e6).toFixed(1)} MB after 20 rounds`);
    assert.ok(aliveWhileOpen.every((count) => count <= 2), `at most the new side and one being freed: ${aliveWhileOpen}`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a fault placed in the schedule lane while comparing lands on both sides at the same instant', async () => {
  const app = await openApp({ width: 1920, height: 1080, path: '/#/gallery/leader-crash/demo' });
  try {
    const { page } = app;
    await page.waitForSelector('[data-testid=schedule-mark]');
    await pause(page);
    await page.selectOption('[data-testid=compare-picker]', 'pre-vote');
    await page.waitForSelector('[data-testid=compare-stage]');
    const marksBefore = await page.locator('[data-testid=schedule-mark]').count();
    // Crash n4 at 0.6 s, from the lane's form (the demo's own faults stay where they were).
    await page.selectOption('[data-testid=schedule-kind]', 'crash');
    await page.selectOption('[data-testid=schedule-node]', '3');
    await page.fill('[data-testid=schedule-at]', '600');
    await page.click('[data-testid=schedule-add]');
    await page.waitForSelector('[data-testid=schedule-mark][data-at-ms="600"]');
    assert.equal(await page.locator('[data-testid=schedule-error]').count(), 0);
    assert.equal(await page.locator('[data-testid=schedule-mark]').count(), marksBefore + 1);
    await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await simTimeMs(page)) > 800, { timeout: 20_000, what: 'the run to pass 0.8 s' });
    await pause(page);
    for (const name of ['left', 'right']) {
      const down = await page.locator(`${side(name)} [data-testid=cluster-view] [data-testid=node-n4].status-crashed`).count();
      assert.equal(down, 1, `n4 is down on the ${name} side`);
    }
    await app.screenshot('compare-schedule-both-sides-1920');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
