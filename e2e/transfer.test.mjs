// Export and import (issue 4): "the scenario as TOML (the same format the headless runner reads) and the
// trace as JSON lines; import validates and reports errors precisely." A run and its re-import agree
// when their fingerprints (trace hashes) do; a bad file leaves the run exactly as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, waitForLeader, waitUntil } from './support/cluster.mjs';

const traceHash = (page) => page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');

async function scrubTo(page, ms) {
  await page.locator('[data-testid=scrubber]').fill(String(ms * 1_000));
  await page.evaluate(() => document.activeElement?.blur());
  await waitUntil(async () => (await simTimeMs(page)) === ms, { what: `the timeline at ${ms} ms` });
}

/** Plays at top speed until the run has reached `ms`, then pauses there. */
async function playPast(page, ms) {
  await setSpeedPosition(page);
  if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
  await waitUntil(async () => (await simTimeMs(page)) > ms, { timeout: 20_000, what: `the run to pass ${ms} ms` });
  await page.click('[data-testid=play-toggle]');
  await page.evaluate(() => document.activeElement?.blur());
}

/** Clicks an export button and returns the downloaded file's name and text. */
async function download(page, testId) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testId}]`)]);
  return { name: file.suggestedFilename(), path: await file.path(), text: await readFile(await file.path(), 'utf8') };
}

async function importPasted(page, text) {
  await page.fill('[data-testid=import-text]', text);
  await page.click('[data-testid=import-button]');
}

test('a TOML export re-imports to the same run: same fingerprint at the same moment', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await playPast(page, 1_500);
    // An action at a whole millisecond is one a scenario step can hold exactly.
    await scrubTo(page, 1_200);
    await page.keyboard.press('k');
    await playPast(page, 2_600);
    await scrubTo(page, 2_500);
    const original = await traceHash(page);

    const exported = await download(page, 'export-toml');
    assert.match(exported.name, /\.toml$/);
    assert.match(exported.text, /\[\[step\]\]\nat_ms = 1200\ndo = "crash"\ntarget = "leader"/, 'the crash is a step');

    await page.setInputFiles('[data-testid=import-file]', exported.path);
    await waitUntil(async () => /Imported/.test((await page.textContent('[data-testid=notice]')) ?? ''), {
      what: 'the import notice',
    });
    assert.equal(await simTimeMs(page), 0, 'an imported scenario starts from the beginning');
    await playPast(page, 2_600);
    await scrubTo(page, 2_500);
    assert.equal(await traceHash(page), original, 'the imported scenario reaches the same fingerprint');

    // The comparison can tell runs apart: the same file without the crash is another run.
    await importPasted(page, exported.text.replace(/\n\[\[step\]\]\nat_ms = 1200\ndo = "crash"\ntarget = "leader"\n/, '\n'));
    await playPast(page, 2_600);
    await scrubTo(page, 2_500);
    assert.notEqual(await traceHash(page), original, 'without the crash the fingerprint differs');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a trace export re-imports to the exact run, and a bad trace file changes nothing', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await setSpeedPosition(page);
    const first = await waitForLeader(page);
    await page.keyboard.press('k'); // at whatever microsecond the frame reached: only a trace is exact
    await waitForLeader(page, { aboveTerm: first.term });

    const exported = await download(page, 'export-trace');
    assert.equal(await isPlaying(page), false, 'exporting settles the instant it records');
    const hash = await traceHash(page);
    const time = await simTimeMs(page);
    assert.match(exported.name, /-trace\.jsonl$/);
    const lines = exported.text.trimEnd().split('\n').map((line) => JSON.parse(line));
    assert.equal(lines[0].kind, 'header');
    assert.equal(lines[0].version, 3);
    const crash = lines.find((line) => line.kind === 'action' && line.action.do === 'crash');
    assert.ok(crash && crash.action.target === 'leader', 'the crash is an action line');
    assert.equal(lines.at(-1).kind, 'end');
    assert.equal(lines.at(-1).trace_hash, hash, 'the file records the fingerprint shown');
    await app.screenshot('transfer-1-exported');

    // Move on, then open the file: back to the exported instant with the same fingerprint.
    await playPast(page, time + 800);
    assert.notEqual(await traceHash(page), hash);
    await page.setInputFiles('[data-testid=import-file]', exported.path);
    await waitUntil(async () => (await traceHash(page)) === hash, { what: `the imported trace to reach ${hash}` });
    assert.equal(await simTimeMs(page), time, 'the import stops where the export was made');
    assert.match(await page.textContent('[data-testid=notice]'), /Opened trace/);

    // A broken file: the error names the line and the field, and the run is untouched.
    await playPast(page, time + 500);
    const before = { hash: await traceHash(page), time: await simTimeMs(page) };
    const crashLine = exported.text.split('\n').findIndex((line) => line.includes('"do":"crash"')) + 1;
    await importPasted(page, exported.text.replace('"do":"crash"', '"do":"smash"'));
    const error = await page.textContent('[data-testid=import-error]');
    assert.match(error, new RegExp(`line ${crashLine}, \`do\``), error);
    assert.match(error, /smash/);
    await app.screenshot('transfer-2-bad-trace');
    assert.deepEqual({ hash: await traceHash(page), time: await simTimeMs(page) }, before, 'the run is untouched');

    // An edited action that still parses replays to another run: refused by the fingerprint check.
    const edited = exported.text.replace('"target":"leader"', '"target":"n1"');
    await importPasted(page, edited);
    await waitUntil(async () => /recorded run/.test(await page.textContent('[data-testid=import-error]')), {
      what: 'the fingerprint error',
    });
    assert.deepEqual({ hash: await traceHash(page), time: await simTimeMs(page) }, before, 'still untouched');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
