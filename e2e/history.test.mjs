// "What the clients saw" (issue 33, S9): the Raft world's client operations on lanes, under the
// linearizability verdict. A stale lease read is refused with the engine's sentence, its witness marked,
// and Enter on the read seeks the run to the instant it was answered with the answering node in the
// inspector (its lease, its clock against true time); a pasted Jepsen-style history is checked and drawn
// as imported, a bad one says its line and column, and the run's history exports; a calm run says linearizable, and
// before any request the panel says there is nothing to judge yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, waitUntil } from './support/cluster.mjs';

const verdict = (page) => page.textContent('[data-testid=history-verdict]');
const rolesOf = (page, role) =>
  page.$$eval(`[data-testid=history-op][data-role=${role}]`, (bars) => bars.map((bar) => bar.textContent.trim()));

/** Plays through the visible play button at top speed until the clock passes `ms`, then pauses. */
async function playPast(page, ms) {
  await setSpeedPosition(page);
  await page.click('[data-testid=play-toggle]');
  await waitUntil(async () => (await simTimeMs(page)) > ms, { timeout: 60_000, what: `the run to pass ${ms} ms` });
  await page.click('[data-testid=play-toggle]');
  await waitUntil(async () => !(await isPlaying(page)), { timeout: 30_000, what: 'the run to pause' });
}

test('a stale lease read: not linearizable, the witness marked, Enter goes to the node that answered', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/gallery/stale-lease-read/demo' });
  const { page } = app;
  try {
    await waitUntil(async () => /stale lease read/i.test(await page.textContent('[data-testid=scenario-title]')), {
      timeout: 30_000,
      what: 'the example to open',
    });
    assert.equal(await page.locator('[data-testid=history-verdict]').count(), 0, 'the panel starts folded');
    await playPast(page, 2_200);
    // The way a learner finds it: from the red Linearizable Reads badge.
    await page.click('[data-invariant="Linearizable Reads"] [data-testid=badge-history-link]');
    await waitUntil(async () => /Not linearizable/.test((await verdict(page)) ?? ''), {
      timeout: 30_000,
      what: 'the verdict "Not linearizable"',
      detail: async () => verdict(page),
    });
    assert.equal(await page.getAttribute('[data-testid=history-toggle]', 'aria-expanded'), 'true');
    const inView = await page.$eval('[data-testid=history-view]', (panel) => panel.getBoundingClientRect().top < window.innerHeight);
    assert.ok(inView, 'the badge\'s link brings the panel into view');
    const words = await verdict(page);
    assert.match(words, /"get key 1 → 1" began after "put key 1 = 17" had returned, yet returned the older value/);
    assert.match(words, /It came after a fault aimed at the leader, n5 then, the node that answered it/);
    assert.deepEqual(await rolesOf(page, 'stuck'), ['get k1 → 1']);
    assert.deepEqual((await rolesOf(page, 'witness')).sort(), ['put k1=1', 'put k1=17']);
    const plain = await page.locator('[data-testid=history-op][data-role=plain]').count();
    assert.equal(plain, 30, 'the other 30 operations are drawn, unmarked');
    await app.screenshot('history-refused');

    const stuck = page.locator('[data-testid=history-op][data-role=stuck]');
    assert.equal(Number(await stuck.getAttribute('data-invoked-us')), 1_800_000);
    const jumpUs = Number(await stuck.getAttribute('data-jump-us'));
    assert.equal(await stuck.getAttribute('data-served-by'), 'n5');
    // Keyboard activation, as a learner without a mouse does it: focus the read and press Enter.
    await stuck.focus();
    await page.keyboard.press('Enter');
    await waitUntil(async () => (await simTimeMs(page)) === jumpUs / 1_000, {
      timeout: 30_000,
      what: 'the clock to move to the moment the read was answered',
      detail: async () => page.textContent('[data-testid=sim-time]'),
    });
    await waitUntil(async () => /^n5/.test(((await page.textContent('[data-testid=inspector] .inspector-title')) ?? '').trim()), {
      timeout: 10_000,
      what: 'the inspector to show n5, the node that answered the read',
      detail: async () => page.textContent('[data-testid=inspector]'),
    });
    const facts = await page.textContent('[data-testid=inspector]');
    assert.match(facts, /clock.*true/, 'its clock against true time');
    assert.match(facts, /lease\s*holds, by its own clock/, 'its lease, still holding by its own clock');
    // Said where the learner clicked, since the inspector sits out of view on most screens.
    const jumped = await page.textContent('[data-testid=history-jumped]');
    assert.match(jumped, /^Now at 1\.\d{3} s, when n5 answered “get k1 → 1”\. n5 was in term \d+, its lease held by its own clock; its clock ran \d+ ms (ahead of|behind) true time\./);
    await page.click('[data-testid=history-show-inspector]');
    await waitUntil(async () => page.$eval('[data-testid=inspector]', (box) => {
      const { top, bottom } = box.getBoundingClientRect();
      return top < window.innerHeight && bottom > 0;
    }), { timeout: 10_000, what: 'the inspector scrolled into view' });
    await app.screenshot('history-jumped');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('on a phone, the clicked operation stays in view after the jump', async () => {
  const app = await openApp({ width: 390, height: 844, path: '/#/gallery/stale-lease-read/demo' });
  const { page } = app;
  try {
    await waitUntil(async () => /stale lease read/i.test(await page.textContent('[data-testid=scenario-title]')), {
      timeout: 30_000,
      what: 'the example to open',
    });
    await playPast(page, 2_200);
    await page.click('[data-testid=history-toggle]');
    await waitUntil(async () => /Not linearizable/.test((await verdict(page)) ?? ''), {
      timeout: 30_000,
      what: 'the verdict "Not linearizable"',
      detail: async () => verdict(page),
    });
    // A witness put, answered early: after the jump the lanes end at its answer, so it sits at the
    // right edge of lanes wider than the phone.
    const put = page.locator('[data-testid=history-op][data-role=witness]').last();
    const op = await put.getAttribute('data-op');
    const jumpUs = Number(await put.getAttribute('data-jump-us'));
    await put.scrollIntoViewIfNeeded();
    await put.click();
    await waitUntil(async () => (await simTimeMs(page)) === Math.floor(jumpUs / 1_000), {
      timeout: 30_000,
      what: 'the clock to move to the moment the put was answered',
      detail: async () => page.textContent('[data-testid=sim-time]'),
    });
    const inView = () => page.evaluate((op) => {
      const scroll = document.querySelector('.hv-scroll');
      const bar = document.querySelector(`[data-testid=history-op][data-op="${op}"]`);
      if (!scroll || !bar) return false;
      const box = scroll.getBoundingClientRect();
      const { left, right } = bar.getBoundingClientRect();
      // Wholly inside the lanes' visible box (before the fix it sat some 300 px past its right edge).
      return scroll.scrollWidth > scroll.clientWidth && left >= box.left && right <= box.right;
    }, op);
    await waitUntil(inView, { timeout: 10_000, what: `operation ${op} in the lanes' view after the jump` });
    await app.screenshot('history-phone-jumped');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a calm run: nothing to judge before any request, linearizable after', async () => {
  const app = await openApp({ width: 1280, height: 720, path: '/#/gallery/lease-reads/demo' });
  const { page } = app;
  try {
    await waitUntil(async () => /lease/i.test(await page.textContent('[data-testid=scenario-title]')), {
      timeout: 30_000,
      what: 'the example to open',
    });
    await page.click('[data-testid=history-toggle]');
    await waitUntil(async () => /No client operation to judge yet/.test((await verdict(page)) ?? ''), {
      timeout: 30_000,
      what: 'nothing to judge yet',
      detail: async () => verdict(page),
    });
    await playPast(page, 3_300);
    await waitUntil(async () => /^\s*✓\s*Linearizable: \d+ operations over \d+ keys fit one order/.test((await verdict(page)) ?? ''), {
      timeout: 30_000,
      what: 'the verdict "Linearizable"',
      detail: async () => verdict(page),
    });
    assert.equal(await page.locator('[data-testid=history-op][data-role=stuck]').count(), 0);
    assert.equal(await page.locator('[data-testid=history-op][data-role=witness]').count(), 0);
    assert.ok((await page.locator('[data-testid=history-op]').count()) > 0, 'operations are drawn');
    await app.screenshot('history-calm');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('import and export: a pasted history is drawn as imported, a bad one says where', async () => {
  const app = await openApp({ width: 1280, height: 720, path: '/#/gallery/stale-lease-read/demo' });
  const { page } = app;
  try {
    await waitUntil(async () => /stale lease read/i.test(await page.textContent('[data-testid=scenario-title]')), {
      timeout: 30_000,
      what: 'the example to open',
    });
    await playPast(page, 2_200);
    await page.click('[data-testid=history-toggle]');
    await waitUntil(async () => /Not linearizable/.test((await verdict(page)) ?? ''), { timeout: 30_000, what: 'the run\'s verdict' });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=history-export]')]);
    assert.match(download.suggestedFilename(), /-history\.edn$/);
    const exported = await readFile(await download.path(), 'utf8');
    assert.match(exported.split('\n')[0], /^\{:process 0, :type :invoke, :f :write, :value \[\d+ \d+\], :time \d+\}$/);
    assert.ok(exported.includes(':node "n5"'), 'completions name the node that answered');

    await page.click('[data-testid=history-import] summary');
    await page.fill('[data-testid=history-import-text]', '{:process 0, :type :invoke, :f :read}\n{:process 0 :type');
    await page.click('[data-testid=history-import-button]');
    const problem = await page.textContent('[data-testid=history-import-error]');
    assert.match(problem, /^Not imported: line 2, column 18: /);
    assert.equal(await page.locator('[data-testid=history-imported]').count(), 0, 'a bad file changes nothing');

    const pasted = [
      '{:process 0, :type :invoke, :f :write, :value [1 3]}',
      '{:process 0, :type :ok, :f :write, :value [1 3]}',
      '{:process 0, :type :invoke, :f :write, :value [1 4]}',
      '{:process 0, :type :ok, :f :write, :value [1 4]}',
      '{:process 1, :type :invoke, :f :read, :value [1 nil]}',
      '{:process 1, :type :ok, :f :read, :value [1 3]}',
    ].join('\n');
    await page.fill('[data-testid=history-import-text]', pasted);
    await page.click('[data-testid=history-import-button]');
    await page.waitForSelector('[data-testid=history-imported]');
    assert.match(await page.textContent('[data-testid=history-imported]'), /Imported: pasted history — not the run/);
    assert.match(await verdict(page), /Not linearizable: "get key 1 → 3" began after "put key 1 = 4" had returned/);
    assert.equal(await page.locator('[data-testid=history-op]').count(), 3, 'only the imported operations are drawn');
    await app.screenshot('history-imported');
    const before = await simTimeMs(page);
    await page.click('[data-testid=history-op][data-role=stuck]');
    assert.equal(await simTimeMs(page), before, 'an imported operation takes the run nowhere');
    await page.click('[data-testid=history-back-to-run]');
    await waitUntil(async () => (await page.locator('[data-testid=history-op]').count()) === 33, { timeout: 10_000, what: 'the run\'s 33 operations back' });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
