// The instructors' gallery and the fault-schedule lane (issues 16 and 15): every example listed, opened
// from the gallery and from its address (back and forward included), the demo flag opening paused with
// the schedule showing, an edited schedule (a mark dragged, one deleted, one added) reproduced by a
// share link, and imports joining the gallery (a bad one refused with the parser's words).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openApp, REPO_ROOT } from './support/browser.mjs';
import { assertNoProblems, isPlaying, setSpeedPosition, simTimeMs, waitUntil } from './support/cluster.mjs';

// sim/scenarios/ and the examples each world keeps in its own folder (sim/src/protocols/*/examples/).
const tomlCount = (folder) => readdirSync(folder).filter((name) => name.endsWith('.toml')).length;
const PROTOCOLS = join(REPO_ROOT, 'sim', 'src', 'protocols');
const EXAMPLE_COUNT =
  tomlCount(join(REPO_ROOT, 'sim', 'scenarios')) +
  readdirSync(PROTOCOLS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(PROTOCOLS, entry.name, 'examples'))
    .filter((folder) => existsSync(folder))
    .reduce((sum, folder) => sum + tomlCount(folder), 0);
const traceHash = (page) => page.getAttribute('[data-testid=trace-hash]', 'data-trace-hash');
const title = (page) => page.textContent('[data-testid=scenario-title]');
const marks = (page) =>
  page.$$eval('[data-testid=schedule-mark]', (buttons) =>
    buttons.map((button) => `${button.dataset.atMs}/${button.dataset.endMs}/${button.getAttribute('aria-label')}`),
  );

test('the gallery lists every example with what to try and what to see, from the keyboard too', async () => {
  const app = await openApp();
  try {
    const { page } = app;
    await page.keyboard.press('g');
    await page.waitForSelector('[data-testid=gallery]');
    assert.equal(new URL(page.url()).hash, '#/gallery');
    assert.equal(await page.locator('[data-testid=gallery-item]').count(), EXAMPLE_COUNT);
    for (const id of ['split-vote', 'two-regions', 'one-node', 'fifty-one-nodes', 'fencing-pause']) {
      const card = page.locator(`[data-testid=gallery-item][data-gallery-id=${id}]`);
      assert.equal(await card.count(), 1, id);
      assert.ok((await card.locator('[data-testid=gallery-see]').textContent()).length > 20, `${id} says what to see`);
    }
    const focused = await page.evaluate(() => document.activeElement?.dataset.testid);
    assert.equal(focused, 'gallery-open', 'keyboard users land on the first card');
    await app.screenshot('gallery-1440');
    await page.keyboard.press('Escape');
    await waitUntil(async () => (await page.locator('[data-testid=gallery]').count()) === 0, { what: 'Escape to close the gallery' });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('the gallery is legible at 1920×1080 in presenter mode, and opens by touch', async () => {
  const app = await openApp({ width: 1920, height: 1080, page: { hasTouch: true } });
  try {
    const { page } = app;
    await page.tap('[data-testid=presenter-toggle]');
    await page.tap('[data-testid=gallery-button]');
    await page.waitForSelector('[data-testid=gallery]');
    await app.screenshot('gallery-1920-presenter');
    await page.tap('[data-testid=gallery-item][data-gallery-id=split-vote] [data-testid=gallery-demo]');
    await waitUntil(async () => (await title(page)).includes('Split votes'), { what: 'split-vote to open by touch' });
    await page.waitForSelector('[data-testid=schedule-lane]');
    await app.screenshot('gallery-demo-1920-presenter');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('split-vote opens from the gallery and from its address; back and forward move between openings', async () => {
  const app = await openApp();
  try {
    const { page } = app;
    await page.click('[data-testid=gallery-button]');
    await page.click('[data-testid=gallery-item][data-gallery-id=split-vote] [data-testid=gallery-open]');
    await waitUntil(async () => (await title(page)).includes('Split votes'), { what: 'split-vote to open' });
    assert.equal(new URL(page.url()).hash, '#/gallery/split-vote');
    assert.equal(await page.locator('[data-testid=gallery]').count(), 0, 'the gallery closes on opening');
    assert.ok(await isPlaying(page), '"Open" plays, even on a card that suggests a demo');
    await page.click('[data-testid=gallery-button]');
    await page.click('[data-testid=gallery-item][data-gallery-id=two-regions] [data-testid=gallery-open]');
    await waitUntil(async () => (await title(page)).includes('Two regions'), { what: 'two-regions to open' });
    assert.ok(await isPlaying(page), 'a card without the demo flag plays too');
    await page.goBack(); // to the list
    await page.goBack(); // to split-vote
    await waitUntil(async () => (await title(page)).includes('Split votes'), { what: 'back to reopen split-vote' });
    await page.goForward();
    await page.goForward();
    await waitUntil(async () => (await title(page)).includes('Two regions'), { what: 'forward to reopen two-regions' });
    assertNoProblems(app);
  } finally {
    await app.close();
  }
  const direct = await openApp({ path: '/#/gallery/split-vote' });
  try {
    await waitUntil(async () => (await title(direct.page)).includes('Split votes'), { what: 'the address to open split-vote' });
    assertNoProblems(direct);
  } finally {
    await direct.close();
  }
});

test('an edge case in a lesson links to its example in the gallery; back returns to the lesson', async () => {
  const app = await openApp({ width: 1440, height: 900, path: '/#/lesson/distributed-locks' });
  try {
    const { page } = app;
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="distributed-locks"]');
    const link = page.locator('[data-testid=lesson-gallery-link]', { hasText: 'the unsafe release' });
    assert.equal(await link.getAttribute('href'), '#/gallery/redis-unsafe-release');
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await waitUntil(async () => (await title(page)).includes('release'), { what: 'the unsafe release to open' });
    assert.equal(await page.locator('[data-testid=lesson-panel]').count(), 0, 'the lesson closes');
    assert.match((await page.textContent('[data-testid=notice]')) ?? '', /Opened from the gallery/);
    await page.goBack();
    await page.waitForSelector('[data-testid=lesson-panel][data-lesson-id="distributed-locks"]');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('the demo flag opens paused at the start with the fault schedule showing', async () => {
  const app = await openApp({ path: '/#/gallery/leader-crash/demo' });
  try {
    const { page } = app;
    await waitUntil(async () => (await title(page)).includes('Leader crash'), { what: 'leader-crash to open' });
    assert.equal(await isPlaying(page), false);
    await page.waitForSelector('[data-testid=schedule-lane]');
    assert.equal(await page.locator('[data-testid=schedule-mark]').count(), 3, 'request, crash, request');
    assert.equal(await simTimeMs(page), 0);
    await app.screenshot('gallery-demo-1440');
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('an edited schedule (dragged, deleted, added) replays from a share link to the same run', async () => {
  const editor = await openApp({ path: '/#/gallery/leader-crash/demo' });
  let fragment;
  let shared;
  try {
    const { page } = editor;
    await page.waitForSelector('[data-testid=schedule-mark]');
    // Drag the crash (1.2 s) to the right.
    const crash = page.locator('[data-testid=schedule-mark][data-at-ms="1200"]');
    // A demo opens at the top of the page; the lane may be below the fold (or under the sticky play
    // bar), so scroll it to the middle as a learner would before dragging.
    await crash.evaluate((mark) => mark.scrollIntoView({ block: 'center' }));
    const box = await crash.boundingBox();
    await page.mouse.move(box.x + 4, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 40, box.y + box.height / 2, { steps: 5 });
    await page.mouse.move(box.x + 84, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await waitUntil(async () => (await page.locator('[data-testid=schedule-mark][data-at-ms="1200"]').count()) === 0, {
      what: 'the crash to move',
    });
    const moved = await page.$$eval('[data-testid=schedule-mark]', (buttons) => buttons.map((button) => Number(button.dataset.atMs)));
    assert.ok(moved.some((at) => at > 1200 && at < 2500), `the crash moved later: ${moved}`);
    // Delete the second request burst by keyboard.
    await page.focus('[data-testid=schedule-mark][data-at-ms="2500"]');
    await page.keyboard.press('Delete');
    await waitUntil(async () => (await page.locator('[data-testid=schedule-mark]').count()) === 2, { what: 'the delete' });
    // Add a pause of n2 at 2.1 s for 300 ms, then make it 100 ms longer with ↑.
    await page.selectOption('[data-testid=schedule-kind]', 'pause');
    await page.selectOption('[data-testid=schedule-node]', '1');
    await page.fill('[data-testid=schedule-at]', '2100');
    await page.fill('[data-testid=schedule-amount]', '300');
    await page.click('[data-testid=schedule-add]');
    await page.waitForSelector('[data-testid=schedule-mark][data-at-ms="2100"][data-end-ms="2400"]');
    await page.focus('[data-testid=schedule-mark][data-at-ms="2100"]');
    await page.keyboard.press('ArrowUp');
    await page.waitForSelector('[data-testid=schedule-mark][data-at-ms="2100"][data-end-ms="2500"]');
    assert.equal(await page.locator('[data-testid=schedule-error]').count(), 0);
    await editor.screenshot('gallery-schedule-edited');
    const edited = await marks(page);
    // Play through the edits, then share.
    await setSpeedPosition(page);
    await page.click('[data-testid=play-toggle]');
    await waitUntil(async () => (await simTimeMs(page)) > 3_000, { what: 'the run to pass 3 s', timeout: 20_000 });
    await page.click('[data-testid=share-button]');
    fragment = await waitUntil(async () => new URL(page.url()).hash.match(/^#\/run\/v4\/.+/)?.[0], { what: 'the link' });
    shared = { hash: await traceHash(page), time: await simTimeMs(page), edited };
    assertNoProblems(editor);
  } finally {
    await editor.close();
  }
  const viewer = await openApp({ path: `/${fragment}` });
  try {
    const { page } = viewer;
    await waitUntil(async () => (await traceHash(page)) === shared.hash, { what: `trace hash ${shared.hash}` });
    assert.equal(await simTimeMs(page), shared.time);
    // The sharer had the schedule open, and the link keeps it so (issue 35, item 9).
    assert.equal(await page.getAttribute('[data-testid=schedule-toggle]', 'aria-expanded'), 'true', 'the schedule opens as shared');
    await page.waitForSelector('[data-testid=schedule-mark]');
    assert.deepEqual(await marks(page), shared.edited, 'the link carries the edited schedule');
    assertNoProblems(viewer);
  } finally {
    await viewer.close();
  }
});

test('an imported scenario joins the gallery; a bad one shows the parser error and changes nothing', async () => {
  const app = await openApp();
  try {
    const { page } = app;
    await page.click('[data-testid=gallery-button]');
    const before = await title(page);
    await page.fill('[data-testid=gallery-import-text]', 'protocol = "raft"\nnodes = 0\nduration_ms = 1000\n');
    await page.click('[data-testid=gallery-import-button]');
    const error = await page.textContent('[data-testid=gallery-import-error]');
    assert.match(error, /nodes/, error);
    assert.equal(await page.locator('[data-testid=gallery-item]').count(), EXAMPLE_COUNT, 'no card added');
    assert.equal(await title(page), before, 'the run is untouched');
    const text = '# Three nodes and one crash, for my class\ntitle = "My class demo"\nprotocol = "raft"\nnodes = 3\nduration_ms = 3000\n\n[[step]]\nat_ms = 1000\ndo = "crash"\ntarget = "leader"\n';
    await page.fill('[data-testid=gallery-import-text]', text);
    await page.click('[data-testid=gallery-import-button]');
    await page.waitForSelector('[data-testid=gallery-item][data-gallery-id=imported-1]');
    assert.equal(await page.locator('[data-testid=gallery-import-error]').count(), 0);
    const summary = await page.textContent('[data-testid=gallery-item][data-gallery-id=imported-1] [data-testid=gallery-summary]');
    assert.equal(summary, 'Three nodes and one crash, for my class');
    await page.click('[data-testid=gallery-item][data-gallery-id=imported-1] [data-testid=gallery-demo]');
    await waitUntil(async () => (await title(page)).includes('My class demo'), { what: 'the import to open' });
    assert.equal(new URL(page.url()).hash, '#/gallery/imported-1/demo');
    assert.equal(await page.locator('[data-testid=schedule-mark]').count(), 1);
    // A scenario imported from the side panel's file box joins the gallery as well.
    await page.fill('[data-testid=import-text]', text.replace('My class demo', 'From the side panel'));
    await page.click('[data-testid=import-button]');
    await waitUntil(async () => (await title(page)).includes('From the side panel'), { what: 'the side-panel import' });
    await page.click('[data-testid=gallery-button]');
    await page.waitForSelector('[data-testid=gallery-item][data-gallery-id=imported-2]');
    assert.equal(await page.locator('[data-testid=gallery-item]').count(), EXAMPLE_COUNT + 2);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});

test('an imported scenario is still in the gallery on the next visit, until removed; unreadable kept ones are named', async () => {
  const app = await openApp();
  try {
    const { page } = app;
    const card = '[data-testid=gallery-item][data-gallery-id=imported-1]';
    await page.click('[data-testid=gallery-button]');
    const text = '# Prepared the day before\ntitle = "Tomorrow\'s demo"\nprotocol = "raft"\nnodes = 5\nduration_ms = 4000\n\n[[step]]\nat_ms = 1500\ndo = "crash"\ntarget = "leader"\n';
    await page.fill('[data-testid=gallery-import-text]', text);
    await page.click('[data-testid=gallery-import-button]');
    await page.waitForSelector(card);
    assert.match(await page.textContent('[data-testid=gallery-import-added]'), /keeps it for your next visits/);
    // The next visit: the same browser, a fresh page at the app's plain address.
    await page.goto(`${app.url}/`);
    await page.reload();
    await page.waitForSelector('[data-testid=gallery-button]');
    await page.click('[data-testid=gallery-button]');
    await page.waitForSelector(card);
    assert.equal(await page.textContent(`${card} [data-testid=gallery-summary]`), 'Prepared the day before');
    await page.click(`${card} [data-testid=gallery-demo]`);
    await waitUntil(async () => (await title(page)).includes("Tomorrow's demo"), { what: 'the kept import to open' });
    assert.equal(await page.locator('[data-testid=schedule-mark]').count(), 1);
    await app.screenshot('gallery-kept-import-opened');
    // Removed, it stays gone on the next visit, and its address says why it cannot open.
    await page.click('[data-testid=gallery-button]');
    await page.click(`${card} [data-testid=gallery-remove]`);
    await waitUntil(async () => (await page.locator(card).count()) === 0, { what: 'the card to go' });
    await page.goto(`${app.url}/#/gallery/imported-1`);
    await page.reload();
    await page.waitForSelector('[data-testid=notice]');
    assert.match(await page.textContent('[data-testid=notice]'), /imported-1` is not among this browser's imports/);
    assert.equal(await page.locator(card).count(), 0);
    // A kept file this version cannot parse is named, not dropped silently, and nothing else changes.
    await page.evaluate(() =>
      localStorage.setItem('quorumlab.gallery.imported', JSON.stringify([{ number: 3, file_name: 'old.toml', text: 'nodes = 0' }])),
    );
    await page.goto(`${app.url}/`);
    await page.reload();
    await page.waitForSelector('[data-testid=notice]');
    assert.match(await page.textContent('[data-testid=notice]'), /cannot read .*old\.toml/);
    assertNoProblems(app);
  } finally {
    await app.close();
  }
});
