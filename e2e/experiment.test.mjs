// Experiments in the browser (issue 37): opened from the gallery and from a lesson step, run in the
// page's background worker with progress and Cancel, the result equal to the native engine's
// (tests/fixtures/experiment-randomness-20.json, which tests/native_experiment.rs checks natively),
// a trial reopened on the cluster just before its crash, bad values refused by name, a slow disk
// given and taken back from a node's menu, and the worker loading under a sub-folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openApp, REPO_ROOT } from './support/browser.mjs';
import { assertNoProblems, simTimeMs, waitUntil } from './support/cluster.mjs';

const SHEET = '[data-testid=experiment]';

async function setField(page, testId, value) {
  await page.fill(`[data-testid=${testId}]`, String(value));
  await page.press(`[data-testid=${testId}]`, 'Tab');
}

/** Runs the form as it stands and waits for the result table (the worker's own time is generous). */
async function runAndWait(page, timeout = 120_000) {
  await page.click('[data-testid=experiment-run]');
  await page.waitForSelector('[data-testid=experiment-result]', { timeout });
}

async function download(page, testId) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testId}]`)]);
  return readFile(await file.path(), 'utf8');
}

test('from the gallery: the randomness experiment runs in the worker and equals the native result', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await page.click('[data-testid=gallery-button]');
    await page.locator('[data-testid=gallery-experiment]', { hasText: '5 ms or 50 ms' }).click();
    await page.waitForSelector(SHEET);
    assert.equal(new URL(page.url()).hash, '#/experiment/randomness');
    assert.match(await page.textContent('[data-testid=experiment-question]'), /5 ms and with 50 ms/);
    await setField(page, 'experiment-trials', 20);
    assert.equal((await page.textContent('[data-testid=experiment-run]')).trim(), 'Run 40 trials');
    await runAndWait(page);
    assert.match(await page.textContent('[data-testid=experiment-said]'), /^40 trials ran in [\d.]+ s/);
    assert.equal(await page.locator('[data-testid=experiment-line]').count(), 2);
    const medians = await page.$$eval('[data-testid=experiment-median]', (cells) => cells.map((cell) => cell.textContent));
    const ms = (text) => (text.endsWith(' s') ? parseFloat(text) * 1000 : parseFloat(text));
    assert.ok(ms(medians[0]) > 2 * ms(medians[1]), `5 ms of randomness is slower: ${medians}`);

    // The wasm worker's rows are the native engine's, byte for byte.
    const fromBrowser = await download(page, 'experiment-json');
    const native = await readFile(join(REPO_ROOT, 'tests', 'fixtures', 'experiment-randomness-20.json'), 'utf8');
    assert.equal(fromBrowser, native.trimEnd());
    const csv = await download(page, 'experiment-csv');
    assert.equal(csv.trim().split('\n').length, 41);

    // The worst trial of 150-155 opens on the cluster, paused just before its crash.
    await page.locator('[data-testid=experiment-open-worst]').first().click();
    await page.waitForSelector(SHEET, { state: 'detached' });
    const notice = await page.textContent('[data-testid=notice]');
    const crashAt = /The leader crashes at ([\d.]+) s/.exec(notice);
    assert.ok(crashAt, notice);
    assert.match(await page.textContent('[data-testid=scenario-title]'), /150-155 · trial \d+/);
    const now = await simTimeMs(page);
    assert.ok(Math.abs(now - (parseFloat(crashAt[1]) * 1000 - 200)) < 60, `opened at ${now} ms, 200 ms before ${crashAt[1]} s`);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('Cancel stops a long experiment at once; bad values are refused by name and change nothing', async () => {
  const app = await openApp({ path: '/#/experiment/figure16-top' });
  const { page } = app;
  try {
    await page.waitForSelector(SHEET);
    assert.equal((await page.textContent('[data-testid=experiment-run]')).trim(), 'Run 5000 trials');
    await page.click('[data-testid=experiment-run]');
    await page.waitForSelector('[data-testid=experiment-cancel]');
    await waitUntil(async () => (await page.getAttribute('[data-testid=experiment-progress]', 'max').catch(() => null)) === '5000', {
      timeout: 30_000,
      what: 'the worker to start the 5000 trials',
    });
    await page.click('[data-testid=experiment-cancel]');
    assert.match(await page.textContent('[data-testid=experiment-said]'), /^Cancelled after \d+ of 5000 trials/);
    assert.equal(await page.locator('[data-testid=experiment-result]').count(), 0);
    assert.equal(await page.locator('[data-testid=experiment-run]').count(), 1);

    await page.fill('[data-testid=experiment-values]', '150-155, 150-x');
    await page.press('[data-testid=experiment-values]', 'Tab');
    await page.click('[data-testid=experiment-run]');
    assert.match(await page.textContent('[data-testid=experiment-said]'), /“150-x” is not a value/);
    await setField(page, 'experiment-values', '150-155');
    await setField(page, 'experiment-trials', 0);
    await page.click('[data-testid=experiment-run]');
    assert.match(await page.textContent('[data-testid=experiment-said]'), /trials per value: 1 to 10000/);
    await setField(page, 'experiment-trials', 1000);
    assert.equal((await page.textContent('[data-testid=experiment-run]')).trim(), 'Run 1000 trials');
    await page.goto(`${app.url}/#/experiment/figure17`);
    await page.waitForSelector('[data-testid=notice]');
    assert.match(await page.textContent('[data-testid=notice]'), /no experiment is called `figure17`/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a lesson step opens its experiment over the lesson, which stays open', async () => {
  const app = await openApp({ path: '/#/lesson/leader-election/step/6' });
  const { page } = app;
  try {
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id=leader-election]');
    const link = page.locator('[data-testid=lesson-experiment-link]');
    await waitUntil(async () => (await link.count()) > 0, { what: 'the experiment link in step 6', timeout: 15_000 });
    await link.first().scrollIntoViewIfNeeded();
    await link.first().click();
    await page.waitForSelector(SHEET);
    assert.equal(await page.inputValue('[data-testid=experiment-preset]'), 'randomness');
    await page.click('[data-testid=experiment-close]');
    await page.waitForSelector(SHEET, { state: 'detached' });
    assert.equal(await page.locator('[data-testid=lesson-panel][data-lesson-id=leader-election]').count(), 1);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a slow disk is given from the node menu, shown above the node, narrated, and taken back', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await page.click('[data-testid=cluster-view] [data-testid=node-n2] .node-body');
    await page.waitForSelector('[data-testid=node-popover]');
    await page.click('[data-testid=node-popover] button[aria-label^="Slow disk 1 s, n2"]');
    await waitUntil(async () => /disk 1 s/.test((await page.textContent('[data-testid=node-n2] .node-clock')) ?? ''), {
      what: 'the disk badge above n2',
    });
    assert.match(await page.getAttribute('[data-testid=node-n2]', 'aria-label'), /disk 1 s/);
    assert.match(await page.textContent('[data-testid=narration-log]'), /disk/i);
    await page.click('[data-testid=cluster-view] [data-testid=node-n2] .node-body');
    await page.waitForSelector('[data-testid=node-popover]');
    await page.click('[data-testid=node-popover] button[aria-label^="Normal disk, n2"]');
    await waitUntil(async () => !/disk/.test((await page.textContent('[data-testid=node-n2] .node-clock')) ?? ''), {
      what: 'the disk badge to go',
    });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('under a sub-folder the worker loads beside the page and runs', async () => {
  const app = await openApp({ prefix: '/courses/ql/', path: '/#/experiment/randomness' });
  const { page } = app;
  const outside = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!request.url().startsWith('data:') && !request.url().startsWith('blob:') && !path.startsWith('/courses/ql/')) outside.push(path);
  });
  try {
    await page.waitForSelector(SHEET);
    await setField(page, 'experiment-trials', 5);
    await runAndWait(page);
    assert.deepEqual(outside, []);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('messages per commit: a count on a linear axis, equal to the native result', async () => {
  const app = await openApp({ path: '/#/experiment/messages-per-commit' });
  const { page } = app;
  try {
    await page.waitForSelector(SHEET);
    assert.equal(await page.inputValue('[data-testid=experiment-measure]'), 'messages_per_commit');
    await setField(page, 'experiment-trials', 20);
    await runAndWait(page);
    assert.equal(await page.locator('[data-testid=experiment-line]').count(), 3);
    assert.match(await page.textContent('[data-testid=experiment-axis-name]'), /messages per committed entry/);
    const medians = await page.$$eval('[data-testid=experiment-median]', (cells) => cells.map((cell) => cell.textContent));
    for (const median of medians) assert.match(median, /^\d+\.\d$/, `a count, not a time: ${medians}`);
    const ticks = await page.$$eval('.experiment-tick', (spans) => spans.map((span) => span.textContent));
    assert.ok(ticks.length >= 2 && ticks.every((tick) => /^\d+(\.\d+)?$/.test(tick)), `count ticks: ${ticks}`);
    const steps = ticks.map(Number).slice(1).map((tick, index) => tick - Number(ticks[index]));
    assert.ok(steps.every((step) => Math.abs(step - steps[0]) < 1e-9), `a linear axis: ${ticks}`);

    const fromBrowser = await download(page, 'experiment-json');
    const native = await readFile(join(REPO_ROOT, 'tests', 'fixtures', 'experiment-messages-20.json'), 'utf8');
    assert.equal(fromBrowser, native.trimEnd());
    const csv = await download(page, 'experiment-csv');
    assert.match(csv, /^heartbeat_ms,seed,from_ms,outcome,measured_count\n/);

    await page.locator('[data-testid=experiment-open-median]').first().click();
    await page.waitForSelector(SHEET, { state: 'detached' });
    assert.match(await page.textContent('[data-testid=notice]'), /The writes are sent at [\d.]+ m?s; .* messages per committed write/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('pausing the leader and a lesson checkpoint are measured; an unknown checkpoint is refused by name', async () => {
  const app = await openApp({ path: '/#/experiment/pause-leader' });
  const { page } = app;
  try {
    await page.waitForSelector(SHEET);
    assert.equal(await page.inputValue('[data-testid=experiment-measure]'), 'pause_leader');
    await setField(page, 'experiment-trials', 10);
    await runAndWait(page);
    assert.match(await page.textContent('[data-testid=experiment-result] h3'), /from pausing the leader to a new leader/);
    await page.locator('[data-testid=experiment-open-worst]').last().click();
    await page.waitForSelector(SHEET, { state: 'detached' });
    assert.match(await page.textContent('[data-testid=notice]'), /The leader is paused at [\d.]+ m?s; a new leader took/);

    await page.goto(`${app.url}/#/experiment/split-vote`);
    await page.waitForSelector(SHEET);
    assert.equal(await page.inputValue('[data-testid=experiment-checkpoint]'), 'split_vote');
    await setField(page, 'experiment-checkpoint', 'leader_chnaged');
    await setField(page, 'experiment-trials', 5);
    await page.click('[data-testid=experiment-run]');
    await waitUntil(async () => /unknown checkpoint/.test((await page.textContent('[data-testid=experiment-said]')) ?? ''), {
      what: 'the unknown checkpoint to be refused',
    });
    assert.match(await page.textContent('[data-testid=experiment-said]'), /leader_changed, term_at_least/);
    await setField(page, 'experiment-checkpoint', 'term_at_least(1)');
    await runAndWait(page);
    assert.match(await page.textContent('[data-testid=experiment-result] h3'), /checkpoint term_at_least\(1\) ticks/);
    assert.equal(await page.locator('[data-testid=experiment-line]').count(), 3);
    await page.locator('[data-testid=experiment-open-median]').first().click();
    await page.waitForSelector(SHEET, { state: 'detached' });
    assert.match(await page.textContent('[data-testid=notice]'), /term_at_least\(1\) ticked at [\d.]+ m?s/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
