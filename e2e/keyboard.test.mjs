// Keyboard control for instructors: every shortcut on the sheet does what the sheet says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './support/browser.mjs';
import {
  assertNoProblems,
  isPlaying,
  readNode,
  readNodes,
  readRequests,
  setSpeedPosition,
  simTimeMs,
  waitForLeader,
  waitUntil,
} from './support/cluster.mjs';

const press = (page, key) => page.keyboard.press(key);

test('keyboard shortcuts: space, →, ←, K, P, I, H, R, W, 1–9, Esc, F, ?', async () => {
  const app = await openApp();
  const { page } = app;
  try {
    // Space pauses and resumes playback.
    await waitUntil(async () => (await simTimeMs(page)) > 0, { what: 'the clock to run' });
    await press(page, ' ');
    assert.equal(await isPlaying(page), false, 'space pauses');
    const frozenAt = await simTimeMs(page);
    await page.waitForTimeout(250);
    assert.equal(await simTimeMs(page), frozenAt, 'the clock stands still while paused');
    await press(page, ' ');
    assert.equal(await isPlaying(page), true, 'space plays again');
    await waitUntil(async () => (await simTimeMs(page)) > frozenAt, { what: 'the clock to move again' });
    await press(page, ' ');

    // → steps to the next event: time moves forward, playback stays paused.
    const beforeStep = await simTimeMs(page);
    await waitUntil(
      async () => {
        await press(page, 'ArrowRight');
        return (await simTimeMs(page)) > beforeStep;
      },
      { what: '→ to advance the clock', interval: 0 },
    );
    assert.equal(await isPlaying(page), false, '→ leaves playback paused');
    assert.match(await page.textContent('[data-testid=narration-caption]'), /^Step: \S/, 'the step says what it did');

    // ← steps back to the instant before.
    const afterStep = await simTimeMs(page);
    await press(page, 'ArrowLeft');
    assert.ok((await simTimeMs(page)) < afterStep, '← goes back in time');
    assert.equal(await isPlaying(page), false, '← leaves playback paused');

    // Top speed, then let a leader emerge.
    await setSpeedPosition(page);
    await press(page, ' ');
    const leader = await waitForLeader(page);

    // W sends a write to the leader; it commits.
    await press(page, 'w');
    const write = await waitUntil(
      async () => (await readRequests(page)).find((request) => request.kind === 'committed'),
      { what: 'the write sent with W to commit' },
    );
    assert.match(write.what, new RegExp(`→ ${leader.id}$`), 'W aims at the leader');

    // K crashes the leader; a new one takes over.
    await press(page, 'k');
    assert.equal((await readNode(page, leader.id)).status, 'crashed', 'K crashed the leader');
    const successor = await waitForLeader(page, { aboveTerm: leader.term });

    // I isolates the new leader: its links are cut. H heals them.
    await press(page, 'i');
    await waitUntil(async () => (await page.locator('[data-testid=cluster-view] g.link.cut').count()) > 0, {
      what: 'I to cut the leader off',
    });
    await app.screenshot('keyboard-1-crashed-and-isolated');
    await press(page, 'h');
    await waitUntil(async () => (await page.locator('[data-testid=cluster-view] g.link.cut').count()) === 0, {
      what: 'H to heal every link',
    });

    // R restarts crashed nodes.
    await press(page, 'r');
    assert.equal((await readNode(page, leader.id)).status, 'up', 'R restarted the crashed node');
    assert.ok(
      (await readNodes(page)).every((node) => node.status === 'up'),
      'every node is up after R',
    );

    // P pauses the leader; R resumes it. Just after the heal, leadership can move between reading the
    // leader and pressing P, so check what P did: one node paused, and (paused) it still believes it leads.
    // A press at a leaderless instant does nothing, and is retried.
    const paused = await waitUntil(
      async () => {
        await waitForLeader(page);
        await press(page, 'p');
        const frozen = (await readNodes(page)).filter((node) => node.status === 'paused');
        return frozen.length > 0 ? frozen : null;
      },
      { what: 'P to pause the leader' },
    );
    assert.equal(paused.length, 1, 'P paused one node');
    assert.equal(paused[0].role, 'leader', 'P paused the leader');
    await press(page, 'r');
    assert.equal((await readNode(page, paused[0].id)).status, 'up', 'R resumed it');

    // 1–9 select a node, Esc clears the selection.
    await press(page, '3');
    assert.equal((await readNode(page, 'n3')).selected, true, '3 selects n3');
    assert.match(await page.textContent('[data-testid=inspector] .inspector-title'), /^n3 — /);
    await press(page, '5');
    assert.equal((await readNode(page, 'n5')).selected, true, '5 selects n5');
    assert.equal((await readNode(page, 'n3')).selected, false, '…and only n5');
    await press(page, '9');
    assert.equal((await readNode(page, 'n5')).selected, true, '9 does nothing in a five-node cluster');
    await press(page, 'Escape');
    assert.ok((await readNodes(page)).every((node) => !node.selected), 'Esc clears the selection');
    assert.ok(await page.isVisible('[data-testid=inspector] .hint'), 'the inspector shows its hint again');

    // ? opens the sheet, Esc closes it.
    await press(page, '?');
    const sheet = page.locator('[data-testid=shortcut-sheet]');
    assert.ok(await sheet.isVisible(), '? opens the shortcut sheet');
    assert.equal(await sheet.locator('.shortcut').count(), 21, 'the sheet lists every shortcut (Enter on a node, ←, Home, End, − / + , G and the deck\'s PgDn / PgUp and B among them)');
    assert.match(await sheet.textContent(), /Home.*start of the run.*End.*latest moment.*half \/ double speed/s, 'the new keys are on the sheet');
    await app.screenshot('keyboard-2-shortcut-sheet');
    await press(page, 'Escape');
    assert.equal(await sheet.count(), 0, 'Esc closes the sheet');

    // F toggles presenter mode.
    await press(page, 'f');
    assert.match(await page.getAttribute('[data-testid=app-root]', 'class'), /\bpresenter\b/);
    assert.equal(await page.getAttribute('[data-testid=presenter-toggle]', 'aria-pressed'), 'true');
    await app.screenshot('keyboard-3-presenter-mode');
    await press(page, 'f');
    assert.doesNotMatch(await page.getAttribute('[data-testid=app-root]', 'class'), /\bpresenter\b/);

    // Keys typed into a text field belong to the field.
    await waitForLeader(page, { aboveTerm: successor.term - 1 });
    const seed = page.locator('[data-testid=setting-seed]');
    await seed.fill('');
    await seed.press('k');
    assert.equal(await seed.inputValue(), 'k');
    assert.ok((await readNodes(page)).every((node) => node.status === 'up'), 'K in a field crashed nothing');

    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
