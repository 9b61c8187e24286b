// A world's own options in Run settings (issue 13: Paxos's remedy and durable acceptors, PBFT's quorum,
// settable in the browser), and the schedule lane's partition of a chosen group (issue 15), done by
// hand through the visible controls: lesson 11's last step ended by a remedy picked in the settings;
// a PBFT quorum out of range refused by name and an unsafe one marked; fencing switched off in the
// settings making the same pause lose an update; a partition that cuts two nodes off together.
// Screenshots: e2e/screenshots/world-options-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, violatedInvariants, waitUntil } from './support/cluster.mjs';
import { openStepWorld, step, stepResult, waitForStepState } from './support/lesson-steps.mjs';

const option = (table, key) => `[data-testid=world-option-${table}-${key}]`;

async function play(page) {
  if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
}

async function pause(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
}

for (const [width, height] of [[1440, 900], [1920, 1080]]) {
  test(`lesson 11's last step at ${width}x${height}: a remedy chosen in Run settings ends the duel`, async () => {
    const app = await openApp({ width, height, path: '/#/lesson/paxos/step/4' });
    const { page } = app;
    try {
      await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="paxos"]');
      if ((await step(page, 4).locator('[data-testid=open-step-world]').count()) > 0) await openStepWorld(page, 4);
      await waitForStepState(page, 4, 'open', 20_000);
      const remedy = page.locator(option('paxos', 'remedy'));
      await remedy.scrollIntoViewIfNeeded();
      assert.equal(await remedy.inputValue(), 'none', 'the step world has no remedy');
      assert.match(await page.textContent('[data-testid=world-options]'), /backoff waits a random time/);
      assert.match(await page.textContent('[data-testid=settings-no-raft]'), /its own options are below/);
      await remedy.selectOption('backoff');
      await page.click('[data-testid=apply-settings]');
      assert.equal(await page.locator('[data-testid=settings-error]').count(), 0);
      await waitUntil(async () => (await page.locator(option('paxos', 'remedy')).inputValue()) === 'backoff', {
        what: 'the fresh run to keep the remedy',
      });
      await app.screenshot(`world-options-paxos-remedy-${width}`);
      await setSpeedPosition(page);
      await play(page);
      await waitForStepState(page, 4, 'done', 30_000);
      const verdict = await stepResult(page, 4);
      assert.match(verdict, /was chosen in ballot \d+\.[A-Z] after [1-6] ballots?, within the 6 allowed/, verdict);
      await step(page, 4).scrollIntoViewIfNeeded();
      await app.screenshot(`world-options-paxos-done-${width}`);
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('PBFT quorum: out of range refused by name and nothing changes; 3 of 3 applied and shown on the card', async () => {
  const app = await openApp({ width: 1920, height: 1080 });
  const { page } = app;
  try {
    await page.selectOption('[data-testid=protocol-picker]', 'pbft-misconfigured-three.toml');
    const quorum = page.locator(option('pbft', 'quorum'));
    await quorum.scrollIntoViewIfNeeded();
    assert.equal(await quorum.inputValue(), '2');
    const row = page.locator('.world-option', { has: quorum });
    assert.ok(await row.evaluate((element) => element.classList.contains('unsafe-option')), 'the quorum says when it is unsafe');
    const title = await page.textContent('[data-testid=scenario-title]');
    await quorum.fill('99');
    await page.click('[data-testid=apply-settings]');
    assert.equal(await page.textContent('[data-testid=settings-error]'), 'quorum: 99 must be between 0 and 51');
    assert.equal(await page.textContent('[data-testid=scenario-title]'), title, 'a refused value changes nothing');
    await quorum.fill('3');
    await page.click('[data-testid=apply-settings]');
    assert.equal(await page.locator('[data-testid=settings-error]').count(), 0);
    await waitUntil(async () => /quorum 3/i.test(await page.textContent('[data-testid=pbft-panel]')), {
      what: 'the PBFT card to show a quorum of 3',
    });
    await setSpeedPosition(page);
    await play(page);
    await waitUntil(async () => (await simTimeMs(page)) > 2_500, { timeout: 30_000, what: 'the run to pass 2.5 s' });
    assert.ok(!(await violatedInvariants(page)).includes('Honest Agreement'), 'three of three cannot be split');
    await page.locator('[data-testid=world-options]').scrollIntoViewIfNeeded();
    await app.screenshot('world-options-pbft-quorum-1920');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('fencing switched off in Run settings: the same pause now loses an update', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    const fencing = page.locator(option('locks', 'fencing'));
    await fencing.scrollIntoViewIfNeeded();
    assert.equal(await fencing.isChecked(), true);
    await fencing.uncheck();
    await page.click('[data-testid=apply-settings]');
    await waitUntil(async () => !(await page.locator(option('locks', 'fencing')).isChecked()), { what: 'fencing off after the fresh run' });
    await setSpeedPosition(page);
    await play(page);
    await waitUntil(async () => (await violatedInvariants(page)).includes('No Lost Updates'), {
      timeout: 30_000,
      what: 'a lost update without fencing',
    });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('the schedule lane cuts off a chosen group: n1 with n2, healed 800 ms later', async () => {
  const app = await openApp({ width: 1440, height: 900 });
  const { page } = app;
  try {
    await pause(page);
    await page.click('[data-testid=schedule-toggle]');
    await page.waitForSelector('[data-testid=schedule-lane]');
    await page.selectOption('[data-testid=schedule-kind]', 'partition');
    await page.selectOption('[data-testid=schedule-node]', '0');
    const side = page.locator('[data-testid=schedule-partition-side]');
    assert.equal(await side.locator('input[type=checkbox]').count(), 4, 'every other node can join the side');
    await page.check('[data-testid=schedule-side-n2]');
    await page.fill('[data-testid=schedule-at]', '2000');
    await page.fill('[data-testid=schedule-amount]', '800');
    await page.click('[data-testid=schedule-add]');
    const mark = page.locator('[data-testid=schedule-mark].schedule-partition[data-at-ms="2000"][data-end-ms="2800"]');
    await mark.waitFor();
    await page.locator('.schedule-lane-card').scrollIntoViewIfNeeded();
    await app.screenshot('world-options-partition-group-1440');
    const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-toml]')]);
    const text = await readFile(await file.path(), 'utf8');
    assert.match(text, /at_ms = 2000\ndo = "partition"\ngroups = \[\["n1", "n2"\]\]/, text);
    assert.match(text, /at_ms = 2800\ndo = "heal"/);
    // Every node on the side is refused: a partition needs someone on the other side.
    for (const name of ['n2', 'n3', 'n4', 'n5']) await page.check(`[data-testid=schedule-side-${name}]`);
    await page.fill('[data-testid=schedule-at]', '4000');
    await page.click('[data-testid=schedule-add]');
    assert.match(await page.textContent('.notice'), /needs nodes on both sides/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
