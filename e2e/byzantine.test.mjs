// PBFT and the Byzantine fault in the app: PBFT loads from the picker and from a share link with its
// own card (views, primaries, slots, replies, the price in messages) instead of Raft's; a node made
// Byzantine from its popover is drawn with a jagged ring and its lie in words, on the ring and on its
// space-time lane; an equivocating primary's pre-prepares read differently per recipient; Honest
// Agreement holds with one liar among four and fires with a quorum of two among three; a crashed liar
// is drawn without its ring (it lies again once restarted), and two faulty replicas of four are named as
// more than n = 4 tolerates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, violatedInvariants, waitForLeader, waitUntil } from './support/cluster.mjs';

const POPOVER = '[data-testid=node-popover]';
const traceHash = (page) => page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');

async function pause(page) {
  if (await isPlaying(page)) await page.click('[data-testid=play-toggle]');
}

/** Makes `node` Byzantine in `mode` ("Equivocate", "Lie", "Go silent") from its popover. */
async function makeByzantine(page, node, mode) {
  await page.click(`[data-testid=node-${node}]`);
  await page.waitForSelector(POPOVER);
  const button = page.locator(`${POPOVER} button[aria-label^="${mode}, make ${node} Byzantine"]`);
  assert.equal(await button.count(), 1, `the popover offers ${mode} on ${node}`);
  await button.click();
  await page.keyboard.press('Escape');
}

/** Steps one event at a time (bounded) until `count` messages of `kind` are in flight. */
async function stepUntilInFlight(page, kind, count) {
  for (let steps = 0; steps < 600; steps += 1) {
    if ((await page.locator(`g.message[data-kind="${kind}"]`).count()) >= count) return;
    await page.click('[data-testid=step-forward]');
  }
  assert.fail(`${count} ${kind} messages never flew at once`);
}

/** What each message of `kind` in flight says, read from its detail after a click. */
async function contentsOf(page, kind) {
  const ids = await page.$$eval(`g.message[data-kind="${kind}"]`, (dots) => dots.map((dot) => dot.getAttribute('data-message-id')));
  const said = [];
  for (const id of ids) {
    await page.locator(`[data-testid=cluster-view] g.message[data-message-id="${id}"]`).focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=message-menu]').waitFor();
    said.push(await page.textContent('[data-testid=message-detail] p'));
    await page.click('[data-testid=message-menu] button.link');
  }
  return said;
}

test('PBFT from the picker: its own card, no Raft logs; an equivocating primary from the popover, caught', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    const values = await page.$$eval('[data-testid=protocol-picker] option', (options) => options.map((option) => option.value));
    assert.ok(values.includes('pbft-normal.toml'), `picker: ${values}`);
    await page.selectOption('[data-testid=protocol-picker]', 'pbft-byzantine-primary.toml');
    await pause(page);
    const panel = page.locator('[data-testid=pbft-panel]');
    await panel.waitFor();
    assert.equal(await page.locator('[data-testid=log-strips]').count(), 0, 'no Raft logs card in PBFT');
    assert.equal(await page.locator('[data-testid=settings-no-raft]').count(), 1, 'no Raft settings either');
    assert.match(await page.textContent('[data-testid=pbft-rules]'), /n = 4 replicas tolerate f = 1 liars · quorum 3 \(2f \+ 1\)/);
    assert.match(await page.textContent('[data-testid=leader-chip]'), /^primary of view 0: n1$/);
    assert.equal(await page.locator('[data-testid=pbft-replica]').count(), 4);

    await makeByzantine(page, 'n1', 'Equivocate');
    await waitUntil(async () => /lies: equivocates/.test((await page.textContent('[data-testid=liar-n1]')) ?? ''), { what: 'n1 to be marked a liar' });
    assert.match(await page.getAttribute('[data-testid=node-n1]', 'class'), /\bliar\b/);
    assert.ok(await page.isVisible('[data-testid=node-n1] .liar-ring'), 'the jagged ring is drawn');
    const lanes = await page.$$eval('[data-testid=spacetime] .st-lane-label', (texts) => texts.map((text) => text.textContent.trim()));
    assert.ok(lanes.includes('⚠ n1'), `the liar's lane says so: ${lanes}`);
    assert.match(await panel.textContent(), /n1 ◆ \(lies: equivocates\)/);

    await stepUntilInFlight(page, 'PrePrepare', 3);
    const said = await contentsOf(page, 'PrePrepare');
    const distinct = new Set(said.map((text) => /says “([^”]+)”/.exec(text)?.[1]));
    assert.ok(distinct.size >= 2, `one primary, different pre-prepares per backup: ${said.join(' | ')}`);
    assert.ok(said.some((text) => /\(forged\)/.test(text)), `one of them carries the forged request: ${said.join(' | ')}`);
    await app.screenshot('byzantine-pbft-equivocating-primary-1440');

    await setSpeedPosition(page);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await simTimeMs(page)) > 3_000, { timeout: 30_000, what: 'the run past 3 s' });
    await waitUntil(async () => /primary of view [1-9]/.test(await page.textContent('[data-testid=leader-chip]')), { what: 'a view change past the liar' });
    assert.ok(!(await violatedInvariants(page)).includes('Honest Agreement'), 'Honest Agreement holds with one liar among four');
    assert.equal(await page.locator('[data-testid=checker-badges] li[data-invariant="Honest Agreement"]').count(), 1);
    assert.match(await page.textContent('[data-testid=pbft-price]'), /PBFT: \d+\.\d messages per request .* Raft with 4 servers: \d+\.\d per write/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('a PBFT share link with a liar reopens the same run, the liar still marked', async () => {
  const sharer = await openApp({ width: 1920, height: 1080 });
  let fragment;
  let hash;
  try {
    const { page } = sharer;
    await page.selectOption('[data-testid=protocol-picker]', 'pbft-normal.toml');
    await pause(page);
    await makeByzantine(page, 'n3', 'Lie');
    await page.waitForSelector('[data-testid=liar-n3]');
    await setSpeedPosition(page);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await simTimeMs(page)) > 1_200, { timeout: 20_000, what: 'the run past 1.2 s' });
    await page.click('[data-testid=share-button]');
    fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], { what: 'the link' });
    hash = await traceHash(page);
    await sharer.screenshot('byzantine-pbft-lying-backup-1920');
    assertNoProblems(sharer);
  } finally {
    await sharer.close();
  }
  const viewer = await openApp({ path: `/${fragment}` });
  try {
    const { page } = viewer;
    await waitUntil(async () => (await traceHash(page)) === hash, { timeout: 20_000, what: `trace hash ${hash}` });
    assert.match(await page.textContent('[data-testid=liar-n3]'), /lies: forges/);
    await page.locator('[data-testid=pbft-panel]').waitFor();
    assertNoProblems(viewer);
  } finally {
    await viewer.close();
  }
});

/** Runs the simulation until its clock passes `ms`, then pauses it. */
async function runPast(page, ms) {
  await setSpeedPosition(page);
  if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
  await waitUntil(async () => (await simTimeMs(page)) > ms, { timeout: 30_000, what: `the run past ${ms} ms` });
  await pause(page);
}

for (const { width, height } of [{ width: 1440, height: 900 }, { width: 1920, height: 1080 }]) {
  test(`PBFT at ${width}: a crashed liar loses its ring and says it lies again on restart; two faulty of four are named beyond f`, async () => {
    const app = await openApp({ width, height });
    const { page } = app;
    try {
      await page.selectOption('[data-testid=protocol-picker]', 'pbft-normal.toml');
      await pause(page);
      await page.locator('[data-testid=pbft-panel]').waitFor();
      await makeByzantine(page, 'n1', 'Lie');
      await makeByzantine(page, 'n3', 'Lie');
      await page.waitForSelector('[data-testid=liar-n1]');
      // The example crashes n1, the primary, at 1.5 s.
      await runPast(page, 1_700);
      const n1 = '[data-testid=node-n1]';
      assert.match(await page.getAttribute(n1, 'class'), /\bstatus-crashed\b/);
      assert.doesNotMatch(await page.getAttribute(n1, 'class'), /\bliar\b/, 'down, it is not drawn lying');
      assert.equal(await page.locator(`${n1} .liar-ring`).count(), 0, 'no jagged ring while down');
      assert.equal(await page.locator('[data-testid=liar-n1]').count(), 0);
      assert.match(await page.textContent('[data-testid=restart-liar-n1]'), /lies again on restart: forges/);
      assert.match(await page.getAttribute(n1, 'aria-label'), /crashed, lies again on restart: forges/);
      const panel = await page.textContent('[data-testid=pbft-replicas]');
      assert.match(panel, /n1 · crashed \(lies again on restart: forges\)/);
      assert.doesNotMatch(panel, /n1 ◆/, 'a crashed replica is drawn primary of nothing');
      const warning = await page.textContent('[data-testid=pbft-beyond-tolerance]');
      assert.match(warning, /2 faulty replicas \(n1 crashed, n3 lies\) but n = 4 tolerates f = 1/);
      assert.match(await page.textContent('[data-testid=node-n5] .node-caption'), /2 faulty > f = 1/);
      await app.screenshot(`byzantine-pbft-crashed-liar-${width}`);

      // Restarted, it lies again (the engine kept its mode), and the ring is back.
      await page.click(n1);
      await page.waitForSelector(POPOVER);
      await page.locator(`${POPOVER} button[aria-label="Restart n1"]`).click();
      await page.keyboard.press('Escape');
      await waitUntil(async () => /lies: forges/.test((await page.textContent('[data-testid=liar-n1]').catch(() => '')) ?? ''), { what: 'n1 marked a liar again' });
      assert.ok(await page.isVisible(`${n1} .liar-ring`), 'the ring is drawn again');
      assert.equal(await page.locator('[data-testid=restart-liar-n1]').count(), 0);
      // n1 up and lying, n3 lying: still two faulty.
      assert.match(await page.textContent('[data-testid=pbft-beyond-tolerance]'), /2 faulty replicas \(n1 lies, n3 lies\)/);
      // Make n3 honest: one fault of four is within f, and the warning goes.
      await page.click('[data-testid=node-n3]');
      await page.waitForSelector(POPOVER);
      await page.locator(`${POPOVER} button[aria-label^="Make honest, n3"]`).click();
      await page.keyboard.press('Escape');
      await waitUntil(async () => (await page.locator('[data-testid=pbft-beyond-tolerance]').count()) === 0, { what: 'the warning to go' });
      assertNoProblems(app);
    } finally {
      await app.close();
    }
  });
}

test('a Raft server made Byzantine from its popover is marked on the ring and its lane', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    await waitForLeader(page);
    await pause(page);
    assert.equal(await page.locator('[data-testid=log-strips]').count(), 1, 'Raft keeps its logs card');
    await makeByzantine(page, 'n2', 'Equivocate');
    await waitUntil(async () => /lies: equivocates/.test((await page.textContent('[data-testid=liar-n2]')) ?? ''), { what: 'n2 to be marked a liar' });
    assert.match(await page.getAttribute('[data-testid=node-n2]', 'aria-label'), /lies: equivocates/);
    const lanes = await page.$$eval('[data-testid=spacetime] .st-lane-label', (texts) => texts.map((text) => text.textContent.trim()));
    assert.ok(lanes.includes('⚠ n2'), `the liar's lane says so: ${lanes}`);
    await stepUntilInFlight(page, 'Heartbeat', 1);
    const said = await contentsOf(page, 'Heartbeat');
    assert.ok(said.every((text) => /says “term \d+, leader n\d · no entries · commit \d+”/.test(text)), said.join(' | '));
    await page.click('[data-testid=node-n2]');
    await page.waitForSelector(POPOVER);
    assert.equal(await page.locator(`${POPOVER} button[aria-label^="Make honest, n2"]`).count(), 1, 'the undo is offered');
    await page.locator(`${POPOVER} button[aria-label^="Make honest, n2"]`).click();
    await page.keyboard.press('Escape');
    await waitUntil(async () => (await page.locator('[data-testid=liar-n2]').count()) === 0, { what: 'the mark to go' });
    await app.screenshot('byzantine-raft-honest-again-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('the misconfigured three-replica PBFT from its gallery address breaks Honest Agreement', async () => {
  const app = await openApp({ width: 1920, height: 1080, path: '/#/gallery/pbft-misconfigured-three' });
  const { page } = app;
  try {
    await page.locator('[data-testid=pbft-panel]').waitFor({ timeout: 20_000 });
    assert.match(await page.textContent('[data-testid=pbft-rules]'), /quorum 2 — UNSAFE/);
    await setSpeedPosition(page);
    if (!(await isPlaying(page))) await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await violatedInvariants(page)).includes('Honest Agreement'), { timeout: 30_000, what: 'Honest Agreement to fire' });
    await app.screenshot('byzantine-pbft-misconfigured-1920');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
