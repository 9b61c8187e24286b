// Compare mode's "Export both traces" (issue 15): one press saves two trace files, the left run's and the
// right run's, each carrying its own scenario (fencing on, fencing off) and ending on the fingerprint its
// side shows; opened from the Import box of a fresh page, each replays to that very run at that instant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, waitUntil } from './support/cluster.mjs';

const side = (name) => `[data-testid=compare-${name}]`;
const sideHash = (page, name) => page.getAttribute(`${side(name)} [data-testid=side-trace-hash]`, 'data-trace-hash');
const traceHash = (page) => page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');

/** A trace file's header scenario (TOML text), its end record, and how many actions it holds. */
function readTrace(text) {
  const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line));
  assert.equal(lines[0].kind, 'header');
  assert.equal(lines.at(-1).kind, 'end');
  return {
    scenario: lines[0].scenario,
    end: lines.at(-1),
    events: lines.filter((line) => line.kind === 'event').length,
  };
}

/** Puts downloads in name order: "…-left-trace" before "…-right-trace". */
const sortByName = (downloads) =>
  downloads.sort((first, second) => first.suggestedFilename().localeCompare(second.suggestedFilename()));

/** The words of the panels that tell a run's story: the store's ledger and the narration log. */
const panelText = (page) =>
  page.evaluate(() => ({
    ledger: document.querySelector('[data-testid=resource-ledger]').innerText,
    narration: document.querySelector('[data-testid=narration-log]').innerText,
  }));

test('"Export both traces" saves each side as its own trace file, and each re-imports to the run its side showed', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'quorumlab-compare-export-'));
  const saved = {};
  let shown;
  const app = await openApp({ width: 1440, height: 900 });
  try {
    const { page } = app;
    await page.selectOption('[data-testid=protocol-picker]', 'fencing-pause.toml');
    await page.selectOption('[data-testid=compare-picker]', 'fencing');
    await page.waitForSelector('[data-testid=compare-stage]');
    await setSpeedPosition(page);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    // Until A wakes from its pause and writes with its old token: there the two runs part.
    await waitUntil(async () => (await page.textContent('[data-testid=compare-difference]')).startsWith('left: StaleToken refused at'), {
      timeout: 30_000,
      what: 'the runs to part at the stale write',
    });

    const downloads = [];
    page.on('download', (download) => downloads.push(download));
    await page.click('[data-testid=compare-export]');
    await waitUntil(() => downloads.length === 2, { what: 'two downloads from one press' });
    // Chromium reports the two downloads in whichever order they finish, so they are read by name.
    sortByName(downloads);
    assert.equal(await isPlaying(page), false, 'exporting settles the instant it records');
    shown = {
      left: await sideHash(page, 'left'),
      right: await sideHash(page, 'right'),
      time: await simTimeMs(page),
    };
    assert.notEqual(shown.left, shown.right, 'the two runs differ by now');
    const names = downloads.map((download) => download.suggestedFilename());
    assert.deepEqual(names, [
      'fencing-the-paused-holder-s-stale-write-is-rejected-left-trace.jsonl',
      'fencing-the-paused-holder-s-stale-write-is-rejected-right-trace.jsonl',
    ]);
    assert.ok((await page.textContent('[data-testid=notice]')).startsWith(`Exported ${names[0]} and ${names[1]}`), 'the notice names both files');
    for (const [index, name] of ['left', 'right'].entries()) {
      assert.equal(await downloads[index].failure(), null, `the ${name} file downloaded`);
      saved[name] = join(folder, names[index]);
      await downloads[index].saveAs(saved[name]);
    }
    // A second press while paused saves the same two runs again.
    downloads.length = 0;
    await page.click('[data-testid=compare-export]');
    await waitUntil(() => downloads.length === 2, { what: 'two more downloads' });
    sortByName(downloads);
    const again = await Promise.all(downloads.map(async (download) => readFile(await download.path(), 'utf8')));
    assert.deepEqual(again, [await readFile(saved.left, 'utf8'), await readFile(saved.right, 'utf8')], 'a paused pair exports the same files');
    await app.screenshot('compare-export-1-exported');
    assertNoProblems(app);
  } finally {
    await app.close();
  }

  try {
    // Each file names its own configuration and the fingerprint its side showed, at the same instant.
    const left = readTrace(await readFile(saved.left, 'utf8'));
    const right = readTrace(await readFile(saved.right, 'utf8'));
    assert.match(left.scenario, /^fencing = true$/m, 'the left file is the fenced run');
    assert.match(right.scenario, /^fencing = false$/m, 'the right file is the run without fencing');
    assert.equal(left.end.trace_hash, shown.left, 'the left file ends on the left fingerprint');
    assert.equal(right.end.trace_hash, shown.right, 'the right file ends on the right fingerprint');
    assert.equal(left.end.position_us, right.end.position_us, 'both stop at the shared instant');
    assert.equal(Math.floor(left.end.position_us / 1_000), shown.time);
    assert.ok(left.events > 50 && right.events > 50, `both carry their events: ${left.events}, ${right.events}`);

    // Each re-imports, in a fresh page, to the run its side showed.
    const viewer = await openApp({ width: 1440, height: 900 });
    const panels = {};
    try {
      const { page } = viewer;
      for (const name of ['left', 'right']) {
        await page.setInputFiles('[data-testid=import-file]', saved[name]);
        await waitUntil(async () => (await traceHash(page)) === shown[name], {
          timeout: 20_000,
          what: `the ${name} file to replay to ${shown[name]}`,
        });
        assert.match(await page.textContent('[data-testid=notice]'), /Opened trace/);
        assert.equal(await simTimeMs(page), shown.time, `the ${name} run stops where it was exported`);
        assert.equal(await isPlaying(page), false);
        // The store's ledger is the imported run's: the fenced one refused A's stale write, the other
        // took it; every row drawn agrees with the totals above it (none left from the run before).
        const ledger = await page.$eval('[data-testid=resource-ledger]', (card) => ({
          heading: card.querySelector('h2').textContent,
          totals: card.querySelector('.ledger-totals').textContent,
          refusedRows: [...card.querySelectorAll('.ledger-row.rejected')].map((row) => row.textContent),
          staleWrite: [...card.querySelectorAll('.ledger-row')].map((row) => row.textContent).find((text) => /^.A write 997 /.test(text)),
        }));
        const fenced = name === 'left';
        assert.match(ledger.heading, fenced ? /fencing on/ : /fencing off/);
        assert.match(ledger.totals, fenced ? /· 1 rejected$/ : /· 0 rejected$/);
        assert.equal(ledger.refusedRows.length, fenced ? 1 : 0, `${name} refused rows: ${JSON.stringify(ledger.refusedRows)}`);
        assert.match(ledger.staleWrite ?? '', fenced ? /rejected, stale: 5 < 15/ : /token 5 · accepted/, `A's late write in the ${name} run`);
        await viewer.screenshot(`compare-export-2-${name}-imported`);
        panels[name] = await panelText(page);
      }
      // The right run opened straight after the left one reads as it does opened alone.
      await page.reload();
      await page.waitForSelector('[data-testid=app-root]');
      await page.setInputFiles('[data-testid=import-file]', saved.right);
      await waitUntil(async () => (await traceHash(page)) === shown.right, { timeout: 20_000, what: 'the right file alone' });
      const alone = await panelText(page);
      assert.equal(panels.right.ledger, alone.ledger, 'the ledger shows only the right run');
      assert.equal(panels.right.narration, alone.narration, 'the narration log tells only the right run');
      assert.notEqual(panels.left.narration, panels.right.narration, 'the two runs tell different stories');
      assertNoProblems(viewer);
    } finally {
      await viewer.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
